/* job.h - one job's parameters: the unit a workload module hands to the runner.
 *
 * A job is what fio calls a job section: a stream description (direction mix,
 * block sizes, offsets, depth, pacing) applied to one or more targets by
 * `numjobs` worker threads. Every front end (CLI options, fio job files,
 * profiles, ACT configs, sysbench fileio options) fills this struct; the runner
 * never sees where it came from. Plain data, no pointers, so a job can be copied
 * and stored in a plan by value.
 */
#ifndef SSDBENCH_JOB_H
#define SSDBENCH_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "base/io_dir.h"
#include "base/segments.h"
#include "engine/engine_opts.h"
#include "target/target_opts.h"

enum job_rw {
    RW_READ,      /* sequential read */
    RW_WRITE,     /* sequential write */
    RW_RANDREAD,
    RW_RANDWRITE,
    RW_RW,        /* sequential mixed (fio "rw" / "readwrite") */
    RW_RANDRW,
    /* trims (fio rw=trim, randtrim, trimwrite, randtrimwrite) */
    RW_TRIM,      /* sequential trim */
    RW_RANDTRIM,
    RW_TRIMWRITE, /* sequential: trim a block, then write that block */
    RW_RANDTRIMWRITE, /* the same at random offsets */
};

/* fio's exit_what: what a job with exitall stops when it ends */
enum { JOB_EXIT_GROUP, JOB_EXIT_STONEWALL, JOB_EXIT_ALL };

enum job_dist { DIST_UNIFORM, DIST_ZIPF, DIST_PARETO, DIST_NORMAL, DIST_ZONED };

enum job_buffer { BUF_RANDOM, BUF_ZERO, BUF_COMPRESSIBLE };

/* fio verify=: what each written block carries and how it is checked (see
 * job/verify_hdr.h). VERIFY_OFF = no verification. */
enum job_verify {
    VERIFY_OFF,
    VERIFY_MD5,
    VERIFY_CRC32C,
    VERIFY_CRC32C_INTEL, /* the same CRC; the instruction is used whenever the CPU has it */
    VERIFY_XXHASH,       /* XXH64 */
    VERIFY_SHA256,
    VERIFY_META,         /* header only (and verify_pattern when given) */
    VERIFY_PATTERN,      /* verify_pattern only, no header (fio's pattern) */
    VERIFY_NULL,         /* headers written, nothing checked */
    /* fio's further checksums (base/checksum.h) */
    VERIFY_CRC64,
    VERIFY_CRC32,
    VERIFY_CRC16,
    VERIFY_CRC7,
    VERIFY_SHA1,
    VERIFY_SHA512,
    VERIFY_SHA3_224,
    VERIFY_SHA3_256,
    VERIFY_SHA3_384,
    VERIFY_SHA3_512,
};
#define JOB_VPATTERN_MAX 512
#define JOB_VPATTERN_FMT_MAX 8

/* fio random_generator: how random offsets are drawn. On fio's stream (jobs
 * of fio's job language, job/fio_rand.h) tausworthe and tausworthe64 are
 * fio's own generators; elsewhere both mean ssdbench's own draws plus the
 * random map. lfsr means a full-period sequence over the blocks with no map
 * (ssdbench's permutation, see gen.h). */
enum job_randgen { RANDGEN_TAUSWORTHE, RANDGEN_TAUSWORTHE64, RANDGEN_LFSR };

/* fio zonemode: strided (job/zone.h), zbd (base/zbd.h) */
enum job_zone_mode { JOB_ZONE_NONE, JOB_ZONE_STRIDED, JOB_ZONE_ZBD };

enum job_layout {
    LAYOUT_JBOD,   /* every target its own stream: numjobs threads per target */
    LAYOUT_STRIPE, /* one RAID-0 style address space over all targets */
    LAYOUT_RANDOM, /* ACT style: each I/O goes to a uniformly random target */
    LAYOUT_FILES,  /* fio's file set (nrfiles > 1): each worker one stream over its
                      own files, file_service_type picking the file of each I/O */
};

