// lab/run: the copy of the experiment file kept with the results (experiment.toml), with the
// password of every connection string masked, and the file that --resume reads: the copy, or
// the file it was made from when only that one can give the passwords.
#pragma once

#include "lab/store/results_store.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <string>

namespace pglab::lab::run {

/// The text of the experiment file at `path` with the password of each connection string it
/// holds masked (experiment::rewrite_connection_strings with pg::redact_conninfo): what the results
/// keep as experiment.toml, byte for byte the file otherwise.
Result<std::string> masked_experiment_text(const std::filesystem::path& path);

/// The experiment file --resume reads for `store`: the file plan.json names (`file`) when it
/// holds passwords that the copy masks and is otherwise the copy; else the copy, with a warning
/// on stderr when the copy has masked passwords that no file can give any more.
std::filesystem::path resume_experiment(const store::ResultsStore& store);

} // namespace pglab::lab::run
