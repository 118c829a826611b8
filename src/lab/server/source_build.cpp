// Building PostgreSQL from a source tree into the cache: the key of what is built, the out-of-tree
// configure (or meson), make and install steps with their log, and the move into place.
#include "lab/server/source_build.hpp"

#include "lab/server/cluster_files.hpp"
#include "lab/server/installation.hpp"
#include "util/subprocess.hpp"
#include "util/text_file.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>

namespace pglab::lab::server {

namespace fs = std::filesystem;

namespace {

std::string hex(std::uint64_t h) {
    return fmt::format("{:016x}", h);
}

/// The bytes of a file of the tree, or none (a file that vanished counts as empty).
std::string read_file(const fs::path& p) {
    return util::read_text_file(p).value_or(std::string());
}

/// `git -C source args...`: its stdout, or an error.
Result<std::string> git(const fs::path& source, std::vector<std::string> args) {
    util::SpawnOptions o;
    // safe.directory: pglab often runs as root on a tree its user owns, which git would refuse.
    o.argv = {"git", "-c", "safe.directory=*", "-C", source.string()};
    o.argv.insert(o.argv.end(), args.begin(), args.end());
    o.timeout = std::chrono::seconds(300);
    o.env = {{"LC_ALL", "C"}, {"GIT_OPTIONAL_LOCKS", "0"}};
    PGLAB_TRY_ASSIGN(const util::ProcessResult r, util::run_checked(o));
    return r.out;
}

/// Whether `source` is the top of a git worktree (not a directory inside some other repository,
/// such as a tarball unpacked into one).
bool is_git_top(const fs::path& source) {
    auto top = git(source, {"rev-parse", "--show-toplevel"});
    if (!top) {
        return false;
    }
    std::string path = *top;
    while (!path.empty() && (path.back() == '\n' || path.back() == '\r')) {
        path.pop_back();
    }
    std::error_code ec;
    return fs::equivalent(path, source, ec);
}

/// The hash of every regular file under `source`, by relative path and content, in path order.
std::uint64_t tree_hash(const fs::path& source) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(source, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file(ec) && !it->is_symlink(ec)) {
            files.push_back(it->path().lexically_relative(source));
        }
    }
    std::sort(files.begin(), files.end());
    std::uint64_t h = fnv1a("");
    for (const fs::path& f : files) {
        h = fnv1a(f.string(), h);
        h = fnv1a(std::string_view("\0", 1), h);
        h = fnv1a(read_file(source / f), h);
        h = fnv1a(std::string_view("\0", 1), h);
    }
    return h;
}

/// The first file (or link) under `stage` that is not under `inside`, relative to `stage`.
std::optional<fs::path> first_file_outside(const fs::path& stage, const fs::path& inside) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(stage, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->path() == inside) {
            it.disable_recursion_pending();
            continue;
        }
        if (!it->is_directory(ec) || it->is_symlink(ec)) {
            return it->path().lexically_relative(stage);
        }
    }
    return std::nullopt;
}

/// The last `n` lines of a file, for an error's detail.
std::string last_lines(const fs::path& file, int n) {
    std::string tail = tail_lines(util::read_text_file(file).value_or(std::string()), n);
    while (!tail.empty() && tail.back() == '\n') {
        tail.pop_back();
    }
    return tail;
}

} // namespace

std::uint64_t fnv1a(std::string_view data, std::uint64_t seed) {
    std::uint64_t h = seed;
    for (const char c : data) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    return h;
}

std::string BuildKey::text() const {
    const std::string options = options_hash.substr(0, 8);
    if (commit.empty()) {
        return fmt::format("tree-{}-{}", changes_hash.substr(0, 12), options);
    }
    return fmt::format("{}-{}-{}", commit.substr(0, 12),
                       changes_hash.empty() ? std::string("clean") : changes_hash.substr(0, 8),
                       options);
}

Result<BuildKey> build_key(const fs::path& source, const std::string& system,
                           const std::vector<std::string>& options) {
    BuildKey key;
    std::string described = system;
    for (const std::string& o : options) {
        described += '\0' + o;
    }
    key.options_hash = hex(fnv1a(described));
    if (!is_git_top(source)) {
        key.changes_hash = hex(tree_hash(source));
        return key;
    }
    auto head = git(source, {"rev-parse", "--verify", "HEAD"});
    if (!head) {
        return make_error(
            Error(fmt::format("\"{}\" is a git worktree without a commit", source.string()))
                .with_detail(head.error().message));
    }
    key.commit = head->substr(0, head->find('\n'));
    // The worktree against HEAD, staged or not, then each untracked file that is not ignored.
    const std::vector<std::string> diff_args = {"diff", "HEAD", "--binary"};
    const std::vector<std::string> untracked_args = {"ls-files", "--others", "--exclude-standard",
                                                     "-z"};
    PGLAB_TRY_ASSIGN(const std::string diff, git(source, diff_args));
    PGLAB_TRY_ASSIGN(const std::string untracked, git(source, untracked_args));
    if (diff.empty() && untracked.empty()) {
        return key;
    }
    std::uint64_t h = fnv1a(diff);
    for (size_t at = 0; at < untracked.size();) {
        const size_t end = untracked.find('\0', at);
        const std::string name =
            untracked.substr(at, end == std::string::npos ? std::string::npos : end - at);
        h = fnv1a(name + std::string(1, '\0'), h);
        h = fnv1a(read_file(source / name), h);
        if (end == std::string::npos) {
            break;
        }
        at = end + 1;
    }
    key.changes_hash = hex(h);
    return key;
}