/* fio file_service_type: how a file-set worker picks the file of its next I/O */
enum job_fservice { FSERVICE_ROUNDROBIN, FSERVICE_SEQUENTIAL, FSERVICE_RANDOM,
                    FSERVICE_ZIPF, FSERVICE_PARETO, FSERVICE_NORMAL };

#define JOB_NAME_MAX 64
#define JOB_PATH_MAX TARGET_PATH_MAX
#define JOB_WRITTEN_MAX 2048
#define JOB_MAX_TARGETS 128 /* at most an engine's file table (ENGINE_MAX_FILES) */
#define JOB_BSSPLIT_MAX 64
#define JOB_ZONES_MAX 16
#define JOB_PCT_MAX 24

/* fio's error classes (continue_on_error, ignore_error): read, write, verify */
enum { JOB_ERR_READ = 1, JOB_ERR_WRITE = 2, JOB_ERR_VERIFY = 4 };
#define JOB_ERR_CLASSES 3
#define JOB_IGNORE_MAX 16
/* CPUs a job may name (cpus_allowed, cpumask): 64 per word */
#define JOB_CPUSET_WORDS 16
/* numa_mem_policy modes (the kernel's MPOL_* plus one) */
enum { JOB_MPOL_DEFAULT = 1, JOB_MPOL_PREFER, JOB_MPOL_BIND, JOB_MPOL_INTERLEAVE, JOB_MPOL_LOCAL };
#define JOB_FILESET_NONE 0xff   /* fileset_idx: no file here */

/* One block-size mix for one direction. Weights are shares of I/Os (not bytes)
 * in percent and sum to 100. A plain --bs is one entry at 100. */
struct job_bssplit {
    unsigned n;
    uint32_t bs[JOB_BSSPLIT_MAX];
    double pct[JOB_BSSPLIT_MAX];
    uint32_t range_lo, range_hi; /* a bsrange lo-hi (the entries above approximate it); 0 = none */
};

/* zoned:50/5:30/15:20/80 -> zones {50,5},{30,15},{20,80}: access share, range share. */
struct job_zone {
    double access_pct;
    double range_pct;
};

struct job_distribution {
    enum job_dist kind;
    double param;          /* zipf theta, pareto h, normal sigma (percent of range) */
    unsigned nzones;
    struct job_zone zones[JOB_ZONES_MAX];
};

/* One request from a shared source (see struct io_source). */
struct io_source_req {
    uint8_t op;                  /* enum io_op (engine.h): read, write, fsync, fdatasync */
    uint16_t target;             /* job-local target index */
    uint32_t len;                /* 0 for flushes */
    uint64_t off;                /* byte offset in that target */
    bool event_continues;        /* the worker's next request belongs to the same event */
};

/* A request source shared by all workers of a job, instead of each worker's
 * own generator and flush counting: sysbench fileio's one global request
 * stream (sequential cursor, random positions, read/write choice, fsync
 * rounds, event limit). next() is called by the worker threads (it locks
 * what it shares); `worker` is the index among the job's workers. It
 * returns false when there are no more events. Workers of such a job stage
 * one request per submission, time each event (see job_stats.event_lat)
 * and, for engines that queue flushes, run flushes inline (sysbench calls
 * fsync() itself in async mode). */
struct io_source {
    bool (*next)(void *arg, unsigned worker, struct io_source_req *r);
    void *arg;
};

/* fio's cmdprio options per direction (read, write): cmdprio_percentage
 * of the I/Os get priority (cmdprio_class, cmdprio), or by block size
 * (cmdprio_bssplit: bs/percentage[/class/level] entries, percentage > 0
 * only, sorted by block size; prio -1 = the class and level above).
 * An I/O priority value is fio's: class << 13 | level. */
#define JOB_CMDPRIO_SPLIT_MAX 64
struct job_cmdprio_split {
    uint32_t bs;
    uint8_t pct;
    int32_t prio;
};
struct job_cmdprio {
    uint8_t pct[2];              /* cmdprio_percentage 0..100 */
    uint8_t cls[2];              /* cmdprio_class 1..3; 0 = not set (fio: real time) */
    uint8_t level[2];            /* cmdprio 0..7 */
    uint8_t nsplit[2];
    bool bssplit;                /* cmdprio_bssplit given */
    bool log_prio;               /* log_prio: the logs' last column is the I/O's priority */
    struct job_cmdprio_split split[2][JOB_CMDPRIO_SPLIT_MAX];
};

