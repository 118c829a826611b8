// Evaluation of expression trees with pgbench 15's semantics: NULL propagation, lazy AND/OR/CASE,
// int64 overflow checks, coercions and every function. Allocates nothing on success.
#include "script/expr.hpp"
#include "script/random.hpp"

#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>

namespace pglab::script {

namespace {

constexpr size_t k_max_fargs = 16;

const char* type_name(const Value& v) {
    switch (v.type) {
    case ValueType::null:
        return "null";
    case ValueType::boolean:
        return "boolean";
    case ValueType::integer:
        return "int";
    case ValueType::real:
        return "double";
    }
    return "none";
}

/// "%f" as PostgreSQL's snprintf prints it ("NaN", "Infinity", "-Infinity" when not finite).
std::string fmt_f(double d) {
    if (std::isnan(d)) {
        return "NaN";
    }
    if (std::isinf(d)) {
        return d < 0 ? "-Infinity" : "Infinity";
    }
    char buf[400];
    const int n = std::snprintf(buf, sizeof(buf), "%f", d);
    return std::string(buf, static_cast<size_t>(n));
}

/// The evaluator: returns false with `m_err` set on a runtime error.
class Evaluator {
public:
    explicit Evaluator(EvalContext& ctx) : m_ctx(ctx) {}

    bool eval(const Expr& e, Value& out) {
        switch (e.kind) {
        case ExprKind::constant:
            out = e.constant;
            return true;
        case ExprKind::variable: {
            Result<Value> r = m_ctx.vars.get(e.var_slot);
            if (!r) {
                m_err.emplace(std::move(r.error()));
                return false;
            }
            out = *r;
            return true;
        }
        case ExprKind::function:
            if (e.func == Func::and_ || e.func == Func::or_ || e.func == Func::case_) {
                return eval_lazy(e, 0, out);
            }
            return eval_standard(e, out);
        }
        return false;
    }

    /// Set on failure only: an engaged Error costs four strings, the success path pays nothing.
    std::optional<Error> m_err;

private:
    bool error(std::string msg) {
        m_err.emplace(std::move(msg));
        return false;
    }

    bool to_bool(const Value& v, bool& b) {
        if (v.type == ValueType::boolean) {
            b = v.u.b;
            return true;
        }
        return error(std::string("cannot coerce ") + type_name(v) + " to boolean");
    }

