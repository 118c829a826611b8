# The same sources built again (a clean clone in CI, a second work tree, a rebuild after
# `make clean`) are compiled once: through ccache when it is installed (scripts/bootstrap
# installs it) and no launcher was chosen on the command line. -DPGLAB_CCACHE=OFF turns it off.
option(PGLAB_CCACHE "Compile through ccache when it is installed" ON)
if(PGLAB_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(PGLAB_CCACHE_PROGRAM ccache)
  if(PGLAB_CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER ${PGLAB_CCACHE_PROGRAM})
    set(CMAKE_C_COMPILER_LAUNCHER ${PGLAB_CCACHE_PROGRAM})
    message(STATUS "pglab: compiling through ${PGLAB_CCACHE_PROGRAM}")
  endif()
endif()
