/* engine.h - the one small interface every I/O engine implements.
 *
 * An engine moves prepared requests to the kernel and hands back completed ones.
 * It keeps no statistics and takes no time stamps: the runner stamps a batch
 * just before engine_run() submits it and stamps completions as it reaps them,
 * so every engine is measured the same way. One engine instance belongs to one
 * worker thread; nothing here is shared or locked.
 *
 * Lifecycle: ops->init(depth, fds, buffers) once, then repeatedly ops->queue()
 * for each free slot followed by one ops->run() that submits everything queued
 * and returns completions, then ops->exit().
 */
#ifndef SSDBENCH_ENGINE_H
#define SSDBENCH_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

#include "base/io_dir.h"
#include "engine/engine_opts.h"

/* Data operations first, numbered as their directions (op <= IO_OP_TRIM:
 * an I/O with a length and statistics of its direction), then flushes. */
enum io_op { IO_OP_READ = DIR_READ, IO_OP_WRITE = DIR_WRITE, IO_OP_TRIM = DIR_TRIM, IO_OP_FSYNC,
             IO_OP_FDATASYNC };

/* One request slot. Slots live in an array owned by the worker and are reused;
 * the engine refers back to them through their index. */
struct io_req {
    uint64_t off;          /* byte offset in the target */
    uint64_t t_submit;     /* ns, CLOCK_MONOTONIC, set by the runner */
    uint64_t t_sched;      /* ns, scheduled issue time for paced runs, else 0 */
    uint64_t t_issue;      /* ns, when the submitting call returned (slat measured), else 0 */
    void *buf;
    uint32_t len;
    uint32_t slot;         /* index into the worker's slot array and buffer table */
    uint16_t file;         /* index into the engine's file table */
    uint8_t op;            /* enum io_op */
    uint8_t prio_idx;      /* fio's cmdprio: the priority's statistics slot (runner/worker_prio.h) */
    int32_t res;           /* bytes done, or -errno, set at completion */
    uint16_t target;       /* target index for statistics */
    uint16_t ioprio;       /* the I/O's priority (class << 13 | level) for the engines that
                              pass one per I/O (libaio, io_uring); 0 = the thread's */
};

struct engine;

struct engine_ops {
    const char *name;
    bool needs_files;       /* false only for the null engine */
    unsigned max_depth;     /* 0 = no limit; psync runs one I/O at a time */
    bool by_name;           /* acts on the job's file names, not descriptors (engine_names.c) */
    /* fds: opened target files; bufs: one buffer per slot (fixed buffers). */
    int (*init)(struct engine *e, unsigned depth, const int *fds, unsigned nfds,
                const struct iovec *bufs, unsigned nbufs, char *err, size_t errlen);
    /* Stage a request; no system call. Returns 0 or -EAGAIN when full. */
    int (*queue)(struct engine *e, struct io_req *r);
    /* Submit all staged requests and wait until at least min_done completions
     * are ready or timeout_ns passes (0 = do not wait beyond min_done... see
     * engine_run). Completed requests are written to done[] (at most max);
     * returns their number or -errno on an engine failure. */
    int (*run)(struct engine *e, unsigned min_done, uint64_t timeout_ns,
               struct io_req **done, unsigned max);
    /* Optional (NULL for synchronous engines, whose submission is the I/O):
     * submit the staged requests without waiting, so the runner can stamp
     * the return (fio's slat). A request the kernel refuses stays staged and
     * completes with its error from the next run(). Returns 0 or -errno. */
    int (*submit)(struct engine *e);
    /* Optional (NULL where the engine cannot): from now on the engine adds
     * to eventfd efd whenever a completion is posted, so that a run() with
     * min_done 0 finds it; a thread can then wait for completions and other
     * events together (io_submit_mode=offload's submitter). Called after
     * init, before any I/O. Returns 0, or -errno when this engine's set-up
     * cannot (then completions are found only by waiting in run()). */
    int (*notify)(struct engine *e, int efd);
    void (*exit)(struct engine *e);
};

/* Opaque per-engine state lives behind priv; slots maps indices to requests. */
struct engine {
    const struct engine_ops *ops;
    struct io_req *slots;   /* the worker's slot array, indexed by io_req.slot */
    unsigned depth;
    /* Set before init: a write completes only after a data flush of its
     * file (fdatasync) that the engine issues right behind it, and its
     * latency runs to the flush's completion. This is what a blocking
     * pwrite on an O_DSYNC block device does (the kernel adds a cache flush
     * after it); asynchronous writes to an O_DSYNC block device get only
     * FUA. Used by ACT's open-loop mode; the psync engine ignores it. */
    bool flush_writes;
    /* Set before init: fio's io_uring options of the job (io_uring engine
     * only; NULL = ssdbench's defaults) */
    const struct engine_uring_opts *uring;
    /* Set before init: fio's sg options of the job (sg engine only; NULL =
     * plain WRITE, no FUA) */
    const struct engine_sg_opts *sg;
    /* Set before init: the file-operation engines' names and options
     * (engine_names.c; filled by the runner) */
    struct engine_names {
        char head[256];         /* a file's name: head, its number, tail */
        char tail[64];
        bool numbered;          /* false: one file, named head */
        unsigned nfiles;
        uint64_t file_len;      /* an I/O at offset o belongs to file o / file_len */
        const uint64_t *ids;    /* filedelete: dev, ino of each file as judged (2 per file) */
        uint8_t stat_type;      /* filestat: enum engine_stat_type */
    } names;
    /* Set before init: cpuio's load (engine_small.c) */
    const struct engine_small_opts *small;
    /* Set before init: the exec engine's program and its output
     * descriptors (-1 = inherit ssdbench's; engine_exec.c) */
    const struct engine_exec_opts *exec;
    int exec_out[2];
    /* Set before init: e4defrag's donor file, opened by the runner through
     * the guard (-1 for the other engines) */
    int donor_fd;
    void *priv;
};

