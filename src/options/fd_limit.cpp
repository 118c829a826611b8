// RLIMIT_NOFILE check and raise for `-c`, with pgbench's messages.
#include "options/fd_limit.hpp"

#include <fmt/format.h>

#include <sys/resource.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace pglab::options {

namespace {

constexpr const char* k_fd_hint =
    "Reduce number of clients, or use limit/ulimit to increase the system limit.";

} // namespace

Status ensure_open_files(int clients, bool raise_soft_limit) {
    // pgbench computes `nclients + 3` in int and compares it with the unsigned rlim_t, so
    // INT_MAX clients give a negative count that converts to a huge limit.
    const auto needed = static_cast<int>(static_cast<uint32_t>(clients) + 3U);
    const auto needed_rlim = static_cast<rlim_t>(static_cast<long>(needed));
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == -1) {
        return make_error(fmt::format("getrlimit failed: {}", std::strerror(errno)));
    }
    // Up to 17, pgbench compares with the soft limit and never raises it.
    const rlim_t system_limit = raise_soft_limit ? limit.rlim_max : limit.rlim_cur;
    if (system_limit < needed_rlim) {
        return make_error(Error(fmt::format("need at least {} open files, but system limit is {}",
                                            needed, static_cast<long>(system_limit)))
                              .with_hint(k_fd_hint));
    }
    if (limit.rlim_cur < needed_rlim) {
        limit.rlim_cur = needed_rlim;
        if (setrlimit(RLIMIT_NOFILE, &limit) == -1) {
            return make_error(
                Error(fmt::format("need at least {} open files, but couldn't raise the limit: {}",
                                  needed, std::strerror(errno)))
                    .with_hint(k_fd_hint));
        }
    }
    return {};
}

} // namespace pglab::options
