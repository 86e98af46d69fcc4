/* options.h - the option table of ssdbench's job language.
 *
 * One table (options.c) maps every key - fio's names and ssdbench's own - onto
 * struct job_spec, or onto struct job_extra for settings job.h has no field
 * for. Job files, the `ssdbench run` command line and built-in profiles all
 * set options through job_set_option(), so a key means the same thing
 * everywhere and `ssdbench run --help` prints the same table.
 *
 * Keys are case-insensitive and '-' equals '_' (rate-iops = rate_iops). Some
 * options depend on others whatever their order (rate needs the final block
 * sizes and mix, filename needs directory, percentage_random needs rw), so a
 * job is complete only after job_option_finalize().
 *
 * Where fio's meaning cannot map one to one:
 *  - rate / rate_iops are per direction in fio; ssdbench paces one stream per
 *    worker, so the total is the smallest direction limit divided by that
 *    direction's share of I/Os (rate in bytes/s first becomes I/Os per second
 *    with the direction's mean block size). For a pure read or write job that
 *    is exactly fio's rate; for 70/30 with rate_iops=1000 it is 1428.6/s.
 *  - bsrange becomes the bssplit fio's draw produces (see spec_parse_bsrange).
 *  - sync and pvsync run as psync; sync=1 (O_SYNC) runs as O_DSYNC.
 *  - thread=1 changes only fio's words for the workers (threads either way);
 *    create_on_open and allow_mounted_write take only 0 (files are laid out
 *    before the run; the destructive-write guard always runs).
 *  - read_iolog makes the job what the log does (options_replay.c).
 *  - randrepeat=1 pins fio's seed; without randrepeat or randseed the job keeps
 *    ssdbench's default (a recorded clock seed), unlike fio's default of 1.
 *  - several files in filename are several targets with the job's layout
 *    (jbod: numjobs workers per file), not fio's round-robin over files;
 *    the files ssdbench names (nrfiles, filename_format) are fio's file
 *    set, LAYOUT_FILES (options_files.c, target/fileset.h).
 *  - invalidate is on after job_option_finalize() unless given (fio's
 *    default); front ends that do not finalize leave it off.
 *  - trim modes, zoned_abs, distribution hot-spot
 *    centres, per-direction zoned lists or percentage_random are -ENOTSUP.
 */
#ifndef SSDBENCH_OPTIONS_H
#define SSDBENCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "job/job.h"
#include "base/steady.h"

/* fio's seed for randrepeat=1 without randseed (FIO_RANDSEED). */
#define JOB_FIO_RANDSEED 0xb1899bedull

/* fio steady-state settings (steadystate=, ss_dur, ss_ramp, ss_interval). */
struct job_ss {
    bool set;                /* steadystate= or ss_dur given */
    struct steady_cfg cfg;   /* rule, metric, limit; window/skip after finalize */
    uint64_t dur_ns;         /* ss_dur; detection runs only when > 0 (as fio) */
    uint64_t ramp_ns;        /* ss_ramp */
    uint64_t interval_ns;    /* ss_interval, default 1 s */
};

/* Per-job settings with no field in struct job_spec, kept beside each job
 * (jobfile.extra[i] belongs to jobfile.jobs[i]). Plain data, copied by value. */
struct job_extra {
    char section[JOB_NAME_MAX];  /* section name as written; name= may differ */
    unsigned kb_base;            /* 1024 or 1000, for this job's later values */
    struct job_ss ss;

    /* rate= and rate_iops= per direction as written (0 = no limit); turned
     * into job.rate_iops by job_option_finalize() */
    uint64_t rate_bytes[DIR_COUNT];
    uint64_t rate_iops[DIR_COUNT];

    char directory[JOB_PATH_MAX];  /* fio directory=, may be a ':' list */
    unsigned numjobs;              /* numjobs as written (see job_option_finalize) */
    bool files_per_clone;          /* no filename: one file per clone was made */

    int randrepeat;                /* -1 not given, else 0/1 */
    bool randseed_set;
    bool pct_random_set;           /* percentage_random given explicitly */
    bool iodepth_set;              /* iodepth given (a blktrace replay takes the trace's otherwise) */
    bool new_group;
    bool log_default[3];           /* bare write_lat/bw/iops_log: name after the job */

    /* fio job-file options kept until finalize or for the plan */
    uint64_t number_ios;           /* number_ios as written (times loops into job.rw_ios_limit) */
    char wait_for[JOB_NAME_MAX];   /* wait_for: the earlier job this one starts after */

    /* fio-inert keys (tests/fio_option_effects.txt): fio's own I/O and
     * output do not change with them either */
    bool experimental_verify;      /* fio's replayed verify; ssdbench's verify reads the same blocks */
    unsigned flow_watermark;       /* deprecated in fio 3.33, which ignores it */
    /* create_on_open=1: only with ioengine=filecreate, whose engine creates
     * each file when it opens it (fio's meaning) */
    bool create_on_open;
    bool create_parallel;          /* create_serialize=0 (refused with zonemode=zbd, as fio) */

