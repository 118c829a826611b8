// lab/store: what the lab reads of a bench step's `pglab.bench/1` document (docs/json-schema.md):
// the totals, the latency percentiles and histogram, and the per-second series. The document
// itself is kept whole in the step's record; this is its one reader in the lab.
#pragma once

#include "lab/store/step_record.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pglab::lab::store {

/// How the client ran (a bench document's options): -c, -j, and per worker thread the way it
/// drove its sockets ("io_uring", "epoll") and whether it was pinned to a CPU. Documents of a
/// pglab before these were exported have the vectors empty.
struct ClientPlacement {
    std::optional<std::int64_t> clients;
    std::optional<std::int64_t> threads;
    std::vector<std::string> thread_socket_io;
    std::vector<bool> thread_pinned;
};

struct BenchFigures {
    std::optional<double> tps;
    std::optional<double> transactions; ///< successful transactions
    std::optional<double> duration_s;   ///< the measured period, after connecting
    /// "initial" (the time to open every connection, before the measured period) or "average"
    /// (`-C`: per transaction, inside it)
    std::string connection_time_kind;
    std::optional<double> latency_average_ms;
    std::optional<double> connection_time_ms;
    std::optional<double> failed;     ///< failed transactions
    bool interrupted = false;         ///< stopped before its end (a signal, the deadline)
    std::int64_t aborted_clients = 0; ///< clients that aborted
    std::optional<double> latency_count;
    std::map<std::string, double> percentiles_us; ///< "p50", "p99.9"... in µs
    std::optional<std::string> histogram;         ///< the encoded latency histogram
    std::string client_version;                   ///< the pglab that ran it

    ClientPlacement placement;

    /// One second of the run (edge seconds are partial: `duration_s` below 1).
    struct Point {
        double elapsed_s = 0;
        double tps = 0;
        std::optional<double> duration_s;
    };

    std::vector<Point> series; ///< points with an elapsed time and a tps, in order

    /// The values the document has where these figures are read but of another type ("a
    /// string, not a number"), each left out: "series.points[4].elapsed_s is \"1.0\", not a
    /// number: the point is left out". Absent and null values are not in it.
    std::vector<std::string> unread;
};

/// The figures of `step`'s document; none when it has none (the bench did not start).
std::optional<BenchFigures> bench_figures(const BenchStep& step);

} // namespace pglab::lab::store
