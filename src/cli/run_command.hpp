// `pglab run EXPERIMENT.toml [--resume DIR] [--results DIR] [--seed N] [--dry-run]`.
#pragma once

namespace pglab::cli {

int run_command(int argc, char** argv);

} // namespace pglab::cli
