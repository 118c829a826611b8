// JSON export: schema version, figures equal to the report's, histograms that round-trip.
#include "output/json_export.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace pglab::output {
namespace {

using nlohmann::json;

struct Fixture {
    bench::RunConfig config;
    bench::RunResult result;

    Fixture() {
        script::Script a;
        a.desc = "a.sql";
        a.weight = 1;
        script::Command c;
        c.first_line = "SELECT 1;";
        c.line = 1;
        a.commands.push_back(std::move(c));
        config.scripts.scripts().push_back(std::move(a));
        script::Script b;
        b.desc = "b.sql";
        b.weight = 3;
        config.scripts.scripts().push_back(std::move(b));
        config.clients = 2;
        config.transactions = 0;
        config.duration_s = 10;
        config.rate_tps = 100;
        config.latency_limit_us = 20'000;
        config.max_tries = 2;
        result.scale = 5;
        result.client_version = "15.18";
        result.bench_duration_us = 10'000'000;
        result.conn_total_us = 2'000;
        result.scripts.resize(2);
        result.scripts[0].commands.resize(1);
        for (int64_t i = 1; i <= 1000; ++i) {
            for (bench::TxStats* s : {&result.total, &result.scripts[0].tx}) {
                s->count += 1;
                s->latency_us.add(static_cast<double>(i * 10));
                s->lag_us.add(5);
                s->histogram.record(i * 10);
                s->service_histogram.record(i * 10 - 5);
            }
            result.scripts[0].commands[0].elapsed_us.add(static_cast<double>(i * 10));
        }
        result.total.serialization_failures = 4;
        result.scripts[1].tx.serialization_failures = 4;
        result.total.skipped = 6;
        result.scripts[1].tx.skipped = 6;
    }
};

TEST(JsonExportTest, TopLevelShape) {
    Fixture f;
    const json j = to_json(f.config, f.result);
    EXPECT_EQ(j["version"], "pglab.bench/1");
    EXPECT_EQ(j["client_version"], "15.18");
    EXPECT_EQ(j["options"]["scale"], 5);
    EXPECT_EQ(j["options"]["transaction_type"], "multiple scripts");
    EXPECT_TRUE(j["options"]["transactions_per_client"].is_null());
    EXPECT_EQ(j["options"]["duration_s"], 10);
    EXPECT_DOUBLE_EQ(j["options"]["latency_limit_ms"].get<double>(), 20.0);
    EXPECT_EQ(j["options"]["max_tries"], 2);
    EXPECT_EQ(j["scripts"].size(), 2u);
    EXPECT_FALSE(j["service_time"].is_null());
}

TEST(JsonExportTest, TotalsMatchReportFormulas) {
    Fixture f;
    const json t = to_json(f.config, f.result)["totals"];
    EXPECT_EQ(t["transactions"], 1000);
    EXPECT_EQ(t["failed"], 4);
    EXPECT_EQ(t["skipped"], 6);
    EXPECT_DOUBLE_EQ(t["failed_percent"].get<double>(), 100.0 * 4 / 1010);
    EXPECT_DOUBLE_EQ(t["tps"].get<double>(), 100.0);
    EXPECT_TRUE(t["latency_measured"].get<bool>());
    EXPECT_DOUBLE_EQ(t["latency_average_ms"].get<double>(), 5.005);
    EXPECT_DOUBLE_EQ(t["lag_average_ms"].get<double>(), 0.005);
    EXPECT_EQ(t["connection_time_kind"], "initial");
    EXPECT_DOUBLE_EQ(t["connection_time_ms"].get<double>(), 2.0);
}

TEST(JsonExportTest, HistogramIsLossless) {
    Fixture f;
    const json lat = to_json(f.config, f.result)["latency"];
    EXPECT_EQ(lat["count"], 1000);
    EXPECT_EQ(lat["min_us"], 10);
    EXPECT_EQ(lat["max_us"], 10000);
    EXPECT_EQ(lat["percentiles_us"]["p99.9"], 9991);
    EXPECT_EQ(lat["percentiles_us"]["p50"], 5003);
    stats::LatencyHistogram back;
    ASSERT_TRUE(stats::LatencyHistogram::parse(lat["encoded"].get<std::string>(), back));
    EXPECT_EQ(back.buckets(), f.result.total.histogram.buckets());
    EXPECT_EQ(lat["buckets"].size(), f.result.total.histogram.buckets().size());
}

TEST(JsonExportTest, ScriptsAndCommands) {
    Fixture f;
    const json s = to_json(f.config, f.result)["scripts"];
    EXPECT_EQ(s[0]["desc"], "a.sql");
    EXPECT_EQ(s[0]["index"], 1);
    EXPECT_EQ(s[0]["transactions"], 1000);
    EXPECT_EQ(s[0]["commands"][0]["text"], "SELECT 1;");
    EXPECT_EQ(s[0]["commands"][0]["executions"], 1000);
    EXPECT_DOUBLE_EQ(s[0]["commands"][0]["average_ms"].get<double>(), 5.005);
    EXPECT_EQ(s[1]["weight"], 3);
    EXPECT_EQ(s[1]["failed"], 4);
    EXPECT_TRUE(s[1]["latency"]["average_ms"].is_null());
    EXPECT_TRUE(s[1]["commands"].empty());
}

TEST(JsonExportTest, NothingCompletedGivesNulls) {
    bench::RunConfig config;
    script::Script a;
    a.desc = "x.sql";
    config.scripts.scripts().push_back(std::move(a));
    bench::RunResult result;
    const json j = to_json(config, result);
    EXPECT_TRUE(j["totals"]["tps"].is_null()); // 0 / 0 s
    EXPECT_TRUE(j["totals"]["failed_percent"].is_null());
    EXPECT_TRUE(j["totals"]["latency_average_ms"].is_null());
    EXPECT_TRUE(j["service_time"].is_null());
    EXPECT_NO_THROW((void)j.dump());
}

TEST(JsonExportTest, WriteJsonWritesAndReportsErrors) {
    Fixture f;
    const std::string path = testing::TempDir() + "pglab_json_export_test.json";
    ASSERT_TRUE(write_json(path, f.config, f.result).has_value());
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(json::parse(text.str()), to_json(f.config, f.result));
    EXPECT_EQ(text.str().back(), '\n');
    std::remove(path.c_str());

    const Status bad = write_json("/nonexistent-dir/x.json", f.config, f.result);
    ASSERT_FALSE(bad.has_value());
    EXPECT_EQ(bad.error().message,
              "cannot write /nonexistent-dir/x.json: its directory does not exist");
}

} // namespace
} // namespace pglab::output
