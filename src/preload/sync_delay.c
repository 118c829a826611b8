/* libpglab-sync-delay.so: preloaded into a PostgreSQL server (LD_PRELOAD), it makes every sync
 * slow, as on a slow disk, and counts the syncs. fsync, fdatasync, sync_file_range and writes on
 * a file descriptor opened with O_SYNC or O_DSYNC first run as usual, then sleep for the delay.
 * Each call is counted per kind, in total and per process, in a file shared by the server's
 * processes (layout: sync_counts.h). Nothing else changes: the real functions run with the same
 * arguments and their result and errno are returned.
 *
 * The hooks run inside the server, possibly in signal handlers: they do not allocate, lock or
 * call anything that is not async-signal-safe (clock_gettime, clock_nanosleep, getpid, fcntl
 * and atomic instructions). The real functions are looked up (dlsym) once, when the library is
 * loaded; a hook called before that uses the system call directly. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "sync_counts.h"

#define EXPORT __attribute__((visibility("default")))

/* File descriptors below this are tracked in a bitmap; above it, fcntl(F_GETFL) decides. */
#define TRACKED_FDS 65536

typedef int (*fsync_fn)(int);
typedef int (*sync_file_range_fn)(int, off_t, off_t, unsigned int);
typedef ssize_t (*write_fn)(int, const void*, size_t);
typedef ssize_t (*pwrite_fn)(int, const void*, size_t, off_t);
typedef ssize_t (*writev_fn)(int, const struct iovec*, int);
typedef ssize_t (*pwritev_fn)(int, const struct iovec*, int, off_t);
typedef ssize_t (*pwritev2_fn)(int, const struct iovec*, int, off_t, int);
typedef int (*open_fn)(const char*, int, ...);
typedef int (*openat_fn)(int, const char*, int, ...);
typedef int (*open2_fn)(const char*, int);
typedef int (*openat2_fn)(int, const char*, int);
typedef int (*close_fn)(int);

static struct {
    fsync_fn fsync, fdatasync;
    sync_file_range_fn sync_file_range;
    write_fn write;
    pwrite_fn pwrite, pwrite64;
    writev_fn writev;
    pwritev_fn pwritev, pwritev64;
    pwritev2_fn pwritev2, pwritev64v2;
    open_fn open, open64;
    openat_fn openat, openat64;
    open2_fn open_2, open64_2;
    openat2_fn openat_2, openat64_2;
    close_fn close;
} real;

static struct pglab_sync_file* g_file; /* the shared counters; NULL: count nothing */
static int64_t g_env_delay_ns;         /* PGLAB_SYNC_DELAY_US when there is no file */
static uint64_t g_sync_fds[TRACKED_FDS / 64];
static int32_t g_slot_pid;             /* whose slot g_slot is (a forked child has another pid) */
static struct pglab_sync_slot* g_slot; /* NULL: not claimed yet, or the table is full */

/* --- file descriptors opened with O_SYNC or O_DSYNC --- */

static void track_fd(int fd, int flags) {
    if (fd < 0 || fd >= TRACKED_FDS) {
        return;
    }
    const uint64_t bit = UINT64_C(1) << (fd % 64);
    if (flags & O_DSYNC) { /* O_SYNC includes the O_DSYNC bit */
        __atomic_fetch_or(&g_sync_fds[fd / 64], bit, __ATOMIC_RELAXED);
    } else {
        __atomic_fetch_and(&g_sync_fds[fd / 64], ~bit, __ATOMIC_RELAXED);
    }
}

/* Whether a write on `fd` is a synchronous one. The bitmap says "maybe" cheaply; fcntl then
 * confirms, so a descriptor closed behind our back (fclose, close_range) is never mistaken. */
static int is_sync_fd(int fd) {
    if (fd < 0) {
        return 0;
    }
    if (fd < TRACKED_FDS
        && (__atomic_load_n(&g_sync_fds[fd / 64], __ATOMIC_RELAXED) & (UINT64_C(1) << (fd % 64)))
               == 0) {
        return 0;
    }
    const int flags = (int)syscall(SYS_fcntl, fd, F_GETFL);
    return flags >= 0 && (flags & O_DSYNC) != 0;
}

/* --- counting and sleeping --- */

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* This process's slot, claimed on first use; NULL when the table is full. */
static struct pglab_sync_slot* my_slot(void) {
    const int32_t pid = (int32_t)getpid();
    if (g_slot_pid == pid) {
        return g_slot;
    }
    struct pglab_sync_slot* found = NULL;
    for (uint32_t i = 0; i < PGLAB_SYNC_SLOTS && found == NULL; ++i) {
        struct pglab_sync_slot* s = &g_file->slot[i];
        int32_t seen = __atomic_load_n(&s->pid, __ATOMIC_RELAXED);
        if (seen == pid) {
            found = s;
        } else if (seen == 0) {
            int32_t expected = 0;
            if (__atomic_compare_exchange_n(&s->pid, &expected, pid, 0, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED)
                || expected == pid) {
                found = s;
            }
        }
    }
    g_slot = found;
    g_slot_pid = pid;
    return found;
}

