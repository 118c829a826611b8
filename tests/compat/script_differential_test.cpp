// Differential test of the expression language: a seeded generator writes a few hundred random
// expressions (literals, -D variables, every operator and function, random_* included), each
// run by its own client (`\if :client_id = k`), so that a runtime error aborts only that
// client. pgbench and `pglab bench` run the same scripts with several --random-seed values; their
// debug() lines and error messages must be identical.
#include <random>

#include "script_compat_util.hpp"

namespace pglab::script_compat {
namespace {

constexpr int k_clients = 50;
constexpr int k_scripts = 6;
constexpr const char* k_defines =
    "-Dvi=7 -Dvd=2.5 -Dvb=true -Dvn=null -Dvs=+3 -Dvneg=-12 -Dvbig=9223372036854775807 "
    "-Dvf=of -Dvx=1e3";

class ExprGenerator {
public:
    explicit ExprGenerator(uint64_t seed) : m_rng(seed) {}

    std::string expr(int depth) {
        if (depth <= 0 || pick(4) == 0) {
            return leaf();
        }
        switch (pick(6)) {
        case 0:
        case 1:
            return "(" + expr(depth - 1) + " " + binary_op() + " " + expr(depth - 1) + ")";
        case 2:
            return unary(depth);
        case 3:
            return "CASE WHEN " + expr(depth - 1) + " THEN " + expr(depth - 1)
                   + (pick(2) == 0 ? " ELSE " + expr(depth - 1) : "") + " END";
        default:
            return function(depth);
        }
    }

private:
    int pick(int n) { return static_cast<int>(m_rng() % static_cast<uint64_t>(n)); }

    template <size_t N>
    const char* one_of(const char* const (&items)[N]) {
        return items[pick(static_cast<int>(N))];
    }

    std::string leaf() {
        static const char* const k_leaves[] = {"0",
                                               "1",
                                               "2",
                                               "3",
                                               "7",
                                               "10",
                                               "42",
                                               "100",
                                               "1000",
                                               "65536",
                                               "2147483648",
                                               "9223372036854775807",
                                               "-9223372036854775808",
                                               "0.0",
                                               "0.5",
                                               "1.5",
                                               "2.5",
                                               "3.5",
                                               "1e10",
                                               ".25",
                                               "1.0E-3",
                                               "123456.789",
                                               "true",
                                               "false",
                                               "null",
                                               ":vi",
                                               ":vd",
                                               ":vb",
                                               ":vn",
                                               ":vs",
                                               ":vneg",
                                               ":vbig",
                                               ":vf",
                                               ":vx",
                                               ":scale",
                                               ":client_id",
                                               ":random_seed"};
        return one_of(k_leaves);
    }

    const char* binary_op() {
        static const char* const k_ops[] = {
            "+",  "-", "*", "/", "%",  "=",  "<>",  "!=", "<", "<=", ">",
            ">=", "&", "|", "#", "<<", ">>", "AND", "OR", "+", "-",  "*"};
        return one_of(k_ops);
    }

    std::string unary(int depth) {
        const std::string e = expr(depth - 1);
        switch (pick(8)) {
        case 0:
            return "-" + e;
        case 1:
            return "+" + e;
        case 2:
            return "~" + e;
        case 3:
            return "NOT " + e;
        case 4:
            return "(" + e + " IS NULL)";
        case 5:
            return "(" + e + " IS NOT TRUE)";
        case 6:
            return "(" + e + " ISNULL)";
        default:
            return "(" + e + " NOTNULL)";
        }
    }

    std::string small_int() { return std::to_string(pick(2001) - 1000); }

