// Writing a results directory's report to its files, as `pglab report` does and as `pglab run`
// does when its plan ends: the files chosen by format, the charts beside them, what could not be
// read or drawn said on stderr.
#pragma once

#include "lab/report/report.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <string>

namespace pglab::cli {

struct ReportRequest {
    std::filesystem::path dir; ///< the results directory
    /// "" for report.md and report.html in `dir`; else one of md, html, csv, json, claims-csv,
    /// checks-csv.
    std::string format;
    std::string output; ///< the one format's path ("-": standard output); "" = its name in `dir`
    bool charts = true; ///< draw charts (when gnuplot is found)
    lab::report::ReportOptions options; ///< thresholds and claims; the output directory is set
};

/// `text` written whole to `path` ("-": standard output), or not at all.
Status write_output(const std::string& path, const std::string& text);

/// Every problem of `results` on stderr: nothing is skipped silently.
void print_problems(const lab::report::ResultsDir& results);

/// Reads `request.dir`, builds its report and writes it (whole files or none: a path that cannot
/// be written fails before anything is). Returns the report built.
Result<lab::report::Report> write_report(ReportRequest request);

} // namespace pglab::cli
