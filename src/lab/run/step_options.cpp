// lab/run: init and bench steps' options through the bench option parser.
#include "lab/run/step_options.hpp"

#include "lab/run/captured_output.hpp"
#include "util/text_file.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace pglab::lab::run {

namespace {

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

} // namespace

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

Status check_bench_options(const experiment::ExperimentSpec& spec, const experiment::Step& step,
                           const std::vector<std::string>& args) {
    const bool init = step.type == experiment::StepType::init;
    const pg::ConnParams none; // no server yet: the options' own connection values are not used
    PGLAB_TRY_ASSIGN(const options::BenchOptions parsed,
                     parse_keeping_complaints(full_arguments(step, none, init, args),
                                              lab_parse_env(spec, none), {}));
    return check_action(parsed, init);
}

} // namespace pglab::lab::run
