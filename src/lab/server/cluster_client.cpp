// lab/server: reaching a throwaway cluster as a client (its connection string and environment,
// psql, its version, its log), and sweeping the clusters a killed pglab left behind.
#include "lab/server/cleanup_registry.hpp"
#include "lab/server/cluster_files.hpp"
#include "lab/server/throwaway_cluster.hpp"
#include "util/log.hpp"
#include "util/text_file.hpp"

#include <fmt/format.h>

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace pglab::lab::server {

namespace fs = std::filesystem;

std::string ThrowawayCluster::conninfo(const std::string& dbname) const {
    return fmt::format("host={} port={} user={} dbname={}", quote_setting(m_socket_dir.string()),
                       m_port, quote_setting(user()), quote_setting(dbname));
}

std::vector<std::pair<std::string, std::string>>
ThrowawayCluster::client_env(const std::string& dbname) const {
    std::vector<std::pair<std::string, std::string>> env = {{"PGHOST", m_socket_dir.string()},
                                                            {"PGPORT", std::to_string(m_port)},
                                                            {"PGUSER", user()},
                                                            {"PGDATABASE", dbname}};
    if (!password().empty()) {
        env.emplace_back("PGPASSWORD", password());
    }
    return env;
}

Result<std::string> ThrowawayCluster::psql(const std::string& sql,
                                           const std::string& dbname) const {
    util::SpawnOptions o;
    o.argv = {m_installation.client_tool("psql").string(),
              "-X",
              "-A",
              "-t",
              "-q",
              "-v",
              "ON_ERROR_STOP=1",
              "-h",
              m_socket_dir.string(),
              "-p",
              std::to_string(m_port),
              "-U",
              user(),
              "-d",
              dbname,
              "-f",
              "-"};
    o.stdin_text = sql;
    o.unset_env = {"PGOPTIONS", "PGSERVICE", "PGSERVICEFILE", "PSQLRC"};
    if (!password().empty()) {
        o.env.emplace_back("PGPASSWORD", password());
    }
    o.timeout = m_options.timeout;
    PGLAB_TRY_ASSIGN(const util::ProcessResult r, util::run_process(o));
    if (!r.status.success()) {
        return make_error(Error(fmt::format("psql {}", r.status.describe())).with_detail(r.err));
    }
    return r.out;
}

Result<int> ThrowawayCluster::server_version_num() const {
    PGLAB_TRY_ASSIGN(const std::string out, psql("SHOW server_version_num"));
    return std::atoi(out.c_str());
}

std::string ThrowawayCluster::log_tail(int lines) const {
    auto text = util::read_text_file(m_log_path);
    return text ? tail_lines(*text, lines) : std::string();
}

void remove_stale_clusters(const fs::path& parent_dir) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(parent_dir, ec)) {
        if (entry.path().filename().string().rfind("pglab-", 0) != 0) {
            continue;
        }
        std::ifstream owner(entry.path() / k_owner_file);
        std::ifstream postmaster(entry.path() / "data" / "postmaster.pid");
        pid_t owner_pid = 0;
        pid_t server_pid = 0;
        std::string owner_namespace;
        // Pids mean something only in our pid namespace (another container may share /tmp).
        if (!(owner >> owner_pid >> owner_namespace) || owner_pid <= 0
            || owner_namespace != pid_namespace()) {
            continue;
        }
        postmaster >> server_pid;
        const auto gone = [](pid_t p) { return p <= 0 || (::kill(p, 0) != 0 && errno == ESRCH); };
        if (gone(owner_pid) && gone(server_pid)) {
            // Its server's processes are gone, so its memory cgroup is empty and can go too: only
            // a cgroup named after the directory, as pglab names them (MemoryCgroup::create).
            std::ifstream named(entry.path() / k_cgroup_file);
            std::string cgroup;
            if (std::getline(named, cgroup) && cgroup.rfind("/sys/fs/cgroup/", 0) == 0
                && fs::path(cgroup).filename() == entry.path().filename()) {
                ::rmdir(cgroup.c_str());
            }
            cleanup::remove_tree(entry.path().c_str());
        }
    }
}

} // namespace pglab::lab::server
