// Charts drawn by gnuplot: pglab writes a data file and a gnuplot script per chart (kept next to
// the report so anyone can edit and redraw them), runs gnuplot, and returns the SVG it drew.
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::report {

enum class ChartKind : uint8_t {
    lines,       ///< y against a numeric x, one line per series, stddev error bars
    bars,        ///< clustered bars per category, one bar per series, stddev error bars
    percentiles, ///< latency against percentile (x = 1/(1 - p), log scale), one line per series
    time,        ///< y against time, one line per series, no error bars
};

/// One point: x (lines, time), or the category index (bars); `error` < 0 means no error bar.
struct ChartPoint {
    double x = 0;
    double y = 0;
    double error = -1;
};

struct ChartSeries {
    std::string title;
    std::vector<ChartPoint> points;
};

struct ChartSpec {
    ChartKind kind = ChartKind::lines;
    std::string title;
    std::string x_label;
    std::string y_label;
    std::vector<std::string> categories; ///< bars: the x tic labels, by category index
    std::vector<ChartSeries> series;
    bool log_x = false; ///< lines: a logarithmic x axis (2x steps of clients)
    /// The top of the y axis, so that charts set side by side (one per cell) share a scale;
    /// none: gnuplot's choice.
    std::optional<double> y_max;
};

/// The gnuplot executable on PATH (or $PGLAB_GNUPLOT), nullopt when there is none.
std::optional<std::filesystem::path> find_gnuplot();

/// The data file's text for `spec` (one block per series; bars: one row per category).
std::string chart_data(const ChartSpec& spec);

/// The gnuplot script for `spec`, reading `data_file` and writing `svg_file`.
std::string chart_script(const ChartSpec& spec, const std::string& data_file,
                         const std::string& svg_file);

/// Writes `<stem>.dat` and `<stem>.gp` into `dir`, runs `gnuplot` there to draw `<stem>.svg`,
/// and returns the SVG text. Error when gnuplot fails (its stderr in the detail).
Result<std::string> draw_chart(const ChartSpec& spec, const std::filesystem::path& dir,
                               const std::string& stem, const std::filesystem::path& gnuplot);

/// The SVG made fit for inlining into HTML as the `n`-th chart: no XML declaration, element ids
/// and references prefixed with "c<n>-" so that several charts on one page do not share ids,
/// and `title` as its <title>.
std::string inline_svg(const std::string& svg, int n, const std::string& title);

/// `text` with &, <, > and " escaped, for HTML and for the XML of SVG charts.
std::string escape_markup(std::string_view text);

} // namespace pglab::lab::report
