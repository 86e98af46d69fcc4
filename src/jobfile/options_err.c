/* options_err.c - the messages of option setters: "KEY: message" for every
 * setter file of the option table (options_set.c, options_files.c,
 * options_zone.c, options_buf.c ...), declared in options_int.h. */
#include "jobfile/options_int.h"

#include <stdarg.h>
#include <stdio.h>

int jopt_fail(struct job_opt_ctx *c, int rc, const char *fmt, ...)
{
    if (c->err && c->errlen) {
        int n = snprintf(c->err, c->errlen, "%s: ", c->key);
        if (n >= 0 && (size_t)n < c->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return rc;
}

int jopt_prefix(struct job_opt_ctx *c, int rc)
{
    char msg[512];
    snprintf(msg, sizeof(msg), "%s", c->err ? c->err : "");
    return jopt_fail(c, rc, "%s", msg);
}
