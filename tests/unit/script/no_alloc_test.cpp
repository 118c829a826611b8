// Evaluation must not allocate on the success path: counts operator new calls around evaluate().
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "script_test_util.hpp"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
} // namespace

void* operator new(std::size_t n) {
    if (g_counting.load(std::memory_order_relaxed)) {
        g_allocations.fetch_add(1, std::memory_order_relaxed);
    }
    if (void* p = std::malloc(n == 0 ? 1 : n)) {
        return p;
    }
    throw std::bad_alloc();
}

#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void operator delete(void* p) noexcept {
    std::free(p);
}

void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}

namespace pglab::script {
namespace {

TEST(NoAllocTest, EvaluationAllocatesNothing) {
    ScriptSet set;
    ASSERT_TRUE(
        set.add("s", "s",
                "\\set aid random(1, 100000 * :scale)\n"
                "\\set x case when :aid > 5 and not false then hash(:aid) else "
                "greatest(1, 2.5, :d) end + permute(:aid, 1000) + random_zipfian(1, 9, 1.3)\n",
                1));
    VariableTable& t = set.variables();
    Variables vars(t);
    vars.set(t.find("scale"), Value::integer(1));
    vars.set(t.find("default_seed"), Value::integer(42));
    vars.set_string(t.find("d"), "1.5");
    Prng prng;
    prng.seed(1);
    EvalContext ctx{vars, prng, 0, 1};
    const auto& cmds = set.scripts()[0].commands;
    for (const Command& c : cmds) { // warm up: the -D string gets typed once
        Result<Value> v = evaluate(*c.expr, ctx);
        ASSERT_TRUE(v) << v.error().message;
        vars.set(c.var_slot, *v);
    }
    g_allocations = 0;
    g_counting = true;
    for (int i = 0; i < 100; ++i) {
        for (const Command& c : cmds) {
            Result<Value> v = evaluate(*c.expr, ctx);
            if (v) {
                vars.set(c.var_slot, *v);
            }
        }
    }
    g_counting = false;
    EXPECT_EQ(g_allocations.load(), 0);
}

} // namespace
} // namespace pglab::script
