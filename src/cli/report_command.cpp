// Options of `pglab report` and `pglab compare`, where their files go, and exit codes.
#include "cli/report_command.hpp"

#include "lab/experiment/parse_experiment.hpp"
#include "lab/report/chart.hpp"
#include "lab/report/compare.hpp"
#include "lab/report/report.hpp"
#include "lab/report/results.hpp"
#include "util/log.hpp"
#include "util/text_file.hpp"

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

constexpr std::string_view k_report_help = R"(pglab report writes the report of a results directory.

Usage:
  pglab report DIR [OPTION]...

Without --format, writes DIR/report.md and DIR/report.html (self-contained: inline CSS and
SVG), with the charts' data files, gnuplot scripts and SVGs in DIR/charts/.

Options:
  --format FORMAT     one file of: md, html, csv (the aggregated cells), json (the cells,
                      the question, the claims with their verdicts and the functional
                      checks), claims-csv (the claims: paper, measured, 95% CI, verdict)
                      or checks-csv (the checks: step, kind, expected, actual, pass)
  -o, --output PATH   where the one format goes ("-" for standard output; default
                      DIR/report.FORMAT, DIR/claims.csv, DIR/checks.csv); charts go to
                      charts/ next to it
  --no-charts         tables only, even when gnuplot is installed
  --claims FILE       answer the question and claims of the experiment FILE instead of
                      those of DIR/experiment.toml (claims written after the run)
  --cv-warning PCT    warn when runs of a cell vary more than PCT percent (default 10)
  --min-runs N        warn when a cell has fewer measured runs (default 3)
  -?, --help          show this help, then exit

Example:
  pglab report results/quickstart-20240611-101502
  pglab report results/quickstart-20240611-101502 --format csv -o cells.csv
  pglab report results/s4-20240611-101502 --format claims-csv -o -
)";

constexpr std::string_view k_compare_help = R"(pglab compare tells whether a difference is real.

Usage:
  pglab compare DIR --by NAME=A,B [OPTION]...    two series of one results directory
  pglab compare DIR --a SELECTOR --b SELECTOR     the same, any selectors
  pglab compare DIR_A DIR_B [OPTION]...           the same cells of two results directories

Cells pair up when every matrix variable the selectors do not name has the same value. For each
pair and metric: the means, B/A and B − A with 95% confidence intervals (Welch's t-test;
Fieller's interval for the ratio), the p-value and a verdict in words.

Options:
  --by NAME=A,B        A = cells with NAME=A, B = cells with NAME=B (e.g. server=pg16,pg17)
  --a SELECTOR         cells of A: NAME=VALUE[;NAME=VALUE...] (in DIR_A with two directories)
  --b SELECTOR         cells of B
  --metric ID          compare this metric (repeatable; default: each step's main metrics:
                       tps, latency_avg_ms, client_ms, server_ms, execution_ms, ...)
  --step KEY           only this step (repeatable)
  --alpha A            significance level (default 0.05)
  --format FORMAT      text (default), md or json
  -o, --output PATH    write there instead of standard output
  --fail-if-slower PCT exit with status 1 when B is significantly slower than A by more than
                       PCT percent in any compared cell (times: B/A − 1; rates: 1 − B/A)
  -?, --help           show this help, then exit

Example:
  pglab compare results/s3-20240611-101502 --by server=pg16,pg17
  pglab compare before/ after/ --metric tps --fail-if-slower 5
)";

int fail(const Error& e) {
    log::print(e);
    return e.exit_code;
}

int usage_error(const std::string& message, std::string_view command) {
    log::error("{}", message);
    log::hint(fmt::format("Try \"pglab {} --help\" for more information.", command));
    return 1;
}

std::optional<double> parse_double(std::string_view text) {
    double v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size()) {
        return std::nullopt;
    }
    return v;
}

Status write_output(const std::string& path, const std::string& text) {
    if (path == "-") {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return {};
    }
    // Whole or not at all: a full disk leaves no empty report, and the error says why.
    return util::write_file_atomically(path, text);
}

