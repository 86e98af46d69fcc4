/* runner_hold.h - the targets of a whole plan, judged once before its first
 * phase and held until its last.
 *
 * A workload whose plan has several phases (a job file's stonewalls, the
 * quick grid) opens every existing target of every phase through the guard
 * (target_open) before any phase runs, so a refusal anywhere comes before
 * the first write and before anything is created. A block device's
 * descriptor stays open: a phase's runner reopens it (target_share)
 * instead of looking the path up again, so a name swapped between phases
 * (a link planted in a sticky directory) is not followed, and the device
 * stays claimed (O_EXCL) from the check to the end. A regular file (a plan
 * may name thousands, more than a process may hold open) is recorded by
 * device and inode at the check, as is a file a phase creates; a later
 * phase opening that name must find the same file (or none: it is then
 * created again), else it is refused. Consent given on the
 * command line is bound once, at the check, to what each path named then
 * (an O_PATH descriptor, matched through /proc/self/fd), so a path that
 * later names something else consents to nothing new.
 */
#ifndef SSDBENCH_RUNNER_HOLD_H
#define SSDBENCH_RUNNER_HOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "target/guard.h"
#include "target/target.h"
#include "job/job.h"

struct runner_hold_ent {
    char path[JOB_PATH_MAX];     /* the job's name for it */
    bool write;                  /* some phase writes (or trims) it */
    bool held;                   /* t is open (since the plan's check): block devices */
    bool known;                  /* a regular file judged at the check: t.dev/t.ino say which */
    bool created;                /* a phase created it: t.dev/t.ino say which file */
    bool is_new;                 /* missing at the check: a phase will create it */
    bool chardev;                /* a passthrough node (io_uring_cmd, sg): judged as its disk */
    uint64_t create_size;        /* the largest size a phase would create it with */
    struct target t;
};

struct runner_hold {
    unsigned n, cap;
    struct runner_hold_ent *e;
    /* the consent bound at the check (paths are /proc/self/fd/N) */
    struct guard_consent consent;
    int consent_fd[GUARD_MAX_CONSENT];
    char consent_path[GUARD_MAX_CONSENT][32];
};

void runner_hold_init(struct runner_hold *h);

/* The size a phase creates a missing target of job j with
 * (runner_setup.c); for the free-space check before anything is made. */
uint64_t runner_create_size(const struct job_spec *j);

/* Adds path to the plan (once; write and create_size are merged with an
 * earlier mention). 0 or -ENOMEM. */
int runner_hold_add(struct runner_hold *h, const char *path, bool write, uint64_t create_size);

/* As runner_hold_add for a passthrough engine's target: a character device
 * is opened (and judged) through the disk it addresses (chardev_map.h). */
int runner_hold_add_chardev(struct runner_hold *h, const char *path, bool write);

/* Binds c (may be NULL) and opens every path added: a write target
 * through the guard (refusal: -EPERM with a one-line message naming it),
 * a missing one is noted as new. 0 or -errno with err set. */
int runner_hold_judge(struct runner_hold *h, const struct guard_consent *c, char *err, size_t errlen);

/* Opens a phase's target: through the descriptor held for path when there
 * is one, else target_open; a name a phase of the plan created must still
 * name that file. h NULL: target_open. Same returns as target_open. */
int runner_hold_open(struct runner_hold *h, struct target *t, const char *path,
                     const struct target_open_opts *o, char *err, size_t errlen);

/* Closes every held descriptor (a file that is ssdbench's gets its mark
 * renewed, as target_close does) and the bound consent. */
void runner_hold_close(struct runner_hold *h);

#endif
