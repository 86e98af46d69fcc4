/* sizefmt.c - see sizefmt.h. */
#include <stdio.h>

#include "base/sizefmt.h"

void sizefmt_binary(char *buf, size_t len, double v, const char *suffix)
{
    static const char *const unit[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
    unsigned i = 0;
    while (i < 5 && v >= 1024) {
        v /= 1024;
        i++;
    }
    snprintf(buf, len, "%.5g%s%s", v, unit[i], suffix);
}
