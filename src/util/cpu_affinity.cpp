#include "util/cpu_affinity.hpp"

#include <pthread.h>
#include <sched.h>

namespace pglab::util {

std::vector<int> allowed_cpus() {
    std::vector<int> cpus;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        return cpus;
    }
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &set)) {
            cpus.push_back(cpu);
        }
    }
    return cpus;
}

int cpu_for_worker(int index, int workers, const std::vector<int>& allowed) {
    if (workers < 2 || allowed.size() < 2 || index < 0) {
        return -1;
    }
    return allowed[static_cast<size_t>(index) % allowed.size()];
}

bool pin_current_thread(int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) {
        return false;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0; // 0: the calling thread
}

} // namespace pglab::util
