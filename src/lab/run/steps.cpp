// lab/run: the step types: init and bench in-process (through lab's use of the options parser and
// the bench/init libraries, their terminal output captured into the step's log), sql, timed-sql,
// explain, restart/stop/start, promote, checkpoint, sleep and shell.
#include "lab/run/steps.hpp"

#include "bench/run.hpp"
#include "init/initialize.hpp"
#include "lab/run/explain_summary.hpp"
#include "lab/run/fleet_step.hpp"
#include "lab/run/functional_checks.hpp"
#include "lab/run/sql_step.hpp"
#include "output/json_export.hpp"
#include "output/report.hpp"
#include "pg/conn_params.hpp"
#include "util/stop_signal.hpp"
#include "util/subprocess.hpp"
#include "util/text_file.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "options/bench_options.hpp"

namespace pglab::lab::run {

namespace {

using Clock = std::chrono::steady_clock;

/// Sends this process's stdout and stderr to `path` (appending) for as long as it lives: init and
/// bench write their messages there, as they would on a terminal.
class CaptureOutput {
public:
    explicit CaptureOutput(const std::filesystem::path& path) {
        std::fflush(stdout);
        std::fflush(stderr);
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd < 0) {
            return;
        }
        m_out = ::dup(1);
        m_err = ::dup(2);
        ::dup2(fd, 1);
        ::dup2(fd, 2);
        ::close(fd);
    }

    ~CaptureOutput() {
        std::fflush(stdout);
        std::fflush(stderr);
        if (m_out >= 0) {
            ::dup2(m_out, 1);
            ::close(m_out);
        }
        if (m_err >= 0) {
            ::dup2(m_err, 2);
            ::close(m_err);
        }
    }

