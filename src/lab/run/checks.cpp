// lab/run: the checks made before a plan starts (and by --dry-run).
#include "lab/run/checks.hpp"

#include "lab/experiment/diagnostics.hpp"
#include "lab/plan/run_values.hpp"
#include "lab/run/step_options.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>

namespace pglab::lab::run {

namespace {

std::string step_label(const experiment::Step& step, std::size_t index) {
    return step.name.empty() ? fmt::format("{}:{}", index, experiment::step_type_name(step.type))
                             : step.name;
}

/// The option a complaint of the option parser names: its text in the message, else getopt's
/// "-- 'c'" for "-c".
std::optional<std::size_t> option_named(const experiment::Step& step, const std::string& message) {
    for (std::size_t k = 0; k < step.options.size(); ++k) {
        const std::string& t = step.options[k].text;
        if (!t.empty() && message.find(t) != std::string::npos) {
            return k;
        }
    }
    for (std::size_t k = 0; k < step.options.size(); ++k) {
        // getopt names a short option without its dash ("option requires an argument -- 'c'").
        const std::string_view t = step.options[k].text;
        if (t.size() == 2 && t[0] == '-'
            && message.find(fmt::format("-- '{}'", t[1])) != std::string::npos) {
            return k;
        }
    }
    return std::nullopt;
}

/// Where a problem of `step`'s options is best shown: the option that the complaint names, else
/// the script it names, else the first option, else the step.
experiment::SourcePos position_of(const experiment::ExperimentSpec& spec,
                                  const experiment::Step& step, const std::string& message) {
    for (const auto& ref : step.scripts) {
        if (message.find("pglab-script:" + ref.name) != std::string::npos
            || message.find("\"" + ref.name + "\"") != std::string::npos) {
            if (option_named(step, message)) {
                break;
            }
            const experiment::ScriptSpec* script = spec.find_script(ref.name);
            return script != nullptr && script->pos.known() ? script->pos : ref.pos;
        }
    }
    if (const auto k = option_named(step, message)) {
        return step.options[*k].pos;
    }
    if (!step.options.empty()) {
        return step.options.front().pos;
    }
    return step.scripts.empty() ? step.pos : step.scripts.front().pos;
}

/// The step with only its first `count` options.
experiment::Step with_first_options(const experiment::Step& step, std::size_t count) {
    experiment::Step first = step;
    first.options.resize(count);
    return first;
}

/// The option the parser's complaint is about: the last of the shortest run of the step's
/// options it refuses (its value is the next one when it is given apart). None when the step
/// is refused without any of its options (a script, a matrix value).
std::optional<std::size_t> refused_option(const experiment::ExperimentSpec& spec,
                                          const experiment::Step& step,
                                          const plan::RunValues& values) {
    for (std::size_t count = 0; count <= step.options.size(); ++count) {
        if (!check_bench_options(spec, with_first_options(step, count), values)) {
            return count == 0 ? std::nullopt : std::optional(count - 1);
        }
    }
    return std::nullopt;
}

/// The step without its option `k`, and without that option's value when it is the next
/// argument ("-R", "abc").
experiment::Step without_option(const experiment::Step& step, std::size_t k) {
    const std::string& t = step.options[k].text;
    const bool bare = (t.size() == 2 && t[0] == '-' && t[1] != '-')
                      || (t.rfind("--", 0) == 0 && t.find('=') == std::string::npos);
    const bool value_next =
        bare && k + 1 < step.options.size() && step.options[k + 1].text.rfind('-', 0) != 0;
    experiment::Step rest = step;
    const auto first = rest.options.begin() + static_cast<std::ptrdiff_t>(k);
    rest.options.erase(first, first + (value_next ? 2 : 1));
    return rest;
}

/// The most complaints of one step's options reported at once.
constexpr int k_option_complaints = 8;

/// PostgreSQL's max_connections when neither the server's settings nor the matrix set it.
constexpr int k_default_max_connections = 100;

/// The max_connections of `server` in `cell`: its settings' (the matrix's on top), else the
/// default.
int max_connections_of(const experiment::ExperimentSpec& spec, const plan::Cell& cell,
                       const std::string& server) {
    for (const experiment::Setting& s : plan::effective_settings(spec, cell, server)) {
        if (util::ascii_lower(s.name) == "max_connections") {
            return std::atoi(s.value.setting_text().c_str());
        }
    }
    return k_default_max_connections;
}

/// The sessions the steps before `index` open on `server` (a session stays open for the run).
std::size_t sessions_open_at(const experiment::ExperimentSpec& spec, std::size_t index,
                             const plan::RunValues& values, const std::string& server) {
    std::set<std::string> names;
    for (std::size_t j = 0; j < index; ++j) {
        const experiment::Step& s = spec.steps[j];
        const bool in_session = s.type == experiment::StepType::sql
                                || s.type == experiment::StepType::timed_sql
                                || s.type == experiment::StepType::explain;
        if (in_session && values.server_of(spec, s) == server) {
            names.insert(s.session.empty() ? "default" : s.session);
        }
    }
    return names.size();
}

/// A bench step's clients with pglab's own connections beside them (the probe connection, the
/// wait sampler's when the step samples, the run's open sessions) must fit in its server's
/// max_connections: else the bench fails at its first connections, once the servers started.
/// Not checked for an existing server, whose limit is its own.
std::optional<std::string> connections_problem(const experiment::ExperimentSpec& spec,
                                               std::size_t index, const plan::RunValues& values,
                                               std::string& hint) {
    const experiment::Step& step = spec.steps[index];
    const std::string server = values.server_of(spec, step);
    const experiment::ServerSpec* s = spec.find_server(server);
    if (step.type != experiment::StepType::bench || s == nullptr || s->is_existing()) {
        return std::nullopt;
    }
    const auto options = read_step_options(spec, step, values, pg::ConnParams{}, {});
    if (!options) {
        return std::nullopt; // check_bench_options says why
    }
    const int clients = options->parsed.run.clients;
    const bool samples = step.measure && step.sample_waits_ms > 0;
    const std::size_t sessions = sessions_open_at(spec, index, values, server);
    const int own = 1 + (samples ? 1 : 0) + static_cast<int>(sessions);
    const int limit = max_connections_of(spec, values.cell(), server);
    if (clients + own <= limit) {
        return std::nullopt;
    }
    std::string beside = "its probe connection";
    beside += samples ? ", the wait sampler's" : "";
    beside +=
        sessions > 0 ? fmt::format(", {} open session{}", sessions, sessions == 1 ? "" : "s") : "";
    hint = fmt::format("set max_connections to at least {} (in the settings of [servers.{}], or "
                       "settings.max_connections in the matrix), or run fewer clients",
                       clients + own, server);
    return fmt::format("{} clients in cell \"{}\" and pglab's {} ({}) make {} connections, more "
                       "than max_connections ({}) of server \"{}\"",
                       clients, values.cell().label, own, beside, clients + own, limit, server);
}

/// Why the step's option `replaced` may not replace a matrix value, naming both.
std::string replaced_message(const experiment::ExperimentSpec& spec, const experiment::Step& step,
                             std::size_t index, const ReplacedValue& replaced) {
    const experiment::MatrixVariable* variable = spec.matrix.find(replaced.variable);
    const std::string where = variable != nullptr && variable->pos.known()
                                  ? " (" + variable->pos.to_string() + ")"
                                  : std::string();
    const bool length = replaced.variable == "duration" || replaced.variable == "transactions";
    return fmt::format("{} step \"{}\": its option \"{}\" replaces the matrix's {}{}{}: every "
                       "cell would run alike under different labels",
                       experiment::step_type_name(step.type), step_label(step, index),
                       replaced.option, replaced.variable, where,
                       length ? " (pgbench takes one of -t and -T)" : "");
}

/// The options of every init/bench step, in every cell where it runs (a `when` that is false in
/// a cell leaves it out there). A problem is reported once per step and message.
class StepOptionChecks {
public:
    StepOptionChecks(const experiment::ExperimentSpec& spec, experiment::Diagnostics& diag)
        : m_spec(spec), m_diag(diag) {}

