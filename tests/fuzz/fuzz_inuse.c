/* fuzz_inuse.c - the in-use walk's parsers (target/inuse_parse.h) on
 * arbitrary text: as an fdinfo (open flags, an io_uring ring's registered
 * files), as /proc/PID/maps lines, as a path to unescape and strip. */
#include "fuzz.h"

#include <stdbool.h>

#include "target/inuse_parse.h"

static int count(const char *name, bool deleted, void *arg)
{
    unsigned *n = arg;
    if (strlen(name) >= 4096)
        abort(); /* names are bounded */
    (void)deleted;
    (*n)++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_cstr(data, size);
    unsigned long flags;
    inuse_fdinfo_flags(s, &flags);
    unsigned n = 0, declared, listed;
    if (inuse_uring_files(s, count, &n, &declared, &listed) == 0 && n != listed)
        abort();
    char *line = s, *next;
    do {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        struct inuse_map m;
        if (inuse_maps_line(line, &m) && (!m.path || strchr(m.path, '\n')))
            abort();
        line = next;
    } while (line);
    char out[64];
    inuse_unescape(s, out, sizeof(out));
    if (strlen(out) >= sizeof(out))
        abort();
    inuse_strip_deleted(s);
    inuse_decode_dev(size);
    free(s);
    return 0;
}
