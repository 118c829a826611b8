// Locating PostgreSQL installations and reading their version with `postgres -V`.
#include "lab/server/installation.hpp"

#include "util/subprocess.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <charconv>
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

} // namespace pglab::lab::server