    void check_cell(const plan::RunValues& values) {
        for (std::size_t i = 0; i < m_spec.steps.size(); ++i) {
            const experiment::Step& step = m_spec.steps[i];
            if (step.type == experiment::StepType::init
                || step.type == experiment::StepType::bench) {
                check_step(step, i, values);
            }
        }
    }

private:
    void check_step(const experiment::Step& step, std::size_t i, const plan::RunValues& values) {
        auto applies = values.applies(step);
        if (!applies) {
            report(step, i, position_of(m_spec, step, applies.error().message), applies.error());
            return;
        }
        if (!*applies) {
            return;
        }
        const auto read = read_step_options(m_spec, step, values, pg::ConnParams{}, {});
        if (!read) {
            report_refused_options(step, i, values, read.error());
            return;
        }
        if (const auto replaced = replaced_matrix_value(step, values, *read)) {
            if (m_seen.emplace(i, "replaces " + replaced->variable).second) {
                m_diag.add(replaced->pos, replaced_message(m_spec, step, i, *replaced),
                           fmt::format("Remove \"{}\" from the step's options, or {} from the "
                                       "matrix.",
                                       replaced->option, replaced->variable));
            }
            return;
        }
        std::string hint;
        if (auto problem = connections_problem(m_spec, i, values, hint)) {
            report(step, i, position_of(m_spec, step, *problem), Error(*problem).with_hint(hint));
        }
    }

