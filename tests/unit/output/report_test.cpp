// Golden tests of the final report: RunConfig/RunResult built by hand for the main option
// combinations, compared with the text pgbench 15's printResults() format strings give, and
// 18's where they differ.
#include "output/percentile_block.hpp"
#include "output/report.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pglab::output {
namespace {

script::Command command(std::string first_line) {
    script::Command c;
    c.first_line = std::move(first_line);
    return c;
}

void add_script(bench::RunConfig& config, std::string desc, int weight,
                std::vector<std::string> lines = {}) {
    script::Script s;
    s.desc = std::move(desc);
    s.weight = weight;
    for (auto& l : lines) {
        s.commands.push_back(command(std::move(l)));
    }
    config.scripts.scripts().push_back(std::move(s));
}

/// `n` successful transactions of latency `lat_us` each (and their lag), in total and in
/// script `script` of `result`.
void add_tx(bench::RunResult& result, size_t script, int64_t n, double lat_us, double lag_us = 0) {
    if (result.scripts.size() <= script) {
        result.scripts.resize(script + 1);
    }
    for (bench::TxStats* s : {&result.total, &result.scripts[script].tx}) {
        s->count += n;
        for (int64_t i = 0; i < n; ++i) {
            s->latency_us.add(lat_us);
            s->lag_us.add(lag_us);
            s->histogram.record(static_cast<int64_t>(lat_us));
            s->service_histogram.record(static_cast<int64_t>(lat_us - lag_us));
        }
    }
}

const char* k_tpcb = "<builtin: TPC-B (sort of)>";

/// A configuration that reports as pgbench `major` does.
bench::RunConfig config_for(int major) {
    bench::RunConfig config;
    config.pgbench = compat::find_pgbench_profile(major);
    return config;
}

TEST(ReportTest, TransactionsMode) {
    bench::RunConfig config = config_for(15);
    add_script(config, k_tpcb, 1);
    config.clients = 2;
    config.transactions = 10;
    bench::RunResult result;
    add_tx(result, 0, 20, 2000);
    result.bench_duration_us = 1'234'567;
    result.conn_total_us = 3'456;
    EXPECT_EQ(format_pgbench_report(config, result),
              "transaction type: <builtin: TPC-B (sort of)>\n"
              "scaling factor: 1\n"
              "query mode: simple\n"
              "number of clients: 2\n"
              "number of threads: 1\n"
              "maximum number of tries: 1\n"
              "number of transactions per client: 10\n"
              "number of transactions actually processed: 20/20\n"
              "number of failed transactions: 0 (0.000%)\n"
              "latency average = 123.457 ms\n"
              "initial connection time = 3.456 ms\n"
              "tps = 16.200012 (without initial connection time)\n");
}

TEST(ReportTest, DurationModeWithProgressMeasuresLatency) {
    bench::RunConfig config = config_for(15);
    add_script(config, "<builtin: select only>", 1);
    config.clients = 4;
    config.threads = 2;
    config.transactions = 0;
    config.duration_s = 60;
    config.progress_s = 5;
    config.query_mode = script::QueryMode::prepared;
    bench::RunResult result;
    result.scale = 10;
    result.partition_method = "range";
    result.partitions = 3;
    add_tx(result, 0, 24000, 4749.5);
    add_tx(result, 0, 24000, 5249.5);
    result.bench_duration_us = 60'000'123;
    result.conn_total_us = 12'345;
    EXPECT_EQ(format_pgbench_report(config, result),
              "transaction type: <builtin: select only>\n"
              "scaling factor: 10\n"
              "partition method: range\n"
              "partitions: 3\n"
              "query mode: prepared\n"
              "number of clients: 4\n"
              "number of threads: 2\n"
              "maximum number of tries: 1\n"
              "duration: 60 s\n"
              "number of transactions actually processed: 48000\n"
              "number of failed transactions: 0 (0.000%)\n"
              "latency average = 5.000 ms\n"
              "latency stddev = 0.250 ms\n"
              "initial connection time = 12.345 ms\n"
              "tps = 799.998360 (without initial connection time)\n");
}

TEST(ReportTest, ConnectPerTransaction) {
    bench::RunConfig config = config_for(15);
    add_script(config, "<builtin: simple update>", 1);
    config.clients = 3;
    config.transactions = 100;
    config.connect_per_tx = true;
    config.query_mode = script::QueryMode::extended;
    bench::RunResult result;
    add_tx(result, 0, 300, 1000);
    result.bench_duration_us = 2'500'000;
    result.conn_total_us = 1'000'001;
    EXPECT_EQ(format_pgbench_report(config, result),
              "transaction type: <builtin: simple update>\n"
              "scaling factor: 1\n"
              "query mode: extended\n"
              "number of clients: 3\n"
              "number of threads: 1\n"
              "maximum number of tries: 1\n"
              "number of transactions per client: 100\n"
              "number of transactions actually processed: 300/300\n"
              "number of failed transactions: 0 (0.000%)\n"
              "latency average = 25.000 ms\n"
              "average connection time = 3.333 ms\n"
              "tps = 120.000000 (including reconnection times)\n");
}

TEST(ReportTest, RateAndLatencyLimit) {
    bench::RunConfig config = config_for(15);
    add_script(config, k_tpcb, 1);
    config.clients = 8;
    config.threads = 2;
    config.transactions = 0;
    config.duration_s = 10;
    config.rate_tps = 100;
    config.latency_limit_us = 50'000;
    bench::RunResult result;
    add_tx(result, 0, 900, 20'000, 1'000);
    add_tx(result, 0, 90, 70'000, 30'000);
    result.total.late = 90;
    result.total.skipped = 10;
    result.scripts[0].tx.skipped = 10;
    result.bench_duration_us = 10'000'500;
    result.conn_total_us = 8'000;
    EXPECT_EQ(format_pgbench_report(config, result),
              "transaction type: <builtin: TPC-B (sort of)>\n"
              "scaling factor: 1\n"
              "query mode: simple\n"
              "number of clients: 8\n"
              "number of threads: 2\n"
              "maximum number of tries: 1\n"
              "duration: 10 s\n"
              "number of transactions actually processed: 990\n"
              "number of failed transactions: 0 (0.000%)\n"
              "number of transactions skipped: 10 (1.000%)\n"
              "number of transactions above the 50.0 ms latency limit: 90/990 (9.091%)\n"
              "latency average = 24.545 ms\n"
              "latency stddev = 14.374 ms\n"
              "rate limit schedule lag: avg 3.636 (max 30.000) ms\n"
              "initial connection time = 8.000 ms\n"
              "tps = 98.995050 (without initial connection time)\n");
}

TEST(ReportTest, RetriesAndDetailedFailures) {
    bench::RunConfig config = config_for(15);
    add_script(config, "serializable.sql", 1);
    config.clients = 10;
    config.transactions = 50;
    config.max_tries = 2;
    config.failures_detailed = true;
    bench::RunResult result;
    add_tx(result, 0, 480, 3000);
    result.total.serialization_failures = 15;
    result.total.deadlock_failures = 5;
    result.total.retried = 60;
    result.total.retries = 60;
    result.bench_duration_us = 4'000'000;
    result.conn_total_us = 20'250;
    EXPECT_EQ(format_pgbench_report(config, result),
              "transaction type: serializable.sql\n"
              "scaling factor: 1\n"
              "query mode: simple\n"
              "number of clients: 10\n"
              "number of threads: 1\n"
              "maximum number of tries: 2\n"
              "number of transactions per client: 50\n"
              "number of transactions actually processed: 480/500\n"
              "number of failed transactions: 20 (4.000%)\n"
              "number of serialization failures: 15 (3.000%)\n"
              "number of deadlock failures: 5 (1.000%)\n"
              "number of transactions retried: 60 (12.000%)\n"
              "total number of retries: 60\n"
              "latency average = 80.000 ms (including failures)\n"
              "initial connection time = 20.250 ms\n"
              "tps = 120.000000 (without initial connection time)\n");
}

TEST(ReportTest, UnlimitedTriesOmitsMaximum) {
    bench::RunConfig config = config_for(15);
    add_script(config, "s.sql", 1);
    config.transactions = 0;
    config.duration_s = 5;
    config.max_tries = 0;
    bench::RunResult result;
    add_tx(result, 0, 10, 1000);
    result.total.retried = 1;
    result.total.retries = 7;
    result.bench_duration_us = 5'000'000;
    const std::string text = format_pgbench_report(config, result);
    EXPECT_EQ(text.find("maximum number of tries"), std::string::npos);
    EXPECT_NE(text.find("number of failed transactions: 0 (0.000%)\n"
                        "number of transactions retried: 1 (10.000%)\n"
                        "total number of retries: 7\n"
                        "latency average = 500.000 ms\n"),
              std::string::npos)
        << text;
}

TEST(ReportTest, TwoScriptsWithPerCommandReport) {
    bench::RunConfig config = config_for(15);
    add_script(config, "<builtin: select only>", 1,
               {"\\set aid random(1, 100000 * :scale)",
                "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;"});
    add_script(config, "mine.sql", 3, {"BEGIN;", "UPDATE t SET x = x + 1;", "END;"});
    config.clients = 4;
    config.transactions = 100;
    config.report_per_command = true;
    bench::RunResult result;
    add_tx(result, 0, 100, 1500);
    add_tx(result, 1, 300, 4000);
    result.scripts[0].commands.resize(2);
    result.scripts[0].commands[0].elapsed_us.add(2);
    result.scripts[0].commands[0].elapsed_us.add(4);
    result.scripts[0].commands[1].elapsed_us.add(1'234'567.0);
    result.scripts[1].commands.resize(3);
    result.scripts[1].commands[1].elapsed_us.add(3'000.0);
    result.scripts[1].commands[1].failures = 12345678901;
    result.bench_duration_us = 2'000'000;
    result.conn_total_us = 1'500;
    EXPECT_EQ(format_pgbench_report(config, result),
              "transaction type: multiple scripts\n"
              "scaling factor: 1\n"
              "query mode: simple\n"
              "number of clients: 4\n"
              "number of threads: 1\n"
              "maximum number of tries: 1\n"
              "number of transactions per client: 100\n"
              "number of transactions actually processed: 400/400\n"
              "number of failed transactions: 0 (0.000%)\n"
              "latency average = 20.000 ms\n"
              "initial connection time = 1.500 ms\n"
              "tps = 200.000000 (without initial connection time)\n"
              "SQL script 1: <builtin: select only>\n"
              " - weight: 1 (targets 25.0% of total)\n"
              " - 100 transactions (25.0% of total, tps = 50.000000)\n"
              " - number of failed transactions: 0 (0.000%)\n"
              " - latency average = 1.500 ms\n"
              " - latency stddev = 0.000 ms\n"
              " - statement latencies in milliseconds and failures:\n"
              "         0.003           0  \\set aid random(1, 100000 * :scale)\n"
              "      1234.567           0  SELECT abalance FROM pgbench_accounts WHERE aid = "
              ":aid;\n"
              "SQL script 2: mine.sql\n"
              " - weight: 3 (targets 75.0% of total)\n"
              " - 300 transactions (75.0% of total, tps = 150.000000)\n"
              " - number of failed transactions: 0 (0.000%)\n"
              " - latency average = 4.000 ms\n"
              " - latency stddev = 0.000 ms\n"
              " - statement latencies in milliseconds and failures:\n"
              "         0.000           0  BEGIN;\n"
              "         3.000  12345678901  UPDATE t SET x = x + 1;\n"
              "         0.000           0  END;\n");
}

TEST(ReportTest, TwoScriptsWithRetriesAndSkips) {
    bench::RunConfig config = config_for(15);
    add_script(config, "a.sql", 2, {"SELECT 1;"});
    add_script(config, "b.sql", 1, {"SELECT 2;"});
    config.transactions = 0;
    config.duration_s = 1;
    config.rate_tps = 10;
    config.latency_limit_us = 1'500;
    config.max_tries = 3;
    config.failures_detailed = true;
    config.report_per_command = true;
    bench::RunResult result;
    add_tx(result, 0, 8, 1000, 100);
    result.scripts.resize(2);
    result.scripts[1].tx.skipped = 2;
    result.scripts[1].tx.deadlock_failures = 2;
    result.scripts[1].tx.retried = 2;
    result.scripts[1].tx.retries = 4;
    result.scripts[1].commands.resize(1);
    result.scripts[1].commands[0].retries = 4;
    result.scripts[1].commands[0].failures = 2;
    result.total.skipped = 2;
    result.total.deadlock_failures = 2;
    result.total.retried = 2;
    result.total.retries = 4;
    result.bench_duration_us = 1'000'000;
    result.conn_total_us = 1'000;
    const std::string text = format_pgbench_report(config, result);
    EXPECT_NE(text.find("number of transactions skipped: 2 (16.667%)\n"
                        "number of transactions above the 1.5 ms latency limit: 0/8 (0.000%)\n"
                        "latency average = 1.000 ms\n"
                        "latency stddev = 0.000 ms\n"
                        "rate limit schedule lag: avg 0.100 (max 0.100) ms\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("SQL script 2: b.sql\n"
                        " - weight: 1 (targets 33.3% of total)\n"
                        " - 0 transactions (0.0% of total, tps = 0.000000)\n"
                        " - number of failed transactions: 2 (50.000%)\n"
                        " - number of serialization failures: 0 (0.000%)\n"
                        " - number of deadlock failures: 2 (50.000%)\n"
                        " - number of transactions retried: 2 (50.000%)\n"
                        " - total number of retries: 4\n"
                        " - number of transactions skipped: 2 (50.000%)\n"
                        " - statement latencies in milliseconds, failures and retries:\n"
                        "         0.000           2           4  SELECT 2;\n"),
              std::string::npos)
        << text;
}

TEST(ReportTest, NothingCompletedPrintsNaNAndStops) {
    bench::RunConfig config = config_for(15);
    add_script(config, k_tpcb, 1);
    config.clients = 1;
    config.transactions = 10;
    bench::RunResult result;
    result.bench_duration_us = 1'000;
    result.aborted_clients = 1;
    EXPECT_EQ(format_pgbench_report(config, result),
              "transaction type: <builtin: TPC-B (sort of)>\n"
              "scaling factor: 1\n"
              "query mode: simple\n"
              "number of clients: 1\n"
              "number of threads: 1\n"
              "maximum number of tries: 1\n"
              "number of transactions per client: 10\n"
              "number of transactions actually processed: 0/10\n"
              "number of failed transactions: 0 (NaN%)\n");
    EXPECT_EQ(format_report(config, result), format_pgbench_report(config, result));
}

TEST(ReportTest, PercentileBlockFollowsPgbenchLinesOnlyWhenAsked) {
    bench::RunConfig config = config_for(15);
    add_script(config, k_tpcb, 1);
    bench::RunResult result;
    for (int64_t v = 1; v <= 1000; ++v) {
        result.total.count += 1;
        result.total.histogram.record(v * 10);
    }
    result.bench_duration_us = 1'000'000;
    const std::string block = percentile_block(config, result);
    EXPECT_EQ(block, "latency percentiles (pglab, from the full histogram of successful "
                     "transactions):\n"
                     " p50 = 5.003 ms\n"
                     " p90 = 9.007 ms\n"
                     " p99 = 9.903 ms\n"
                     " p99.9 = 9.991 ms\n"
                     " max = 10.000 ms\n");
    EXPECT_EQ(format_report(config, result), format_pgbench_report(config, result));
    config.percentiles = true;
    EXPECT_EQ(format_report(config, result), format_pgbench_report(config, result) + block);
}

TEST(ReportTest, PercentileBlockWithRateAddsServiceTime) {
    bench::RunConfig config = config_for(15);
    add_script(config, k_tpcb, 1);
    config.rate_tps = 50;
    bench::RunResult result;
    add_tx(result, 0, 4, 3000, 1000);
    const std::string block = percentile_block(config, result);
    EXPECT_EQ(block, "latency percentiles (pglab, from the full histogram of successful "
                     "transactions):\n"
                     " p50 = 3.000 ms\n"
                     " p90 = 3.000 ms\n"
                     " p99 = 3.000 ms\n"
                     " p99.9 = 3.000 ms\n"
                     " max = 3.000 ms\n"
                     "service time percentiles (pglab, from the actual start of successful "
                     "transactions):\n"
                     " p50 = 2.000 ms\n"
                     " p90 = 2.000 ms\n"
                     " p99 = 2.000 ms\n"
                     " p99.9 = 2.000 ms\n"
                     " max = 2.000 ms\n");
}

} // namespace
} // namespace pglab::output

