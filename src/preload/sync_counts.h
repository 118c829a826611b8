/* The shared counters file of the sync-delay preload library (libpglab-sync-delay.so): its
 * layout, shared by the library (C, inside the server's processes) and pglab's sync probe
 * (C++). pglab creates the file, sized and zeroed, before it starts the server; every server
 * process maps it MAP_SHARED and adds to its counters with atomic instructions. Plain C, no
 * includes beyond <stdint.h>: the library must not depend on anything of pglab's. */
#ifndef PGLAB_PRELOAD_SYNC_COUNTS_H
#define PGLAB_PRELOAD_SYNC_COUNTS_H

#include <stdint.h>

/* "pglabSY1" read as a little-endian integer; a file with another magic is not mapped. */
#define PGLAB_SYNC_MAGIC UINT64_C(0x31595362616c6770)
#define PGLAB_SYNC_VERSION 1u

/* The environment of the server: the counters file, and the delay (microseconds) used when no
 * file is given (the file's delay_ns wins when there is one, so pglab can change it). */
#define PGLAB_SYNC_ENV_FILE "PGLAB_SYNC_COUNTS_FILE"
#define PGLAB_SYNC_ENV_DELAY_US "PGLAB_SYNC_DELAY_US"

/* The calls the library delays and counts, one counter each. */
enum pglab_sync_kind {
    PGLAB_SYNC_FSYNC = 0,      /* fsync(2) */
    PGLAB_SYNC_FDATASYNC = 1,  /* fdatasync(2) */
    PGLAB_SYNC_FILE_RANGE = 2, /* sync_file_range(2), any flags */
    PGLAB_SYNC_WRITE = 3,      /* write/pwrite/writev/pwritev* on an O_SYNC or O_DSYNC fd */
    PGLAB_SYNC_KINDS = 4
};

/* Calls of one kind and the time the library slept in them (measured, nanoseconds). */
struct pglab_sync_counter {
    uint64_t calls;
    uint64_t delayed_ns;
};

/* One process's counters; pid 0 = a free slot. A process claims a slot (compare-and-swap of the
 * pid) at its first counted call; a later process with the same pid adds to the same slot. */
struct pglab_sync_slot {
    int32_t pid;
    uint32_t reserved;
    struct pglab_sync_counter kind[PGLAB_SYNC_KINDS];
};

#define PGLAB_SYNC_SLOTS 2048

/* The whole file (about 170 kB). Every counter only grows; readers load each 64-bit value
 * atomically (aligned), so a reader sees each counter whole, not all counters at one instant. */
struct pglab_sync_file {
    uint64_t magic;      /* PGLAB_SYNC_MAGIC */
    uint32_t version;    /* PGLAB_SYNC_VERSION */
    uint32_t slots;      /* PGLAB_SYNC_SLOTS */
    int64_t delay_ns;    /* how long each call sleeps; read at each call */
    uint64_t slots_full; /* calls of processes that found no free slot (counted in total) */
    struct pglab_sync_counter total[PGLAB_SYNC_KINDS];
    struct pglab_sync_slot slot[PGLAB_SYNC_SLOTS];
};

#endif
