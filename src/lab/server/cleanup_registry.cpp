// Fixed-size registry of cluster directories and postmaster pids, read by the action
// util/stop_signal takes before a signal ends the process. Only lock-free atomics and system calls
// here: no allocation, no locks, no stdio in the handler path.
#include "lab/server/cleanup_registry.hpp"

#include "util/stop_signal.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace pglab::lab::server::cleanup {

namespace {

constexpr int k_slots = 32;
constexpr size_t k_path_max = 4096;
constexpr int k_max_depth = 32;
constexpr int k_quit_wait_ms = 5000;
constexpr int k_kill_wait_ms = 2000;
constexpr int k_poll_ms = 10;

enum SlotState : int { k_free = 0, k_filling = 1, k_live = 2 };

struct Slot {
    std::atomic<int> state{k_free};
    std::atomic<pid_t> pid{0};
    /// The process that registered the slot: a forked child inherits the registry but must
    /// not stop its parent's servers.
    std::atomic<pid_t> owner{0};
    char dir[k_path_max] = {};
    /// A cgroup of the server's to rmdir once the server has ended; "" = none. Its first byte
    /// is written last, so a handler sees the whole path or none.
    char cgroup[k_path_max] = {};
};

static_assert(std::atomic<int>::is_always_lock_free && std::atomic<pid_t>::is_always_lock_free,
              "the registry is read from signal handlers");

Slot g_slots[k_slots];
std::once_flag g_install_once;

void sleep_ms(int ms) {
    timespec ts{0, static_cast<long>(ms) * 1000000L};
    while (::nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/// True when `pid` has ended: reaped here if it is our child, or no longer exists.
bool has_ended(pid_t pid) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) {
        return true;
    }
    if (r < 0 && errno == ECHILD) {
        return ::kill(pid, 0) != 0 && errno == ESRCH;
    }
    return false;
}

/// Waits up to `ms` for every non-zero pid in `pids`, zeroing the ended ones. True when all ended.
bool wait_all(pid_t* pids, int n, int ms) {
    for (int waited = 0;; waited += k_poll_ms) {
        bool all = true;
        for (int i = 0; i < n; ++i) {
            if (pids[i] > 0 && has_ended(pids[i])) {
                pids[i] = 0;
            }
            all = all && pids[i] == 0;
        }
        if (all || waited >= ms) {
            return all;
        }
        sleep_ms(k_poll_ms);
    }
}

// glibc's dirent64 has the kernel's linux_dirent64 layout, which getdents64 fills.
using LinuxDirent64 = struct dirent64;

bool remove_contents(int dir_fd, int depth);

/// Removes the entry `name` of `dir_fd`, recursing into directories.
bool remove_entry(int dir_fd, const char* name, unsigned char type, int depth) {
    if (type != DT_DIR && ::unlinkat(dir_fd, name, 0) == 0) {
        return true;
    }
    if (type != DT_DIR && errno != EISDIR) {
        return errno == ENOENT;
    }
    const int fd = ::openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    const bool ok = remove_contents(fd, depth + 1);
    ::close(fd);
    return ::unlinkat(dir_fd, name, AT_REMOVEDIR) == 0 && ok;
}

bool remove_contents(int dir_fd, int depth) {
    if (depth > k_max_depth) {
        return false;
    }
    alignas(LinuxDirent64) char buf[4096];
    bool ok = true;
    // Entries are removed while the directory is read, so read it again from the start until a
    // pass finds nothing left.
    for (;;) {
        ::lseek(dir_fd, 0, SEEK_SET);
        bool removed_any = false;
        bool found_any = false;
        for (;;) {
            const long n = ::syscall(SYS_getdents64, dir_fd, buf, sizeof buf);
            if (n <= 0) {
                break;
            }
            for (long off = 0; off < n;) {
                auto* d = reinterpret_cast<LinuxDirent64*>(buf + off);
                off += d->d_reclen;
                if (std::strcmp(d->d_name, ".") == 0 || std::strcmp(d->d_name, "..") == 0) {
                    continue;
                }
                found_any = true;
                if (remove_entry(dir_fd, d->d_name, d->d_type, depth)) {
                    removed_any = true;
                } else {
                    ok = false;
                }
            }
        }
        if (!found_any) {
            return ok;
        }
        if (!removed_any) {
            return false;
        }
    }
}

void at_exit() {
    cleanup_all();
}

void install_cleanup() {
    util::on_fatal_signal(cleanup_all);
    std::atexit(at_exit);
}

} // namespace

Result<int> register_dir(const std::string& dir) {
    if (dir.size() >= k_path_max) {
        return make_error("cluster directory path is too long: " + dir);
    }
    std::call_once(g_install_once, install_cleanup);
    for (int i = 0; i < k_slots; ++i) {
        int expected = k_free;
        if (g_slots[i].state.compare_exchange_strong(expected, k_filling)) {
            std::memcpy(g_slots[i].dir, dir.c_str(), dir.size() + 1);
            g_slots[i].cgroup[0] = '\0';
            g_slots[i].pid.store(0);
            g_slots[i].owner.store(::getpid());
            g_slots[i].state.store(k_live);
            return i;
        }
    }
    return make_error("too many throwaway clusters at once");
}

void set_server_pid(int slot, pid_t pid) {
    if (slot >= 0 && slot < k_slots) {
        g_slots[slot].pid.store(pid);
    }
}

void set_cgroup_dir(int slot, const std::string& dir) {
    if (slot < 0 || slot >= k_slots || dir.size() >= k_path_max) {
        return;
    }
    char* target = g_slots[slot].cgroup;
    target[0] = '\0';
    std::atomic_signal_fence(std::memory_order_seq_cst);
    if (!dir.empty()) {
        std::memcpy(target + 1, dir.c_str() + 1, dir.size());
        std::atomic_signal_fence(std::memory_order_seq_cst);
        target[0] = dir[0];
    }
}

void unregister(int slot) {
    if (slot >= 0 && slot < k_slots) {
        g_slots[slot].pid.store(0);
        g_slots[slot].state.store(k_free);
    }
}

void cleanup_all() noexcept {
    pid_t pids[k_slots] = {};
    const pid_t self = ::getpid();
    for (int i = 0; i < k_slots; ++i) {
        if (g_slots[i].state.load() == k_live && g_slots[i].owner.load() == self) {
            pids[i] = g_slots[i].pid.exchange(0);
            if (pids[i] > 0) {
                ::kill(pids[i], SIGQUIT);
            }
        }
    }
    if (!wait_all(pids, k_slots, k_quit_wait_ms)) {
        for (const pid_t p : pids) {
            if (p > 0) {
                ::kill(p, SIGKILL);
            }
        }
        wait_all(pids, k_slots, k_kill_wait_ms);
    }
    for (auto& slot : g_slots) {
        int expected = k_live;
        if (slot.owner.load() == self && slot.state.compare_exchange_strong(expected, k_filling)) {
            remove_tree(slot.dir);
            if (slot.cgroup[0] != '\0') {
                ::rmdir(slot.cgroup); // empty now that the server has ended
            }
            slot.state.store(k_free);
        }
    }
}

bool remove_tree(const char* path) noexcept {
    const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        return ::unlink(path) == 0 || errno == ENOENT;
    }
    const bool ok = remove_contents(fd, 0);
    ::close(fd);
    return ::rmdir(path) == 0 && ok;
}

} // namespace pglab::lab::server::cleanup
