// Micro-benchmark of expression evaluation: `\set aid random(1, 100000 * :scale)` as the
// tpcb-like script runs it once per transaction (tree walk, variable read, PRNG draw).
#include "script/expr.hpp"
#include "script/loader.hpp"

#include <benchmark/benchmark.h>

namespace {

using namespace pglab::script;

void bm_eval_random_aid(benchmark::State& state) {
    ScriptSet set;
    if (!set.add("bench", "bench", "\\set aid random(1, 100000 * :scale)\n", 1)) {
        state.SkipWithError("script did not load");
        return;
    }
    VariableTable& table = set.variables();
    Variables vars(table);
    vars.set(table.find("scale"), Value::integer(10));
    Prng prng;
    prng.seed(5432);
    const Command& cmd = set.scripts()[0].commands[0];
    EvalContext ctx{vars, prng, 0, 1};
    for (auto _ : state) {
        pglab::Result<Value> v = evaluate(*cmd.expr, ctx);
        benchmark::DoNotOptimize(v);
        vars.set(cmd.var_slot, *v);
    }
}

BENCHMARK(bm_eval_random_aid);

void bm_eval_from_string_variable(benchmark::State& state) {
    // :scale given with -D: a string typed lazily on first use, cached afterwards.
    ScriptSet set;
    if (!set.add("bench", "bench", "\\set aid random(1, 100000 * :scale)\n", 1)) {
        state.SkipWithError("script did not load");
        return;
    }
    VariableTable& table = set.variables();
    Variables vars(table);
    vars.set_string(table.find("scale"), "10");
    Prng prng;
    prng.seed(5432);
    EvalContext ctx{vars, prng, 0, 1};
    const Command& cmd = set.scripts()[0].commands[0];
    for (auto _ : state) {
        pglab::Result<Value> v = evaluate(*cmd.expr, ctx);
        benchmark::DoNotOptimize(v);
    }
}

BENCHMARK(bm_eval_from_string_variable);

} // namespace
