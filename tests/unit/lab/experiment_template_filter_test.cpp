// tests/unit/lab: `${name}` substitution, filter expressions and durations, alone.
#include "lab/experiment/duration.hpp"
#include "lab/experiment/filter_expr.hpp"
#include "lab/experiment/suggest.hpp"
#include "lab/experiment/template_text.hpp"

#include <gtest/gtest.h>

#include <map>

namespace pglab::lab::experiment {
namespace {

TemplateLookup lookup_in(const std::map<std::string, std::string, std::less<>>& values) {
    return [&values](std::string_view name) -> std::optional<std::string> {
        auto it = values.find(name);
        return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
}

TEST(SpecTemplateTest, ExpandsNamesAndKeepsDollarQuoting) {
    const std::map<std::string, std::string, std::less<>> values{
        {"clients", "8"}, {"settings.work_mem", "64MB"}, {"params.where", "id % 2 = 1"}};
    EXPECT_EQ(*expand_template("-c ${clients} ${settings.work_mem}", lookup_in(values)),
              "-c 8 64MB");
    EXPECT_EQ(*expand_template("UPDATE t SET v = 'y' WHERE ${params.where}", lookup_in(values)),
              "UPDATE t SET v = 'y' WHERE id % 2 = 1");
    // SQL's own dollars pass through; $${ is a literal ${
    EXPECT_EQ(*expand_template("DO $$ SELECT $1 $$; echo $${HOME}", lookup_in(values)),
              "DO $$ SELECT $1 $$; echo ${HOME}");
    EXPECT_EQ(*expand_template("", lookup_in(values)), "");
}

TEST(SpecTemplateTest, Errors) {
    const std::map<std::string, std::string, std::less<>> none;
    auto r = expand_template("a ${x} b", lookup_in(none));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "variable \"x\" is not defined");
    EXPECT_EQ(expand_template("${", lookup_in(none)).error().message, "unterminated \"${\"");
    EXPECT_EQ(expand_template("${}", lookup_in(none)).error().message,
              "empty variable name in \"${}\"");
    EXPECT_EQ(expand_template("${a b}", lookup_in(none)).error().message,
              "invalid variable name \"a b\"");
}

TEST(SpecTemplateTest, RefsWithOffsets) {
    auto refs = template_refs("x ${a} $${b} ${c.d}");
    const auto& list = std::get<std::vector<TemplateRef>>(refs);
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0].name, "a");
    EXPECT_EQ(list[0].offset, 2u);
    EXPECT_EQ(list[1].name, "c.d");
    EXPECT_EQ(list[1].offset, 13u);
}

std::optional<Scalar> value(std::string_view name) {
    if (name == "clients") {
        return Scalar{std::int64_t{8}, {}};
    }
    if (name == "threads") {
        return Scalar{std::int64_t{2}, {}};
    }
    if (name == "settings.fsync") {
        return Scalar{false, {}};
    }
    if (name == "settings.wal_sync_method") {
        return Scalar{std::string("open_sync"), {}};
    }
    if (name == "rate") {
        return Scalar{2.5, {}};
    }
    return std::nullopt;
}

bool eval(const char* text) {
    auto e = FilterExpr::parse(text);
    EXPECT_TRUE(e) << text << ": " << e.error().message;
    if (!e) {
        return false;
    }
    auto r = e->evaluate(value);
    EXPECT_TRUE(r) << text << ": " << r.error().message;
    return r && *r;
}

TEST(SpecFilterTest, Evaluates) {
    EXPECT_TRUE(eval("clients == 8"));
    EXPECT_TRUE(eval("clients >= threads && clients != 4"));
    EXPECT_TRUE(eval("clients == 8.0"));
    EXPECT_TRUE(eval("rate < 3 and rate > 2.4"));
    EXPECT_TRUE(eval("!settings.fsync"));
    EXPECT_TRUE(eval("not settings.fsync || clients < 0"));
    EXPECT_TRUE(eval("settings.wal_sync_method == \"open_sync\""));
    EXPECT_TRUE(eval("settings.wal_sync_method == 'open_sync'"));
    EXPECT_TRUE(eval("settings.wal_sync_method > 'fsync'"));
    EXPECT_FALSE(eval("settings.wal_sync_method == 8"));
    EXPECT_TRUE(eval("settings.wal_sync_method != 8"));
    EXPECT_TRUE(eval("(clients == 1 || clients == 8) && !(threads > 2)"));
    EXPECT_TRUE(eval("true"));
    EXPECT_TRUE(eval("clients > -1"));
    EXPECT_FALSE(eval("clients == 1 || threads == 1 && true"));
    // && binds tighter than ||
    EXPECT_TRUE(eval("clients == 8 || threads == 1 && false"));
}

