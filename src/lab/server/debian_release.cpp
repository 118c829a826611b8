// Fetching a PostgreSQL major from Debian's archive into the release cache: apt with a private
// state reads sid and experimental, the library closure is downloaded and unpacked, and the
// programs are relocated to the unpacked C library (patchelf).
#include "lab/server/debian_release.hpp"

#include "lab/server/debian_package.hpp"
#include "lab/server/installation.hpp"
#include "util/subprocess.hpp"

#include <fmt/format.h>

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <system_error>
#include <vector>

namespace pglab::lab::server {

namespace fs = std::filesystem;

namespace {

constexpr const char* k_tools_hint =
    "Fetching from Debian's archive needs apt-get, apt-cache, dpkg-deb and patchelf (Debian: "
    "apt-get install patchelf).";

/// apt-get and apt-cache with the private state under `apt_dir`: the machine's sources, package
/// lists, pins and installed packages are neither read nor changed.
class PrivateApt {
public:
    PrivateApt(fs::path apt_dir, const DebianArchive& archive) : m_dir(std::move(apt_dir)) {
        std::error_code ec;
        fs::create_directories(m_dir / "lists" / "partial", ec);
        fs::create_directories(m_dir / "cache" / "archives" / "partial", ec);
        std::ofstream sources(m_dir / "sources.list");
        for (const char* suite : k_debian_suites) {
            sources << fmt::format("deb [signed-by={}] {} {} main\n", archive.keyring,
                                   archive.mirror, suite);
        }
        std::ofstream(m_dir / "status").flush(); // no package is installed
    }

    std::vector<std::string> options() const {
        return {
            "-o",
            "Dir::Etc::SourceList=" + (m_dir / "sources.list").string(),
            "-o",
            "Dir::Etc::SourceParts=/dev/null",
            "-o",
            "Dir::Etc::Preferences=/dev/null",
            "-o",
            "Dir::Etc::PreferencesParts=/dev/null",
            "-o",
            "Dir::State::Lists=" + (m_dir / "lists").string(),
            "-o",
            "Dir::State::status=" + (m_dir / "status").string(),
            "-o",
            "Dir::Cache=" + (m_dir / "cache").string(),
            "-o",
            "Dir::Cache::pkgcache=",
            "-o",
            "Dir::Cache::srcpkgcache=",
            // The archive's copy here is dated: sid's and experimental's Release files can be
            // past their Valid-Until; their signatures are still checked.
            "-o",
            "Acquire::Check-Valid-Until=false",
            "-o",
            "Acquire::Languages=none",
            // Downloads go to directories only this user can write; apt's _apt user could not.
            "-o",
            "APT::Sandbox::User=" + user_name(),
            "-o",
            "Debug::NoLocking=true",
            "-q",
        };
    }

    /// `program options... args...`, in `dir` when given.
    Result<util::ProcessResult>
    run(const std::string& program, std::vector<std::string> args, bool checked,
        const fs::path& dir = {}, std::chrono::seconds timeout = std::chrono::seconds(900)) const {
        util::SpawnOptions o;
        o.argv = {program};
        const std::vector<std::string> opts = options();
        o.argv.insert(o.argv.end(), opts.begin(), opts.end());
        o.argv.insert(o.argv.end(), args.begin(), args.end());
        o.working_dir = dir.string();
        o.timeout = timeout;
        o.env = {{"LC_ALL", "C"}, {"DEBIAN_FRONTEND", "noninteractive"}};
        auto r = checked ? util::run_checked(o) : util::run_process(o);
        if (!r) {
            return make_error(std::move(r.error().with_hint(k_tools_hint)));
        }
        return r;
    }

private:
    static std::string user_name() {
        const passwd* pw = ::getpwuid(::geteuid());
        return pw != nullptr ? pw->pw_name : std::string("root");
    }

    fs::path m_dir;
};

/// The sum of the sizes of the regular files under `dir`.
std::uintmax_t tree_bytes(const fs::path& dir) {
    std::uintmax_t total = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file(ec) && !it->is_symlink(ec)) {
            total += it->file_size(ec);
        }
    }
    return total;
}

