/* test_zoned.c - target/zoned.c on target_info values: which devices count
 * as zoned, and the one-line refusal of a writing job on a host-managed one
 * (the lab, tests/lab/checks.sh, runs both on an emulated ZNS namespace). */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "target/zoned.h"

static struct target_info ti_of(const char *zoned)
{
    struct target_info ti;
    memset(&ti, 0, sizeof(ti));
    snprintf(ti.path, sizeof(ti.path), "/dev/nvme0n2");
    snprintf(ti.zoned, sizeof(ti.zoned), "%s", zoned);
    ti.kind = TARGET_BLOCK;
    return ti;
}

TEST(models)
{
    struct target_info hm = ti_of("host-managed"), ha = ti_of("host-aware"), no = ti_of("none"),
                       un = ti_of("");
    CHECK(zoned_is_zoned(&hm) && zoned_is_zoned(&ha), "zoned models");
    CHECK(!zoned_is_zoned(&no) && !zoned_is_zoned(&un), "none / unknown taken as zoned");
}

TEST(write_refusal)
{
    char err[300] = "";
    struct target_info hm = ti_of("host-managed"), ha = ti_of("host-aware"), no = ti_of("none");
    CHECK(zoned_check_write(&hm, "w", err, sizeof(err)) == -EPERM, "host-managed write allowed");
    CHECK(strstr(err, "job 'w': /dev/nvme0n2 is a host-managed zoned device") && !strchr(err, '\n'),
          "message: %s", err);
    err[0] = 0;
    /* host-aware devices take random writes; conventional ones of course */
    CHECK(zoned_check_write(&ha, "w", err, sizeof(err)) == 0 && !err[0], "host-aware refused");
    CHECK(zoned_check_write(&no, "w", err, sizeof(err)) == 0 && !err[0], "conventional refused");
}

CHECK_MAIN()
