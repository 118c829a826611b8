// Builds the report document: environment, warnings, then per step its charts and one table per
// metric with n, mean ± sd, median, min–max and the 95% CI of each cell.
#include "lab/report/report.hpp"

#include "lab/report/bench_runs.hpp"
#include "lab/report/cells.hpp"
#include "lab/report/chart.hpp"
#include "lab/report/chart_specs.hpp"
#include "lab/report/checks_section.hpp"
#include "lab/report/claim_words.hpp"
#include "lab/report/client_cost_words.hpp"
#include "lab/report/deviations.hpp"
#include "lab/report/disturbances.hpp"
#include "lab/report/environment_section.hpp"
#include "lab/report/number_format.hpp"
#include "lab/report/outliers.hpp"
#include "lab/report/statistics.hpp"
#include "lab/store/bench_figures.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

namespace pglab::lab::report {

namespace {

namespace fs = std::filesystem;

constexpr size_t k_max_time_charts = 24; // per-second charts per step

/// Whether the step measures something of its own (experiment::measures_itself); a step type
/// this pglab does not know does not.
bool measures_itself(const StepData& step) {
    return step.kind && experiment::measures_itself(*step.kind);
}

std::string with_unit(const MetricInfo& m) {
    return m.unit.empty() ? m.title : fmt::format("{} ({})", m.title, m.unit);
}

std::string stem_part(std::string_view text) {
    std::string out;
    for (const char c : text) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                          || c == '-' || c == '.';
        out += keep ? c : '_';
    }
    return out;
}

using util::join;

std::string join_runs(const std::vector<int64_t>& runs) {
    std::vector<std::string> parts;
    for (const auto r : runs) {
        parts.push_back(std::to_string(r));
    }
    return join(parts, ", ");
}

class Builder {
public:
    Builder(const ResultsDir& results, const ReportOptions& options)
        : m_results(results), m_options(options), m_dims(analyze_dimensions(results)) {}

    Report build() {
        m_report.environment = gather_environment(m_results, m_options.proc_root);
        m_report.steps = collect_steps(m_results, m_report.environment.machine.cores);
        Document& doc = m_report.document;
        doc.title = "pglab report: " + m_results.name;
        doc.heading(1, doc.title);
        if (!m_results.description.empty()) {
            doc.paragraph(m_results.description);
        }
        answer_section();
        add_deviations_section(
            collect_deviations(m_results), m_results, [&](int64_t c) { return short_label(c); },
            doc);
        add_checks_section(m_results, doc); // a functional study's answer: before the rest
        if (!m_options.gnuplot) {
            doc.paragraph("Charts are not drawn because gnuplot was not found: install it "
                          "(`apt-get install gnuplot-nox`) and run `pglab report` again.");
        } else {
            std::error_code ec;
            fs::create_directories(charts_dir(), ec);
        }
        // The measured steps first: those a claim names, or (without claims) the measured
        // kinds that run in every run. Setup, `once` steps and the other probes go last.
        for (const auto& step : m_report.steps) {
            if (is_main(step)) {
                step_section(step, Part::main);
            }
        }
        m_disturbed = collect_disturbances(m_results, m_report.steps, m_once,
                                           m_report.environment.machine.cores);
        add_disturbances_section(
            m_disturbed, m_report.steps, [&](int64_t c) { return short_label(c); }, doc);
        collect_warnings();
        disturbance_warnings();
        doc.heading(2, "Warnings");
        if (m_report.warnings.empty()) {
            doc.paragraph("None: every cell has enough runs with little spread, no run failed, "
                          "and no checkpoint or client CPU limit affected the measurements.");
        } else {
            doc.warnings(m_report.warnings);
        }
        add_environment_section(m_report.environment, m_results, m_dims.varying, m_report.document);
        doc.heading(2, "Appendix: setup steps and other measurements");
        doc.paragraph("Steps and probes no claim asked for, and steps that run once per server "
                      "(their numbers belong to the run they ran in, not to a cell).");
        for (const auto& step : m_report.steps) {
            step_section(step, is_main(step) ? Part::rest : Part::all);
        }
        if (!m_report.chart_errors.empty()) {
            doc.heading(2, "Charts that could not be drawn");
            doc.list(m_report.chart_errors);
        }
        return std::move(m_report);
    }

private:
    fs::path charts_dir() const { return m_options.output_dir / "charts"; }

