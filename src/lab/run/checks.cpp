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

/// Where a problem of `step`'s options is best shown: the option that the complaint names, else
/// the script it names, else the first option, else the step.
experiment::SourcePos position_of(const experiment::ExperimentSpec& spec,
                                  const experiment::Step& step, const std::string& message) {
    for (const auto& o : step.options) {
        if (!o.text.empty() && message.find(o.text) != std::string::npos) {
            return o.pos;
        }
    }
    for (const auto& ref : step.scripts) {
        if (message.find("pglab-script:" + ref.name) != std::string::npos
            || message.find("\"" + ref.name + "\"") != std::string::npos) {
            const experiment::ScriptSpec* script = spec.find_script(ref.name);
            return script != nullptr && script->pos.known() ? script->pos : ref.pos;
        }
    }
    for (const auto& o : step.options) {
        // getopt names a short option without its dash ("option requires an argument -- 'c'").
        const std::string_view t = o.text;
        if (t.size() == 2 && t[0] == '-'
            && message.find(fmt::format("-- '{}'", t[1])) != std::string::npos) {
            return o.pos;
        }
    }
    if (!step.options.empty()) {
        return step.options.front().pos;
    }
    return step.scripts.empty() ? step.pos : step.scripts.front().pos;
}

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

/// The options of every init/bench step, in every cell where it runs (a `when` that is false in
/// a cell leaves it out there). A problem is reported once per step and message.
void check_steps(const experiment::ExperimentSpec& spec, const plan::Plan& plan,
                 experiment::Diagnostics& diag) {
    std::set<std::pair<std::size_t, std::string>> seen;
    std::set<std::size_t> cells_done;
    for (const auto& run : plan.runs) {
        if (!cells_done.insert(run.cell).second) {
            continue;
        }
        const plan::RunValues values(plan.cells[run.cell], run);
        for (std::size_t i = 0; i < spec.steps.size(); ++i) {
            const experiment::Step& step = spec.steps[i];
            if (step.type != experiment::StepType::init
                && step.type != experiment::StepType::bench) {
                continue;
            }
            auto applies = values.applies(step);
            if (applies && !*applies) {
                continue;
            }
            Status st = applies ? Status{} : Status(applies.error());
            if (st) {
                st = check_bench_options(spec, step, values);
            }
            std::string hint;
            if (st) {
                if (auto problem = connections_problem(spec, i, values, hint)) {
                    st = make_error(Error(*problem).with_hint(hint));
                }
            }
            if (st || !seen.emplace(i, st.error().message).second) {
                continue;
            }
            std::string message =
                fmt::format("{} step \"{}\": {}", experiment::step_type_name(step.type),
                            step_label(step, i), st.error().message);
            if (!st.error().detail.empty()) {
                message += " (" + st.error().detail + ")";
            }
            diag.add(position_of(spec, step, st.error().message), std::move(message),
                     st.error().hint);
        }
    }
}

} // namespace

Status check_before_start(const experiment::ExperimentSpec& spec, const plan::Plan& plan,
                          ServerSet& servers) {
    experiment::Diagnostics diag;
    check_steps(spec, plan, diag);
    for (const Error& e : servers.check(spec)) {
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
