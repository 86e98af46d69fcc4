/* archive_db.c - the archive's database (see archive.h): where it is,
 * opening it (mode 0600, WAL, busy timeout), the schema and its migrations,
 * and refusing a file that is not an ssdbench archive. */
#include <errno.h>
#include <time.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/archive.h"
#include "archive/archive_int.h"

/* "ssdb": PRAGMA application_id of every ssdbench archive */
#define ARCHIVE_APP_ID 0x73736462

/* Migration i takes the schema from version i to i + 1; each runs in the
 * transaction that sets user_version, so a database is at one version or
 * the next, never between. A new column or table is a new entry at the
 * end; entries are never edited once released. */
static const char *const migrations[ARCHIVE_SCHEMA_VERSION] = {
    /* 0 -> 1 */
    "CREATE TABLE results ("
    " id INTEGER PRIMARY KEY,"
    " filed_ms INTEGER NOT NULL, started TEXT NOT NULL, started_ms INTEGER NOT NULL,"
    " host TEXT NOT NULL, kernel TEXT NOT NULL, version TEXT NOT NULL,"
    " model TEXT NOT NULL, serial TEXT NOT NULL, firmware TEXT NOT NULL, capacity INTEGER NOT NULL,"
    " bus TEXT NOT NULL, target TEXT NOT NULL,"
    " kind TEXT NOT NULL, workload TEXT NOT NULL, workload_key TEXT NOT NULL, label TEXT NOT NULL,"
    " incomplete INTEGER NOT NULL, source TEXT NOT NULL,"
    " sha256 TEXT NOT NULL UNIQUE, doc_len INTEGER NOT NULL);"
    /* the documents apart, so that listing never reads them */
    "CREATE TABLE docs (result_id INTEGER PRIMARY KEY, doc BLOB NOT NULL);"
    "CREATE INDEX results_started ON results(started_ms);"
    "CREATE INDEX results_model ON results(model);"
    "CREATE INDEX results_serial ON results(serial);"
    "CREATE INDEX results_workload ON results(workload_key, started_ms);"
    "CREATE TABLE tags (result_id INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,"
    " PRIMARY KEY (result_id, key)) WITHOUT ROWID;"
    "CREATE INDEX tags_kv ON tags(key, value);"
    "CREATE TABLE names (result_id INTEGER NOT NULL, name TEXT NOT NULL,"
    " PRIMARY KEY (result_id, name)) WITHOUT ROWID;"
    "CREATE INDEX names_name ON names(name);"
    "CREATE TABLE figures (result_id INTEGER NOT NULL, seq INTEGER NOT NULL, dir TEXT NOT NULL,"
    " phase TEXT NOT NULL, iops REAL, mbps REAL, mean_ns REAL, p99_ns REAL, p999_ns REAL, max_ns REAL,"
    " steady TEXT NOT NULL, PRIMARY KEY (result_id, seq, dir)) WITHOUT ROWID;",
};

int archive_default_path(char *buf, size_t len, char *err, size_t errlen)
{
    const char *e = getenv("SSDBENCH_ARCHIVE");
    int n;
    if (e && *e)
        n = snprintf(buf, len, "%s", e);
    else if ((e = getenv("XDG_DATA_HOME")) && *e)
        n = snprintf(buf, len, "%s/ssdbench/results.db", e);
    else if ((e = getenv("HOME")) && *e)
        n = snprintf(buf, len, "%s/.local/share/ssdbench/results.db", e);
    else {
        snprintf(err, errlen, "archive: no location (set SSDBENCH_ARCHIVE, XDG_DATA_HOME or HOME, or give --archive PATH)");
        return -ENOENT;
    }
    if (n < 0 || (size_t)n >= len) {
        snprintf(err, errlen, "archive: the path is too long");
        return -ENAMETOOLONG;
    }
    return 0;
}

int archive_sql_err(struct archive *a, const char *what, char *err, size_t errlen)
{
    int code = sqlite3_errcode(a->db);
    int pc = code & 0xff;
    snprintf(err, errlen, "%s: %s: %s%s", a->path, what, sqlite3_errmsg(a->db),
             pc == SQLITE_BUSY || pc == SQLITE_LOCKED ? " (another process holds the archive locked)"
             : pc == SQLITE_NOTADB || pc == SQLITE_CORRUPT ? " (the archive is damaged or not an ssdbench archive)"
                                                          : "");
    if (pc == SQLITE_BUSY || pc == SQLITE_LOCKED)
        return -EBUSY;
    if (pc == SQLITE_NOTADB || pc == SQLITE_CORRUPT)
        return -EINVAL;
    if (pc == SQLITE_NOMEM)
        return -ENOMEM;
    if (pc == SQLITE_FULL)
        return -ENOSPC;
    if (pc == SQLITE_READONLY || pc == SQLITE_PERM || pc == SQLITE_CANTOPEN)
        return -EACCES;
    return -EIO;
}

