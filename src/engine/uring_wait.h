/* uring_wait.h - submitting what is queued on an io_uring ring and waiting
 * for completions, as both io_uring engines (engine_uring.c,
 * engine_uring_cmd.c) do it: min_done 0 submits only (get_events: also
 * runs deferred completion work, for IORING_SETUP_DEFER_TASKRUN rings),
 * otherwise waits for min_done completions, at most timeout_ns when it is
 * not 0. An interrupted or timed-out wait is 0 (the caller reaps what
 * there is); -EAGAIN and -EBUSY are left to the caller too. Inline: it is
 * on every I/O's path. */
#ifndef SSDBENCH_ENGINE_URING_WAIT_H
#define SSDBENCH_ENGINE_URING_WAIT_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <liburing.h>

static inline int uring_submit_wait(struct io_uring *ring, unsigned min_done, uint64_t timeout_ns,
                                    bool get_events)
{
    int ret;
    if (min_done == 0) {
        ret = get_events ? io_uring_submit_and_get_events(ring) : io_uring_submit(ring);
    } else if (timeout_ns) {
        struct __kernel_timespec ts = {
            .tv_sec = (long long)(timeout_ns / 1000000000ull),
            .tv_nsec = (long long)(timeout_ns % 1000000000ull),
        };
        struct io_uring_cqe *cqe;
        ret = io_uring_submit_and_wait_timeout(ring, &cqe, min_done, &ts, NULL);
        if (ret == -ETIME || ret == -EINTR)
            ret = 0;
    } else {
        ret = io_uring_submit_and_wait(ring, min_done);
        if (ret == -EINTR)
            ret = 0;
    }
    return ret;
}

#endif