extern const struct engine_ops engine_uring_ops;
extern const struct engine_ops engine_aio_ops;
extern const struct engine_ops engine_psync_ops;
extern const struct engine_ops engine_null_ops;
extern const struct engine_ops engine_mmap_ops;   /* sysbench fileio's mmap mode */
extern const struct engine_ops engine_posixaio_ops; /* fio's posixaio (aio_read/aio_write) */
extern const struct engine_ops engine_uring_cmd_ops; /* NVMe passthrough, /dev/ngXnY */
extern const struct engine_ops engine_sg_ops;     /* SCSI generic (SG_IO), /dev/sgN, /dev/sdX */
extern const struct engine_ops engine_falloc_ops;    /* fio's falloc: fallocate per I/O */
extern const struct engine_ops engine_ftruncate_ops; /* fio's ftruncate: ftruncate per write */
extern const struct engine_ops engine_cpuio_ops;     /* fio's cpuio: CPU burn, no I/O */
extern const struct engine_ops engine_filecreate_ops; /* fio's file operations (engine_names.c) */
extern const struct engine_ops engine_filestat_ops;
extern const struct engine_ops engine_filedelete_ops;
extern const struct engine_ops engine_exec_ops;      /* fio's exec: runs a program for the runtime */
extern const struct engine_ops engine_e4defrag_ops;  /* fio's e4defrag: EXT4_IOC_MOVE_EXT per write */

/* The name of file f of an engine's name set into out (len bytes); -1 when
 * it does not fit. */
int engine_name_of(const struct engine_names *n, unsigned f, char *out, size_t len);

const struct engine_ops *engine_lookup(enum engine_kind kind);

/* --- trims (engine_trim.c) ---
 * A trim (discard) of [off, off + len): BLKDISCARD on a block device, as
 * fio does; on a regular file (where that ioctl fails with ENOTTY) the
 * range is punched out with fallocate(PUNCH_HOLE | KEEP_SIZE), the file
 * system's discard (fio fails such trims). Blocking. Returns 0, or -1 with
 * errno set, as a system call does. */
int engine_trim(int fd, uint64_t off, uint64_t len);
/* The same with what the first trim of each file learned kept in kinds[file]
 * (0 unknown, zeroed by the caller), so later trims make one system call:
 * the per-I/O form for the engines. */
int engine_trim_file(uint8_t kinds[ENGINE_MAX_FILES], unsigned file, int fd, uint64_t off, uint64_t len);

/* Trims on the asynchronous engines (io_uring, libaio), which have no
 * asynchronous discard: staged like any request, carried out synchronously
 * in staging order by the next submitting call, before the requests staged
 * with them are submitted (so a trimwrite's write never overtakes its
 * trim), and handed back as completions by the next run(). fio's engines
 * also trim synchronously. */
struct engine_trims {
    struct io_req **req; /* [depth]: staged, the first ndone of them carried out */
    unsigned n, ndone, depth;
    uint8_t kinds[ENGINE_MAX_FILES]; /* engine_trim_file's memory */
};
int engine_trims_init(struct engine_trims *t, unsigned depth);
/* Stages r (an IO_OP_TRIM); -EAGAIN when full. */
int engine_trims_stage(struct engine_trims *t, struct io_req *r);
/* Carries out the staged trims; fds is the engine's file table. */
void engine_trims_do(struct engine_trims *t, const int *fds);
/* Moves up to max carried-out trims to done[]; returns their number. */
unsigned engine_trims_take(struct engine_trims *t, struct io_req **done, unsigned max);
void engine_trims_free(struct engine_trims *t);
/* An engine's run() with trims: the staged trims carried out and handed
 * back first, then run_io (the engine's own reaping) for the rest; without
 * trims to hand back, run_io with min_done and timeout_ns as asked. */
typedef int (*engine_run_fn)(struct engine *e, unsigned min_done, uint64_t timeout_ns,
                             struct io_req **done, unsigned max);
int engine_trims_run(struct engine_trims *t, const int *fds, engine_run_fn run_io, struct engine *e,
                     unsigned min_done, uint64_t timeout_ns, struct io_req **done, unsigned max);

#endif
