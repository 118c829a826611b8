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

double population_stddev(int64_t count, double sum, double sum2) {
    if (count == 0) {
        return 0.0;
    }
    const double n = static_cast<double>(count);
    const double m = sum / n;
    const double var = sum2 / n - m * m;
    return var > 0 ? std::sqrt(var) : 0.0;
}

double SimpleStats::stddev() const {
    return population_stddev(count, sum, sum2);
}

} // namespace pglab::stats
