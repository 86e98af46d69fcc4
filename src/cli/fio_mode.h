/* fio_mode.h - ssdbench invoked as `fio` (argv[0]'s basename, e.g. through
 * a symlink): fio's command line (job files, "-" for stdin, --key=value and
 * --key value job options, fio's own options such as --output-format,
 * --showcmd, --cmdhelp, --readonly), fio's job defaults and fio's output,
 * with no subcommand. `ssdbench run` keeps its own defaults. */
#ifndef SSDBENCH_FIO_MODE_H
#define SSDBENCH_FIO_MODE_H

#include <stdbool.h>

#include "base/cluster.h"

/* True when argv0 names fio ("fio", "/usr/local/bin/fio"). */
bool fio_mode_invoked(const char *argv0);

/* Runs the whole fio command line (argv[0] = the program); returns the exit
 * status. */
int fio_mode_main(int argc, char **argv, struct cluster *cl);

/* Job files for `ssdbench run` as fio reads them: "-" and /dev/stdin read
 * standard input (once), later files run after earlier ones, and the job
 * options jobv[0..njob) ("--key=value", "--key value", "--key") are
 * defaults for every job of the files, applied to their [global] first.
 * 0, or -errno with the message in err. */
struct jobfile;
struct jobfile_opts;
int fio_mode_parse_files(const char *const *files, unsigned nfiles, char **jobv, int njob,
                         struct jobfile_opts *jo, struct jobfile *jf, char *err, size_t errlen);

#endif
