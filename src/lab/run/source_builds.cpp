// lab/run: building the source trees an experiment's servers name, before the first run.
#include "lab/run/source_builds.hpp"

#include "lab/server/installation.hpp"
#include "lab/server/source_build.hpp"
#include "util/log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <thread>
#include <utility>

namespace pglab::lab::run {

namespace {

/// `e` at the server's `source` value.
Error at_source(const experiment::ServerSpec& s, Error e) {
    if (s.installation_pos.known()) {
        e.message = s.installation_pos.to_string() + ": " + e.message;
    }
    return e;
}

/// The build key of the tree server `s` names, at its `source` when it cannot be had; a tree
/// that is missing says what makes it.
Result<server::BuildKey> key_of(const experiment::ServerSpec& s) {
    auto system = server::build_system_of(s.source);
    if (!system) {
        Error e = at_source(s, system.error());
        if (std::error_code ec; !std::filesystem::exists(s.source, ec)) {
            e.message +=
                s.source_made_by.empty()
                    ? ": point source at a PostgreSQL source tree (a git checkout or an "
                      "unpacked release)"
                    : fmt::format(": `{}` makes it (the file's source_made_by)", s.source_made_by);
        }
        return make_error(std::move(e));
    }
    auto key = server::build_key(s.source, *system, s.configure);
    if (!key) {
        return make_error(at_source(s, key.error()));
    }
    return key;
}

/// Builds server `s`'s tree into the cache `builds`, saying how it went.
Status build(const experiment::ServerSpec& s, const std::filesystem::path& builds) {
    if (Status ready = server::prepare_cache_dir(builds); !ready) {
        return make_error(at_source(s, ready.error()));
    }
    server::SourceBuildRequest b;
    b.source = s.source;
    b.options = s.configure;
    b.builds_dir = builds;
    b.jobs = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
    b.progress = [](const std::string& line) { log::info("build: {}", line); };
    auto built = server::build_from_source(b);
    if (!built) {
        return make_error(at_source(s, built.error()));
    }
    log::info("server \"{}\": built PostgreSQL {} in {:.1f} min (key {})", s.name, built->version,
              built->minutes, built->key.text());
    return {};
}

} // namespace

Status build_missing_sources(const experiment::ExperimentSpec& spec, const RunRequest& request,
                             bool& to_build) {
    std::map<std::string, std::string> server_of_key; // the first server of each build
    const std::filesystem::path builds = server::builds_cache_dir();
    for (const experiment::ServerSpec& s : spec.servers) {
        if (s.source.empty()) {
            continue;
        }
        PGLAB_TRY_ASSIGN(const server::BuildKey key, key_of(s));
        if (const auto [first, added] = server_of_key.emplace(key.text(), s.name); !added) {
            // The same tree, changes and options: an A/A comparison, not a patch's.
            log::warning("servers \"{}\" and \"{}\" are one build (key {}): their comparison "
                         "measures this machine's noise, not a change",
                         first->second, s.name, key.text());
            continue;
        }
        if (server::installation_at(builds / key.text() / "bin")) {
            log::info("server \"{}\": {} is built (key {})", s.name, s.source, key.text());
            continue;
        }
        const double typical = server::typical_build_minutes(builds);
        const std::string how_long =
            typical > 0 ? fmt::format("the builds in the cache took {:.0f} min", typical)
                        : std::string("no build in the cache to say how long: minutes");
        if (request.dry_run) {
            log::info("server \"{}\": {} is not built: the run builds it first (key {}; {})",
                      s.name, s.source, key.text(), how_long);
            to_build = true;
            continue;
        }
        log::info("server \"{}\": building {} (key {}; {})", s.name, s.source, key.text(),
                  how_long);
        PGLAB_TRY(build(s, builds));
    }
    return {};
}

} // namespace pglab::lab::run
