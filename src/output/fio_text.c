/* fio_text.c - fio's normal and terse output (see fio_text.h). */
#include "output/fio_text.h"

#include <errno.h>

int render_fio_normal(FILE *f, const cJSON *doc, char *err, size_t errlen)
{
    (void)f;
    (void)doc;
    snprintf(err, errlen, "fio's normal output is not available in this build");
    return -ENOSYS;
}

int render_fio_terse(FILE *f, const cJSON *doc, char *err, size_t errlen)
{
    (void)f;
    (void)doc;
    snprintf(err, errlen, "fio's terse output is not available in this build");
    return -ENOSYS;
}
