/* quick.h - the embedded default job ("ssdbench run" with no arguments): the
 * grid desktop users know from disk-mark tools, on a test file ssdbench
 * creates and removes itself: 128 KiB sequential read and write (QD8), 4 KiB
 * random read and write at QD32 and at QD1. */
#ifndef SSDBENCH_QUICK_H
#define SSDBENCH_QUICK_H

#include <stdint.h>

#include "workload/plan.h"

#define QUICK_DEFAULT_SIZE (1ull << 30)
#define QUICK_MIN_SIZE (64ull << 20)

/* The test file's name inside the directory quick_pick_file creates. */
#define QUICK_FILE_NAME "test.dat"

/* Picks the directory ($TMPDIR, else the current one) and a file size (1 GiB,
 * or a quarter of the free space when that is less), and creates a new
 * private directory there, DIR/ssdbench-default-PID.XXXXXX (mkdtemp: never
 * an existing one). Fills path with QUICK_FILE_NAME inside it, not yet
 * created (the run creates it O_EXCL). Returns 0, or -ENOSPC with a message
 * when not even QUICK_MIN_SIZE is free, or -errno. */
int quick_pick_file(char *path, size_t len, uint64_t *size, char *err, size_t errlen);

/* Removes what quick_pick_file made: the test file in that directory, then
 * the directory if it is empty. A path not of that form is left alone. */
void quick_remove_file(const char *path);

/* Builds the grid on path; runtime_ns/ramp_ns per test. */
int quick_plan(struct plan *p, const char *path, uint64_t size, uint64_t runtime_ns,
               uint64_t ramp_ns);

#endif