    const Cell* cell(int64_t index) const { return find_cell(m_results, index); }

    std::string short_label(int64_t index) const {
        const Cell* c = cell(index);
        return c != nullptr ? cell_label(*c, m_dims.varying) : fmt::format("cell {}", index);
    }

    enum class Part : uint8_t { main, rest, all };

    void answer_section() {
        Document& doc = m_report.document;
        ExperimentClaims ec = m_options.claims ? *m_options.claims : read_claims(m_results);
        if (!ec.problem.empty()) {
            m_results_problems.push_back(ec.problem);
        }
        m_report.question = ec.question;
        m_report.claims = evaluate_claims(ec.claims, m_results, m_report.steps);
        for (const auto& c : ec.claims) {
            m_claimed.insert(c.step);
            m_claimed_metrics.insert(c.step + "\n" + c.metric);
        }
        m_once = once_steps();
        if (m_results.plan && m_results.plan->quick) {
            doc.paragraph("This is the experiment's quick form (`pglab run --quick`): fewer or "
                          "shorter runs than the study; read its figures as shapes.");
        }
        if (!ec.question.empty()) {
            doc.paragraph("Question: " + ec.question);
        }
        if (!m_report.claims.empty()) {
            doc.heading(2, "Answer");
            doc.table(claims_table(m_report.claims));
        }
    }

    /// Steps that ran once per server: the plan says so, or a run skipped them as "once".
    std::set<std::string> once_steps() const {
        std::set<std::string> out;
        if (m_results.plan) {
            for (const store::PlanStep& s : m_results.plan->steps) {
                if (s.once) {
                    out.insert(s.key);
                }
            }
        }
        for (const auto& run : m_results.runs) {
            for (const store::StepRecord& s : run.record.steps) {
                if (s.status == store::StepStatus::skipped && s.skip_reason == "once") {
                    out.insert(s.key);
                }
            }
        }
        return out;
    }

    bool is_main(const StepData& step) const {
        if (!m_claimed.empty()) {
            return m_claimed.count(step.key) != 0;
        }
        return measures_itself(step) && m_once.count(step.key) == 0;
    }

    bool claimed(const StepData& step, const MetricValues& m) const {
        return m_claimed_metrics.count(step.key + "\n" + m.info.id) != 0;
    }

    /// The environment's list: pglab, the machine, units, the plan, the runs, what varied.
    /// A step whose runs followed an unsettled setup step, and one whose runs something other
    /// than a checkpoint fell into (checkpoints have their own warning).
    void disturbance_warnings() {
        for (const StepDisturbances& d : m_disturbed) {
            std::vector<int64_t> runs;
            std::set<std::string> setup;
            std::vector<int64_t> after_setup;
            for (const RunDisturbance& r : d.runs) {
                const bool only_checkpoint = r.what.size() == 1 && r.what.front() == "a checkpoint";
                if (!r.what.empty() && !only_checkpoint) {
                    runs.push_back(r.run);
                }
                if (!r.after_setup.empty()) {
                    after_setup.push_back(r.run);
                    setup.insert(r.after_setup.begin(), r.after_setup.end());
                }
            }
            if (!after_setup.empty()) {
                m_report.warnings.push_back(fmt::format(
                    "Step {}: run(s) {} follow setup step(s) {} with no settle between: the setup "
                    "ran in the same run, so its writes and dirty pages are in their figures. "
                    "pglab settles after the `once` steps that come before every measured step; "
                    "put them first (and keep `settle` on).",
                    d.step, join_runs(after_setup),
                    join(std::vector<std::string>(setup.begin(), setup.end()), ", ")));
            }
            if (!runs.empty()) {
                m_report.warnings.push_back(fmt::format(
                    "Step {}: autovacuum, other processes' CPU or steal fell into run(s) {}; the "
                    "section Disturbances gives each cell's spread without them.",
                    d.step, join_runs(runs)));
            }
        }
    }

    /// What fell into the runs of `cell` in `step`, each run said ("run 0: follows setup step
    /// 0:init with no settle between").
    std::vector<std::string> known_causes(const std::string& step, int64_t cell) const {
        for (const StepDisturbances& d : m_disturbed) {
            if (d.step == step) {
                return cell_disturbances(d, cell);
            }
        }
        return {};
    }

