// `pglab run`: arguments, then lab::run::run_experiment (docs/experiments.md,
// docs/results-format.md).
#include "cli/run_command.hpp"

#include "cli/command_line.hpp"
#include "cli/run_answer.hpp"
#include "cli/server_command.hpp"
#include "lab/report/results.hpp"
#include "lab/run/orchestrator.hpp"
#include "util/log.hpp"

#include <charconv>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pglab::cli {

namespace {

constexpr const char* k_run_synopsis =
    R"(pglab run executes an experiment file, keeps every result, writes the report and prints
the answer: each claim's verdict, figure and 95% interval.

Usage:
  pglab run EXPERIMENT.toml [--quick] [--results DIR] [--seed N] [--dry-run] [--yes]
  pglab run --resume DIR
)";

constexpr const char* k_run_epilogue =
    R"(Exit status: 0 every run ok; 1 a bad experiment, a run that failed or timed out, or a server
that could not be made; 2 interrupted (SIGINT, SIGTERM): continue with --resume.

A PostgreSQL version that is not installed is fetched first (as "pglab server fetch").

The experiment file format: docs/experiments.md; the results: docs/results-format.md.
)";

/// The exit status of a plan that ended as `outcome`.
int exit_status(lab::run::PlanOutcome outcome) {
    switch (outcome) {
    case lab::run::PlanOutcome::complete:
        return 0;
    case lab::run::PlanOutcome::interrupted:
        return 2;
    case lab::run::PlanOutcome::not_started:
    case lab::run::PlanOutcome::failed:
        break;
    }
    return 1;
}

/// A seed: a decimal integer from 0 to 2^64 - 1.
std::optional<std::uint64_t> parse_seed(const std::string& text) {
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return n;
}

} // namespace

namespace {

/// `pglab run`'s command line, as given (the flags go to the request itself).
struct RunArgs {
    std::optional<std::string> results;
    std::optional<std::string> resume;
    std::optional<std::string> seed;
    std::optional<std::string> estimate_from;
    bool no_report = false;
    std::vector<std::string> operands;
};

void declare_run_options(CommandLine& line, RunArgs& args, lab::run::RunRequest& request) {
    line.option("--results", args.results,
                {"DIR", "a directory", "write the results into DIR", "results/<name>-<timestamp>"});
    line.option("--resume", args.resume,
                {"DIR",
                 "a directory",
                 "continue the interrupted plan recorded in DIR (only unfinished runs)",
                 {}});
    line.option("--seed", args.seed,
                {"N", "a non-negative integer", "seed of random and interleaved orders",
                 "the file's seed, else a random one; plan.json keeps it"});
    line.flag("--dry-run", request.dry_run,
              "check the file, print the plan and an estimate of its time; start nothing (a "
              "missing version is named, not fetched)");
    line.option("--estimate-from", args.estimate_from,
                {"DIR", "a directory",
                 "estimate --dry-run's time from the runs in DIR (an earlier run's results)",
                 "the newest earlier run found in results/ or docs/studies/results/"});
    line.flag("--quick", request.quick,
              "run the file's quick form ([quick]: fewer runs, smaller sizes)");
    line.flag("--no-report", args.no_report,
              "end without writing the report (report.md, report.html) and printing the claims' "
              "verdicts; `pglab report DIR` writes it later");
    line.flag("--yes", request.yes,
              "let steps drop tables on servers pglab did not create (an init step on a "
              "conninfo server; --dry-run lists what each step does there)");
    line.operands(args.operands);
}

/// The request the arguments make; the exit status when they do not make one.
std::optional<int> fill_request(CommandLine& line, const RunArgs& args,
                                lab::run::RunRequest& request) {
    if (args.seed) {
        request.seed = parse_seed(*args.seed);
        if (!request.seed) {
            return line.usage_error("invalid value \"" + *args.seed + "\" for option --seed");
        }
    }
    if (args.operands.size() > 1) {
        return line.usage_error("too many arguments");
    }
    request.experiment = args.operands.empty() ? std::string() : args.operands.front();
    request.resume_dir = args.resume.value_or("");
    request.results_dir = args.results.value_or("");
    request.estimate_from = args.estimate_from.value_or("");
    if (!request.estimate_from.empty() && !request.dry_run) {
        return line.usage_error("--estimate-from is for --dry-run");
    }
    if (request.resume_dir.empty() == request.experiment.empty()) {
        return line.usage_error(request.resume_dir.empty()
                                    ? "no experiment file given"
                                    : "--resume takes the experiment from the results directory");
    }
    if (!request.resume_dir.empty()
        && (!request.results_dir.empty() || request.seed || request.quick)) {
        return line.usage_error("--resume cannot be combined with --results, --seed or --quick");
    }
    return std::nullopt;
}

/// What the lab asks of the commands above it: fetching a release.
void lend_services(lab::run::RunRequest& request) {
    request.fetch_version = [](const std::string& version, bool only_look) {
        return only_look ? server_release_exists(version) : fetch_server_version(version) == 0;
    };
}

} // namespace

int run_command(int argc, char** argv) {
    lab::run::RunRequest request;
    RunArgs args;
    CommandLine line("run", k_run_synopsis, k_run_epilogue);
    declare_run_options(line, args, request);
    if (const auto done = line.parse(argc, argv)) {
        return *done;
    }
    if (const auto refused = fill_request(line, args, request)) {
        return *refused;
    }
    lend_services(request);
    const lab::run::RunOutcome outcome = lab::run::run_experiment(request);
    const bool ended = outcome.status == lab::run::PlanOutcome::complete
                       || outcome.status == lab::run::PlanOutcome::failed;
    if (ended && !args.no_report && !outcome.results_dir.empty()) {
        // The run's status stays the plan's: a report that cannot be written is said, and the
        // results are all there for `pglab report`.
        if (auto st = bring_answer(outcome.results_dir); !st) {
            log::warning("the report was not written: {}; `pglab report {}` writes it",
                         st.error().message, outcome.results_dir.string());
        }
    }
    return exit_status(outcome.status);
}

} // namespace pglab::cli
