/* device_fixture.h - loads a checked-in device fixture
 * (tests/fixtures/device/, relative to the repository root, where
 * tests/run.sh runs the unit tests). */
#ifndef SSDBENCH_TEST_DEVICE_FIXTURE_H
#define SSDBENCH_TEST_DEVICE_FIXTURE_H

#include <stdint.h>
#include <stdio.h>

#include "../fixtures/device/fixture_values.h"

/* Reads the fixture into buf; returns its length, or 0 when unreadable. */
static size_t fixture_load(const char *name, uint8_t *buf, size_t cap)
{
    char p[256];
    snprintf(p, sizeof(p), "tests/fixtures/device/%s", name);
    FILE *f = fopen(p, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

#endif
