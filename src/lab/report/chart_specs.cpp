// Chart specifications from the cells' values (see chart_specs.hpp).
#include "lab/report/chart_specs.hpp"

#include "lab/report/statistics.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace pglab::lab::report {

namespace {

constexpr size_t k_max_curve_cells = 12; // lines on one percentile chart
constexpr double k_log_axis_span = 16.0; // x max/min from which clients get a log axis

using util::join;

/// The series of `spec` with `title`, added (empty) at the end when there is none yet.
ChartSeries& series_titled(ChartSpec& spec, const std::string& title) {
    auto s = std::find_if(spec.series.begin(), spec.series.end(),
                          [&](const ChartSeries& cs) { return cs.title == title; });
    if (s != spec.series.end()) {
        return *s;
    }
    return spec.series.emplace_back(ChartSeries{title, {}});
}

} // namespace

std::string chart_label(const Cell& cell, const std::vector<std::string>& names) {
    if (names.size() == 1) {
        if (const experiment::Scalar* v = cell.find(names.front())) {
            return v->text();
        }
    }
    return cell_label(cell, names);
}

ChartSpec line_chart(const ResultsDir& results, const Dimensions& dims, const MetricValues& m) {
    ChartSpec spec;
    spec.kind = ChartKind::lines;
    spec.x_label = *dims.x;
    double lo = 0;
    double hi = 0;
    for (const auto& c : results.cells) {
        const auto it = m.by_cell.find(c.index);
        const auto x = numeric_value(c, *dims.x);
        if (it == m.by_cell.end() || !x) {
            continue;
        }
        lo = lo == 0 ? *x : std::min(lo, *x);
        hi = std::max(hi, *x);
        const Summary sum = summarize(values_of(it->second));
        series_titled(spec, chart_label(c, dims.series))
            .points.push_back(ChartPoint{*x, sum.mean, sum.stddev.value_or(0.0)});
    }
    for (auto& s : spec.series) {
        std::sort(s.points.begin(), s.points.end(),
                  [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
    }
    spec.log_x = lo > 0 && hi / lo >= k_log_axis_span;
    return spec;
}

ChartSpec bar_chart(const ResultsDir& results, const Dimensions& dims, const MetricValues& m) {
    ChartSpec spec;
    spec.kind = ChartKind::bars;
    std::vector<std::string> series_vars;
    std::vector<std::string> category_vars = dims.varying;
    if (dims.varying.size() >= 2) {
        const auto server = std::find(category_vars.begin(), category_vars.end(), "server");
        const auto pick = server != category_vars.end() ? server : category_vars.end() - 1;
        series_vars.push_back(*pick);
        category_vars.erase(pick);
    }
    spec.x_label = category_vars.empty() ? "" : join(category_vars, ", ");
    for (const auto& c : results.cells) {
        const auto it = m.by_cell.find(c.index);
        if (it == m.by_cell.end()) {
            continue;
        }
        const std::string category = chart_label(c, category_vars);
        auto cat = std::find(spec.categories.begin(), spec.categories.end(), category);
        if (cat == spec.categories.end()) {
            spec.categories.push_back(category);
            cat = spec.categories.end() - 1;
        }
        const Summary sum = summarize(values_of(it->second));
        series_titled(spec, series_vars.empty() ? "mean" : chart_label(c, series_vars))
            .points.push_back(ChartPoint{static_cast<double>(cat - spec.categories.begin()),
                                         sum.mean, sum.stddev.value_or(0.0)});
    }
    return spec;
}

ChartSpec percentile_chart(const ResultsDir& results, const Dimensions& dims,
                           const StepData& step) {
    ChartSpec spec;
    spec.kind = ChartKind::percentiles;
    spec.title = fmt::format("{}: latency by percentile (all measured runs merged)", step.key);
    spec.x_label = "percentile";
    spec.y_label = "latency (ms)";
    size_t lines = 0;
    for (const auto& c : results.cells) {
        const auto it = step.histograms.find(c.index);
        if (it == step.histograms.end() || lines == k_max_curve_cells) {
            continue;
        }
        ++lines;
        const stats::LatencyHistogram& h = *it->second;
        ChartSeries s{cell_label(c, dims.varying), {}};
        // Ten points per decade of 1/(1 - p), up to the resolution the count allows.
        const double max_x = std::max(1.0, static_cast<double>(h.count()));
        for (int k = 0;; ++k) {
            const double x = std::pow(10.0, k / 10.0);
            if (x > max_x || x > 1e6) {
                break;
            }
            const double p = 100.0 * (1.0 - 1.0 / x);
            s.points.push_back(
                ChartPoint{x, static_cast<double>(h.value_at_percentile(p)) / 1000.0, -1});
        }
        s.points.push_back(ChartPoint{max_x, static_cast<double>(h.max()) / 1000.0, -1});
        spec.series.push_back(std::move(s));
    }
    return spec;
}

} // namespace pglab::lab::report
