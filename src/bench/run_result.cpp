// Merging of the statistics of run_result.hpp: how the workers' results become one RunResult.
// Every merge is a plain sum (or min/max), so the order of merging does not matter.
#include "bench/run_result.hpp"

#include <algorithm>

namespace pglab::bench {

void TxStats::merge(const TxStats& o) {
    count += o.count;
    skipped += o.skipped;
    serialization_failures += o.serialization_failures;
    deadlock_failures += o.deadlock_failures;
    other_failures += o.other_failures;
    retried += o.retried;
    retries += o.retries;
    late += o.late;
    latency_us.merge(o.latency_us);
    lag_us.merge(o.lag_us);
    histogram.merge(o.histogram);
    service_histogram.merge(o.service_histogram);
}

void CommandStats::merge(const CommandStats& o) {
    elapsed_us.merge(o.elapsed_us);
    failures += o.failures;
    retries += o.retries;
}

void ScriptStats::merge(const ScriptStats& o) {
    tx.merge(o.tx);
    // Both sides normally describe the same script; a shorter side just lacks the tail.
    if (commands.size() < o.commands.size()) {
        commands.resize(o.commands.size());
    }
    for (size_t i = 0; i < o.commands.size(); ++i) {
        commands[i].merge(o.commands[i]);
    }
}

} // namespace pglab::bench
