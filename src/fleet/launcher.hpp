// Whether this process was started by an MPI launcher (mpirun, srun, mpiexec) as one of several:
// read from the environment the launchers set, so that it works in a build without MPI too.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace pglab::fleet {

struct LaunchInfo {
    int rank = 0;
    int size = 0; ///< processes in the job; 0 when the launcher did not say
};

/// OMPI_COMM_WORLD_RANK/SIZE (Open MPI's mpirun), PMI_RANK/PMI_SIZE (MPICH's hydra, Intel MPI),
/// PMIX_RANK (PMIx launchers: Open MPI, srun --mpi=pmix; size from SLURM_NTASKS when set).
/// nullopt when none is set: not under a launcher. `getenv` is replaceable for tests.
std::optional<LaunchInfo>
detect_launcher(const std::function<std::optional<std::string>(const char*)>& getenv);

/// detect_launcher() on the process's environment.
std::optional<LaunchInfo> detect_launcher();

/// Whether this pglab was built with MPI (PGLAB_MPI).
bool built_with_mpi();

} // namespace pglab::fleet
