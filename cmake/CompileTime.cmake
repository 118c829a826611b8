# Shorter compiles (bench/NOTEBOOK.md, "Where compile time goes"): most of a translation unit's
# time is spent on the standard and third-party headers it includes (nlohmann/json, {fmt},
# GoogleTest) and the templates it instantiates from them, again in every file.
#
# Precompiled headers: those headers are parsed once per group of targets instead of once per
# file. Two groups, because a precompiled header is only valid under the flags it was made with:
# `src` (the libraries, built with the build type's optimisation) and `tests` (the test binaries,
# built with -O0). The first target of a group makes the header; the others reuse it, and differ
# from it only in macros that none of these headers reads.
#
# Unity batches for the test binaries: a few test files compiled as one translation unit
# instantiate json's and GoogleTest's templates once for all of them, which halves the tests'
# compile time. The file-local names of one test binary must therefore differ from file to file.
# Not for src/: touching one source file there recompiles that file alone.
#
# Both are optimisations, never requirements: -DPGLAB_PCH=OFF -DPGLAB_UNITY_TESTS=OFF (the
# sanitizer build; CMake ignores precompiled headers for a compiler it cannot precompile for)
# build the same sources, each file alone, which also checks that every file includes what it
# uses rather than leaning on the precompiled header or on the files batched before it.
option(PGLAB_PCH "Precompile the heavy standard and third-party headers" ON)
option(PGLAB_UNITY_TESTS "Compile the test binaries' files in batches (unity build)" ON)

set(pglab_pch_std_headers
    <algorithm> <chrono> <cstdint> <filesystem> <functional> <map> <memory> <optional> <set>
    <sstream> <string> <string_view> <unordered_map> <utility> <variant> <vector>)
set(pglab_pch_src_headers ${pglab_pch_std_headers} <fmt/format.h> <nlohmann/json.hpp>)
set(pglab_pch_tests_headers ${pglab_pch_src_headers} <gtest/gtest.h> <gmock/gmock.h>)

# pglab_precompile(<target> <group>): `target` uses `group`'s precompiled header (src or tests).
function(pglab_precompile target group)
  if(NOT PGLAB_PCH)
    return()
  endif()
  get_property(owner GLOBAL PROPERTY pglab_pch_owner_${group})
  if(owner)
    target_precompile_headers(${target} REUSE_FROM ${owner})
  else()
    target_precompile_headers(${target} PRIVATE ${pglab_pch_${group}_headers})
    set_property(GLOBAL PROPERTY pglab_pch_owner_${group} ${target})
  endif()
endfunction()

# pglab_test_target(<target>): the compile-time settings of a test binary or library.
function(pglab_test_target target)
  pglab_precompile(${target} tests)
  if(PGLAB_UNITY_TESTS)
    # 6: measured on 2 cores, batches of 4 to 8 files compile in about half the time of their
    # files alone, and 6 leaves enough batches to keep both cores busy.
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 6)
  endif()
endfunction()
