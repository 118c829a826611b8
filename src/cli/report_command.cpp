// Options of `pglab report` and `pglab compare`, where their files go, and exit codes.
#include "cli/report_command.hpp"

#include "cli/command_line.hpp"
#include "cli/report_writer.hpp"
#include "lab/experiment/parse_experiment.hpp"
#include "lab/report/compare.hpp"
#include "lab/report/recheck.hpp"
#include "lab/report/report.hpp"
#include "lab/report/results.hpp"
#include "util/log.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::cli {

namespace {

namespace fs = std::filesystem;
namespace rp = lab::report;

constexpr const char* k_report_synopsis =
    R"(pglab report writes the report of a results directory.

Usage:
  pglab report DIR [OPTION]...
  pglab report --recheck STORED...

Without --format, writes DIR/report.md and DIR/report.html (self-contained: inline CSS and
SVG), with the charts' data files, gnuplot scripts and SVGs in DIR/charts/. With --recheck,
judges the claims of each stored result (scripts/doc-tables store) again from the runs kept with
it and exits 1 when a verdict, figure or interval differs from the stored one.
)";

constexpr const char* k_report_epilogue = R"(Example:
  pglab report results/quickstart-20240611-101502
  pglab report results/quickstart-20240611-101502 --format csv -o cells.csv
  pglab report results/s4-20240611-101502 --format claims-csv -o -
)";

constexpr const char* k_compare_synopsis = R"(pglab compare tells whether a difference is real.

Usage:
  pglab compare DIR --by NAME=A,B [OPTION]...    two series of one results directory
  pglab compare DIR --a SELECTOR --b SELECTOR     the same, any selectors
  pglab compare DIR_A DIR_B [OPTION]...           the same cells of two results directories

Cells pair up when every matrix variable the selectors do not name has the same value. For each
pair and metric: the means, B/A and B − A with 95% confidence intervals (Welch's t-test;
Fieller's interval for the ratio), the p-value and a verdict in words.
)";

constexpr const char* k_compare_epilogue = R"(Example:
  pglab compare results/s3-20240611-101502 --by server=pg16,pg17
  pglab compare before/ after/ --metric tps --fail-if-slower 5
)";

int fail(const Error& e) {
    log::print(e);
    return e.exit_code;
}

std::optional<double> parse_double(std::string_view text) {
    double v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size()) {
        return std::nullopt;
    }
    return v;
}

/// `pglab report`'s command line, as given.
struct ReportArgs {
    std::vector<std::string> dirs;
    std::optional<std::string> format;
    std::optional<std::string> output;
    std::optional<std::string> claims;
    std::optional<std::string> cv_warning;
    std::optional<std::string> min_runs;
    bool no_charts = false;
    bool recheck = false;
};

void declare_report_options(CommandLine& line, ReportArgs& args) {
    line.option("--format", args.format,
                {"FORMAT", "a value",
                 "one file of: md, html, csv (the aggregated cells), json (the cells, the "
                 "question, the claims with their verdicts and the functional checks), claims-csv "
                 "(the claims: paper, measured, 95% CI, verdict) or checks-csv (the checks: step, "
                 "kind, expected, actual, pass)",
                 "report.md and report.html"});
    line.option("-o,--output", args.output,
                {"PATH", "a path",
                 "where the one format goes (\"-\" for standard output); charts go to charts/ "
                 "next to it",
                 "DIR/report.FORMAT, DIR/claims.csv, DIR/checks.csv"});
    line.flag("--no-charts", args.no_charts, "tables only, even when gnuplot is installed");
    line.flag("--recheck", args.recheck,
              "judge the claims of stored results (docs/studies/results/ID) again from their "
              "kept runs; exit 1 on any difference");
    line.option("--claims", args.claims,
                {"FILE",
                 "an experiment file",
                 "answer the question and claims of the experiment FILE instead of those of "
                 "DIR/experiment.toml (claims written after the run)",
                 {}});
    line.option(
        "--cv-warning", args.cv_warning,
        {"PCT", "a percentage", "warn when runs of a cell vary more than PCT percent", "10"});
    line.option("--min-runs", args.min_runs,
                {"N", "a number", "warn when a cell has fewer measured runs", "3"});
    line.operands(args.dirs);
}

