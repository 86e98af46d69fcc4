/* engine_null.c - completes every request immediately without any I/O.
 *
 * Running the full worker loop (generation, time stamps, histograms) against
 * this engine measures ssdbench's own cost per I/O with the kernel removed. */
#include <errno.h>
#include <stdlib.h>

#include "engine/engine.h"

struct null_priv {
    struct io_req **staged;
    unsigned n;
    unsigned depth;
};

static int null_init(struct engine *e, unsigned depth, const int *fds, unsigned nfds,
                     const struct iovec *bufs, unsigned nbufs, char *err, size_t errlen)
{
    struct null_priv *p = calloc(1, sizeof(*p));
    if (!p)
        return -ENOMEM;
    p->staged = calloc(depth, sizeof(*p->staged));
    if (!p->staged) {
        free(p);
        return -ENOMEM;
    }
    p->depth = depth;
    e->priv = p;
    return 0;
}

static int null_queue(struct engine *e, struct io_req *r)
{
    struct null_priv *p = e->priv;
    if (p->n >= p->depth)
        return -EAGAIN;
    p->staged[p->n++] = r;
    return 0;
}

static int null_run(struct engine *e, unsigned min_done, uint64_t timeout_ns,
                    struct io_req **done, unsigned max)
{
    struct null_priv *p = e->priv;
    unsigned n = p->n < max ? p->n : max;
    for (unsigned i = 0; i < n; i++) {
        struct io_req *r = p->staged[i];
        r->res = r->op <= IO_OP_TRIM ? (int32_t)r->len : 0;
        done[i] = r;
    }
    for (unsigned i = n; i < p->n; i++)
        p->staged[i - n] = p->staged[i];
    p->n -= n;
    return (int)n;
}

/* Nothing to hand over: staged requests complete in run(). */
static int null_submit(struct engine *e)
{
    return 0;
}

static void null_exit(struct engine *e)
{
    struct null_priv *p = e->priv;
    if (p)
        free(p->staged);
    free(p);
    e->priv = NULL;
}

const struct engine_ops engine_null_ops = {
    .name = "null",
    .needs_files = false,
    .init = null_init,
    .queue = null_queue,
    .run = null_run,
    .submit = null_submit,
    .exit = null_exit,
};
