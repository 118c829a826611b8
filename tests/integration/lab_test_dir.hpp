// A scratch directory for `pglab run` tests: experiment files, results, and a TMPDIR of its own
// for the throwaway clusters, so that a test can check that nothing is left behind.
#pragma once

#include "lab/server/installation.hpp"
#include "lab/store/results_file.hpp"
#include "support/processes.hpp"
#include "support/run_command.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace support {

/// The installed PostgreSQL 15 and one release of each other major from `min_major` on that
/// `pglab server fetch` put in the cache (never downloaded here), by major.
inline std::map<int, pglab::lab::server::Installation> installed_and_cached(int min_major) {
    namespace server = pglab::lab::server;
    std::map<int, server::Installation> out;
    if (auto system = server::find_installation(15)) {
        out.emplace(system->major, *system);
    }
    for (const auto& inst : server::list_installations()) {
        if (inst.origin == "cache" && inst.major >= min_major) {
            out.emplace(inst.major, inst);
        }
    }
    return out;
}

/// A `[servers.pgN]` table for each of `found` (autovacuum off, so that no worker writes WAL
/// into a measured step) and the matrix line that runs every cell on each of them.
inline std::string
servers_of_every_version(const std::map<int, pglab::lab::server::Installation>& found) {
    std::string servers;
    std::string names;
    for (const auto& [major, inst] : found) {
        servers += "[servers.pg" + std::to_string(major) + "]\nversion = \"" + inst.version
                   + "\"\nsettings = { autovacuum = \"off\" }\n\n";
        names += (names.empty() ? "\"pg" : ", \"pg") + std::to_string(major) + "\"";
    }
    return servers + "[matrix]\nserver = [" + names + "]\n";
}

class LabTestDir : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/pglab-labtest-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        m_dir = tmpl;
        m_tmp = m_dir / "tmp";
        std::filesystem::create_directories(m_tmp);
        // The server user must reach its cluster directory.
        ::chmod(m_dir.c_str(), 0755);
        ::chmod(m_tmp.c_str(), 01777);
    }

    void TearDown() override {
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
    }

    std::filesystem::path write(const std::string& name, const std::string& text) {
        const std::filesystem::path p = m_dir / name;
        std::ofstream(p) << text;
        return p;
    }

    EnvOverrides env() const { return {{"TMPDIR", m_tmp.string()}}; }

    /// `pglab run FILE --results RESULTS`, its clusters under this directory's TMPDIR.
    CommandResult run_experiment(const std::filesystem::path& file,
                                 const std::filesystem::path& results) const {
        return run_command({pglab_binary(), "run", file.string(), "--results", results.string()},
                           env());
    }

    /// The lines of results.jsonl that are finished runs (by the store's reader), as written.
    std::vector<nlohmann::json> lines(const std::filesystem::path& results) {
        auto c = pglab::lab::store::read_results(results / "results.jsonl");
        EXPECT_TRUE(c) << (c ? "" : c.error().message);
        std::vector<nlohmann::json> docs;
        if (c) {
            EXPECT_TRUE(c->problems.empty()) << c->problems.front().what;
            std::vector<std::string> text;
            std::ifstream in(results / "results.jsonl");
            for (std::string line; std::getline(in, line);) {
                text.push_back(line);
            }
            for (const auto& run : c->runs) {
                docs.push_back(nlohmann::json::parse(text.at(run.line - 1)));
            }
        }
        return docs;
    }

    static std::string read_file(const std::filesystem::path& path) {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }

    /// Every file under `dir` as one string (to look for what must not be there).
    static std::string all_text(const std::filesystem::path& dir) {
        std::string text;
        for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
            if (e.is_regular_file()) {
                text += read_file(e.path());
            }
        }
        return text;
    }

    void expect_clean() {
        EXPECT_TRUE(wait_no_process_in(m_tmp)) << "a server process is left";
        EXPECT_TRUE(std::filesystem::is_empty(m_tmp)) << "a cluster directory is left in " << m_tmp;
    }

    std::filesystem::path m_dir;
    std::filesystem::path m_tmp;
};

} // namespace support
