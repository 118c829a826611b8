// pgbench's SimpleStats: count, min, max, sum, sum of squares. Mergeable; enough for the
// report's average and (population) standard deviation.
#pragma once

#include <cstdint>

namespace pglab::stats {

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

    /// Population standard deviation sqrt(sum2/n - mean^2), as pgbench prints it.
    double stddev() const;
};

} // namespace pglab::stats
