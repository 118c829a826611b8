// lab/store: plan.json (`pglab.plan/1`, docs/results-format.md) as a typed record: built once by
// the orchestrator before the first run and written through to_json; read by --resume, the
// report and compare through plan_record_from_json.
#pragma once

#include "lab/experiment/cell.hpp"
#include "lab/experiment/experiment_spec.hpp"
#include "util/machine_info.hpp"
#include "util/result.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pglab::lab::store {

constexpr const char* k_plan_version = "pglab.plan/1";

struct PlanServer {
    std::string name;
    std::string version; ///< as the experiment file gives it; "" none
    std::string bin_dir; ///< as the experiment file gives it; "" none
    bool existing = false;
    std::vector<std::string> initdb_options; ///< as the experiment file gives them
    /// The source tree the server is built from, absolute (a relative `source` resolved against
    /// the experiment file's directory when the plan was made, so that --resume, which reads the
    /// copy in the results directory, builds the same tree); "" none.
    std::string source;
    std::vector<std::string> configure; ///< the build's options, with `source`

    bool operator==(const PlanServer&) const = default;
};

struct PlanStep {
    std::size_t index = 0;
    std::string key; ///< its name, or "<index>:<type>"
    std::string name;
    std::string type;
    bool measure = false;
    bool once = false;
    std::string deviation; ///< why it departs from the paper; "" = it does not

    bool operator==(const PlanStep&) const = default;
};

/// A cell of the plan: a server and a value for each matrix variable, as the plan made it.
using experiment::Cell;

struct PlanRun {
    std::size_t run = 0; ///< the run's ordinal
    std::size_t cell = 0;
    std::uint32_t repetition = 0;
    bool warmup = false;
    std::uint32_t round = 0;

    bool operator==(const PlanRun&) const = default;
};

struct PlanRecord {
    std::string version = k_plan_version; ///< as read ("" when plan.json had none)
    std::string experiment;
    std::string description;
    std::string file; ///< the experiment file as given on the command line
    std::string pglab_version;
    /// util::build_commit() of the pglab that made the plan; "" in plans written before pglab
    /// recorded it, or by a build from outside a git checkout.
    std::string pglab_commit;
    std::string created_at;
    /// The machine that ran the plan; none in plans written before pglab recorded it.
    std::optional<util::MachineInfo> machine;
    std::optional<std::uint64_t> seed;
    std::string seed_source; ///< "file", "command line" or "chosen"
    std::string order;       ///< "as-written", "random" or "interleaved"
    std::optional<std::int64_t> repeat;
    /// A `repeat` until decided: the most measured runs of a cell, and the time budget (ms, 0:
    /// none); none for a fixed count. Its added rounds are in `runs`, after the first ones.
    std::optional<std::int64_t> repeat_max;
    std::optional<std::int64_t> repeat_budget_ms;
    std::optional<std::int64_t> warmup;
    bool quick = false;   ///< the file's quick form ran
    std::string on_error; ///< "stop" or "continue"
    std::vector<std::string> variables;
    std::vector<PlanServer> servers;
    std::vector<PlanStep> steps;
    std::vector<Cell> cells;
    std::vector<PlanRun> runs;
    /// The experiment's question and claims, typed as the file gave them (the report judges
    /// these); none in plans written before pglab recorded them: the report then reads the
    /// results' copy of the experiment file.
    std::optional<std::string> question;
    std::optional<std::vector<experiment::Claim>> claims;

    bool operator==(const PlanRecord&) const = default;
};

/// plan.json's object. Keys whose value the record does not have (an older plan's machine,
/// seed, repeat) are left out.
nlohmann::json to_json(const PlanRecord& plan);

/// The record of a plan.json object. Error when `j` is not an object; a field of another type
/// than the format's reads as absent.
Result<PlanRecord> plan_record_from_json(const nlohmann::json& j);

/// The plan.json at `path`, for every reader (--resume, the report, compare). Error when it
/// cannot be read or is not a JSON object.
Result<PlanRecord> read_plan(const std::filesystem::path& path);

/// A cell's values as plan.json and results.jsonl keep them: {NAME: value}.
nlohmann::json bindings_json(const std::vector<experiment::Binding>& bindings);

/// The bindings of a {NAME: value} object: the names of `order` first, in that order (the
/// matrix's: JSON objects do not keep one), then any others by name; non-scalar values left out.
std::vector<experiment::Binding> bindings_from(const nlohmann::json& values,
                                               const std::vector<std::string>& order);

/// The cell with index `index`, or nullptr.
const Cell* find_cell(const std::vector<Cell>& cells, std::int64_t index);

} // namespace pglab::lab::store
