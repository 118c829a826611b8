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
#include <functional>
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

namespace {

/// What a build is made from: the tree, its key, its build system and the options it is
/// configured with.
struct BuildRecipe {
    const fs::path& source;
    const BuildKey& key;
    const std::string& system;
    const std::vector<std::string>& options;

    /// "options: --enable-debug --with-lz4" as the log and build-info write it.
    std::string options_line() const {
        std::string out = "options:";
        for (const std::string& o : options) {
            out += ' ' + o;
        }
        return out;
    }
};

/// The scratch directory of one build, the out-of-tree build and the staged install beside it:
/// removed whichever way the build ends.
class BuildWork {
public:
    BuildWork(const fs::path& builds_dir, const BuildKey& key)
        : m_dir(builds_dir
                / fmt::format(".work-{}-{}", key.text(), static_cast<long>(::getpid()))) {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
        fs::create_directories(build(), ec);
        fs::create_directories(stage(), ec);
    }

    BuildWork(const BuildWork&) = delete;
    BuildWork& operator=(const BuildWork&) = delete;

    ~BuildWork() {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }

    fs::path build() const { return m_dir / "build"; }

    fs::path stage() const { return m_dir / "stage"; }

private:
    fs::path m_dir;
};

/// One command of a build, run in the build directory.
struct BuildCommand {
    std::string name;
    std::vector<std::string> argv;
    std::vector<std::pair<std::string, std::string>> env;
};

/// configure, make and make install (or meson setup, ninja and meson install), out of the tree,
/// for the prefix `prefix`, installing under the work's stage.
std::vector<BuildCommand> build_commands(const BuildRecipe& recipe, const BuildWork& work,
                                         const fs::path& prefix, int jobs) {
    const std::string j = std::to_string(std::max(1, jobs));
    std::vector<BuildCommand> out;
    if (recipe.system == "configure") {
        std::vector<std::string> configure = {(recipe.source / "configure").string(),
                                              "--prefix=" + prefix.string()};
        configure.insert(configure.end(), recipe.options.begin(), recipe.options.end());
        out.push_back({"configure", configure, {}});
        out.push_back({"make", {"make", "-j" + j}, {}});
        out.push_back(
            {"make install", {"make", "install", "DESTDIR=" + work.stage().string()}, {}});
        return out;
    }
    std::vector<std::string> setup = {"meson", "setup", work.build().string(),
                                      recipe.source.string(), "--prefix=" + prefix.string()};
    setup.insert(setup.end(), recipe.options.begin(), recipe.options.end());
    out.push_back({"meson setup", setup, {}});
    out.push_back({"ninja", {"ninja", "-C", work.build().string(), "-j", j}, {}});
    out.push_back({"meson install",
                   {"meson", "install", "-C", work.build().string(), "--no-rebuild", "--quiet"},
                   {{"DESTDIR", work.stage().string()}}});
    return out;
}

/// The build's log under builds_dir/logs, begun with what is built.
Result<fs::path> start_log(const fs::path& builds_dir, const BuildRecipe& recipe) {
    std::error_code ec;
    const fs::path logs = builds_dir / "logs";
    fs::create_directories(logs, ec);
    if (ec) {
        return make_error(
            Error(fmt::format("could not create \"{}\": {}", logs.string(), ec.message()))
                .with_hint("Set PGLAB_CACHE_DIR to a writable directory."));
    }
    const fs::path log = logs / (recipe.key.text() + ".log");
    fs::remove(log, ec);
    std::ofstream(log) << "source: " << recipe.source.string() << "\nkey: " << recipe.key.text()
                       << "\nsystem: " << recipe.system << "\n"
                       << recipe.options_line() << "\n\n";
    return log;
}

/// Runs `commands` in order, each appended to the log; an error naming the first that failed.
Status run_build(const std::vector<BuildCommand>& commands, const BuildWork& work,
                 const fs::path& log, const fs::path& source,
                 const std::function<void(const std::string&)>& say) {
    for (const BuildCommand& command : commands) {
        const auto started = std::chrono::steady_clock::now();
        say(fmt::format("{}: {}", command.name, util::quote_command(command.argv)));
        std::ofstream(log, std::ios::app) << "$ " << util::quote_command(command.argv) << "\n";
        util::SpawnOptions o;
        o.argv = command.argv;
        o.env = command.env;
        o.working_dir = work.build().string();
        o.output = util::Output::file;
        o.output_path = log.string();
        // Run as a make of its own: under another make (make test-references, a user's
        // Makefile) the inherited MAKELEVEL tells PostgreSQL's makefiles they are a sub-make,
        // which then skip building the generated headers first, and MAKEFLAGS would hand over
        // the outer make's job server and options.
        o.unset_env = {"MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES", "GNUMAKEFLAGS"};
        auto r = util::run_process(o);
        if (!r || !r->status.success()) {
            const std::string how = r ? r->status.describe() : r.error().message;
            return make_error(
                Error(fmt::format("the build of \"{}\" failed at {} ({}); its log is {}",
                                  source.string(), command.name, how, log.string()))
                    .with_detail(last_lines(log, 20))
                    .with_hint("Nothing of the build was left in the cache but its log."));
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        say(fmt::format("{} done in {:.1f} min", command.name, seconds / 60));
    }
    return {};
}

/// The staged install (`staged`, under `stage`) holds a server, and nothing outside `prefix`.
Status check_staged(const fs::path& stage, const fs::path& staged, const fs::path& prefix,
                    const fs::path& source, const fs::path& log) {
    std::error_code ec;
    if (!fs::exists(staged / "bin" / "postgres", ec)) {
        return make_error(fmt::format("the build of \"{}\" installed no bin/postgres under \"{}\"; "
                                      "its log is {}",
                                      source.string(), staged.string(), log.string()));
    }
    // A tree patched to install parts elsewhere (Debian's source installs the server's modules
    // into /usr/lib/postgresql/<major>/lib whatever the prefix) would give a server that cannot
    // find them: refused, naming the place.
    if (const auto outside = first_file_outside(stage, staged)) {
        return make_error(
            Error(fmt::format("the build of \"{}\" installed files outside its prefix \"{}\", "
                              "such as \"/{}\"; its log is {}",
                              source.string(), prefix.string(), outside->string(), log.string()))
                .with_hint("Build a tree that installs under --prefix: upstream's tree or "
                           "tarball, not one with a distribution's directory patches."));
    }
    return {};
}

/// build-info: what the build was made from, and how long it took.
void write_build_info(const fs::path& staged, const BuildRecipe& recipe, double minutes) {
    std::ofstream(staged / "build-info")
        << "source: " << recipe.source.string() << "\ncommit: " << recipe.key.commit
        << "\nchanges: " << (recipe.key.changes_hash.empty() ? "none" : recipe.key.changes_hash)
        << "\nsystem: " << recipe.system << "\n"
        << recipe.options_line() << "\nminutes: " << fmt::format("{:.1f}", minutes) << "\n";
}

} // namespace

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
    const BuildRecipe recipe{source, key, system, request.options};
    PGLAB_TRY_ASSIGN(const fs::path log, start_log(request.builds_dir, recipe));
    const BuildWork work(request.builds_dir, key);
    const auto started = std::chrono::steady_clock::now();
    PGLAB_TRY(
        run_build(build_commands(recipe, work, build.dir, request.jobs), work, log, source, say));
    // The install is under stage/<the prefix>: moved into place whole, so that the cache never
    // holds half of a build.
    const fs::path staged = work.stage() / build.dir.relative_path();
    PGLAB_TRY(check_staged(work.stage(), staged, build.dir, source, log));
    build.minutes =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() / 60;
    // Written before the move, so that every build in the cache says what it was built from.
    write_build_info(staged, recipe, build.minutes);
    fs::remove_all(build.dir, ec);
    fs::rename(staged, build.dir, ec);
    if (ec) {
        return make_error(fmt::format("could not move the build to \"{}\": {}", build.dir.string(),
                                      ec.message()));
    }
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
