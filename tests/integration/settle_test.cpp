// Settling a server before a run (lab/run/settle.hpp) against a real server: an idle one settles
// after its CHECKPOINT; a session still running keeps it unsettled until the bound, and the
// record says what was busy.
#include "lab/run/settle.hpp"
#include "support/test_server.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace {

using pglab::lab::run::settle_server;
using pglab::lab::run::SettleLimits;

TEST(Settle, AnIdleServerSettlesAfterItsCheckpoint) {
    pglab::pg::Connection conn = support::connect(support::test_server());
    ASSERT_TRUE(conn.valid());
    const auto settled = settle_server(conn);
    EXPECT_TRUE(settled.settled) << settled.busy;
    EXPECT_EQ(settled.busy, "");
    EXPECT_GE(settled.checkpoint_ms, 0.0);
}

TEST(Settle, ASessionStillRunningKeepsItUnsettledAndSaysSo) {
    const auto& server = support::test_server();
    pglab::pg::Connection conn = support::connect(server);
    pglab::pg::Connection other = support::connect(server);
    ASSERT_TRUE(conn.valid() && other.valid());
    ASSERT_TRUE(other.send_query("SELECT pg_sleep(600) /* settle_test */"));
    ASSERT_TRUE(support::wait_for_sql(server, "SELECT count(*) = 1 FROM pg_stat_activity WHERE "
                                              "state = 'active' AND query LIKE '%settle_test */'"));
    SettleLimits quick;
    quick.bound = std::chrono::milliseconds(100);
    quick.poll = std::chrono::milliseconds(10);
    const auto unsettled = settle_server(conn, quick);
    EXPECT_FALSE(unsettled.settled);
    EXPECT_EQ(unsettled.busy, "1 other active session");
    ASSERT_TRUE(conn.exec("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE "
                          "'%settle_test */' AND pid <> pg_backend_pid()"));
}

} // namespace
