// Writing at a path a user gave, or that a directory already holds, without harming what stands
// there. The one place that decides it: a regular file (or a new name) is replaced whole, a
// symbolic link keeps pointing at its rewritten target, and a device, FIFO or socket
// (`/dev/null`, `/dev/stdout`, a pipe) is written where it is, never renamed over or unlinked.
#pragma once

#include "util/result.hpp"

#include <sys/types.h>

#include <filesystem>
#include <string_view>

namespace pglab::util {

/// What stands at a path pglab is to write, every symbolic link followed.
struct OutputTarget {
    enum class Kind {
        new_file, ///< nothing yet; its directory exists
        regular,  ///< a regular file: replaced whole, its mode and owner kept
        in_place, ///< a character or block device, a FIFO or a socket: written where it is
    };
    std::filesystem::path path; ///< where the bytes go: the path given, or its link's target
    Kind kind = Kind::new_file;
    mode_t mode = 0644; ///< a regular file's permissions (a new file's: 0644)
    uid_t owner = 0;
    gid_t group = 0;
};

/// Looks at `path` and changes nothing. Error (exit 1) naming the path as given: "cannot write
/// PATH: it is a directory", "cannot write PATH: its directory does not exist", "cannot write
/// PATH: DIR is not a directory", or the system's reason.
Result<OutputTarget> inspect_output(const std::filesystem::path& path);

/// Writes `text` as the whole content of `path`, by what `inspect_output` finds there: a new or
/// regular file (a link's target included) into a temporary file beside it, flushed to disk,
/// then renamed over it, so that a failure (a full disk) leaves it as it was; a device, FIFO or
/// socket opened and written in place (a FIFO waits for its reader). Errors: inspect_output's,
/// or `could not write file "PATH": REASON`.
Status write_output_file(const std::filesystem::path& path, std::string_view text);

/// Opens `path` for a stream of writes (a log written as a run goes), by the same rules: a link
/// followed, a regular file truncated or a new one made (0666 less the umask, as fopen does), a
/// device, FIFO or socket opened in place. Returns the descriptor, or -1 with errno set as
/// open(2) sets it, so that each caller keeps its own words (pgbench's "could not open
/// logfile").
int open_output_stream(const std::filesystem::path& path);

/// Flushes a directory's entries to disk (after a rename into it); best effort.
void fsync_directory(const std::filesystem::path& dir);

} // namespace pglab::util
