// The checks the experiment-file fuzzer runs on one input, shared by the libFuzzer target
// (fuzz/spec_fuzz.cpp) and its unit test (tests/unit/lab/spec_fuzz_harness_test.cpp). The
// input is parsed as an experiment file (script files are not read); a rejected file must
// carry at least one problem with a message and a position; an accepted one is planned and its
// first runs are resolved (substitution, conditions, arguments, fingerprints, settings).
#pragma once

#include "lab/experiment/parse_experiment.hpp"
#include "lab/plan/plan.hpp"
#include "lab/plan/run_values.hpp"

#include <string>
#include <string_view>

namespace pglab::fuzz {

/// The most runs the harness plans and resolves (bigger plans are legal but slow to fuzz).
inline constexpr std::size_t k_fuzz_max_runs = 5000;

/// "" when every check holds, else what went wrong (the fuzz target aborts with it).
inline std::string check_spec_input(std::string_view input) {
    using namespace pglab::lab;
    experiment::ParseOptions options;
    options.read_files = false;
    experiment::ParseOutcome out =
        experiment::parse_experiment_text(input, "fuzz.toml", ".", options);
    if (!out.spec) {
        if (out.diagnostics.empty() || out.diagnostics.items().empty()) {
            return "rejected without a problem";
        }
        for (const auto& d : out.diagnostics.items()) {
            if (d.message.empty()) {
                return "a problem without a message";
            }
            if (d.pos.file != "fuzz.toml") {
                return "a problem without the file name: " + d.headline();
            }
        }
        return {};
    }
    const experiment::ExperimentSpec& s = *out.spec;
    if (s.servers.empty() || s.steps.empty()) {
        return "accepted without servers or steps";
    }
    std::size_t runs = std::size_t{s.repeat} + s.warmup;
    for (const auto& v : s.matrix.variables) {
        runs *= v.values.size();
        if (runs > k_fuzz_max_runs) {
            return {};
        }
    }
    auto plan_result = plan::build_plan(s, 12345);
    if (!plan_result) {
        return plan_result.error().message.empty() ? "plan error without a message" : "";
    }
    const plan::Plan& p = *plan_result;
    if (p.runs.size() < p.cells.size() * s.repeat) {
        return "fewer runs than cells x repeat";
    }
    for (const auto& run : p.runs) {
        if (run.cell >= p.cells.size()) {
            return "a run of a cell that does not exist";
        }
        const plan::Cell& cell = p.cells[run.cell];
        const plan::RunValues rv(cell, run);
        for (const auto& step : s.steps) {
            (void)rv.applies(step);
            // The option parser (with its file reads) is not fuzzed here: the own options stand
            // for the arguments.
            const auto own = rv.own_options(step);
            (void)rv.matrix_options(step);
            (void)rv.fingerprint(s, step, own ? *own : std::vector<std::string>{});
            for (const auto& f : step.statements) {
                if (!rv.expand(f)) {
                    return "a checked ${name} did not expand: " + f.text;
                }
            }
        }
        (void)plan::effective_settings(s, cell, cell.server);
    }
    return {};
}

} // namespace pglab::fuzz
