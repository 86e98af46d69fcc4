/* fio_text.h - fio's human output (`--output-format=normal`) and its terse
 * format (`--output-format=terse` / `--minimal`, terse version 3), rendered
 * from an ssdbench result document so that people and scripts reading fio's
 * text find every line where fio prints it. ssdbench's own table stays the
 * output of `ssdbench run`; these are what fio mode prints. */
#ifndef SSDBENCH_FIO_TEXT_H
#define SSDBENCH_FIO_TEXT_H

#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

/* Writes fio's normal output for doc to f. Returns 0, or a negative errno
 * with one line for the user in err (damaged document, write error). */
int render_fio_normal(FILE *f, const cJSON *doc, char *err, size_t errlen);

/* Writes fio's terse lines (version 3, fio's field order) for doc to f.
 * Returns 0, or a negative errno with one line in err. */
int render_fio_terse(FILE *f, const cJSON *doc, char *err, size_t errlen);
/* The same in fio's terse version ver (2..5; fio's stat.c
 * show_thread_status_terse_all): 2 has no version string nor disk fields
 * and puts a description on a line of its own; 2, 4 and 5 add trims after
 * writes; 5 adds, per direction, the bandwidth sample count and the IOPS
 * samples' min, max, mean, deviation and count. -EINVAL for another ver. */
int render_fio_terse_v(FILE *f, const cJSON *doc, unsigned ver, char *err, size_t errlen);

#endif
