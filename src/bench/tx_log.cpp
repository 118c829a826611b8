#include "bench/tx_log.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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
    m_file = std::fopen(name.c_str(), "w");
    if (m_file == nullptr) {
        error = fmt::format("could not open logfile \"{}\": {}", name, std::strerror(errno));
        return false;
    }
    return true;
}

void TxLog::start(usec_t mono_now) {
    m_epoch_shift = wall_now_us() - mono_now;
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

void TxLog::finish(usec_t /*now*/) {
    if (m_file != nullptr) {
        std::fclose(m_file);
        m_file = nullptr;
    }
}

} // namespace pglab::bench
