// Which sources this binary was built from, so that a stored result names them.
#pragma once

#include <string_view>

namespace pglab::util {

/// The git commit the build compiled (12 hex digits), "-modified" appended when tracked files
/// differed from it; "" when the sources were not a git checkout. Defined in the build_info.cpp
/// that cmake/BuildInfo.cmake generates at every build (library pglab_build_info).
std::string_view build_commit();

} // namespace pglab::util