/* What job_resolve() (job/job_resolve.h) derives from a finished job:
 * read these, do not recompute them. */
struct job_resolved {
    bool done;                   /* job_resolve() has run */
    uint32_t bs_min;             /* smallest block size of any direction (fio's td_min_bs), 4096 when none */
    uint32_t bs_max;             /* largest block size of any direction */
    uint32_t write_bs_min;       /* smallest write size, 4096 when none */
    unsigned passes;             /* neither time_based nor io_size: passes over the region that
                                    end the job (loops, >= 1); 0 = none */
    unsigned limit_mult;         /* 2 for (rand)trimwrite (its byte and number_ios limits count
                                    the trims too), else 1 */
};

struct job_spec {
    char name[JOB_NAME_MAX];
    char description[128];

    /* targets: paths of files or block devices, in order */
    unsigned ntargets;
    char targets[JOB_MAX_TARGETS][JOB_PATH_MAX];
    enum job_layout layout;
    uint64_t stripe_chunk;       /* bytes, LAYOUT_STRIPE only */

    /* direction mix */
    enum job_rw rw;
    unsigned rwmixread;          /* percent of I/Os that are reads, mixed modes */
    double rwmix_read_frac;      /* > 0: the exact read share of mixed modes, used in place of
                                    rwmixread / 100 (which stays the rounded percent); ACT's 2:1
                                    split is not a whole percent */
    unsigned pct_random;         /* percentage_random: 100 for rand*, 0 for sequential */
    unsigned rw_seq_nr;          /* fio rw=...:N, I/Os per generated offset (>=1) */
    uint64_t seq_hole;           /* fio rw=write:4k: bytes skipped after each sequential I/O */

    /* block sizes and alignment, per direction */
    struct job_bssplit bs[DIR_COUNT];
    uint32_t blockalign[DIR_COUNT]; /* 0 = smallest block size of that direction */

    /* region and amount. The region of each target is
     * [offset, offset + size) where either may be given as a percentage of the
     * target (pct fields > 0 win). size 0 = to the end of the target. */
    uint64_t offset;
    double offset_pct;
    uint64_t size;
    double size_pct;
    uint64_t offset_increment;   /* per worker clone, fio offset_increment */
    double offset_increment_pct; /* fio offset_increment=P%: P% of each file's size before the run */
    uint64_t io_limit;           /* stop after this many bytes per worker; 0 = none */
    double io_size_pct;          /* fio io_size=P%: P% of each file's region (io_limit then 0) */
    uint64_t ios_limit;          /* stop after this many requests (I/Os and flushes) per worker; 0 = none */
    uint64_t file_size;          /* size to create a missing regular file with; 0 = size or 1 GiB */
    unsigned loops;              /* repeat the size-bounded pass this many times (>=1) */

    /* concurrency */
    unsigned iodepth;            /* per worker */
    unsigned numjobs;            /* workers per target (jbod) or in total (stripe/random) */
    unsigned iodepth_batch_submit;
    unsigned iodepth_batch_complete_min;
    unsigned iodepth_batch_complete_max; /* completions taken per reap; 0 = iodepth (fio mode: the min) */
    unsigned iodepth_low;        /* fio's low-water mark: a full queue is reaped down to it; 0 = iodepth */
    bool fio_queue;              /* fio's queue (fio mode, or iodepth_low given): a queue not yet full
                                    is not reaped, a full one down to iodepth_low, the last I/Os in one
                                    reap (runner/worker.c loop_reap) */
    enum engine_kind engine;
    struct engine_sg_opts sg;    /* engine=sg */
    bool direct;
    bool dsync;                  /* open with O_DSYNC */
    bool dsync_flush;            /* asynchronous engines: each write completes after an
                                    fdatasync of its target, as a blocking O_DSYNC write on a
                                    block device does (engine.flush_writes); for ACT */
    bool osync;                  /* open with O_SYNC */

