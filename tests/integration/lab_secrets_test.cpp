// `pglab run` and passwords: against an existing server that asks for one (scram-sha-256) and
// gets it from the experiment's conninfo (key=value or URI), the password is in no file of the
// results directory (the copy of the experiment file has it masked, otherwise byte for byte),
// nor on the terminal; --resume still connects (the password comes from the original file);
// a `shell` step reaches the server with psql through PGPASSWORD. And plan.json records the
// machine, which the report shows.
#include "lab/server/throwaway_cluster.hpp"

#include <fmt/format.h>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;
namespace server = pglab::lab::server;

constexpr const char* k_secret = "Xy7-s3cret-Pa55word";

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t pos = text.find(from); pos != std::string::npos;
         pos = text.find(from, pos + to.size())) {
        text.replace(pos, from.size(), to);
    }
    return text;
}

class LabSecrets : public support::LabTestDir {
protected:
    void SetUp() override {
        LabTestDir::SetUp();
        server::ClusterOptions opts;
        opts.password = k_secret; // scram-sha-256: every client must give it
        auto c = server::ThrowawayCluster::create(opts);
        ASSERT_TRUE(c) << c.error().message;
        m_server.emplace(std::move(*c));
    }

    void TearDown() override {
        m_server.reset();
        LabTestDir::TearDown();
    }

    std::string keyword_conninfo() const {
        return fmt::format("host={} port={} user={} dbname=postgres password={}",
                           m_server->socket_dir().string(), m_server->port(), m_server->user(),
                           k_secret);
    }

    std::string uri_conninfo() const {
        return fmt::format("postgresql://{}:{}@/postgres?host={}&port={}", m_server->user(),
                           k_secret, m_server->socket_dir().string(), m_server->port());
    }

    support::CommandResult pglab(const std::vector<std::string>& args) const {
        std::vector<std::string> argv = {support::pglab_binary()};
        argv.insert(argv.end(), args.begin(), args.end());
        support::EnvOverrides e = env();
        e.emplace_back("PGLAB_GNUPLOT", "");
        return support::run_command(argv, e);
    }

    /// Nothing under `results` and nothing printed holds the password.
    void expect_no_secret(const fs::path& results, const support::CommandResult& r) {
        EXPECT_EQ(all_text(results).find(k_secret), std::string::npos);
        EXPECT_EQ(r.out.find(k_secret), std::string::npos) << r.out;
        EXPECT_EQ(r.err.find(k_secret), std::string::npos) << r.err;
    }

    /// Keeps the first `n` lines of results.jsonl, as if the plan had been interrupted.
    static void keep_lines(const fs::path& results, std::size_t n) {
        const std::string text = read_file(results / "results.jsonl");
        std::size_t end = 0;
        for (std::size_t i = 0; i < n; ++i) {
            end = text.find('\n', end) + 1;
        }
        fs::resize_file(results / "results.jsonl", end);
    }

    std::optional<server::ThrowawayCluster> m_server;
};

TEST_F(LabSecrets, KeywordConninfoPasswordIsStoredNowhereAndResumeStillConnects) {
    const std::string experiment = fmt::format(R"toml(name = "lab-secrets"
repeat = 2
destructive_ok = true

[servers.existing]
conninfo = "{}"

[matrix]
clients = 1
scale = 1
duration = 1

[[steps]]
type = "init"
once = true
options = ["--quiet"]

[[steps]]
type = "bench"
options = ["--jobs=1"]

[[steps]]
type = "shell"
command = "psql -XAtc 'select 1'"
)toml",
                                               keyword_conninfo());
    const fs::path file = write("secrets.toml", experiment);
    const fs::path results = m_dir / "results";
    auto r = pglab({"run", file.string(), "--results", results.string()});
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    auto ls = lines(results);
    ASSERT_EQ(ls.size(), 2u);
    for (const auto& l : ls) {
        EXPECT_EQ(l["status"], "ok") << l.dump();
    }
    EXPECT_EQ(ls[0]["steps"][2]["exit_status"], 0) << ls[0]["steps"][2].dump();
    const std::string shell_log = read_file(results / ls[0]["steps"][2]["log"].get<std::string>());
    EXPECT_NE(shell_log.find("\n1\n"), std::string::npos) << shell_log;
    expect_no_secret(results, r);
    // The copy: the file with the password masked, every other byte as written.
    EXPECT_EQ(read_file(results / "experiment.toml"),
              replace_all(experiment, k_secret, "********"));

    // plan.json records the machine, and the report shows it as recorded.
    const auto plan = nlohmann::json::parse(read_file(results / "plan.json"));
    ASSERT_TRUE(plan.contains("machine")) << plan.dump();
    EXPECT_GT(plan["machine"].value("cores", 0), 0) << plan["machine"].dump();
    EXPECT_GT(plan["machine"].value("memory_bytes", std::int64_t{0}), 0) << plan["machine"].dump();
    EXPECT_TRUE(plan["machine"]["kernel"].is_string()) << plan["machine"].dump();
    const auto report = pglab({"report", results.string(), "--format", "md", "-o", "-"});
    ASSERT_EQ(report.exit_code, 0) << support::describe(report);
    EXPECT_NE(report.out.find("- machine: "), std::string::npos) << report.out;
    EXPECT_EQ(report.out.find("not recorded with the results"), std::string::npos) << report.out;
    EXPECT_EQ(report.out.find(k_secret), std::string::npos);

    // --resume: the missing run connects with the password of the original file.
    keep_lines(results, 1);
    r = pglab({"run", "--resume", results.string()});
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    ls = lines(results);
    ASSERT_EQ(ls.size(), 2u);
    EXPECT_EQ(ls[1]["status"], "ok") << ls[1].dump();
    expect_no_secret(results, r);

    // Without the original file, the copy cannot give the password: said before it fails.
    fs::rename(file, m_dir / "elsewhere.toml");
    keep_lines(results, 1);
    r = pglab({"run", "--resume", results.string()});
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    EXPECT_NE(r.err.find("keeps the experiment's passwords masked"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("password=********"), std::string::npos) << r.err;
    expect_no_secret(results, r);
    expect_clean();
}

TEST_F(LabSecrets, UriPasswordIsStoredNowhere) {
    const std::string experiment = fmt::format(R"toml(name = "lab-secrets-uri"
destructive_ok = true

[servers.existing]
conninfo = '{0}'

[matrix]
scale = 1

[[steps]]
type = "init"
options = ["--quiet", "{0}"]

[[steps]]
type = "sql"
sql = "SELECT count(*) FROM pgbench_branches"
expect = "1"

[[steps]]
type = "shell"
command = "test \"$(psql -XAtc 'select 41 + 1')\" = 42"
)toml",
                                               uri_conninfo());
    const fs::path file = write("uri.toml", experiment);
    const fs::path results = m_dir / "results";
    const auto r = pglab({"run", file.string(), "--results", results.string()});
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 1u);
    EXPECT_EQ(ls[0]["status"], "ok") << ls[0].dump();
    EXPECT_EQ(ls[0]["steps"][0]["arguments"][2], replace_all(uri_conninfo(), k_secret, "********"))
        << ls[0]["steps"][0].dump();
    EXPECT_EQ(ls[0]["steps"][2]["status"], "ok") << ls[0]["steps"][2].dump();
    expect_no_secret(results, r);
    EXPECT_EQ(read_file(results / "experiment.toml"),
              replace_all(experiment, k_secret, "********"));
    expect_clean();
}

} // namespace
