// tests/unit/lab: helpers for the spec and plan tests: parse an experiment from text and read
// its problems.
#pragma once

#include "lab/experiment/parse_experiment.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pglab::lab::experiment::testing {

/// Parses `text` as "t.toml" (script files relative to the source tree's experiments/).
inline ParseOutcome parse_text(const std::string& text, ParseOptions options = {}) {
    return parse_experiment_text(text, "t.toml", PGLAB_SOURCE_DIR "/experiments", options);
}

/// The spec of a valid text; fails the test with every problem otherwise.
inline ExperimentSpec parse_ok(const std::string& text) {
    ParseOutcome out = parse_text(text);
    if (!out.spec) {
        std::string all;
        for (const auto& d : out.diagnostics.items()) {
            all += d.headline() + " [" + d.hint + "]\n";
        }
        ADD_FAILURE() << "unexpected problems:\n" << all;
        return ExperimentSpec{};
    }
    return *out.spec;
}

/// Every problem of an invalid text, one per line as "headline [hint]".
inline std::string problems(const std::string& text) {
    ParseOutcome out = parse_text(text);
    EXPECT_FALSE(out.spec.has_value()) << "the text was accepted";
    std::string all;
    for (const auto& d : out.diagnostics.items()) {
        all += d.headline() + " [" + d.hint + "]\n";
    }
    return all;
}

/// The first problem's headline.
inline std::string first_problem(const std::string& text) {
    ParseOutcome out = parse_text(text);
    EXPECT_FALSE(out.spec.has_value()) << "the text was accepted";
    return out.diagnostics.items().empty() ? std::string() : out.diagnostics.items()[0].headline();
}

/// A minimal valid step to append to texts that test something else.
inline const char* const k_bench_step = "\n[[steps]]\ntype = \"bench\"\n";

} // namespace pglab::lab::experiment::testing
