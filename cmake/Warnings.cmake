# Warnings for our own targets (link pglab_warnings privately). WARNINGS_AS_ERRORS is for CI.
option(PGLAB_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
add_library(pglab_warnings INTERFACE)
target_compile_options(pglab_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
  -Wcast-align -Wnull-dereference -Wformat=2 -Wimplicit-fallthrough)
if(PGLAB_WARNINGS_AS_ERRORS)
  target_compile_options(pglab_warnings INTERFACE -Werror)
endif()