    /* time */
    uint64_t runtime_ns;         /* 0 = until io_limit is reached */
    uint64_t ramp_ns;            /* measured but discarded warm-up */
    uint64_t startdelay_ns;
    bool time_based;             /* loop over the region until runtime ends */

    /* pacing: total I/Os per second for each worker, evenly spaced (open loop) */
    double rate_iops;
    unsigned rate_burst;         /* > 1: the schedule issues this many I/Os together every
                                    rate_burst / rate_iops s (ACT's service threads, which all
                                    pace from one start); same rate, one timer wake per burst */
    bool rate_complete;          /* paced: issue every I/O scheduled before the end, late or
                                    not, so the run is bounded by the schedule's count (ACT) */
    /* fio's flow: the workers of one flow_id share their I/O in the ratio
     * of their flow weights (0 = not in a flow); a worker ahead of its
     * share waits flow_sleep (runner/worker_flow.c) */
    unsigned flow_id, flow;
    uint64_t flow_sleep_ns;
    char write_iolog[JOB_PATH_MAX]; /* fio's write_iolog: every issued I/O, fio's v3 format */
    /* fio's read_iolog: replay a fio iolog (v2/v3, base/replay_log.h) in
     * place of the generators; the log's files (or replay_redirect) are the
     * targets, its directions the job's rw (options_replay.c) */
    char read_iolog[JOB_PATH_MAX];
    char replay_redirect[JOB_PATH_MAX];
    uint64_t replay_align;       /* offsets rounded down to a multiple; 0 = none */
    unsigned replay_scale;       /* offsets divided by this; 0/1 = none */
    unsigned replay_time_scale;  /* time stamps times 100 / this (percent); 0 = 100 */
    bool replay_no_stall;        /* issue as fast as possible, not at the logged times */
    bool read_iolog_chunked;     /* the worker reads its log a chunk at a time (bounded memory) */
    unsigned replay_skip;        /* blktrace input: RLOG_SKIP_* directions not replayed */
    uint64_t replay_verify_unit; /* verify of a write replay: the gcd of its writes' offsets and lengths */
    /* fio's ':' list: a target no replayed log that names it writes or
     * trims is opened (and judged) for reading, as fio's clone opens it */
    bool replay_read_only[JOB_MAX_TARGETS];
    /* a blktrace replay without iodepth given: iodepth is the deepest of
     * the logs' probes, and each worker takes its own log's (fio's clone
     * probes its own trace) */
    bool replay_depth_probe;

    /* offsets */
    struct job_distribution dist;
    uint64_t seed;
    bool seed_set;               /* false: a seed is taken from the clock and recorded */
    bool norandommap;            /* fio norandommap: random offsets may repeat within a pass */
    enum job_randgen random_generator;
    /* fio's own random streams (job/fio_rand.h), chosen at start: set by the
     * job language with fio's defaults (fio mode, job files), with fio's
     * seeding: randrepeat (its default), randseed given, allrandrepeat */
    bool fio_stream;
    /* fio mode: a file's size is fio's to know: size=P% of files that are
     * not there yet (no filesize) is refused as fio refuses it ("you need
     * to specify size="), where ssdbench otherwise makes them 1 GiB */
    bool fio_size_rules;
    bool fio_randrepeat;
    bool fio_seed_given;
    bool fio_allrandrepeat;
    unsigned passes;             /* set by job_resolve_limits: passes over the region after which the
                                    generator ends the job (loops of a size-bounded job);
                                    0 = no pass limit (time_based, io_size) */

    /* write data */
    enum job_buffer buffer;
    unsigned compress_pct;       /* BUF_COMPRESSIBLE: percent of each 512 B chunk that is zero */
    bool refill_buffers;         /* new random data before every write */

    /* durability */
    unsigned fsync_every;        /* fsync after this many writes; 0 = never */
    unsigned fdatasync_every;
    bool end_fsync;              /* each worker flushes every target it touched when done */
    bool end_fdatasync;          /* ... with fdatasync() instead of fsync() */