namespace pglab::output {
namespace {

TEST(ReportTest, TwoScriptsWithPerCommandReportAs18) {
    bench::RunConfig config = config_for(18);
    add_script(config, "<builtin: select only>", 1, {"\\set aid random(1, 100000 * :scale)"});
    add_script(config, "mine.sql", 3, {"UPDATE t SET x = x + 1;"});
    config.clients = 4;
    config.transactions = 100;
    config.report_per_command = true;
    bench::RunResult result;
    add_tx(result, 0, 100, 1500);
    add_tx(result, 1, 300, 4000);
    result.scripts[0].commands.resize(1);
    result.scripts[0].commands[0].elapsed_us.add(3);
    result.scripts[1].commands.resize(1);
    result.scripts[1].commands[0].elapsed_us.add(3'000.0);
    result.scripts[1].commands[0].failures = 12345678901;
    result.bench_duration_us = 2'000'000;
    result.conn_total_us = 1'500;
    const std::string text = format_pgbench_report(config, result);
    EXPECT_NE(text.find("tps = 200.000000 (without initial connection time)\n"
                        "SQL script 1: <builtin: select only>\n"
                        " - weight: 1 (targets 25.0% of total)\n"
                        " - 100 transactions (25.0% of total)\n"
                        " - number of transactions actually processed: 100 (tps = 50.000000)\n"
                        " - number of failed transactions: 0 (0.000%)\n"
                        " - latency average = 1.500 ms\n"
                        " - latency stddev = 0.000 ms\n"
                        " - statement latencies in milliseconds and failures:\n"
                        "         0.003           0 \\set aid random(1, 100000 * :scale)\n"
                        "SQL script 2: mine.sql\n"
                        " - weight: 3 (targets 75.0% of total)\n"
                        " - 300 transactions (75.0% of total)\n"
                        " - number of transactions actually processed: 300 (tps = 150.000000)\n"
                        " - number of failed transactions: 0 (0.000%)\n"
                        " - latency average = 4.000 ms\n"
                        " - latency stddev = 0.000 ms\n"
                        " - statement latencies in milliseconds and failures:\n"
                        "         3.000  12345678901 UPDATE t SET x = x + 1;\n"),
              std::string::npos)
        << text;
}

TEST(ReportTest, ScriptWithFailuresOnlyAs18CountsThemAll) {
    bench::RunConfig config = config_for(18);
    add_script(config, "a.sql", 2, {"SELECT 1;"});
    add_script(config, "b.sql", 1, {"SELECT 2;"});
    add_script(config, "c.sql", 1, {"SELECT 3;"});
    config.transactions = 0;
    config.duration_s = 1;
    config.rate_tps = 10;
    config.latency_limit_us = 1'500;
    config.max_tries = 3;
    config.report_per_command = true;
    bench::RunResult result;
    add_tx(result, 0, 8, 1000, 100);
    result.scripts.resize(3);
    result.scripts[1].tx.skipped = 2;
    result.scripts[1].tx.deadlock_failures = 2;
    result.scripts[1].tx.retried = 2;
    result.scripts[1].tx.retries = 4;
    result.scripts[1].commands.resize(1);
    result.scripts[1].commands[0].retries = 4;
    result.scripts[1].commands[0].failures = 2;
    result.total.skipped = 2;
    result.total.deadlock_failures = 2;
    result.total.retried = 2;
    result.total.retries = 4;
    result.bench_duration_us = 1'000'000;
    result.conn_total_us = 1'000;
    const std::string text = format_pgbench_report(config, result);
    EXPECT_NE(text.find("SQL script 2: b.sql\n"
                        " - weight: 1 (targets 25.0% of total)\n"
                        " - 4 transactions (33.3% of total)\n"
                        " - number of transactions actually processed: 0 (tps = 0.000000)\n"
                        " - number of failed transactions: 2 (50.000%)\n"
                        " - number of transactions retried: 2 (50.000%)\n"
                        " - total number of retries: 4\n"
                        " - number of transactions skipped: 2 (50.000%)\n"
                        " - statement latencies in milliseconds, failures and retries:\n"
                        "         0.000           2          4 SELECT 2;\n"
                        "SQL script 3: c.sql\n"
                        " - weight: 1 (targets 25.0% of total)\n"
                        " - 0 transactions (0.0% of total)\n"
                        " - statement latencies in milliseconds, failures and retries:\n"
                        "         0.000           0          0 SELECT 3;\n"),
              std::string::npos)
        << text;
}

TEST(ReportTest, NothingCompletedAs18StopsBeforeTheFailureLines) {
    bench::RunConfig config = config_for(18);
    add_script(config, k_tpcb, 1);
    config.transactions = 10;
    bench::RunResult result;
    result.bench_duration_us = 1'000;
    result.aborted_clients = 1;
    const std::string text = format_pgbench_report(config, result);
    EXPECT_TRUE(text.ends_with("number of transactions actually processed: 0/10\n")) << text;
}

} // namespace
} // namespace pglab::output