/// The warning thresholds and the claims of --claims into `options`; the exit status when a
/// value is refused.
std::optional<int> report_options(CommandLine& line, const ReportArgs& args,
                                  rp::ReportOptions& options) {
    if (args.cv_warning) {
        const auto pct = parse_double(*args.cv_warning);
        if (!pct || *pct <= 0) {
            return line.usage_error("--cv-warning must be a positive percentage");
        }
        options.high_cv = *pct / 100.0;
    }
    if (args.min_runs) {
        const auto n = parse_double(*args.min_runs);
        if (!n || *n < 1 || *n != static_cast<double>(static_cast<size_t>(*n))) {
            return line.usage_error("--min-runs must be a positive integer");
        }
        options.min_repetitions = static_cast<size_t>(*n);
    }
    if (args.dirs.size() != 1) {
        return line.usage_error(args.dirs.empty() ? "no results directory given"
                                                  : "give exactly one results directory");
    }
    if (args.claims) {
        lab::experiment::ParseOptions parse;
        parse.read_files = false;
        auto spec = lab::experiment::parse_experiment_file(*args.claims, parse);
        if (!spec) {
            return fail(spec.error());
        }
        options.claims = rp::ExperimentClaims{spec->question, spec->claims, {}};
    }
    return std::nullopt;
}

/// The format of --format ("" without: md and html), and --output's path checked.
std::optional<int> report_format(CommandLine& line, const ReportArgs& args, std::string& format) {
    format = args.format.value_or("");
    const std::string output = args.output.value_or("");
    if (args.format
        && (format != "md" && format != "html" && format != "csv" && format != "json"
            && format != "claims-csv" && format != "checks-csv")) {
        return line.usage_error("--format must be md, html, csv, json, claims-csv or checks-csv");
    }
    if (args.output && output.empty()) {
        return line.usage_error("option --output needs a path");
    }
    return std::nullopt;
}

/// Without --format, the format that --output's extension names.
std::optional<int> format_from_output(CommandLine& line, const std::string& output,
                                      std::string& format) {
    if (!output.empty() && format.empty()) {
        const std::string ext = fs::path(output).extension().string();
        if (ext == ".md" || ext == ".html" || ext == ".csv" || ext == ".json") {
            format = ext.substr(1);
        } else {
            return line.usage_error("give --format with --output (md, html, csv or json)");
        }
    }
    return std::nullopt;
}

} // namespace

/// `pglab report --recheck STORED...`: each stored result judged again; 1 when one differs.
int recheck_command(CommandLine& line, const std::vector<std::string>& dirs) {
    if (dirs.empty()) {
        return line.usage_error("--recheck needs stored results: pglab report --recheck DIR...");
    }
    int status = 0;
    std::size_t unkept = 0;
    for (const std::string& dir : dirs) {
        auto outcome = rp::recheck_stored(dir);
        if (!outcome) {
            log::error("{}: {}", dir, outcome.error().message);
            status = 1;
            continue;
        }
        for (const std::string& problem : outcome->problems) {
            log::warning("{}: {}", dir, problem);
        }
        if (!outcome->runs_kept) {
            ++unkept;
            std::printf("%s: no runs kept (stored before they were): not re-judged\n", dir.c_str());
        } else if (outcome->differences.empty()) {
            std::printf("%s: %zu claims judged again, as stored\n", dir.c_str(), outcome->claims);
        } else {
            status = 1;
            for (const std::string& d : outcome->differences) {
                std::printf("%s: %s\n", dir.c_str(), d.c_str());
            }
        }
    }
    std::printf("%zu stored results, %zu with their runs kept; %s\n", dirs.size(),
                dirs.size() - unkept, status == 0 ? "every verdict as stored" : "some differ");
    return status;
}

