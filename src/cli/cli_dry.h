/* cli_dry.h - what `--dry-run` says about a target before anything runs:
 * its kind and size, whether it would be written or only read, what the
 * write guard would answer (opening it read-write checks the same
 * descriptor a run would, and writes nothing), and whether a missing file
 * would be created (where, how big, kept afterwards). A missing device, or
 * a missing path under /dev, /proc or /sys, is an error. Also the duration
 * words the plans print. */
#ifndef SSDBENCH_CLI_DRY_H
#define SSDBENCH_CLI_DRY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "target/guard.h"

/* One line "  target PATH: ..." on f. writes: the run writes to it.
 * create_size: the size a missing regular file would be created with (0:
 * a missing path is an error). Returns 0, or -1 after a one-line error on
 * stderr naming the path (the target is missing or cannot be used). */
int cli_dry_target(FILE *f, const char *path, bool writes, uint64_t create_size,
                   const struct guard_consent *c);

/* "1 h 23 min", "45 s", "2.5 s": a duration in words. */
void cli_duration(char *buf, size_t len, double seconds);

#endif
