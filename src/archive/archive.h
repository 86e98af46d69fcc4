/* archive.h - the results archive: every filed result document kept in one
 * SQLite database (docs/archive.md).
 *
 * A filed result is stored whole (zlib-compressed, with its SHA-256, so
 * `archive export` gives back the same bytes) next to indexed columns for
 * what people search by: time, host, kernel, ssdbench version, the first
 * device's model, serial, firmware, capacity and bus, the command kind, the
 * workload (profile, test or job names), label and tags, and per phase and
 * direction the headline figures (IOPS, MB/s, mean, p99, p99.9 and max
 * latency, steady-state verdict). The schema is versioned (PRAGMA
 * user_version, migrations in archive_db.c); the database runs in WAL mode
 * with a busy timeout, so several ssdbench processes may file at once; a
 * new database is created with mode 0600.
 *
 * Every function returns 0 (or a count) on success and a negative errno with
 * a one-line message in err on failure; none prints anything.
 */
#ifndef SSDBENCH_ARCHIVE_H
#define SSDBENCH_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#define ARCHIVE_SCHEMA_VERSION 1
#define ARCHIVE_MAX_TAGS 32
#define ARCHIVE_MAX_SELECT 32     /* results one selector may name */
#define ARCHIVE_TAG_SEP '\x1f'    /* between the tags of archive_row.tags */

struct archive;
struct archive_figcur;

/* Where the archive is: $SSDBENCH_ARCHIVE, else
 * $XDG_DATA_HOME/ssdbench/results.db, else
 * $HOME/.local/share/ssdbench/results.db. -ENOENT when neither HOME nor
 * XDG_DATA_HOME is set. */
int archive_default_path(char *buf, size_t len, char *err, size_t errlen);

/* Opens the archive at path. create: a missing file (and its directory)
 * is created, mode 0600, and the schema set up; otherwise a missing file is
 * -ENOENT. A file that is not an SQLite database, not an ssdbench archive,
 * or has a newer schema is refused (-EINVAL); a database locked longer than
 * the busy timeout is -EBUSY. */
struct archive *archive_open(const char *path, bool create, int *rc, char *err, size_t errlen);
void archive_close(struct archive *a);
const char *archive_path(const struct archive *a);

struct archive_tag {
    const char *key, *value;
};

/* Checks "k=v" (key: letters, digits, '_', '-', '.'; value non-empty) and
 * splits it into t (pointing into s, which is modified: the '=' becomes
 * NUL). */
int archive_tag_parse(char *s, struct archive_tag *t, char *err, size_t errlen);

/* Files one result: text[0..len) are the document's exact bytes (as
 * result_write wrote them), doc its parse, source where it came from (a
 * file name, or "run"). *id gets the new row's id; -EEXIST (with *id the
 * earlier row) when the same bytes are filed already. */
int archive_file(struct archive *a, const char *text, size_t len, const cJSON *doc, const char *source,
                 const struct archive_tag *tags, size_t ntags, int64_t *id, char *err, size_t errlen);

/* What `archive list` and selectors filter by; zero/NULL fields match all. */
struct archive_filter {
    const char *device;         /* model or serial, exact */
    const char *workload;       /* kind, workload name, or a profile/test/phase/job name */
    const char *host;
    const char *kind;           /* run, suite, pts, act, fileio ... */
    const char *label;
    const char *workload_key;   /* exact (the regression gate) */
    const char *serial, *model, *target; /* exact (the regression gate) */
    int64_t since_ms;           /* started at or after (ms since the epoch) */
    bool since_set;
    struct archive_tag tags[ARCHIVE_MAX_TAGS];
    size_t ntags;
};

/* One archived result as listed (strings valid during the callback). */
struct archive_row {
    int64_t id;
    int64_t started_ms, filed_ms;
    const char *started, *host, *kernel, *version, *model, *serial, *firmware, *bus, *target;
    const char *kind, *workload, *workload_key, *label, *source, *sha256;
    const char *tags;           /* "k=v" joined by ARCHIVE_TAG_SEP, in key order */
    int64_t capacity;
    bool incomplete;
    int64_t doc_len;
    struct archive_figcur *figcur; /* archive_list_all only */
};

/* Headline figures of one phase and direction. NaN: not in the document. */
struct archive_fig {
    int seq;                    /* phase index in the document */
    const char *phase, *dir, *steady;   /* steady: "reached", "not reached" or "" */
    double iops, mbps, mean_ns, p99_ns, p999_ns, max_ns;
};