    CaptureOutput(const CaptureOutput&) = delete;
    CaptureOutput& operator=(const CaptureOutput&) = delete;

private:
    int m_out = -1;
    int m_err = -1;
};

/// A step's failure that names where the step is written: "file:line:column: message (detail);
/// hint: ...".
std::string error_at_step(const experiment::Step& step, const Error& e) {
    std::string s = error_text(e);
    if (step.pos.known()) {
        s = step.pos.to_string() + ": " + s;
    }
    if (!e.hint.empty()) {
        s += "; hint: " + e.hint;
    }
    return s;
}

/// The options parser's view of the world for a lab step: the cluster's connection values instead
/// of the user's PG* environment, and `[scripts.NAME]` texts as files named "pglab-script:NAME".
options::BenchParseEnv lab_parse_env(const experiment::ExperimentSpec& spec,
                                     const pg::ConnParams& params) {
    options::BenchParseEnv env = options::default_bench_parse_env();
    const std::string port = params.port;
    const std::string host = params.host;
    const std::string user = params.user;
    auto real_getenv = env.getenv;
    env.getenv = [=](const char* name) -> std::optional<std::string> {
        const std::string_view n = name;
        if (n == "PGDATABASE") {
            return std::string("postgres");
        }
        if (n == "PGUSER" && !user.empty()) {
            return user;
        }
        if (n == "PGHOST" && !host.empty()) {
            return host;
        }
        if (n == "PGPORT" && !port.empty()) {
            return port;
        }
        return real_getenv(name);
    };
    auto real_read = env.read_file;
    env.read_file = [&spec, real_read](const std::string& path) -> Result<std::string> {
        constexpr std::string_view prefix = "pglab-script:";
        if (path.rfind(prefix, 0) == 0) {
            if (const auto* s = spec.find_script(path.substr(prefix.size()))) {
                return s->text;
            }
        }
        return real_read(path);
    };
    env.report = [](bool, const Error& e) { std::fprintf(stderr, "%s\n", e.message.c_str()); };
    return env;
}

/// The option parser's arguments for a step: the server's connection values (when `params` has
/// a host), --initialize for init, the step's scripts, then its expanded `options`.
std::vector<std::string> full_arguments(const experiment::Step& step, const pg::ConnParams& params,
                                        bool init, const std::vector<std::string>& args) {
    std::vector<std::string> full;
    if (!params.host.empty()) {
        full = {"--host=" + params.host, "--port=" + params.port, "--username=" + params.user};
    }
    if (init) {
        full.emplace_back("--initialize");
    }
    for (const auto& ref : step.scripts) {
        constexpr std::string_view builtin = "builtin:";
        if (ref.name.rfind(builtin, 0) == 0) {
            full.push_back(
                fmt::format("--builtin={}@{}", ref.name.substr(builtin.size()), ref.weight));
        } else {
            full.push_back(fmt::format("--file=pglab-script:{}@{}", ref.name, ref.weight));
        }
    }
    full.insert(full.end(), args.begin(), args.end());
    return full;
}

/// parse_bench_options, with what it prints (getopt's complaint about an unknown option) kept:
/// added to `log` when given, and made the message of an error that has none of its own.
Result<options::BenchOptions> parse_keeping_complaints(const std::vector<std::string>& full,
                                                       const options::BenchParseEnv& env,
                                                       const std::filesystem::path& log) {
    std::filesystem::path out = log;
    char tmpl[] = "/tmp/pglab-options-XXXXXX";
    if (out.empty()) {
        const int fd = ::mkstemp(tmpl);
        if (fd >= 0) {
            ::close(fd);
            out = tmpl;
        }
    }
    const auto size_before = [&] {
        std::error_code ec;
        const auto n = std::filesystem::file_size(out, ec);
        return ec ? std::uintmax_t{0} : n;
    }();
    Result<options::BenchOptions> parsed = make_error("not parsed");
    {
        const CaptureOutput capture(out.empty() ? std::filesystem::path("/dev/null") : out);
        parsed = options::parse_bench_options(full, env);
    }
    std::string printed;
    if (auto text = out.empty() ? Result<std::string>(make_error("")) : util::read_text_file(out);
        text && text->size() > size_before) {
        printed = text->substr(size_before);
    }
    if (log.empty() && !out.empty()) {
        std::error_code ec;
        std::filesystem::remove(out, ec);
    }
    if (!parsed && parsed.error().message.empty()) {
        std::string complaint;
        std::size_t pos = 0;
        while (pos < printed.size()) {
            std::size_t nl = printed.find('\n', pos);
            nl = nl == std::string::npos ? printed.size() : nl;
            std::string line = printed.substr(pos, nl - pos);
            pos = nl + 1;
            for (const std::string_view prefix : {"pglab: ", "pgbench: "}) {
                if (line.rfind(prefix, 0) == 0) {
                    line.erase(0, prefix.size());
                }
            }
            if (!line.empty()) {
                complaint += (complaint.empty() ? "" : "; ") + line;
            }
        }
        parsed.error().message =
            complaint.empty() ? std::string("invalid options") : "invalid options: " + complaint;
    }
    return parsed;
}

/// The parsed options must ask for what the step is.
Status check_action(const options::BenchOptions& parsed, bool init) {
    const bool is_init = parsed.action == options::BenchAction::initialize;
    if (parsed.action != options::BenchAction::benchmark && !is_init) {
        return make_error("the options ask for no benchmark (--show-script, -b list)");
    }
    if (is_init != init) {
        return make_error(init ? "init options must not ask for a benchmark"
                               : "bench options must not contain --initialize");
    }
    return {};
}

/// The step's options parsed; `arguments` gets them as given (a password masked) once made.
Result<options::BenchOptions>
parse_step_options(const experiment::Step& step, StepContext& ctx, bool init,
                   std::optional<std::vector<std::string>>& arguments) {
    PGLAB_TRY_ASSIGN(const pg::ConnParams params, ctx.servers.params(ctx.server, ""));
    PGLAB_TRY_ASSIGN(std::vector<std::string> args, ctx.values.arguments(step));
    // A database argument may be a conninfo or URI with a password: recorded masked.
    std::vector<std::string> shown;
    for (const auto& arg : args) {
        shown.push_back(pg::redact_conninfo(arg));
    }
    arguments = std::move(shown);
    auto parsed = parse_keeping_complaints(full_arguments(step, params, init, args),
                                           lab_parse_env(ctx.spec, params), ctx.log);
    if (!parsed) {
        return make_error(parsed.error());
    }
    // The server's own connection values (an existing server's conninfo, a password, the
    // settings as -c options) win over what the options say.
    pg::ConnParams& conn = init ? parsed->init.conn : parsed->run.conn;
    conn.password = params.password;
    conn.options = params.options;
    if (ctx.servers.at(ctx.server).existing()) {
        conn.host.clear();
        conn.port.clear();
        conn.user.clear();
        conn.dbname = params.dbname;
    }
    PGLAB_TRY(check_action(*parsed, init));
    return parsed;
}

StepOutcome run_init(const experiment::Step& step, StepContext& ctx) {
    StepOutcome out;
    auto& record = out.details.emplace<store::InitStep>();
    auto parsed = parse_step_options(step, ctx, true, record.arguments);
    if (!parsed) {
        out.fail(error_text(parsed.error()));
        record.exit_status = 1;
        return out;
    }
    Status st;
    {
        CaptureOutput capture(ctx.log);
        st = init::initialize(std::move(parsed->init));
    }
    out.wrote_log = true;
    record.exit_status = st ? 0 : 1;
    if (!st) {
        out.fail(error_text(st.error()));
    }
    return out;
}

/// A bench step with `processes` > 1: the options, checked in-process, go to `pglab bench`
/// under mpirun (fleet_step.hpp); its scripts ([scripts.NAME]) as files in a temporary directory.
StepOutcome run_bench_fleet(const experiment::Step& step, StepContext& ctx, StepOutcome out) {
    auto& record = std::get<store::BenchStep>(out.details);
    const auto failed = [&out, &record](const std::string& why) {
        out.fail(why);
        record.exit_status = 1;
        return out;
    };
    auto params = ctx.servers.params(ctx.server, "");
    auto args = ctx.values.arguments(step);
    if (!params || !args) {
        return failed(error_text(!params ? params.error() : args.error()));
    }
    char dir_template[] = "/tmp/pglab-fleet-scripts-XXXXXX";
    if (::mkdtemp(dir_template) == nullptr) {
        return failed("could not create a temporary directory for the fleet's scripts");
    }
    const std::filesystem::path dir = dir_template;
    std::vector<std::string> bench_args = full_arguments(step, *params, false, *args);
    constexpr std::string_view lab_script = "--file=pglab-script:";
    for (std::string& a : bench_args) {
        if (a.rfind(lab_script, 0) != 0) {
            continue;
        }
        const std::string ref = a.substr(lab_script.size());
        const std::string name = ref.substr(0, ref.rfind('@'));
        const auto* script = ctx.spec.find_script(name);
        const std::filesystem::path file = dir / (name + ".sql");
        std::ofstream written;
        if (script != nullptr) {
            written.open(file);
            written << script->text;
            written.close();
        }
        if (script == nullptr || !written) {
            std::filesystem::remove_all(dir);
            return failed("could not write script \"" + name + "\" for the fleet");
        }
        a = "--file=" + file.string() + ref.substr(name.size());
    }
    std::vector<std::pair<std::string, std::string>> env{{"PGDATABASE", "postgres"}};
    if (ctx.servers.at(ctx.server).existing()) {
        bench_args.push_back(params->dbname); // its conninfo
    }
    if (!params->password.empty()) {
        env.emplace_back("PGPASSWORD", params->password);
    }
    if (!params->options.empty()) {
        env.emplace_back("PGOPTIONS", params->options);
    }
    const FleetRun fleet =
        run_fleet_step(step, bench_args, env, ctx.log, [] { return util::stop_requested(); });
    std::filesystem::remove_all(dir);
    out.wrote_log = true;
    record.document = fleet.bench;
    record.exit_status = fleet.exit_code;
    if (util::stop_requested()) {
        out.stop(util::stop_signalled() ? store::StepStatus::interrupted
                                        : store::StepStatus::timed_out,
                 "the fleet was stopped");
    } else if (!fleet.error.empty()) {
        out.fail(fleet.error);
    } else if (fleet.exit_code != 0) {
        out.fail(fmt::format("mpirun exited with code {}: a process failed or was lost (see the "
                             "step's log)",
                             fleet.exit_code));
    }
    return out;
}

StepOutcome run_bench(const experiment::Step& step, StepContext& ctx) {
    StepOutcome out;
    auto& record = out.details.emplace<store::BenchStep>();
    auto parsed = parse_step_options(step, ctx, false, record.arguments);
    if (!parsed) {
        out.fail(error_text(parsed.error()));
        record.exit_status = 1;
        return out;
    }
    if (step.processes > 1) {
        return run_bench_fleet(step, ctx, std::move(out));
    }
    bench::RunConfig& config = parsed->run;
    config.quiet = true;
    Result<bench::RunResult> result = make_error("not run");
    {
        CaptureOutput capture(ctx.log);
        result = bench::run(config);
        if (result) {
            std::fputs(output::format_report(config, *result).c_str(), stdout);
        }
    }
    out.wrote_log = true;
    if (!result) {
        out.fail(error_text(result.error()));
        record.exit_status = 1;
        return out;
    }
    record.document = output::to_json(config, *result);
    int status = 0;
    if (result->aborted_clients > 0) {
        status = 2;
        out.fail(fmt::format("{} client(s) aborted (see the step's log)", result->aborted_clients));
    }
    if (result->interrupted) {
        status = 2;
        if (result->stop_signal == util::k_stop_deadline) {
            out.stop(store::StepStatus::timed_out, "stopped at the run's deadline (run_timeout)");
        } else {
            out.stop(store::StepStatus::interrupted, "interrupted by signal");
        }
    }
    record.exit_status = status;
    return out;
}

Status set_timeout(pg::Connection& conn, std::int64_t timeout_ms) {
    return conn.exec_command(fmt::format("SET statement_timeout = {}", timeout_ms));
}

/// Reads the results of one pipelined query up to and including its sync.
struct PipelinedResult {
    std::string error;
    std::string first_value;
    std::string cmd_tuples;
    Clock::time_point done;
};

PipelinedResult read_pipelined(pg::Connection& conn) {
    PipelinedResult r;
    for (;;) {
        pg::QueryResult res = conn.get_result();
        const pg::ResultStatus st = res.status();
        if (st == pg::ResultStatus::pipeline_sync) {
            break;
        }
        if (!res) {
            r.done = Clock::now();
            continue;
        }
        if (st == pg::ResultStatus::fatal_error || st == pg::ResultStatus::pipeline_aborted) {
            if (r.error.empty()) {
                const char* m = res.error_message();
                r.error = m != nullptr && *m != '\0' ? m : "pipeline aborted";
                while (!r.error.empty() && r.error.back() == '\n') {
                    r.error.pop_back();
                }
            }
        } else if (res.ntuples() > 0 && res.nfields() > 0) {
            r.first_value = res.value(0, 0);
            r.cmd_tuples = std::to_string(res.ntuples());
        }
    }
    return r;
}

StepOutcome run_timed_sql(const experiment::Step& step, StepContext& ctx) {
    StepOutcome out;
    std::string waited;
    auto session = step_session(step, ctx, waited);
    append_log(ctx.log, waited);
    if (!session) {
        out.fail(error_text(session.error()));
        return out;
    }
    pg::Connection& conn = *session->conn;
    auto text = ctx.values.expand(step.statements.at(0));
    if (!text) {
        out.fail(error_text(text.error()));
        return out;
    }
    auto& record = out.details.emplace<store::TimedSqlStep>();
    record.session = session->name;
    record.statement = *text;
    if (step.timeout_ms > 0) {
        if (auto st = set_timeout(conn, step.timeout_ms); !st) {
            out.fail(error_text(st.error()));
            return out;
        }
    }
    static constexpr const char* k_clock =
        "SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint";
    const Clock::time_point t0 = Clock::now();
    bool sent = conn.enter_pipeline();
    sent = sent && conn.send_query_params(k_clock, 0, nullptr) && conn.pipeline_sync();
    sent = sent && conn.send_query_params(text->c_str(), 0, nullptr) && conn.pipeline_sync();
    sent = sent && conn.send_query_params(k_clock, 0, nullptr) && conn.pipeline_sync();
    if (!sent) {
        out.fail(conn.error_message());
        conn.exit_pipeline();
        return out;
    }
    const PipelinedResult before = read_pipelined(conn);
    const PipelinedResult stmt = read_pipelined(conn);
    const PipelinedResult after = read_pipelined(conn);
    conn.exit_pipeline();
    if (step.timeout_ms > 0) {
        (void)conn.exec_command("RESET statement_timeout");
    }
    const double client_ms = std::chrono::duration<double, std::milli>(stmt.done - t0).count();
    record.client_ms = client_ms;
    if (before.error.empty() && after.error.empty() && !before.first_value.empty()
        && !after.first_value.empty()) {
        const long long b = std::atoll(before.first_value.c_str());
        const long long a = std::atoll(after.first_value.c_str());
        record.server_ms = static_cast<double>(a - b) / 1000.0;
    }
    if (!stmt.cmd_tuples.empty()) {
        record.rows = std::atoll(stmt.cmd_tuples.c_str());
    }
    append_log(ctx.log, fmt::format("{}\n-- client {:.3f} ms, server {} ms{}\n", *text, client_ms,
                                    record.server_ms ? nlohmann::json(*record.server_ms).dump()
                                                     : std::string("null"),
                                    stmt.error.empty() ? "" : "\n-- error: " + stmt.error));
    out.wrote_log = true;
    if (const std::string& e = stmt.error.empty() ? before.error : stmt.error; !e.empty()) {
        out.fail(e);
    }
    return out;
}

StepOutcome run_explain(const experiment::Step& step, StepContext& ctx) {
    StepOutcome out;
    std::string waited;
    auto session = step_session(step, ctx, waited);
    append_log(ctx.log, waited);
    if (!session) {
        out.fail(error_text(session.error()));
        return out;
    }
    auto text = ctx.values.expand(step.statements.at(0));
    if (!text) {
        out.fail(error_text(text.error()));
        return out;
    }
    auto& record = out.details.emplace<store::ExplainStep>();
    record.session = session->name;
    record.statement = *text;
    const std::string sql =
        (step.analyze ? "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " : "EXPLAIN (FORMAT JSON) ")
        + *text;
    if (step.timeout_ms > 0) {
        (void)set_timeout(*session->conn, step.timeout_ms);
    }
    auto res = session->conn->exec(sql);
    if (step.timeout_ms > 0) {
        (void)session->conn->exec_command("RESET statement_timeout");
    }
    if (!res) {
        out.fail(res.error().message);
        return out;
    }
    std::string json;
    for (int i = 0; i < res->ntuples(); ++i) {
        json += res->value(i, 0);
    }
    append_log(ctx.log, sql + "\n" + json + "\n");
    out.wrote_log = true;
    auto summary = summarize_explain(json);
    if (!summary) {
        out.fail(summary.error().message);
        return out;
    }
    record.explain = std::move(*summary);
    if (!step.expect_plan.empty()) {
        const CheckResult check = check_plan(step.expect_plan, record.explain->node_types);
        record.checks.push_back(check);
        if (!check.pass) {
            out.fail_check(failure_text(check));
        }
    }
    return out;
}

StepOutcome run_shell(const experiment::Step& step, StepContext& ctx) {
    StepOutcome out;
    auto cmd = ctx.values.expand(step.command);
    if (!cmd) {
        out.fail(error_text(cmd.error()));
        return out;
    }
    auto& record = out.details.emplace<store::ShellStep>();
    record.command = *cmd;
    util::SpawnOptions opts;
    opts.argv = {"/bin/sh", "-c", *cmd};
    // Its own process group: a timeout kills the command's children too (`sleep` under sh),
    // which would otherwise outlive it and hold its output open. Out of the terminal's group,
    // SIGINT reaches it through the stop request instead.
    opts.group = util::ProcessGroup::own;
    opts.stop = [] { return util::stop_requested(); };
    // The step's server in the child's environment (PGHOST, PGPORT, PGUSER, PGDATABASE, and
    // PGPASSWORD when it has one), so that psql reaches it as pglab does. A stopped server: none.
    // The password goes there only: not on the command line, not in the log.
    if (auto params = ctx.servers.params(ctx.server, "")) {
        auto env = pg::client_environment(*params);
        if (!env) {
            out.fail(fmt::format("server \"{}\": {}", ctx.server, error_text(env.error())));
            return out;
        }
        opts.env = std::move(*env);
        opts.unset_env = {"PGSERVICE"}; // a service file's values would win over the variables
    }
    if (step.timeout_ms > 0) {
        opts.timeout = std::chrono::milliseconds(step.timeout_ms);
    }
    if (ctx.deadline) {
        const auto left = std::max<std::chrono::milliseconds>(
            std::chrono::duration_cast<std::chrono::milliseconds>(*ctx.deadline - Clock::now()),
            std::chrono::milliseconds(1));
        opts.timeout = opts.timeout ? std::min(*opts.timeout, left) : left;
    }
    auto res = util::run_process(opts);
    if (!res) {
        out.fail(error_text(res.error()));
        return out;
    }
    append_log(ctx.log,
               fmt::format("$ {}\n{}{}-- {}\n", *cmd, res->out, res->err, res->status.describe()));
    out.wrote_log = true;
    if (res->status.exited()) {
        record.exit_status = res->status.code;
    }
    if (res->stopped) {
        if (util::stop_signalled()) {
            out.stop(store::StepStatus::interrupted,
                     "interrupted by signal: the command was killed");
        } else {
            out.stop(store::StepStatus::timed_out,
                     "the command was killed at the run's deadline (run_timeout)");
        }
    } else if (res->timed_out) {
        if (ctx.deadline && Clock::now() >= *ctx.deadline) {
            out.stop(store::StepStatus::timed_out,
                     "the command was killed at the run's deadline (run_timeout)");
        } else {
            out.stop(store::StepStatus::timed_out,
                     fmt::format("timed out after {} ms: the command was killed", step.timeout_ms));
        }
    } else if (!res->status.success()) {
        out.fail("command " + res->status.describe());
    }
    return out;
}

/// The spec's mode ("smart", "fast", "immediate"; checked when the file was read).
server::ShutdownMode shutdown_mode(const std::string& mode) {
    if (mode == "smart") {
        return server::ShutdownMode::smart;
    }
    return mode == "immediate" ? server::ShutdownMode::immediate : server::ShutdownMode::fast;
}

StepOutcome run_server_control(const experiment::Step& step, StepContext& ctx) {
    StepOutcome out;
    ServerState& state = ctx.servers.at(ctx.server);
    Status st;
    switch (step.type) {
    case experiment::StepType::restart:
        out.details = store::ShutdownStep{step.mode};
        st = ctx.servers.restart(ctx.server, shutdown_mode(step.mode));
        if (st) {
            ++ctx.restarts;
        }
        break;
    case experiment::StepType::stop:
    case experiment::StepType::start:
        if (state.existing()) {
            st = make_error(fmt::format("server \"{}\" is an existing server (conninfo): pglab "
                                        "does not stop or start it",
                                        ctx.server));
            break;
        }
        if (step.type == experiment::StepType::start) {
            st = state.cluster->running() ? Status{} : state.cluster->start_server();
            break;
        }
        out.details = store::ShutdownStep{step.mode};
        state.drop_connections();
        st = state.cluster->stop_server(shutdown_mode(step.mode));
        break;
    case experiment::StepType::promote:
        st = ctx.servers.promote(ctx.server);
        if (!st) {
            out.fail(error_at_step(step, st.error()));
            return out;
        }
        break;
    case experiment::StepType::checkpoint: {
        auto conn = ctx.servers.probe_connection(ctx.server);
        st = conn ? (*conn)->exec_command("CHECKPOINT") : Status(conn.error());
        break;
    }
    default:
        st = make_error(fmt::format("step \"{}\" is not supported", step_type_name(step.type)));
    }
    if (!st) {
        out.fail(error_text(st.error()));
    }
    return out;
}

StepOutcome run_sleep(const experiment::Step& step, StepContext& /*ctx*/) {
    StepOutcome out;
    out.details = store::SleepStep{step.duration_ms};
    const auto end = Clock::now() + std::chrono::milliseconds(step.duration_ms);
    while (Clock::now() < end && !util::stop_requested()) {
        std::this_thread::sleep_for(
            std::min<Clock::duration>(end - Clock::now(), std::chrono::milliseconds(20)));
    }
    if (util::stop_signalled()) {
        out.stop(store::StepStatus::interrupted, "interrupted by signal");
    } else if (util::stop_requested()) {
        out.stop(store::StepStatus::timed_out, "stopped at the run's deadline (run_timeout)");
    }
    return out;
}

/// The handler of each step type.
struct StepKind {
    experiment::StepType type;
    StepOutcome (*run)(const experiment::Step&, StepContext&);
};

constexpr StepKind k_step_kinds[] = {
    {experiment::StepType::init, run_init},
    {experiment::StepType::bench, run_bench},
    {experiment::StepType::sql, run_sql},
    {experiment::StepType::timed_sql, run_timed_sql},
    {experiment::StepType::explain, run_explain},
    {experiment::StepType::restart, run_server_control},
    {experiment::StepType::stop, run_server_control},
    {experiment::StepType::start, run_server_control},
    {experiment::StepType::promote, run_server_control},
    {experiment::StepType::checkpoint, run_server_control},
    {experiment::StepType::sleep, run_sleep},
    {experiment::StepType::shell, run_shell},
};

} // namespace

