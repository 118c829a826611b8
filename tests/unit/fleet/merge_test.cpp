// The fleet's pure parts: shares of clients and threads, the wire form, and rank 0's merge.
#include <gtest/gtest.h>

#include <map>

#include "fleet/launcher.hpp"
#include "fleet/merge.hpp"
#include "fleet/share.hpp"
#include "fleet/wire.hpp"

namespace {

using namespace pglab;

fleet::Part part_with(int rank, std::initializer_list<int64_t> latencies, usec_t start_wall,
                      usec_t duration) {
    fleet::Part p;
    p.process.rank = rank;
    p.process.host = "h" + std::to_string(rank);
    p.process.clients = 1;
    p.process.threads = 1;
    p.result.scripts.resize(1);
    p.result.scripts[0].commands.resize(2);
    for (int64_t v : latencies) {
        p.result.total.count++;
        p.result.total.latency_us.add(static_cast<double>(v));
        p.result.total.histogram.record(v);
        p.result.scripts[0].tx.count++;
        p.result.scripts[0].tx.histogram.record(v);
        p.result.scripts[0].commands[0].elapsed_us.add(static_cast<double>(v));
    }
    p.result.start_wall_us = start_wall;
    p.result.bench_duration_us = duration;
    p.result.conn_total_us = 1000 * (rank + 1);
    p.result.series.push_back(bench::SecondStats{100, 2, 0, 0, 30.0, 20, 25});
    return p;
}

bench::RunResult base_for(const fleet::Part& p) {
    bench::RunResult r = p.result;
    r.server_version = "15";
    return r;
}

TEST(FleetMerge, CountersAndHistogramsAddUpLosslessly) {
    std::vector<fleet::Part> parts{part_with(0, {10, 20, 30}, 1'000'000, 2'000'000),
                                   part_with(1, {5, 4000, 7}, 1'000'500, 2'100'000)};
    stats::LatencyHistogram all;
    for (int64_t v : {10, 20, 30, 5, 4000, 7}) {
        all.record(v);
    }
    const bench::RunResult m = fleet::merge_parts(base_for(parts[0]), parts, false);
    EXPECT_EQ(m.total.count, 6);
    EXPECT_EQ(m.total.histogram.serialize(), all.serialize());
    for (double p : {50.0, 90.0, 99.0, 99.9}) {
        EXPECT_EQ(m.total.histogram.value_at_percentile(p), all.value_at_percentile(p));
    }
    EXPECT_EQ(m.scripts[0].tx.count, 6);
    EXPECT_EQ(m.scripts[0].commands[0].elapsed_us.count, 6);
    EXPECT_EQ(m.start_wall_us, 1'000'000);
    EXPECT_EQ(m.bench_duration_us, 2'100'500); // earliest start to latest end
    EXPECT_EQ(m.conn_total_us, 2000);          // the slowest process's connection phase
    EXPECT_EQ(m.server_version, "15");
    ASSERT_EQ(m.series.size(), 1u);
    EXPECT_EQ(m.series[0].count, 4);
    ASSERT_EQ(m.fleet.processes.size(), 2u);
    EXPECT_EQ(m.fleet.processes[1].start_skew_us, 500);
    EXPECT_EQ(m.fleet.processes[1].transactions, 3);
    EXPECT_NEAR(m.fleet.processes[0].tps, 1.5, 1e-9);
}

TEST(FleetMerge, ALostProcessCountsUpToItsLastHeartbeatAndItsClientsAborted) {
    std::vector<fleet::Part> parts{part_with(0, {10, 20}, 1'000'000, 2'000'000)};
    bench::ProcessStats lost;
    lost.rank = 1;
    lost.host = "h1";
    lost.clients = 4;
    lost.lost = true;
    stats::ProgressSnapshot last;
    last.count = 5;
    last.latency_sum_us = 50;
    last.latency_sum2_us = 500;
    parts.push_back(fleet::lost_part(lost, last, 1));
    const bench::RunResult m = fleet::merge_parts(base_for(parts[0]), parts, false);
    EXPECT_EQ(m.total.count, 7);
    EXPECT_EQ(m.total.histogram.count(), 2); // no histogram travelled
    EXPECT_EQ(m.aborted_clients, 4);
    EXPECT_EQ(m.bench_duration_us, 2'000'000);
    EXPECT_TRUE(m.fleet.processes[1].lost);
}

TEST(FleetWire, APartRoundTrips) {
    fleet::Part p = part_with(2, {1, 2, 3000000}, 42, 99);
    p.process.cpu_s = 1.25;
    p.process.cpu_share = 0.5;
    p.result.thread_cpus = {0, 1};
    p.result.aborted_clients = 1;
    auto back = fleet::decode_part(fleet::encode_part(p));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->result.total.histogram.serialize(), p.result.total.histogram.serialize());
    EXPECT_EQ(back->result.scripts[0].commands.size(), 2u);
    EXPECT_EQ(back->result.thread_cpus, p.result.thread_cpus);
    EXPECT_EQ(back->result.aborted_clients, 1);
    EXPECT_EQ(back->process.host, "h2");
    EXPECT_EQ(back->process.cpu_share, 0.5);
    EXPECT_FALSE(fleet::decode_part("{\"total\": 1}"));
}

