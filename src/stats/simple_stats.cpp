#include "stats/simple_stats.hpp"

#include <cmath>

namespace pglab::stats {

void SimpleStats::merge(const SimpleStats& o) {
    if (o.count == 0) {
        return;
    }
    if (count == 0 || o.min < min) {
        min = o.min;
    }
    if (count == 0 || o.max > max) {
        max = o.max;
    }
    count += o.count;
    sum += o.sum;
    sum2 += o.sum2;
}

double SimpleStats::stddev() const {
    if (count == 0) {
        return 0.0;
    }
    const double m = mean();
    const double var = sum2 / static_cast<double>(count) - m * m;
    return var > 0 ? std::sqrt(var) : 0.0;
}

} // namespace pglab::stats
