// pgbench 15's progress reporting during the accounts COPY (initGenerateDataClientSide).
#include "init/copy_progress.hpp"

#include <fmt/format.h>

#include <cmath>

namespace pglab::init {

CopyProgress::CopyProgress(int64_t total, bool quiet, char eol)
    : m_total(total), m_quiet(quiet), m_eol(eol), m_start_us(now_us()) {}

std::string CopyProgress::format_line(int64_t j, int64_t total, double elapsed_s, char eol) {
    const double remaining_s =
        (static_cast<double>(total) - static_cast<double>(j)) * elapsed_s / static_cast<double>(j);
    const int percent = static_cast<int>(j * 100 / total);
    return fmt::format("{} of {} tuples ({}%) done (elapsed {:.2f} s, remaining {:.2f} s){}", j,
                       total, percent, elapsed_s, remaining_s, eol);
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
    return format_line(j, m_total, elapsed, m_eol);
}

std::string CopyProgress::finish() const {
    return m_eol != '\n' ? std::string("\n") : std::string();
}

} // namespace pglab::init
