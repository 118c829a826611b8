// lab/run: the time estimate of --dry-run, from what each step's expanded fields say and what an
// earlier run measured.
#include "lab/run/estimate.hpp"

#include "lab/plan/run_values.hpp"
#include "lab/run/run_time.hpp"
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

TimeEstimate estimate_plan(const experiment::ExperimentSpec& spec, const plan::Plan& plan,
                           const StoredTimes* stored, const InitModel* init_model) {
    TimeEstimate e;
    e.measured_in = stored;
    e.init_model = init_model;
    e.quick = spec.is_quick;
    double measured_ms = 0;
    std::set<std::pair<std::string, std::string>> once_done; // server, step index + fingerprint
    for (const auto& run : plan.runs) {
        const plan::RunValues values(plan.cells[run.cell], run);
        if (stored != nullptr) {
            measured_ms += stored->server_ms_per_run;
        }
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
                const auto measured =
                    stored != nullptr
                        ? stored->time_of(step_key(step, i), plan.cells[run.cell].label)
                        : std::nullopt;
                if (measured) {
                    measured_ms += *measured;
                    return;
                }
                if (step.type == experiment::StepType::init && init_model != nullptr) {
                    if (const auto options =
                            read_step_options(spec, step, values, pg::ConnParams{}, {})) {
                        measured_ms += init_model->time_at(options->parsed.init.scale);
                        ++e.modelled_inits;
                        return;
                    }
                }
                ++e.unknown[kind];
                e.bounded_ms += step.timeout_ms;
            };
            switch (step.type) {
            case experiment::StepType::bench: {
                // By transaction count (or options refused): a time the file does not tell.
                const auto options = read_step_options(spec, step, values, pg::ConnParams{}, {});
                const auto per_transaction =
                    stored != nullptr
                        ? stored->transaction_time_of(step_key(step, i), plan.cells[run.cell].label)
                        : std::nullopt;
                if (options && options->parsed.run.duration_s > 0) {
                    e.known_ms += std::int64_t{options->parsed.run.duration_s} * 1000;
                } else if (options && per_transaction) {
                    // By count: the earlier run's time per transaction, of this many.
                    const bench::RunConfig& c = options->parsed.run;
                    measured_ms +=
                        *per_transaction * static_cast<double>(c.transactions) * c.clients;
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
    e.measured_ms = static_cast<std::int64_t>(measured_ms);
    return e;
}

std::string describe(const TimeEstimate& e) {
    std::string s;
    const std::string model =
        e.modelled_inits > 0 && e.init_model != nullptr
            ? fmt::format("; {} init{} by a model fitted to {} inits of earlier runs ({:.1f} s + "
                          "{:.2f} s per scale unit)",
                          e.modelled_inits, e.modelled_inits == 1 ? "" : "s", e.init_model->inits,
                          e.init_model->fixed_ms / 1000.0, e.init_model->ms_per_scale / 1000.0)
            : std::string();
    if (e.measured_in != nullptr) {
        const StoredTimes& t = *e.measured_in;
        s = fmt::format("about {} (bench durations and sleeps from the file; the other steps, "
                        "and {:.1f} s a run for the servers, as {} run{} of {} measured them on "
                        "{}{}{})",
                        duration_text(e.known_ms + e.measured_ms), t.server_ms_per_run / 1000.0,
                        t.runs, t.runs == 1 ? "" : "s", t.dir.string(), t.date,
                        t.quick == e.quick ? ""
                        : t.quick          ? ", in the quick form: the full form's "
                                             "steps may take longer"
                                           : ", in the full form: the quick form's "
                                             "steps may take less",
                        model);
    } else if (!model.empty()) {
        s = fmt::format("{} {} (bench durations, sleeps, blocking checks from the file{})",
                        e.unknown.empty() ? "about" : "at least",
                        duration_text(e.known_ms + e.measured_ms), model);
    } else if (e.known_ms > 0 || e.unknown.empty()) {
        // "at least 0s" says nothing when no step's time is known (every bench by transactions).
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
    s += e.measured_in != nullptr
             ? "not estimated: the steps neither the file nor that run tells (" + kinds + ")"
             : "not estimated: the steps whose time the file does not tell (" + kinds + ")";
    if (e.bounded_ms > 0) {
        s += fmt::format(", some bounded by their timeouts (up to {} more)",
                         duration_text(e.bounded_ms));
    }
    return s;
}

} // namespace pglab::lab::run
