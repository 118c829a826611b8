// A run made once for several cases of a suite. CTest runs each case in a process of its own,
// so a run that several cases check (a 10-second benchmark and its exports, say) would be made
// again by each of them. Under ctest one case makes it (the CTest fixture's setup, named in
// tests/case-properties.cmake) into a directory of the build tree that the cases requiring that
// fixture then read; a case run alone, outside ctest, makes its own.
#pragma once

#include "support/run_command.hpp"

#include <filesystem>
#include <functional>
#include <string>

namespace support {

/// What made the run: the command's result, and the directory that holds its files.
struct SharedRun {
    std::filesystem::path dir;
    CommandResult result;
};

/// Whether this case makes the run for the others (the fixture's setup) or reads it.
enum class SharedRunRole { make, read };

/// The run `name`. `make_run(dir)` runs the command, leaving its files in `dir` (empty and
/// created). Under ctest (PGLAB_TEST_SHARED_DIR set) `make` makes it into
/// PGLAB_TEST_SHARED_DIR/`name` and stores the result beside the files; `read` reads what
/// `make` stored, and makes the run itself, into a directory of its own, when nothing complete
/// is stored (a fixture's setup left out with `ctest -FS`). Outside ctest each case makes it
/// into `local_dir`.
SharedRun shared_run(const std::string& name, SharedRunRole role,
                     const std::filesystem::path& local_dir,
                     const std::function<CommandResult(const std::filesystem::path&)>& make_run);

} // namespace support
