// lab/experiment: the validated experiment, as read from an experiment file: servers, sessions,
// scripts, the parameter matrix, the steps of each run, repetitions and order. Plain data that
// the plan and the orchestrator read; every part keeps where it was written. No I/O.
#pragma once

#include "lab/experiment/cell_selector.hpp"
#include "lab/experiment/filter_expr.hpp"
#include "lab/experiment/scalar.hpp"
#include "lab/experiment/source_pos.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::experiment {

/// A string from the file that may hold `${name}` references (checked at parse time: every
/// name is defined), expanded per run with expand_template().
struct TextField {
    std::string text;
    SourcePos pos; ///< of the string value (its opening quote)
};

/// One postgresql.conf setting: `name = value`.
struct Setting {
    std::string name; ///< as written (PostgreSQL setting names are case-insensitive)
    Scalar value;
    SourcePos pos; ///< of the name
};

enum class AuthMode {
    trust,        ///< trust on the private unix socket (and loopback when `tcp`)
    scram_sha_256 ///< scram-sha-256 everywhere, with a password pglab generates
};

/// A PostgreSQL server of the experiment: a cluster pglab creates (from an installation), or an
/// existing server reached by conninfo (then nothing is created, started or restarted, and
/// settings needing a restart are refused by the orchestrator).
struct ServerSpec {
    std::string name;      ///< the key of `[servers.NAME]`; "default" for the embedded default
    SourcePos pos;         ///< of the `[servers.NAME]` header; unknown for the embedded default
    bool implicit = false; ///< the embedded default (the file has no `[servers]`)

    std::string version; ///< "16", "17.8": resolved by the orchestrator; "" = not given
    std::string bin_dir; ///< an installation's bin directory; "" = not given
    /// A PostgreSQL source tree that pglab builds before the first run (`pglab server build`),
    /// resolved against the experiment file's directory; "" = not given.
    std::string source;
    /// The command that makes `source` when it is missing ("scripts/patch-ab-trees"), named
    /// when it is; "" = not given.
    std::string source_made_by;
    std::vector<std::string> configure; ///< the build's configure (or meson) options
    ///< none of version, bin_dir and source: the newest installation found
    SourcePos
        installation_pos; ///< of the `version`, `bin_dir` or `source` value; unknown when none

    std::string conninfo; ///< non-empty: an existing server; the fields below are then unset

    std::vector<Setting> settings;         ///< postgresql.conf, in file order
    std::vector<TextField> initdb_options; ///< extra initdb arguments ("--data-checksums")
    std::string data_dir;                  ///< parent directory of the cluster; "" = temporary
    AuthMode auth = AuthMode::trust;
    bool tcp = false;                                             ///< also listen on 127.0.0.1
    std::vector<std::pair<std::string, std::string>> environment; ///< extra server environment
    /// Slower syncs (microseconds; 0 counts syncs without delaying them): the server runs with
    /// pglab's sync-delay preload library. nullopt: as it is.
    std::optional<std::int64_t> sync_delay_us;
    /// The server's own memory cgroup with this limit (bytes). nullopt: none.
    std::optional<std::uint64_t> memory_limit_bytes;
    SourcePos memory_limit_pos; ///< of the value, for the "impossible here" error
    /// Archive WAL into the cluster's own directory; its standbys restore from it.
    bool archive = false;
    std::string standby_of; ///< a replica of this server; "" = a primary
    SourcePos standby_of_pos;

    bool is_existing() const { return !conninfo.empty(); }
};

/// A server's emulated machine in words: "memory limit 768 MiB, each sync +2 ms"; "" for none.
/// The memory limit in binary units, as PostgreSQL and the file write it.
std::string describe_emulation(std::optional<std::uint64_t> memory_limit_bytes,
                               std::optional<std::int64_t> sync_delay_us);

/// A named SQL session (one connection kept open across steps of a run). The session "default"
/// always exists for each server and need not be declared.
struct SessionSpec {
    std::string name;
    std::string server;   ///< "" = the run's server
    std::string database; ///< "" = the server's default database
    SourcePos pos;
};

/// A pgbench-language script, written inline or read from a file when the spec was parsed.
struct ScriptSpec {
    std::string name;
    std::string text; ///< the script itself
    std::string file; ///< the file it came from, resolved against the experiment's directory
    SourcePos pos;
};

/// What a matrix variable controls.
enum class VariableKind {
    clients,      ///< bench --client
    threads,      ///< bench --jobs
    scale,        ///< init --scale
    rate,         ///< bench --rate
    duration,     ///< bench --time (seconds)
    transactions, ///< bench --transactions
    server,       ///< which `[servers.NAME]` the run uses
    setting,      ///< `settings.NAME`: a postgresql.conf setting of the run's server
    script_var,   ///< `vars.NAME`: a script variable (bench --define NAME=value)
    param         ///< `params.NAME`: only substituted into step fields with `${params.NAME}`
};

