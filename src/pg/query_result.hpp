// RAII wrapper of a PGresult, with the status classes the engine needs.
#pragma once

#include <cstdint>
#include <string>

struct pg_result;

namespace pglab::pg {

enum class ResultStatus : uint8_t {
    none, ///< no result (end of a query's results)
    command_ok,
    tuples_ok,
    copy_in,
    copy_out,
    copy_both,
    pipeline_sync,
    pipeline_aborted,
    empty_query,
    fatal_error,
    nonfatal_error,
    other,
};

/// SQLSTATE classes pgbench distinguishes: retryable serialization failures (40001) and
/// deadlocks (40P01), everything else.
enum class ErrorClass : uint8_t { none, serialization, deadlock, other };

/// Class of an SQLSTATE string: "40001" serialization, "40P01" deadlock, anything else (also
/// nullptr) other.
ErrorClass classify_sqlstate(const char* sqlstate);

class QueryResult {
public:
    QueryResult() = default;

    explicit QueryResult(pg_result* r) : m_res(r) {}

    ~QueryResult();
    QueryResult(QueryResult&& other) noexcept;
    QueryResult& operator=(QueryResult&& other) noexcept;
    QueryResult(const QueryResult&) = delete;
    QueryResult& operator=(const QueryResult&) = delete;

    explicit operator bool() const { return m_res != nullptr; }

    ResultStatus status() const;

    /// SQLSTATE of an error result ("" if none).
    const char* sqlstate() const;

    ErrorClass error_class() const;

    /// Server error text as libpq formats it ("ERROR:  ...\n").
    const char* error_message() const;

    int ntuples() const;
    int nfields() const;
    const char* field_name(int col) const;
    const char* value(int row, int col) const;
    int length(int row, int col) const;
    bool is_null(int row, int col) const;

    pg_result* raw() const { return m_res; }

private:
    pg_result* m_res = nullptr;
};

} // namespace pglab::pg
