/* tsc_clock.h - CLOCK_MONOTONIC read through the CPU's time-stamp counter,
 * for the worker's two per-round stamps (submission, completion).
 *
 * clock_gettime() through the vDSO costs ~27 ns on the development VM (its
 * ordered rdtsc, the seqlock, the call), a bare rdtsc ~11 ns; at QD1 on the
 * null engine the two stamps of a round were most of the time per I/O.
 * fio does the same (its calibrated cpu clock) when the TSC is usable.
 *
 * Used only when the kernel's own clocksource is "tsc" (the kernel checked
 * that the counter is invariant and in step on every CPU; CLOCK_MONOTONIC
 * is then itself the counter scaled), on x86-64; else every read is
 * clock_ns(). The scale comes from pairs of (clock_ns, counter) samples:
 * one at init and one 1 ms later, then every TSC_ADJUST_NS the clock takes
 * a new pair and re-anchors where it is (never a jump, so it stays
 * monotonic), with a slope that closes the gap to CLOCK_MONOTONIC by the
 * next adjustment. Its distance from CLOCK_MONOTONIC is what the scale
 * missed over one adjustment period (a few us after the first, well under
 * one after that); a distance over TSC_MAX_OFF_NS (the kernel changed its
 * clocksource, a VM migrated) turns it off for good. */
#ifndef SSDBENCH_TSC_CLOCK_H
#define SSDBENCH_TSC_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "base/clock.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#define TSC_CLOCK_HW 1
#else
#define TSC_CLOCK_HW 0
#endif

#define TSC_ADJUST_NS 50000000ull /* 50 ms */
#define TSC_MAX_OFF_NS 1000000ll  /* 1 ms */

struct tsc_clock {
    bool on;
    uint64_t tsc0, ns0;        /* the anchor: counter and time there */
    uint64_t mult;             /* ns per tick, << 32 */
    uint64_t cal_tsc, cal_ns;  /* the first pair: the rate over the whole span */
    uint64_t next_ns;          /* the next adjustment (UINT64_MAX when off) */
    uint64_t adjusts;
};

static inline uint64_t tsc_read(void)
{
#if TSC_CLOCK_HW
    return __rdtsc();
#else
    return 0;
#endif
}

/* The time at counter value t (pure: the tests drive it with made-up t). */
static inline uint64_t tsc_clock_at(const struct tsc_clock *c, uint64_t t)
{
    uint64_t d = t > c->tsc0 ? t - c->tsc0 : 0;
    return c->ns0 + (uint64_t)(((unsigned __int128)d * c->mult) >> 32);
}

static inline uint64_t tsc_clock_ns(const struct tsc_clock *c)
{
    if (__builtin_expect(!c->on, 0))
        return clock_ns();
    return tsc_clock_at(c, tsc_read());
}

/* Sets c up (on when the counter is usable; the 1 ms calibration spin
 * happens here, once per worker, before its I/O). */
void tsc_clock_init(struct tsc_clock *c);

/* Starts c from two made-up pairs (tests): on, anchored at the second. */
void tsc_clock_start(struct tsc_clock *c, uint64_t ns_a, uint64_t tsc_a, uint64_t ns_b, uint64_t tsc_b);

/* One adjustment from the pair (real, t): real is CLOCK_MONOTONIC when the
 * counter read t. Returns false when the clock turned itself off. */
bool tsc_clock_adjust_at(struct tsc_clock *c, uint64_t real, uint64_t t);

/* One adjustment now (a new pair of samples). */
void tsc_clock_adjust(struct tsc_clock *c);

/* Adjusts when due (now: a stamp of this clock); one compare otherwise. */
static inline void tsc_clock_tick(struct tsc_clock *c, uint64_t now)
{
    if (__builtin_expect(now >= c->next_ns, 0))
        tsc_clock_adjust(c);
}

#endif