/// The unpacked C library's loader (a regular file, not a link that would point at the
/// machine's): `usr/lib/<triplet>/ld-linux*.so*` under `root`, as a path relative to it, with
/// the triplet's library directory.
struct Loader {
    fs::path relative;   ///< "usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
    std::string triplet; ///< "x86_64-linux-gnu"
};

Result<Loader> find_loader(const fs::path& root) {
    std::error_code ec;
    for (const char* base : {"usr/lib", "lib"}) {
        for (const auto& dir : fs::directory_iterator(root / base, ec)) {
            const std::string triplet = dir.path().filename().string();
            if (!dir.is_directory(ec) || triplet.find("-linux-gnu") == std::string::npos) {
                continue;
            }
            for (const auto& file : fs::directory_iterator(dir.path(), ec)) {
                const std::string name = file.path().filename().string();
                if (name.rfind("ld-linux", 0) == 0 && !file.is_symlink(ec)
                    && file.is_regular_file(ec)) {
                    return Loader{fs::path(base) / triplet / name, triplet};
                }
            }
        }
    }
    return make_error(fmt::format("the unpacked C library has no loader (ld-linux*) under "
                                  "\"{}\"",
                                  (root / "usr/lib").string()));
}

bool is_elf(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::array<char, 4> magic{};
    in.read(magic.data(), magic.size());
    return in && magic == std::array<char, 4>{'\x7f', 'E', 'L', 'F'};
}

/// Points every program of `bin` at the loader and libraries of `final_root` (where `root`
/// will be once moved into the cache): the loader by its absolute path (the ELF interpreter
/// cannot be relative), the libraries relative to the program ($ORIGIN), as DT_RPATH so that
/// the libraries' own dependencies and the modules postgres loads are found there too.
Status relocate(const fs::path& root, const fs::path& final_root, const fs::path& bin_relative) {
    PGLAB_TRY_ASSIGN(const Loader loader, find_loader(root));
    const fs::path interpreter = final_root / loader.relative;
    // bin is usr/lib/postgresql/<major>/bin: three levels below usr/lib.
    const std::string rpath =
        fmt::format("$ORIGIN/../../../{0}:$ORIGIN/../../../../../lib/{0}", loader.triplet);
    std::error_code ec;
    int patched = 0;
    for (const auto& entry : fs::directory_iterator(root / bin_relative, ec)) {
        if (entry.is_symlink(ec) || !entry.is_regular_file(ec) || !is_elf(entry.path())) {
            continue;
        }
        util::SpawnOptions probe;
        probe.argv = {"patchelf", "--print-interpreter", entry.path().string()};
        PGLAB_TRY_ASSIGN(const util::ProcessResult has_interpreter, util::run_process(probe));
        if (!has_interpreter.status.success()) {
            continue; // a shared object, not a program
        }
        util::SpawnOptions set;
        set.argv = {"patchelf",           "--set-interpreter", interpreter.string(),
                    "--force-rpath",      "--set-rpath",       rpath,
                    entry.path().string()};
        PGLAB_TRY(util::run_checked(set));
        ++patched;
    }
    if (patched == 0) {
        return make_error(
            fmt::format("no program to relocate in \"{}\"", (root / bin_relative).string()));
    }
    return {};
}

/// An installation of the cache that `spec` names and that came from Debian.
std::optional<Installation> cached(const fs::path& cache, const std::string& spec) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(cache, ec)) {
        if (!fs::exists(entry.path() / "debian-version", ec)) {
            continue;
        }
        auto inst = installation_at(entry.path() / "bin");
        if (inst && version_matches(inst->version, spec)) {
            return *inst;
        }
    }
    return std::nullopt;
}

std::string suites_text() {
    std::string out;
    for (const char* suite : k_debian_suites) {
        out += (out.empty() ? "" : " and ") + std::string(suite);
    }
    return out;
}

