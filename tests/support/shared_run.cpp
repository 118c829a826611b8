#include "support/shared_run.hpp"

#include "util/output_file.hpp"
#include "util/text_file.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <optional>
#include <string>

namespace support {
namespace {

namespace fs = std::filesystem;

// The result beside the run's own files, written whole or not at all and last: its presence says
// the run is complete.
constexpr const char* k_result_file = ".result.json";

std::optional<fs::path> shared_root() {
    const char* root = std::getenv("PGLAB_TEST_SHARED_DIR");
    if (root == nullptr || *root == '\0') {
        return std::nullopt;
    }
    return fs::path(root);
}

void store(const fs::path& dir, const CommandResult& r) {
    const nlohmann::json j = {{"exit_code", r.exit_code},
                              {"signal", r.signal},
                              {"timed_out", r.timed_out},
                              {"out", r.out},
                              {"err", r.err}};
    const auto written = pglab::util::write_output_file(dir / k_result_file, j.dump());
    EXPECT_TRUE(written) << written.error().message;
}

std::optional<CommandResult> load(const fs::path& dir) {
    const auto text = pglab::util::read_text_file(dir / k_result_file);
    if (!text) {
        return std::nullopt;
    }
    const nlohmann::json j = nlohmann::json::parse(*text);
    CommandResult r;
    r.exit_code = j.at("exit_code").get<int>();
    r.signal = j.at("signal").get<int>();
    r.timed_out = j.at("timed_out").get<bool>();
    r.out = j.at("out").get<std::string>();
    r.err = j.at("err").get<std::string>();
    return r;
}

SharedRun make_into(const fs::path& dir,
                    const std::function<CommandResult(const fs::path&)>& make_run) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    return SharedRun{dir, make_run(dir)};
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
