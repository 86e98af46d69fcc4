/* test_host_busy.c - the busy-host warning's thresholds (result/host_busy.h)
 * on synthetic figures: other work at and just below its threshold, steal,
 * load beyond the CPUs plus ssdbench's own threads, ssdbench's own CPU use
 * not counted as other work, and the figures read back from a document. */
#include "check.h"

#include "result/host_busy.h"

static struct host_load quiet(void)
{
    return (struct host_load){.cpus = 4, .busy_pct = 5, .steal_pct = 0, .load_start = 0.5,
                              .load_end = 1.0, .duration_s = 10, .own_cpu_s = 1, .own_threads = 2};
}

TEST(quiet_host_not_busy)
{
    struct host_load h = quiet();
    char why[256];
    CHECK(!host_busy(&h, why, sizeof(why)), "%s", why);
    CHECK(why[0] == 0, "%s", why);
}

TEST(other_work_threshold)
{
    struct host_load h = quiet();
    char why[256];
    /* own share: 1 s of CPU over 10 s on 4 CPUs = 2.5 %; busy 27.5 % -> other 25 % */
    h.busy_pct = 27.5;
    CHECK(host_busy(&h, why, sizeof(why)), "at the threshold");
    CHECK(strstr(why, "other work used 25% of the CPUs") != NULL, "%s", why);
    h.busy_pct = 27.4;
    CHECK(!host_busy(&h, why, sizeof(why)), "just below: %s", why);
}

TEST(own_cpu_is_not_other_work)
{
    struct host_load h = quiet();
    char why[256];
    /* ssdbench itself kept all 4 CPUs busy: 40 s of CPU in 10 s */
    h.busy_pct = 100;
    h.own_cpu_s = 40;
    CHECK(!host_busy(&h, why, sizeof(why)), "%s", why);
}

TEST(steal_threshold)
{
    struct host_load h = quiet();
    char why[256];
    h.steal_pct = 5;
    CHECK(host_busy(&h, why, sizeof(why)), "steal 5 %%");
    CHECK(strstr(why, "steal 5.0%") != NULL, "%s", why);
    h.steal_pct = 4.9;
    CHECK(!host_busy(&h, why, sizeof(why)), "%s", why);
}

TEST(load_beyond_cpus_and_own_threads)
{
    struct host_load h = quiet();
    char why[256];
    h.load_end = 6.0; /* 4 CPUs + 2 threads: not beyond */
    CHECK(!host_busy(&h, why, sizeof(why)), "%s", why);
    h.load_start = 80; /* the larger of start and end counts */
    CHECK(host_busy(&h, why, sizeof(why)), "load 80");
    CHECK(strstr(why, "load 80.0 on 4 CPUs") != NULL, "%s", why);
}

TEST(all_reasons_in_one_line)
{
    struct host_load h = quiet();
    char why[256];
    h.busy_pct = 99.9;
    h.steal_pct = 10;
    h.load_end = 80;
    CHECK(host_busy(&h, why, sizeof(why)), "busy");
    CHECK(strstr(why, "other work") && strstr(why, ", steal 10.0%") && strstr(why, ", load 80.0"), "%s", why);
}

TEST(figures_from_document)
{
    cJSON *doc = cJSON_Parse("{\"duration_s\": 10, \"host\": {\"cpus\": 2, \"cpu_busy_pct\": 99.9,"
                             " \"cpu_steal_pct\": 0, \"loadavg_1m_start\": 80, \"loadavg_1m_end\": 3},"
                             " \"phases\": [{\"cpu\": {\"user_s\": 0.5, \"sys_s\": 1.5},"
                             " \"jobs\": [{\"workers\": 4}, {\"workers\": 2}]}]}");
    CHECK(doc != NULL, "parse");
    struct host_load h;
    host_load_from_doc(doc, &h);
    cJSON_Delete(doc);
    CHECK(h.cpus == 2 && h.busy_pct == 99.9 && h.load_start == 80 && h.load_end == 3, "host");
    CHECK(h.own_cpu_s == 2.0 && h.own_threads == 7 && h.duration_s == 10, "own %g %g", h.own_cpu_s,
          h.own_threads);
    char why[256];
    CHECK(host_busy(&h, why, sizeof(why)), "busy");
    CHECK(strstr(why, "other work used 90% of the CPUs (ssdbench 10%)") != NULL, "%s", why);
}
CHECK_MAIN()