int archive_exec(struct archive *a, const char *sql, char *err, size_t errlen)
{
    if (sqlite3_exec(a->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return archive_sql_err(a, "cannot update", err, errlen);
    return 0;
}

static int pragma_int(struct archive *a, const char *sql, int64_t *v, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(a->db, sql, -1, &st, NULL) != SQLITE_OK)
        return archive_sql_err(a, "cannot read", err, errlen);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return archive_sql_err(a, "cannot read", err, errlen);
    return 0;
}

/* Creates the parent directories of path (mode 0700) and the file itself
 * with mode 0600 when it does not exist, so the database never exists with
 * looser permissions, whatever the umask. */
static int create_file(const char *path, char *err, size_t errlen)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", path);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
            snprintf(err, errlen, "%s: cannot create the directory %s: %s", path, dir, strerror(errno));
            return -errno;
        }
        *p = '/';
    }
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        if (errno == EEXIST)
            return 0;
        snprintf(err, errlen, "%s: cannot create the archive: %s", path, strerror(errno));
        return -errno;
    }
    int rc = fchmod(fd, 0600);
    close(fd);
    if (rc < 0) {
        snprintf(err, errlen, "%s: cannot set mode 0600: %s", path, strerror(errno));
        return -errno;
    }
    return 0;
}

/* Refuses, before anything is written, a database that is not an archive
 * (another application's id, or tables without ours) or is newer. */
static int refuse_foreign(struct archive *a, char *err, size_t errlen)
{
    int64_t ver = 0, app = 0, ntables = 0;
    int rc;
    /* one read transaction, so the three answers come from one state: read
     * one by one, another process setting up a new archive meanwhile could
     * show its tables without its id */
    if ((rc = archive_exec(a, "BEGIN", err, errlen)) < 0)
        return rc;
    if ((rc = pragma_int(a, "PRAGMA user_version", &ver, err, errlen)) < 0 ||
        (rc = pragma_int(a, "PRAGMA application_id", &app, err, errlen)) < 0 ||
        (rc = pragma_int(a, "SELECT count(*) FROM sqlite_master", &ntables, err, errlen)) < 0) {
        sqlite3_exec(a->db, "ROLLBACK", NULL, NULL, NULL);
        return rc;
    }
    sqlite3_exec(a->db, "COMMIT", NULL, NULL, NULL);
    if (app != ARCHIVE_APP_ID && (app != 0 || ntables > 0)) {
        snprintf(err, errlen, "%s: an SQLite database, but not an ssdbench archive", a->path);
        return -EINVAL;
    }
    if (ver > ARCHIVE_SCHEMA_VERSION) {
        snprintf(err, errlen, "%s: archive schema %lld is newer than this ssdbench reads (%d); use a newer ssdbench",
                 a->path, (long long)ver, ARCHIVE_SCHEMA_VERSION);
        return -EINVAL;
    }
    return 0;
}

/* Brings the schema to ARCHIVE_SCHEMA_VERSION, or refuses a database that
 * is not ours or is newer. */