    /// The runs of the plan that have no line, and their cells.
    void missing_runs_warning() {
        auto& w = m_report.warnings;
        const Environment& env = m_report.environment;
        if (env.missing_runs.empty()) {
            return;
        }
        std::set<int64_t> incomplete;
        for (const store::PlanRun& r : m_results.plan.value().runs) {
            const auto n = static_cast<int64_t>(r.run);
            if (std::find(env.missing_runs.begin(), env.missing_runs.end(), n)
                != env.missing_runs.end()) {
                incomplete.insert(static_cast<int64_t>(r.cell));
            }
        }
        std::vector<std::string> cells; // in plan order
        for (const auto index : incomplete) {
            cells.push_back(short_label(index));
        }
        w.push_back(fmt::format(
            "{} of {} planned runs have no results (the plan was interrupted or is still "
            "running): runs {}; incomplete cells: {}. `pglab run --resume DIR` runs what is "
            "missing.",
            env.missing_runs.size(), env.planned_runs, join_runs(env.missing_runs),
            join(cells, "; ")));
    }

    /// A run that failed, a benchmark interrupted or with aborted clients.
    void run_warnings(const store::RunRecord& run) {
        auto& w = m_report.warnings;
        const auto cell = static_cast<int64_t>(run.cell);
        if (run.status() != store::RunStatus::ok) {
            std::string reason = "no reason recorded";
            std::string where;
            if (run.failure) {
                if (!run.failure->reason.empty()) {
                    reason = run.failure->reason;
                }
                if (!run.failure->step_key.empty()) {
                    where = " at step " + run.failure->step_key;
                }
            }
            w.push_back(fmt::format("Run {} ({}, repetition {}) failed{}: {}. It is left out "
                                    "of the statistics.",
                                    run.run, short_label(cell), run.repetition, where, reason));
        }
        if (!run.beside.empty()) {
            w.push_back(fmt::format("Run {} ({}) ran beside other benchmarks on this machine: {}; "
                                    "its figures measure both.",
                                    run.run, short_label(cell), join(run.beside, "; ")));
        }
        if (run.settle && !run.settle->settled) {
            w.push_back(fmt::format("Run {} ({}) started unsettled: {} after its CHECKPOINT and "
                                    "{} s of waiting; its figures may carry the last run's work.",
                                    run.run, short_label(cell), run.settle->busy,
                                    format_number(run.settle->waited_ms / 1000.0)));
        }
        for (const store::StepRecord& s : run.steps) {
            const auto* bench = s.as<store::BenchStep>();
            const auto figures = bench ? store::bench_figures(*bench) : std::nullopt;
            if (!figures) {
                continue;
            }
            if (figures->interrupted) {
                w.push_back(fmt::format("Run {} ({}): the benchmark of step {} was "
                                        "interrupted; it covers only part of its duration.",
                                        run.run, short_label(cell), s.key));
            }
            if (figures->aborted_clients > 0) {
                w.push_back(fmt::format("Run {} ({}): {} client(s) aborted in step {}.", run.run,
                                        short_label(cell), figures->aborted_clients, s.key));
            }
        }
    }

    void collect_warnings() {
        auto& w = m_report.warnings;
        for (const auto& p : m_results.problems) {
            w.push_back(p + ".");
        }
        for (const auto& p : m_results_problems) {
            w.push_back(p + ".");
        }
        missing_runs_warning();
        for (const auto& finished : m_results.runs) {
            run_warnings(finished.record);
        }
        m_first_runs = first_runs_after_start(m_results); // once for every step's outliers
        for (const auto& step : m_report.steps) {
            step_warnings(step);
            if (step.kind == experiment::StepType::bench) {
                for (std::string& warning :
                     short_bench_warnings(step.key, bench_ran(m_results, step.key),
                                          [&](int64_t c) { return short_label(c); })) {
                    m_report.warnings.push_back(std::move(warning) + ".");
                }
            }
        }
    }