int report_command(int argc, char** argv) {
    ReportArgs args;
    rp::ReportOptions options;
    CommandLine line("report", k_report_synopsis, k_report_epilogue);
    declare_report_options(line, args);
    if (const auto done = line.parse(argc, argv)) {
        return *done;
    }
    if (args.recheck) {
        return recheck_command(line, args.dirs);
    }
    std::string format;
    if (const auto refused = report_format(line, args, format)) {
        return *refused;
    }
    if (const auto refused = report_options(line, args, options)) {
        return *refused;
    }
    const std::string output = args.output.value_or("");
    if (const auto refused = format_from_output(line, output, format)) {
        return *refused;
    }
    ReportRequest request;
    request.dir = args.dirs.front();
    request.format = format;
    request.output = output;
    request.charts = !args.no_charts;
    request.options = std::move(options);
    if (auto written = write_report(std::move(request)); !written) {
        return fail(written.error());
    }
    return 0;
}

namespace {

/// `pglab compare`'s command line, as given (the metrics and steps go to the options).
struct CompareArgs {
    std::vector<std::string> dirs;
    std::optional<std::string> by;
    std::optional<std::string> a;
    std::optional<std::string> b;
    std::optional<std::string> alpha;
    std::optional<std::string> format;
    std::optional<std::string> output;
    std::optional<std::string> fail_if_slower;
};

void declare_compare_options(CommandLine& line, CompareArgs& args, rp::CompareOptions& options) {
    line.option("--by", args.by,
                {"NAME=A,B",
                 "a value",
                 "A = cells with NAME=A, B = cells with NAME=B (e.g. server=pg16,pg17)",
                 {}});
    line.option("--a", args.a,
                {"SELECTOR", "a value",
                 "cells of A: NAME=VALUE[;NAME=VALUE...] (in DIR_A with two directories)",
                 "every cell"});
    line.option("--b", args.b, {"SELECTOR", "a value", "cells of B", "every cell"});
    line.repeated("--metric", options.metrics,
                  {"ID", "a value", "compare this metric (repeatable)",
                   "each step's main metrics: tps, latency_avg_ms, client_ms, server_ms, "
                   "execution_ms, ..."});
    line.repeated("--step", options.steps,
                  {"KEY", "a value", "only this step (repeatable)", "every step"});
    line.option("--alpha", args.alpha, {"A", "a value", "significance level", "0.05"});
    line.option("--format", args.format, {"FORMAT", "a value", "text, md or json", "text"});
    line.option("-o,--output", args.output,
                {"PATH", "a path", "write there (\"-\": standard output)", "-"});
    line.option("--fail-if-slower", args.fail_if_slower,
                {"PCT",
                 "a value",
                 "exit with status 1 when B is significantly slower than A by more than PCT "
                 "percent in any compared cell (times: B/A − 1; rates: 1 − B/A)",
                 {}});
    line.operands(args.dirs);
}

/// The cells of A and B: from --by NAME=A,B, else from --a and --b; the exit status when they
/// are refused.
std::optional<int> compare_selectors(CommandLine& line, const CompareArgs& args,
                                     rp::Selector& a_sel, rp::Selector& b_sel) {
    const std::string by = args.by.value_or("");
    const std::string sel_a = args.a.value_or("");
    const std::string sel_b = args.b.value_or("");
    if (!by.empty() && (!sel_a.empty() || !sel_b.empty())) {
        return line.usage_error("--by cannot be combined with --a/--b");
    }
    if (!by.empty()) {
        const size_t eq = by.find('=');
        const size_t comma = by.find(',', eq == std::string::npos ? 0 : eq);
        if (eq == std::string::npos || eq == 0 || comma == std::string::npos
            || by.find(',', comma + 1) != std::string::npos) {
            return line.usage_error(fmt::format("invalid --by \"{}\": write NAME=A,B", by));
        }
        const std::string name = by.substr(0, eq);
        const std::string a_value = by.substr(eq + 1, comma - eq - 1);
        const std::string b_value = by.substr(comma + 1);
        a_sel = {{{name, a_value}}, name + "=" + a_value};
        b_sel = {{{name, b_value}}, name + "=" + b_value};
        return std::nullopt;
    }
    for (const auto& [text, sel] : {std::pair{&sel_a, &a_sel}, std::pair{&sel_b, &b_sel}}) {
        if (text->empty()) {
            continue;
        }
        auto s = lab::experiment::parse_cell_selector(*text);
        if (!s) {
            return fail(s.error());
        }
        if (s->empty()) {
            return fail(Error("empty selector").with_hint("Write NAME=VALUE."));
        }
        *sel = std::move(*s);
    }
    return std::nullopt;
}

/// --alpha, --format and --fail-if-slower checked; the exit status when one is refused.
std::optional<int> compare_options(CommandLine& line, const CompareArgs& args,
                                   rp::CompareOptions& options, std::optional<double>& fail_pct) {
    if (args.alpha) {
        const auto a = parse_double(*args.alpha);
        if (!a || *a <= 0 || *a >= 1) {
            return line.usage_error("--alpha must be between 0 and 1");
        }
        options.alpha = *a;
    }
    const std::string format = args.format.value_or("text");
    if (format != "text" && format != "md" && format != "json") {
        return line.usage_error("--format must be text, md or json");
    }
    if (args.fail_if_slower) {
        fail_pct = parse_double(*args.fail_if_slower);
        if (!fail_pct || *fail_pct < 0) {
            return line.usage_error("--fail-if-slower must be a percentage (0 or more)");
        }
    }
    if (args.dirs.empty() || args.dirs.size() > 2) {
        return line.usage_error("give one results directory (with --by or --a/--b) or two");
    }
    return std::nullopt;
}

/// A results directory read, its problems said.
Result<rp::ResultsDir> load_and_warn(const std::string& dir) {
    auto loaded = rp::load_results(dir);
    if (loaded) {
        print_problems(*loaded);
    }
    return loaded;
}

std::string render_comparison(const std::string& format, const rp::Comparison& comparison) {
    if (format == "md") {
        return rp::comparison_markdown(comparison);
    }
    if (format == "json") {
        return rp::comparison_json(comparison);
    }
    return rp::comparison_text(comparison);
}

/// --fail-if-slower: 1, with each slower cell said, when B is significantly slower.
int slower_status(const rp::Comparison& comparison, double fail_pct) {
    const auto slower = rp::slower_than(comparison, fail_pct);
    for (const auto* r : slower) {
        log::error("{} {} in {}: {} (more than {}% slower, p = {:.3g})", r->step, r->metric.title,
                   r->cell, r->verdict, fail_pct, r->welch_ba ? r->welch_ba->p_value : 1.0);
    }
    return slower.empty() ? 0 : 1;
}

} // namespace