/// One axis of the matrix.
struct MatrixVariable {
    std::string name; ///< full name: "clients", "settings.shared_buffers", "vars.nrows"
    VariableKind kind = VariableKind::param;
    std::string key; ///< the part after the dot for setting/script_var/param; else == name
    std::vector<Scalar> values; ///< at least one, no duplicates, in file order
    SourcePos pos;              ///< of the key
};

/// The parameter matrix: cells are the cross product of the variables' values, the first
/// variable varying slowest, keeping those for which `filter` is true.
struct Matrix {
    std::vector<MatrixVariable> variables; ///< in file order
    std::optional<FilterExpr> filter;
    SourcePos filter_pos;

    /// The variable with full name `name`, or null.
    const MatrixVariable* find(std::string_view name) const;
};

enum class StepType {
    init,       ///< pgbench -i with `options`
    sql,        ///< `statements` in `session`
    bench,      ///< pglab bench with `options` and `scripts`
    timed_sql,  ///< one statement, timed by the client and with probes
    explain,    ///< EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of one statement
    restart,    ///< restart the server (`mode`)
    stop,       ///< stop the server (`mode`)
    start,      ///< start a stopped server
    promote,    ///< promote a standby
    checkpoint, ///< CHECKPOINT
    sleep,      ///< wait `duration_ms`
    shell       ///< `command` through /bin/sh -c, logged
};

/// The name of a step type as written in files ("timed-sql").
const char* step_type_name(StepType type);

/// The step type named `name` in a file or a results line; nullopt for a name this pglab does
/// not know (a line written by a newer one).
std::optional<StepType> step_type_named(std::string_view name);

/// Whether probes can be taken around a step of this type (`measure`, `sample_waits`): the steps
/// that run statements or commands against a server, not those that stop, start or wait.
bool is_measurable(StepType type);

/// A bench script chosen by a bench step, with its weight (pgbench `-f name@weight`).
struct ScriptRef {
    std::string name; ///< a `[scripts.NAME]`, or "builtin:tpcb-like" and the like
    std::int64_t weight = 1;
    SourcePos pos;
};

/// One step of every run. Which fields matter depends on `type` (see docs/experiments.md);
/// the others stay at their defaults.
struct Step {
    StepType type = StepType::sql;
    std::string name;               ///< unique when given; "" = none (reports use "<index>:<type>")
    SourcePos pos;                  ///< of the `[[steps]]` table
    std::string server;             ///< "" = the run's server
    std::string session;            ///< sql, timed-sql, explain; "" = "default"
    std::optional<FilterExpr> when; ///< run the step only in cells where this holds
    SourcePos when_pos;
    /// Not in the paper's procedure: why pglab runs it ("" = it is the paper's). With `when`,
    /// the cells it runs in are labelled as departing from the paper.
    std::string deviation;
    /// The rows of docs/studies/coverage.md the step's checks cover ("0.58").
    std::vector<std::string> items;

    std::vector<TextField> statements; ///< sql: one or more; timed-sql, explain: exactly one
    std::vector<TextField> options;    ///< init, bench: arguments ("--client=4", "-n")
    std::vector<ScriptRef> scripts;    ///< bench
    int processes = 1;                 ///< bench: > 1 runs it through mpirun (docs/fleet.md)
    std::vector<std::string> hosts;    ///< bench: mpirun --host (empty: this machine)
    TextField command;                 ///< shell
    std::int64_t duration_ms = 0;      ///< sleep
    std::int64_t timeout_ms = 0;       ///< sql, timed-sql, explain, shell; 0 = none
    std::string mode = "fast";         ///< restart, stop: "smart" | "fast" | "immediate"
    bool wait = true;                  ///< sql: false = send and go on without the result
    /// sql: the statements must fail with this SQLSTATE (five characters, "23P01") or with an
    /// error whose message contains this text.
    std::string expect_error;
    /// sql: the first column of the first row of the last statement's result, as text, must
    /// equal this (functional checks: `expect = "100"`); `${name}` is expanded
    std::optional<TextField> expect;
    /// sql: the rows of the last statement's result, each a list of its columns as text (a
    /// one-column row may be written as a plain value), in order; `${name}` is expanded
    std::optional<std::vector<std::vector<TextField>>> expect_rows;
    SourcePos expect_rows_pos;
    /// sql: the last statement must still be waiting this long after it was sent (blocked by
    /// another session); it is left running, and the session's next use waits for it. 0 = none.
    std::int64_t expect_blocked_ms = 0;
    std::vector<std::string> expect_plan; ///< explain: node types the plan must all contain