    /* a shared request source (NULL: per-worker generators); not owned */
    const struct io_source *source;

    /* reporting */
    uint64_t interval_ns;        /* per-interval series step; default 1 s */
    unsigned npercentiles;
    double percentiles[JOB_PCT_MAX];
    int group_id;                /* fio reporting group */
    bool stonewall;              /* wait for earlier jobs before starting */
    bool group_reporting;
    bool fio_thread;             /* fio's thread=1: its text says "thread", else "process"
                                    (ssdbench's workers are threads either way) */

    bool slat;                   /* measure submission latency apart (fio's slat; disable_slat=0);
                                    also on with lat_log. Asynchronous engines only: it costs
                                    one more clock read and, for io_uring, a separate submit
                                    call per batch */

    /* fio log files (empty = off) */
    char lat_log[JOB_PATH_MAX];
    char bw_log[JOB_PATH_MAX];
    char iops_log[JOB_PATH_MAX];
    unsigned log_avg_msec;
    bool log_offset;             /* fio log_offset: an offset column in the logs */
    bool log_schedlat;           /* paced jobs with lat_log: also NAME_schedlat.N.log */
    bool per_job_logs;
    /* fio log_compression: the chunk size fio compresses its logs in memory
     * with (ssdbench streams them, nothing to compress); with
     * log_store_compressed the file is NAME.fz, zlib streams as fio's */
    uint64_t log_compression;
    bool log_store_compressed;

    /* fio's histogram log (write_hist_log, stats/iolog_hist.h): NAME_clat_hist.N.log,
     * one line of clat bucket counts per log_hist_msec per direction; "" = off */
    char hist_log[JOB_PATH_MAX];
    unsigned log_hist_msec;      /* 0: the file is made but stays empty, as in fio */
    unsigned log_hist_coarseness; /* 0..6: 2^c of fio's 1856 buckets summed per column */

    /* files */
    bool unlink_after;           /* remove files ssdbench created when done */
    bool file_append;            /* the region starts at the end of an existing file */
    bool unlink_each_loop;       /* files ssdbench created are removed and made anew between passes */

