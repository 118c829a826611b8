// write_report: the report's files, its charts beside them, and what was written, said.
#include "cli/report_writer.hpp"

#include "lab/report/chart.hpp"
#include "lab/report/results.hpp"
#include "util/log.hpp"
#include "util/output_file.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <utility>
#include <vector>

namespace pglab::cli {

namespace {

namespace fs = std::filesystem;
namespace rp = lab::report;

/// The files to write, as format and path: report.md and report.html in `dir` without a
/// format, else the one format at `output` (or its name in `dir`).
std::vector<std::pair<std::string, std::string>>
report_files(const std::string& format, const std::string& output, const fs::path& dir) {
    if (format.empty()) {
        return {{"md", (dir / "report.md").string()}, {"html", (dir / "report.html").string()}};
    }
    const std::string name = format == "claims-csv"   ? std::string("claims.csv")
                             : format == "checks-csv" ? std::string("checks.csv")
                                                      : "report." + format;
    return {{format, output.empty() ? (dir / name).string() : output}};
}

std::string render_report(const std::string& format, const rp::ResultsDir& results,
                          const rp::Report& report) {
    if (format == "md") {
        return rp::render_markdown(report.document) + "\n";
    }
    if (format == "html") {
        return rp::render_html(report.document);
    }
    if (format == "csv") {
        return rp::export_csv(results, report.steps);
    }
    if (format == "claims-csv") {
        return rp::export_claims_csv(report);
    }
    if (format == "checks-csv") {
        return rp::export_checks_csv(results);
    }
    return rp::export_json(results, report);
}

/// "wrote FILES (N warnings, M charts)".
void log_written(const std::vector<std::string>& written, const rp::Report& report, bool gnuplot,
                 bool charts_asked, const std::string& format) {
    std::string charts_text;
    if (gnuplot) {
        charts_text = fmt::format(", {} chart{}", report.charts, report.charts == 1 ? "" : "s");
    } else if (format.empty() || format == "md" || format == "html") {
        charts_text = charts_asked ? ", no charts (gnuplot not found: apt-get install gnuplot-nox)"
                                   : ", no charts";
    }
    log::info("wrote {} ({} warning{}{})", fmt::format("{}", fmt::join(written, " and ")),
              report.warnings.size(), report.warnings.size() == 1 ? "" : "s", charts_text);
}

} // namespace

Status write_output(const std::string& path, const std::string& text) {
    if (path == "-") {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return {};
    }
    // Whole or not at all: a full disk leaves no empty report, and the error says why.
    return util::write_output_file(path, text);
}

void print_problems(const rp::ResultsDir& results) {
    for (const auto& p : results.problems) {
        log::warning("{}: {}", results.dir.string(), p);
    }
}

Result<rp::Report> write_report(ReportRequest request) {
    PGLAB_TRY_ASSIGN(const rp::ResultsDir results, rp::load_results(request.dir));
    print_problems(results);
    const auto files = report_files(request.format, request.output, request.dir);
    // A path that cannot be written (a directory, a missing directory) fails before a chart is
    // drawn beside it: nothing is written.
    for (const auto& [format, path] : files) {
        if (path != "-") {
            PGLAB_TRY(util::inspect_output(path));
        }
    }
    rp::ReportOptions& options = request.options;
    options.output_dir = (request.output.empty() || request.output == "-")
                             ? request.dir
                             : fs::path(request.output).parent_path();
    if (options.output_dir.empty()) {
        options.output_dir = ".";
    }
    const bool drawn_format =
        request.format.empty() || request.format == "md" || request.format == "html";
    if (request.charts && drawn_format) {
        options.gnuplot = rp::find_gnuplot();
    }
    rp::Report report = rp::build_report(results, options);
    for (const auto& e : report.chart_errors) {
        log::warning("chart not drawn: {}", e);
    }
    std::vector<std::string> written;
    for (const auto& [format, path] : files) {
        PGLAB_TRY(write_output(path, render_report(format, results, report)));
        if (path != "-") {
            written.push_back(path);
        }
    }
    if (!written.empty()) {
        log_written(written, report, options.gnuplot.has_value(), request.charts, request.format);
    }
    return report;
}

} // namespace pglab::cli
