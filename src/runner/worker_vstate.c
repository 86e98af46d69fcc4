/* worker_vstate.c - see worker_vstate.h. */
#include "runner/worker_vstate.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/checksum.h"
#include "base/outfile.h"
#include "runner/worker_verify.h"

#define VSTATE_MAGIC "ssdbench-verify-state 1\n"

void wvstate_path(const struct job_spec *j, unsigned n, char *out, size_t outlen)
{
    char name[sizeof(j->name)];
    snprintf(name, sizeof(name), "%s", j->name);
    for (char *p = name; *p; p++)
        if (*p == '/')
            *p = '.';
    snprintf(out, outlen, "ssdbench-%s-%u-verify.state", name, n);
}

/* the body: magic, job, worker, seed, writes */
static int body(char *buf, size_t len, const struct job_spec *j, unsigned n, uint64_t writes)
{
    return snprintf(buf, len, VSTATE_MAGIC "job %s\nworker %u\nseed %" PRIu64 "\nwrites %" PRIu64 "\n",
                    j->name, n, (uint64_t)j->seed, writes);
}

int wvstate_save(struct worker *w, unsigned inflight, char *err, size_t errlen)
{
    const struct job_spec *j = w->job;
    uint64_t writes = w->vf->seq;
    if (inflight)   /* stopped with I/Os in flight: the last iodepth are not known */
        writes = writes > w->depth ? writes - w->depth : 0;
    char path[JOB_PATH_MAX + 96], buf[JOB_PATH_MAX + 256];
    wvstate_path(j, w->job_worker, path, sizeof(path));
    int n = body(buf, sizeof(buf), j, w->job_worker, writes);
    if (n < 0 || (size_t)n >= sizeof(buf))
        return snprintf(err, errlen, "verify state of job '%s': name too long", j->name), -ENAMETOOLONG;
    struct outfile of;
    char oerr[512];
    if (outfile_open_derived(&of, path, oerr, sizeof(oerr)) < 0)
        return snprintf(err, errlen, "cannot write verify state %s", oerr), -EIO;
    fprintf(of.f, "%scrc32c %08x\n", buf, crc32c(0, buf, (size_t)n));
    if (outfile_commit(&of, oerr, sizeof(oerr)) < 0)
        return snprintf(err, errlen, "cannot write verify state %s", oerr), -EIO;
    return 0;
}

int wvstate_load(struct worker *w, char *err, size_t errlen)
{
    const struct job_spec *j = w->job;
    char path[JOB_PATH_MAX + 96], buf[JOB_PATH_MAX + 320];
    wvstate_path(j, w->job_worker, path, sizeof(path));
    FILE *f = fopen(path, "re");
    if (!f) {
        int e = errno;
        return snprintf(err, errlen, "verify_state_load: cannot read %s: %s (write it with verify_state_save=1)",
                        path, strerror(e)), -e;
    }
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = 0;
    /* the crc line is the last one (a job name may hold "crc32c " too) */
    char *crcl = NULL;
    for (char *p = strstr(buf, "\ncrc32c "); p; p = strstr(p + 1, "\ncrc32c "))
        crcl = p + 1;
    unsigned crc = 0;
    uint64_t seed = 0, writes = 0;
    unsigned worker = 0;
    char name[sizeof(j->name)];
    int nf = 0;
    if (crcl && sscanf(crcl, "crc32c %8x", &crc) == 1 && crc == crc32c(0, buf, (size_t)(crcl - buf)) &&
        !strncmp(buf, VSTATE_MAGIC, strlen(VSTATE_MAGIC))) {
        char fmt[64];
        snprintf(fmt, sizeof(fmt), "job %%%zu[^\n]\nworker %%u\nseed %%" SCNu64 "\nwrites %%" SCNu64,
                 sizeof(name) - 1);
        nf = sscanf(buf + strlen(VSTATE_MAGIC), fmt, name, &worker, &seed, &writes);
    }
    if (nf != 4)
        return snprintf(err, errlen, "verify_state_load: %s is not an ssdbench verify state file (or is damaged)",
                        path), -EINVAL;
    if (strcmp(name, j->name) || worker != w->job_worker || seed != (uint64_t)j->seed)
        return snprintf(err, errlen, "verify_state_load: %s is of job '%s' worker %u seed %" PRIu64
                        ", not of this job (seed %" PRIu64 ")", path, name, worker, seed, (uint64_t)j->seed),
               -EINVAL;
    w->vf->state_loaded = true;
    w->vf->state_writes = writes;
    return 0;
}
