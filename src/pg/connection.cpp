// Connection: RAII over PGconn, blocking helpers for setup and -i, non-blocking calls for the
// benchmark engine. Only this folder includes <libpq-fe.h>.
#include "pg/connection.hpp"

#include "pg/batched_io.hpp"
#include "pg/password_prompt.hpp"

#include <libpq-fe.h>

#include <array>
#include <utility>

namespace pglab::pg {

namespace {

/// Keyword/value arrays for PQconnectdbParams and PQconnectStartParams; empty values are
/// passed as NULL so that libpq falls back to the environment and its defaults.
class ConnectArgs {
public:
    explicit ConnectArgs(const ConnParams& p) {
        set(0, "host", p.host);
        set(1, "port", p.port);
        set(2, "user", p.user);
        set(3, "password", p.password);
        set(4, "dbname", p.dbname);
        set(5, "fallback_application_name", p.application_name);
        set(6, "options", p.options);
        m_keywords[7] = nullptr;
        m_values[7] = nullptr;
    }

    const char* const* keywords() const { return m_keywords.data(); }

    const char* const* values() const { return m_values.data(); }

private:
    void set(size_t i, const char* key, const std::string& value) {
        m_keywords[i] = key;
        m_values[i] = value.empty() ? nullptr : value.c_str();
    }

