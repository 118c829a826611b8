// The process-wide list of live throwaway clusters, so that a fatal signal (Ctrl-C, SIGTERM, an
// abort) or exit() without destructors still stops their servers and removes their directories.
#pragma once

#include "util/result.hpp"

#include <sys/types.h>

#include <string>

namespace pglab::lab::server::cleanup {

/// Records `dir` (removed with everything in it on a fatal signal or at exit) and, on first use,
/// registers cleanup_all with util::on_fatal_signal and as an atexit hook. Returns the slot to
/// pass to the functions below. Error when too many clusters are live at once.
///
/// A signal ends the process (and cleans up) where util/stop_signal says it does: SIGINT and
/// SIGTERM outside a StopSignals scope (inside one, the scope's owner stops normally and its
/// destructors clean up), SIGHUP, SIGQUIT, SIGPIPE, SIGABRT, SIGSEGV, SIGBUS, SIGFPE and SIGILL
/// where their action was the default. The cleanup sends SIGQUIT (immediate shutdown) to every
/// registered server, waits for them (at most about 7 s, then SIGKILL) and removes the
/// directories, with async-signal-safe calls only.
Result<int> register_dir(const std::string& dir);

/// The postmaster pid of the cluster in `slot` (0: no server runs now).
void set_server_pid(int slot, pid_t pid);

/// A cgroup directory of the cluster in `slot` (a memory cgroup), removed (rmdir) after its
/// server has ended; "" forgets it.
void set_cgroup_dir(int slot, const std::string& dir);

/// Forgets `slot` (its owner has stopped the server and removed the directory itself).
void unregister(int slot);

/// Stops every server and removes every directory registered by this process (not those a
/// forked child inherited from its parent) now: what the signal handlers do, without
/// re-raising. Async-signal-safe.
void cleanup_all() noexcept;

/// Removes `path` and everything under it, without following symbolic links, using only
/// async-signal-safe system calls. Best effort; returns false when something remained.
bool remove_tree(const char* path) noexcept;

} // namespace pglab::lab::server::cleanup
