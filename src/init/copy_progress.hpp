// Progress lines of pgbench 15's client-side COPY: `%lld of %lld tuples (%d%%) done (elapsed
// %.2f s, remaining %.2f s)` ended by '\n', or by '\r' when stderr is a terminal.
#pragma once

#include "util/clock.hpp"

#include <cstdint>
#include <string>

namespace pglab::init {

class CopyProgress {
public:
    /// `total` rows to load; `quiet` is -q; `eol` is '\r' on a terminal, else '\n'.
    CopyProgress(int64_t total, bool quiet, char eol);

    /// Whether row `j` (1-based) needs a look at the clock: every 100000th row, or every 100th
    /// with -q. Cheap, called for every row.
    bool is_checkpoint(int64_t j) const {
        return m_quiet ? j % k_quiet_check_rows == 0 : j % k_report_rows == 0;
    }

    /// At a checkpoint: whether a line is due after row `j` (always without -q; with -q at the
    /// last row or once the next 5 s interval is reached).
    bool is_due(int64_t j) const;

    /// The line for row `j`, timed now (call after the rows up to `j` went to the server);
    /// with -q it also moves on to the next 5 s interval.
    std::string line_at(int64_t j);

    /// What ends the progress output: "\n" after '\r'-terminated lines, else "".
    std::string finish() const;

    /// The progress line itself (pure, for tests).
    static std::string format_line(int64_t j, int64_t total, double elapsed_s, char eol);

private:
    double elapsed_s() const;

    static constexpr int64_t k_report_rows = 100000;
    static constexpr int64_t k_quiet_check_rows = 100;
    static constexpr double k_quiet_interval_s = 5.0; ///< pgbench's LOG_STEP_SECONDS

    int64_t m_total;
    bool m_quiet;
    char m_eol;
    usec_t m_start_us;
    int m_log_interval = 1;
};

} // namespace pglab::init
