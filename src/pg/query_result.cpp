// PGresult ownership and the mapping of libpq's result statuses and SQLSTATEs.
#include "pg/query_result.hpp"

#include <libpq-fe.h>

#include <cstring>
#include <utility>

namespace pglab::pg {

namespace {

constexpr const char* k_serialization_failure = "40001";
constexpr const char* k_deadlock_detected = "40P01";

} // namespace

QueryResult::~QueryResult() {
    if (m_res != nullptr) {
        PQclear(m_res);
    }
}

QueryResult::QueryResult(QueryResult&& other) noexcept
    : m_res(std::exchange(other.m_res, nullptr)) {}

QueryResult& QueryResult::operator=(QueryResult&& other) noexcept {
    if (this != &other) {
        if (m_res != nullptr) {
            PQclear(m_res);
        }
        m_res = std::exchange(other.m_res, nullptr);
    }
    return *this;
}

ResultStatus QueryResult::status() const {
    if (m_res == nullptr) {
        return ResultStatus::none;
    }
    switch (PQresultStatus(m_res)) {
    case PGRES_COMMAND_OK:
        return ResultStatus::command_ok;
    case PGRES_TUPLES_OK:
    case PGRES_SINGLE_TUPLE:
        return ResultStatus::tuples_ok;
    case PGRES_COPY_IN:
        return ResultStatus::copy_in;
    case PGRES_COPY_OUT:
        return ResultStatus::copy_out;
    case PGRES_COPY_BOTH:
        return ResultStatus::copy_both;
    case PGRES_PIPELINE_SYNC:
        return ResultStatus::pipeline_sync;
    case PGRES_PIPELINE_ABORTED:
        return ResultStatus::pipeline_aborted;
    case PGRES_EMPTY_QUERY:
        return ResultStatus::empty_query;
    case PGRES_FATAL_ERROR:
        return ResultStatus::fatal_error;
    case PGRES_NONFATAL_ERROR:
        return ResultStatus::nonfatal_error;
    default:
        return ResultStatus::other;
    }
}

const char* QueryResult::sqlstate() const {
    if (m_res == nullptr) {
        return "";
    }
    const char* state = PQresultErrorField(m_res, PG_DIAG_SQLSTATE);
    return state != nullptr ? state : "";
}

ErrorClass QueryResult::error_class() const {
    const ResultStatus st = status();
    if (st != ResultStatus::fatal_error && st != ResultStatus::nonfatal_error
        && st != ResultStatus::pipeline_aborted) {
        return ErrorClass::none;
    }
    return classify_sqlstate(sqlstate());
}

ErrorClass classify_sqlstate(const char* sqlstate) {
    if (sqlstate == nullptr) {
        return ErrorClass::other;
    }
    if (std::strcmp(sqlstate, k_serialization_failure) == 0) {
        return ErrorClass::serialization;
    }
    if (std::strcmp(sqlstate, k_deadlock_detected) == 0) {
        return ErrorClass::deadlock;
    }
    return ErrorClass::other;
}

const char* QueryResult::error_message() const {
    return m_res != nullptr ? PQresultErrorMessage(m_res) : "";
}

int QueryResult::ntuples() const {
    return m_res != nullptr ? PQntuples(m_res) : 0;
}

int QueryResult::nfields() const {
    return m_res != nullptr ? PQnfields(m_res) : 0;
}

const char* QueryResult::field_name(int col) const {
    return PQfname(m_res, col);
}

const char* QueryResult::value(int row, int col) const {
    return PQgetvalue(m_res, row, col);
}

int QueryResult::length(int row, int col) const {
    return PQgetlength(m_res, row, col);
}

bool QueryResult::is_null(int row, int col) const {
    return PQgetisnull(m_res, row, col) != 0;
}

} // namespace pglab::pg
