// Finished runs for the report's tests, made as results.jsonl holds them: a line with the given
// step objects, read by the store's reader (so a test line the store would refuse fails here).
#pragma once

#include "lab/store/results_file.hpp"
#include "lab/store/run_record.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace pglab::lab::testing {

/// Run `run` of cell `cell` with the step objects `steps`, as read back from its results.jsonl
/// object; `file_line`: its line number.
inline store::FinishedRun finished_run(std::int64_t run, std::int64_t cell, nlohmann::json steps,
                                       bool ok = true, bool warmup = false,
                                       const std::string& label = "", std::size_t file_line = 0) {
    const nlohmann::json doc = {{"version", "pglab.run/1"},
                                {"run", static_cast<std::uint64_t>(run)},
                                {"cell", static_cast<std::uint64_t>(cell)},
                                {"label", label},
                                {"warmup", warmup},
                                {"status", ok ? "ok" : "failed"},
                                {"steps", std::move(steps)}};
    auto record = store::run_record_from_json(doc);
    if (!record) {
        throw std::invalid_argument("a test run the store refuses: " + record.error().message);
    }
    return {file_line, std::move(*record)};
}

/// The steps of a run that measured one timed-sql step `key` at `ms` (client and server alike).
inline nlohmann::json timed_sql_steps(const std::string& key, double ms) {
    return nlohmann::json::array({{{"index", 0},
                                   {"key", key},
                                   {"type", "timed-sql"},
                                   {"status", "ok"},
                                   {"client_ms", ms},
                                   {"server_ms", ms}}});
}

} // namespace pglab::lab::testing
