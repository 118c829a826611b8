#include "support/shared_run.hpp"

#include "support/files.hpp"

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

namespace support {
namespace {

namespace fs = std::filesystem;

// The files beside the run's own: the result, and the mark written last that says it is whole.
constexpr const char* k_result_dir = ".result";
constexpr const char* k_complete = ".complete";

std::optional<fs::path> shared_root() {
    const char* root = std::getenv("PGLAB_TEST_SHARED_DIR");
    if (root == nullptr || *root == '\0') {
        return std::nullopt;
    }
    return fs::path(root);
}

void write(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

void store(const fs::path& dir, const CommandResult& r) {
    const fs::path d = dir / k_result_dir;
    fs::create_directories(d);
    write(d / "exit_code", std::to_string(r.exit_code));
    write(d / "signal", std::to_string(r.signal));
    write(d / "timed_out", r.timed_out ? "1" : "0");
    write(d / "out", r.out);
    write(d / "err", r.err);
    write(dir / k_complete, "");
}

std::optional<CommandResult> load(const fs::path& dir) {
    if (!fs::exists(dir / k_complete)) {
        return std::nullopt;
    }
    const fs::path d = dir / k_result_dir;
    CommandResult r;
    r.exit_code = std::stoi(read_file(d / "exit_code"));
    r.signal = std::stoi(read_file(d / "signal"));
    r.timed_out = read_file(d / "timed_out") == "1";
    r.out = read_file(d / "out");
    r.err = read_file(d / "err");
    return r;
}

SharedRun make_into(const fs::path& dir,
                    const std::function<CommandResult(const fs::path&)>& make_run) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    SharedRun run{dir, make_run(dir)};
    return run;
}

} // namespace

SharedRun shared_run(const std::string& name, SharedRunRole role, const fs::path& local_dir,
                     const std::function<CommandResult(const fs::path&)>& make_run) {
    const auto root = shared_root();
    if (!root) {
        return make_into(local_dir, make_run);
    }
    const fs::path dir = *root / name;
    if (role == SharedRunRole::make) {
        SharedRun run = make_into(dir, make_run);
        store(dir, run.result);
        return run;
    }
    if (auto stored = load(dir)) {
        return SharedRun{dir, std::move(*stored)};
    }
    return make_into(local_dir, make_run);
}

} // namespace support