TEST(FleetShare, ClientsAreDealtAsPgbenchDealsThemToThreads) {
    bench::RunConfig c;
    c.clients = 10;
    c.threads = 1;
    c.rate_tps = 300;
    std::vector<int> got;
    int next = 0;
    for (int r = 0; r < 3; ++r) {
        auto s = fleet::share_of(c, r, 3);
        ASSERT_TRUE(s);
        EXPECT_EQ(s->first_client, next);
        next += s->clients;
        got.push_back(s->clients);
        EXPECT_EQ(s->threads, 1);
        EXPECT_DOUBLE_EQ(s->rate_tps, 100);
    }
    EXPECT_EQ(got, (std::vector<int>{4, 3, 3}));
    EXPECT_EQ(fleet::fleet_threads(c, 3), 3);
}

TEST(FleetShare, BadCombinationsGetPgbenchStyleMessages) {
    bench::RunConfig c;
    c.clients = 2;
    c.threads = 1;
    auto s = fleet::share_of(c, 0, 3);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().message, "number of processes (3) must not exceed number of clients (2)");
    c.clients = 8;
    c.threads = 4;
    s = fleet::share_of(c, 0, 3);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().message,
              "number of threads (4) must be a multiple of number of processes (3)");
    c.threads = 6;
    s = fleet::share_of(c, 2, 3);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->threads, 2);
}

TEST(FleetShare, EveryProcessHasItsOwnReproducibleSeed) {
    EXPECT_EQ(fleet::seed_of(123, 0), 123u);
    EXPECT_EQ(fleet::seed_of(123, 1), fleet::seed_of(123, 1));
    EXPECT_NE(fleet::seed_of(123, 1), fleet::seed_of(123, 2));
    EXPECT_NE(fleet::seed_of(123, 1), 123u);
}

TEST(FleetLauncher, IsReadFromTheLaunchersEnvironment) {
    std::map<std::string, std::string> env;
    auto get = [&env](const char* n) -> std::optional<std::string> {
        auto it = env.find(n);
        return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
    EXPECT_FALSE(fleet::detect_launcher(get));
    env["OMPI_COMM_WORLD_RANK"] = "2";
    env["OMPI_COMM_WORLD_SIZE"] = "3";
    auto l = fleet::detect_launcher(get);
    ASSERT_TRUE(l);
    EXPECT_EQ(l->rank, 2);
    EXPECT_EQ(l->size, 3);
    env.clear();
    env["PMIX_RANK"] = "0";
    l = fleet::detect_launcher(get);
    ASSERT_TRUE(l);
    EXPECT_EQ(l->size, 0); // unknown: the MPI library will say
}

} // namespace
