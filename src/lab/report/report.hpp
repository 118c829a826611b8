// `pglab report`: a results directory to a Document (environment, warnings, per-step charts and
// tables) and to CSV/JSON exports of the aggregated cells.
#pragma once

#include "lab/report/claims.hpp"
#include "lab/report/document.hpp"
#include "lab/report/environment.hpp"
#include "lab/report/metrics.hpp"
#include "lab/report/results.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pglab::lab::report {

/// Thresholds of the warnings, and where charts go.
struct ReportOptions {
    /// gnuplot to draw charts with; nullopt: tables only, and a sentence on how to get charts.
    std::optional<std::filesystem::path> gnuplot;
    /// The directory the report is written to; charts go to its `charts/` sub-directory.
    std::filesystem::path output_dir;
    double high_cv = 0.10;      ///< warn above this coefficient of variation
    size_t min_repetitions = 3; ///< warn below this many measured runs in a cell
    /// Warn when a client on the server's machine used more of its CPU (cores × the step's
    /// time): it then took enough from the server to be measured with it.
    double client_cpu_limit = 0.25;
    std::filesystem::path proc_root = "/proc";
    /// The question and claims to answer; nullopt: those of the results' experiment.toml
    /// (`pglab report --claims FILE` gives those of another file).
    std::optional<ExperimentClaims> claims;
};

/// A built report.
struct Report {
    Document document;
    Environment environment;
    std::vector<StepData> steps;
    std::vector<std::string> warnings;     ///< plain sentences, also in the document
    std::vector<std::string> chart_errors; ///< gnuplot failures (the report keeps its tables)
    int charts = 0;                        ///< charts drawn
    std::string question;                  ///< the experiment's question; "" = none
    std::vector<ClaimResult> claims;       ///< its claims, evaluated, in file order
};

/// Builds the report of `results`, drawing charts into `options.output_dir / "charts"` when
/// gnuplot is given.
Report build_report(const ResultsDir& results, const ReportOptions& options);

/// The aggregated cells as CSV: one row per step, metric and cell (header first).
std::string export_csv(const ResultsDir& results, const std::vector<StepData>& steps);

/// The aggregated cells as JSON (`pglab.report/1`), with the warnings and problems, the
/// question, the claims evaluated (the Answer table's) and the functional checks.
std::string export_json(const ResultsDir& results, const Report& report);

/// The claims evaluated, one CSV row each: the Answer table's figures and verdict words.
std::string export_claims_csv(const Report& report);

/// The functional checks of every run, one CSV row each (step, kind, expected, actual, pass).
std::string export_checks_csv(const ResultsDir& results);

} // namespace pglab::lab::report
