#include "lab/report/outliers.hpp"

#include "lab/report/number_format.hpp"
#include "lab/report/statistics.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace pglab::lab::report {

namespace {

constexpr double k_normal_mad = 0.6745; // the MAD of a standard normal distribution
constexpr double k_outlier_z = 3.5;

} // namespace

std::vector<std::size_t> outlier_positions(std::span<const double> values) {
    std::vector<std::size_t> out;
    if (values.size() < k_min_values_for_outliers) {
        return out;
    }
    const double m = median(values);
    std::vector<double> deviations(values.size());
    std::transform(values.begin(), values.end(), deviations.begin(),
                   [m](double v) { return std::fabs(v - m); });
    const double mad = median(deviations);
    if (mad == 0.0) {
        return out;
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (k_normal_mad * deviations[i] / mad > k_outlier_z) {
            out.push_back(i);
        }
    }
    return out;
}

bool slowest_by_far(std::span<const double> values, std::size_t position,
                    experiment::Direction direction) {
    if (values.size() < 3 || position >= values.size()
        || direction == experiment::Direction::neutral) {
        return false;
    }
    // Oriented so that larger is slower.
    const double sign = direction == experiment::Direction::lower_is_better ? 1.0 : -1.0;
    double low = INFINITY;
    double high = -INFINITY;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i != position) {
            low = std::min(low, sign * values[i]);
            high = std::max(high, sign * values[i]);
        }
    }
    // Beyond the others' range by that range again, and by 5% at least (identical others).
    constexpr double k_least_margin = 0.05;
    return sign * values[position] > high + std::max(high - low, k_least_margin * std::fabs(high));
}

std::set<int64_t> first_runs_after_start(const ResultsDir& results) {
    std::vector<const store::RunRecord*> runs;
    for (const auto& finished : results.runs) {
        runs.push_back(&finished.record);
    }
    std::sort(runs.begin(), runs.end(),
              [](const auto* a, const auto* b) { return a->run < b->run; });
    std::set<std::pair<std::string, std::int64_t>> started;
    std::set<int64_t> out;
    for (const store::RunRecord* r : runs) {
        const bool new_cluster = started.emplace(r->server.seen.name, r->server.cluster).second;
        if (new_cluster || r->timings.restarts > 0) {
            out.insert(static_cast<int64_t>(r->run));
        }
    }
    return out;
}

std::vector<std::string> outlier_warnings(const StepData& step, const std::set<int64_t>& first_runs,
                                          const std::function<std::string(int64_t)>& label) {
    std::vector<std::string> w;
    if (!step.kind || !experiment::measures_itself(*step.kind)) {
        return w;
    }
    std::vector<std::string> beyond;
    std::vector<std::string> cold;
    for (const auto& m : step.metrics) {
        if (!m.info.headline) {
            continue;
        }
        for (const auto& cell : m.by_cell) {
            // Named, not bound: a lambda cannot capture structured bindings (clang, C++20).
            const int64_t cell_index = cell.first;
            const std::vector<double> values = values_of(cell.second);
            const std::vector<int64_t> runs = m.runs_in(cell_index);
            const auto named = [&](std::size_t i) {
                return fmt::format("{} of run {} in {} ({})", m.info.title, runs[i],
                                   label(cell_index), format_number(values[i]));
            };
            std::set<std::size_t> cold_here;
            for (std::size_t i = 0; i < runs.size(); ++i) {
                if (first_runs.count(runs[i]) != 0 && slowest_by_far(values, i, m.info.direction)) {
                    cold_here.insert(i);
                    cold.push_back(named(i));
                }
            }
            for (const std::size_t i : outlier_positions(values)) {
                if (cold_here.count(i) == 0) { // a cold first run is said so below
                    beyond.push_back(named(i));
                }
            }
        }
    }
    if (!beyond.empty()) {
        w.push_back(fmt::format(
            "Step {}: runs beyond the others of their cell (modified z-score above 3.5): {}. "
            "One such run moves the mean of a few; look at what else the machine did then "
            "(the run's log, the server log).",
            step.key, util::join(beyond, "; ")));
    }
    if (!cold.empty()) {
        w.push_back(fmt::format(
            "Step {}: the first run after a server start was by far the slowest of its cell: "
            "{}. Its caches were cold; add `warmup = 1` (a flagged run before the measured "
            "ones) to leave that out of the figures.",
            step.key, util::join(cold, "; ")));
    }
    return w;
}

} // namespace pglab::lab::report
