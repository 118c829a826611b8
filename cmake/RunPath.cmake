# Where the built programs look for their shared libraries. By default CMake gives a binary in
# the build tree its libraries' directories followed by an empty entry, room reserved for
# `install` to rewrite the path in place; the dynamic loader reads an empty entry as the current
# directory, so pglab started anywhere first looked there (and in its tls/ and x86_64/) for
# libpq, libmpi and every other library: a libpq.so.5 left in a benchmark's directory would have
# been loaded. Built and installed programs now carry the same path: the directories of the
# libraries linked from outside the system's (Open MPI's on Debian), nothing else.
set(CMAKE_BUILD_WITH_INSTALL_RPATH ON)
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)
