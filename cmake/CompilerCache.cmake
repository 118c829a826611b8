# The same sources built again (a clean clone in CI, a second work tree, a rebuild after
# `make clean`) are compiled once: through ccache when it is installed (scripts/bootstrap
# installs it) and no launcher was chosen on the command line. -DPGLAB_CCACHE=OFF turns it off.
# ccache caches a file compiled with a precompiled header (cmake/CompileTime.cmake) only when
# told that the header's macros and __TIME__ may be taken as they are: the header holds only
# third-party and standard headers, none of which uses __TIME__ or __DATE__.
option(PGLAB_CCACHE "Compile through ccache when it is installed" ON)
if(PGLAB_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(PGLAB_CCACHE_PROGRAM ccache)
  if(PGLAB_CCACHE_PROGRAM)
    set(launcher ${CMAKE_COMMAND} -E env CCACHE_SLOPPINESS=pch_defines,time_macros
                 ${PGLAB_CCACHE_PROGRAM})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${launcher})
    set(CMAKE_C_COMPILER_LAUNCHER ${launcher})
    message(STATUS "pglab: compiling through ${PGLAB_CCACHE_PROGRAM}")
  endif()
endif()
