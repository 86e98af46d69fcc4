/* replay_sched.h - fio's replay schedule (iolog.c iolog_delay), as pure
 * arithmetic on nanosecond clock readings, so the worker (runner/
 * worker_replay.c) and the unit test run the same rule:
 *
 *  - an entry's gap is slept from the last issue (the last I/O queued or
 *    file action done): due = last issue + gap - carried overrun;
 *  - no sleep when the gap is within the carried overrun (which is then
 *    dropped), or when that much has passed since the last issue already
 *    (the overrun is kept);
 *  - after a sleep, the time it took beyond the whole gap is the overrun
 *    carried to the next entry (fio's time_offset);
 *  - a version 2 wait is until its time after the start, and leaves the
 *    clock of the gaps alone. */
#ifndef SSDBENCH_REPLAY_SCHED_H
#define SSDBENCH_REPLAY_SCHED_H

#include <stdbool.h>
#include <stdint.h>

struct rsched {
    uint64_t start, last_issue, offset;
    bool decided, slept;
    uint64_t due, sleep_from, gap;
};

static inline void rsched_begin(struct rsched *s, uint64_t start)
{
    *s = (struct rsched){.start = start, .last_issue = start};
}

/* When the entry that came up at now (gap, or a wait's time) is due;
 * decided once per entry. */
static inline uint64_t rsched_due(struct rsched *s, uint64_t gap, bool wait, uint64_t now)
{
    if (s->decided)
        return s->due;
    s->decided = true;
    s->slept = false;
    s->due = now;
    s->gap = gap;
    if (wait) {
        s->due = s->start + gap;
        return s->due;
    }
    if (!gap)
        return now;
    if (gap < s->offset) {
        s->offset = 0;
        return now;
    }
    uint64_t d = gap - s->offset;
    if (d < now - s->last_issue)
        return now;
    s->due = s->last_issue + d;
    s->slept = true;
    s->sleep_from = now;
    return s->due;
}

/* The entry was done at now: the overrun of its sleep carried; issue (an
 * I/O or a file action, not a wait) restarts the gaps' clock. */
static inline void rsched_done(struct rsched *s, uint64_t now, bool issue)
{
    if (s->decided && s->slept) {
        uint64_t took = now - s->sleep_from;
        s->offset = took > s->gap ? took - s->gap : 0;
    }
    s->decided = s->slept = false;
    if (issue)
        s->last_issue = now;
}

#endif