Result<std::string> build_system_of(const fs::path& source) {
    std::error_code ec;
    if (!fs::is_directory(source, ec)) {
        return make_error(fmt::format("\"{}\" is not a directory", source.string()));
    }
    if (fs::exists(source / "configure", ec)) {
        return std::string("configure");
    }
    if (fs::exists(source / "meson.build", ec)) {
        return std::string("meson");
    }
    return make_error(
        Error(fmt::format("\"{}\" is not a PostgreSQL source tree: it has neither configure nor "
                          "meson.build",
                          source.string()))
            .with_hint("Name the top of a PostgreSQL source tree: a git worktree of "
                       "postgresql.git or an unpacked release tarball."));
}

Result<Installation> built_installation(const fs::path& source,
                                        const std::vector<std::string>& options) {
    PGLAB_TRY_ASSIGN(const std::string system, build_system_of(source));
    PGLAB_TRY_ASSIGN(const BuildKey key, build_key(source, system, options));
    const fs::path bin = builds_cache_dir() / key.text() / "bin";
    auto inst = installation_at(bin);
    if (!inst) {
        return make_error(
            Error(fmt::format("the source tree \"{}\" is not built (key {})", source.string(),
                              key.text()))
                .with_hint(fmt::format("pglab run builds it before the first run; by hand: "
                                       "pglab server build {}",
                                       source.string())));
    }
    inst->origin = "build";
    return inst;
}

double typical_build_minutes(const fs::path& builds_dir) {
    std::vector<double> minutes;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(builds_dir, ec)) {
        std::ifstream info(entry.path() / "build-info");
        for (std::string line; std::getline(info, line);) {
            if (line.rfind("minutes: ", 0) == 0) {
                minutes.push_back(std::atof(line.c_str() + 9));
            }
        }
    }
    if (minutes.empty()) {
        return 0;
    }
    std::sort(minutes.begin(), minutes.end());
    const size_t n = minutes.size();
    return n % 2 == 1 ? minutes[n / 2] : (minutes[n / 2 - 1] + minutes[n / 2]) / 2;
}