    /// A measured step's headline metrics: a spread above high_cv, fewer runs than
    /// min_repetitions.
    void spread_warnings(const StepData& step) {
        auto& w = m_report.warnings;
        // Spread and repetitions matter for measured steps; an init that runs once is fine.
        const bool measured = measures_itself(step);
        std::vector<std::string> noisy;
        bool unexplained = false; // a noisy cell none of whose runs was disturbed
        std::vector<std::string> few;
        for (const auto& m : step.metrics) {
            if (!m.info.headline || !measured) {
                continue;
            }
            for (const auto& [cell_index, runs] : m.by_cell) {
                const Summary s = summarize(values_of(runs));
                if (s.cv && *s.cv > m_options.high_cv) {
                    const std::vector<std::string> causes = known_causes(step.key, cell_index);
                    unexplained = unexplained || causes.empty();
                    noisy.push_back(fmt::format("{} in {} ({:.0f}%{})", m.info.title,
                                                short_label(cell_index), *s.cv * 100.0,
                                                causes.empty() ? "" : "; " + join(causes, "; ")));
                }
                if (s.n < m_options.min_repetitions && m.info.id == step.metrics.front().info.id) {
                    few.push_back(fmt::format("{} (n={})", short_label(cell_index), s.n));
                }
            }
        }
        if (!noisy.empty()) {
            w.push_back(fmt::format(
                "Step {}: high variation between runs (coefficient of variation above {:.0f}%): "
                "{}. Differences smaller than that spread are not meaningful; {}.",
                step.key, m_options.high_cv * 100.0, join(noisy, "; "),
                unexplained ? "run more repetitions or look for the source of the noise"
                            : "the runs named say what fell into them, and the section "
                              "Disturbances gives each cell's spread without them"));
        }
        if (!few.empty()) {
            w.push_back(fmt::format(
                "Step {}: too few measured runs for a reliable mean: {}. Use `repeat = {}` or "
                "more (no interval is given under {} runs), or let pglab decide: `repeat = {{ "
                "min = 3, max = 15, until = \"decided\" }}` adds runs until the claims are "
                "decided.",
                step.key, join(few, "; "), std::max<size_t>(m_options.min_repetitions, 5),
                k_min_runs_for_interval));
        }
    }

    /// What the runs' probes lacked over `step` (withheld, unreadable), the first few in full.
    void probe_note_warnings(const StepData& step) {
        constexpr std::size_t k_shown = 3;
        if (step.probe_notes.empty()) {
            return;
        }
        std::vector<int64_t> runs;
        std::vector<std::string> shown;
        for (const auto& [run, note] : step.probe_notes) {
            if (runs.empty() || runs.back() != run) {
                runs.push_back(run);
            }
            if (shown.size() < k_shown) {
                shown.push_back(fmt::format("run {}: {}", run, note));
            }
        }
        const std::size_t more = step.probe_notes.size() - shown.size();
        m_report.warnings.push_back(fmt::format(
            "Step {}: probes were withheld or left out in run(s) {} (docs/probes.md): {}{}.",
            step.key, join_runs(runs), join(shown, "; "),
            more > 0 ? fmt::format("; {} more in results.jsonl (probe_notes)", more) : ""));
    }

    void step_warnings(const StepData& step) {
        auto& w = m_report.warnings;
        spread_warnings(step);
        for (std::string& outlier :
             outlier_warnings(step, m_first_runs, [&](int64_t c) { return short_label(c); })) {
            w.push_back(std::move(outlier));
        }
        if (!step.checkpoint_runs.empty()) {
            w.push_back(fmt::format(
                "Step {}: a checkpoint happened during the measurement in run(s) {}; their "
                "numbers include its I/O. Add a `checkpoint` step before the measured step, or "
                "raise checkpoint_timeout and max_wal_size.",
                step.key, join_runs(step.checkpoint_runs)));
        }
        if (auto bound = client_bound_warning(step, m_options.client_cpu_limit)) {
            w.push_back(std::move(*bound));
        }
        for (const auto& d : step.disagreements) {
            w.push_back(fmt::format(
                "Step {}: in run {}, {} ({} MB) disagrees by more than 10x with {} ({} MB), which "
                "measures the same quantity: the statistic lags or misses part of the step, and "
                "its mean over the runs is not to be trusted; {} is the exact measure.",
                step.key, d.run, d.name_b, format_number(d.value_b / 1e6), d.name_a,
                format_number(d.value_a / 1e6), d.name_a));
        }
        probe_note_warnings(step);
        if (!step.bad_histograms.empty()) {
            w.push_back(fmt::format("Step {}: the latency histogram of run(s) {} could not be "
                                    "read; latency curves leave them out.",
                                    step.key, join_runs(step.bad_histograms)));
        }
        for (const auto& [id, runs] : step.unit_conflicts) {
            w.push_back(fmt::format("Step {}: {} of run(s) {} is recorded in another unit than in "
                                    "the other runs (results of an older pglab resumed by a "
                                    "newer one); those values are left out.",
                                    step.key, id, join_runs(runs)));
        }
    }

