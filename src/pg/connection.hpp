// The only place that talks libpq (with connection.cpp and friends): RAII connection, blocking
// queries for setup and initialisation, and the non-blocking calls the benchmark engine drives.
#pragma once

#include "pg/conn_params.hpp"
#include "pg/query_result.hpp"
#include "util/result.hpp"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct pg_conn;

namespace pglab::pg {

/// Progress of a non-blocking connection attempt (PQconnectPoll).
enum class PollStatus : uint8_t { reading, writing, ok, failed };

/// Result of a non-blocking flush.
enum class FlushStatus : uint8_t { done, more, failed };

class Connection {
public:
    Connection() = default;
    ~Connection();
    Connection(Connection&& other) noexcept;
    Connection& operator=(Connection&& other) noexcept;
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    /// Blocking connect. When the server asks for a password and none is known, prompts once on
    /// the terminal ("Password: ") and stores it in `params` for later connections.
    /// Error message: libpq's, e.g. `connection to server on socket "..." failed: ...`.
    static Result<Connection> connect(ConnParams& params);

    /// Starts a non-blocking connect (PQconnectStartParams); drive it with poll_connect().
    /// Errors only when libpq cannot even allocate the attempt.
    static Result<Connection> start_connect(const ConnParams& params);

    PollStatus poll_connect();

    bool valid() const { return m_conn != nullptr; }

    void close();

    /// libpq's error text for the last failure, trailing newline kept as libpq gives it.
    std::string error_message() const;

    int socket() const;

    /// Whether the connection is encrypted (TLS or GSSAPI): its socket carries ciphertext.
    bool encrypted() const;

    int server_version() const;

    std::string parameter_status(const char* name) const;

    std::string dbname() const;

    /// The host (or socket directory) and port of the connection, as libpq reports them.
    std::string host() const;

    std::string port() const;

    bool set_nonblocking(bool on);

    /// `name` quoted as an SQL identifier (PQescapeIdentifier: always double-quoted, inner
    /// quotes doubled). Errors when libpq rejects the text (e.g. invalid encoding).
    Result<std::string> escape_identifier(std::string_view name) const;

    // --- blocking, for setup and -i ---

    /// Runs `sql` and returns its last result; a non-OK status is an Error whose message is
    /// libpq's error text (without trailing newline).
    Result<QueryResult> exec(std::string_view sql);

    /// Runs `sql` and returns its last result whatever its status: an error result keeps its
    /// SQLSTATE (QueryResult::sqlstate) and message for callers that check errors.
    QueryResult exec_result(std::string_view sql);

    /// Runs `sql`, success is PGRES_COMMAND_OK or TUPLES_OK.
    Status exec_command(std::string_view sql);

    /// COPY FROM STDIN helpers (blocking).
    Status put_copy_data(std::string_view data);
    Status put_copy_end();

    // --- non-blocking, for the engine ---

    bool send_query(const char* sql);
    bool send_query_params(const char* sql, int nparams, const char* const* values);
    bool send_prepare(const char* name, const char* sql, int nparams);
    bool send_query_prepared(const char* name, int nparams, const char* const* values);
    bool enter_pipeline();
    bool exit_pipeline();
    bool pipeline_sync();
    bool send_flush_request();

    /// Kept here rather than asked of libpq: the client machine checks it several times per
    /// command, and only enter_pipeline() and exit_pipeline() change it.
    bool in_pipeline() const { return m_in_pipeline; }

    /// Prepares a statement and waits for the result (pgbench prepares a pipeline's statements
    /// this way before entering it). False on failure, with error_message() set.
    bool prepare_blocking(const char* name, const char* sql, int nparams);
    FlushStatus flush();
    bool consume_input();
    bool is_busy() const;
    /// Next result, or an empty QueryResult when the current query has no more.
    QueryResult get_result();
    /// True when the connection is in a transaction block (idle-in-transaction or error).
    bool in_transaction_block() const;
    bool connection_bad() const;
    /// True when the connection's transaction block has failed (statements are refused until
    /// ROLLBACK).
    bool in_failed_transaction() const;

    /// A command was sent and its results are not all read yet (PQTRANS_ACTIVE): a statement
    /// left running. Another command would first wait for it, and discard its results.
    bool command_in_progress() const;

    /// The server process serving this connection (PQbackendPID).
    int backend_pid() const;

    /// Server notices (NOTICE, INFO, WARNING) go to `handler`, one message at a time with
    /// libpq's formatting ("NOTICE:  ...\n"), instead of libpq's default (stderr). An empty
    /// handler drops them.
    void on_notice(std::function<void(std::string_view)> handler);

    pg_conn* raw() const { return m_conn; }

private:
    explicit Connection(pg_conn* c) : m_conn(c) {}

    pg_conn* m_conn = nullptr;
    bool m_in_pipeline = false;
    /// On the heap, so that libpq's pointer to it survives moves of the Connection.
    std::unique_ptr<std::function<void(std::string_view)>> m_notice;
};

} // namespace pglab::pg
