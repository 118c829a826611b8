// `pglab server build` of a real PostgreSQL source tree: Debian's postgresql-18, unpacked by
// scripts/build-pgbench-reference and built by it through pglab once per machine
// (`--build-source`, which make test-references passes). Here: the same tree is found built under
// its key without building, and a server of 18 starts from the build, with its own pgbench.
#include "lab/server/installation.hpp"
#include "lab/server/throwaway_cluster.hpp"

#include <regex>
#include <string>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;
namespace server = pglab::lab::server;

class ServerBuildReference : public support::LabTestDir {};

TEST_F(ServerBuildReference, Debian18SourceTreeIsBuiltOnceAndStartsAServer) {
    const fs::path tree =
        server::release_cache_dir().parent_path() / "pgbench-reference" / "src-18";
    if (!fs::exists(tree / "configure")) {
        GTEST_SKIP() << "no source tree at " << tree
                     << ": scripts/build-pgbench-reference unpacks it and, with --build-source, "
                        "builds it (make test-references does)";
    }
    const auto r =
        support::run_command({support::pglab_binary(), "server", "build", tree.string()}, env());
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    std::smatch m;
    const std::regex built(R"(is built already \(key (tree-[0-9a-f]{12}-[0-9a-f]{8})\): (\S+))");
    ASSERT_TRUE(std::regex_search(r.out, m, built))
        << "the references phase built it; found again, not built\n"
        << r.out;
    const fs::path bin = m[2].str();
    EXPECT_EQ(bin, server::builds_cache_dir() / m[1].str() / "bin");

    auto inst = server::installation_at(bin);
    ASSERT_TRUE(inst) << inst.error().message;
    EXPECT_EQ(inst->major, 18) << inst->version;
    server::ClusterOptions o;
    o.bin_dir = bin;
    o.parent_dir = m_tmp;
    auto cluster = server::ThrowawayCluster::create(o);
    ASSERT_TRUE(cluster) << cluster.error().message << "\n" << cluster.error().detail;
    const auto version = cluster->psql("SHOW server_version_num");
    ASSERT_TRUE(version) << version.error().message;
    EXPECT_EQ(std::stoi(*version) / 10000, 18);
    ASSERT_TRUE(cluster->remove());

    const auto pgbench = support::run_command({(bin / "pgbench").string(), "-V"});
    ASSERT_EQ(pgbench.exit_code, 0) << support::describe(pgbench);
    EXPECT_EQ(pgbench.out.rfind("pgbench (PostgreSQL) 18.", 0), 0u) << pgbench.out;
    expect_clean();
}

} // namespace
