/* engine_exec.c - fio's exec engine (engines/exec.c of fio 3.33): the
 * job's first I/O starts the program (posix_spawnp, its arguments split at
 * spaces; with std_redirect its standard output and error go to the
 * descriptors the runner opened through the guard, NAME.stdout and
 * NAME.stderr); every later I/O waits 50 ms (fio's usleep of its 50 ms
 * thinktime) and, once the job's runtime has passed, sends the program
 * SIGTERM and gives it grace_time seconds. exit() kills what is still
 * running (SIGKILL) and reaps it. No data moves. */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"

extern char **environ;

struct exec_priv {
    struct io_req *staged;
    char *buf;          /* program and arguments, split in place */
    char **argv;
    pid_t pid;          /* 0 = not started */
    uint64_t start_ns;
    bool termed;
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int exec_init(struct engine *e, unsigned depth, const int *fds, unsigned nfds, const struct iovec *bufs,
                     unsigned nbufs, char *err, size_t errlen)
{
    const struct engine_exec_opts *o = e->exec;
    if (!o || !o->program[0]) {
        snprintf(err, errlen, "ioengine=exec: no program is defined, it is mandatory to define one");
        return -EINVAL;
    }
    struct exec_priv *p = calloc(1, sizeof(*p));
    size_t len = strlen(o->program) + strlen(o->arguments) + 2;
    if (!p || !(p->buf = malloc(len)) || !(p->argv = calloc(len / 2 + 2, sizeof(char *)))) {
        if (p)
            free(p->buf);
        free(p);
        return -ENOMEM;
    }
    snprintf(p->buf, len, "%s %s", o->program, o->arguments);
    unsigned n = 0;
    for (char *s = p->buf;;) {
        s += strspn(s, " ");
        if (!*s)
            break;
        p->argv[n++] = s;
        s += strcspn(s, " ");
        if (*s)
            *s++ = 0;
    }
    p->argv[n] = NULL;
    e->priv = p;
    return 0;
}

static int exec_queue(struct engine *e, struct io_req *r)
{
    struct exec_priv *p = e->priv;
    if (p->staged)
        return -EAGAIN;
    p->staged = r;
    return 0;
}

static int start_program(struct engine *e, struct exec_priv *p)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (e->exec->std_redirect && e->exec_out[0] >= 0 && e->exec_out[1] >= 0) {
        posix_spawn_file_actions_adddup2(&fa, e->exec_out[0], 1);
        posix_spawn_file_actions_adddup2(&fa, e->exec_out[1], 2);
    }
    int rc = posix_spawnp(&p->pid, p->argv[0], &fa, NULL, p->argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    p->start_ns = now_ns();
    if (rc) {
        p->pid = 0;
        return -rc;
    }
    return 0;
}

static int exec_run(struct engine *e, unsigned min_done, uint64_t timeout_ns, struct io_req **done,
                    unsigned max)
{
    struct exec_priv *p = e->priv;
    struct io_req *r = p->staged;
    if (!r || max == 0)
        return 0;
    p->staged = NULL;
    int rc = 0;
    if (!p->pid && !p->start_ns) {
        rc = start_program(e, p);
    } else {
        /* fio: wait, then stop the program once the runtime is over */
        struct timespec ts = {0, 50000000};
        nanosleep(&ts, NULL);
        if (p->pid && !p->termed && e->exec->runtime_ns && now_ns() - p->start_ns > e->exec->runtime_ns) {
            kill(p->pid, SIGTERM);
            p->termed = true;
            sleep(e->exec->grace_time);
        }
    }
    /* fio's FIO_NOIO: the I/O is counted, its bytes are not */
    r->len = 0;
    r->res = rc < 0 ? rc : 0;
    done[0] = r;
    return 1;
}

static void exec_exit(struct engine *e)
{
    struct exec_priv *p = e->priv;
    if (p && p->pid > 0) {
        kill(p->pid, SIGKILL);
        while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (p) {
        free(p->buf);
        free(p->argv);
    }
    free(p);
    e->priv = NULL;
}

const struct engine_ops engine_exec_ops = {
    .name = "exec",
    .needs_files = false,
    .max_depth = 1,
    .init = exec_init,
    .queue = exec_queue,
    .run = exec_run,
    .exit = exec_exit,
};