/// Reports every problem of the results on stderr: nothing is skipped silently.
void print_problems(const rp::ResultsDir& r) {
    for (const auto& p : r.problems) {
        log::warning("{}: {}", r.dir.string(), p);
    }
}

/// Takes the value of option `name` at argv[i] ("--name VALUE" or "--name=VALUE").
std::optional<std::string> option_value(int argc, char** argv, int& i, std::string_view name) {
    const std::string_view arg = argv[i];
    if (arg == name) {
        if (i + 1 >= argc) {
            return std::nullopt;
        }
        ++i;
        return std::string(argv[i]);
    }
    if (arg.size() > name.size() && arg.substr(0, name.size()) == name && arg[name.size()] == '=') {
        return std::string(arg.substr(name.size() + 1));
    }
    return std::nullopt;
}

bool is_option(std::string_view arg, std::string_view name) {
    return arg == name
           || (arg.size() > name.size() && arg.substr(0, name.size()) == name
               && arg[name.size()] == '=');
}

} // namespace

int report_command(int argc, char** argv) {
    std::vector<std::string> dirs;
    std::string format;
    std::string output;
    bool charts = true;
    rp::ReportOptions options;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--help" || arg == "-?") {
            std::fputs(k_report_help.data(), stdout);
            return 0;
        }
        if (arg == "--no-charts") {
            charts = false;
        } else if (is_option(arg, "--claims")) {
            const auto v = option_value(argc, argv, i, "--claims");
            if (!v || v->empty()) {
                return usage_error("--claims needs an experiment file", "report");
            }
            lab::experiment::ParseOptions parse;
            parse.read_files = false;
            auto spec = lab::experiment::parse_experiment_file(*v, parse);
            if (!spec) {
                return fail(spec.error());
            }
            options.claims = rp::ExperimentClaims{spec->question, spec->claims, {}};
        } else if (is_option(arg, "--format")) {
            const auto v = option_value(argc, argv, i, "--format");
            if (!v
                || (*v != "md" && *v != "html" && *v != "csv" && *v != "json" && *v != "claims-csv"
                    && *v != "checks-csv")) {
                return usage_error("--format must be md, html, csv, json, claims-csv or checks-csv",
                                   "report");
            }
            format = *v;
        } else if (is_option(arg, "--output") || arg == "-o") {
            const auto v = option_value(argc, argv, i, arg == "-o" ? "-o" : "--output");
            if (!v || v->empty()) {
                return usage_error("--output needs a path", "report");
            }
            output = *v;
        } else if (is_option(arg, "--cv-warning")) {
            const auto v = option_value(argc, argv, i, "--cv-warning");
            const auto pct = v ? parse_double(*v) : std::nullopt;
            if (!pct || *pct <= 0) {
                return usage_error("--cv-warning must be a positive percentage", "report");
            }
            options.high_cv = *pct / 100.0;
        } else if (is_option(arg, "--min-runs")) {
            const auto v = option_value(argc, argv, i, "--min-runs");
            const auto n = v ? parse_double(*v) : std::nullopt;
            if (!n || *n < 1 || *n != static_cast<double>(static_cast<size_t>(*n))) {
                return usage_error("--min-runs must be a positive integer", "report");
            }
            options.min_repetitions = static_cast<size_t>(*n);
        } else if (!arg.empty() && arg[0] == '-') {
            return usage_error(fmt::format("unknown option \"{}\"", arg), "report");
        } else {
            dirs.emplace_back(arg);
        }
    }
    if (dirs.size() != 1) {
        return usage_error(dirs.empty() ? "no results directory given"
                                        : "give exactly one results directory",
                           "report");
    }
    if (!output.empty() && format.empty()) {
        const std::string ext = fs::path(output).extension().string();
        if (ext == ".md" || ext == ".html" || ext == ".csv" || ext == ".json") {
            format = ext.substr(1);
        } else {
            return usage_error("give --format with --output (md, html, csv or json)", "report");
        }
    }
    auto results = rp::load_results(dirs.front());
    if (!results) {
        return fail(results.error());
    }
    print_problems(*results);
    const fs::path dir = dirs.front();
    options.output_dir = (output.empty() || output == "-") ? dir : fs::path(output).parent_path();
    if (options.output_dir.empty()) {
        options.output_dir = ".";
    }
    if (charts && (format.empty() || format == "md" || format == "html")) {
        options.gnuplot = rp::find_gnuplot();
    }
    const rp::Report report = rp::build_report(*results, options);
    for (const auto& e : report.chart_errors) {
        log::warning("chart not drawn: {}", e);
    }
    std::vector<std::pair<std::string, std::string>> files; // format, path
    if (format.empty()) {
        files = {{"md", (dir / "report.md").string()}, {"html", (dir / "report.html").string()}};
    } else {
        const std::string name = format == "claims-csv"   ? std::string("claims.csv")
                                 : format == "checks-csv" ? std::string("checks.csv")
                                                          : "report." + format;
        files = {{format, output.empty() ? (dir / name).string() : output}};
    }
    std::vector<std::string> written;
    for (const auto& [fmt_name, path] : files) {
        std::string text;
        if (fmt_name == "md") {
            text = rp::render_markdown(report.document) + "\n";
        } else if (fmt_name == "html") {
            text = rp::render_html(report.document);
        } else if (fmt_name == "csv") {
            text = rp::export_csv(*results, report.steps);
        } else if (fmt_name == "claims-csv") {
            text = rp::export_claims_csv(report);
        } else if (fmt_name == "checks-csv") {
            text = rp::export_checks_csv(*results);
        } else {
            text = rp::export_json(*results, report);
        }
        if (auto st = write_output(path, text); !st) {
            return fail(st.error());
        }
        if (path != "-") {
            written.push_back(path);
        }
    }
    if (!written.empty()) {
        std::string charts_text;
        if (options.gnuplot) {
            charts_text = fmt::format(", {} chart{}", report.charts, report.charts == 1 ? "" : "s");
        } else if (format.empty() || format == "md" || format == "html") {
            charts_text = charts ? ", no charts (gnuplot not found: apt-get install gnuplot-nox)"
                                 : ", no charts";
        }
        log::info("wrote {} ({} warning{}{})", fmt::format("{}", fmt::join(written, " and ")),
                  report.warnings.size(), report.warnings.size() == 1 ? "" : "s", charts_text);
    }
    return 0;
}

