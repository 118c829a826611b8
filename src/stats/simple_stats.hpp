// pgbench's SimpleStats: count, min, max, sum, sum of squares. Mergeable; enough for the
// report's average and (population) standard deviation.
#pragma once

#include <cstdint>

namespace pglab::stats {

/// Population standard deviation sqrt(sum2/n - mean^2) from running sums, as pgbench prints it;
/// 0 without values, and when rounding leaves the variance below 0.
double population_stddev(int64_t count, double sum, double sum2);

struct SimpleStats {
    int64_t count = 0;
    double min = 0;
    double max = 0;
    double sum = 0;
    double sum2 = 0;

    void add(double v) {
        if (count == 0 || v < min) {
            min = v;
        }
        if (count == 0 || v > max) {
            max = v;
        }
        ++count;
        sum += v;
        sum2 += v * v;
    }

    void merge(const SimpleStats& o);

    double mean() const { return count > 0 ? sum / static_cast<double>(count) : 0.0; }

    /// population_stddev() of the values added.
    double stddev() const;
};

} // namespace pglab::stats
