/* session.c - see session.h. */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

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