/* After a call of `kind`: sleep for the delay (through signals: a slow disk does not return
 * early), count the call and the time slept. errno is kept. */
static void delay_and_count(enum pglab_sync_kind kind) {
    const int saved_errno = errno;
    const int64_t delay_ns =
        g_file != NULL ? __atomic_load_n(&g_file->delay_ns, __ATOMIC_RELAXED) : g_env_delay_ns;
    int64_t slept_ns = 0;
    if (delay_ns > 0) {
        const int64_t start = now_ns();
        const int64_t end = start + delay_ns;
        struct timespec until = {(time_t)(end / 1000000000), (long)(end % 1000000000)};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR) {
        }
        slept_ns = now_ns() - start;
    }
    if (g_file != NULL) {
        __atomic_fetch_add(&g_file->total[kind].calls, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&g_file->total[kind].delayed_ns, (uint64_t)slept_ns, __ATOMIC_RELAXED);
        struct pglab_sync_slot* s = my_slot();
        if (s != NULL) {
            __atomic_fetch_add(&s->kind[kind].calls, 1, __ATOMIC_RELAXED);
            __atomic_fetch_add(&s->kind[kind].delayed_ns, (uint64_t)slept_ns, __ATOMIC_RELAXED);
        } else {
            __atomic_fetch_add(&g_file->slots_full, 1, __ATOMIC_RELAXED);
        }
    }
    errno = saved_errno;
}

/* --- set-up, once per executed program (forked children inherit it) --- */

static void map_counts_file(const char* path) {
    const int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        return;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(struct pglab_sync_file)) {
        void* p =
            mmap(NULL, sizeof(struct pglab_sync_file), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p != MAP_FAILED) {
            struct pglab_sync_file* f = (struct pglab_sync_file*)p;
            if (f->magic == PGLAB_SYNC_MAGIC && f->version == PGLAB_SYNC_VERSION
                && f->slots == PGLAB_SYNC_SLOTS) {
                g_file = f;
            } else {
                munmap(p, sizeof(struct pglab_sync_file));
            }
        }
    }
    syscall(SYS_close, fd);
}

#define RESOLVE(field, name) real.field = (__typeof__(real.field))dlsym(RTLD_NEXT, name)

__attribute__((constructor(101))) static void pglab_sync_delay_init(void) {
    RESOLVE(fsync, "fsync");
    RESOLVE(fdatasync, "fdatasync");
    RESOLVE(sync_file_range, "sync_file_range");
    RESOLVE(write, "write");
    RESOLVE(pwrite, "pwrite");
    RESOLVE(pwrite64, "pwrite64");
    RESOLVE(writev, "writev");
    RESOLVE(pwritev, "pwritev");
    RESOLVE(pwritev64, "pwritev64");
    RESOLVE(pwritev2, "pwritev2");
    RESOLVE(pwritev64v2, "pwritev64v2");
    RESOLVE(open, "open");
    RESOLVE(open64, "open64");
    RESOLVE(openat, "openat");
    RESOLVE(openat64, "openat64");
    RESOLVE(open_2, "__open_2");
    RESOLVE(open64_2, "__open64_2");
    RESOLVE(openat_2, "__openat_2");
    RESOLVE(openat64_2, "__openat64_2");
    RESOLVE(close, "close");
    const char* delay = getenv(PGLAB_SYNC_ENV_DELAY_US);
    if (delay != NULL) {
        g_env_delay_ns = strtoll(delay, NULL, 10) * 1000;
    }
    const char* path = getenv(PGLAB_SYNC_ENV_FILE);
    if (path != NULL && *path != '\0') {
        map_counts_file(path);
    }
}

/* --- the hooks --- */

EXPORT int fsync(int fd) {
    const int r = real.fsync ? real.fsync(fd) : (int)syscall(SYS_fsync, fd);
    delay_and_count(PGLAB_SYNC_FSYNC);
    return r;
}

EXPORT int fdatasync(int fd) {
    const int r = real.fdatasync ? real.fdatasync(fd) : (int)syscall(SYS_fdatasync, fd);
    delay_and_count(PGLAB_SYNC_FDATASYNC);
    return r;
}

EXPORT int sync_file_range(int fd, off_t offset, off_t nbytes, unsigned int flags) {
    const int r = real.sync_file_range
                      ? real.sync_file_range(fd, offset, nbytes, flags)
                      : (int)syscall(SYS_sync_file_range, fd, offset, nbytes, flags);
    delay_and_count(PGLAB_SYNC_FILE_RANGE);
    return r;
}

/* A write hook: `call` is the real call, run once; then the delay when `fd` is synchronous. */
#define SYNC_WRITE(fd, call)                                                                       \
    do {                                                                                           \
        const int is_sync = is_sync_fd(fd);                                                        \
        const ssize_t r = (call);                                                                  \
        if (is_sync) {                                                                             \
            delay_and_count(PGLAB_SYNC_WRITE);                                                     \
        }                                                                                          \
        return r;                                                                                  \
    } while (0)

