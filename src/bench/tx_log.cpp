#include "bench/tx_log.hpp"

#include "util/output_file.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>

namespace pglab::bench {

TxLog::~TxLog() {
    if (m_file != nullptr) {
        std::fclose(m_file);
    }
}

bool TxLog::open(const RunConfig& config, int index, std::string& error) {
    m_config = &config;
    std::string name = fmt::format("{}.{}", config.log_prefix, ::getpid());
    if (index > 0) {
        name += fmt::format(".{}", index);
    }
    // As fopen(name, "w") would, but a FIFO or device is written in place (util/output_file).
    const int fd = util::open_output_stream(name);
    m_file = fd >= 0 ? ::fdopen(fd, "w") : nullptr;
    if (m_file == nullptr) {
        const int err = errno;
        if (fd >= 0) {
            ::close(fd);
        }
        errno = err;
        error = fmt::format("could not open logfile \"{}\": {}", name, std::strerror(errno));
        return false;
    }
    return true;
}

void TxLog::start(usec_t mono_now) {
    m_epoch_shift = wall_now_us() - mono_now;
    // Intervals are aligned to wall-clock seconds, so logs of several threads (and hosts) line
    // up.
    m_interval = Interval{};
    m_interval.start_epoch_us = (mono_now + m_epoch_shift) / 1000000 * 1000000;
}

void TxLog::write_interval() {
    const Interval& a = m_interval;
    std::fprintf(
        m_file, "%lld %lld %.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f %lld %lld %lld %lld %lld",
        static_cast<long long>(a.start_epoch_us / 1000000), static_cast<long long>(a.count),
        a.latency.sum, a.latency.sum2, a.latency.min, a.latency.max, a.lag.sum, a.lag.sum2,
        a.lag.min, a.lag.max, static_cast<long long>(a.skipped), static_cast<long long>(a.retried),
        static_cast<long long>(a.retries), static_cast<long long>(a.serialization),
        static_cast<long long>(a.deadlock));
    if (m_config->pgbench->continue_on_error) {
        std::fprintf(m_file, " %lld", static_cast<long long>(a.other));
    }
    std::fputc('\n', m_file);
}

void TxLog::advance_intervals(usec_t epoch_now) {
    const usec_t step = static_cast<usec_t>(m_config->aggregate_interval_s) * 1000000;
    while (m_interval.start_epoch_us + step <= epoch_now) {
        write_interval(); // empty intervals are written too, as pgbench does
        const usec_t next = m_interval.start_epoch_us + step;
        m_interval = Interval{};
        m_interval.start_epoch_us = next;
    }
}

void TxLog::write(int client, int64_t tx_no, double latency_us, const char* outcome, int script,
                  usec_t now, double lag_us, uint32_t tries, script::Prng& sample) {
    if (m_file == nullptr) {
        return;
    }
    if (m_config->sampling_rate > 0 && sample.next_double() > m_config->sampling_rate) {
        return;
    }
    const usec_t epoch = now + m_epoch_shift;
    if (m_config->aggregate_interval_s > 0) {
        advance_intervals(epoch);
        Interval& a = m_interval;
        const std::string_view what = outcome != nullptr ? outcome : "";
        if (what == "skipped") {
            ++a.skipped;
        } else if (what == "serialization") {
            ++a.serialization;
        } else if (what == "deadlock") {
            ++a.deadlock;
        } else if (what == "other") {
            ++a.other;
        } else if (what.empty()) {
            ++a.count;
            a.latency.add(latency_us);
            if (m_config->rate_tps > 0) {
                a.lag.add(lag_us);
            }
        }
        // failure kinds only come with --failures-detailed ("failed" otherwise), and retries
        // only happen when max_tries != 1: the columns stay 0 where pgbench prints 0
        if (tries > 1 && what != "skipped") {
            ++a.retried;
            a.retries += tries - 1;
        }
        return;
    }
    if (outcome == nullptr) {
        std::fprintf(m_file, "%d %lld %.0f %d %lld %lld", client, static_cast<long long>(tx_no),
                     latency_us, script, static_cast<long long>(epoch / 1000000),
                     static_cast<long long>(epoch % 1000000));
    } else {
        std::fprintf(m_file, "%d %lld %s %d %lld %lld", client, static_cast<long long>(tx_no),
                     outcome, script, static_cast<long long>(epoch / 1000000),
                     static_cast<long long>(epoch % 1000000));
    }
    if (m_config->rate_tps > 0) {
        std::fprintf(m_file, " %.0f", lag_us);
    }
    if (m_config->max_tries != 1) {
        std::fprintf(m_file, " %u", tries - 1);
    }
    std::fputc('\n', m_file);
}

void TxLog::finish(usec_t now) {
    if (m_file != nullptr) {
        // pgbench drops the last, partial interval; --log-last-interval keeps it.
        if (m_config->aggregate_interval_s > 0 && m_config->log_last_interval) {
            advance_intervals(now + m_epoch_shift);
            if (m_interval.count + m_interval.skipped + m_interval.serialization
                    + m_interval.deadlock + m_interval.other
                > 0) {
                write_interval();
            }
        }
        std::fclose(m_file);
        m_file = nullptr;
    }
}

} // namespace pglab::bench
