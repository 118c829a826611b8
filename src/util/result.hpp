// Result<T>: a value or an Error, for everything a user can cause (options, scripts, files,
// connections). Member names follow std::expected so it can become that under C++23.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace pglab {

/// A user-facing failure. `message` is printed as "pglab: error: <message>"; `detail` and
/// `hint` (when not empty) follow as "pglab: detail: ..." / "pglab: hint: ..."; `trailer` is
/// printed verbatim afterwards (pgbench's offending script line and caret).
struct Error {
    std::string message;
    std::string detail;
    std::string hint;
    std::string trailer;
    int exit_code = 1; ///< process exit status when this error ends the program

    Error() = default;

    explicit Error(std::string msg) : message(std::move(msg)) {}

    Error(std::string msg, std::string det) : message(std::move(msg)), detail(std::move(det)) {}

    Error& with_detail(std::string d) {
        detail = std::move(d);
        return *this;
    }

    Error& with_hint(std::string h) {
        hint = std::move(h);
        return *this;
    }

    Error& with_exit_code(int code) {
        exit_code = code;
        return *this;
    }
};

/// Wraps an Error so that `return Unexpected{...}` converts into any Result<T>.
struct Unexpected {
    Error error;
};

inline Unexpected make_error(std::string message) {
    return Unexpected{Error(std::move(message))};
}

inline Unexpected make_error(Error e) {
    return Unexpected{std::move(e)};
}

template <class T>
class Result {
public:
    Result(T value) : m_v(std::in_place_index<0>, std::move(value)) {}

    Result(Unexpected u) : m_v(std::in_place_index<1>, std::move(u.error)) {}

    Result(Error e) : m_v(std::in_place_index<1>, std::move(e)) {}

    bool has_value() const { return m_v.index() == 0; }

    explicit operator bool() const { return has_value(); }

    T& value() & { return std::get<0>(m_v); }

    const T& value() const& { return std::get<0>(m_v); }

    T&& value() && { return std::get<0>(std::move(m_v)); }

    T& operator*() & { return value(); }

    const T& operator*() const& { return value(); }

    T* operator->() { return &value(); }

    const T* operator->() const { return &value(); }

    const Error& error() const { return std::get<1>(m_v); }

    Error& error() { return std::get<1>(m_v); }

    /// The value, or `fallback` on error (as std::expected::value_or).
    T value_or(T fallback) && { return has_value() ? std::move(value()) : std::move(fallback); }

private:
    std::variant<T, Error> m_v;
};

/// Result<void>: success or an Error.
template <>
class Result<void> {
public:
    Result() = default;

    Result(Unexpected u) : m_error(std::move(u.error)), m_failed(true) {}

    Result(Error e) : m_error(std::move(e)), m_failed(true) {}

    bool has_value() const { return !m_failed; }

    explicit operator bool() const { return !m_failed; }

    const Error& error() const { return m_error; }

    Error& error() { return m_error; }

private:
    Error m_error;
    bool m_failed = false;
};

using Status = Result<void>;

} // namespace pglab

/// Returns the error of `expr` from the enclosing function when it failed.
#define PGLAB_TRY(expr)                                                                            \
    do {                                                                                           \
        auto pglab_try_result_ = (expr);                                                           \
        if (!pglab_try_result_) {                                                                  \
            return ::pglab::Unexpected{std::move(pglab_try_result_.error())};                      \
        }                                                                                          \
    } while (false)

#define PGLAB_CONCAT_INNER_(a, b) a##b
#define PGLAB_CONCAT_(a, b) PGLAB_CONCAT_INNER_(a, b)

/// Declares `var` from the value of `expr`, or returns its error from the enclosing function.
#define PGLAB_TRY_ASSIGN(var, expr)                                                                \
    PGLAB_TRY_ASSIGN_IMPL_(PGLAB_CONCAT_(pglab_r_, __LINE__), var, expr)
#define PGLAB_TRY_ASSIGN_IMPL_(tmp, var, expr)                                                     \
    auto tmp = (expr);                                                                             \
    if (!tmp) {                                                                                    \
        return ::pglab::Unexpected{std::move(tmp.error())};                                        \
    }                                                                                              \
    var = std::move(tmp.value())
