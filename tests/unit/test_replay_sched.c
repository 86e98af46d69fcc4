/* test_replay_sched.c - fio's replay schedule (base/replay_sched.h, iolog.c
 * iolog_delay): gaps from the last issue, the overrun of a sleep carried
 * and dropped, no sleep when the gap has passed, waits from the start. */
#include "check.h"

#include "base/replay_sched.h"

TEST(gap_from_last_issue_and_overrun)
{
    struct rsched s;
    rsched_begin(&s, 1000);
    /* a gap of 500 from the start: due at 1500, a sleep */
    CHECK(rsched_due(&s, 500, false, 1000) == 1500 && s.slept, "due %llu", (unsigned long long)s.due);
    /* asked again: the same decision */
    CHECK(rsched_due(&s, 500, false, 1400) == 1500, "decided once");
    /* done at 1600: the sleep took 600, 100 past the whole gap */
    rsched_done(&s, 1600, true);
    CHECK(s.offset == 100 && s.last_issue == 1600, "offset %llu", (unsigned long long)s.offset);
    /* the next gap of 300 less the 100 carried: due 200 after the issue */
    CHECK(rsched_due(&s, 300, false, 1600) == 1800, "due %llu", (unsigned long long)s.due);
    rsched_done(&s, 1800, true);
    CHECK(s.offset == 0, "offset %llu after an exact sleep", (unsigned long long)s.offset);
}

TEST(no_sleep_when_passed_or_within_overrun)
{
    struct rsched s;
    rsched_begin(&s, 0);
    /* 500 have passed since the last issue: a gap of 100 is due now, and
     * the carried overrun stays */
    s.offset = 30;
    CHECK(rsched_due(&s, 100, false, 500) == 500 && !s.slept, "passed");
    rsched_done(&s, 500, true);
    CHECK(s.offset == 30, "offset kept: %llu", (unsigned long long)s.offset);
    /* a gap within the overrun: no sleep, the overrun dropped */
    CHECK(rsched_due(&s, 20, false, 500) == 500 && s.offset == 0, "within");
    rsched_done(&s, 500, true);
    /* a zero gap: due at once */
    CHECK(rsched_due(&s, 0, false, 510) == 510, "zero gap");
    rsched_done(&s, 510, true);
}

TEST(a_pause_delays_the_next_by_its_whole_gap)
{
    /* two I/Os at once, a pause of 200 after each, then one 300 after the
     * second: due 300 after the second's issue (fio), not at 300 */
    struct rsched s;
    rsched_begin(&s, 0);
    CHECK(rsched_due(&s, 0, false, 0) == 0, "first");
    rsched_done(&s, 0, true);
    CHECK(rsched_due(&s, 0, false, 200) == 200, "second, after the pause");
    rsched_done(&s, 200, true);
    CHECK(rsched_due(&s, 300, false, 400) == 500, "third: %llu", (unsigned long long)s.due);
}

TEST(waits_from_the_start)
{
    struct rsched s;
    rsched_begin(&s, 1000);
    rsched_due(&s, 0, false, 1000);
    rsched_done(&s, 1200, true);
    /* a version 2 wait of 5000: until 5000 after the start */
    CHECK(rsched_due(&s, 5000, true, 1200) == 6000, "wait due %llu", (unsigned long long)s.due);
    rsched_done(&s, 6100, false);
    CHECK(s.last_issue == 1200 && s.offset == 0, "a wait leaves the clock: %llu", (unsigned long long)s.last_issue);
}

CHECK_MAIN()
