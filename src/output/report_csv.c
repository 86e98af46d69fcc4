/* report_csv.c - see report_csv.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outfile.h"
#include "output/report_csv.h"

static int write_file(const char *dir, const char *name, const struct html_report *r, const struct html_table *t,
                      char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    struct outfile of;
    int rc = outfile_open_derived(&of, path, err, errlen); /* DIR/ID.csv: names ssdbench picks */
    if (rc < 0)
        return rc;
    FILE *f = of.f;
    if (t) {
        rc = html_table_write_csv(f, t);
    } else {
        fputs("file,title,rows\n", f);
        for (size_t i = 0; i < r->ntables; i++) {
            /* titles may hold commas and quotes: quote them all */
            fprintf(f, "%s.csv,\"", r->tables[i]->id);
            for (const char *p = r->tables[i]->title; *p; p++) {
                if (*p == '"')
                    fputc('"', f);
                fputc(*p, f);
            }
            fprintf(f, "\",%zu\n", r->tables[i]->nrows);
        }
    }
    if (rc) {
        int e = errno ? errno : EIO;
        outfile_abort(&of);
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(e));
        return -e;
    }
    return outfile_commit(&of, err, errlen);
}

int report_csv_write_dir(const struct html_report *r, const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "%s: not a directory (CSV output writes one file per table into a directory)",
                     dir);
            return -ENOTDIR;
        }
    } else if (mkdir(dir, 0777) != 0) {
        int e = errno;
        snprintf(err, errlen, "%s: cannot create directory: %s", dir, strerror(e));
        return -e;
    }
    for (size_t i = 0; i < r->ntables; i++) {
        char name[300];
        snprintf(name, sizeof(name), "%s.csv", r->tables[i]->id);
        int rc = write_file(dir, name, r, r->tables[i], err, errlen);
        if (rc)
            return rc;
    }
    return write_file(dir, "index.csv", r, NULL, err, errlen);
}

int report_csv_write_stream(FILE *f, const struct html_report *r)
{
    for (size_t i = 0; i < r->ntables; i++) {
        if (i)
            fputc('\n', f);
        fprintf(f, "# %s: %s\n", r->tables[i]->id, r->tables[i]->title);
        if (html_table_write_csv(f, r->tables[i]))
            return -EIO;
    }
    return ferror(f) ? -EIO : 0;
}
