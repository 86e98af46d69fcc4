/* clock.h - the one time base of every measurement: CLOCK_MONOTONIC in
 * nanoseconds (a vDSO call, ~27 ns here; the worker's two stamps per round
 * read it through the time-stamp counter, base/tsc_clock.h), plus absolute
 * sleeps on it, and CLOCK_BOOTTIME to notice a suspend. */
#ifndef SSDBENCH_CLOCK_H
#define SSDBENCH_CLOCK_H

#include <errno.h>
#include <stdint.h>
#include <time.h>

static inline uint64_t clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CLOCK_BOOTTIME: like CLOCK_MONOTONIC but it goes on during a machine
 * suspend, so the difference of the two grows by the time suspended. */
static inline uint64_t clock_boot_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_BOOTTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Sleeps until the absolute monotonic time t (returns early on a signal). */
static inline void clock_sleep_until(uint64_t t)
{
    struct timespec ts = {.tv_sec = (time_t)(t / 1000000000ull), .tv_nsec = (long)(t % 1000000000ull)};
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/* Wall-clock time, for result time stamps only. */
static inline uint64_t clock_wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
