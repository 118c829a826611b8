// Placing benchmark threads on CPUs. When the client and the server share a machine, a worker
// thread left to the scheduler keeps migrating, and its backends get spread over other CPUs:
// every query then wakes a task on another CPU (an inter-processor interrupt, costly in a VM)
// instead of switching locally. Pinning each worker to its own CPU lets the kernel's
// wake-affine placement gather a worker's backends next to it.
#pragma once

#include <vector>

namespace pglab::util {

/// The CPUs the calling thread may run on (its affinity mask, set by taskset or a cpuset),
/// in ascending order; empty when the kernel does not say.
std::vector<int> allowed_cpus();

/// The CPU for worker `index` of `workers`, round-robin over `allowed`; -1 when pinning has
/// nothing to spread (one worker, or fewer than two CPUs).
int cpu_for_worker(int index, int workers, const std::vector<int>& allowed);

/// Restricts the calling thread to `cpu`. False when the kernel refuses (errno is kept).
bool pin_current_thread(int cpu);

} // namespace pglab::util
