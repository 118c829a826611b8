// `pglab server build PATH`: the request from the command line, the progress on stdout, the
// outcome in one line.
#include "cli/server_build_command.hpp"

#include "lab/server/installation.hpp"
#include "lab/server/source_build.hpp"
#include "util/log.hpp"

#include <algorithm>
#include <cstdio>
#include <thread>

namespace pglab::cli {

namespace server = lab::server;

int build_server_from_source(const std::string& path, const std::vector<std::string>& options,
                             bool force) {
    server::SourceBuildRequest request;
    request.source = path;
    request.options = options;
    request.builds_dir = server::builds_cache_dir();
    request.jobs = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
    request.force = force;
    request.progress = [](const std::string& line) {
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
    };
    if (Status ready = server::prepare_cache_dir(request.builds_dir); !ready) {
        log::print(ready.error());
        return ready.error().exit_code;
    }
    const auto built = server::build_from_source(request);
    if (!built) {
        log::print(built.error());
        return built.error().exit_code;
    }
    const std::string bin = (built->dir / "bin").string();
    if (built->reused) {
        std::printf("PostgreSQL %s from %s is built already (key %s): %s\n", built->version.c_str(),
                    path.c_str(), built->key.text().c_str(), bin.c_str());
    } else {
        std::printf("built PostgreSQL %s from %s in %.1f min (key %s): %s\n",
                    built->version.c_str(), path.c_str(), built->minutes, built->key.text().c_str(),
                    bin.c_str());
    }
    return 0;
}

} // namespace pglab::cli