#define LO(off) ((unsigned long)(off))
#define HI(off) ((unsigned long)(((uint64_t)(off)) >> 32))

EXPORT ssize_t write(int fd, const void* buf, size_t n) {
    SYNC_WRITE(fd, real.write ? real.write(fd, buf, n) : syscall(SYS_write, fd, buf, n));
}

EXPORT ssize_t pwrite(int fd, const void* buf, size_t n, off_t off) {
    SYNC_WRITE(fd,
               real.pwrite ? real.pwrite(fd, buf, n, off) : syscall(SYS_pwrite64, fd, buf, n, off));
}

EXPORT ssize_t pwrite64(int fd, const void* buf, size_t n, off_t off) {
    SYNC_WRITE(fd, real.pwrite64 ? real.pwrite64(fd, buf, n, off)
                                 : syscall(SYS_pwrite64, fd, buf, n, off));
}

EXPORT ssize_t writev(int fd, const struct iovec* iov, int count) {
    SYNC_WRITE(fd, real.writev ? real.writev(fd, iov, count) : syscall(SYS_writev, fd, iov, count));
}

EXPORT ssize_t pwritev(int fd, const struct iovec* iov, int count, off_t off) {
    SYNC_WRITE(fd, real.pwritev ? real.pwritev(fd, iov, count, off)
                                : syscall(SYS_pwritev, fd, iov, count, LO(off), HI(off)));
}

EXPORT ssize_t pwritev64(int fd, const struct iovec* iov, int count, off_t off) {
    SYNC_WRITE(fd, real.pwritev64 ? real.pwritev64(fd, iov, count, off)
                                  : syscall(SYS_pwritev, fd, iov, count, LO(off), HI(off)));
}

EXPORT ssize_t pwritev2(int fd, const struct iovec* iov, int count, off_t off, int flags) {
    SYNC_WRITE(fd, real.pwritev2 ? real.pwritev2(fd, iov, count, off, flags)
                                 : syscall(SYS_pwritev2, fd, iov, count, LO(off), HI(off), flags));
}

EXPORT ssize_t pwritev64v2(int fd, const struct iovec* iov, int count, off_t off, int flags) {
    SYNC_WRITE(fd, real.pwritev64v2
                       ? real.pwritev64v2(fd, iov, count, off, flags)
                       : syscall(SYS_pwritev2, fd, iov, count, LO(off), HI(off), flags));
}

/* The mode argument exists only with O_CREAT or O_TMPFILE (as glibc reads it). */
static mode_t mode_of(int flags, va_list ap) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

/* `mode_t name`: the variadic mode argument after `flags`, or 0. */
#define READ_MODE(flags, name)                                                                     \
    mode_t name = 0;                                                                               \
    do {                                                                                           \
        va_list ap;                                                                                \
        va_start(ap, flags);                                                                       \
        name = mode_of(flags, ap);                                                                 \
        va_end(ap);                                                                                \
    } while (0)

static int tracked(int fd, int flags) {
    track_fd(fd, flags);
    return fd;
}

EXPORT int open(const char* path, int flags, ...) {
    READ_MODE(flags, mode);
    return tracked(real.open ? real.open(path, flags, mode)
                             : (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode),
                   flags);
}

EXPORT int open64(const char* path, int flags, ...) {
    READ_MODE(flags, mode);
    return tracked(real.open64 ? real.open64(path, flags, mode)
                               : (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode),
                   flags);
}

EXPORT int openat(int dir, const char* path, int flags, ...) {
    READ_MODE(flags, mode);
    return tracked(real.openat ? real.openat(dir, path, flags, mode)
                               : (int)syscall(SYS_openat, dir, path, flags, mode),
                   flags);
}

EXPORT int openat64(int dir, const char* path, int flags, ...) {
    READ_MODE(flags, mode);
    return tracked(real.openat64 ? real.openat64(dir, path, flags, mode)
                                 : (int)syscall(SYS_openat, dir, path, flags, mode),
                   flags);
}

/* _FORTIFY_SOURCE's checked forms (no mode argument). */
EXPORT int __open_2(const char* path, int flags) {
    return tracked(real.open_2 ? real.open_2(path, flags)
                               : (int)syscall(SYS_openat, AT_FDCWD, path, flags, 0),
                   flags);
}

EXPORT int __open64_2(const char* path, int flags) {
    return tracked(real.open64_2 ? real.open64_2(path, flags)
                                 : (int)syscall(SYS_openat, AT_FDCWD, path, flags, 0),
                   flags);
}

EXPORT int __openat_2(int dir, const char* path, int flags) {
    return tracked(real.openat_2 ? real.openat_2(dir, path, flags)
                                 : (int)syscall(SYS_openat, dir, path, flags, 0),
                   flags);
}

EXPORT int __openat64_2(int dir, const char* path, int flags) {
    return tracked(real.openat64_2 ? real.openat64_2(dir, path, flags)
                                   : (int)syscall(SYS_openat, dir, path, flags, 0),
                   flags);
}

EXPORT int close(int fd) {
    track_fd(fd, 0);
    return real.close ? real.close(fd) : (int)syscall(SYS_close, fd);
}
