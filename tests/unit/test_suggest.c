/* test_suggest.c - "did you mean": typos get the name they miss, other words
 * (which may mean something else) get nothing. */
#include "check.h"

#include <stddef.h>
#include <string.h>

#include "base/suggest.h"

static const char *const names[] = {"ss_interval", "iodepth", "ramp_time", "run", "title",
                                    "database", "fileserver", NULL};

static int is(const char *got, const char *want)
{
    return want ? got && !strcmp(got, want) : got == NULL;
}

TEST(suggest_typos)
{
    CHECK(is(suggest_from_list("iodepht", names), "iodepth"), "transposition");
    CHECK(is(suggest_from_list("ramptime", names), "ramp_time"), "missing underscore");
    CHECK(is(suggest_from_list("runn", names), "run"), "one extra letter");
    CHECK(is(suggest_from_list("databse", names), "database"), "one missing letter");
    CHECK(is(suggest_from_list("ss-interval", names), "ss_interval"), "dash for underscore");
}

TEST(suggest_not_another_word)
{
    CHECK(is(suggest_from_list("status-interval", names), NULL), "status-interval");
    CHECK(is(suggest_from_list("status_interval", names), NULL), "status_interval");
    CHECK(is(suggest_from_list("rate", names), NULL), "rate is not run or title");
    CHECK(is(suggest_from_list("time", names), NULL), "time is not title");
}

CHECK_MAIN()
