/* fio_mode.h - ssdbench invoked as `fio` (argv[0]'s basename, e.g. through
 * a symlink): fio's command line (job files, "-" for stdin, --key=value and
 * --key value job options, fio's own options such as --output-format,
 * --showcmd, --cmdhelp, --readonly), fio's job defaults and fio's output,
 * with no subcommand. `ssdbench run` keeps its own defaults. */
#ifndef SSDBENCH_FIO_MODE_H
#define SSDBENCH_FIO_MODE_H

#include <stdbool.h>

/* True when argv0 names fio ("fio", "/usr/local/bin/fio"). */
bool fio_mode_invoked(const char *argv0);

/* Runs the whole fio command line (argv[0] = the program); returns the exit
 * status. */
int fio_mode_main(int argc, char **argv);

#endif
