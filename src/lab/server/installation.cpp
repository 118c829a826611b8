// Locating PostgreSQL installations and reading their version with `postgres -V`.
#include "lab/server/installation.hpp"

#include "util/subprocess.hpp"

#include <fmt/format.h>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <set>
#include <sstream>
#include <system_error>
#include <vector>

namespace pglab::lab::server {

namespace fs = std::filesystem;

namespace {

bool is_executable(const fs::path& p) {
    return ::access(p.c_str(), X_OK) == 0;
}

/// Majors under /usr/lib/postgresql that have `bin/<tool>`, newest first.
std::vector<int> installed_majors(const std::string& tool) {
    std::vector<int> majors;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(k_debian_install_root, ec)) {
        const std::string name = entry.path().filename().string();
        int major = 0;
        const auto [end, err] = std::from_chars(name.data(), name.data() + name.size(), major);
        if (err == std::errc{} && end == name.data() + name.size()
            && is_executable(entry.path() / "bin" / tool)) {
            majors.push_back(major);
        }
    }
    std::sort(majors.rbegin(), majors.rend());
    return majors;
}

fs::path debian_bin_dir(int major) {
    return fs::path(k_debian_install_root) / std::to_string(major) / "bin";
}

} // namespace

fs::path Installation::client_tool(const std::string& name) const {
    if (is_executable(tool(name))) {
        return tool(name);
    }
    const std::vector<int> majors = installed_majors(name);
    if (!majors.empty()) {
        return debian_bin_dir(majors.front()) / name;
    }
    return name;
}

Result<Installation> find_newest_installation() {
    const std::vector<int> majors = installed_majors("initdb");
    if (majors.empty()) {
        return make_error(Error(fmt::format("no PostgreSQL installation found under \"{}\"",
                                            k_debian_install_root))
                              .with_hint("Install postgresql-15 (scripts/bootstrap) or name a "
                                         "bin directory."));
    }
    return installation_at(debian_bin_dir(majors.front()));
}

Result<Installation> find_installation(int major) {
    const fs::path bin = debian_bin_dir(major);
    if (!is_executable(bin / "initdb")) {
        return make_error(fmt::format("PostgreSQL {} is not installed: \"{}\" not found", major,
                                      (bin / "initdb").string()));
    }
    return installation_at(bin);
}

Result<Installation> installation_at(const fs::path& bin_dir) {
    for (const char* tool : {"initdb", "postgres"}) {
        if (!is_executable(bin_dir / tool)) {
            return make_error(fmt::format("\"{}\" is not a PostgreSQL bin directory: no \"{}\"",
                                          bin_dir.string(), tool));
        }
    }
    util::SpawnOptions o;
    o.argv = {(bin_dir / "postgres").string(), "-V"};
    o.timeout = std::chrono::seconds(30);
    PGLAB_TRY_ASSIGN(const util::ProcessResult r, util::run_process(o));
    // "postgres (PostgreSQL) 15.10 (Debian 15.10-0+deb12u1)"
    const std::string marker = "(PostgreSQL) ";
    const size_t at = r.out.find(marker);
    if (!r.status.success() || at == std::string::npos) {
        return make_error(fmt::format("could not read the version of \"{}\": {}",
                                      (bin_dir / "postgres").string(), r.out + r.err));
    }
    Installation inst;
    inst.bin_dir = bin_dir;
    const size_t begin = at + marker.size();
    inst.version = r.out.substr(begin, r.out.find_first_of(" \n", begin) - begin);
    std::from_chars(inst.version.data(), inst.version.data() + inst.version.size(), inst.major);
    return inst;
}

namespace {

struct VersionPart {
    bool number = false;
    long value = 0;
    std::string text;
};

std::vector<VersionPart> version_parts(const std::string& v) {
    std::vector<VersionPart> parts;
    for (size_t i = 0; i < v.size();) {
        if (std::isdigit(static_cast<unsigned char>(v[i])) != 0) {
            size_t j = i;
            while (j < v.size() && std::isdigit(static_cast<unsigned char>(v[j])) != 0) {
                ++j;
            }
            parts.push_back({true, std::atol(v.substr(i, j - i).c_str()), {}});
            i = j;
        } else if (std::isalpha(static_cast<unsigned char>(v[i])) != 0) {
            size_t j = i;
            while (j < v.size() && std::isalpha(static_cast<unsigned char>(v[j])) != 0) {
                ++j;
            }
            parts.push_back({false, 0, v.substr(i, j - i)});
            i = j;
        } else {
            ++i; // separators
        }
    }
    return parts;
}

/// Installations in `dir`: `dir` itself when it is a bin directory, else each `dir/*/bin`.
void add_installations_in(const fs::path& dir, const std::string& origin,
                          std::vector<Installation>& out, std::set<fs::path>& seen) {
    auto add = [&](const fs::path& bin) {
        std::error_code ec;
        const fs::path canonical = fs::canonical(bin, ec);
        if (ec || !seen.insert(canonical).second) {
            return;
        }
        Result<Installation> inst = installation_at(bin);
        if (inst) {
            inst->origin = origin;
            out.push_back(std::move(*inst));
        }
    };
    if (is_executable(dir / "initdb")) {
        add(dir);
        return;
    }
    std::error_code ec;
    std::vector<fs::path> bins;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (is_executable(entry.path() / "bin" / "initdb")) {
            bins.push_back(entry.path() / "bin");
        }
    }
    std::sort(bins.begin(), bins.end());
    for (const fs::path& bin : bins) {
        add(bin);
    }
}

} // namespace

