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

namespace {

/// The estimate, step by step of each planned run: what the file tells, else what the earlier run
/// measured, else the init model, else counted as not estimated.
class PlanTimer {
public:
    PlanTimer(const experiment::ExperimentSpec& spec, const StoredTimes* stored,
              const InitModel* init_model)
        : m_spec(spec), m_stored(stored), m_init_model(init_model) {
        m_e.measured_in = stored;
        m_e.init_model = init_model;
        m_e.quick = spec.is_quick;
    }

    void add_run(const plan::RunValues& values, const std::string& label) {
        if (m_stored != nullptr) {
            m_measured_ms += m_stored->server_ms_per_run;
        }
        for (std::size_t i = 0; i < m_spec.steps.size(); ++i) {
            if (runs_here(i, values)) {
                add_step(i, values, label);
            }
        }
    }

    TimeEstimate done() {
        m_e.measured_ms = static_cast<std::int64_t>(m_measured_ms);
        return m_e;
    }

private:
    /// Whether step `i` runs in this run: its `when` applies, and a `once` step has not run on
    /// its server with these values yet.
    bool runs_here(std::size_t i, const plan::RunValues& values) {
        const experiment::Step& step = m_spec.steps[i];
        if (auto applies = values.applies(step); !applies || !*applies) {
            return false;
        }
        if (!step.once) {
            return true;
        }
        const auto fp = once_fingerprint(m_spec, step, values);
        return m_once_done
            .emplace(values.server_of(m_spec, step),
                     std::to_string(i) + ":" + (fp ? *fp : std::string()))
            .second;
    }

    void add_step(std::size_t i, const plan::RunValues& values, const std::string& label) {
        const experiment::Step& step = m_spec.steps[i];
        switch (step.type) {
        case experiment::StepType::bench:
            add_bench(i, values, label);
            break;
        case experiment::StepType::sleep:
            m_e.known_ms += step.duration_ms;
            break;
        case experiment::StepType::sql:
            if (step.expect_blocked_ms > 0) {
                m_e.known_ms += step.expect_blocked_ms;
            } else {
                add_untold(i, values, label, "sql");
            }
            break;
        case experiment::StepType::init:
        case experiment::StepType::timed_sql:
        case experiment::StepType::explain:
        case experiment::StepType::shell:
        case experiment::StepType::restart:
        case experiment::StepType::promote:
            add_untold(i, values, label, experiment::step_type_name(step.type));
            break;
        default:
            break; // stop, start, checkpoint: moments
        }
    }

    /// A bench by duration is its duration; by transaction count, the earlier run's time per
    /// transaction, of this many.
    void add_bench(std::size_t i, const plan::RunValues& values, const std::string& label) {
        const experiment::Step& step = m_spec.steps[i];
        const auto options = read_step_options(m_spec, step, values, pg::ConnParams{}, {});
        const auto per_transaction = m_stored != nullptr
                                         ? m_stored->transaction_time_of(step_key(step, i), label)
                                         : std::nullopt;
        if (options && options->parsed.run.duration_s > 0) {
            m_e.known_ms += std::int64_t{options->parsed.run.duration_s} * 1000;
        } else if (options && per_transaction) {
            const bench::RunConfig& c = options->parsed.run;
            m_measured_ms += *per_transaction * static_cast<double>(c.transactions) * c.clients;
        } else {
            add_untold(i, values, label, "bench by transactions");
        }
    }

    /// A step whose time the file does not tell, as `kind`.
    void add_untold(std::size_t i, const plan::RunValues& values, const std::string& label,
                    const std::string& kind) {
        const experiment::Step& step = m_spec.steps[i];
        if (const auto measured =
                m_stored != nullptr ? m_stored->time_of(step_key(step, i), label) : std::nullopt) {
            m_measured_ms += *measured;
            return;
        }
        if (step.type == experiment::StepType::init && m_init_model != nullptr) {
            if (const auto options =
                    read_step_options(m_spec, step, values, pg::ConnParams{}, {})) {
                m_measured_ms += m_init_model->time_at(options->parsed.init.scale);
                ++m_e.modelled_inits;
                return;
            }
        }
        ++m_e.unknown[kind];
        m_e.bounded_ms += step.timeout_ms;
    }

    const experiment::ExperimentSpec& m_spec;
    const StoredTimes* m_stored;
    const InitModel* m_init_model;
    TimeEstimate m_e;
    double m_measured_ms = 0;
    std::set<std::pair<std::string, std::string>> m_once_done; ///< server, step and fingerprint
};

} // namespace

TimeEstimate estimate_plan(const experiment::ExperimentSpec& spec, const plan::Plan& plan,
                           const StoredTimes* stored, const InitModel* init_model) {
    PlanTimer timer(spec, stored, init_model);
    for (const auto& run : plan.runs) {
        timer.add_run(plan::RunValues(plan.cells[run.cell], run), plan.cells[run.cell].label);
    }
    return timer.done();
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
