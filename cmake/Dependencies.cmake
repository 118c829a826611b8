# Third-party libraries, all from Debian packages (scripts/bootstrap installs them).
find_package(Threads REQUIRED)
find_package(PostgreSQL REQUIRED)
find_package(fmt REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(tomlplusplus REQUIRED) # Debian libtomlplusplus-dev: a shared library, not header-only
# Debian libcli11-dev: the lab subcommands' command lines (src/cli/command_line.cpp only)
find_package(CLI11 CONFIG REQUIRED)
# Debian libboost-dev: Boost.Math's Student's t distribution for the report's intervals and tests
# (src/lab/report/statistics.cpp only; header-only)
find_package(Boost 1.74 REQUIRED)
# zlib (Debian zlib1g-dev): the runs kept with a stored result are gzip-compressed
# (src/lab/store/gzip_file.cpp only)
find_package(ZLIB REQUIRED)
# liburing (Debian liburing-dev): io_uring batches the benchmark's socket I/O (src/pg/batched_io.cpp)
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBURING REQUIRED IMPORTED_TARGET liburing)
find_package(GTest)
find_package(benchmark)

# MPI (Debian openmpi-bin, libopenmpi-dev) for the fleet: `mpirun -n N pglab bench` runs one
# benchmark in N processes (src/fleet/, docs/fleet.md). AUTO uses it when found; ON requires it;
# OFF builds without (such a pglab refuses to run as several processes under mpirun).
set(PGLAB_MPI AUTO CACHE STRING "Build the MPI fleet: AUTO, ON or OFF")
set_property(CACHE PGLAB_MPI PROPERTY STRINGS AUTO ON OFF)
set(PGLAB_HAVE_MPI OFF)
if(NOT PGLAB_MPI STREQUAL "OFF")
  if(PGLAB_MPI STREQUAL "ON")
    find_package(MPI REQUIRED COMPONENTS CXX)
  else()
    find_package(MPI COMPONENTS CXX)
  endif()
  if(MPI_CXX_FOUND)
    set(PGLAB_HAVE_MPI ON)
  endif()
endif()
message(STATUS "pglab fleet (MPI): ${PGLAB_HAVE_MPI}")
