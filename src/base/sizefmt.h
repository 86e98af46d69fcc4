/* sizefmt.h - sizes in words as sysbench prints them (sb_print_value_size):
 * "%.5g" in the largest binary unit (Ki, Mi, Gi, Ti, Pi) not above the
 * value. Used by the fileio text (output/) and fileio's own messages. */
#ifndef SSDBENCH_BASE_SIZEFMT_H
#define SSDBENCH_BASE_SIZEFMT_H

#include <stddef.h>

/* "16MiB" for 16777216 with suffix "B", "16Mi" with suffix "". */
void sizefmt_binary(char *buf, size_t len, double bytes, const char *suffix);

#endif