    /* fio's file set (options_files.c) */
    char filename_format[JOB_PATH_MAX]; /* empty: $jobname.$jobnum.$filenum */
    bool invalidate_set;           /* invalidate= given (else on, as fio) */

    /* verify */
    bool verify_set;               /* verify= given (verify_pattern alone means verify=pattern) */
    /* fio buffer contents (options_buf.c) */
    bool buf_refill_set;           /* refill_buffers given (compression then keeps it) */
    bool buf_compress_given;       /* buffer_compress_percentage or dedupe_percentage given */
    /* fio zones (options_zone.c): zonemode as written and the values given
     * in zones ("2z"), turned into bytes with zonesize by finalize */
    int zone_mode;                 /* -1 not given, else enum job_zone_mode */
    uint64_t size_nz, io_size_nz, offset_nz, offset_inc_nz, zone_skip_nz;
};

/* Value forms, for the help table and the generic setters. */
enum job_opt_type {
    JOPT_BOOL,   /* bool; a bare key is true */
    JOPT_UINT,   /* unsigned, plain integer in [min, max] */
    JOPT_SIZE,   /* uint64_t bytes with units, in [min, max] */
    JOPT_TIME,   /* uint64_t ns; a bare number is in unit_ns */
    JOPT_STR,    /* char array */
    JOPT_FUNC,   /* a setter function */
};

struct job_opt_ctx;

struct job_opt {
    const char *name;
    const char *alias[3];
    enum job_opt_type type;
    bool extra;               /* field lives in struct job_extra */
    bool negate;              /* JOPT_BOOL stored inverted (buffered = !direct) */
    bool bare;                /* JOPT_FUNC accepts a bare key (value NULL) */
    size_t off, size;         /* field offset and size */
    uint64_t min, max;        /* JOPT_UINT / JOPT_SIZE / JOPT_TIME range */
    uint64_t unit_ns;         /* JOPT_TIME default unit */
    int (*set)(const struct job_opt *o, struct job_opt_ctx *c, const char *val);
    const char *arg;          /* value form in help, e.g. "size[,size]" */
    const char *help;
};

/* Sets defaults for the side struct: kb_base 1024, randrepeat not given,
 * ss_interval 1 s, numjobs 1. */
void job_extra_defaults(struct job_extra *x);

/* Applies one option. value NULL means a bare key (booleans become true).
 * Returns 0; -ENOENT for an unknown key ("unknown option 'xyz' (did you mean
 * 'abc'?)"); -ENOTSUP for a fio key or value ssdbench cannot honour; -EINVAL
 * for a bad value (the message names key, value and the allowed form/range).
 * On error the job is unchanged. */
int job_set_option(struct job_spec *job, struct job_extra *extra, const char *key,
                   const char *value, char *err, size_t errlen);

/* Completes a job after all its options are set: percentage_random default
 * from rw, rate/rate_iops into rate_iops, directory into the target paths,
 * the default file names, log names, randrepeat/randseed, steady-state window.
 * Without filename/target and unless no_default_files, the targets are fio's
 * default files DIRECTORY/NAME.J.0 for every clone J; for the jbod layout that
 * means numjobs targets with numjobs = 1 (extra->numjobs keeps the number
 * written and extra->files_per_clone is set). 0 or -EINVAL with a message. */
int job_option_finalize(struct job_spec *job, struct job_extra *extra, bool no_default_files,
                        char *err, size_t errlen);

/* fio's --readonly on a finished job (readonly set): a read_iolog replay is
 * made again without the log's writes and trims, as fio leaves them out.
 * 0 or -errno with a message. */
int job_replay_readonly(struct job_spec *job, struct job_extra *extra, char *err, size_t errlen);

/* The table entry for a key (name or alias, '-' = '_'), or NULL. */
const struct job_opt *job_option_find(const char *key);
/* The table itself, for help and documentation. */
const struct job_opt *job_option_table(unsigned *n);
/* The known name nearest to key by edit distance, or NULL when none is close. */
const char *job_option_suggest(const char *key);
/* Prints the table: per option a line "name, aliases=form" and an indented
 * help line. */
void job_option_print(FILE *f);

/* --- fio's own option names (fio_names.h; options_fio.c) --- */
/* True when fio knows key (an option, an engine option or an alias): a key
 * fio knows that the table lacks is "unsupported", any other "unknown". */
bool job_option_fio_known(const char *key);
/* fio's main name for key ("timeout" -> "runtime", "blockalign" -> "ba"):
 * fio's when fio knows the key, else the table's, else NULL. */
const char *job_option_canonical(const char *key);
/* Does "--key" without '=' on a command line take the next argument as its
 * value? fio's rule for keys fio knows (every option but its empty-or-boolean
 * ones such as time_based), else the table's (not booleans and bare keys);
 * a key neither knows takes it too, so its error names the key. */
bool job_option_takes_arg(const char *key);

#endif