    /* fio's "job options" and "global options" as written: the section's
     * own keys and those of the [global] sections before it, one
     * "key\tvalue\n" per key that has a value, values after substitution;
     * entries that do not fit are left out (empty: not from a job file or
     * command line) */
    char written_opts[JOB_WRITTEN_MAX];
    char written_global[JOB_WRITTEN_MAX];
    /* fio's clones of this job (numjobs, or the per-clone default files it
     * became): with more than one and no group_reporting, the runner keeps
     * one statistics block per worker for fio's per-clone reports; worker w
     * belongs to clone w % clones. Set for jobs from job files and command
     * lines; 0 elsewhere (the suite, fileio and ACT report jobs whole). */
    unsigned clones;
    /* verify (fio's verify family; layout and rules in job/verify_hdr.h) */
    enum job_verify verify;      /* VERIFY_OFF: none */
    bool do_verify;              /* read back and check what was written (default on) */
    bool verify_only;            /* replay the writes' offsets without writing; only check */
    bool verify_fatal;           /* stop the job at the first bad block */
    bool verify_dump;            /* write a bad block's received and expected data to files */
    bool readonly;               /* fio readonly=1 / --readonly: no write, trim, creation or removal
                                    of a target; side files only as regular files */
    uint32_t verify_interval;    /* bytes per header (a chunk); 0 = the whole block */
    uint32_t verify_offset;      /* the header is swapped to this offset of each chunk */
    uint64_t verify_backlog;     /* check after this many writes (verify as you go); 0 = at the end */
    uint64_t verify_backlog_batch; /* blocks checked each time; 0 = verify_backlog */
    unsigned verify_pattern_len; /* bytes of verify_pattern; 0 = random data */
    uint8_t verify_pattern[JOB_VPATTERN_MAX];
    unsigned verify_pattern_nfmt; /* %o: the block's offset (8 bytes, little-endian) pasted at */
    uint16_t verify_pattern_fmt[JOB_VPATTERN_FMT_MAX]; /* these pattern positions */
    /* fio's verify_state_save / verify_state_load / verify_async
     * (runner/worker_vstate.h) */
    bool verify_state_save;      /* write jobs: record how many writes were done (default off) */
    bool verify_state_load;      /* verify_only: replay only the writes the state file records */
    unsigned verify_async;       /* check threads per worker (runner/worker_vasync.h); 0 = the worker checks */
    uint64_t verify_async_cpus[JOB_CPUSET_WORDS]; /* their CPUs (fio's verify_async_cpus); all zero = not set */
    /* fio's verify trims (runner/worker_verify.h): of the logged writes,
     * trim_percentage are queued for a trim, issued trim_backlog_batch
     * (0: trim_backlog) at a time once the log holds a multiple of
     * trim_backlog blocks; trim_zero: a trimmed block must read back as
     * zeros */
    unsigned trim_percentage;    /* 0-100; 0 = none */
    uint64_t trim_backlog;       /* 0 = no trims issued (fio's rule) */
    unsigned trim_batch;
    bool trim_zero;              /* default on */
    uint64_t fio_randseed;       /* fio's randseed for them (its default 0x89 unless randseed is given) */
    /* fio's error and end rules (continue_on_error, ignore_error, fill_device,
     * exitall): which failed I/Os let a job go on, and what ends it */
    unsigned continue_on_error;  /* JOB_ERR_* bits: error classes that do not stop the job */
    unsigned nignore[JOB_ERR_CLASSES];   /* 0: fio's default non-fatal list (EIO, EILSEQ) */
    int ignore_errno[JOB_ERR_CLASSES][JOB_IGNORE_MAX];
    bool fill_device;            /* write to the end of the target (files: until the file
                                    system is full); ENOSPC/EDQUOT end the job, no error */
    bool exitall;                /* when this job ends, the other jobs of its phase stop */
    uint8_t exit_what;           /* fio's exit_what for exitall: JOB_EXIT_GROUP (default: the
                                    jobs of its reporting group), _STONEWALL (every running
                                    job of its phase), _ALL (those, and no later phase runs) */
    unsigned unified_rw;         /* fio unified_rw_reporting: 0 none, 1 mixed (one "mixed" set
                                    of figures in fio's output), 2 both (read, write and mixed) */
    /* fio thinktime: after every thinktime_blocks reads/writes the worker
     * lets its I/Os complete, spins thinktime_spin, then sleeps the rest of
     * thinktime (thinktime_iotime: also once per that much I/O time) */
    uint64_t thinktime_ns;       /* 0 = off */
    uint64_t thinktime_spin_ns;
    uint64_t thinktime_iotime_ns;
    uint64_t thinktime_blocks;   /* 0 = not given (fio's default 1) */
    bool thinktime_issue;        /* thinktime_blocks counts issued I/Os (fio's "issue"),
                                    not completed ones ("complete", the default) */
    bool rate_poisson;           /* fio rate_process=poisson: paced issues with exponential gaps
                                    of the same mean (seeded), not evenly spaced */
    uint64_t rw_ios_limit;       /* fio number_ios (times loops): stop after this many reads
                                    and writes per worker, flushes not counted; 0 = none */
    /* fio's buffer contents beyond `buffer` (runner/worker_buf.c): a
     * buffer_pattern, fio's compressible layout (buffer_compress_percentage:
     * per chunk the random bytes first, then zeroes or the pattern),
     * dedupe_percentage (repeat mode) and scramble_buffers */
    unsigned buf_pattern_len;    /* 0 = no buffer_pattern */
    uint8_t buf_pattern[JOB_VPATTERN_MAX];
    bool compress_fio;           /* compress_pct uses fio's layout and compress_chunk */
    uint32_t compress_chunk;     /* bytes per random/zero region; 0 = the smallest write size */
    unsigned dedupe_pct;         /* percent of write buffers that repeat an earlier one */
    bool error_dump;             /* fio error_dump: a stderr line per failed request */
    bool dedupe_working_set;     /* fio dedupe_mode=working_set: a duplicate is a uniformly
                                    drawn one of the first unique buffers, not the last one */
    unsigned dedupe_ws_pct;      /* dedupe_working_set_percentage: that set is this percent
                                    of the worker's bytes in buffers of the smallest write (5) */
    bool dedupe_global;          /* fio dedupe_global: the working sets of the phase's workers
                                    with it are spread over all of their unique buffers */
    bool scramble_buffers;       /* each 512 B block of a random write not refilled gets its
                                    offset and a time stamp written in; on for job files and
                                    command lines (fio's default 1), off for ACT, fileio, PTS */
    /* fio's scheduling and clock options (runner/worker_sched.c) */
    uint64_t cpus_allowed[JOB_CPUSET_WORDS]; /* bit c = CPU c; all zero = not set */
    bool cpus_split;             /* cpus_allowed_policy=split: clone i gets the i-th CPU of the set */
    int nice;                    /* setpriority() of each worker thread; 0 = unchanged */
    int ioprio_class;            /* prioclass 0..3 (0: fio's best effort); -1 = not set */
    int ioprio;                  /* prio 0..7; -1 = not set */
    uint64_t cpu_nodes;          /* numa_cpu_nodes: bit n = node n; 0 = not set */
    int mem_policy;              /* numa_mem_policy: JOB_MPOL_*; 0 = not set */
    uint64_t mem_nodes;          /* its node mask (bit n = node n) */
    /* fio's measurement switches; what is not measured is reported as fio
     * does (its figures zero, N 0). disable_slat is `slat` above. */
    bool no_lat;                 /* disable_lat: no total latency (fio's lat_ns) */
    bool no_clat;                /* disable_clat: no completion latency (clat_ns) */
    bool no_bw;                  /* disable_bw_measurement (fio: only its per-I/O bw log) */
    bool lat_pct;                /* lat_percentiles: percentiles in lat_ns (default 0) */
    bool clat_pct_off;           /* clat_percentiles=0: no percentiles in clat_ns */
    bool slat_pct;               /* slat_percentiles (default 0) */
    /* fio's io_submit_mode=offload: each worker's I/O is issued by a
     * submitter thread of its own, to which the worker queues it
     * (runner/worker_offload.c) */
    bool submit_offload;
    /* fio's serialize_overlap: no two overlapping I/Os of a job in flight
     * (accepted with iodepth=1, where none can be) */
    bool serialize_overlap;
    /* fio's per-I/O priorities (libaio, io_uring; runner/worker_prio.c) */
    struct job_cmdprio cmdprio;
    /* fio's file set and file life cycle (target/fileset.h, runner/worker_files.c).
     * LAYOUT_FILES: worker (clone) c serves the nrfiles targets
     * fileset_idx[c * nrfiles + f], f = 0..nrfiles-1 (clones whose
     * filename_format leaves out $jobnum do not get the files an earlier
     * clone named: JOB_FILESET_NONE, as fio) */
    unsigned nrfiles;            /* files per clone; 0 or 1 = no file set */
    unsigned openfiles;          /* files a worker serves at once (0 = nrfiles) */
    enum job_fservice file_service;
    unsigned file_service_nr;    /* I/Os before the next file is picked (:N; >= 1) */
    double file_service_param;   /* zipf theta, pareto h, normal sigma (percent) */
    uint8_t fileset_idx[JOB_MAX_TARGETS];
    uint64_t file_size_hi;       /* filesize=lo-hi: sizes drawn in [file_size, this] */
    enum target_fallocate fallocate;
    bool invalidate;             /* drop the targets' page cache before the I/O (job files
                                    and the run command line: on unless invalidate=0, as fio) */
    bool pre_read;               /* read every target's region before the timed phase */
    /* fio zones (zonemode=strided, job/zone.h): I/O one zone at a time */
    enum job_zone_mode zone_mode;
    uint64_t zone_size;          /* zonesize: bytes of I/O per zone */
    uint64_t zone_range;         /* zonerange: length of a zone; 0 = zone_size */
    uint64_t zone_skip;          /* zoneskip: bytes skipped after each zone */
    /* zonemode=zbd (base/zbd.h) */
    bool read_beyond_wp;         /* reads may go past a zone's write pointer */
    bool ignore_zone_limits;     /* the device's max open zones does not apply */
    unsigned max_open_zones;     /* 0 = the device's limit */
    unsigned job_max_open_zones; /* 0 = none */
    double zone_reset_threshold; /* share of the region's bytes written ... */
    double zone_reset_frequency; /* ... past which every 1/this writes resets a zone */
    /* fio rate floors and latency limits (runner/rate_floor.h) */
    uint64_t rate_min_bytes[DIR_COUNT]; /* rate_min: bytes/s per direction; 0 = none */
    uint64_t rate_min_iops[DIR_COUNT];  /* rate_iops_min: I/Os per second per direction */
    uint64_t rate_cycle_ms;      /* ratecycle: averaging window of the floors (fio's default 1000) */
    uint64_t max_latency_ns[DIR_COUNT]; /* max_latency per direction; 0 = none */
    uint64_t lat_target_ns;      /* latency_target: search the deepest queue meeting it; 0 = off */
    uint64_t lat_window_ns;      /* latency_window: time per depth step */
    double lat_percentile;       /* latency_percentile: share of I/Os that must meet it (100) */
    bool lat_run;                /* latency_run: keep adjusting for the whole run */