    static constexpr size_t k_size = 8;
    std::array<const char*, k_size> m_keywords{};
    std::array<const char*, k_size> m_values{};
};

/// Expands a conninfo string or URI given as dbname, as pgbench does.
constexpr int k_expand_dbname = 1;

std::string trim_newline(std::string s) {
    while (!s.empty() && s.back() == '\n') {
        s.pop_back();
    }
    return s;
}

} // namespace

Connection::~Connection() {
    close();
}

Connection::Connection(Connection&& other) noexcept
    : m_conn(std::exchange(other.m_conn, nullptr)),
      m_in_pipeline(std::exchange(other.m_in_pipeline, false)),
      m_notice(std::move(other.m_notice)) {}

Connection& Connection::operator=(Connection&& other) noexcept {
    if (this != &other) {
        close();
        m_conn = std::exchange(other.m_conn, nullptr);
        m_in_pipeline = std::exchange(other.m_in_pipeline, false);
        m_notice = std::move(other.m_notice);
    }
    return *this;
}

Result<Connection> Connection::connect(ConnParams& params) {
    bool prompted = false;
    while (true) {
        const ConnectArgs args(params);
        Connection conn(PQconnectdbParams(args.keywords(), args.values(), k_expand_dbname));
        if (!conn.valid()) {
            return make_error("out of memory");
        }
        if (PQstatus(conn.m_conn) != CONNECTION_BAD) {
            return conn;
        }
        if (PQconnectionNeedsPassword(conn.m_conn) != 0 && params.password.empty() && !prompted) {
            conn.close();
            params.password = prompt_password("Password: ");
            prompted = true;
            continue;
        }
        return make_error(trim_newline(conn.error_message()));
    }
}

Result<Connection> Connection::start_connect(const ConnParams& params) {
    const ConnectArgs args(params);
    Connection conn(PQconnectStartParams(args.keywords(), args.values(), k_expand_dbname));
    if (!conn.valid()) {
        return make_error("out of memory");
    }
    if (PQstatus(conn.m_conn) == CONNECTION_BAD) {
        return make_error(trim_newline(conn.error_message()));
    }
    return conn;
}

PollStatus Connection::poll_connect() {
    switch (PQconnectPoll(m_conn)) {
    case PGRES_POLLING_READING:
        return PollStatus::reading;
    case PGRES_POLLING_WRITING:
        return PollStatus::writing;
    case PGRES_POLLING_OK:
        return PollStatus::ok;
    default:
        return PollStatus::failed;
    }
}

void Connection::close() {
    if (m_conn != nullptr) {
        // A socket batched through io_uring is given back first: its queued output written,
        // its armed receive cancelled, before PQfinish says goodbye and closes it.
        if (BatchedIo* io = BatchedIo::current(); io != nullptr) {
            io->detach(PQsocket(m_conn)); // does nothing for a socket it has not attached
        }
        PQfinish(m_conn);
        m_conn = nullptr;
        m_in_pipeline = false;
    }
}

std::string Connection::error_message() const {
    return m_conn != nullptr ? PQerrorMessage(m_conn) : "";
}

int Connection::socket() const {
    return PQsocket(m_conn);
}

bool Connection::encrypted() const {
    return PQsslInUse(m_conn) != 0 || PQgssEncInUse(m_conn) != 0;
}

int Connection::server_version() const {
    return PQserverVersion(m_conn);
}

std::string Connection::parameter_status(const char* name) const {
    const char* v = PQparameterStatus(m_conn, name);
    return v != nullptr ? v : "";
}

std::string Connection::dbname() const {
    const char* v = PQdb(m_conn);
    return v != nullptr ? v : "";
}

bool Connection::set_nonblocking(bool on) {
    return PQsetnonblocking(m_conn, on ? 1 : 0) == 0;
}

Result<std::string> Connection::escape_identifier(std::string_view name) const {
    char* quoted = PQescapeIdentifier(m_conn, name.data(), name.size());
    if (quoted == nullptr) {
        return make_error(trim_newline(error_message()));
    }
    std::string out(quoted);
    PQfreemem(quoted);
    return out;
}

Result<QueryResult> Connection::exec(std::string_view sql) {
    const std::string text(sql);
    QueryResult res(PQexec(m_conn, text.c_str()));
    switch (res.status()) {
    case ResultStatus::command_ok:
    case ResultStatus::tuples_ok:
    case ResultStatus::copy_in:
    case ResultStatus::copy_out:
    case ResultStatus::copy_both:
    case ResultStatus::empty_query:
        return res;
    default:
        return make_error(trim_newline(error_message()));
    }
}

QueryResult Connection::exec_result(std::string_view sql) {
    const std::string text(sql);
    return QueryResult(PQexec(m_conn, text.c_str()));
}

Status Connection::exec_command(std::string_view sql) {
    PGLAB_TRY_ASSIGN(const QueryResult res, exec(sql));
    const ResultStatus st = res.status();
    if (st != ResultStatus::command_ok && st != ResultStatus::tuples_ok) {
        return make_error("unexpected result status for: " + std::string(sql));
    }
    return {};
}

Status Connection::put_copy_data(std::string_view data) {
    if (PQputCopyData(m_conn, data.data(), static_cast<int>(data.size())) != 1) {
        return make_error(trim_newline(error_message()));
    }
    return {};
}

Status Connection::put_copy_end() {
    if (PQputCopyEnd(m_conn, nullptr) != 1) {
        return make_error(trim_newline(error_message()));
    }
    std::string failure;
    while (PGresult* r = PQgetResult(m_conn)) {
        const QueryResult res(r);
        if (res.status() != ResultStatus::command_ok && failure.empty()) {
            failure = trim_newline(res.error_message());
        }
    }
    if (!failure.empty()) {
        return make_error(failure);
    }
    return {};
}

bool Connection::send_query(const char* sql) {
    return PQsendQuery(m_conn, sql) == 1;
}

bool Connection::send_query_params(const char* sql, int nparams, const char* const* values) {
    return PQsendQueryParams(m_conn, sql, nparams, nullptr, values, nullptr, nullptr, 0) == 1;
}

bool Connection::send_prepare(const char* name, const char* sql, int nparams) {
    return PQsendPrepare(m_conn, name, sql, nparams, nullptr) == 1;
}

bool Connection::send_query_prepared(const char* name, int nparams, const char* const* values) {
    return PQsendQueryPrepared(m_conn, name, nparams, values, nullptr, nullptr, 0) == 1;
}

bool Connection::enter_pipeline() {
    if (PQenterPipelineMode(m_conn) != 1) {
        return false;
    }
    m_in_pipeline = true;
    return true;
}

bool Connection::exit_pipeline() {
    if (PQexitPipelineMode(m_conn) != 1) {
        return false;
    }
    m_in_pipeline = false;
    return true;
}

bool Connection::pipeline_sync() {
    return PQpipelineSync(m_conn) == 1;
}

bool Connection::send_flush_request() {
    return PQsendFlushRequest(m_conn) == 1;
}

FlushStatus Connection::flush() {
    switch (PQflush(m_conn)) {
    case 0:
        return FlushStatus::done;
    case 1:
        return FlushStatus::more;
    default:
        return FlushStatus::failed;
    }
}

bool Connection::consume_input() {
    return PQconsumeInput(m_conn) == 1;
}

bool Connection::is_busy() const {
    return PQisBusy(m_conn) == 1;
}

QueryResult Connection::get_result() {
    return QueryResult(PQgetResult(m_conn));
}

bool Connection::in_transaction_block() const {
    const PGTransactionStatusType st = PQtransactionStatus(m_conn);
    return st == PQTRANS_INTRANS || st == PQTRANS_INERROR;
}

bool Connection::connection_bad() const {
    return m_conn == nullptr || PQstatus(m_conn) == CONNECTION_BAD;
}

bool Connection::in_failed_transaction() const {
    return PQtransactionStatus(m_conn) == PQTRANS_INERROR;
}

bool Connection::command_in_progress() const {
    return PQtransactionStatus(m_conn) == PQTRANS_ACTIVE;
}

int Connection::backend_pid() const {
    return PQbackendPID(m_conn);
}

void Connection::on_notice(std::function<void(std::string_view)> handler) {
    if (!handler) {
        handler = [](std::string_view) {};
    }
    m_notice = std::make_unique<std::function<void(std::string_view)>>(std::move(handler));
    PQsetNoticeProcessor(
        m_conn,
        [](void* arg, const char* message) {
            (*static_cast<std::function<void(std::string_view)>*>(arg))(message);
        },
        m_notice.get());
}

} // namespace pglab::pg
