#include "lab/report/outliers.hpp"

#include "lab/report/statistics.hpp"

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

} // namespace pglab::lab::report