    /// Every bad option at once: the parser stops at the first, so the options are read again
    /// without each one it refused.
    void report_refused_options(const experiment::Step& step, std::size_t i,
                                const plan::RunValues& values, const Error& first) {
        experiment::Step rest = step;
        Status st = Status(first);
        for (int k = 0; k < k_option_complaints && !st; ++k) {
            const auto refused = refused_option(m_spec, rest, values);
            report(step, i,
                   refused ? rest.options[*refused].pos
                           : position_of(m_spec, rest, st.error().message),
                   st.error());
            if (!refused) {
                break;
            }
            rest = without_option(rest, *refused);
            st = check_bench_options(m_spec, rest, values);
        }
    }

    void report(const experiment::Step& step, std::size_t i, const experiment::SourcePos& pos,
                const Error& e) {
        if (!m_seen.emplace(i, e.message).second) {
            return;
        }
        std::string message =
            fmt::format("{} step \"{}\": {}", experiment::step_type_name(step.type),
                        step_label(step, i), e.message);
        if (!e.detail.empty()) {
            message += " (" + e.detail + ")";
        }
        m_diag.add(pos, std::move(message), e.hint);
    }

    const experiment::ExperimentSpec& m_spec;
    experiment::Diagnostics& m_diag;
    std::set<std::pair<std::size_t, std::string>> m_seen;
};

void check_steps(const experiment::ExperimentSpec& spec, const plan::Plan& plan,
                 experiment::Diagnostics& diag) {
    StepOptionChecks checks(spec, diag);
    std::set<std::size_t> cells_done;
    for (const auto& run : plan.runs) {
        if (cells_done.insert(run.cell).second) {
            checks.check_cell(plan::RunValues(plan.cells[run.cell], run));
        }
    }
}

} // namespace

Status check_before_start(const experiment::ExperimentSpec& spec, const plan::Plan& plan,
                          ServerSet& servers,
                          const std::map<std::string, std::string>& unfetchable) {
    experiment::Diagnostics diag;
    check_steps(spec, plan, diag);
    for (const Error& e : servers.check(spec, unfetchable)) {
        // Already "file:line:column: message" (or without a position for the embedded default).
        experiment::SourcePos pos;
        pos.file = spec.file;
        const std::string& m = e.message;
        unsigned line = 0;
        unsigned column = 0;
        const std::string prefix = spec.file + ":";
        std::string message = m;
        if (m.rfind(prefix, 0) == 0
            && std::sscanf(m.c_str() + prefix.size(), "%u:%u:", &line, &column) == 2) {
            pos.line = line;
            pos.column = column;
            message = m.substr(m.find(": ", prefix.size()) + 2);
        }
        if (!e.detail.empty()) {
            message += " (" + e.detail + ")";
        }
        diag.add(pos, message, e.hint);
    }
    if (diag.empty()) {
        return {};
    }
    return make_error(diag.to_error());
}

} // namespace pglab::lab::run