TEST(SpecFilterTest, NamesWithOffsets) {
    auto e = FilterExpr::parse("clients > 1 && settings.fsync");
    ASSERT_TRUE(e);
    ASSERT_EQ(e->names().size(), 2u);
    EXPECT_EQ(e->names()[0], std::make_pair(std::string("clients"), std::size_t{0}));
    EXPECT_EQ(e->names()[1], std::make_pair(std::string("settings.fsync"), std::size_t{15}));
}

TEST(SpecFilterTest, ParseErrors) {
    const std::pair<const char*, const char*> cases[] = {
        {"clients >", "expression ends where a value was expected"},
        {"clients == 1 )", "unexpected \")\""},
        {"(clients == 1", "missing \")\""},
        {"name == 'x", "unterminated string"},
        {"clients # 2", "unexpected \"#\""},
        {"1.2.3 == 1", "invalid number"},
        {"", "expression ends where a value was expected"},
    };
    for (const auto& [text, message] : cases) {
        auto e = FilterExpr::parse(text);
        ASSERT_FALSE(e) << text;
        EXPECT_EQ(e.error().message, message) << text;
    }
    std::size_t offset = 0;
    EXPECT_FALSE(FilterExpr::parse("clients == == 2", &offset));
    EXPECT_EQ(offset, 11u);
    EXPECT_FALSE(FilterExpr::parse(std::string(200, '(') + "true" + std::string(200, ')')));
}

TEST(SpecFilterTest, EvaluationErrors) {
    auto e = FilterExpr::parse("clients");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->evaluate(value).error().message,
              "condition \"clients\" is a integer, not a boolean (compare it with ==, !=, <...)");
    e = FilterExpr::parse("settings.fsync < 1");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->evaluate(value).error().message,
              "cannot order a boolean and a integer with \"<\"");
    e = FilterExpr::parse("nope == 1");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->evaluate(value).error().message, "variable \"nope\" is not defined");
}

TEST(SpecDurationTest, Units) {
    EXPECT_EQ(parse_duration_ms("10"), 10'000);
    EXPECT_EQ(parse_duration_ms("10s"), 10'000);
    EXPECT_EQ(parse_duration_ms("1.5s"), 1'500);
    EXPECT_EQ(parse_duration_ms("250ms"), 250);
    EXPECT_EQ(parse_duration_ms("2min"), 120'000);
    EXPECT_EQ(parse_duration_ms("2 min"), 120'000);
    EXPECT_EQ(parse_duration_ms("1h"), 3'600'000);
    EXPECT_EQ(parse_duration_ms("0"), 0);
    EXPECT_FALSE(parse_duration_ms(""));
    EXPECT_FALSE(parse_duration_ms("s"));
    EXPECT_FALSE(parse_duration_ms("10 parsecs"));
    EXPECT_FALSE(parse_duration_ms("-1s"));
    EXPECT_FALSE(parse_duration_ms("1e400"));
    EXPECT_FALSE(parse_duration_ms("9999999h"));
}

TEST(SpecSuggestTest, ClosestName) {
    const std::vector<std::string> keys{"clients", "threads", "scale", "rate", "duration"};
    EXPECT_EQ(closest_name("clinets", keys), "clients");
    EXPECT_EQ(closest_name("CLIENTS", keys), "clients");
    EXPECT_EQ(closest_name("thread", keys), "threads");
    EXPECT_EQ(closest_name("rte", keys), "rate");
    EXPECT_EQ(closest_name("banana", keys), "");
    EXPECT_EQ(did_you_mean("scael", keys), " (did you mean \"scale\"?)");
    EXPECT_EQ(quoted_list({"a", "b", "c"}), "\"a\", \"b\" or \"c\"");
}

} // namespace
} // namespace pglab::lab::experiment
