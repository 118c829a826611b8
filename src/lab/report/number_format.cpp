#include "lab/report/number_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace pglab::lab::report {

namespace {

/// The decimals format_number gives a magnitude `a` > 0: one above 100, two above 10, three
/// above 1, three significant digits below.
int decimals_for(double a) {
    if (a >= 100.0) {
        return 1;
    }
    if (a >= 10.0) {
        return 2;
    }
    if (a >= 0.9995) { // what three significant digits would round up to a bare "1"
        return 3;
    }
    return std::min(12, 2 - static_cast<int>(std::floor(std::log10(a))));
}

} // namespace

std::string format_number(double value) {
    const double a = std::fabs(value);
    if (a == 0.0) {
        return "0";
    }
    if (a < 0.9995) {
        return fmt::format("{:.3g}", value); // no trailing zeros for a lone figure
    }
    return fmt::format("{:.{}f}", value, decimals_for(a));
}

std::string format_interval(const Interval& i) {
    const double a = std::max(std::fabs(i.low), std::fabs(i.high));
    const int decimals = a == 0.0 ? 0 : decimals_for(a);
    return fmt::format("{:.{}f} – {:.{}f}", i.low, decimals, i.high, decimals);
}

std::string format_percent(double fraction) {
    // Six significant digits drop the binary noise of ×100 (0.005 × 100 = 0.5000000000000001).
    return fmt::format("{:.6g}%", fraction * 100.0);
}

} // namespace pglab::lab::report