    bool analyze = true; ///< explain
    bool measure = true; ///< probes around this step (false: not recorded)
    /// measured steps: pg_stat_activity sampled this often during the step, its wait events
    /// recorded with the probes (docs/probes.md, "Wait events"); 0 = not sampled
    std::int64_t sample_waits_ms = 0;
    /// false: the step runs in every run. true: it runs on a server only when it has not run
    /// there yet with the same expanded fields (see RunValues::fingerprint): `init` with
    /// `--scale=${scale}` runs once per server and scale, not before every run.
    bool once = false;
};

enum class RunOrder {
    as_written,  ///< cell after cell in matrix order, each cell's repetitions together
    random,      ///< every run of the plan shuffled with the seed
    interleaved, ///< rounds: each round runs every cell once, cells shuffled per round
    /// rounds as interleaved, in which the cells a claim compares run back to back (blocks in
    /// random order, cells in random order within them); a ratio is judged on the rounds' paired
    /// differences, which cancels drift. The default when a claim compares cells.
    paired
};

const char* run_order_name(RunOrder order);

/// The order named `name` ("as-written", "random", "interleaved", "paired"); none for another.
std::optional<RunOrder> run_order_named(std::string_view name);

enum class OnError {
    stop,     ///< a failed run ends the plan (it is recorded first)
    continue_ ///< a failed run is recorded and the plan goes on
};

/// How a claim's measured figure is made from the cells (docs/experiments.md, "Claims").
enum class ClaimKind {
    ratio,           ///< mean of `cell` over mean of `baseline`
    value,           ///< mean of `cell` itself
    shape,           ///< means of the cells along `over`: flat, increasing, decreasing, levels_off
    ratio_along,     ///< `cell` over `baseline` at each value of `over`, with a shape
    ratio_of_ratios, ///< `cell`/`baseline` over `divided_by_cell`/`divided_by_baseline`
    spread           ///< how much `cell`'s runs vary over how much `baseline`'s do
};

/// The trend a shape claim reads along `over`.
enum class Shape : std::uint8_t {
    none,       ///< not a shape
    flat,       ///< every level within ±tolerance of the first
    increasing, ///< every step up by at least min_step
    decreasing, ///< every step down by at least min_step
    levels_off, ///< rises, then flat within ±tolerance
};

/// "flat", "increasing", "decreasing", "levels_off" ("" for none): as files and exports name it.
const char* shape_name(Shape shape);

/// The shape `name` names; none for a name no shape has.
Shape shape_named(std::string_view name);

/// "ratio", "value", "shape", "ratio_along", "ratio_of_ratios", "spread": the kind as exports
/// and plan.json name it.
const char* claim_kind_name(ClaimKind kind);

/// The kind named `name`; nullopt for another name.
std::optional<ClaimKind> claim_kind_named(std::string_view name);

/// What a study's source claims, to be set beside the measured figure with a verdict. Cells
/// are named by selectors "NAME=VALUE NAME=VALUE" over the matrix variables (and `server`).
struct Claim {
    std::string text;   ///< the claim in words: "12 writes 45% less WAL than 11"
    SourcePos pos;      ///< of the `[[claims]]` table
    std::string source; ///< the paper or page it comes from; "" = not given
    std::string step;   ///< the step's name
    std::string metric; ///< a report metric id: "probe:wal.bytes", "tps", "execution_ms"
    ClaimKind kind = ClaimKind::value;
    /// ratio, ratio_along, ratio_of_ratios: the numerator; value: the cell; shape: the cells;
    /// spread: the cell whose spread is the numerator
    CellSelector cell;
    CellSelector baseline; ///< the denominator (of the ratio, or of the spreads)
    /// ratio_of_ratios: the ratio the first is divided by (its numerator and denominator)
    CellSelector divided_by_cell;
    CellSelector divided_by_baseline;
    std::optional<double> paper;    ///< the paper's figure (ratio or value)
    std::optional<double> at_most;  ///< a bound: the measured figure must be at most this
    std::optional<double> at_least; ///< a bound: the measured figure must be at least this
    /// Relative (0.1 = ±10% of `paper`; absolute when `paper` is 0); for shapes, how far a
    /// cell's mean may stray from flat or from the trend (relative to the neighbour).
    double tolerance = 0.1;
    /// The metric is a count the runs reproduce to the unit (WAL bytes of a fixed build): its
    /// value decides, one run suffices. Figures identical in every run are treated so anyway.
    bool exact = false;
    Shape shape = Shape::none;
    /// increasing, decreasing, levels_off: the least change of each step in the trend's
    /// direction, relative to the cell before (0.1: every step at least 10% up); 0: each step
    /// must be shown to go the trend's way. A plateau then does not pass for growth.
    double min_step = 0;
    std::string over; ///< shape: the matrix variable along which the shape is read
    std::string from; ///< shape: from this value of `over` on ("" = from the first)
    /// The paper's own words for what it claims (a quote, with where it stands); the report
    /// shows them beside the figure the claim tests. Empty for pglab's own hypotheses.
    std::string paper_text;
    /// pglab's own hypothesis (a mechanism, an emulation), not the paper's: shown in a column of
    /// its own, never under "paper".
    bool own = false;
    std::string explanation; ///< why it may differ here; shown with "differs"
    /// What the explanation rests on: a metric of the claim's step whose figures the report
    /// shows beside it ("probe:wal.fpi"); or, with `hypothesis`, nothing measured yet.
    std::string evidence;
    bool hypothesis = false;
    std::string untestable; ///< non-empty: it cannot be tested here, and why
    /// The rows of docs/studies/coverage.md the claim tests ("2.28").
    std::vector<std::string> items;

