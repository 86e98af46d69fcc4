/* fuzz.h - shared bits of the libFuzzer harnesses in tests/fuzz/.
 *
 * Each harness feeds one parser (and what reads its output) arbitrary bytes.
 * Harnesses never write outside the private temporary directory fuzz_tmpdir()
 * makes once per process, and need no privileges. */
#ifndef SSDBENCH_FUZZ_H
#define SSDBENCH_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL-terminated copy of the input (parsers take C strings). */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}

/* /dev/null, opened once: renderers write here. */
static inline FILE *fuzz_sink(void)
{
    static FILE *f;
    if (!f && !(f = fopen("/dev/null", "w")))
        abort();
    return f;
}

/* A private directory under $TMPDIR (or /tmp), made once; removed at exit
 * with everything the harness wrote into it. */
static char fuzz_dir[256];

static void fuzz_rmdir(void)
{
    char cmd[300];
    if (fuzz_dir[0] && strncmp(fuzz_dir, "/tmp", 4) == 0) {
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fuzz_dir);
        if (system(cmd) != 0)
            fprintf(stderr, "fuzz: could not remove %s\n", fuzz_dir);
    }
}

static inline const char *fuzz_tmpdir(void)
{
    if (!fuzz_dir[0]) {
        snprintf(fuzz_dir, sizeof(fuzz_dir), "/tmp/ssdbench-fuzz.XXXXXX");
        if (!mkdtemp(fuzz_dir))
            abort();
        atexit(fuzz_rmdir);
    }
    return fuzz_dir;
}

#endif
