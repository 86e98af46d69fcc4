/* jobfile_int.h - the section machinery shared by the INI reader (jobfile.c)
 * and the command-line form (cmdline.c). Not a public interface.
 *
 * Both readers collect a section's key/value pairs first and apply them when
 * the section ends, which lets kb_base act before the section's other keys
 * (fio sorts options by priority the same way).
 */
#ifndef SSDBENCH_JOBFILE_INT_H
#define SSDBENCH_JOBFILE_INT_H

#include "jobfile/jobfile.h"

#define JF_LOC_MAX 300

struct jf_entry {
    char *key;
    char *value;               /* NULL for a bare key */
    char loc[JF_LOC_MAX];      /* "FILE:LINE" or "command line" */
};

struct jf_parser {
    const struct jobfile_opts *o;
    struct jobfile *out;
    unsigned cap, wcap;
    struct job_spec *gjob;     /* the [global] template */
    struct job_extra gx;
    /* the open section */
    bool open, global;
    char name[JOB_NAME_MAX];
    char loc[JF_LOC_MAX];
    struct jf_entry *e;
    unsigned ne, ecap;
    char *err;
    size_t errlen;
};

int jf_begin(struct jf_parser *p, const struct jobfile_opts *o, struct jobfile *out, char *err,
             size_t errlen);
/* Closes the open section (if any) and opens a new one; name "global" opens
 * a [global] section. */
/* The location of everything from the command line (cmdline.c). */
#define CMDLINE_LOC "command line"

int jf_section(struct jf_parser *p, const char *name, const char *loc);
int jf_add(struct jf_parser *p, const char *key, const char *value, const char *loc);
/* Closes the last section, assigns groups, checks that a job exists. */
int jf_end(struct jf_parser *p, const char *what);
/* Frees the parser; on failure also empties out. */
void jf_cleanup(struct jf_parser *p, int rc);
/* ${VAR}, $pagesize, $mb_memory, $ncpus; returns a malloc'd string or NULL. */
char *jf_expand(const char *s);
int jf_fail(struct jf_parser *p, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