    std::string function(int depth) {
        auto e = [&] { return expr(depth - 1); };
        switch (pick(22)) {
        case 0:
            return "abs(" + e() + ")";
        case 1:
            return "double(" + e() + ")";
        case 2:
            return "int(" + e() + ")";
        case 3:
            return "exp(" + e() + ")";
        case 4:
            return "ln(" + e() + ")";
        case 5:
            return "sqrt(" + e() + ")";
        case 6:
            return "pi()";
        case 7:
            return std::string(pick(2) == 0 ? "pow(" : "power(") + e() + ", " + e() + ")";
        case 8:
            return std::string(pick(2) == 0 ? "least(" : "greatest(") + e() + ", " + e()
                   + (pick(2) == 0 ? ", " + e() : "") + ")";
        case 9:
            return "mod(" + e() + ", " + e() + ")";
        case 10:
            return "hash(" + e() + ")";
        case 11:
            return std::string(pick(2) == 0 ? "hash_murmur2(" : "hash_fnv1a(") + e() + ", " + e()
                   + ")";
        case 12:
            return "permute(" + e() + ", " + e() + ")";
        case 13:
            return "permute(" + small_int() + ", " + std::to_string(pick(100000) + 1) + ", "
                   + small_int() + ")";
        case 14:
        case 15: {
            const int lb = pick(2001) - 1000;
            return "random(" + std::to_string(lb) + ", " + std::to_string(lb + pick(100000)) + ")";
        }
        case 16:
            return "random(" + e() + ", " + e() + ")";
        case 17: {
            const int lb = pick(1000);
            return "random_exponential(" + std::to_string(lb) + ", "
                   + std::to_string(lb + pick(10000)) + ", "
                   + one_of({"0.5", "1.0", "2.5", "10.0", ":vd", "0.0"}) + ")";
        }
        case 18: {
            const int lb = pick(1000);
            return "random_gaussian(" + std::to_string(lb) + ", " + std::to_string(lb + pick(10000))
                   + ", " + one_of({"2.0", "2.5", "5.0", "10.0", ":vd", "1.5"}) + ")";
        }
        case 19: {
            const int lb = pick(1000);
            return "random_zipfian(" + std::to_string(lb) + ", " + std::to_string(lb + pick(10000))
                   + ", " + one_of({"1.001", "1.1", "1.5", "2.5", ":vd", "3.0", "0.5"}) + ")";
        }
        case 20:
            return "debug(" + e() + ")";
        default:
            return "(" + e() + " << " + std::to_string(pick(64)) + ")";
        }
    }

    std::mt19937_64 m_rng;
};

/// One script: client k evaluates expression k.
std::string make_script(ExprGenerator& gen) {
    std::string s;
    for (int k = 0; k < k_clients; ++k) {
        s += std::string(k == 0 ? "\\if" : "\\elif") + " :client_id = " + std::to_string(k) + "\n";
        s += "\\set x debug(" + gen.expr(4) + ")\n";
    }
    s += "\\endif\n";
    return s;
}

/// stderr lines that do not depend on timing, sorted (clients interleave differently).
std::vector<std::string> comparable_lines(const std::string& err) {
    std::vector<std::string> lines;
    for (auto& l : stderr_lines(err)) {
        if (l.find("debug(") == 0 || l.find("client ") == 0
            || l.find("aborted") != std::string::npos || l.find("error") != std::string::npos
            || l.find("setting random seed") == 0) {
            lines.push_back(l);
        } else if (!l.empty() && l.find("Run was aborted") == std::string::npos) {
            lines.push_back(l); // the message line before "client N aborted ..."
        }
    }
    std::sort(lines.begin(), lines.end());
    return lines;
}

TEST(ScriptDifferentialTest, RandomExpressionsMatchPgbench) {
    ExprGenerator gen(20240611);
    size_t compared = 0;
    for (int s = 0; s < k_scripts; ++s) {
        const std::string file =
            write_script("differential_" + std::to_string(s) + ".sql", make_script(gen));
        for (const char* seed : {"5432", "1", "987654321"}) {
            const std::string options = std::string("-n -t 1 -c ") + std::to_string(k_clients)
                                        + " --random-seed=" + seed + " " + k_defines;
            const Outcome pg = run_tool(Tool::pgbench, options, {file});
            const Outcome lab = run_tool(Tool::pglab, options, {file});
            SCOPED_TRACE(file + " seed " + seed);
            EXPECT_EQ(pg.exit_code, lab.exit_code);
            const auto want = comparable_lines(pg.err);
            const auto got = comparable_lines(lab.err);
            EXPECT_EQ(want, got);
            compared += debug_lines(pg.err).size();
        }
    }
    EXPECT_GT(compared, 300U);
}

} // namespace
} // namespace pglab::script_compat