int compare_versions(const std::string& a, const std::string& b) {
    const std::vector<VersionPart> pa = version_parts(a);
    const std::vector<VersionPart> pb = version_parts(b);
    for (size_t i = 0;; ++i) {
        if (i == pa.size() || i == pb.size()) {
            if (pa.size() == pb.size()) {
                return 0;
            }
            // The longer one is newer, unless it goes on with a pre-release tag ("beta").
            const bool a_longer = i < pa.size();
            const VersionPart& next = a_longer ? pa[i] : pb[i];
            const int longer_wins = next.number ? 1 : -1;
            return a_longer ? longer_wins : -longer_wins;
        }
        const VersionPart& x = pa[i];
        const VersionPart& y = pb[i];
        if (x.number != y.number) {
            return x.number ? 1 : -1; // "18.0" > "18beta1"
        }
        if (x.number && x.value != y.value) {
            return x.value < y.value ? -1 : 1;
        }
        if (!x.number && x.text != y.text) {
            return x.text < y.text ? -1 : 1;
        }
    }
}

bool version_matches(const std::string& version, const std::string& spec) {
    if (spec.empty() || version.compare(0, spec.size(), spec) != 0) {
        return false;
    }
    if (version.size() == spec.size()) {
        return true;
    }
    const char next = version[spec.size()];
    return next == '.' || std::isalpha(static_cast<unsigned char>(next)) != 0;
}

fs::path release_cache_dir() {
    if (const char* dir = std::getenv("PGLAB_CACHE_DIR"); dir != nullptr && *dir != '\0') {
        return fs::path(dir) / "postgres";
    }
    if (::geteuid() == 0) {
        return "/var/cache/pglab/postgres";
    }
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
        return fs::path(xdg) / "pglab" / "postgres";
    }
    const char* home = std::getenv("HOME");
    if (home == nullptr || *home == '\0') {
        const passwd* pw = ::getpwuid(::geteuid());
        home = pw != nullptr ? pw->pw_dir : "/tmp";
    }
    return fs::path(home) / ".cache" / "pglab" / "postgres";
}

Status prepare_cache_dir(const fs::path& cache) {
    std::error_code ec;
    fs::create_directories(cache, ec);
    if (ec) {
        return make_error(
            Error(fmt::format("could not create \"{}\": {}", cache.string(), ec.message()))
                .with_hint("Set PGLAB_CACHE_DIR to a writable directory."));
    }
    // The server runs as an unprivileged user, who must reach the binaries: pglab's own
    // directories are opened to it, and so is every directory above them that this user owns
    // and that others cannot pass through (a `mktemp -d` is 0700): search only, not listing.
    for (fs::path p = cache; p != p.parent_path(); p = p.parent_path()) {
        if (p.string().find("pglab") != std::string::npos) {
            fs::permissions(p,
                            fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec
                                | fs::perms::others_read | fs::perms::others_exec,
                            ec);
            continue;
        }

        struct stat st {};

        if (::stat(p.c_str(), &st) == 0 && st.st_uid == ::geteuid()
            && (st.st_mode & S_IXOTH) == 0) {
            fs::permissions(p, fs::perms::group_exec | fs::perms::others_exec,
                            fs::perm_options::add, ec);
        }
    }
    return {};
}

fs::path builds_cache_dir() {
    return release_cache_dir().parent_path() / "builds";
}

std::vector<Installation> list_installations() {
    std::vector<Installation> found;
    std::set<fs::path> seen;
    if (const char* path = std::getenv("PGLAB_POSTGRES_PATH"); path != nullptr) {
        std::stringstream ss(path);
        std::string dir;
        while (std::getline(ss, dir, ':')) {
            if (!dir.empty()) {
                add_installations_in(dir, "PGLAB_POSTGRES_PATH", found, seen);
            }
        }
    }
    add_installations_in(k_debian_install_root, "system", found, seen);
    add_installations_in(release_cache_dir(), "cache", found, seen);
    add_installations_in(builds_cache_dir(), "build", found, seen);
    std::stable_sort(found.begin(), found.end(), [](const Installation& a, const Installation& b) {
        return compare_versions(a.version, b.version) > 0;
    });
    return found;
}

Result<Installation> resolve_installation(const std::string& spec) {
    if (spec.find('/') != std::string::npos) {
        return installation_at(spec);
    }
    const std::vector<Installation> found = list_installations();
    for (const Installation& inst : found) {
        if (inst.origin != "build" && version_matches(inst.version, spec)) {
            return inst;
        }
    }
    std::string versions;
    for (const Installation& inst : found) {
        versions += (versions.empty() ? "" : ", ") + inst.version;
    }
    return make_error(
        Error(fmt::format("PostgreSQL {} is not installed", spec))
            .with_detail(versions.empty() ? "No installation was found."
                                          : fmt::format("Found: {}.", versions))
            .with_hint(fmt::format("Run \"pglab server fetch {}\", install it, or name its bin "
                                   "directory (see \"pglab server list\").",
                                   spec)));
}

} // namespace pglab::lab::server
