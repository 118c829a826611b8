// lab/run: how long an experiment's steps took when it last ran, read from its stored results
// (the user's `results/NAME-*` directories, or the runs a repository keeps beside its
// experiments in docs/studies/results/ID/runs), so that --dry-run can tell how long the plan
// will take where the file alone cannot (an init, a statement, a bench by transaction count).
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pglab::lab::run {

/// The measured times of one earlier run of an experiment.
struct StoredTimes {
    std::filesystem::path dir; ///< the results directory read (plan.json and results.jsonl[.gz])
    std::string date;          ///< its plan's date ("2026-12-06")
    bool quick = false;        ///< its runs were of the quick form
    std::size_t runs = 0;      ///< its finished runs whose times are read
    /// The mean time of a run outside its steps: making and starting servers, restarts for the
    /// cell's settings, settling, pglab's own bookkeeping.
    double server_ms_per_run = 0;
    /// The mean time of each step (by key) in each cell (by label) where it ran and succeeded,
    /// and over every cell: means, since the plan's time is their sum.
    std::map<std::string, std::map<std::string, double>> step_cell_ms;
    std::map<std::string, double> step_ms;
    /// For bench steps, the same per successful transaction (its time over its transactions):
    /// a bench by transaction count of another size (the other form's) scales by it.
    std::map<std::string, std::map<std::string, double>> transaction_cell_ms;
    std::map<std::string, double> transaction_ms;

    /// The time of step `key` in the cell labelled `label`, else over every cell; nullopt when
    /// it never ran ok.
    std::optional<double> time_of(const std::string& key, const std::string& label) const;
    /// The time of one transaction of bench step `key`, as time_of() finds it.
    std::optional<double> transaction_time_of(const std::string& key,
                                              const std::string& label) const;
};

/// How long pgbench's initialisation takes against its scale, fitted (least squares) to the init
/// steps that earlier runs of any experiment recorded: the model for an init that no earlier run
/// of the experiment itself timed.
struct InitModel {
    double fixed_ms = 0;     ///< the time at scale 0 (connecting, creating, vacuuming)
    double ms_per_scale = 0; ///< and per scale unit (100,000 accounts)
    std::size_t inits = 0;   ///< the init steps it was fitted to

    double time_at(int scale) const { return fixed_ms + ms_per_scale * scale; }
};

/// The model fitted to the init steps of `candidates`' runs; none without two of them.
std::optional<InitModel> fit_init_model(const std::vector<std::filesystem::path>& candidates);

/// The times of the results directory `dir` (holding plan.json), when it is the experiment
/// `name`'s and has a finished run; nullopt otherwise (another experiment, unreadable, empty).
std::optional<StoredTimes> read_stored_times(const std::filesystem::path& dir,
                                             const std::string& name);

/// Where earlier runs of the experiment in `experiment_file` may be: every directory of
/// `results/` under the current directory, and every docs/studies/results/ID/runs in the
/// experiment file's directory or the one above it.
std::vector<std::filesystem::path>
stored_results_dirs(const std::filesystem::path& experiment_file);

/// The newest of `candidates` with runs of the experiment `name` (the quick form's name when
/// `quick`), else the newest with runs of its other form (NAME and NAME-quick).
std::optional<StoredTimes> newest_stored_times(const std::vector<std::filesystem::path>& candidates,
                                               const std::string& name, bool quick);

} // namespace pglab::lab::run
