// pgbench's progress reporting during a client-side COPY (initGenerateDataClientSide, and from
// 17 initPopulateTable).
#include "init/copy_progress.hpp"

#include <fmt/format.h>

#include <cmath>

namespace pglab::init {

CopyProgress::CopyProgress(int64_t total, bool quiet, char eol, std::string_view table)
    : m_total(total), m_quiet(quiet), m_eol(eol), m_table(table), m_start_us(now_us()) {}

std::string CopyProgress::format_line(int64_t j, int64_t total, double elapsed_s,
                                      std::string_view table) {
    const double remaining_s =
        (static_cast<double>(total) - static_cast<double>(j)) * elapsed_s / static_cast<double>(j);
    const int percent = static_cast<int>(j * 100 / total);
    const std::string of_table = table.empty() ? std::string() : fmt::format(" of {}", table);
    return fmt::format("{} of {} tuples ({}%){} done (elapsed {:.2f} s, remaining {:.2f} s)", j,
                       total, percent, of_table, elapsed_s, remaining_s);
}

double CopyProgress::elapsed_s() const {
    return static_cast<double>(now_us() - m_start_us) / 1e6;
}

bool CopyProgress::is_due(int64_t j) const {
    return !m_quiet || j == m_total || elapsed_s() >= m_log_interval * k_quiet_interval_s;
}

std::string CopyProgress::line_at(int64_t j) {
    const double elapsed = elapsed_s();
    if (m_quiet) {
        // skip to the next interval, as pgbench does
        m_log_interval = static_cast<int>(std::ceil(elapsed / k_quiet_interval_s));
    }
    std::string line = format_line(j, m_total, elapsed, m_table);
    const size_t chars = line.size();
    // pgbench overwrites what is left of a longer line before, terminal or not
    if (m_prev_chars > chars) {
        line.append(m_prev_chars - chars, ' ');
    }
    m_prev_chars = chars;
    line += m_eol;
    return line;
}

std::string CopyProgress::finish() const {
    if (m_eol == '\n') {
        return {};
    }
    if (m_table.empty()) {
        return "\n";
    }
    return m_prev_chars == 0 ? std::string() : std::string(m_prev_chars, ' ') + "\r";
}

} // namespace pglab::init
