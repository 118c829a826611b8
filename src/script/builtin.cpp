// pgbench's builtin scripts (exact text), their lookup by prefix, and "NAME@WEIGHT" splitting.
#include "script/loader.hpp"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace pglab::script {

namespace {

/// What TPC-B (sort of) and the simple update share: the random keys, and the account's
/// update and read.
constexpr std::string_view k_account_update =
    "\\set aid random(1, 100000 * :scale)\n"
    "\\set bid random(1, 1 * :scale)\n"
    "\\set tid random(1, 10 * :scale)\n"
    "\\set delta random(-5000, 5000)\n"
    "BEGIN;\n"
    "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
    "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n";

/// TPC-B's updates of the teller and the branch, which the simple update skips.
constexpr std::string_view k_teller_branch_updates =
    "UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;\n"
    "UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;\n";

constexpr std::string_view k_history_insert_and_end =
    "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, "
    "CURRENT_TIMESTAMP);\n"
    "END;\n";

constexpr std::string_view k_select_only =
    "\\set aid random(1, 100000 * :scale)\n"
    "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n";

} // namespace

const std::vector<BuiltinScript>& builtin_scripts() {
    static const std::string k_tpcb_like = std::string(k_account_update)
                                           + std::string(k_teller_branch_updates)
                                           + std::string(k_history_insert_and_end);
    static const std::string k_simple_update =
        std::string(k_account_update) + std::string(k_history_insert_and_end);
    static const std::vector<BuiltinScript> k_builtins = {
        {"tpcb-like", "<builtin: TPC-B (sort of)>", k_tpcb_like},
        {"simple-update", "<builtin: simple update>", k_simple_update},
        {"select-only", "<builtin: select only>", k_select_only},
    };
    return k_builtins;
}

std::string builtin_list_text() {
    std::string out = "Available builtin scripts:\n";
    for (const BuiltinScript& b : builtin_scripts()) {
        char buf[128];
        const int n = std::snprintf(buf, sizeof(buf), "  %13.*s: ", static_cast<int>(b.name.size()),
                                    b.name.data());
        out.append(buf, static_cast<size_t>(n));
        out.append(b.desc);
        out.push_back('\n');
    }
    out.push_back('\n');
    return out;
}

Result<const BuiltinScript*> find_builtin(std::string_view name) {
    const BuiltinScript* found = nullptr;
    int count = 0;
    for (const BuiltinScript& b : builtin_scripts()) {
        if (b.name.substr(0, name.size()) == name) {
            found = &b;
            ++count;
        }
    }
    if (count == 1) {
        return found;
    }
    Error e(count == 0 ? "no builtin script found for name \"" + std::string(name) + "\""
                       : "ambiguous builtin name: " + std::to_string(count)
                             + " builtin scripts found for prefix \"" + std::string(name) + "\"");
    e.trailer = builtin_list_text();
    return e;
}

Result<std::pair<std::string, int>> split_weight(std::string_view spec) {
    const size_t at = spec.rfind('@');
    if (at == std::string_view::npos) {
        return std::pair<std::string, int>{std::string(spec), 1};
    }
    const std::string weight(spec.substr(at + 1));
    errno = 0;
    char* end = nullptr;
    const long w = std::strtol(weight.c_str(), &end, 10);
    if (errno != 0 || end == weight.c_str() || *end != '\0') {
        return make_error("invalid weight specification: @" + weight);
    }
    if (w > INT_MAX || w < 0) {
        return make_error("weight specification out of range (0 .. 2147483647): "
                          + std::to_string(w));
    }
    return std::pair<std::string, int>{std::string(spec.substr(0, at)), static_cast<int>(w)};
}

} // namespace pglab::script