int compare_command(int argc, char** argv) {
    std::vector<std::string> dirs;
    std::string by;
    std::string sel_a;
    std::string sel_b;
    std::string format = "text";
    std::string output = "-";
    std::optional<double> fail_pct;
    rp::CompareOptions options;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--help" || arg == "-?") {
            std::fputs(k_compare_help.data(), stdout);
            return 0;
        }
        std::optional<std::string> v;
        if (is_option(arg, "--by")) {
            v = option_value(argc, argv, i, "--by");
            by = v.value_or("");
        } else if (is_option(arg, "--a")) {
            v = option_value(argc, argv, i, "--a");
            sel_a = v.value_or("");
        } else if (is_option(arg, "--b")) {
            v = option_value(argc, argv, i, "--b");
            sel_b = v.value_or("");
        } else if (is_option(arg, "--metric")) {
            v = option_value(argc, argv, i, "--metric");
            options.metrics.push_back(v.value_or(""));
        } else if (is_option(arg, "--step")) {
            v = option_value(argc, argv, i, "--step");
            options.steps.push_back(v.value_or(""));
        } else if (is_option(arg, "--alpha")) {
            v = option_value(argc, argv, i, "--alpha");
            const auto a = v ? parse_double(*v) : std::nullopt;
            if (!a || *a <= 0 || *a >= 1) {
                return usage_error("--alpha must be between 0 and 1", "compare");
            }
            options.alpha = *a;
        } else if (is_option(arg, "--format")) {
            v = option_value(argc, argv, i, "--format");
            format = v.value_or("");
            if (format != "text" && format != "md" && format != "json") {
                return usage_error("--format must be text, md or json", "compare");
            }
        } else if (is_option(arg, "--output") || arg == "-o") {
            v = option_value(argc, argv, i, arg == "-o" ? "-o" : "--output");
            output = v.value_or("-");
        } else if (is_option(arg, "--fail-if-slower")) {
            v = option_value(argc, argv, i, "--fail-if-slower");
            fail_pct = v ? parse_double(*v) : std::nullopt;
            if (!fail_pct || *fail_pct < 0) {
                return usage_error("--fail-if-slower must be a percentage (0 or more)", "compare");
            }
        } else if (!arg.empty() && arg[0] == '-') {
            return usage_error(fmt::format("unknown option \"{}\"", arg), "compare");
        } else {
            dirs.emplace_back(arg);
            continue;
        }
        if (!v) {
            return usage_error(fmt::format("option \"{}\" needs a value", arg), "compare");
        }
    }
    if (dirs.empty() || dirs.size() > 2) {
        return usage_error("give one results directory (with --by or --a/--b) or two", "compare");
    }
    if (!by.empty() && (!sel_a.empty() || !sel_b.empty())) {
        return usage_error("--by cannot be combined with --a/--b", "compare");
    }
    rp::Selector a_sel;
    rp::Selector b_sel;
    if (!by.empty()) {
        const size_t eq = by.find('=');
        const size_t comma = by.find(',', eq == std::string::npos ? 0 : eq);
        if (eq == std::string::npos || eq == 0 || comma == std::string::npos
            || by.find(',', comma + 1) != std::string::npos) {
            return usage_error(fmt::format("invalid --by \"{}\": write NAME=A,B", by), "compare");
        }
        const std::string name = by.substr(0, eq);
        a_sel = {{name, by.substr(eq + 1, comma - eq - 1)}};
        b_sel = {{name, by.substr(comma + 1)}};
    } else {
        if (!sel_a.empty()) {
            auto s = rp::parse_selector(sel_a);
            if (!s) {
                return fail(s.error());
            }
            a_sel = *s;
        }
        if (!sel_b.empty()) {
            auto s = rp::parse_selector(sel_b);
            if (!s) {
                return fail(s.error());
            }
            b_sel = *s;
        }
    }
    if (dirs.size() == 1 && a_sel.empty() && b_sel.empty()) {
        return usage_error("with one results directory, say what to compare: --by NAME=A,B or "
                           "--a SELECTOR --b SELECTOR",
                           "compare");
    }
    auto ra = rp::load_results(dirs[0]);
    if (!ra) {
        return fail(ra.error());
    }
    print_problems(*ra);
    std::optional<rp::ResultsDir> rb;
    if (dirs.size() == 2) {
        auto loaded = rp::load_results(dirs[1]);
        if (!loaded) {
            return fail(loaded.error());
        }
        print_problems(*loaded);
        rb = std::move(*loaded);
    }
    rp::CompareSide side_a{&*ra, a_sel, ""};
    rp::CompareSide side_b{rb ? &*rb : &*ra, b_sel, ""};
    auto comparison = rp::compare(side_a, side_b, options);
    if (!comparison) {
        return fail(comparison.error());
    }
    std::string text;
    if (format == "md") {
        text = rp::comparison_markdown(*comparison);
    } else if (format == "json") {
        text = rp::comparison_json(*comparison);
    } else {
        text = rp::comparison_text(*comparison);
    }
    if (auto st = write_output(output, text); !st) {
        return fail(st.error());
    }
    if (comparison->rows.empty()) {
        log::warning("no metric to compare in the paired cells");
    }
    if (fail_pct) {
        const auto slower = rp::slower_than(*comparison, *fail_pct);
        if (!slower.empty()) {
            for (const auto* r : slower) {
                log::error("{} {} in {}: {} (more than {}% slower, p = {:.3g})", r->step,
                           r->metric.title, r->cell, r->verdict, *fail_pct,
                           r->welch_ba ? r->welch_ba->p_value : 1.0);
            }
            return 1;
        }
    }
    return 0;
}

} // namespace pglab::cli