    /* ActiveRange segmentation (SNIA PTS-C, base/segments.h): segs.n > 0
     * confines I/O to the segments; offset, size and the region are then
     * in the space of the segments laid end to end (n x len bytes) */
    struct ar_segments segs;
    /* fio's io_uring engine options (engine_uring.c) */
    struct engine_uring_opts uring;
    struct engine_small_opts small; /* cpuio and filestat (engine_small.c, engine_names.c) */
    struct engine_exec_opts exec;   /* ioengine=exec (engine_exec.c) */
    /* a file-operation engine's name set (engine_kind_by_name): the
     * directory and filename_format with $jobname filled in and $jobnum /
     * $filenum left for each clone and file (runner_names.c), nrfiles of
     * them per clone; empty: the job's one target is the name */
    char names_fmt[256];
    /* derived values, filled by job_resolve() */
    struct job_resolved res;
};

/* Fills a job with ssdbench's defaults (randread 4 KiB QD1, io_uring, direct,
 * 1 s intervals, the default percentile list, random buffers). */
void job_defaults(struct job_spec *job);

/* Names for enums, for results and messages. */
const char *job_rw_name(enum job_rw rw);
const char *job_engine_name(enum engine_kind e);
const char *job_layout_name(enum job_layout l);
const char *job_randgen_name(enum job_randgen g);
bool job_rw_is_random(enum job_rw rw);
bool job_rw_reads(const struct job_spec *job);   /* does the job issue any reads */
bool job_rw_writes(const struct job_spec *job);  /* any writes */
bool job_rw_trims(const struct job_spec *job);   /* any trims */
bool job_rw_trimwrite(const struct job_spec *job); /* (rand)trimwrite: each trim, then a write of it */
uint32_t job_bs_max(const struct job_spec *job); /* the largest block size of any direction */
/* the smallest block size of any direction (fio's td_min_bs), 4096 when none is set */
uint32_t job_bs_min(const struct job_spec *job);
/* does the job destroy data (writes, trims, or falloc's allocation): what the write guard and
 * opening for writing go by */
bool job_rw_destroys(const struct job_spec *job);
/* does the job destroy data on its target t (job_rw_destroys, less verify_only's reads and a
 * replay's targets only read): what the guard and opening for writing go by, per target */
bool job_target_destroys(const struct job_spec *job, unsigned t);
/* fio's rule for a failed I/O (continue_on_error, ignore_error): true when
 * the job goes on after error err (a positive errno) of a read (is_read)
 * or a write/flush. */
bool job_error_continues(const struct job_spec *job, bool is_read, int err);

_Static_assert(JOB_MAX_TARGETS <= ENGINE_MAX_FILES, "a job's targets fit an engine's file table");

#endif
