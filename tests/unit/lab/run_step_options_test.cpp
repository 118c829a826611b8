// tests/unit/lab: an init or bench step's options read once by the bench option parser, with
// the matrix's values where the options are silent: what the run records, what a `once`
// fingerprint holds, and what the parser refuses. No server: the options are read as the
// checks before the start read them.
#include "lab/run/step_options.hpp"

#include <gmock/gmock.h>

#include "planned_spec.hpp"

namespace pglab::lab::run {
namespace {

using ::testing::ElementsAre;

/// An experiment planned, and its steps' options read as the checks before the start read them.
struct Fixture : testing::PlannedSpec {
    Result<StepOptions> read(std::size_t step, std::size_t run = 0) const {
        return read_step_options(spec, spec.steps[step], values(run), pg::ConnParams{}, {});
    }
};

Fixture make(const std::string& text) {
    return {testing::planned(text)};
}

TEST(RunStepOptionsTest, TheMatrixFillsWhatTheOptionsLeaveOut) {
    auto f = make(R"toml(
[matrix]
clients = [4]
threads = 2
duration = "1min"
rate = 100.5
vars.delay = [80]
[[steps]]
type = "bench"
options = ["-n", "--progress=${duration}"]
)toml");
    auto o = f.read(0);
    ASSERT_TRUE(o) << o.error().message;
    EXPECT_THAT(o->arguments, ElementsAre("--client=4", "--jobs=2", "--time=60", "--rate=100.5",
                                          "--define=delay=80", "-n", "--progress=60"));
    EXPECT_EQ(o->parsed.run.clients, 4);
    EXPECT_EQ(o->parsed.run.threads, 2);
    EXPECT_EQ(o->parsed.run.duration_s, 60);
    EXPECT_DOUBLE_EQ(o->parsed.run.rate_tps, 100.5);
}

// The parser, not a scan of the strings, says what the options set: bundled short options,
// abbreviations and the table form all count, and -t leaves the matrix's duration out.
TEST(RunStepOptionsTest, OptionsTheStepSetsWin) {
    auto f = make(R"toml(
[matrix]
clients = [4]
duration = [10]
[[steps]]
type = "bench"
options = ["-nc8", "-t", "1000"]
[[steps]]
type = "bench"
options = { client = 2 }
[[steps]]
type = "bench"
options = ["--cl=3", "--tim=5"]
)toml");
    auto first = f.read(0);
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_THAT(first->arguments, ElementsAre("-nc8", "-t", "1000"));
    EXPECT_EQ(first->parsed.run.clients, 8);
    EXPECT_EQ(first->parsed.run.transactions, 1000);
    EXPECT_EQ(first->parsed.run.duration_s, 0);
    auto table = f.read(1);
    ASSERT_TRUE(table) << table.error().message;
    EXPECT_THAT(table->arguments, ElementsAre("--time=10", "--client=2"));
    auto abbreviated = f.read(2);
    ASSERT_TRUE(abbreviated) << abbreviated.error().message;
    EXPECT_THAT(abbreviated->arguments, ElementsAre("--cl=3", "--tim=5"));
    EXPECT_EQ(abbreviated->parsed.run.duration_s, 5);
}

TEST(RunStepOptionsTest, InitTakesTheScale) {
    auto f = make("[matrix]\nscale = [5, 50]\nclients = 4\n[[steps]]\ntype = \"init\"\n"
                  "options = [\"-q\"]\n[[steps]]\ntype = \"init\"\noptions = [\"-s\", \"7\"]\n");
    auto o = f.read(0, 1);
    ASSERT_TRUE(o) << o.error().message;
    EXPECT_THAT(o->arguments, ElementsAre("--scale=50", "-q"));
    EXPECT_EQ(o->parsed.init.scale, 50);
    auto own = f.read(1, 1);
    ASSERT_TRUE(own) << own.error().message;
    EXPECT_THAT(own->arguments, ElementsAre("-s", "7"));
    EXPECT_EQ(own->parsed.init.scale, 7);
}

TEST(RunStepOptionsTest, RefusedOptionsSayWhy) {
    auto f = make(R"toml(
[matrix]
clients = [2]
[[steps]]
type = "bench"
options = ["--time=1", "-t", "5"]
[[steps]]
type = "bench"
options = ["--initialize"]
[[steps]]
type = "bench"
options = ["--no-such-option"]
)toml");
    auto both = f.read(0);
    ASSERT_FALSE(both);
    EXPECT_EQ(both.error().message,
              "specify either a number of transactions (-t) or a duration (-T), not both");
    auto init = f.read(1);
    ASSERT_FALSE(init);
    // the matrix's --client=2 is a benchmarking option: pgbench's refusal comes first
    EXPECT_EQ(init.error().message,
              "some of the specified options cannot be used in initialization (-i) mode");
    auto alone = make("[[steps]]\ntype = \"bench\"\noptions = [\"--initialize\"]\n").read(0);
    ASSERT_FALSE(alone);
    EXPECT_EQ(alone.error().message, "bench options must not contain --initialize");
    auto unknown = f.read(2);
    ASSERT_FALSE(unknown);
    EXPECT_THAT(unknown.error().message,
                ::testing::HasSubstr("unrecognized option '--no-such-option'"));
    EXPECT_FALSE(check_bench_options(f.spec, f.spec.steps[0], f.values(0)));
}

TEST(RunStepOptionsTest, OnceFingerprintFollowsTheValuesTheStepTakes) {
    auto f = make(R"toml(
[matrix]
scale = [5, 10]
clients = [1, 2]
[[steps]]
type = "init"
once = true
[[steps]]
type = "bench"
options = ["-c", "3", "-t", "10"]
once = true
)toml");
    const auto fp = [&](std::size_t step, std::size_t run) {
        auto out = once_fingerprint(f.spec, f.spec.steps[step], f.values(run));
        EXPECT_TRUE(out) << out.error().message;
        return out ? *out : std::string();
    };
    // Runs in cell order (no shuffle with repeat = 1): scale 5 with clients 1, 2, then 10.
    EXPECT_EQ(fp(0, 0), fp(0, 1)); // clients changes, scale does not: no new init
    EXPECT_NE(fp(0, 1), fp(0, 2)); // scale 5 -> 10
    EXPECT_EQ(fp(1, 0), fp(1, 1)); // the bench sets -c itself: clients does not matter
}

} // namespace
} // namespace pglab::lab::run
