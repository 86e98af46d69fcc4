/* jobfile.h - fio-style job files and command lines into job structs.
 *
 * Reads fio's INI dialect - [sections], [global] defaults for the jobs that
 * follow (a later [global] changes them for later jobs only), `include FILE`
 * inside a section, ${ENV} and $pagesize/$mb_memory/$ncpus in values, ';' and
 * '#' comments, bare boolean keys - and fio's command-line form, where options
 * before the first --name are global and every --name starts a job. Both end
 * in the same list of jobs, one struct job_spec plus one struct job_extra
 * each, with fio's reporting groups filled in. numjobs stays a field: the
 * runner makes the clones.
 *
 * Every error is one line: "FILE:LINE: what" for files, "command line: what"
 * for arguments. Within one section kb_base is applied before the other keys,
 * as fio does, so its position does not matter.
 */
#ifndef SSDBENCH_JOBFILE_H
#define SSDBENCH_JOBFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "jobfile/options.h"
#include "job/job.h"

#define JOBFILE_MSG_MAX 1024
#define JOBFILE_INCLUDE_DEPTH 16
/* The largest job file (or include) read: more is refused with
 * "FILE: job file larger than 4 MiB". */
#define JOBFILE_MAX_BYTES (4u << 20)
/* The same cap holds for a job file and all it includes together (an
 * include read twice counts twice), so includes cannot fan out without
 * limit; a job file holds at most JOBFILE_MAX_JOBS jobs (fio's limit) and
 * a section at most JOBFILE_MAX_ENTRIES options. */
#define JOBFILE_MAX_JOBS 4096
#define JOBFILE_MAX_ENTRIES 65536

struct jobfile_opts {
    /* options fio knows that ssdbench does not implement become warnings;
     * unknown keys (typos) and values ssdbench cannot honour
     * (ioengine=cpuio) stay errors */
    bool ignore_unsupported;
    /* start every job from fio's defaults instead of ssdbench's: rw=read,
     * ioengine=psync, direct=0, randrepeat=1 (so a fio job file runs the
     * workload fio would run) */
    bool fio_defaults;
    /* fio mode: every job follows fio where ssdbench otherwise helps out
     * (job_spec.fio_size_rules) */
    bool fio_size_rules;
    /* the interval step every job starts with (fio mode: 500 ms, fio's
     * bwavgtime and iopsavgtime, so short runs have bandwidth and IOPS
     * samples as fio's); 0 = ssdbench's 1 s */
    uint64_t interval_ns;
    /* a job without filename/target keeps ntargets = 0 instead of getting
     * fio's default per-clone files (the CLI may prefer to ask for a target) */
    bool no_default_files;
    /* fio --section: keep only jobs from these sections (NULL = all) */
    const char *const *sections;
    unsigned nsections;
    /* command line without --name: the one job's name (NULL = "job") */
    const char *default_name;
    /* command line only: called with a key the option table does not know,
     * so the CLI can take its own options from the same argv. value is NULL
     * for "--key" without "=", next is the following argument or NULL.
     * Returns 0 (not mine: "unknown option" error), 1 (consumed), 2 (consumed
     * together with next), or a negative errno with a message in err. */
    int (*cli_option)(void *ctx, const char *key, const char *value, const char *next,
                      char *err, size_t errlen);
    void *cli_ctx;
    /* fio --showcmd: called for every section read (not for sections
     * --section leaves out) before its options apply: once with key NULL
     * when the section starts, then with each key and value as read (value
     * expanded, NULL for a bare key). NULL = none. */
    void (*on_entry)(void *ctx, const char *section, bool global, const char *key, const char *value);
    void *entry_ctx;
    /* fio --debug=parse: called after each option is applied (x as it now
     * is; value NULL for a bare key). NULL = none. */
    void (*on_applied)(void *ctx, const char *key, const char *value, const struct job_extra *x);
    void *applied_ctx;
    /* fio: job options given on the command line before any --name are
     * defaults for the jobs of the job files read after them. npreset
     * key/value pairs (value NULL for a bare key) applied to the [global]
     * template before the file's first line; errors say "command line". */
    const char *const *preset_keys;
    const char *const *preset_values;
    unsigned npreset;
};

struct jobfile {
    unsigned njobs;
    struct job_spec *jobs;           /* njobs, in file order */
    struct job_extra *extra;         /* extra[i] belongs to jobs[i] */
    unsigned ngroups;                /* group ids run 0 .. ngroups-1 */
    unsigned nwarnings;
    char (*warnings)[JOBFILE_MSG_MAX];
};

/* Parses a job file. Returns 0, or a negative errno with "FILE:LINE: msg" in
 * err: -EINVAL (syntax or value), -ENOENT (unknown option or missing file),
 * -ENOTSUP (unsupported fio feature), -ELOOP (include loop). out is empty on
 * error. */
int jobfile_parse_file(const char *path, const struct jobfile_opts *o, struct jobfile *out,
                       char *err, size_t errlen);

/* Same for text held in memory (built-in profiles); name is used in messages
 * and relative includes resolve against the current directory. */
int jobfile_parse_string(const char *text, const char *name, const struct jobfile_opts *o,
                         struct jobfile *out, char *err, size_t errlen);

/* fio's command-line form: argv holds only options (no program or command
 * name): --key=value, --key value for keys that take a value, --key for
 * booleans. */
int jobfile_parse_cmdline(int argc, char **argv, const struct jobfile_opts *o,
                          struct jobfile *out, char *err, size_t errlen);

void jobfile_free(struct jobfile *jf);

/* Appends b's jobs to a as fio runs a later job file: its first job waits
 * for the earlier ones (stonewall) and its groups follow a's. 0, or
 * -ENOMEM with err. */
int jobfile_append(struct jobfile *a, const struct jobfile *b, char *err, size_t errlen);

/* Prints the option table (name, aliases, value form, help) and the syntax
 * notes, for `ssdbench run --help` and the man page. Returns 0. */
int jobfile_help(FILE *f);

#endif
