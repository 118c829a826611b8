// lab/experiment: `repeat`, a count of measured runs per cell, or runs until the claims are
// decided: `repeat = { min = 3, max = 15, until = "decided", budget = "1h" }`.
#include "lab/experiment/parse_parts.hpp"

#include <algorithm>
#include <string>

namespace pglab::lab::experiment {

namespace {

constexpr std::int64_t k_most_repeat = 10'000;
constexpr std::string_view k_example =
    "repeat = { min = 3, max = 15, until = \"decided\", budget = \"1h\" }";

void read_until_decided(TableReader& outer, const toml::table& t, ParseContext& ctx,
                        std::optional<std::uint32_t>& repeat,
                        std::optional<RepeatUntilDecided>& until_decided) {
    TableReader r(t, "\"repeat\" in " + outer.where(), ctx.file, ctx.diag);
    RepeatUntilDecided u;
    u.pos = outer.key_pos("repeat");
    const auto min = r.integer("min", 1, k_most_repeat, "min = 3");
    const auto max = r.integer("max", 1, k_most_repeat, "max = 15");
    const auto until = r.choice("until", {"decided"});
    u.budget_ms = r.duration_ms("budget", "budget = \"1h\"").value_or(0);
    r.finish();
    if (!max || !until) {
        ctx.diag.add(u.pos,
                     "\"repeat\" as a table needs " + std::string(!max ? "\"max\"" : "")
                         + (!max && !until ? " and " : "")
                         + (!until ? "\"until = \\\"decided\\\"\"" : ""),
                     "write " + std::string(k_example) + ", or a count: repeat = 3");
        return;
    }
    const auto least = static_cast<std::uint32_t>(min.value_or(3));
    if (*max < least) {
        ctx.diag.add(r.key_pos("max"),
                     "\"max\" (" + std::to_string(*max) + ") in \"repeat\" is less than \"min\" ("
                         + std::to_string(least) + ")",
                     "the runs start with min rounds and add rounds up to max");
        return;
    }
    repeat = least;
    u.max = static_cast<std::uint32_t>(*max);
    until_decided = u;
}

} // namespace

void read_repeat(TableReader& r, ParseContext& ctx, std::optional<std::uint32_t>& repeat,
                 std::optional<RepeatUntilDecided>& until_decided) {
    const toml::node* node = r.get("repeat");
    if (node == nullptr) {
        return;
    }
    if (const toml::table* t = node->as_table()) {
        read_until_decided(r, *t, ctx, repeat, until_decided);
        return;
    }
    if (auto count = r.integer("repeat", 1, k_most_repeat, "repeat = 3")) {
        repeat = static_cast<std::uint32_t>(*count);
        until_decided.reset();
    }
}

void check_repeat(ParseContext& ctx, const ExperimentSpec& spec) {
    if (!spec.until_decided) {
        return;
    }
    // Every kind of claim is judged with intervals, shapes too: any testable one can be decided.
    const bool decidable = std::any_of(spec.claims.begin(), spec.claims.end(),
                                       [](const Claim& c) { return c.untestable.empty(); });
    if (!decidable) {
        ctx.diag.add(spec.until_decided->pos,
                     "\"repeat\" until decided needs a claim with a figure to decide",
                     "add [[claims]] that can be tested here (a ratio, a value, a shape), or give "
                     "a count: repeat = 3");
    }
}

} // namespace pglab::lab::experiment
