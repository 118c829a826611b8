// `pglab server build PATH`: PostgreSQL from a source tree into pglab's cache of builds
// (lab/server/source_build), for benchmarking a patch against the tree without it.
#pragma once

#include <string>
#include <vector>

namespace pglab::cli {

/// Builds `path` with `options` (configure's, or meson's) unless its key is built already
/// (`force` builds again); prints the progress and where the build is. The exit status.
int build_server_from_source(const std::string& path, const std::vector<std::string>& options,
                             bool force);

} // namespace pglab::cli
