// `pglab run`: arguments, then lab::run::run_experiment (docs/experiments.md,
// docs/results-format.md).
#include "cli/run_command.hpp"

#include "cli/server_command.hpp"
#include "lab/run/orchestrator.hpp"
#include "util/log.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace pglab::cli {

namespace {

constexpr std::string_view k_run_help =
    R"(pglab run executes an experiment file and keeps every result.

Usage:
  pglab run EXPERIMENT.toml [--quick] [--results DIR] [--seed N] [--dry-run]
  pglab run --resume DIR

Options:
  --results DIR   write the results into DIR (default: results/<name>-<timestamp>)
  --resume DIR    continue the interrupted plan recorded in DIR (only unfinished runs)
  --seed N        seed of random and interleaved orders (overrides the file's seed)
  --dry-run       check the file, print the plan and an estimate of its time; start
                  nothing (a missing version is named, not fetched)
  --quick         run the file's quick form ([quick]: fewer runs, smaller sizes)
  --help          show this help

Exit status: 0 every run ok; 1 a bad experiment, a run that failed or timed out, or a server
that could not be made; 2 interrupted (SIGINT, SIGTERM): continue with --resume.

A PostgreSQL version that is not installed is fetched first (as "pglab server fetch").

The experiment file format: docs/experiments.md; the results: docs/results-format.md.
)";

int usage_error(const std::string& message) {
    log::error("{}", message);
    log::hint("Try \"pglab run --help\" for more information.");
    return 1;
}

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

} // namespace

int run_command(int argc, char** argv) {
    lab::run::RunRequest request;
    request.fetch_version = [](const std::string& version, bool only_look) {
        return only_look ? server_release_exists(version) : fetch_server_version(version) == 0;
    };
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        auto value = [&](std::string_view name) -> const char* {
            if (arg.size() > name.size() && arg.substr(0, name.size()) == name
                && arg[name.size()] == '=') {
                return argv[i] + name.size() + 1;
            }
            if (i + 1 < argc) {
                return argv[++i];
            }
            return nullptr;
        };
        auto starts = [&](std::string_view name) {
            return arg == name
                   || (arg.substr(0, name.size()) == name && arg.size() > name.size()
                       && arg[name.size()] == '=');
        };
        if (arg == "--help" || arg == "-?") {
            std::fputs(k_run_help.data(), stdout);
            return 0;
        }
        if (arg == "--dry-run") {
            request.dry_run = true;
        } else if (arg == "--quick") {
            request.quick = true;
        } else if (starts("--resume")) {
            const char* v = value("--resume");
            if (v == nullptr) {
                return usage_error("option --resume needs a directory");
            }
            request.resume_dir = v;
        } else if (starts("--results")) {
            const char* v = value("--results");
            if (v == nullptr) {
                return usage_error("option --results needs a directory");
            }
            request.results_dir = v;
        } else if (starts("--seed")) {
            const char* v = value("--seed");
            char* end = nullptr;
            if (v == nullptr || *v == '\0' || *v == '-') {
                return usage_error("option --seed needs a non-negative integer");
            }
            const unsigned long long n = std::strtoull(v, &end, 10);
            if (*end != '\0') {
                return usage_error(std::string("invalid value \"") + v + "\" for option --seed");
            }
            request.seed = n;
        } else if (!arg.empty() && arg[0] == '-') {
            return usage_error("unknown option \"" + std::string(arg) + "\"");
        } else if (request.experiment.empty()) {
            request.experiment = std::string(arg);
        } else {
            return usage_error("too many arguments");
        }
    }
    if (request.resume_dir.empty() == request.experiment.empty()) {
        return usage_error(request.resume_dir.empty()
                               ? "no experiment file given"
                               : "--resume takes the experiment from the results directory");
    }
    if (!request.resume_dir.empty()
        && (!request.results_dir.empty() || request.seed || request.quick)) {
        return usage_error("--resume cannot be combined with --results, --seed or --quick");
    }
    return exit_status(lab::run::run_experiment(request));
}

} // namespace pglab::cli