Status check_bench_options(const experiment::ExperimentSpec& spec, const experiment::Step& step,
                           const std::vector<std::string>& args) {
    const bool init = step.type == experiment::StepType::init;
    const pg::ConnParams none; // no server yet: the options' own connection values are not used
    PGLAB_TRY_ASSIGN(const options::BenchOptions parsed,
                     parse_keeping_complaints(full_arguments(step, none, init, args),
                                              lab_parse_env(spec, none), {}));
    return check_action(parsed, init);
}

std::string error_text(const Error& e) {
    std::string s = e.message;
    if (!e.detail.empty()) {
        s += " (" + e.detail + ")";
    }
    return s;
}

void append_log(const std::filesystem::path& path, const std::string& text) {
    if (text.empty()) {
        return;
    }
    std::ofstream out(path, std::ios::app);
    out << text;
}

void StepOutcome::fail_check(std::string why) {
    fail(std::move(why));
    check_failed = true;
}

void StepOutcome::fail(std::string why) {
    status = store::StepStatus::failed;
    error = why.empty() ? std::string("failed (no message; see the step's log)") : std::move(why);
}

void StepOutcome::stop(store::StepStatus how, std::string why) {
    status = how;
    error = std::move(why);
}

StepOutcome execute_step(const experiment::Step& step, StepContext& ctx) {
    for (const auto& kind : k_step_kinds) {
        if (kind.type == step.type) {
            return kind.run(step, ctx);
        }
    }
    StepOutcome out;
    out.fail(fmt::format("step type \"{}\" has no handler", experiment::step_type_name(step.type)));
    return out;
}

} // namespace pglab::lab::run
