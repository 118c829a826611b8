// The report's words for a client's cost: how it ran, and the client-bound warning, given only
// where the client shared the server's machine.
#include "lab/report/client_cost_words.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pglab::lab::report {
namespace {

judge::ClientCost cost(double share, bool beside_server) {
    judge::ClientCost c;
    c.machine_share = share;
    c.beside_server = beside_server;
    c.placement.clients = 500;
    c.placement.threads = 2;
    c.placement.thread_socket_io = {"epoll", "epoll"};
    c.placement.thread_pinned = {true, true};
    return c;
}

TEST(ClientCostWords, PlacementNamesClientsAThreadTheSocketIoAndThePinning) {
    EXPECT_EQ(placement_text(cost(0.3, true)), "250 clients a thread on 2 threads, epoll, pinned");
    judge::ClientCost uneven = cost(0.3, true);
    uneven.placement.clients = 7;
    uneven.placement.thread_socket_io = {"io_uring", "epoll"};
    uneven.placement.thread_pinned = {true, false};
    EXPECT_EQ(placement_text(uneven),
              "3–4 clients a thread on 2 threads, io_uring and epoll, 1 of 2 threads pinned");
    judge::ClientCost one;
    one.placement.clients = 1;
    one.placement.threads = 1;
    one.placement.thread_pinned = {false};
    EXPECT_EQ(placement_text(one), "1 client a thread on 1 thread, unpinned");
    EXPECT_EQ(placement_text(judge::ClientCost{}), "") << "an older document: nothing known";
}

TEST(ClientCostWords, WarnsOnlyAboveTheLimitBesideTheServer) {
    StepData step;
    step.key = "tpcb";
    step.client_costs[3] = cost(0.31, true);
    step.client_costs[4] = cost(0.20, true);  // under the limit
    step.client_costs[5] = cost(0.60, false); // the server's machine is another
    const auto warning = client_bound_warning(step, 0.25);
    ASSERT_TRUE(warning.has_value());
    EXPECT_EQ(*warning,
              "Step tpcb: the client (pglab) used more than 25% of the CPU of the machine it "
              "shares with the server in run 3 (31%, 250 clients a thread on 2 threads, epoll, "
              "pinned): the run measured the client as much as the server (client-bound). Use "
              "fewer clients or threads, or run the client on another machine.");
    step.client_costs.erase(3);
    EXPECT_FALSE(client_bound_warning(step, 0.25).has_value());
    judge::ClientCost unknown;
    unknown.beside_server = true; // no share known
    step.client_costs[6] = unknown;
    EXPECT_FALSE(client_bound_warning(step, 0.25).has_value());
}

} // namespace
} // namespace pglab::lab::report
