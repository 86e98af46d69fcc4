/* test_segments.c - ActiveRange segmentation (base/segments.h): n equal
 * segments inside the range, aligned, never touching, one per slot; the
 * map from the segments' end-to-end space onto the device is the inverse
 * of laying them end to end; refusals name the problem. */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "base/segments.h"

TEST(layout_2048_segments)
{
    struct ar_segments s;
    char err[256];
    uint64_t ar = 750ull << 30, amount = 16ull << 30, align = 1u << 20;
    CHECK(ar_segments_init(&s, 4096ull << 20, ar, amount, 2048, align, 12345, err, sizeof(err)) == 0, "%s", err);
    CHECK(s.n == 2048 && s.len == 8u << 20, "len %llu", (unsigned long long)s.len);
    CHECK(s.slot == ar / 2048 / align * align, "slot");
    uint64_t prev_end = 0;
    unsigned moved = 0;
    for (unsigned i = 0; i < s.n; i++) {
        uint64_t st = ar_segment_start(&s, i);
        CHECK(st % align == 0, "segment %u aligned", i);
        CHECK(st >= s.base + (uint64_t)i * s.slot && st + s.len < s.base + (uint64_t)(i + 1) * s.slot,
              "segment %u inside its slot with a gap", i);
        CHECK(i == 0 || st > prev_end, "segment %u does not touch %u", i, i - 1);
        CHECK(st + s.len <= s.base + ar, "inside the range");
        moved += st != s.base + (uint64_t)i * s.slot;
        prev_end = st + s.len;
    }
    CHECK(moved > 1900, "starts are spread, not all at the slot start (%u moved)", moved);
    /* the same seed gives the same table, another seed another */
    struct ar_segments t;
    ar_segments_init(&t, 4096ull << 20, ar, amount, 2048, align, 12345, err, sizeof(err));
    unsigned same = 0;
    for (unsigned i = 0; i < 2048; i++)
        same += ar_segment_start(&s, i) == ar_segment_start(&t, i);
    CHECK(same == 2048, "reproducible");
    ar_segments_init(&t, 4096ull << 20, ar, amount, 2048, align, 999, err, sizeof(err));
    same = 0;
    for (unsigned i = 0; i < 2048; i++)
        same += ar_segment_start(&s, i) == ar_segment_start(&t, i);
    CHECK(same < 2048, "seed matters");
}

TEST(map_is_end_to_end)
{
    struct ar_segments s;
    char err[256];
    CHECK(ar_segments_init(&s, 0, 48u << 20, 8u << 20, 8, 1u << 20, 7, err, sizeof(err)) == 0, "%s", err);
    for (unsigned i = 0; i < 8; i++) {
        uint64_t st = ar_segment_start(&s, i);
        CHECK(ar_segment_map(&s, (uint64_t)i * s.len) == st, "first byte of %u", i);
        CHECK(ar_segment_map(&s, (uint64_t)i * s.len + s.len - 4096) == st + s.len - 4096, "last block of %u", i);
    }
}

TEST(refusals)
{
    struct ar_segments s;
    char err[256];
    CHECK(ar_segments_init(&s, 0, 48u << 20, 48u << 20, 8, 1u << 20, 1, err, sizeof(err)) == -EINVAL, "full");
    CHECK(strstr(err, "do not fit apart") != NULL, "%s", err);
    CHECK(ar_segments_init(&s, 0, 48u << 20, 4u << 20, 8, 1u << 20, 1, err, sizeof(err)) == -EINVAL, "tiny");
    CHECK(strstr(err, "smaller than") != NULL, "%s", err);
    CHECK(ar_segments_init(&s, 0, 48u << 20, 8u << 20, 0, 1u << 20, 1, err, sizeof(err)) == -EINVAL, "none");
}

CHECK_MAIN()
