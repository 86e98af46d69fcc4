/* inuse_proc.h - the process half of the in-use walk: one pass over /proc
 * looking for another process that writes (or could write) any of a set of
 * storage identities without the kernel marking it anywhere else. Three
 * ways in: a descriptor opened for writing (/proc/PID/fd + fdinfo flags), a
 * writable shared mapping whose descriptor may be closed long ago
 * (/proc/PID/maps, map_files for the identity), and a file registered with
 * an io_uring instance (the ring's fdinfo "UserFiles:" list). It also
 * reports what it could not see (processes whose tables are unreadable, a
 * PID namespace other than the host's, a /proc that hides processes), so
 * the caller never mistakes "not seen" for "not used". */
#ifndef SSDBENCH_INUSE_PROC_H
#define SSDBENCH_INUSE_PROC_H

#include <stdbool.h>
#include <sys/types.h>

struct inuse_id {
    bool block;
    dev_t rdev;        /* block: the device number */
    dev_t dev;         /* regular file: device and inode */
    ino_t ino;
    const char *name;  /* block: kernel name; file: base name (6.1 io_uring lists names) */
    unsigned item;     /* the caller's tag, returned in a hit */
};

enum inuse_how { INUSE_FD_WRITE = 1, INUSE_MAP_SHARED, INUSE_URING };

struct inuse_proc_hit {
    long pid;
    char comm[64];
    enum inuse_how how;
    unsigned id;  /* index into the ids */
    int fd;       /* the descriptor (FD_WRITE) or the ring's descriptor (URING) */
};

struct inuse_proc_result {
    bool found;                /* a use by another program: hit says which */
    struct inuse_proc_hit hit;
    bool excused;              /* opened by this process or the same binary (cluster ranks) */
    bool reader;               /* opened read-only elsewhere (does not count) */
    unsigned hidden;           /* processes whose tables could not be read */
    long hidden_pid;           /* one of them */
    char hidden_comm[64];
    char limit[256];           /* what the scan could not see, "" when everything */
    bool strict;               /* the limit is structural: not root, another PID
                                * namespace, a /proc hiding processes (false: root,
                                * and only processes holding privileges this one
                                * lacks were closed to it) */
};

/* Scans every process. skip_fd is this process's descriptor under judgement
 * (-1: none). */
void inuse_proc_scan(const struct inuse_id *ids, unsigned n, int skip_fd,
                     struct inuse_proc_result *r);

#endif
