/* profiles.h - named workload profiles (4k-random-read, 8k-70-30, database,
 * fileserver, webserver, ecw, latency, ...) kept as data: fio job text.
 *
 * The built-in table is one fio job file held in a string; users add their
 * own profiles in files of the same syntax. Every section is a profile; a
 * section named "NAME/PART" is one part of profile NAME (the latency profile
 * has a read part and a write part, run one after the other). The text is
 * parsed with the job-file parser, so a profile means exactly what the same
 * lines mean in `ssdbench run JOBFILE`, and `ssdbench profiles --jobfile`
 * prints a file fio itself can read.
 *
 * A profile that sets iodepth or numjobs (in its section or a [global] above
 * it) has a fixed load: the suite runs it at that load instead of sweeping
 * threads x queue depth. Profiles never name targets; front ends add them.
 */
#ifndef SSDBENCH_PROFILES_H
#define SSDBENCH_PROFILES_H

#include <stdbool.h>
#include <stddef.h>

#include "jobfile/options.h"
#include "job/job.h"

#define PROFILE_DEF_MAX 1024
#define PROFILE_SRC_MAX 320
#define PROFILE_OPT_VALUE_MAX 512

/* One section: one job. */
struct profile_part {
    char name[JOB_NAME_MAX];       /* section name, "NAME" or "NAME/PART" */
    char def[PROFILE_DEF_MAX];     /* the section's own lines, "key=value\n..." */
    struct job_spec job;           /* as parsed; no targets */
    struct job_extra extra;
};

struct profile {
    char name[JOB_NAME_MAX];
    char description[128];         /* of the first part */
    char source[PROFILE_SRC_MAX];  /* "built-in" or "FILE:LINE" */
    char global_def[PROFILE_DEF_MAX]; /* [global] lines in force for it */
    bool fixed_load;               /* sets iodepth or numjobs itself */
    unsigned first, nparts;        /* parts[first .. first + nparts) */
};

struct profile_set {
    unsigned nprofiles;
    struct profile *profiles;
    unsigned nparts;
    struct profile_part *parts;
};

/* One option line of a profile, for front ends that replay them. */
struct profile_opt {
    char key[64];
    char value[PROFILE_OPT_VALUE_MAX];
    bool bare;                     /* "key" without "=value" */
};

/* The built-in table as fio job text. */
const char *profile_builtin_text(void);

/* Fills an empty set with the built-in profiles. 0 or -errno with a message. */
int profile_set_builtin(struct profile_set *ps, char *err, size_t errlen);

/* Adds the profiles of a job file; one with the name of an existing profile
 * replaces it. Errors name FILE:LINE and the value. */
int profile_set_load_file(struct profile_set *ps, const char *path, char *err, size_t errlen);

/* Same for text in memory; name is used in messages. */
int profile_set_load_text(struct profile_set *ps, const char *text, const char *name, char *err,
                          size_t errlen);

void profile_set_free(struct profile_set *ps);

/* By exact name; NULL when missing. */
const struct profile *profile_find(const struct profile_set *ps, const char *name);

/* "unknown profile 'x' (did you mean 'y'?)" / "(see ssdbench profiles)". */
void profile_unknown_msg(const struct profile_set *ps, const char *name, char *err, size_t errlen);

/* The part by index within the profile (0 .. nparts-1). */
const struct profile_part *profile_part(const struct profile_set *ps, const struct profile *p,
                                        unsigned i);

/* One line describing a job's workload: "randrw 70/30, 8 KiB" or
 * "randread, 512 B..512 KiB mix (mean 15.66 KiB), zoned". */
void profile_summary(const struct job_spec *job, char *buf, size_t len);

/* The mean I/O size of one direction's mix, in bytes (shares of I/Os). */
double profile_mean_bs(const struct job_bssplit *b);

/* The options a built-in profile sets, in order ([global] lines first), as
 * written in the table. name is a profile with one part or "NAME/PART".
 * Returns how many were stored in out (at most cap), or -ENOENT / -EINVAL
 * with a message. */
int profile_options(const char *name, struct profile_opt *out, unsigned cap, char *err,
                    size_t errlen);

/* Applies a built-in profile to a job as if its lines were written at this
 * point (later options override it): for `ssdbench run --profile NAME`.
 * Returns 0, or -ENOENT / -EINVAL with a one-line message. Call before
 * job_option_finalize(). */
int profile_apply(const char *name, struct job_spec *job, struct job_extra *x, char *err,
                  size_t errlen);

/* The job a preconditioning phase uses for a part: the part itself when it
 * writes; a read-only part switched to 100 % write with the read sizes and
 * alignment (randread -> randwrite, read -> write); the random map always on
 * as a permutation (random_generator=lfsr: each pass starts an I/O at every
 * block, norandommap or not, with no map memory). */
void profile_precondition_job(const struct job_spec *part, struct job_spec *out);

#endif
