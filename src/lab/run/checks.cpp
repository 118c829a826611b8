// lab/run: the checks made before a plan starts (and by --dry-run).
#include "lab/run/checks.hpp"

#include "lab/experiment/diagnostics.hpp"
#include "lab/plan/run_values.hpp"
#include "lab/run/step_options.hpp"

#include <fmt/format.h>

#include <cstdio>
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