    /// A step's charts and tables. Part::main: the charts and tables of its claimed metrics (of
    /// its headline metrics when no claim names one); in the appendix, tables only: Part::rest
    /// its other metrics, Part::all every metric.
    void step_section(const StepData& step, Part part) {
        Document& doc = m_report.document;
        const auto shown_in_main = [&](const MetricValues& m) {
            return claimed(step, m)
                   || (m.info.headline && (m_claimed.empty() || !has_claimed(step)));
        };
        std::vector<const MetricValues*> metrics;
        for (const auto& m : step.metrics) {
            // not measured: left out; a metric that is 0 everywhere is shown
            if (m.by_cell.empty()) {
                continue;
            }
            if (part == Part::all || (part == Part::main) == shown_in_main(m)) {
                metrics.push_back(&m);
            }
        }
        if (part == Part::rest && metrics.empty()) {
            return;
        }
        const std::string once = m_once.count(step.key) != 0 ? ", once per server" : "";
        doc.heading(part == Part::main ? 2 : 3,
                    part == Part::rest
                        ? fmt::format("Step {} ({}): other measurements", step.key, step.type)
                        : fmt::format("Step {} ({}{})", step.key, step.type, once));
        if (metrics.empty()) {
            doc.paragraph("No measured, successful run of this step, or it records no metric.");
            return;
        }
        if (m_options.gnuplot && part == Part::main) { // the appendix has tables only
            step_charts(step, shown_in_main);
        }
        // In the appendix a metric that was 0 in every run (no temp files, no deadlocks...) is
        // named, not tabled: a table of zeros says less than its name in a list.
        std::vector<std::string> zero;
        for (const auto* m : metrics) {
            if (part != Part::main && all_zero(*m)) {
                zero.push_back(m->info.title);
                continue;
            }
            doc.heading(part == Part::main ? 3 : 4, with_unit(m->info));
            doc.table(m_once.count(step.key) != 0 ? once_table(*m) : metric_table(*m));
        }
        if (!zero.empty()) {
            doc.paragraph(fmt::format("0 in every run: {}.", join(zero, ", ")));
        }
        if (step.kind == experiment::StepType::bench && part != Part::rest) {
            // How long each bench ran and with what: a step's options can make it run
            // otherwise than the matrix's labels say.
            const std::vector<BenchRan> ran = bench_ran(m_results, step.key);
            if (!ran.empty()) {
                doc.heading(part == Part::main ? 3 : 4, "What pglab bench ran");
                doc.table(bench_ran_table(ran, [&](int64_t c) { return short_label(c); }));
            }
        }
    }

    static bool all_zero(const MetricValues& m) {
        return std::all_of(m.by_cell.begin(), m.by_cell.end(), [](const auto& cell) {
            return std::all_of(cell.second.begin(), cell.second.end(),
                               [](const RunFigure& f) { return f.value == 0.0; });
        });
    }

    bool has_claimed(const StepData& step) const {
        return std::any_of(step.metrics.begin(), step.metrics.end(),
                           [&](const MetricValues& m) { return claimed(step, m); });
    }

    /// A step that runs once per server: one row per run it ran in, named by the run and its
    /// server, not credited to the cell that run measured.
    Table once_table(const MetricValues& m) const {
        Table t;
        t.header = {"ran once, in", "value"};
        t.numeric = {false, true};
        for (const auto& [cell_index, runs] : m.by_cell) {
            const Cell* c = cell(cell_index);
            for (const RunFigure& f : runs) {
                t.rows.push_back({fmt::format("run {} on server {}", f.run,
                                              c != nullptr && !c->server.empty() ? c->server : "?"),
                                  format_number(f.value)});
            }
        }
        return t;
    }

