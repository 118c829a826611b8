// percentile_block: pglab's latency percentile lines after pgbench's report.
#include "output/percentile_block.hpp"

#include <fmt/format.h>

namespace pglab::output {

namespace {

/// "p99.9" for 99.9, "p50" for 50.
std::string percentile_label(double p) {
    return fmt::format("p{}", p);
}

void append_block(std::string& out, const char* heading, const stats::LatencyHistogram& h) {
    out += heading;
    out += '\n';
    for (double p : k_report_percentiles) {
        out += fmt::format(" {} = {:.3f} ms\n", percentile_label(p),
                           static_cast<double>(h.value_at_percentile(p)) / 1000.0);
    }
    out += fmt::format(" max = {:.3f} ms\n", static_cast<double>(h.max()) / 1000.0);
}

} // namespace

std::string percentile_block(const bench::RunConfig& config, const bench::RunResult& result) {
    std::string out;
    if (result.total.histogram.count() == 0) {
        return out;
    }
    append_block(out,
                 "latency percentiles (pglab, from the full histogram of successful "
                 "transactions):",
                 result.total.histogram);
    if (config.rate_tps > 0 && result.total.service_histogram.count() > 0) {
        append_block(out,
                     "service time percentiles (pglab, from the actual start of successful "
                     "transactions):",
                     result.total.service_histogram);
    }
    return out;
}

} // namespace pglab::output