Result<SourceBuild> build_from_source(const SourceBuildRequest& request) {
    std::error_code ec;
    const fs::path source = fs::absolute(request.source, ec).lexically_normal();
    PGLAB_TRY_ASSIGN(const std::string system, build_system_of(source));
    PGLAB_TRY_ASSIGN(const BuildKey key, build_key(source, system, request.options));
    SourceBuild build;
    build.key = key;
    build.system = system;
    build.dir = request.builds_dir / key.text();
    if (!request.force) {
        if (auto found = installation_at(build.dir / "bin")) {
            build.version = found->version;
            build.reused = true;
            return build;
        }
    }
    const auto say = [&](const std::string& line) {
        if (request.progress) {
            request.progress(line);
        }
    };
    const fs::path logs = request.builds_dir / "logs";
    fs::create_directories(logs, ec);
    if (ec) {
        return make_error(
            Error(fmt::format("could not create \"{}\": {}", logs.string(), ec.message()))
                .with_hint("Set PGLAB_CACHE_DIR to a writable directory."));
    }
    const fs::path log = logs / (key.text() + ".log");
    fs::remove(log, ec);
    {
        std::ofstream header(log);
        header << "source: " << source.string() << "\nkey: " << key.text() << "\nsystem: " << system
               << "\noptions:";
        for (const std::string& o : request.options) {
            header << ' ' << o;
        }
        header << "\n\n";
    }
    const fs::path work =
        request.builds_dir / fmt::format(".work-{}-{}", key.text(), static_cast<long>(::getpid()));
    fs::remove_all(work, ec);
    const fs::path build_dir = work / "build";
    const fs::path stage = work / "stage";
    fs::create_directories(build_dir, ec);
    fs::create_directories(stage, ec);
    const auto cleanup = [&] { fs::remove_all(work, ec); };

    struct Step {
        std::string name;
        std::vector<std::string> argv;
        std::vector<std::pair<std::string, std::string>> env;
    };

    const std::string jobs = std::to_string(std::max(1, request.jobs));
    std::vector<Step> steps;
    if (system == "configure") {
        std::vector<std::string> configure = {(source / "configure").string(),
                                              "--prefix=" + build.dir.string()};
        configure.insert(configure.end(), request.options.begin(), request.options.end());
        steps.push_back({"configure", configure, {}});
        steps.push_back({"make", {"make", "-j" + jobs}, {}});
        steps.push_back({"make install", {"make", "install", "DESTDIR=" + stage.string()}, {}});
    } else {
        std::vector<std::string> setup = {"meson", "setup", build_dir.string(), source.string(),
                                          "--prefix=" + build.dir.string()};
        setup.insert(setup.end(), request.options.begin(), request.options.end());
        steps.push_back({"meson setup", setup, {}});
        steps.push_back({"ninja", {"ninja", "-C", build_dir.string(), "-j", jobs}, {}});
        steps.push_back({"meson install",
                         {"meson", "install", "-C", build_dir.string(), "--no-rebuild", "--quiet"},
                         {{"DESTDIR", stage.string()}}});
    }

    const auto started = std::chrono::steady_clock::now();
    for (const Step& step : steps) {
        const auto step_started = std::chrono::steady_clock::now();
        say(fmt::format("{}: {}", step.name, util::quote_command(step.argv)));
        std::ofstream(log, std::ios::app) << "$ " << util::quote_command(step.argv) << "\n";
        util::SpawnOptions o;
        o.argv = step.argv;
        o.env = step.env;
        o.working_dir = build_dir.string();
        o.output = util::Output::file;
        o.output_path = log.string();
        // Run as a make of its own: under another make (make test-references, a user's
        // Makefile) the inherited MAKELEVEL tells PostgreSQL's makefiles they are a sub-make,
        // which then skip building the generated headers first, and MAKEFLAGS would hand over
        // the outer make's job server and options.
        o.unset_env = {"MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES", "GNUMAKEFLAGS"};
        auto r = util::run_process(o);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - step_started).count();
        if (!r || !r->status.success()) {
            cleanup();
            const std::string how = r ? r->status.describe() : r.error().message;
            return make_error(
                Error(fmt::format("the build of \"{}\" failed at {} ({}); its log is {}",
                                  source.string(), step.name, how, log.string()))
                    .with_detail(last_lines(log, 20))
                    .with_hint("Nothing of the build was left in the cache but its log."));
        }
        say(fmt::format("{} done in {:.1f} min", step.name, seconds / 60));
    }

    // The install is under stage/<the prefix>: moved into place whole, so that the cache never
    // holds half of a build.
    const fs::path staged = stage / build.dir.relative_path();
    if (!fs::exists(staged / "bin" / "postgres", ec)) {
        cleanup();
        return make_error(fmt::format("the build of \"{}\" installed no bin/postgres under \"{}\"; "
                                      "its log is {}",
                                      source.string(), staged.string(), log.string()));
    }
    // A tree patched to install parts elsewhere (Debian's source installs the server's modules
    // into /usr/lib/postgresql/<major>/lib whatever the prefix) would give a server that cannot
    // find them: refused, naming the place.
    if (const auto outside = first_file_outside(stage, staged)) {
        cleanup();
        return make_error(
            Error(fmt::format("the build of \"{}\" installed files outside its prefix \"{}\", "
                              "such as \"/{}\"; its log is {}",
                              source.string(), build.dir.string(), outside->string(), log.string()))
                .with_hint("Build a tree that installs under --prefix: upstream's tree or "
                           "tarball, not one with a distribution's directory patches."));
    }
    build.minutes =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() / 60;
    // Written before the move, so that every build in the cache says what it was built from.
    {
        std::ofstream info(staged / "build-info");
        info << "source: " << source.string() << "\ncommit: " << key.commit
             << "\nchanges: " << (key.changes_hash.empty() ? "none" : key.changes_hash)
             << "\nsystem: " << system << "\noptions:";
        for (const std::string& o : request.options) {
            info << ' ' << o;
        }
        info << "\nminutes: " << fmt::format("{:.1f}", build.minutes) << "\n";
    }
    fs::remove_all(build.dir, ec);
    fs::rename(staged, build.dir, ec);
    if (ec) {
        cleanup();
        return make_error(fmt::format("could not move the build to \"{}\": {}", build.dir.string(),
                                      ec.message()));
    }
    cleanup();
    auto installed = installation_at(build.dir / "bin");
    if (!installed) {
        fs::remove_all(build.dir, ec);
        return make_error(std::move(installed.error().with_hint(fmt::format(
            "The build was removed from the cache again; its log is {}.", log.string()))));
    }
    build.version = installed->version;
    return build;
}

} // namespace pglab::lab::server
