// tests/unit/lab: what a run makes of the steps: `${name}` values, `when`, the bench and init
// option values the matrix offers, `once` fingerprints and effective server settings.
#include "lab/plan/run_values.hpp"

#include <gmock/gmock.h>

#include "planned_spec.hpp"

namespace pglab::lab::plan {
namespace {

using ::testing::ElementsAre;

using testing::planned;

TEST(PlanRunValuesTest, TheMatrixOffersBenchOptions) {
    auto f = planned(R"toml(
[matrix]
clients = [4]
threads = 2
duration = "1min"
rate = 100.5
vars.delay = [80]
[[steps]]
type = "bench"
options = ["-n", "--progress=${duration}"]
[[steps]]
type = "sql"
sql = "SELECT 1"
)toml");
    const RunValues rv(f.plan.cells[0], f.plan.runs[0]);
    const std::vector<options::OptionDefault> offered{
        {'c', "4"}, {'j', "2"}, {'T', "60"}, {'R', "100.5"}, {'D', "delay=80"}};
    EXPECT_EQ(rv.matrix_options(f.spec.steps[0]), offered);
    EXPECT_TRUE(rv.matrix_options(f.spec.steps[1]).empty());
    auto own = rv.own_options(f.spec.steps[0]);
    ASSERT_TRUE(own) << own.error().message;
    EXPECT_THAT(*own, ElementsAre("-n", "--progress=60"));
    std::vector<std::string> spelt;
    for (const auto& o : offered) {
        spelt.push_back(option_argument(o));
    }
    EXPECT_THAT(spelt, ElementsAre("--client=4", "--jobs=2", "--time=60", "--rate=100.5",
                                   "--define=delay=80"));
}

TEST(PlanRunValuesTest, InitIsOfferedTheScale) {
    auto f = planned("[matrix]\nscale = [5, 50]\nclients = 4\n[[steps]]\ntype = \"init\"\n"
                     "options = [\"-q\"]\n");
    const RunValues rv(f.plan.cells[1], f.plan.runs[1]);
    const std::vector<options::OptionDefault> offered{{'s', "50"}};
    EXPECT_EQ(rv.matrix_options(f.spec.steps[0]), offered);
    EXPECT_EQ(option_argument(offered[0]), "--scale=50");
}

TEST(PlanRunValuesTest, BuiltinsAndExpansion) {
    auto f = planned(R"toml(
repeat = 2
warmup = 1
[matrix]
params.where = ["id % 20 != 1"]
[[steps]]
type = "sql"
sql = "UPDATE t SET v = 'y' WHERE ${params.where} -- ${server} ${repetition} ${warmup} ${run}"
)toml");
    const RunValues rv(f.plan.cells[0], f.plan.runs[2]);
    auto sql = rv.expand(f.spec.steps[0].statements[0]);
    ASSERT_TRUE(sql) << sql.error().message;
    EXPECT_EQ(*sql, "UPDATE t SET v = 'y' WHERE id % 20 != 1 -- default 2 false 2");
    const RunValues warm(f.plan.cells[0], f.plan.runs[0]);
    EXPECT_EQ(*warm.expand(f.spec.steps[0].statements[0]),
              "UPDATE t SET v = 'y' WHERE id % 20 != 1 -- default 1 true 0");
}

TEST(PlanRunValuesTest, WhenSelectsSteps) {
    auto f = planned(R"toml(
[matrix]
params.index = [true, false]
[[steps]]
type = "sql"
sql = "CREATE INDEX ON t (id)"
when = "params.index"
)toml");
    EXPECT_TRUE(*RunValues(f.plan.cells[0], f.plan.runs[0]).applies(f.spec.steps[0]));
    EXPECT_FALSE(*RunValues(f.plan.cells[1], f.plan.runs[1]).applies(f.spec.steps[0]));
}

TEST(PlanRunValuesTest, WhenTypeErrorHasPosition) {
    auto f = planned("[matrix]\nclients = [1]\n[[steps]]\ntype = \"checkpoint\"\nwhen = "
                     "\"clients\"\n");
    auto r = RunValues(f.plan.cells[0], f.plan.runs[0]).applies(f.spec.steps[0]);
    ASSERT_FALSE(r);
    EXPECT_THAT(r.error().message, ::testing::StartsWith("t.toml:5:8: \"when\" fails for cell "
                                                         "clients=1: condition"));
}

TEST(PlanRunValuesTest, OnceFingerprintHoldsTheExpandedFieldsAndArguments) {
    auto f = planned(R"toml(
[matrix]
params.n = [1, 2]
[[steps]]
type = "sql"
sql = "SELECT ${params.n}"
once = true
)toml");
    const auto fp = [&](std::size_t run, const std::vector<std::string>& args) {
        const PlannedRun& r = f.plan.runs[run];
        return *RunValues(f.plan.cells[r.cell], r).fingerprint(f.spec, f.spec.steps[0], args);
    };
    EXPECT_EQ(fp(0, {}), fp(0, {}));
    EXPECT_NE(fp(0, {}), fp(1, {}));                        // SELECT 1 -> SELECT 2
    EXPECT_NE(fp(0, {"--scale=5"}), fp(0, {"--scale=10"})); // the arguments count
}

TEST(PlanRunValuesTest, ServerOfStep) {
    auto f = planned(R"toml(
server = "primary"
[servers.primary]
[servers.standby]
standby_of = "primary"
[sessions.replica]
server = "standby"
[[steps]]
type = "sql"
sql = "SELECT 1"
session = "replica"
[[steps]]
type = "checkpoint"
[[steps]]
type = "promote"
server = "standby"
)toml");
    const RunValues rv(f.plan.cells[0], f.plan.runs[0]);
    EXPECT_EQ(rv.server_of(f.spec, f.spec.steps[0]), "standby");
    EXPECT_EQ(rv.server_of(f.spec, f.spec.steps[1]), "primary");
    EXPECT_EQ(rv.server_of(f.spec, f.spec.steps[2]), "standby");
}

TEST(PlanRunValuesTest, EffectiveSettings) {
    auto f = planned(R"toml(
[servers.pg]
settings = { shared_buffers = "128MB", fsync = true }
[servers.other]
standby_of = "pg"
settings = { hot_standby = true }
[matrix]
settings.Shared_Buffers = ["1GB"]
settings.work_mem = ["64MB"]
[[steps]]
type = "bench"
)toml");
    const auto settings = effective_settings(f.spec, f.plan.cells[0], "pg");
    ASSERT_EQ(settings.size(), 3u);
    EXPECT_EQ(settings[0].name, "shared_buffers");
    EXPECT_EQ(settings[0].value.setting_text(), "1GB");
    EXPECT_EQ(settings[1].value.setting_text(), "on");
    EXPECT_EQ(settings[2].name, "work_mem");
    // matrix settings apply to the cell's server only
    const auto standby = effective_settings(f.spec, f.plan.cells[0], "other");
    ASSERT_EQ(standby.size(), 1u);
    EXPECT_EQ(standby[0].name, "hot_standby");
}

} // namespace
} // namespace pglab::lab::plan