typedef int (*archive_row_fn)(const struct archive_row *r, void *ctx);
typedef int (*archive_fig_fn)(const struct archive_fig *f, void *ctx);

/* Calls fn for each matching result, oldest first (newest first when
 * newest_first); at most limit rows (0: all). A non-zero return from fn
 * stops the walk and is returned. */
int archive_list(struct archive *a, const struct archive_filter *f, bool newest_first, unsigned limit,
                 archive_row_fn fn, void *ctx, char *err, size_t errlen);

/* archive_list (oldest first, every matching row) as a listing needs it:
 * the rows, their tags and their figures read by three statements walked
 * side by side in one read transaction, whatever the number of rows.
 * During fn, archive_row_figure(r, &fig) hands out r's figures one by one
 * in document order (1: fig filled, 0: no more, <0: an error, which ends
 * the walk with err set); figures not asked for are never read. */
int archive_list_all(struct archive *a, const struct archive_filter *f, archive_row_fn fn, void *ctx, char *err,
                         size_t errlen);
int archive_row_figure(const struct archive_row *r, struct archive_fig *fig);

/* The row of id: -ENOENT when there is none. */
int archive_row_get(struct archive *a, int64_t id, archive_row_fn fn, void *ctx, char *err, size_t errlen);

/* The headline figures of id, in document order. */
int archive_figures(struct archive *a, int64_t id, archive_fig_fn fn, void *ctx, char *err, size_t errlen);

/* The document's exact bytes (malloc'd, NUL-terminated, *len without the
 * NUL), checked against the stored SHA-256. -ENOENT when there is no id. */
int archive_get(struct archive *a, int64_t id, char **text, size_t *len, char *err, size_t errlen);

/* Removes id (its document, tags, names, figures). -ENOENT when none. */
int archive_rm(struct archive *a, int64_t id, char *err, size_t errlen);

/* ---- selectors (archive_select.c) ------------------------------------ */

/* True when s is written as a selector ("archive:..."). */
bool archive_is_selector(const char *s);

enum archive_sel_kind { ARCHIVE_SEL_ID, ARCHIVE_SEL_LATEST, ARCHIVE_SEL_BEST };

/* A parsed selector: archive:ID, archive:latest[?k=v&...],
 * archive:best[?k=v&...]. Keys: device, workload, host, kind, label,
 * since (YYYY-MM-DD[THH:MM[:SS]], UTC), tag (k=v, repeatable), n (how many,
 * 1..ARCHIVE_MAX_SELECT, default 1), by (best: iops, mbps, mean, p99,
 * p99.9; default iops). The strings point into a copy kept in buf. */
struct archive_sel {
    enum archive_sel_kind kind;
    int64_t id;
    struct archive_filter f;
    unsigned n;
    const char *by;
    char buf[1024];
};

int archive_sel_parse(const char *s, struct archive_sel *sel, char *err, size_t errlen);

/* The ids sel names (ARCHIVE_SEL_LATEST: newest first; BEST: best first),
 * at most ARCHIVE_MAX_SELECT. No match is -ENOENT with err naming the
 * selector and what it did not match. */
int archive_sel_ids(struct archive *a, const struct archive_sel *sel, int64_t *ids, size_t *n, char *err,
                    size_t errlen);

/* "2026-12-01", "2026-12-01T13:05", "2026-12-01T13:05:00Z" (UTC) to ms since
 * the epoch; -EINVAL otherwise. */
int archive_parse_date(const char *s, int64_t *ms);

/* ---- what is indexed (archive_index.c) -------------------------------- */

/* The indexed columns of a document, as filed. Strings point into doc or
 * into buf. */
struct archive_meta {
    const char *started, *host, *kernel, *version, *model, *serial, *firmware, *bus, *target;
    const char *kind, *workload, *label;
    int64_t started_ms, capacity;
    bool incomplete;
    char workload_key[512];
    char workload_buf[512];
};

void archive_meta(const cJSON *doc, struct archive_meta *m);

/* Calls fn for each phase and direction with I/O of doc, in order. */
int archive_doc_figures(const cJSON *doc, archive_fig_fn fn, void *ctx);

/* Every name --workload matches for doc: kind, workload, profile, test,
 * phase and job names, and "cluster" for a run over many ranks (a name may
 * come more than once). */
int archive_doc_names(const cJSON *doc, const struct archive_meta *m, int (*fn)(const char *name, void *ctx),
                      void *ctx);

#endif
