/* tsc_clock.c - the time-stamp counter clock's set-up and adjustments
 * (tsc_clock.h says how it is used and when it is on). */
#include "base/tsc_clock.h"

#include <string.h>

#include "base/sysfs_attr.h"

/* A (CLOCK_MONOTONIC, counter) pair: the counter read between two clock
 * reads, their middle, the closest of three tries (a preempted try is
 * wide). */
static void sample(uint64_t *ns, uint64_t *t)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 3; i++) {
        uint64_t a = clock_ns();
        uint64_t x = tsc_read();
        uint64_t b = clock_ns();
        if (b - a < best) {
            best = b - a;
            *ns = a + (b - a) / 2;
            *t = x;
        }
    }
}

static void turn_off(struct tsc_clock *c)
{
    c->on = false;
    c->next_ns = UINT64_MAX;
}

void tsc_clock_start(struct tsc_clock *c, uint64_t ns_a, uint64_t tsc_a, uint64_t ns_b, uint64_t tsc_b)
{
    memset(c, 0, sizeof(*c));
    turn_off(c);
    if (tsc_b <= tsc_a || ns_b <= ns_a)
        return;
    c->cal_ns = ns_a;
    c->cal_tsc = tsc_a;
    c->mult = (uint64_t)(((unsigned __int128)(ns_b - ns_a) << 32) / (tsc_b - tsc_a));
    if (!c->mult)
        return;
    c->tsc0 = tsc_b;
    c->ns0 = ns_b;
    c->next_ns = ns_b + TSC_ADJUST_NS;
    c->on = true;
}

void tsc_clock_init(struct tsc_clock *c)
{
    memset(c, 0, sizeof(*c));
    turn_off(c);
    if (!TSC_CLOCK_HW)
        return;
    char src[32];
    if (!sysfs_attr("/sys/devices/system/clocksource/clocksource0", "current_clocksource", src, sizeof(src)) ||
        strcmp(src, "tsc") != 0)
        return;
    uint64_t na, ta, nb, tb;
    sample(&na, &ta);
    while (clock_ns() < na + 1000000)
        ;
    sample(&nb, &tb);
    tsc_clock_start(c, na, ta, nb, tb);
}

bool tsc_clock_adjust_at(struct tsc_clock *c, uint64_t real, uint64_t t)
{
    if (!c->on)
        return false;
    uint64_t fast = tsc_clock_at(c, t);
    int64_t e = (int64_t)(fast - real);
    if (e > TSC_MAX_OFF_NS || e < -TSC_MAX_OFF_NS || t <= c->cal_tsc || real <= c->cal_ns) {
        turn_off(c);
        return false;
    }
    /* the rate over the whole span since the first pair */
    uint64_t rate = (uint64_t)(((unsigned __int128)(real - c->cal_ns) << 32) / (t - c->cal_tsc));
    /* re-anchored where the clock is (no jump), with the slope that meets
     * CLOCK_MONOTONIC at the next adjustment */
    c->tsc0 = t;
    c->ns0 = fast;
    c->mult = (uint64_t)((unsigned __int128)rate * (uint64_t)((int64_t)TSC_ADJUST_NS - e) / TSC_ADJUST_NS);
    c->next_ns = fast + TSC_ADJUST_NS;
    c->adjusts++;
    return true;
}

void tsc_clock_adjust(struct tsc_clock *c)
{
    uint64_t ns, t;
    sample(&ns, &t);
    tsc_clock_adjust_at(c, ns, t);
}
