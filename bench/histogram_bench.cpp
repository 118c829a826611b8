// Micro-benchmarks of LatencyHistogram: recording one latency must cost under 20 ns (it runs
// once or twice per transaction on every worker); merge and percentile queries for scale.
#include "stats/latency_histogram.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

namespace {

using pglab::stats::LatencyHistogram;

/// Realistic latencies: log-normal around 1 ms with a long tail, pre-generated so that the
/// loop measures recording only.
std::vector<int64_t> sample_latencies(size_t n) {
    std::mt19937_64 rng(12345);
    std::lognormal_distribution<double> dist(7.0, 1.2);
    std::vector<int64_t> out(n);
    for (auto& v : out) {
        v = static_cast<int64_t>(dist(rng));
    }
    return out;
}

void bm_record(benchmark::State& state) {
    const std::vector<int64_t> values = sample_latencies(4096);
    LatencyHistogram h;
    size_t i = 0;
    for (auto _ : state) {
        h.record(values[i++ & 4095]);
    }
    benchmark::DoNotOptimize(h.count());
    state.SetItemsProcessed(state.iterations());
}

BENCHMARK(bm_record);

void bm_record_constant(benchmark::State& state) {
    LatencyHistogram h;
    int64_t v = 1500;
    for (auto _ : state) {
        benchmark::DoNotOptimize(v);
        h.record(v);
    }
    benchmark::DoNotOptimize(h.count());
    state.SetItemsProcessed(state.iterations());
}

BENCHMARK(bm_record_constant);

void bm_merge(benchmark::State& state) {
    LatencyHistogram a;
    LatencyHistogram b;
    for (int64_t v : sample_latencies(100000)) {
        b.record(v);
    }
    for (auto _ : state) {
        a.merge(b);
    }
    benchmark::DoNotOptimize(a.count());
}

BENCHMARK(bm_merge);

void bm_percentile(benchmark::State& state) {
    LatencyHistogram h;
    for (int64_t v : sample_latencies(100000)) {
        h.record(v);
    }
    for (auto _ : state) {
        benchmark::DoNotOptimize(h.value_at_percentile(99.9));
    }
}

BENCHMARK(bm_percentile);

} // namespace
