/* fio_help.h - fio mode's answers that run nothing: --version, --help,
 * --cmdhelp[=KEY], --enghelp[=ENGINE], and --showcmd's collector (a job
 * file as fio command-line options, in fio's order and spelling). */
#ifndef SSDBENCH_FIO_HELP_H
#define SSDBENCH_FIO_HELP_H

#include <stdbool.h>
#include <stdio.h>

/* "fio-3.33-compatible (ssdbench X)" */
void fio_help_version(FILE *f);
void fio_help_usage(FILE *f, const char *prog);
/* key NULL, "" or "all": every option, one line each; else one option in
 * fio's layout. Returns the exit status (1 for a key nobody knows). */
int fio_help_cmd(FILE *f, const char *key);
/* engine NULL or "": the engines ssdbench runs; else what fio says for one
 * engine. Returns the exit status (1 as fio, for "no options" too). */
int fio_help_engine(FILE *f, const char *engine);

/* --showcmd: the sections and options of the job files as read
 * (jobfile_opts.on_entry), printed as "fio --key=value ... --name=job ...". */
struct fio_showcmd {
    FILE *f;                /* an open_memstream: printed once all parsed */
    char *buf;
    size_t len;
    bool started;           /* "fio " written */
    unsigned n, cap;        /* the open section's options, until it closes */
    char **keys, **values;
    bool failed;            /* out of memory */
};

int fio_showcmd_init(struct fio_showcmd *s);
/* jobfile_opts.on_entry */
void fio_showcmd_entry(void *ctx, const char *section, bool global, const char *key, const char *value);
/* Writes the command line (with fio's trailing space and newline) to f;
 * 0, or -1 when memory ran out. */
int fio_showcmd_finish(struct fio_showcmd *s, FILE *f);
void fio_showcmd_free(struct fio_showcmd *s);

#endif
