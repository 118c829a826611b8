#include "util/cpu_affinity.hpp"

#include <gtest/gtest.h>

#include <sched.h>

#include <thread>

namespace {

using pglab::util::allowed_cpus;
using pglab::util::cpu_for_worker;
using pglab::util::pin_current_thread;

TEST(CpuForWorker, SpreadsWorkersRoundRobinOverTheAllowedCpus) {
    const std::vector<int> allowed = {2, 5, 7};
    EXPECT_EQ(cpu_for_worker(0, 4, allowed), 2);
    EXPECT_EQ(cpu_for_worker(1, 4, allowed), 5);
    EXPECT_EQ(cpu_for_worker(2, 4, allowed), 7);
    EXPECT_EQ(cpu_for_worker(3, 4, allowed), 2);
}

TEST(CpuForWorker, LeavesASingleWorkerOrASingleCpuToTheScheduler) {
    EXPECT_EQ(cpu_for_worker(0, 1, {0, 1}), -1);
    EXPECT_EQ(cpu_for_worker(0, 2, {3}), -1);
    EXPECT_EQ(cpu_for_worker(1, 2, {}), -1);
}

TEST(AllowedCpus, ListsTheCpusOfTheProcessInOrder) {
    const std::vector<int> cpus = allowed_cpus();
    ASSERT_FALSE(cpus.empty());
    EXPECT_TRUE(std::is_sorted(cpus.begin(), cpus.end()));
    EXPECT_LE(static_cast<long>(cpus.size()), static_cast<long>(CPU_SETSIZE));
}

TEST(PinCurrentThread, RestrictsOnlyTheCallingThread) {
    const std::vector<int> before = allowed_cpus();
    const int target = before.back();
    std::vector<int> inside;
    bool pinned = false;
    std::thread t([&] {
        pinned = pin_current_thread(target);
        inside = allowed_cpus();
    });
    t.join();
    ASSERT_TRUE(pinned);
    EXPECT_EQ(inside, std::vector<int>{target});
    EXPECT_EQ(allowed_cpus(), before); // the caller's own mask is untouched
}

TEST(PinCurrentThread, RefusesACpuOutsideTheSet) {
    EXPECT_FALSE(pin_current_thread(-1));
    EXPECT_FALSE(pin_current_thread(CPU_SETSIZE));
}

} // namespace
