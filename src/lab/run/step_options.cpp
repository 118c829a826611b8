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
Result<options::BenchOptions>
parse_keeping_complaints(const std::vector<std::string>& full, const options::BenchParseEnv& env,
                         const std::vector<options::OptionDefault>& defaults,
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
        parsed = options::parse_bench_options(full, env, defaults);
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

namespace {

/// Every value handed to the parser: the matrix's values, spelt as options, then the step's own.
std::vector<std::string> handed_arguments(const plan::RunValues& values,
                                          const experiment::Step& step,
                                          const std::vector<std::string>& own) {
    std::vector<std::string> out;
    for (const auto& o : values.matrix_options(step)) {
        out.push_back(plan::option_argument(o));
    }
    out.insert(out.end(), own.begin(), own.end());
    return out;
}

} // namespace

Result<StepOptions> read_step_options(const experiment::ExperimentSpec& spec,
                                      const experiment::Step& step, const plan::RunValues& values,
                                      const pg::ConnParams& params,
                                      const std::filesystem::path& log) {
    const bool init = step.type == experiment::StepType::init;
    PGLAB_TRY_ASSIGN(const std::vector<std::string> own, values.own_options(step));
    PGLAB_TRY_ASSIGN(options::BenchOptions parsed,
                     parse_keeping_complaints(full_arguments(step, params, init, own),
                                              lab_parse_env(spec, params),
                                              values.matrix_options(step), log));
    PGLAB_TRY(check_action(parsed, init));
    StepOptions out{std::move(parsed), {}};
    for (const auto& o : out.parsed.defaults_applied) {
        out.arguments.push_back(plan::option_argument(o));
    }
    out.arguments.insert(out.arguments.end(), own.begin(), own.end());
    return out;
}

Result<StepOptions> parse_step_options(const experiment::Step& step, StepContext& ctx,
                                       std::optional<std::vector<std::string>>& arguments) {
    const bool init = step.type == experiment::StepType::init;
    PGLAB_TRY_ASSIGN(const pg::ConnParams params, ctx.servers.params(ctx.server, ""));
    // A database argument may be a conninfo or URI with a password: recorded masked.
    const auto masked = [](const std::vector<std::string>& args) {
        std::vector<std::string> shown;
        for (const auto& arg : args) {
            shown.push_back(pg::redact_conninfo(arg));
        }
        return shown;
    };
    auto read = read_step_options(ctx.spec, step, ctx.values, params, ctx.log);
    if (!read) {
        if (auto own = ctx.values.own_options(step)) {
            arguments = masked(handed_arguments(ctx.values, step, *own));
        }
        return make_error(read.error());
    }
    arguments = masked(read->arguments);
    // The server's own connection values (an existing server's conninfo, a password, the
    // settings as -c options) win over what the options say.
    pg::ConnParams& conn = init ? read->parsed.init.conn : read->parsed.run.conn;
    conn.password = params.password;
    conn.options = params.options;
    if (ctx.servers.at(ctx.server).existing()) {
        conn.host.clear();
        conn.port.clear();
        conn.user.clear();
        conn.dbname = params.dbname;
    }
    return read;
}

Status check_bench_options(const experiment::ExperimentSpec& spec, const experiment::Step& step,
                           const plan::RunValues& values) {
    PGLAB_TRY(read_step_options(spec, step, values, pg::ConnParams{}, {}));
    return {};
}

namespace {

/// Whether `name`, the part of a long option before any `=`, names `long_name` as getopt reads
/// it (whole, or abbreviated to two letters or more).
bool names_long_option(std::string_view name, std::string_view long_name) {
    return name.size() >= 2 && !long_name.empty() && long_name.substr(0, name.size()) == name;
}

/// Whether the argument `token` sets option `letter`: "-c", "-c8", "--client", "--client=8",
/// "--cl=8".
bool sets_option(std::string_view token, char letter) {
    if (token.size() >= 2 && token[0] == '-' && token[1] != '-') {
        return token[1] == letter;
    }
    if (token.rfind("--", 0) == 0) {
        const std::size_t eq = token.find('=');
        const std::string_view name =
            token.substr(2, eq == std::string_view::npos ? std::string_view::npos : eq - 2);
        return names_long_option(name, plan::matrix_option_long_name(letter));
    }
    return false;
}

/// The step's option that defines `name` (-D name=..., -Dname=..., --define=name=...), or null.
const experiment::TextField* define_of(const experiment::Step& step, std::string_view name) {
    const std::string prefix = std::string(name) + "=";
    const auto& options = step.options;
    for (std::size_t i = 0; i < options.size(); ++i) {
        const std::string_view t = options[i].text;
        std::string_view value;
        if (t == "-D"
            || (t.rfind("--", 0) == 0 && t.find('=') == std::string_view::npos
                && names_long_option(t.substr(2), "define"))) {
            value = i + 1 < options.size() ? std::string_view(options[i + 1].text) : "";
        } else if (t.rfind("-D", 0) == 0) {
            value = t.substr(2);
        } else if (const std::size_t eq = t.find('=');
                   t.rfind("--", 0) == 0 && eq != std::string_view::npos
                   && names_long_option(t.substr(2, eq - 2), "define")) {
            value = t.substr(eq + 1);
        }
        if (value.rfind(prefix, 0) == 0) {
            return &options[i];
        }
    }
    return nullptr;
}

/// The step's option that sets `letter`, or null.
const experiment::TextField* option_of(const experiment::Step& step, char letter) {
    for (const auto& o : step.options) {
        if (sets_option(o.text, letter)) {
            return &o;
        }
    }
    return nullptr;
}

} // namespace

std::optional<ReplacedValue> replaced_matrix_value(const experiment::Step& step,
                                                   const plan::RunValues& values,
                                                   const StepOptions& options) {
    const options::OptionLetters& given = options.parsed.given;
    for (const options::OptionDefault& d : values.matrix_options(step)) {
        const char other = d.letter == 't' ? 'T' : d.letter == 'T' ? 't' : '\0';
        const experiment::TextField* by = nullptr;
        if (d.letter == 'D') {
            by = define_of(step, d.value.substr(0, d.value.find('=')));
        } else if (given.has(d.letter) || given.has(other)) {
            by = option_of(step, given.has(d.letter) ? d.letter : other);
            if (by == nullptr) { // set in a form not found (combined flags): the options
                return ReplacedValue{plan::matrix_variable(d), "its options",
                                     step.options.empty() ? step.pos : step.options.front().pos};
            }
        }
        if (by != nullptr) {
            return ReplacedValue{plan::matrix_variable(d), by->text, by->pos};
        }
    }
    return std::nullopt;
}

Result<std::string> once_fingerprint(const experiment::ExperimentSpec& spec,
                                     const experiment::Step& step, const plan::RunValues& values) {
    PGLAB_TRY_ASSIGN(std::vector<std::string> args, values.own_options(step));
    if (step.type == experiment::StepType::init || step.type == experiment::StepType::bench) {
        auto read = read_step_options(spec, step, values, pg::ConnParams{}, {});
        args = read ? std::move(read->arguments) : handed_arguments(values, step, args);
    }
    return values.fingerprint(spec, step, args);
}

} // namespace pglab::lab::run
