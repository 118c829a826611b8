// lab/server: a throwaway cluster's initdb, and the per-machine cache of initdb's output that
// makes the next cluster of the same installation and options a copy.
#include "lab/server/cluster_files.hpp"
#include "lab/server/throwaway_cluster.hpp"
#include "util/log.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace pglab::lab::server {

namespace fs = std::filesystem;

fs::path ThrowawayCluster::initdb_cache_entry() const {
    if (m_options.initdb_cache_dir.empty() || !m_options.password.empty()) {
        return {};
    }
    // Everything initdb's output depends on, but the data directory's own path.
    std::string key =
        fmt::format("{}\n{}\n{}\n{}", m_installation.bin_dir.string(), m_installation.version,
                    m_options.superuser, m_run_as ? m_run_as->name : std::string());
    for (const auto& a : m_options.initdb_args) {
        key += "\n" + a;
    }
    return m_options.initdb_cache_dir
           / fmt::format("{}-{:016x}", m_installation.major, std::hash<std::string>{}(key));
}

bool ThrowawayCluster::copy_from_initdb_cache(const fs::path& entry) {
    std::error_code ec;
    if (!fs::is_directory(entry, ec)) {
        return false;
    }
    if (copy_tree(entry, m_data_dir)) {
        log::debug("copied initdb's output from \"{}\"", entry.string());
        return true;
    }
    fs::remove_all(m_data_dir, ec); // a partial copy; initdb makes it anew
    return false;
}

void ThrowawayCluster::keep_in_initdb_cache(const fs::path& entry) {
    // Copied under a name of our own, then renamed: a concurrent reader never sees half an entry.
    std::error_code ec;
    fs::create_directories(entry.parent_path(), ec);
    const fs::path partial = entry.string() + fmt::format(".partial-{}", ::getpid());
    if (copy_tree(m_data_dir, partial)) {
        fs::rename(partial, entry, ec);
    }
    fs::remove_all(partial, ec); // left only when another process was first
}

Status ThrowawayCluster::run_initdb() {
    const fs::path cache_entry = initdb_cache_entry();
    if (!cache_entry.empty() && copy_from_initdb_cache(cache_entry)) {
        return {};
    }
    const bool scram = !m_options.password.empty();
    const fs::path pwfile = m_base_dir / "initdb.pw";
    std::vector<std::string> argv = {m_installation.tool("initdb").string(),
                                     "-D",
                                     m_data_dir.string(),
                                     "-A",
                                     scram ? "scram-sha-256" : "trust",
                                     "-U",
                                     m_options.superuser,
                                     "-E",
                                     "UTF8",
                                     "--locale=C",
                                     "--no-sync"};
    if (scram) {
        // The password reaches initdb in a file only its user reads, removed once it ran.
        PGLAB_TRY(write_file(pwfile, m_options.password + "\n", std::ios::trunc));
        std::error_code ec;
        fs::permissions(pwfile, fs::perms::owner_read | fs::perms::owner_write, ec);
        PGLAB_TRY(chown_to(pwfile, m_run_as));
        argv.push_back("--pwfile=" + pwfile.string());
    }
    argv.insert(argv.end(), m_options.initdb_args.begin(), m_options.initdb_args.end());
    util::SpawnOptions o = server_spawn_options(argv);
    o.env.clear(); // the server environment (LD_PRELOAD...) is for the server only
    log::debug("running {}", util::quote_command(argv));
    auto run = util::run_process(o);
    if (scram) {
        std::error_code ec;
        fs::remove(pwfile, ec);
    }
    if (!run && m_run_as) {
        // Either the binaries (a release cache made 0700) or the data directory may be out of
        // that user's reach; the message says which path failed.
        run.error().with_hint(fmt::format(
            "As root, initdb and the server run as \"{}\", who must reach the binaries in \"{}\" "
            "and the data in \"{}\": every directory above them must be open to that user "
            "(chmod o+x), or set PGLAB_CACHE_DIR (fetched releases) and TMPDIR (data) to such "
            "directories, as /var/cache/pglab and /tmp are.",
            m_run_as->name, m_installation.bin_dir.string(), m_base_dir.string()));
    }
    PGLAB_TRY_ASSIGN(const util::ProcessResult r, std::move(run));
    PGLAB_TRY(tool_succeeded("initdb", r));
    if (!cache_entry.empty()) {
        keep_in_initdb_cache(cache_entry);
    }
    return {};
}

} // namespace pglab::lab::server
