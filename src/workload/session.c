/* session.c - see session.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "result/result.h"
#include "workload/session.h"

int session_open(struct session *s, int argc, char **argv, const struct guard_consent *consent,
                 runner_status_fn status)
{
    memset(s, 0, sizeof(*s));
    s->ro.consent = consent;
    s->ro.status = status;
    s->doc = result_new(argc, argv);
    return s->doc ? 0 : -ENOMEM;
}

/* What each rank tells rank 0 about itself before anything runs. */
struct rank_ident {
    uint64_t plan_hash;         /* version and command line */
    uint64_t argv_hash;         /* command line alone */
    char version[32];
    char host[CLUSTER_HOST_MAX];
    uint32_t localrank;
    uint32_t localsize;
    int32_t pid;
};

int session_cluster(struct session *s, struct cluster *c, int argc, char **argv, unsigned ranks_per_host,
                    char *err, size_t errlen)
{
    s->cluster = c;
    s->ro.cluster = c;
    unsigned local = c ? c->localsize : 1;
    if (!cluster_multi(c)) {
        if (ranks_per_host && ranks_per_host != local) {
            snprintf(err, errlen, "--ranks-per-host %u: this host runs %u rank%s (start the job with mpirun "
                     "and the MPI build)", ranks_per_host, local, local == 1 ? "" : "s");
            return -EINVAL;
        }
        return 0;
    }
    struct rank_ident me;
    memset(&me, 0, sizeof(me));
    uint64_t h = CLUSTER_HASH_INIT;
    for (int i = 0; i < argc; i++)
        h = cluster_hash(h, argv[i], strlen(argv[i]) + 1);
    me.argv_hash = h;
    me.plan_hash = cluster_hash(h, SSDBENCH_VERSION, sizeof(SSDBENCH_VERSION));
    snprintf(me.version, sizeof(me.version), "%s", SSDBENCH_VERSION);
    snprintf(me.host, sizeof(me.host), "%s", c->host);
    me.localrank = c->localrank;
    me.localsize = c->localsize;
    me.pid = (int32_t)getpid();
    void *all = NULL;
    size_t *lens = NULL;
    struct {
        int32_t bad;
        char msg[480];
    } v;
    memset(&v, 0, sizeof(v));
    if (cluster_gather(c, &me, sizeof(me), &all, &lens) < 0) {
        snprintf(err, errlen, "the ranks could not exchange their versions");
        return -EIO;
    }
    if (c->rank == 0) {
        const struct rank_ident *ri = all;
        cJSON *co = cJSON_AddObjectToObject(s->doc, "cluster");
        cJSON_AddNumberToObject(co, "nranks", c->nranks);
        cJSON_AddNumberToObject(co, "nhosts", c->nhosts);
        if (ranks_per_host)
            cJSON_AddNumberToObject(co, "ranks_per_host", ranks_per_host);
        cJSON *rl = cJSON_AddArrayToObject(co, "ranks");
        for (unsigned r = 0; r < c->nranks; r++) {
            struct rank_ident x;
            memset(&x, 0, sizeof(x));
            if (lens[r] == sizeof(x))
                x = ri[r];
            x.version[sizeof(x.version) - 1] = x.host[sizeof(x.host) - 1] = 0;
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "rank", r);
            cJSON_AddStringToObject(o, "host", x.host);
            cJSON_AddNumberToObject(o, "local_rank", x.localrank);
            cJSON_AddStringToObject(o, "version", x.version);
            cJSON_AddNumberToObject(o, "pid", x.pid);
            cJSON_AddItemToArray(rl, o);
            if (!v.bad && (lens[r] != sizeof(x) || x.plan_hash != me.plan_hash)) {
                v.bad = 1;
                if (strcmp(x.version, me.version))
                    snprintf(v.msg, sizeof(v.msg), "rank %u (host %s) runs ssdbench %s, rank 0 (host %s) %s: "
                             "every rank must run the same version", r, x.host, x.version, me.host, me.version);
                else
                    snprintf(v.msg, sizeof(v.msg), "rank %u (host %s) was given other options than rank 0 "
                             "(host %s): every rank must run the same command line", r, x.host, me.host);
            } else if (!v.bad && ranks_per_host && x.localsize != ranks_per_host) {
                v.bad = 1;
                snprintf(v.msg, sizeof(v.msg), "--ranks-per-host %u: host %s runs %u rank%s (place the ranks "
                         "with mpirun --map-by ppr:%u:node)", ranks_per_host, x.host, x.localsize,
                         x.localsize == 1 ? "" : "s", ranks_per_host);
            }
        }
    }
    free(all);
    free(lens);
    if (cluster_bcast(c, &v, sizeof(v), 0) < 0) {
        snprintf(err, errlen, "the ranks could not exchange their versions");
        return -EIO;
    }
    if (v.bad) {
        snprintf(err, errlen, "%s", v.msg);
        return -EINVAL;
    }
    return 0;
}

cJSON *session_phase(struct session *s, const struct plan_phase *ph, int *rc, char *err,
                     size_t errlen)
{
    return plan_run_phase(s->doc, ph, &s->ro, &s->st, rc, err, errlen);
}

cJSON *session_phase_with(struct session *s, const struct plan_phase *ph, const struct runner_opts *ro,
                          plan_stats_fn fn, void *arg, int *rc, char *err, size_t errlen)
{
    return plan_run_phase_with(s->doc, ph, ro, fn, arg, &s->st, rc, err, errlen);
}

void session_close(struct session *s)
{
    cJSON_Delete(s->doc);
    s->doc = NULL;
}

void session_err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ssdbench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
