// lab/run: the time estimate of --dry-run, from what each step's expanded fields say.
#include "lab/run/estimate.hpp"

#include "lab/plan/run_values.hpp"
#include "lab/run/step_options.hpp"

#include <fmt/format.h>

#include <set>
#include <vector>

namespace pglab::lab::run {

namespace {

std::string duration_text(std::int64_t ms) {
    const std::int64_t s = (ms + 999) / 1000;
    if (s < 60) {
        return fmt::format("{}s", s);
    }
    if (s < 3600) {
        return fmt::format("{}m{:02}s", s / 60, s % 60);
    }
    return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
}

} // namespace

TimeEstimate estimate_plan(const experiment::ExperimentSpec& spec, const plan::Plan& plan) {
    TimeEstimate e;
    std::set<std::pair<std::string, std::string>> once_done; // server, step index + fingerprint
    for (const auto& run : plan.runs) {
        const plan::RunValues values(plan.cells[run.cell], run);
        for (std::size_t i = 0; i < spec.steps.size(); ++i) {
            const experiment::Step& step = spec.steps[i];
            if (auto applies = values.applies(step); !applies || !*applies) {
                continue;
            }
            if (step.once) {
                const auto fp = once_fingerprint(spec, step, values);
                const auto key = std::pair(values.server_of(spec, step),
                                           std::to_string(i) + ":" + (fp ? *fp : std::string()));
                if (!once_done.insert(key).second) {
                    continue;
                }
            }
            const auto unknown = [&](const std::string& kind) {
                ++e.unknown[kind];
                e.bounded_ms += step.timeout_ms;
            };
            switch (step.type) {
            case experiment::StepType::bench: {
                // By transaction count (or options refused): a time the file does not tell.
                const auto options = read_step_options(spec, step, values, pg::ConnParams{}, {});
                if (options && options->parsed.run.duration_s > 0) {
                    e.known_ms += std::int64_t{options->parsed.run.duration_s} * 1000;
                } else {
                    unknown("bench by transactions");
                }
                break;
            }
            case experiment::StepType::sleep:
                e.known_ms += step.duration_ms;
                break;
            case experiment::StepType::sql:
                if (step.expect_blocked_ms > 0) {
                    e.known_ms += step.expect_blocked_ms;
                } else {
                    unknown("sql");
                }
                break;
            case experiment::StepType::init:
            case experiment::StepType::timed_sql:
            case experiment::StepType::explain:
            case experiment::StepType::shell:
            case experiment::StepType::restart:
            case experiment::StepType::promote:
                unknown(experiment::step_type_name(step.type));
                break;
            default:
                break; // stop, start, checkpoint: moments
            }
        }
    }
    return e;
}

std::string describe(const TimeEstimate& e) {
    std::string s;
    // "at least 0s" says nothing when no step's time is known (every bench by transactions).
    if (e.known_ms > 0 || e.unknown.empty()) {
        s = fmt::format("at least {} (bench durations, sleeps, blocking checks)",
                        duration_text(e.known_ms));
    }
    if (e.unknown.empty()) {
        return s;
    }
    std::string kinds;
    for (const auto& [kind, n] : e.unknown) {
        kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", n, kind);
    }
    s += s.empty() ? "" : "; ";
    s += "not estimated: the steps whose time the file does not tell (" + kinds + ")";
    if (e.bounded_ms > 0) {
        s += fmt::format(", some bounded by their timeouts (up to {} more)",
                         duration_text(e.bounded_ms));
    }
    return s;
}

} // namespace pglab::lab::run
