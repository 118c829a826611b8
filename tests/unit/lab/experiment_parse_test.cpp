// tests/unit/lab: valid experiment files become the expected ExperimentSpec: top-level keys,
// servers, sessions, scripts, matrix variables in file order, every step type.
#include <gmock/gmock.h>

#include <map>
#include <string>

#include "experiment_test_util.hpp"

namespace pglab::lab::experiment {
namespace {

using testing::k_bench_step;
using testing::parse_ok;

TEST(SpecParseTest, MinimalFileUsesEmbeddedDefaultServer) {
    const ExperimentSpec s = parse_ok(k_bench_step);
    ASSERT_EQ(s.servers.size(), 1u);
    EXPECT_TRUE(s.servers[0].implicit);
    EXPECT_EQ(s.servers[0].name, "default");
    EXPECT_EQ(s.default_server, "default");
    EXPECT_EQ(s.name, "t");
    EXPECT_EQ(s.repeat, 1u);
    EXPECT_EQ(s.warmup, 0u);
    EXPECT_EQ(s.order, RunOrder::as_written);
    EXPECT_FALSE(s.seed.has_value());
    EXPECT_EQ(s.on_error, OnError::stop);
    ASSERT_EQ(s.steps.size(), 1u);
    EXPECT_EQ(s.steps[0].type, StepType::bench);
    EXPECT_TRUE(s.steps[0].measure);
    EXPECT_EQ(s.steps[0].pos.line, 2u);
}

TEST(SpecParseTest, TopLevelKeys) {
    const ExperimentSpec s = parse_ok(R"toml(
name = "sweep"
description = "d"
repeat = 5
warmup = 1
order = "interleaved"
seed = 42
on_error = "continue"
run_timeout = "30min"
settle = false
)toml" + std::string(k_bench_step));
    EXPECT_EQ(s.name, "sweep");
    EXPECT_EQ(s.description, "d");
    EXPECT_EQ(s.repeat, 5u);
    EXPECT_EQ(s.warmup, 1u);
    EXPECT_EQ(s.order, RunOrder::interleaved);
    EXPECT_EQ(s.seed, 42u);
    EXPECT_EQ(s.on_error, OnError::continue_);
    EXPECT_EQ(s.run_timeout_ms, 30 * 60 * 1000);
    EXPECT_FALSE(s.settle);
    EXPECT_TRUE(parse_ok(k_bench_step).settle); // runs start settled unless the file says not
}

TEST(SpecParseTest, Servers) {
    const ExperimentSpec s = parse_ok(R"toml(
server = "pg16"
[servers.pg16]
version = "16"
settings = { shared_buffers = "256MB", autovacuum = false, checkpoint_completion_target = 0.9, max_connections = 200 }
initdb = ["--data-checksums", "--wal-segsize=16"]
data_dir = "/mnt/zfs-8k"
auth = "scram-sha-256"
tcp = true
environment = { LD_PRELOAD = "/usr/lib/libslowsync.so" }

[servers.pg17]
bin_dir = "/usr/lib/postgresql/17/bin"
settings.auto_explain.log_min_duration = "10ms"

[servers.replica]
version = "17.8"
standby_of = "pg17"

[servers.prod]
conninfo = "host=db1 dbname=bench"
)toml" + std::string(k_bench_step));
    ASSERT_EQ(s.servers.size(), 4u);
    const ServerSpec* pg16 = s.find_server("pg16");
    ASSERT_NE(pg16, nullptr);
    EXPECT_EQ(pg16->version, "16");
    EXPECT_EQ(pg16->auth, AuthMode::scram_sha_256);
    EXPECT_TRUE(pg16->tcp);
    EXPECT_EQ(pg16->data_dir, "/mnt/zfs-8k");
    ASSERT_EQ(pg16->initdb_options.size(), 2u);
    EXPECT_EQ(pg16->initdb_options[1].text, "--wal-segsize=16");
    ASSERT_EQ(pg16->settings.size(), 4u);
    // settings keep their values' kinds; booleans become on/off for postgresql.conf
    bool saw_autovacuum = false;
    for (const auto& st : pg16->settings) {
        if (st.name == "autovacuum") {
            saw_autovacuum = true;
            EXPECT_EQ(st.value.setting_text(), "off");
        }
        if (st.name == "checkpoint_completion_target") {
            EXPECT_EQ(st.value.setting_text(), "0.9");
        }
    }
    EXPECT_TRUE(saw_autovacuum);
    ASSERT_EQ(pg16->environment.size(), 1u);
    EXPECT_EQ(pg16->environment[0].first, "LD_PRELOAD");
    const ServerSpec* pg17 = s.find_server("pg17");
    ASSERT_NE(pg17, nullptr);
    EXPECT_EQ(pg17->bin_dir, "/usr/lib/postgresql/17/bin");
    ASSERT_EQ(pg17->settings.size(), 1u);
    EXPECT_EQ(pg17->settings[0].name, "auto_explain.log_min_duration");
    EXPECT_EQ(s.find_server("replica")->standby_of, "pg17");
    EXPECT_TRUE(s.find_server("prod")->is_existing());
    EXPECT_EQ(s.default_server, "pg16");
}

TEST(SpecParseTest, PreReleaseVersionsAsPostgresNamesThem) {
    // What `pglab server list` shows for Debian's 19 is "19rc1": a file may name it so.
    const ExperimentSpec s = parse_ok(R"toml(
server = "rc"
[servers.rc]
version = "19rc1"
[servers.beta]
version = "18beta2"
)toml" + std::string(k_bench_step));
    EXPECT_EQ(s.find_server("rc")->version, "19rc1");
    EXPECT_EQ(s.find_server("beta")->version, "18beta2");
}

TEST(SpecParseTest, AnOlderReleasesDefaultsUnderTheFilesOwnSettings) {
    const ExperimentSpec s = parse_ok(R"toml(
[servers.old]
version = "15"
defaults = "9.2"
settings = { Shared_Buffers = "64MB", max_connections = 250 }
)toml" + std::string(k_bench_step));
    const ServerSpec* old = s.find_server("old");
    ASSERT_NE(old, nullptr);
    std::map<std::string, std::string> settings;
    for (const auto& st : old->settings) {
        EXPECT_TRUE(settings.emplace(st.name, st.value.setting_text()).second)
            << st.name << " twice";
    }
    // 9.2's where the file says nothing; the file's own where it does (names in any case).
    EXPECT_EQ(settings.at("work_mem"), "1MB");
    EXPECT_EQ(settings.at("maintenance_work_mem"), "16MB");
    EXPECT_EQ(settings.at("effective_cache_size"), "128MB");
    EXPECT_EQ(settings.at("checkpoint_completion_target"), "0.5");
    EXPECT_EQ(settings.at("max_wal_size"), "144MB");
    EXPECT_EQ(settings.at("Shared_Buffers"), "64MB");
    EXPECT_EQ(settings.count("shared_buffers"), 0U);
    EXPECT_EQ(settings.at("max_connections"), "250");
    EXPECT_EQ(old->settings.front().pos.line, 4); // a preset's setting points at `defaults`

    EXPECT_THAT(
        testing::problems("[servers.old]\ndefaults = \"9.3\"\n" + std::string(k_bench_step)),
        ::testing::AllOf(
            ::testing::HasSubstr("t.toml:2:12: unknown defaults \"9.3\" in [servers.old]"),
            ::testing::HasSubstr("[use one of \"9.2\"")));
    EXPECT_THAT(testing::problems("[servers.prod]\nconninfo = \"host=db1\"\ndefaults = \"9.2\"\n"
                                  + std::string(k_bench_step)),
                ::testing::HasSubstr("\"defaults\" cannot be used with \"conninfo\""));
}

TEST(SpecParseTest, AServerThatArchives) {
    const ExperimentSpec s = parse_ok(R"toml(
[servers.primary]
archive = true
[servers.standby]
standby_of = "primary"
)toml" + std::string(k_bench_step));
    EXPECT_TRUE(s.find_server("primary")->archive);
    EXPECT_FALSE(s.find_server("standby")->archive);
    EXPECT_THAT(testing::problems("[servers.prod]\nconninfo = \"host=db1\"\narchive = true\n"
                                  + std::string(k_bench_step)),
                ::testing::HasSubstr("t.toml:3:1: \"archive\" cannot be used with \"conninfo\""));
}

TEST(SpecParseTest, EmulationKeysOfServers) {
    const ExperimentSpec s = parse_ok(R"toml(
server = "slow"
[servers.slow]
sync_delay = "2ms"
memory_limit = "512MB"
[servers.fine]
sync_delay = "500us"
memory_limit = 67108864
[servers.counted]
sync_delay = "0ms"
[servers.plain]
)toml" + std::string(k_bench_step));
    EXPECT_EQ(s.find_server("slow")->sync_delay_us, 2000);
    EXPECT_EQ(s.find_server("slow")->memory_limit_bytes, 512ULL << 20);
    EXPECT_EQ(s.find_server("slow")->memory_limit_pos.line, 5);
    EXPECT_EQ(s.find_server("fine")->sync_delay_us, 500);
    EXPECT_EQ(s.find_server("fine")->memory_limit_bytes, 64ULL << 20);
    EXPECT_EQ(s.find_server("counted")->sync_delay_us, 0);
    EXPECT_FALSE(s.find_server("plain")->sync_delay_us);
    EXPECT_FALSE(s.find_server("plain")->memory_limit_bytes);
}

TEST(SpecParseTest, OnlyPrimaryIsTheDefaultServer) {
    const ExperimentSpec s = parse_ok(R"toml(
[servers.primary]
[servers.standby]
standby_of = "primary"
[servers.cascade]
standby_of = "standby"
)toml" + std::string(k_bench_step));
    EXPECT_EQ(s.default_server, "primary");
}

TEST(SpecParseTest, MatrixVariablesInFileOrder) {
    const ExperimentSpec s = parse_ok(R"toml(
[servers.a]
[servers.b]
[matrix]
server = ["a", "b"]
settings.shared_buffers = ["128MB", "1GB"]
clients = [1, 2, 4]
"settings.wal_sync_method" = ["fsync", "open_sync"]
vars.nrows = [10]
params.where = ["id % 20 != 1", "id % 2 = 1"]
threads = 2
duration = ["10s", 60, "2min"]
rate = [100, 250.5]
scale = 10
filter = "clients >= threads"
)toml" + std::string(k_bench_step));
    const auto& vars = s.matrix.variables;
    ASSERT_EQ(vars.size(), 10u);
    const char* names[] = {"server",     "settings.shared_buffers",
                           "clients",    "settings.wal_sync_method",
                           "vars.nrows", "params.where",
                           "threads",    "duration",
                           "rate",       "scale"};
    for (std::size_t i = 0; i < 10; ++i) {
        EXPECT_EQ(vars[i].name, names[i]) << i;
    }
    EXPECT_EQ(vars[1].kind, VariableKind::setting);
    EXPECT_EQ(vars[1].key, "shared_buffers");
    EXPECT_EQ(vars[3].key, "wal_sync_method");
    EXPECT_EQ(vars[4].kind, VariableKind::script_var);
    EXPECT_EQ(vars[4].key, "nrows");
    EXPECT_EQ(vars[5].kind, VariableKind::param);
    // durations are normalised to whole seconds
    ASSERT_EQ(vars[7].values.size(), 3u);
    EXPECT_EQ(vars[7].values[0].text(), "10");
    EXPECT_EQ(vars[7].values[1].text(), "60");
    EXPECT_EQ(vars[7].values[2].text(), "120");
    EXPECT_EQ(vars[8].values[1].text(), "250.5");
    ASSERT_TRUE(s.matrix.filter.has_value());
    EXPECT_EQ(s.matrix.filter->text(), "clients >= threads");
    EXPECT_EQ(vars[2].pos.line, 7u);
    EXPECT_EQ(vars[2].pos.column, 1u);
}

TEST(SpecParseTest, MatrixSubTables) {
    const ExperimentSpec s = parse_ok(R"toml(
[matrix]
clients = [1, 2]
[matrix.settings]
work_mem = ["4MB", "64MB"]
[matrix.vars]
delay = [80, 100]
)toml" + std::string(k_bench_step));
    ASSERT_EQ(s.matrix.variables.size(), 3u);
    EXPECT_EQ(s.matrix.variables[1].name, "settings.work_mem");
    EXPECT_EQ(s.matrix.variables[2].name, "vars.delay");
}

TEST(SpecParseTest, EveryStepType) {
    ExperimentSpec s = parse_ok(R"toml(
[sessions.s1]
[sessions.s2]
database = "postgres"
[scripts.tx]
text = '''
\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
'''
[scripts.file]
file = "quickstart.toml"
[matrix]
clients = [1]
scale = [10]

[[steps]]
type = "init"
options = { scale = "${scale}", fillfactor = 95, foreign_keys = true, no_vacuum = false, I = "dtgvp" }
once = true
[[steps]]
type = "sql"
sql = ["CREATE TABLE t (id int)", "INSERT INTO t VALUES (1)"]
session = "s1"
wait = false
expect_error = "23P01"
timeout = 5
measure = true
[[steps]]
type = "bench"
name = "run"
options = ["--client=${clients}", "-n"]
scripts = ["tx", { name = "file", weight = 3 }, "builtin:select-only"]
[[steps]]
type = "timed-sql"
sql = "VACUUM VERBOSE t"
session = "s2"
[[steps]]
type = "explain"
sql = "SELECT 1"
analyze = false
expect_plan = "Result"
when = "clients == 1 && repetition > 0"
[[steps]]
type = "restart"
mode = "immediate"
[[steps]]
type = "stop"
[[steps]]
type = "sql"
sql = "SELECT abalance FROM pgbench_accounts WHERE aid = 1"
expect = "${clients}00"
[[steps]]
type = "start"
[[steps]]
type = "promote"
[[steps]]
type = "checkpoint"
[[steps]]
type = "sleep"
duration = "1.5s"
[[steps]]
type = "shell"
command = "sync; echo ${clients}"
timeout = "10s"
)toml");
    ASSERT_EQ(s.steps.size(), 13u);
    ASSERT_TRUE(s.steps[7].expect.has_value());
    EXPECT_EQ(s.steps[7].expect->text, "${clients}00");
    s.steps.erase(s.steps.begin() + 7);
    const Step& init = s.steps[0];
    EXPECT_EQ(init.type, StepType::init);
    EXPECT_TRUE(init.once);
    EXPECT_FALSE(init.measure);
    std::vector<std::string> opts;
    for (const auto& o : init.options) {
        opts.push_back(o.text);
    }
    EXPECT_THAT(opts, ::testing::ElementsAre("--scale=${scale}", "--fillfactor=95",
                                             "--foreign-keys", "-I", "dtgvp"));
    const Step& sql = s.steps[1];
    ASSERT_EQ(sql.statements.size(), 2u);
    EXPECT_EQ(sql.session, "s1");
    EXPECT_FALSE(sql.wait);
    EXPECT_EQ(sql.expect_error, "23P01");
    EXPECT_EQ(sql.timeout_ms, 5000);
    EXPECT_TRUE(sql.measure);
    const Step& bench = s.steps[2];
    EXPECT_EQ(bench.name, "run");
    ASSERT_EQ(bench.scripts.size(), 3u);
    EXPECT_EQ(bench.scripts[1].name, "file");
    EXPECT_EQ(bench.scripts[1].weight, 3);
    EXPECT_EQ(s.steps[3].type, StepType::timed_sql);
    EXPECT_EQ(s.steps[3].statements[0].text, "VACUUM VERBOSE t");
    EXPECT_FALSE(s.steps[4].analyze);
    EXPECT_THAT(s.steps[4].expect_plan, ::testing::ElementsAre("Result"));
    EXPECT_TRUE(s.steps[4].when.has_value());
    EXPECT_EQ(s.steps[5].mode, "immediate");
    EXPECT_EQ(s.steps[6].mode, "fast");
    EXPECT_EQ(s.steps[10].duration_ms, 1500);
    EXPECT_EQ(s.steps[11].command.text, "sync; echo ${clients}");
    EXPECT_EQ(s.steps[11].timeout_ms, 10000);
    ASSERT_NE(s.find_script("tx"), nullptr);
    EXPECT_NE(s.find_script("tx")->text.find("\\set aid"), std::string::npos);
    ASSERT_NE(s.find_script("file"), nullptr);
    EXPECT_NE(s.find_script("file")->text.find("quickstart"), std::string::npos);
    EXPECT_EQ(s.sessions.size(), 2u);
    EXPECT_EQ(s.sessions[1].database, "postgres");
}

TEST(SpecParseTest, AStepThatIsNotThePapersSaysWhy) {
    const ExperimentSpec s = parse_ok(R"toml(
[matrix]
params.checkpoint = [false, true]
[[steps]]
type = "checkpoint"
when = "params.checkpoint"
deviation = "the paper ran VACUUM right after the UPDATE"
[[steps]]
type = "timed-sql"
sql = "VACUUM t"
)toml");
    EXPECT_EQ(s.steps[0].deviation, "the paper ran VACUUM right after the UPDATE");
    EXPECT_EQ(s.steps[1].deviation, "");
    EXPECT_FALSE(s.order_given);
    EXPECT_THAT(testing::problems("[[steps]]\ntype = \"checkpoint\"\ndeviation = \" \"\n"),
                ::testing::HasSubstr("t.toml:3:13: \"deviation\" is empty: it says why the step "
                                     "departs from the paper"));
    EXPECT_THAT(testing::problems("[[steps]]\ntype = \"checkpoint\"\ndeviation = true\n"),
                ::testing::HasSubstr("t.toml:3:13:"));
}

TEST(SpecParseTest, ScriptFilesAreNotReadWhenAskedNot) {
    ParseOptions options;
    options.read_files = false;
    auto out = testing::parse_text(R"toml(
[scripts.x]
file = "does-not-exist.sql"
[[steps]]
type = "bench"
scripts = ["x"]
)toml",
                                   options);
    ASSERT_TRUE(out.spec.has_value());
    EXPECT_EQ(out.spec->scripts[0].text, "");
}

TEST(SpecParseTest, ParsesFileFromDisk) {
    auto r = parse_experiment_file(PGLAB_SOURCE_DIR "/experiments/quickstart.toml");
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->name, "quickstart");
    EXPECT_EQ(r->order, RunOrder::random);
    EXPECT_TRUE(r->order_given);
    EXPECT_EQ(r->repeat, 3u);
}

TEST(SpecParseTest, MissingFileIsAnError) {
    auto r = parse_experiment_file("/nonexistent/x.toml");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "could not open experiment file \"/nonexistent/x.toml\"");
}

} // namespace
} // namespace pglab::lab::experiment
