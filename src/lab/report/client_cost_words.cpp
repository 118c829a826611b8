// The report's words for what the client cost during a step.
#include "lab/report/client_cost_words.hpp"

#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <vector>

namespace pglab::lab::report {

namespace {

std::string plural(int64_t n, const char* one, const char* many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
}

/// "4 clients a thread on 2 threads", "2–3 clients a thread on 2 threads" (-c not a multiple
/// of -j: pgbench gives the first threads one more).
std::string clients_text(int64_t clients, int64_t threads) {
    if (threads <= 0) {
        return plural(clients, "client", "clients");
    }
    const int64_t fewest = clients / threads;
    const std::string per_thread = clients % threads == 0
                                       ? plural(fewest, "client", "clients")
                                       : fmt::format("{}–{} clients", fewest, fewest + 1);
    return fmt::format("{} a thread on {}", per_thread, plural(threads, "thread", "threads"));
}

/// "io_uring", "epoll", "io_uring and epoll".
std::string socket_io_text(const std::vector<std::string>& modes) {
    const std::set<std::string> distinct(modes.begin(), modes.end());
    return util::join(std::vector<std::string>(distinct.rbegin(), distinct.rend()), " and ");
}

std::string pinning_text(const std::vector<bool>& pinned) {
    const auto n = std::count(pinned.begin(), pinned.end(), true);
    if (n == 0) {
        return "unpinned";
    }
    return n == static_cast<std::ptrdiff_t>(pinned.size())
               ? "pinned"
               : fmt::format("{} of {} threads pinned", n, pinned.size());
}

} // namespace

std::string placement_text(const judge::ClientCost& cost) {
    const store::ClientPlacement& p = cost.placement;
    std::vector<std::string> parts;
    if (p.clients) {
        parts.push_back(clients_text(*p.clients, p.threads.value_or(0)));
    }
    if (!p.thread_socket_io.empty()) {
        parts.push_back(socket_io_text(p.thread_socket_io));
    }
    if (!p.thread_pinned.empty()) {
        parts.push_back(pinning_text(p.thread_pinned));
    }
    return util::join(parts, ", ");
}

std::optional<std::string> client_bound_warning(const StepData& step, double limit) {
    std::vector<std::string> bound;
    for (const auto& [run, cost] : step.client_costs) {
        if (!cost.beside_server || !cost.machine_share || *cost.machine_share <= limit) {
            continue;
        }
        const std::string how = placement_text(cost);
        bound.push_back(fmt::format("run {} ({:.0f}%{}{})", run, *cost.machine_share * 100.0,
                                    how.empty() ? "" : ", ", how));
    }
    if (bound.empty()) {
        return std::nullopt;
    }
    return fmt::format(
        "Step {}: the client (pglab) used more than {:.0f}% of the CPU of the machine it shares "
        "with the server in {}: the run measured the client as much as the server "
        "(client-bound). Use fewer clients or threads, or run the client on another machine.",
        step.key, limit * 100.0, util::join(bound, "; "));
}

} // namespace pglab::lab::report