static int migrate(struct archive *a, char *err, size_t errlen)
{
    int64_t ver = 0, app = 0, ntables = 0;
    int rc;
    if ((rc = pragma_int(a, "PRAGMA user_version", &ver, err, errlen)) < 0 ||
        (rc = pragma_int(a, "PRAGMA application_id", &app, err, errlen)) < 0)
        return rc;
    if (app == ARCHIVE_APP_ID && ver == ARCHIVE_SCHEMA_VERSION)
        return 0;
    if (ver > ARCHIVE_SCHEMA_VERSION && app == ARCHIVE_APP_ID) {
        snprintf(err, errlen, "%s: archive schema %lld is newer than this ssdbench reads (%d); use a newer ssdbench",
                 a->path, (long long)ver, ARCHIVE_SCHEMA_VERSION);
        return -EINVAL;
    }
    if ((rc = archive_exec(a, "BEGIN IMMEDIATE", err, errlen)) < 0)
        return rc;
    /* another process may have set it up meanwhile: read again under the lock */
    if ((rc = pragma_int(a, "PRAGMA user_version", &ver, err, errlen)) < 0 ||
        (rc = pragma_int(a, "PRAGMA application_id", &app, err, errlen)) < 0 ||
        (rc = pragma_int(a, "SELECT count(*) FROM sqlite_master", &ntables, err, errlen)) < 0)
        goto fail;
    if (app != ARCHIVE_APP_ID && (app != 0 || ntables > 0)) {
        snprintf(err, errlen, "%s: an SQLite database, but not an ssdbench archive", a->path);
        rc = -EINVAL;
        goto fail;
    }
    if (ver > ARCHIVE_SCHEMA_VERSION) {
        snprintf(err, errlen, "%s: archive schema %lld is newer than this ssdbench reads (%d); use a newer ssdbench",
                 a->path, (long long)ver, ARCHIVE_SCHEMA_VERSION);
        rc = -EINVAL;
        goto fail;
    }
    for (int64_t v = ver; v < ARCHIVE_SCHEMA_VERSION; v++)
        if ((rc = archive_exec(a, migrations[v], err, errlen)) < 0)
            goto fail;
    char sql[96];
    snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d", ARCHIVE_APP_ID,
             ARCHIVE_SCHEMA_VERSION);
    if ((rc = archive_exec(a, sql, err, errlen)) < 0 || (rc = archive_exec(a, "COMMIT", err, errlen)) < 0)
        goto fail;
    return 0;
fail:
    sqlite3_exec(a->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

struct archive *archive_open(const char *path, bool create, int *rcp, char *err, size_t errlen)
{
    int rc = 0, dummy;
    if (!rcp)
        rcp = &dummy;
    struct stat st;
    if (stat(path, &st) < 0) {
        if (errno != ENOENT || !create) {
            snprintf(err, errlen, "%s: %s%s", path, strerror(errno),
                     errno == ENOENT ? " (no archive yet: file results with --archive or ssdbench archive add)" : "");
            *rcp = -errno;
            return NULL;
        }
        if ((rc = create_file(path, err, errlen)) < 0) {
            *rcp = rc;
            return NULL;
        }
    } else if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        *rcp = -EINVAL;
        return NULL;
    }
    struct archive *a = calloc(1, sizeof(*a) + strlen(path) + 1);
    if (!a) {
        snprintf(err, errlen, "%s: out of memory", path);
        *rcp = -ENOMEM;
        return NULL;
    }
    a->path = (char *)(a + 1);
    strcpy(a->path, path);
    if (sqlite3_open_v2(path, &a->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        rc = a->db ? archive_sql_err(a, "cannot open", err, errlen) : -ENOMEM;
        if (!a->db)
            snprintf(err, errlen, "%s: out of memory", path);
        goto fail;
    }
    sqlite3_busy_timeout(a->db, ARCHIVE_BUSY_MS);
    sqlite3_extended_result_codes(a->db, 0);
    int64_t dummy_v;
    /* the first read: a file that is not a database fails here */
    if ((rc = pragma_int(a, "PRAGMA schema_version", &dummy_v, err, errlen)) < 0 ||
        (rc = refuse_foreign(a, err, errlen)) < 0)
        goto fail;
    char mode[16] = "";
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(a->db, "PRAGMA journal_mode", -1, &s, NULL) == SQLITE_OK) {
        if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
            snprintf(mode, sizeof(mode), "%s", (const char *)sqlite3_column_text(s, 0));
        sqlite3_finalize(s);
    }
    /* The switch to WAL needs the database to itself, and SQLite answers
     * SQLITE_BUSY at once (no busy handler) while another process opening
     * a new archive at the same moment reads it: retried every 10 ms for
     * the busy timeout. */
    for (unsigned waited = 0; strcmp(mode, "wal") != 0; waited += 10) {
        rc = archive_exec(a, "PRAGMA journal_mode = WAL", err, errlen);
        if (rc == 0)
            break;
        if (rc != -EBUSY || waited >= ARCHIVE_BUSY_MS)
            goto fail;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if ((rc = archive_exec(a, "PRAGMA synchronous = NORMAL", err, errlen)) < 0 || (rc = migrate(a, err, errlen)) < 0)
        goto fail;
    return a;
fail:
    *rcp = rc ? rc : -EIO;
    archive_close(a);
    return NULL;
}

void archive_close(struct archive *a)
{
    if (!a)
        return;
    sqlite3_finalize(a->fig_st);
    sqlite3_close(a->db);
    free(a);
}

const char *archive_path(const struct archive *a)
{
    return a->path;
}
