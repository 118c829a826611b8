// Progress lines of pgbench's client-side COPY: `%lld of %lld tuples (%d%%) done (elapsed %.2f s,
// remaining %.2f s)` (from 17: `... (%d%%) of <table> done ...`), padded with spaces to the
// length of the line before, and ended by '\n', or by '\r' when stderr is a terminal.
#pragma once

#include "util/clock.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace pglab::init {

class CopyProgress {
public:
    /// `total` rows to load; `quiet` is -q; `eol` is '\r' on a terminal, else '\n'; `table` is
    /// named in the lines when not empty (pgbench 17), which also changes how a terminal line is
    /// ended (finish()).
    CopyProgress(int64_t total, bool quiet, char eol, std::string_view table = {});

    /// Whether row `j` (1-based) needs a look at the clock: every 100000th row, or every 100th
    /// with -q. Cheap, called for every row.
    bool is_checkpoint(int64_t j) const {
        return m_quiet ? j % k_quiet_check_rows == 0 : j % k_report_rows == 0;
    }

    /// At a checkpoint: whether a line is due after row `j` (always without -q; with -q at the
    /// last row or once the next 5 s interval is reached).
    bool is_due(int64_t j) const;

    /// The line for row `j`, timed now (call after the rows up to `j` went to the server),
    /// padded to the previous line's length; with -q it also moves on to the next 5 s interval.
    std::string line_at(int64_t j);

    /// What ends the progress output on a terminal: up to 16 a "\n"; from 17 the last line is
    /// blanked ("<spaces>\r"). Nothing when stderr is not a terminal.
    std::string finish() const;

    /// The progress line itself, without padding or end (pure, for tests).
    static std::string format_line(int64_t j, int64_t total, double elapsed_s,
                                   std::string_view table = {});

private:
    double elapsed_s() const;

    static constexpr int64_t k_report_rows = 100000;
    static constexpr int64_t k_quiet_check_rows = 100;
    static constexpr double k_quiet_interval_s = 5.0; ///< pgbench's LOG_STEP_SECONDS

    int64_t m_total;
    bool m_quiet;
    char m_eol;
    std::string m_table;
    usec_t m_start_us;
    int m_log_interval = 1;
    size_t m_prev_chars = 0; ///< length of the last line, without its padding
};

} // namespace pglab::init