    bool operator==(const Claim&) const = default;
};

/// `repeat = { min = 3, max = 15, until = "decided", budget = "1h" }`: `min` rounds first (the
/// spec's `repeat`); then, while a claim is undecided, rounds of only the cells its verdict reads,
/// until each claim is decided, a cell has `max` measured runs, or `budget` has passed since the
/// run started.
struct RepeatUntilDecided {
    std::uint32_t max = 0;
    std::int64_t budget_ms = 0; ///< 0: none
    SourcePos pos;              ///< of `repeat`
};

/// `[quick]`: a shorter form of the experiment for `pglab run --quick`: fewer repetitions,
/// other values of some matrix variables (smaller scale, shorter duration, fewer clients).
/// `[quick.servers.NAME]`: the emulated machine scaled down with the data, so that a quick form
/// keeps the full study's shape (a quarter of the data in a quarter of the memory).
struct QuickServer {
    std::string name;
    SourcePos pos;
    std::optional<std::uint64_t> memory_limit_bytes;
    SourcePos memory_limit_pos;
    std::optional<std::int64_t> sync_delay_us;
};

struct QuickForm {
    bool declared = false;
    SourcePos pos;
    std::optional<std::uint32_t> repeat; ///< given: replaces `repeat` and `until_decided`
    std::optional<RepeatUntilDecided> until_decided;
    std::optional<std::uint32_t> warmup;
    std::optional<std::int64_t> run_timeout_ms;
    std::vector<MatrixVariable> matrix; ///< replaces the values of these matrix variables
    std::optional<FilterExpr> filter;   ///< replaces the matrix filter
    std::vector<QuickServer> servers;   ///< replaces these servers' memory limit or sync delay
};

/// The whole experiment.
struct ExperimentSpec {
    std::string file; ///< the path as given (messages use it)
    std::string name; ///< `name`, or the file's stem
    std::string description;

    std::vector<ServerSpec> servers; ///< at least one (the embedded default if none declared)
    std::string default_server;      ///< the server a run uses when the matrix has no `server`
    std::vector<SessionSpec> sessions;
    std::vector<ScriptSpec> scripts;
    Matrix matrix;
    std::vector<Step> steps; ///< at least one

    std::uint32_t repeat = 1; ///< measured runs of each cell (the least, with until_decided)
    std::optional<RepeatUntilDecided> until_decided; ///< more rounds while claims are undecided
    std::uint32_t warmup = 0; ///< flagged runs of each cell before its first measured run
    RunOrder order = RunOrder::as_written;
    /// The file says `order`; else `order` is the default (paired when a claim compares cells),
    /// which a resumed directory made under another default does not follow.
    bool order_given = false;
    std::optional<std::uint64_t> seed; ///< none: the orchestrator picks one and records it
    OnError on_error = OnError::stop;
    std::int64_t run_timeout_ms = 0; ///< 0 = none
    /// Before each run's first step: a CHECKPOINT, then a bounded wait until no other session
    /// is active and autovacuum is idle, so that runs start alike (`settle = false`: as the
    /// last run left the server, for a study whose paper ran so).
    bool settle = true;
    /// Steps may drop tables on servers pglab did not create (an init step on a `conninfo`
    /// server), without `pglab run --yes`.
    bool destructive_ok = false;

    std::string question;      ///< what the study asks; the report opens with it
    std::vector<Claim> claims; ///< what its source claims, in file order
    QuickForm quick;           ///< `[quick]`; applied by parsing with ParseOptions::quick
    bool is_quick = false;     ///< the quick form was applied

    /// The server named `n`, or null.
    const ServerSpec* find_server(std::string_view n) const;

    /// The script named `n`, or null.
    const ScriptSpec* find_script(std::string_view n) const;
};

} // namespace pglab::lab::experiment
