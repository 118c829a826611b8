#include "lab/run/fleet_step.hpp"

#include "util/subprocess.hpp"
#include "util/text.hpp"
#include "util/text_file.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdlib>

namespace pglab::lab::run {

namespace {

std::string self_executable() {
    std::error_code ec;
    const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("pglab") : p.string();
}

std::string join(const std::vector<std::string>& v) {
    return util::join(v, ",");
}

} // namespace

std::vector<std::string> fleet_command(const experiment::Step& step,
                                       const std::vector<std::string>& bench_args,
                                       const std::filesystem::path& json) {
    std::vector<std::string> argv{"mpirun", "--oversubscribe"};
    if (::geteuid() == 0) {
        argv.emplace_back("--allow-run-as-root");
    }
    argv.insert(argv.end(), {"-n", std::to_string(step.processes)});
    if (!step.hosts.empty()) {
        argv.insert(argv.end(), {"--host", join(step.hosts)});
    }
    argv.insert(argv.end(), {self_executable(), "bench"});
    argv.insert(argv.end(), bench_args.begin(), bench_args.end());
    argv.push_back("--export-json=" + json.string());
    return argv;
}

FleetRun run_fleet_step(const experiment::Step& step, const std::vector<std::string>& bench_args,
                        const std::vector<std::pair<std::string, std::string>>& env,
                        const std::filesystem::path& log, const std::function<bool()>& stop) {
    FleetRun out;
    char dir_template[] = "/tmp/pglab-fleet-XXXXXX";
    if (::mkdtemp(dir_template) == nullptr) {
        out.error = "could not create a temporary directory for the fleet's export";
        return out;
    }
    const std::filesystem::path dir = dir_template;
    const std::filesystem::path json = dir / "bench.json";
    util::SpawnOptions spawn;
    spawn.argv = fleet_command(step, bench_args, json);
    spawn.env = env;
    spawn.output = util::Output::file;
    spawn.output_path = log.empty() ? std::string("/dev/null") : log.string();
    spawn.group = util::ProcessGroup::own;
    spawn.stop = stop;
    auto result = util::run_process(spawn);
    if (!result) {
        out.error = "could not start mpirun: " + result.error().message;
    } else {
        out.exit_code = result->status.code;
        out.signal = result->status.signal;
        if (auto text = util::read_text_file(json); text && !text->empty()) {
            try {
                out.bench = nlohmann::json::parse(*text);
            } catch (const std::exception& e) {
                out.error = fmt::format("the fleet's export could not be read: {}", e.what());
            }
        } else {
            out.error = fmt::format("mpirun {} without a result (see the step's log)",
                                    result->status.describe());
        }
    }
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    return out;
}

} // namespace pglab::lab::run