/// One fetch: its request, the apt that reads the archive, and the progress lines it says.
class DebianFetch {
public:
    explicit DebianFetch(const DebianFetchRequest& request)
        : m_request(request), m_source(fmt::format("postgresql-{}", request.major)),
          m_apt(request.staging / "apt", request.archive) {}

    /// apt-get update of the suites, with the private state.
    Status read_package_lists() const {
        say(fmt::format("reading Debian's package lists of {} at {} (mirror from {})",
                        suites_text(), mirror(), m_request.archive.why));
        if (auto updated = m_apt.run("apt-get", {"update"}, true); !updated) {
            Error e = updated.error();
            e.message = fmt::format("could not read the package lists of {} at {}: {}",
                                    suites_text(), mirror(), e.message);
            e.hint = "A suite that is not served is named above. Set PGLAB_DEBIAN_MIRROR to a "
                     "Debian mirror that serves sid and experimental.";
            return make_error(std::move(e));
        }
        return {};
    }

    /// The Debian version of the server package the suites serve, which must be the PostgreSQL
    /// version asked for: sets `fetched`'s Debian and PostgreSQL versions.
    Status find_version(DebianFetched& fetched) const {
        const std::vector<std::string> show = {"show", "--no-all-versions", m_source};
        PGLAB_TRY_ASSIGN(const util::ProcessResult shown, m_apt.run("apt-cache", show, false));
        const std::vector<DebianStanza> server = parse_stanzas(shown.out);
        if (server.empty()) {
            return make_error(
                Error(fmt::format("no apt source serves {}: it is in neither {} at {}", m_source,
                                  suites_text(), mirror()))
                    .with_hint("PostgreSQL " + std::to_string(m_request.major)
                               + " is not in Debian's archive (yet, or any more)."));
        }
        fetched.debian_version = server.front().version();
        fetched.pg_version = postgres_version_of_debian(fetched.debian_version);
        if (!version_matches(fetched.pg_version, m_request.spec)) {
            return make_error(fmt::format("Debian's {} is {} (PostgreSQL {}), not {}", m_source,
                                          fetched.debian_version, fetched.pg_version,
                                          m_request.spec));
        }
        return {};
    }

    /// The server, its client programs (pgbench) and the libpq they are built with, all of one
    /// build at `debian_version`; the libraries they need at the versions sid has.
    Result<std::vector<DebianStanza>> packages(const std::string& debian_version) const {
        const std::string client = fmt::format("postgresql-client-{}", m_request.major);
        const std::map<std::string, std::string> pinned = {
            {m_source, debian_version}, {client, debian_version}, {"libpq5", debian_version}};
        std::vector<std::string> missing;
        std::vector<DebianStanza> out = library_closure(
            {m_source, client, "libpq5"}, pinned,
            [&](const std::vector<std::string>& names) {
                std::vector<std::string> args = {"show", "--no-all-versions"};
                args.insert(args.end(), names.begin(), names.end());
                // A name apt does not know makes it fail after printing the others: read what
                // it printed; library_closure counts the rest as unknown.
                auto r = m_apt.run("apt-cache", args, false);
                return r ? parse_stanzas(r->out) : std::vector<DebianStanza>{};
            },
            missing);
        if (!missing.empty()) {
            std::string names;
            for (const std::string& m : missing) {
                names += (names.empty() ? "" : ", ") + m;
            }
            return make_error(fmt::format("{} {} needs packages that {} at {} do not have: {}",
                                          m_source, debian_version, suites_text(), mirror(),
                                          names));
        }
        return out;
    }