int compare_command(int argc, char** argv) {
    CompareArgs args;
    rp::CompareOptions options;
    CommandLine line("compare", k_compare_synopsis, k_compare_epilogue);
    declare_compare_options(line, args, options);
    if (const auto done = line.parse(argc, argv)) {
        return *done;
    }
    std::optional<double> fail_pct;
    if (const auto refused = compare_options(line, args, options, fail_pct)) {
        return *refused;
    }
    rp::Selector a_sel;
    rp::Selector b_sel;
    if (const auto refused = compare_selectors(line, args, a_sel, b_sel)) {
        return *refused;
    }
    if (args.dirs.size() == 1 && a_sel.empty() && b_sel.empty()) {
        return line.usage_error("with one results directory, say what to compare: --by NAME=A,B "
                                "or --a SELECTOR --b SELECTOR");
    }
    auto ra = load_and_warn(args.dirs[0]);
    if (!ra) {
        return fail(ra.error());
    }
    std::optional<rp::ResultsDir> rb;
    if (args.dirs.size() == 2) {
        auto loaded = load_and_warn(args.dirs[1]);
        if (!loaded) {
            return fail(loaded.error());
        }
        rb = std::move(*loaded);
    }
    rp::CompareSide side_a{&*ra, a_sel, ""};
    rp::CompareSide side_b{rb ? &*rb : &*ra, b_sel, ""};
    auto comparison = rp::compare(side_a, side_b, options);
    if (!comparison) {
        return fail(comparison.error());
    }
    const std::string text = render_comparison(args.format.value_or("text"), *comparison);
    if (auto st = write_output(args.output.value_or("-"), text); !st) {
        return fail(st.error());
    }
    if (comparison->rows.empty()) {
        log::warning("no metric to compare in the paired cells");
    }
    return fail_pct ? slower_status(*comparison, *fail_pct) : 0;
}

} // namespace pglab::cli
