// The engine under conditions pgbench handles badly: hundreds of clients on two threads, and a
// server that dies during the run.
#include "lab/server/throwaway_cluster.hpp"
#include "pg/batched_io.hpp"
#include "support/files.hpp"
#include "support/run_command.hpp"
#include "support/test_server.hpp"
#include "util/cpu_affinity.hpp"
#include "util/subprocess.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <thread>

namespace {

using pglab::lab::server::ClusterOptions;
using pglab::lab::server::ThrowawayCluster;

ThrowawayCluster make_cluster(int max_connections) {
    ClusterOptions opts = support::cluster_options();
    opts.settings.push_back({"max_connections", std::to_string(max_connections)});
    auto c = ThrowawayCluster::create(opts);
    if (!c) {
        ADD_FAILURE() << c.error().message;
        std::exit(1);
    }
    return std::move(*c);
}

using support::read_file;

std::vector<std::string> bench_args(const ThrowawayCluster& c, std::vector<std::string> args) {
    std::vector<std::string> argv = {
        support::pglab_binary(),  "bench", "-h",    c.socket_dir().string(), "-p",
        std::to_string(c.port()), "-U",    c.user()};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.emplace_back("postgres");
    return argv;
}

TEST(BenchEngine, FiveHundredClientsOnTwoThreads) {
    ThrowawayCluster c = make_cluster(520);
    auto init = support::run_command(bench_args(c, {"-i", "-q"}));
    ASSERT_EQ(init.exit_code, 0) << support::describe(init);
    auto r = support::run_command(bench_args(c, {"-c", "500", "-j", "2", "-t", "4", "-S", "-n"}));
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_NE(r.out.find("number of transactions actually processed: 2000/2000"), std::string::npos)
        << r.out;
    EXPECT_EQ(r.err.find("error"), std::string::npos) << r.err;
}

TEST(BenchEngine, MoreClientsThanTheServerAllowsFailWithTheServersMessage) {
    // 2000 connections at once would overflow the socket's listen backlog (600 here) and fail
    // with EAGAIN; pglab connects a bounded number at a time, so the server's own refusal is
    // what the user sees, as with pgbench.
    ThrowawayCluster c = make_cluster(300);
    auto init = support::run_command(bench_args(c, {"-i", "-q"}));
    ASSERT_EQ(init.exit_code, 0) << support::describe(init);
    auto r = support::run_command(bench_args(c, {"-c", "2000", "-j", "2", "-t", "1", "-S", "-n"}));
    EXPECT_EQ(r.exit_code, 1) << support::describe(r); // as pgbench 15 when a client cannot connect
    EXPECT_NE(r.err.find("sorry, too many clients already"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("could not create connection for client "), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("Resource temporarily unavailable"), std::string::npos) << r.err;
}

TEST(BenchEngine, ServerDeathEndsTheRunWithExitTwo) {
    ThrowawayCluster c = make_cluster(50);
    auto init = support::run_command(bench_args(c, {"-i", "-q"}));
    ASSERT_EQ(init.exit_code, 0) << support::describe(init);

    pglab::util::SpawnOptions opts;
    opts.argv = bench_args(c, {"-c", "4", "-j", "2", "-T", "600", "-n"});
    opts.output = pglab::util::Output::file;
    opts.output_path = c.base_dir().string() + "/bench.out";
    auto child = pglab::util::ChildProcess::start(opts);
    ASSERT_TRUE(child) << child.error().message;
    ASSERT_TRUE(support::wait_for_sql(c, support::bench_sessions_active(4)))
        << read_file(opts.output_path);
    ASSERT_TRUE(c.stop_server());
    // The run has 600 s to go: ending long before that is the server's death noticed.
    auto status = child->wait(support::k_event_timeout);
    ASSERT_TRUE(status.has_value()) << "pglab bench still running long after the server died";
    EXPECT_EQ(status->code, 2) << status->describe();
    const std::string output = read_file(opts.output_path);
    EXPECT_NE(output.find("number of transactions actually processed: "), std::string::npos)
        << output;
    EXPECT_NE(output.find("Run was aborted; the above results are incomplete."), std::string::npos)
        << output;
}

/// The CPUs of the threads of `pid` that are restricted to exactly one CPU.
std::multiset<std::string> pinned_thread_cpus(pid_t pid) {
    std::multiset<std::string> pinned;
    const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
    std::error_code ec;
    for (const auto& task : std::filesystem::directory_iterator(tasks, ec)) {
        const std::string status = read_file(task.path().string() + "/status");
        const std::string key = "Cpus_allowed_list:";
        const size_t at = status.find(key);
        if (at == std::string::npos) {
            continue;
        }
        const size_t begin = status.find_first_not_of(" \t", at + key.size());
        const std::string list = status.substr(begin, status.find('\n', begin) - begin);
        if (list.find_first_of(",-") == std::string::npos) {
            pinned.insert(list);
        }
    }
    return pinned;
}

/// Runs a -j 2 benchmark with `extra` options and reads its threads' CPU masks once its four
/// clients have run a statement (the workers pin themselves before connecting), then ends it.
std::multiset<std::string> pinned_cpus_during_run(const ThrowawayCluster& c,
                                                  std::vector<std::string> extra) {
    std::vector<std::string> args = {"-c", "4", "-j", "2", "-T", "600", "-n", "-S"};
    args.insert(args.end(), extra.begin(), extra.end());
    pglab::util::SpawnOptions opts;
    opts.argv = bench_args(c, args);
    opts.output = pglab::util::Output::file;
    opts.output_path = c.base_dir().string() + "/pinning.out";
    auto child = pglab::util::ChildProcess::start(opts);
    if (!child) {
        ADD_FAILURE() << child.error().message;
        return {};
    }
    EXPECT_TRUE(support::wait_for_sql(c, support::bench_sessions_active(4)))
        << read_file(opts.output_path);
    std::multiset<std::string> pinned = pinned_thread_cpus(child->pid());
    child->send_signal(SIGTERM);
    EXPECT_TRUE(child->wait(support::k_event_timeout).has_value()) << read_file(opts.output_path);
    return pinned;
}

TEST(BenchEngine, WorkerThreadsArePinnedToDistinctCpusUnlessAskedNotTo) {
    if (pglab::util::allowed_cpus().size() < 2) {
        GTEST_SKIP() << "this process may use only one CPU: nothing to spread";
    }
    ThrowawayCluster c = make_cluster(20);
    auto init = support::run_command(bench_args(c, {"-i", "-q"}));
    ASSERT_EQ(init.exit_code, 0) << support::describe(init);

    const std::multiset<std::string> pinned = pinned_cpus_during_run(c, {});
    ASSERT_EQ(pinned.size(), 2u) << "one pinned thread per worker";
    EXPECT_NE(*pinned.begin(), *pinned.rbegin()) << "the two workers share a CPU";

    EXPECT_TRUE(pinned_cpus_during_run(c, {"--no-pin-threads"}).empty());
}

/// A thread's sockets go through io_uring when it runs 4 to 16 clients, unless the user or the
/// run's kind says otherwise, and the JSON export says which way each thread went.
TEST(BenchEngine, SocketsGoThroughIoUringFromFourToSixteenClientsAThreadUnlessAskedOtherwise) {
    ThrowawayCluster c = make_cluster(50);
    auto init = support::run_command(bench_args(c, {"-i", "-q"}));
    ASSERT_EQ(init.exit_code, 0) << support::describe(init);
    const std::string json_path = c.base_dir().string() + "/io.json";
    const auto socket_io = [&](int clients, std::vector<std::string> extra,
                               const support::EnvOverrides& env = {}) {
        std::vector<std::string> args = {
            "-c", std::to_string(clients),     "-j", "2", "-t", "50", "-S",
            "-n", "--export-json=" + json_path};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto r = support::run_command(bench_args(c, args), env);
        EXPECT_EQ(r.exit_code, 0) << support::describe(r);
        EXPECT_NE(r.out.find(fmt::format("number of transactions actually processed: {}/{}",
                                         clients * 50, clients * 50)),
                  std::string::npos)
            << r.out;
        return nlohmann::json::parse(read_file(json_path))
            .at("options")
            .at("thread_socket_io")
            .get<std::vector<std::string>>();
    };
    using Modes = std::vector<std::string>;
    EXPECT_EQ(socket_io(8, {"--no-io-uring"}), (Modes{"epoll", "epoll"}));
    EXPECT_EQ(socket_io(8, {"-C"}), (Modes{"epoll", "epoll"})) << "a connection per transaction";
    EXPECT_EQ(socket_io(4, {}), (Modes{"epoll", "epoll"})) << "2 clients a thread";
    std::string why_not;
    if (!pglab::pg::BatchedIo::create(1, why_not)) {
        EXPECT_EQ(socket_io(8, {}), (Modes{"epoll", "epoll"}));
        GTEST_SKIP() << "this kernel refuses io_uring (" << why_not << "): epoll checked only";
    }
    EXPECT_EQ(socket_io(8, {}), (Modes{"io_uring", "io_uring"}));
    EXPECT_EQ(socket_io(7, {}), (Modes{"io_uring", "epoll"})) << "4 clients, then 3";
    EXPECT_EQ(socket_io(33, {}), (Modes{"epoll", "io_uring"})) << "17 clients, then 16";
    EXPECT_EQ(socket_io(34, {"--io-uring"}), (Modes{"io_uring", "io_uring"}));
    EXPECT_EQ(socket_io(8, {"-M", "prepared", "-R", "500"}), (Modes{"io_uring", "io_uring"}));
    EXPECT_EQ(socket_io(2, {"--io-uring"}), (Modes{"io_uring", "io_uring"}));
    EXPECT_EQ(socket_io(2, {}, {{"PGLAB_IO_URING", "always"}}), (Modes{"io_uring", "io_uring"}));
    EXPECT_EQ(socket_io(8, {}, {{"PGLAB_IO_URING", "never"}}), (Modes{"epoll", "epoll"}));
}

} // namespace