    /// Downloads `packages` and unpacks them into `root`; adds their size to `fetched`.
    Status download_and_unpack(const std::vector<DebianStanza>& packages, const fs::path& root,
                               DebianFetched& fetched) const {
        std::vector<std::string> download = {"download"};
        for (const DebianStanza& p : packages) {
            download.push_back(p.package() + "=" + p.version());
            fetched.download_bytes += std::strtoull(p.get("size").c_str(), nullptr, 10);
        }
        fetched.packages = static_cast<int>(packages.size());
        say(fmt::format("downloading {} {} and {} libraries ({:.1f} MB)", m_source,
                        fetched.debian_version, packages.size() - 3,
                        static_cast<double>(fetched.download_bytes) / 1e6));
        const fs::path debs = m_request.staging / "debs";
        std::error_code ec;
        fs::create_directories(debs, ec);
        PGLAB_TRY(m_apt.run("apt-get", download, true, debs));
        say(fmt::format("unpacking {} packages", packages.size()));
        fs::create_directories(root, ec);
        for (const auto& entry : fs::directory_iterator(debs, ec)) {
            if (entry.path().extension() != ".deb") {
                continue;
            }
            util::SpawnOptions x;
            x.argv = {"dpkg-deb", "-x", entry.path().string(), root.string()};
            x.timeout = std::chrono::seconds(300);
            if (auto unpacked = util::run_checked(x); !unpacked) {
                return make_error(std::move(unpacked.error().with_hint(k_tools_hint)));
            }
        }
        return {};
    }

    /// The unpacked tree `out` (its programs under root/) relocated, described and moved into
    /// the cache as `dest`.
    Status install(const fs::path& out, const fs::path& dest,
                   const std::vector<DebianStanza>& packages,
                   const std::string& debian_version) const {
        const fs::path bin_relative =
            fs::path("usr/lib/postgresql") / std::to_string(m_request.major) / "bin";
        say("relocating the programs to the unpacked C library (patchelf)");
        if (Status moved = relocate(out / "root", dest / "root", bin_relative); !moved) {
            return make_error(std::move(moved.error().with_hint(k_tools_hint)));
        }
        std::error_code ec;
        fs::create_directory_symlink(fs::path("root") / bin_relative, out / "bin", ec);
        std::ofstream(out / "debian-version") << m_source << ' ' << debian_version << " from "
                                              << mirror() << " (" << suites_text() << ")\n";
        std::ofstream list(out / "packages");
        for (const DebianStanza& p : packages) {
            list << p.package() << ' ' << p.version() << '\n';
        }
        list.close();
        fs::remove_all(dest, ec);
        fs::rename(out, dest, ec);
        if (ec) {
            return make_error(fmt::format("could not move the binaries to \"{}\": {}",
                                          dest.string(), ec.message()));
        }
        return {};
    }

private:
    void say(const std::string& line) const {
        if (m_request.progress) {
            m_request.progress(line);
        }
    }

    const std::string& mirror() const { return m_request.archive.mirror; }

    const DebianFetchRequest& m_request;
    std::string m_source;
    PrivateApt m_apt;
};

} // namespace

Result<DebianFetched> fetch_debian_release(const DebianFetchRequest& request) {
    DebianFetched fetched;
    if (!request.force) {
        if (auto inst = cached(request.cache, request.spec)) {
            fetched.dir = inst->bin_dir.parent_path();
            fetched.pg_version = inst->version;
            fetched.already = true;
            return fetched;
        }
    }
    const DebianFetch fetch(request);
    PGLAB_TRY(fetch.read_package_lists());
    PGLAB_TRY(fetch.find_version(fetched));
    PGLAB_TRY_ASSIGN(const std::vector<DebianStanza> packages,
                     fetch.packages(fetched.debian_version));
    const fs::path out = request.staging / "out";
    PGLAB_TRY(fetch.download_and_unpack(packages, out / "root", fetched));
    const fs::path dest = request.cache / fetched.pg_version;
    PGLAB_TRY(fetch.install(out, dest, packages, fetched.debian_version));
    auto inst = installation_at(dest / "bin");
    if (!inst) {
        std::error_code ec;
        fs::remove_all(dest, ec);
        return make_error(std::move(inst.error().with_hint(
            "The relocated binaries do not run; they were removed from the cache again.")));
    }
    fetched.dir = dest;
    fetched.pg_version = inst->version;
    fetched.installed_bytes = tree_bytes(dest);
    return fetched;
}

} // namespace pglab::lab::server
