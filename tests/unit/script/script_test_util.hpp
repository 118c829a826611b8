// Helpers for the script unit tests: load a script and run its \set/\if commands as pgbench's
// client 0 would with --random-seed (SQL commands are skipped).
#pragma once

#include "script/expr.hpp"
#include "script/loader.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace pglab::script::test {

/// pgbench 15's derivation: base PRNG from the seed, client 0's PRNG seeded from the base's
/// next value, then default_seed drawn from the base.
struct Seeds {
    Prng client;
    int64_t default_seed = 0;

    explicit Seeds(uint64_t seed) {
        Prng base;
        base.seed(seed);
        client.seed(base.next_u64());
        default_seed = static_cast<int64_t>(base.next_u64());
    }
};

/// Loads `source` as file "script.sql"; returns the error text (message + trailer) or "".
inline std::string load_error(const std::string& source) {
    ScriptSet set;
    Status st = set.add("script.sql", "script.sql", source, 1);
    if (st) {
        st = set.compile(QueryMode::simple);
    }
    if (st) {
        return "";
    }
    return st.error().message + "\n" + st.error().trailer;
}

/// Runs the meta-commands of `source` once (following \if branches) and returns what debug()
/// printed; on a runtime error, appends "ERROR: <message>\n" and stops.
inline std::string run_script(const std::string& source,
                              const std::vector<std::pair<std::string, std::string>>& defines = {},
                              uint64_t seed = 5432) {
    ScriptSet set;
    Status st = set.add("script.sql", "script.sql", source, 1);
    EXPECT_TRUE(st) << (st ? "" : st.error().message);
    if (!st) {
        return "LOAD ERROR";
    }
    VariableTable& table = set.variables();
    for (const auto& [k, v] : defines) {
        table.intern(k);
    }
    for (const char* name : {"scale", "client_id", "default_seed", "random_seed"}) {
        table.intern(name);
    }
    EXPECT_TRUE(set.compile(QueryMode::simple));
    Seeds seeds(seed);
    Variables vars(table);
    for (const auto& [k, v] : defines) {
        vars.set_string(table.find(k), v);
    }
    vars.set(table.find("scale"), Value::integer(1));
    vars.set(table.find("client_id"), Value::integer(0));
    vars.set(table.find("default_seed"), Value::integer(seeds.default_seed));
    vars.set(table.find("random_seed"), Value::integer(static_cast<int64_t>(seed)));
    std::string out;
    const std::vector<Command>& cmds = set.scripts()[0].commands;
    size_t i = 0;
    bool by_jump = false;
    while (i < cmds.size()) {
        const Command& c = cmds[i];
        size_t next = i + 1;
        bool jumped = false;
        EvalContext ctx{vars, seeds.client, 0, static_cast<int>(i) + 1, &out};
        if (c.type == CommandType::meta
            && (c.meta == MetaKind::set || c.meta == MetaKind::if_ || c.meta == MetaKind::elif)) {
            if (c.meta == MetaKind::elif && !by_jump) {
                next = static_cast<size_t>(c.endif);
            } else {
                Result<Value> v = evaluate(*c.expr, ctx);
                if (!v) {
                    out += "ERROR: " + v.error().message + "\n";
                    return out;
                }
                if (c.meta == MetaKind::set) {
                    vars.set(c.var_slot, *v);
                } else if (!truth(*v).value()) {
                    next = static_cast<size_t>(c.jump);
                    jumped = true;
                }
            }
        } else if (c.type == CommandType::meta && c.meta == MetaKind::else_ && !by_jump) {
            next = static_cast<size_t>(c.endif);
        }
        by_jump = jumped;
        i = next;
    }
    return out;
}

/// Evaluates a single expression (as "\set x <expr>") on a fresh client with seed 5432.
inline std::string eval_text(const std::string& expr) {
    return run_script("\\set x debug(" + expr + ")\n");
}

} // namespace pglab::script::test