    bool to_int(const Value& v, int64_t& i) {
        if (v.type == ValueType::integer) {
            i = v.u.i;
            return true;
        }
        if (v.type == ValueType::real) {
            const double d = std::rint(v.u.d);
            // FLOAT8_FITS_IN_INT64: [-2^63, 2^63)
            if (std::isnan(d) || !(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) {
                return error("double to int overflow for " + fmt_f(d));
            }
            i = static_cast<int64_t>(d);
            return true;
        }
        return error(std::string("cannot coerce ") + type_name(v) + " to int");
    }

    bool to_double(const Value& v, double& d) {
        if (v.type == ValueType::real) {
            d = v.u.d;
            return true;
        }
        if (v.type == ValueType::integer) {
            d = static_cast<double>(v.u.i);
            return true;
        }
        return error(std::string("cannot coerce ") + type_name(v) + " to double");
    }

    /// AND, OR and CASE starting at argument `first` (CASE recurses on its WHEN pairs).
    bool eval_lazy(const Expr& e, size_t first, Value& out) {
        Value a1;
        if (!eval(*e.args[first], a1)) {
            return false;
        }
        if (e.func == Func::case_) {
            if (truth(a1).value()) {
                return eval(*e.args[first + 1], out);
            }
            if (first + 3 == e.args.size()) {
                return eval(*e.args[first + 2], out); // the ELSE part
            }
            return eval_lazy(e, first + 2, out);
        }
        if (a1.type == ValueType::null) {
            out = Value::null();
            return true;
        }
        bool b1 = false;
        if (!to_bool(a1, b1)) {
            return false;
        }
        if (e.func == Func::and_ ? !b1 : b1) {
            out = Value::boolean(b1);
            return true;
        }
        Value a2;
        if (!eval(*e.args[first + 1], a2)) {
            return false;
        }
        if (a2.type == ValueType::null) {
            out = Value::null();
            return true;
        }
        bool b2 = false;
        if (!to_bool(a2, b2)) {
            return false;
        }
        out = Value::boolean(b2);
        return true;
    }

    bool eval_standard(const Expr& e, Value& out) {
        // Most calls have one to three arguments: don't initialise sixteen values for them.
        constexpr size_t k_usual_fargs = 4;
        if (e.args.size() <= k_usual_fargs) {
            Value args[k_usual_fargs];
            return eval_args_and_apply(e, args, out);
        }
        Value args[k_max_fargs];
        return eval_args_and_apply(e, args, out);
    }

    /// `args` has room for min(e.args.size(), k_max_fargs) values.
    bool eval_args_and_apply(const Expr& e, Value* args, Value& out) {
        size_t n = 0;
        bool has_null = false;
        for (; n < k_max_fargs && n < e.args.size(); ++n) {
            if (!eval(*e.args[n], args[n])) {
                return false;
            }
            has_null = has_null || args[n].type == ValueType::null;
        }
        if (n < e.args.size()) {
            return error("too many function arguments, maximum is 16");
        }
        if (has_null && e.func != Func::is && e.func != Func::debug) {
            out = Value::null();
            return true;
        }
        return apply(e.func, args, n, out);
    }

    bool arith(Func f, const Value& l, const Value& r, Value& out) {
        if ((l.type == ValueType::real || r.type == ValueType::real) && f != Func::mod) {
            double ld = 0;
            double rd = 0;
            if (!to_double(l, ld) || !to_double(r, rd)) {
                return false;
            }
            switch (f) {
            case Func::add:
                out = Value::real(ld + rd);
                break;
            case Func::sub:
                out = Value::real(ld - rd);
                break;
            case Func::mul:
                out = Value::real(ld * rd);
                break;
            case Func::div:
                out = Value::real(ld / rd);
                break;
            case Func::eq:
                out = Value::boolean(ld == rd);
                break;
            case Func::ne:
                out = Value::boolean(ld != rd);
                break;
            case Func::le:
                out = Value::boolean(ld <= rd);
                break;
            default:
                out = Value::boolean(ld < rd);
                break;
            }
            return true;
        }
        int64_t li = 0;
        int64_t ri = 0;
        if (!to_int(l, li) || !to_int(r, ri)) {
            return false;
        }
        int64_t res = 0;
        switch (f) {
        case Func::add:
            if (__builtin_add_overflow(li, ri, &res)) {
                return error("bigint add out of range");
            }
            out = Value::integer(res);
            return true;
        case Func::sub:
            if (__builtin_sub_overflow(li, ri, &res)) {
                return error("bigint sub out of range");
            }
            out = Value::integer(res);
            return true;
        case Func::mul:
            if (__builtin_mul_overflow(li, ri, &res)) {
                return error("bigint mul out of range");
            }
            out = Value::integer(res);
            return true;
        case Func::eq:
            out = Value::boolean(li == ri);
            return true;
        case Func::ne:
            out = Value::boolean(li != ri);
            return true;
        case Func::le:
            out = Value::boolean(li <= ri);
            return true;
        case Func::lt:
            out = Value::boolean(li < ri);
            return true;
        default:
            break;
        }
        // div and mod
        if (ri == 0) {
            return error("division by zero");
        }
        if (ri == -1) {
            if (f == Func::div) {
                if (li == INT64_MIN) {
                    return error("bigint div out of range");
                }
                out = Value::integer(-li);
            } else {
                out = Value::integer(0);
            }
            return true;
        }
        out = Value::integer(f == Func::div ? li / ri : li % ri);
        return true;
    }

    bool random_call(Func f, const Value* a, Value& out) {
        int64_t lo = 0;
        int64_t hi = 0;
        if (!to_int(a[0], lo) || !to_int(a[1], hi)) {
            return false;
        }
        int64_t delta = 0;
        if (lo > hi) {
            return error("empty range given to random");
        }
        if (__builtin_sub_overflow(hi, lo, &delta) || __builtin_add_overflow(delta, 1, &delta)) {
            return error("random range is too large");
        }
        Prng& prng = m_ctx.prng;
        if (f == Func::random) {
            out = Value::integer(random_uniform(prng, lo, hi));
            return true;
        }
        double param = 0;
        if (!to_double(a[2], param)) {
            return false;
        }
        if (f == Func::random_gaussian) {
            if (param < k_min_gaussian_param) {
                return error("gaussian parameter must be at least " + fmt_f(k_min_gaussian_param)
                             + " (not " + fmt_f(param) + ")");
            }
            out = Value::integer(random_gaussian(prng, lo, hi, param));
        } else if (f == Func::random_zipfian) {
            if (param < k_min_zipfian_param || param > k_max_zipfian_param) {
                return error("zipfian parameter must be in range [1.001, 1000] (not " + fmt_f(param)
                             + ")");
            }
            out = Value::integer(random_zipfian(prng, lo, hi, param));
        } else {
            if (param <= 0.0) {
                return error("exponential parameter must be greater than zero (not " + fmt_f(param)
                             + ")");
            }
            out = Value::integer(random_exponential(prng, lo, hi, param));
        }
        return true;
    }

    bool to_number(const Value& v, int64_t& i) { return to_int(v, i); }

    bool to_number(const Value& v, double& d) { return to_double(v, d); }

    /// least() or greatest() of `n` values coerced to T, as pgbench's Min/Max macros
    /// ((x) < (y) ? (x) : (y), (x) > (y) ? (x) : (y)) fold them.
    template <typename T>
    bool extreme(Func f, const Value* a, size_t n, T& ext) {
        if (!to_number(a[0], ext)) {
            return false;
        }
        for (size_t i = 1; i < n; ++i) {
            T v{};
            if (!to_number(a[i], v)) {
                return false;
            }
            ext = f == Func::least ? (ext < v ? ext : v) : (ext > v ? ext : v);
        }
        return true;
    }

    /// Double when any argument is a double, else integer.
    bool least_greatest(Func f, const Value* a, size_t n, Value& out) {
        if (std::any_of(a, a + n, [](const Value& v) { return v.type == ValueType::real; })) {
            double ext = 0;
            if (!extreme(f, a, n, ext)) {
                return false;
            }
            out = Value::real(ext);
            return true;
        }
        int64_t ext = 0;
        if (!extreme(f, a, n, ext)) {
            return false;
        }
        out = Value::integer(ext);
        return true;
    }

    void print_debug(const Value& v) {
        char buf[160];
        int n = std::snprintf(buf, sizeof(buf), "debug(script=%d,command=%d): ", m_ctx.script_index,
                              m_ctx.command_index);
        auto room = [&] { return sizeof(buf) - static_cast<size_t>(n); };
        switch (v.type) {
        case ValueType::null:
            n += std::snprintf(buf + n, room(), "null\n");
            break;
        case ValueType::boolean:
            n += std::snprintf(buf + n, room(), "boolean %s\n", v.u.b ? "true" : "false");
            break;
        case ValueType::integer:
            n += std::snprintf(buf + n, room(), "int %" PRId64 "\n", v.u.i);
            break;
        case ValueType::real:
            n += std::snprintf(buf + n, room(), "double ");
            n += format_double(v.u.d, buf + n, room());
            n += std::snprintf(buf + n, room(), "\n");
            break;
        }
        if (m_ctx.debug_capture != nullptr) {
            m_ctx.debug_capture->append(buf, static_cast<size_t>(n));
        } else {
            // One write so that client threads do not interleave their lines.
            [[maybe_unused]] ssize_t w = ::write(STDERR_FILENO, buf, static_cast<size_t>(n));
        }
    }

    bool apply(Func f, const Value* a, size_t n, Value& out) {
        switch (f) {
        case Func::add:
        case Func::sub:
        case Func::mul:
        case Func::div:
        case Func::mod:
        case Func::eq:
        case Func::ne:
        case Func::le:
        case Func::lt:
            return arith(f, a[0], a[1], out);
        case Func::bitand_:
        case Func::bitor_:
        case Func::bitxor:
        case Func::lshift:
        case Func::rshift: {
            int64_t l = 0;
            int64_t r = 0;
            if (!to_int(a[0], l) || !to_int(a[1], r)) {
                return false;
            }
            int64_t res = 0;
            switch (f) {
            case Func::bitand_:
                res = l & r;
                break;
            case Func::bitor_:
                res = l | r;
                break;
            case Func::bitxor:
                res = l ^ r;
                break;
            // C shifts as pgbench does them on x86-64 (the count is taken modulo 64).
            case Func::lshift:
                res = static_cast<int64_t>(static_cast<uint64_t>(l) << (r & 63));
                break;
            default:
                res = l >> (r & 63);
                break;
            }
            out = Value::integer(res);
            return true;
        }
        case Func::not_: {
            bool b = false;
            if (!to_bool(a[0], b)) {
                return false;
            }
            out = Value::boolean(!b);
            return true;
        }
        case Func::pi:
            out = Value::real(std::numbers::pi);
            return true;
        case Func::abs:
            if (a[0].type == ValueType::integer) {
                const int64_t i = a[0].u.i;
                // INT64_MIN stays INT64_MIN (wraps), as in pgbench.
                out =
                    Value::integer(i < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(i)) : i);
            } else {
                // pgbench reads the payload as a double whatever the type (abs(true) is a
                // denormal); reproduce that.
                double d = 0;
                __builtin_memcpy(&d, &a[0].u, sizeof(d));
                out = Value::real(d < 0.0 ? -d : d);
            }
            return true;
        case Func::debug:
            print_debug(a[0]);
            out = a[0];
            return true;
        case Func::double_:
        case Func::sqrt:
        case Func::ln:
        case Func::exp: {
            double d = 0;
            if (!to_double(a[0], d)) {
                return false;
            }
            if (f == Func::sqrt) {
                d = std::sqrt(d);
            } else if (f == Func::ln) {
                d = std::log(d);
            } else if (f == Func::exp) {
                d = std::exp(d);
            }
            out = Value::real(d);
            return true;
        }
        case Func::int_: {
            int64_t i = 0;
            if (!to_int(a[0], i)) {
                return false;
            }
            out = Value::integer(i);
            return true;
        }
        case Func::least:
        case Func::greatest:
            return least_greatest(f, a, n, out);
        case Func::random:
        case Func::random_exponential:
        case Func::random_gaussian:
        case Func::random_zipfian:
            return random_call(f, a, out);
        case Func::pow: {
            double l = 0;
            double r = 0;
            if (!to_double(a[0], l) || !to_double(a[1], r)) {
                return false;
            }
            out = Value::real(std::pow(l, r));
            return true;
        }
        case Func::is:
            // pgbench compares the type and the first byte of the payload only.
            out = Value::boolean(a[0].type == a[1].type && first_byte(a[0]) == first_byte(a[1]));
            return true;
        case Func::hash_fnv1a:
        case Func::hash_murmur2: {
            int64_t v = 0;
            int64_t seed = 0;
            if (!to_int(a[0], v) || !to_int(a[1], seed)) {
                return false;
            }
            out = Value::integer(f == Func::hash_murmur2
                                     ? hash_murmur2(v, static_cast<uint64_t>(seed))
                                     : hash_fnv1a(v, static_cast<uint64_t>(seed)));
            return true;
        }
        case Func::permute: {
            int64_t v = 0;
            int64_t size = 0;
            int64_t seed = 0;
            if (!to_int(a[0], v) || !to_int(a[1], size) || !to_int(a[2], seed)) {
                return false;
            }
            if (size <= 0) {
                return error("permute size parameter must be greater than zero");
            }
            out = Value::integer(permute(v, size, seed));
            return true;
        }
        case Func::and_:
        case Func::or_:
        case Func::case_:
            break;
        }
        return error("unexpected function in evaluation");
    }

    static unsigned char first_byte(const Value& v) {
        unsigned char b = 0;
        static_assert(sizeof(v.u) >= 1);
        __builtin_memcpy(&b, &v.u, 1);
        return b;
    }

    EvalContext& m_ctx;
};

} // namespace

Result<Value> evaluate(const Expr& e, EvalContext& ctx) {
    Evaluator ev(ctx);
    Value out;
    if (!ev.eval(e, out)) {
        return Unexpected{std::move(*ev.m_err)};
    }
    return out;
}

Result<bool> truth(const Value& v) {
    switch (v.type) {
    case ValueType::null:
        return false;
    case ValueType::boolean:
        return v.u.b;
    case ValueType::integer:
        return v.u.i != 0;
    case ValueType::real:
        return v.u.d != 0.0;
    }
    return false;
}

} // namespace pglab::script
