// The figures of the report's tables and verdicts as text: as many digits as a reader can use.
#pragma once

#include "lab/report/statistics.hpp"

#include <string>

namespace pglab::lab::report {

/// "1228.1", "0.0123", "10431.0": enough digits for tables without noise (one decimal above
/// 100, two above 10, three above 1, three significant digits below).
std::string format_number(double value);

/// "0.698 – 0.970", "1180.2 – 1193.0": both ends with the decimals format_number gives the
/// larger, so that they read as one figure.
std::string format_interval(const Interval& interval);

/// A fraction the file gave as a tolerance or a step, as the percentage it wrote: 0.05 → "5%",
/// 0.005 → "0.5%", 0.125 → "12.5%" (never rounded to "0%").
std::string format_percent(double fraction);

} // namespace pglab::lab::report
