// Metric extraction from run lines: bench totals, percentiles and merged histograms, explain
// counters, probe sums (CPU, checkpoints, hit ratio) and what is left out (warm-ups, failures).
#include "lab/judge/step_figures.hpp"
#include "lab/report/report.hpp"
#include "lab/report/results.hpp"
#include "stats/latency_histogram.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "finished_runs.hpp"

namespace pglab::lab::report {
namespace {

using nlohmann::json;

FinishedRun run_of(int64_t run, int64_t cell, json steps, bool ok = true, bool warmup = false) {
    return testing::finished_run(run, cell, std::move(steps), ok, warmup);
}

json bench_step(double tps, const std::vector<int64_t>& latencies_us, json probes) {
    stats::LatencyHistogram h;
    for (const auto v : latencies_us) {
        h.record(v);
    }
    return {{"index", 0},
            {"key", "b"},
            {"type", "bench"},
            {"status", "ok"},
            {"elapsed_ms", 10000.0},
            {"probes", std::move(probes)},
            {"bench",
             {{"totals", {{"tps", tps}, {"latency_average_ms", 2.5}, {"failed", 0}}},
              {"latency",
               {{"count", h.count()},
                {"percentiles_us", {{"p50", 2000}, {"p90", 3000}, {"p99", 5000}}},
                {"encoded", h.serialize()}}},
              {"series",
               {{"points",
                 json::array({{{"elapsed_s", -0.4}, {"duration_s", 0.4}, {"tps", 90.0}},
                              {{"elapsed_s", 0.6}, {"duration_s", 1.0}, {"tps", 101.0}}})}}}}}};
}

ResultsDir results_of(std::vector<FinishedRun> runs) {
    ResultsDir r;
    for (int64_t i = 0; i < 2; ++i) {
        Cell c;
        c.index = static_cast<std::size_t>(i);
        c.label = "clients=" + std::to_string(i + 1);
        c.bindings = {{"clients", {std::int64_t{i + 1}, {}}}};
        r.cells.push_back(c);
    }
    r.runs = std::move(runs);
    return r;
}

// pgbench 9.x's headline tps counted the time to connect: 9,000 transactions in a 60 s period
// after 15 s of connecting are 120 tps with the connections, 150 without. Under -C the
// connections are inside the period already.
TEST(ReportMetricsTest, TpsIncludingConnectionsAddsTheInitialConnectionTime) {
    json initial = bench_step(150, {1000}, json::object());
    initial["bench"]["totals"].update({{"transactions", 9000},
                                       {"duration_s", 60.0},
                                       {"connection_time_kind", "initial"},
                                       {"connection_time_ms", 15000.0}});
    json per_transaction = initial;
    per_transaction["bench"]["totals"]["connection_time_kind"] = "average";
    per_transaction["bench"]["totals"]["connection_time_ms"] = 3.0;
    const auto steps = collect_steps(results_of({run_of(0, 0, json::array({initial})),
                                                 run_of(1, 1, json::array({per_transaction}))}),
                                     2);
    ASSERT_EQ(steps.size(), 1U);
    const MetricValues* m = find_metric(steps[0], "tps_incl_connections");
    ASSERT_NE(m, nullptr);
    EXPECT_DOUBLE_EQ(m->values_in(0)[0], 120.0);
    EXPECT_DOUBLE_EQ(m->values_in(1)[0], 150.0);
}

TEST(ReportMetricsTest, AProbeIsShownInItsOwnUnit) {
    // Recorded units win over the name: a *.bytes probe that counts is not shown as MB, a time
    // whose name does not say "ms" is. Without probe_units (older lines) the name decides.
    json step = bench_step(100, {1000}, {{"x.bytes", 5000}, {"db.blk_read_time", 4.5}});
    step["probe_units"] = {{"x.bytes", "count"}, {"db.blk_read_time", "ms"}};
    const auto recorded = collect_steps(results_of({run_of(0, 0, json::array({step}))}), 2);
    ASSERT_EQ(recorded.size(), 1U);
    const MetricValues* counted = find_metric(recorded[0], "probe:x.bytes");
    ASSERT_NE(counted, nullptr);
    EXPECT_EQ(counted->info.unit, "");
    EXPECT_DOUBLE_EQ(counted->values_in(0)[0], 5000);
    ASSERT_NE(find_metric(recorded[0], "probe:db.blk_read_time"), nullptr);
    EXPECT_EQ(find_metric(recorded[0], "probe:db.blk_read_time")->info.unit, "ms");

    const json older = bench_step(100, {1000}, {{"x.bytes", 5000}, {"db.blk_read_time", 4.5}});
    const auto named = collect_steps(results_of({run_of(0, 0, json::array({older}))}), 2);
    ASSERT_EQ(named.size(), 1U);
    EXPECT_EQ(find_metric(named[0], "probe:x.bytes")->info.unit, "MB");
    EXPECT_DOUBLE_EQ(find_metric(named[0], "probe:x.bytes")->values_in(0)[0], 0.005);
    EXPECT_EQ(find_metric(named[0], "probe:db.blk_read_time")->info.unit, "");

    // An older line (run 0, units by name) and a newer one (run 1, units recorded) in one
    // results directory: the recorded unit names the metric whichever run came first, and a
    // value scaled otherwise (MB against a count) is left out, not mixed in.
    for (const bool older_first : {true, false}) {
        SCOPED_TRACE(older_first ? "older line first" : "newer line first");
        std::vector<FinishedRun> runs = {run_of(0, 0, json::array({older})),
                                         run_of(1, 0, json::array({step}))};
        if (!older_first) {
            std::swap(runs[0], runs[1]);
        }
        const auto mixed = collect_steps(results_of(std::move(runs)), 2);
        ASSERT_EQ(mixed.size(), 1U);
        const MetricValues* read_time = find_metric(mixed[0], "probe:db.blk_read_time");
        EXPECT_EQ(read_time->info.unit, "ms");
        EXPECT_EQ(read_time->values_in(0).size(), 2U);
        const MetricValues* bytes = find_metric(mixed[0], "probe:x.bytes");
        ASSERT_EQ(bytes->values_in(0).size(), 1U);
        const int64_t left_out = older_first ? 1 : 0;
        EXPECT_EQ(mixed[0].unit_conflicts.at("probe:x.bytes"), std::vector<int64_t>{left_out});
    }
}

TEST(ReportMetricsTest, BenchValuesHistogramsAndSeries) {
    const json probes = {{"elapsed_s", 10.0},
                         {"wal.bytes", 2500000},
                         {"client.cpu_user_s", 5.0},
                         {"client.cpu_system_s", 2.0},
                         {"client.cpu_s", 7.0},
                         {"server.cpu_user_s", 1.5},
                         {"server.cpu_system_s", 0.5},
                         {"server.cpu_pct", 10.0},
                         {"host.cpu_pct", 30.0},
                         {"db.blks_hit", 990},
                         {"db.blks_read", 10},
                         {"checkpointer.num_timed", 0},
                         {"checkpointer.buffers_written", 50}};
    const ResultsDir r = results_of({
        run_of(0, 0, json::array({bench_step(100, {1000, 2000}, probes)})),
        run_of(1, 0, json::array({bench_step(110, {3000}, probes)})),
        run_of(2, 0, json::array({bench_step(500, {9}, probes)}), true, /*warmup=*/true),
        run_of(3, 1, json::array({bench_step(700, {9}, probes)}), /*ok=*/false),
    });
    const auto steps = collect_steps(r, 2);
    ASSERT_EQ(steps.size(), 1U);
    const StepData& b = steps[0];
    const MetricValues* tps = find_metric(b, "tps");
    ASSERT_NE(tps, nullptr);
    EXPECT_EQ(tps->values_in(0), (std::vector<double>{100, 110}));
    EXPECT_EQ(tps->runs_in(0), (std::vector<int64_t>{0, 1}));
    EXPECT_EQ(tps->by_cell.count(1), 0U) << "failed runs and warm-ups are left out";
    ASSERT_NE(find_metric(b, "latency_p99_ms"), nullptr);
    EXPECT_DOUBLE_EQ(find_metric(b, "latency_p99_ms")->values_in(0)[0], 5.0);
    // The histograms of the two measured runs merged losslessly.
    ASSERT_EQ(b.histograms.count(0), 1U);
    EXPECT_EQ(b.histograms.at(0)->count(), 3);
    EXPECT_EQ(b.histograms.at(0)->max(), 3000);
    // Edge seconds are dropped from the per-second series.
    ASSERT_EQ(b.series.size(), 2U);
    EXPECT_EQ(b.series[0].points, (std::vector<std::pair<double, double>>{{0.6, 101.0}}));
    // Probes: cpu_s preferred to the sum of its parts, bytes in MB, derived hit ratio.
    EXPECT_DOUBLE_EQ(find_metric(b, "client_cpu_s")->values_in(0)[0], 7.0);
    EXPECT_DOUBLE_EQ(find_metric(b, "server_cpu_s")->values_in(0)[0], 2.0);
    EXPECT_DOUBLE_EQ(find_metric(b, "probe:wal.bytes")->values_in(0)[0], 2.5);
    EXPECT_EQ(find_metric(b, "probe:wal.bytes")->info.unit, "MB");
    EXPECT_DOUBLE_EQ(find_metric(b, "db_buffer_hit_pct")->values_in(0)[0], 99.0);
    EXPECT_EQ(find_metric(b, "probe:client.cpu_s"), nullptr) << "CPU probes are summed";
    // A share of the step's time is a metric of its own, and no part of the CPU seconds.
    ASSERT_NE(find_metric(b, "probe:host.cpu_pct"), nullptr);
    EXPECT_DOUBLE_EQ(find_metric(b, "probe:host.cpu_pct")->values_in(0)[0], 30.0);
    EXPECT_DOUBLE_EQ(find_metric(b, "probe:server.cpu_pct")->values_in(0)[0], 10.0);
    // 7 s of client CPU in 10 s on 2 cores: 35% of the machine, whose server's CPU was measured.
    EXPECT_DOUBLE_EQ(b.client_costs.at(0).machine_share.value_or(0), 0.35);
    EXPECT_TRUE(b.client_costs.at(0).beside_server);
    // buffers_written is not a checkpoint count.
    EXPECT_TRUE(b.checkpoint_runs.empty());
    // Own metrics first, then derived, then probes by name.
    EXPECT_EQ(b.metrics.front().info.id, "tps");
    EXPECT_EQ(b.metrics.back().info.id, "probe:wal.bytes");
}

// A bench step's client: its CPU per successful transaction, its share of the machine, whether
// the server's CPU was measured on the same machine, and how its threads ran.
TEST(ReportMetricsTest, ClientCostPerTransactionAndPlacement) {
    json beside = bench_step(7000, {1000},
                             {{"elapsed_s", 10.0}, {"client.cpu_s", 7.0}, {"server.cpu_s", 9.0}});
    beside["bench"]["totals"]["transactions"] = 70000;
    beside["bench"]["options"] = {{"clients", 8},
                                  {"threads", 2},
                                  {"thread_socket_io", {"io_uring", "io_uring"}},
                                  {"thread_cpus", {0, nullptr}}};
    json remote = beside;
    remote["probes"].erase("server.cpu_s");
    json old_document = beside;
    old_document["bench"].erase("options");
    old_document["bench"]["totals"].erase("transactions");
    const auto steps = collect_steps(
        results_of({run_of(0, 0, json::array({beside})), run_of(1, 0, json::array({remote})),
                    run_of(2, 1, json::array({old_document}))}),
        2);
    ASSERT_EQ(steps.size(), 1U);
    const StepData& b = steps[0];
    const MetricValues* per_tx = find_metric(b, "client_cpu_us_per_tx");
    ASSERT_NE(per_tx, nullptr);
    EXPECT_EQ(per_tx->info.unit, "µs");
    EXPECT_EQ(per_tx->values_in(0), (std::vector<double>{100.0, 100.0})) << "7 s / 70,000";
    EXPECT_TRUE(per_tx->values_in(1).empty()) << "no transaction count, no cost per transaction";
    const judge::ClientCost& c = b.client_costs.at(0);
    EXPECT_DOUBLE_EQ(c.machine_share.value_or(0), 0.35);
    EXPECT_TRUE(c.beside_server);
    EXPECT_EQ(c.placement.clients, 8);
    EXPECT_EQ(c.placement.threads, 2);
    EXPECT_EQ(c.placement.thread_socket_io, (std::vector<std::string>{"io_uring", "io_uring"}));
    EXPECT_EQ(c.placement.thread_pinned, (std::vector<bool>{true, false}));
    EXPECT_FALSE(b.client_costs.at(1).beside_server) << "the server's CPU was not measured here";
    EXPECT_FALSE(b.client_costs.at(2).placement.clients.has_value());
    EXPECT_TRUE(b.client_costs.at(2).placement.thread_socket_io.empty());
}

TEST(ReportMetricsTest, CheckpointsExplainAndOldProbeNames) {
    const json explain = {{"index", 0},
                          {"key", "e"},
                          {"type", "explain"},
                          {"status", "ok"},
                          {"elapsed_ms", 60.0},
                          {"explain",
                           {{"execution_ms", 55.5},
                            {"planning_ms", 0.1},
                            {"shared_hit_blocks", 768},
                            {"shared_read_blocks", 256},
                            {"heap_fetches", 12}}},
                          {"probes", {{"checkpoints_req", 1}, {"server_cpu_user_ms", 300}}}};
    json done = explain;
    done["probes"] = {{"checkpointer.num_timed", 1}, {"checkpointer.num_done", 0}};
    const ResultsDir r =
        results_of({run_of(0, 0, json::array({explain})), run_of(1, 1, json::array({done}))});
    const auto steps = collect_steps(r, 0);
    ASSERT_EQ(steps.size(), 1U);
    const StepData& e = steps[0];
    EXPECT_DOUBLE_EQ(find_metric(e, "execution_ms")->values_in(0)[0], 55.5);
    EXPECT_DOUBLE_EQ(find_metric(e, "buffer_hit_pct")->values_in(0)[0], 75.0);
    // 1024 blocks of 8192 bytes: 8.388608 MB of 10^6 bytes (not 8 MiB labelled "MB").
    EXPECT_DOUBLE_EQ(find_metric(e, "blocks")->values_in(0)[0], 1024.0);
    EXPECT_EQ(find_metric(e, "blocks")->info.unit, "");
    EXPECT_DOUBLE_EQ(find_metric(e, "blocks_mb")->values_in(0)[0], 8.388608);
    EXPECT_EQ(find_metric(e, "blocks_mb")->info.unit, "MB");
    EXPECT_DOUBLE_EQ(find_metric(e, "heap_fetches")->values_in(0)[0], 12.0);
    EXPECT_DOUBLE_EQ(find_metric(e, "server_cpu_s")->values_in(0)[0], 0.3);
    // Old pg_stat_bgwriter name counts; num_done = 0 (PostgreSQL 18) overrides num_timed.
    EXPECT_EQ(e.checkpoint_runs, (std::vector<int64_t>{0}));
    EXPECT_TRUE(e.client_costs.empty()) << "no client CPU probe, no share";
}

TEST(ReportMetricsTest, ReplicationLagOfAStepOnAPrimary) {
    json step = bench_step(100.0, {1000, 2000}, json::object());
    step["replication"] = {{"standbys", 1},
                           {"write_lag_ms", 0.5},
                           {"flush_lag_ms", 0.75},
                           {"replay_lag_ms", 1.25},
                           {"bytes_behind", 2000000}};
    json no_standby = bench_step(100.0, {1000}, json::object());
    no_standby["replication"] = nullptr;
    const ResultsDir r =
        results_of({run_of(0, 0, json::array({step})), run_of(1, 1, json::array({no_standby}))});
    const auto steps = collect_steps(r, 0);
    ASSERT_EQ(steps.size(), 1U);
    EXPECT_DOUBLE_EQ(find_metric(steps[0], "replication.replay_lag_ms")->values_in(0)[0], 1.25);
    EXPECT_DOUBLE_EQ(find_metric(steps[0], "replication.write_lag_ms")->values_in(0)[0], 0.5);
    EXPECT_DOUBLE_EQ(find_metric(steps[0], "replication.behind_mb")->values_in(0)[0], 2.0);
    EXPECT_EQ(find_metric(steps[0], "replication.replay_lag_ms")->by_cell.count(1), 0U)
        << "a step without standbys has no replication values";
}

/// S1a after VACUUM: an index-only scan with no heap fetch, and probes that are 0 in a run.
json explain_step(double heap_fetches, double wal_bytes) {
    return {{"index", 0},
            {"key", "ios"},
            {"type", "explain"},
            {"status", "ok"},
            {"explain",
             {{"execution_ms", 3.0},
              {"shared_hit_blocks", 823},
              {"shared_read_blocks", 0},
              {"heap_fetches", heap_fetches}}},
            {"probes", {{"wal.bytes", wal_bytes}, {"io.read_bytes", 0}}}};
}

TEST(ReportMetricsTest, ZeroIsAValueNotAnAbsence) {
    const ResultsDir r = results_of({run_of(0, 0, json::array({explain_step(0, 0)})),
                                     run_of(1, 0, json::array({explain_step(0, 3000000)})),
                                     run_of(2, 1, json::array({explain_step(0, 0)}))});
    const auto steps = collect_steps(r, 0);
    ASSERT_EQ(steps.size(), 1U);
    const MetricValues* fetches = find_metric(steps[0], "heap_fetches");
    ASSERT_NE(fetches, nullptr);
    EXPECT_EQ(fetches->values_in(0), (std::vector<double>{0, 0}));
    // A probe that is 0 in one run keeps that run: the mean of cell 0 is 1.5 MB, not 3.
    const MetricValues* wal = find_metric(steps[0], "probe:wal.bytes");
    ASSERT_NE(wal, nullptr);
    EXPECT_EQ(wal->values_in(0), (std::vector<double>{0, 3}));
    EXPECT_EQ(wal->values_in(1), (std::vector<double>{0}));
    ASSERT_NE(find_metric(steps[0], "probe:io.read_bytes"), nullptr);

    // The report says which metrics were 0 in every run: in the appendix by name, one line for
    // all of them rather than a table of zeros each (issue 62: 45 such tables in one report).
    ReportOptions options;
    options.output_dir = std::filesystem::temp_directory_path();
    const std::string md = render_markdown(build_report(r, options).document);
    EXPECT_NE(md.find("\n0 in every run: heap fetches, io.read_bytes.\n"), std::string::npos) << md;
    EXPECT_EQ(md.find("#### heap fetches\n"), std::string::npos) << md;
    // S1a's 823 blocks as blocks, their bytes in MB of 10^6, and the units said once.
    EXPECT_NE(md.find("### blocks touched\n"), std::string::npos) << md;
    EXPECT_NE(md.find("| 823.0 |"), std::string::npos) << md;
    EXPECT_NE(md.find("### blocks touched × 8192 bytes (MB)"), std::string::npos) << md;
    EXPECT_NE(md.find("| 6.742 |"), std::string::npos) << md; // 823 · 8192 / 10^6
    EXPECT_NE(md.find("units: MB = 10⁶ bytes, GiB = 2³⁰ bytes"), std::string::npos) << md;
}

TEST(ReportMetricsTest, AWaitNoSampleOfARunSawCountsAsZeroSessions) {
    const json seen = {{"wait.samples", 20},
                       {"wait.CPU", 1.5},
                       {"wait.LWLock.WALWrite", 4.0},
                       {"host.runnable", 3.0}};
    const json unseen = {{"wait.samples", 18}, {"wait.CPU", 2.5}, {"host.runnable", 2.0}};
    const json unsampled = {{"wal.bytes", 1000000}};
    const ResultsDir r =
        results_of({run_of(0, 0, json::array({bench_step(100, {2000}, seen)})),
                    run_of(1, 0, json::array({bench_step(100, {2000}, unseen)})),
                    run_of(2, 1, json::array({bench_step(100, {2000}, unsampled)}))});
    const auto steps = collect_steps(r, 0);
    ASSERT_EQ(steps.size(), 1U);
    const MetricValues* wal_write = find_metric(steps[0], "probe:wait.LWLock.WALWrite");
    ASSERT_NE(wal_write, nullptr);
    EXPECT_EQ(wal_write->info.unit, "sessions");
    // Run 1 was sampled and saw no session there: 0, in run order; the mean is 2, not 4.
    EXPECT_EQ(wal_write->values_in(0), (std::vector<double>{4.0, 0.0}));
    EXPECT_EQ(wal_write->runs_in(0), (std::vector<int64_t>{0, 1}));
    // Run 2 was not sampled: it has no wait values at all.
    EXPECT_EQ(wal_write->by_cell.count(1), 0U);
    EXPECT_EQ(find_metric(steps[0], "probe:wait.CPU")->values_in(0),
              (std::vector<double>{1.5, 2.5}));
    EXPECT_EQ(find_metric(steps[0], "probe:host.runnable")->info.unit, "processes");
    EXPECT_EQ(find_metric(steps[0], "probe:wait.samples")->info.unit, "");
}

TEST(ReportMetricsTest, TwoMeasuresOfOneQuantityThatDisagreeAreFlagged) {
    // S3b run 7: pg_stat_wal lagged (194 bytes) behind the LSN (19.1 MB).
    json lagging = explain_step(0, 19100000);
    lagging["probes"]["wal.stat_bytes"] = 194;
    json agreeing = explain_step(0, 19100000);
    agreeing["probes"]["wal.stat_bytes"] = 18900000;
    json small = explain_step(0, 8192); // a page's worth against 0: noise, not a lag
    small["probes"]["wal.stat_bytes"] = 0;
    const ResultsDir r =
        results_of({run_of(7, 0, json::array({lagging})), run_of(8, 0, json::array({agreeing})),
                    run_of(9, 1, json::array({small}))});
    const auto steps = collect_steps(r, 0);
    ASSERT_EQ(steps.size(), 1U);
    ASSERT_EQ(steps[0].disagreements.size(), 1U);
    EXPECT_EQ(steps[0].disagreements[0].run, 7);
    EXPECT_EQ(steps[0].disagreements[0].name_b, "wal.stat_bytes");

    ReportOptions options;
    options.output_dir = std::filesystem::temp_directory_path();
    const std::string md = render_markdown(build_report(r, options).document);
    EXPECT_NE(md.find("Step ios: in run 7, wal.stat_bytes (0.000194 MB) disagrees by more than "
                      "10x with wal.bytes (19.10 MB), which measures the same quantity"),
              std::string::npos)
        << md;
    EXPECT_EQ(md.find("in run 8,"), std::string::npos);
}

TEST(ReportMetricsTest, WithheldProbesAreListedWithTheirRuns) {
    json withheld = explain_step(0, 19100000); // no wal.records, wal.fpi, wal.stat_bytes
    withheld["probe_notes"] = json::array({"wal.records, wal.fpi, wal.stat_bytes withheld: A"});
    json twice = explain_step(0, 19100000);
    twice["probe_notes"] = json::array({"session \"a\" is inside a transaction", "B"});
    json fine = explain_step(0, 19100000);
    fine["probes"]["wal.stat_bytes"] = 19000000;
    const ResultsDir r =
        results_of({run_of(3, 0, json::array({withheld})), run_of(4, 0, json::array({fine})),
                    run_of(5, 1, json::array({twice})), run_of(6, 1, json::array({withheld}))});
    const auto steps = collect_steps(r, 0);
    ASSERT_EQ(steps.size(), 1U);
    ASSERT_EQ(steps[0].probe_notes.size(), 4U);
    EXPECT_EQ(steps[0].probe_notes[0].first, 3);
    // Only run 4 has a pg_stat_wal figure: the others' are absent, not 0.
    EXPECT_EQ(find_metric(steps[0], "probe:wal.stat_bytes")->values_in(0),
              (std::vector<double>{19.0}));
    EXPECT_EQ(find_metric(steps[0], "probe:wal.stat_bytes")->by_cell.count(1), 0U);

    ReportOptions options;
    options.output_dir = std::filesystem::temp_directory_path();
    const std::string md = render_markdown(build_report(r, options).document);
    EXPECT_NE(md.find("Step ios: probes were withheld or left out in run(s) 3, 5, 6 "
                      "(docs/probes.md): run 3: wal.records, wal.fpi, wal.stat_bytes withheld: A; "
                      "run 5: session \"a\" is inside a transaction; run 5: B; 1 more in "
                      "results.jsonl (probe_notes)."),
              std::string::npos)
        << md;
}

} // namespace
} // namespace pglab::lab::report