    Table metric_table(const MetricValues& m) const {
        Table t;
        t.header = {"cell", "n", "mean ± sd", "median", "min – max", "95% CI", "CV"};
        t.numeric = {false, true, true, true, true, true, true};
        for (const auto& c : m_results.cells) {
            const auto it = m.by_cell.find(c.index);
            if (it == m.by_cell.end()) {
                if (!has_ok_run(c.index)) {
                    t.rows.push_back(
                        {cell_label(c, m_dims.varying), "0", "no measured run", "", "", "", ""});
                }
                continue;
            }
            const Summary s = summary_in(m, c.index);
            t.rows.push_back({cell_label(c, m_dims.varying), std::to_string(s.n),
                              s.stddev ? format_number(s.mean) + " ± " + format_number(*s.stddev)
                                       : format_number(s.mean),
                              format_number(s.median),
                              format_number(s.min) + " – " + format_number(s.max),
                              s.ci95 ? format_interval(*s.ci95) : "",
                              s.cv ? fmt::format("{:.1f}%", *s.cv * 100.0) : ""});
        }
        return t;
    }

    bool has_ok_run(int64_t cell_index) const {
        return std::any_of(m_results.runs.begin(), m_results.runs.end(), [&](const FinishedRun& r) {
            return static_cast<int64_t>(r.record.cell) == cell_index
                   && r.record.status() == store::RunStatus::ok && !r.record.warmup;
        });
    }

    void draw(const ChartSpec& spec, const std::string& stem) {
        const auto svg = draw_chart(spec, charts_dir(), stem, *m_options.gnuplot);
        if (!svg) {
            m_report.chart_errors.push_back(
                fmt::format("{}: {} {}", spec.title, svg.error().message, svg.error().detail));
            return;
        }
        ++m_report.charts;
        m_report.document.chart(ChartRef{spec.title, "charts/" + stem + ".svg", *svg});
    }

    void step_charts(const StepData& step, const std::function<bool(const MetricValues&)>& chart) {
        const std::string step_stem = stem_part(step.key);
        for (const auto& m : step.metrics) {
            if (!chart(m) || m.by_cell.size() < 2) { // one point: the table says it
                continue;
            }
            ChartSpec spec =
                m_dims.x ? line_chart(m_results, m_dims, m) : bar_chart(m_results, m_dims, m);
            spec.title = fmt::format("{}: {}", step.key, with_unit(m.info));
            // What the points and bars are, on the chart itself.
            spec.y_label = with_unit(m.info) + ": mean of the runs, bars ± 1 sd";
            draw(spec, step_stem + "-" + stem_part(m.info.id));
        }
        if (!step.histograms.empty()) {
            draw(percentile_chart(m_results, m_dims, step), step_stem + "-latency-percentiles");
        }
        // One scale for every cell's chart, so that they compare at a glance.
        double top = 0;
        for (const auto& s : step.series) {
            for (const auto& [t, tps] : s.points) {
                top = std::max(top, tps);
            }
        }
        size_t drawn = 0;
        for (const auto& c : m_results.cells) {
            if (drawn == k_max_time_charts) {
                break;
            }
            ChartSpec spec;
            spec.kind = ChartKind::time;
            spec.title =
                fmt::format("{}: tps per second, {}", step.key, cell_label(c, m_dims.varying));
            spec.x_label = "elapsed (s)";
            spec.y_label = "tps";
            if (top > 0) {
                spec.y_max = top * 1.05;
            }
            for (const auto& s : step.series) {
                if (s.cell != static_cast<std::int64_t>(c.index)) {
                    continue;
                }
                ChartSeries series{fmt::format("run {} (repetition {})", s.run, s.repetition), {}};
                for (const auto& [t, tps] : s.points) {
                    series.points.push_back(ChartPoint{t, tps, -1});
                }
                spec.series.push_back(std::move(series));
            }
            if (!spec.series.empty()) {
                draw(spec, fmt::format("{}-tps-time-cell{}", step_stem, c.index));
                ++drawn;
            }
        }
    }

    const ResultsDir& m_results;
    const ReportOptions& m_options;
    Dimensions m_dims;
    Report m_report;
    std::vector<std::string> m_results_problems; ///< found while reading the claims
    std::set<std::string> m_claimed;             ///< step keys a claim names
    std::set<std::string> m_claimed_metrics;     ///< "step\nmetric" a claim names
    std::set<std::string> m_once;                ///< steps that run once per server
    std::vector<StepDisturbances> m_disturbed;   ///< what fell into each measured step's runs
    std::set<int64_t> m_first_runs;              ///< runs first on a freshly started server
};

} // namespace

Report build_report(const ResultsDir& results, const ReportOptions& options) {
    return Builder(results, options).build();
}

} // namespace pglab::lab::report
