/* archive_store.c - filing, listing, fetching and removing archived results
 * (see archive.h). A document is filed in one transaction (its row, names,
 * tags and figures), compressed with zlib and checked against its SHA-256
 * when fetched. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "archive/archive.h"
#include "archive/archive_int.h"
#include "base/checksum.h"

int archive_tag_parse(char *s, struct archive_tag *t, char *err, size_t errlen)
{
    char *eq = strchr(s, '=');
    if (!eq || eq == s || !eq[1]) {
        snprintf(err, errlen, "--tag: '%s' is not KEY=VALUE", s);
        return -EINVAL;
    }
    for (const char *p = s; p < eq; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
              *p == '-' || *p == '.')) {
            snprintf(err, errlen, "--tag: '%s': a key is letters, digits, '_', '-' and '.'", s);
            return -EINVAL;
        }
    *eq = 0;
    t->key = s;
    t->value = eq + 1;
    return 0;
}

static void sha256_hex(const char *text, size_t len, char out[65])
{
    struct sha256_ctx c;
    uint8_t d[32];
    sha256_init(&c);
    sha256_update(&c, text, len);
    sha256_final(&c, d);
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- filing ------------------------------------------------------------ */

struct filing {
    struct archive *a;
    sqlite3_stmt *st;
    int64_t id;
    char *err;
    size_t errlen;
};

static void bind_num(sqlite3_stmt *st, int i, double v)
{
    if (isfinite(v))
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

static int file_fig(const struct archive_fig *f, void *ctx)
{
    struct filing *fl = ctx;
    sqlite3_stmt *st = fl->st;
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, fl->id);
    sqlite3_bind_int(st, 2, f->seq);
    sqlite3_bind_text(st, 3, f->dir, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, f->phase, -1, SQLITE_STATIC);
    bind_num(st, 5, f->iops);
    bind_num(st, 6, f->mbps);
    bind_num(st, 7, f->mean_ns);
    bind_num(st, 8, f->p99_ns);
    bind_num(st, 9, f->p999_ns);
    bind_num(st, 10, f->max_ns);
    sqlite3_bind_text(st, 11, f->steady, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE)
        return archive_sql_err(fl->a, "cannot file the figures", fl->err, fl->errlen);
    return 0;
}

static int file_name(const char *name, void *ctx)
{
    struct filing *fl = ctx;
    if (!*name)
        return 0;
    sqlite3_reset(fl->st);
    sqlite3_bind_int64(fl->st, 1, fl->id);
    sqlite3_bind_text(fl->st, 2, name, -1, SQLITE_STATIC);
    if (sqlite3_step(fl->st) != SQLITE_DONE)
        return archive_sql_err(fl->a, "cannot file the names", fl->err, fl->errlen);
    return 0;
}

static int prepare(struct archive *a, const char *sql, sqlite3_stmt **st, char *err, size_t errlen)
{
    if (sqlite3_prepare_v2(a->db, sql, -1, st, NULL) != SQLITE_OK) {
        *st = NULL;
        return archive_sql_err(a, "cannot read", err, errlen);
    }
    return 0;
}

/* The id of the row holding sha, or 0. */
static int64_t find_sha(struct archive *a, const char *sha)
{
    sqlite3_stmt *st;
    int64_t id = 0;
    if (sqlite3_prepare_v2(a->db, "SELECT id FROM results WHERE sha256 = ?", -1, &st, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(st, 1, sha, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW)
        id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return id;
}

int archive_file(struct archive *a, const char *text, size_t len, const cJSON *doc, const char *source,
                 const struct archive_tag *tags, size_t ntags, int64_t *id, char *err, size_t errlen)
{
    char sha[65];
    sha256_hex(text, len, sha);
    uLongf zlen = compressBound((uLong)len);
    unsigned char *z = malloc(zlen ? zlen : 1);
    if (!z) {
        snprintf(err, errlen, "%s: out of memory", a->path);
        return -ENOMEM;
    }
    if (compress2(z, &zlen, (const Bytef *)text, (uLong)len, 6) != Z_OK) {
        free(z);
        snprintf(err, errlen, "%s: cannot compress the document", a->path);
        return -ENOMEM;
    }
    struct archive_meta m;
    archive_meta(doc, &m);
    int rc;
    sqlite3_stmt *st = NULL;
    struct filing fl = {.a = a, .err = err, .errlen = errlen};
    if ((rc = archive_exec(a, "BEGIN IMMEDIATE", err, errlen)) < 0) {
        free(z);
        return rc;
    }
    int64_t dup = find_sha(a, sha);
    if (dup) {
        *id = dup;
        snprintf(err, errlen, "%s: already filed as archive:%lld", source, (long long)dup);
        rc = -EEXIST;
        goto fail;
    }
    if ((rc = prepare(a,
                      "INSERT INTO results (filed_ms, started, started_ms, host, kernel, version, model, serial,"
                      " firmware, capacity, bus, target, kind, workload, workload_key, label, incomplete, source,"
                      " sha256, doc_len) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                      &st, err, errlen)) < 0)
        goto fail;
    const char *txt[] = {m.started, NULL, m.host, m.kernel, m.version, m.model, m.serial, m.firmware};
    sqlite3_bind_int64(st, 1, now_ms());
    for (int i = 0; i < 8; i++)
        if (txt[i])
            sqlite3_bind_text(st, i + 2, txt[i], -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, m.started_ms);
    sqlite3_bind_int64(st, 10, m.capacity);
    sqlite3_bind_text(st, 11, m.bus, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 12, m.target, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 13, m.kind, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 14, m.workload, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 15, m.workload_key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 16, m.label, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 17, m.incomplete);
    sqlite3_bind_text(st, 18, source, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 19, sha, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 20, (sqlite3_int64)len);
    if (sqlite3_step(st) != SQLITE_DONE) {
        rc = archive_sql_err(a, "cannot file", err, errlen);
        goto fail;
    }
    sqlite3_finalize(st);
    st = NULL;
    fl.id = sqlite3_last_insert_rowid(a->db);
    if ((rc = prepare(a, "INSERT INTO docs (result_id, doc) VALUES (?,?)", &st, err, errlen)) < 0)
        goto fail;
    sqlite3_bind_int64(st, 1, fl.id);
    sqlite3_bind_blob(st, 2, z, (int)zlen, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE) {
        rc = archive_sql_err(a, "cannot file the document", err, errlen);
        goto fail;
    }
    sqlite3_finalize(st);
    st = NULL;
    if ((rc = prepare(a, "INSERT OR REPLACE INTO tags (result_id, key, value) VALUES (?,?,?)", &st, err, errlen)) < 0)
        goto fail;
    for (size_t i = 0; i < ntags; i++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, fl.id);
        sqlite3_bind_text(st, 2, tags[i].key, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, tags[i].value, -1, SQLITE_STATIC);
        if (sqlite3_step(st) != SQLITE_DONE) {
            rc = archive_sql_err(a, "cannot file the tags", err, errlen);
            goto fail;
        }
    }
    sqlite3_finalize(st);
    st = NULL;
    if ((rc = prepare(a, "INSERT OR IGNORE INTO names (result_id, name) VALUES (?,?)", &fl.st, err, errlen)) < 0)
        goto fail;
    rc = archive_doc_names(doc, &m, file_name, &fl);
    sqlite3_finalize(fl.st);
    if (rc < 0)
        goto fail;
    if ((rc = prepare(a,
                      "INSERT OR REPLACE INTO figures (result_id, seq, dir, phase, iops, mbps, mean_ns, p99_ns,"
                      " p999_ns, max_ns, steady) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                      &fl.st, err, errlen)) < 0)
        goto fail;
    rc = archive_doc_figures(doc, file_fig, &fl);
    sqlite3_finalize(fl.st);
    if (rc < 0)
        goto fail;
    if ((rc = archive_exec(a, "COMMIT", err, errlen)) < 0)
        goto fail;
    free(z);
    *id = fl.id;
    return 0;
fail:
    sqlite3_finalize(st);
    sqlite3_exec(a->db, "ROLLBACK", NULL, NULL, NULL);
    free(z);
    return rc;
}

/* ---- listing ----------------------------------------------------------- */

#define ROW_COLS                                                                                                \
    "r.id, r.started_ms, r.filed_ms, r.started, r.host, r.kernel, r.version, r.model, r.serial, r.firmware,"   \
    " r.bus, r.target, r.kind, r.workload, r.workload_key, r.label, r.source, r.sha256, r.capacity,"            \
    " r.incomplete, r.doc_len,"                                                                                 \
    " (SELECT group_concat(kv, char(31)) FROM (SELECT key || '=' || value AS kv FROM tags"             \
    "  WHERE result_id = r.id ORDER BY key))"

static const char *col_text(sqlite3_stmt *st, int i)
{
    const char *s = (const char *)sqlite3_column_text(st, i);
    return s ? s : "";
}

static void row_of(sqlite3_stmt *st, struct archive_row *r)
{
    r->id = sqlite3_column_int64(st, 0);
    r->started_ms = sqlite3_column_int64(st, 1);
    r->filed_ms = sqlite3_column_int64(st, 2);
    const char **s[] = {&r->started, &r->host,  &r->kernel,       &r->version, &r->model,  &r->serial, &r->firmware,
                        &r->bus,     &r->target, &r->kind,        &r->workload, &r->workload_key, &r->label,
                        &r->source,  &r->sha256};
    for (int i = 0; i < 15; i++)
        *s[i] = col_text(st, 3 + i);
    r->capacity = sqlite3_column_int64(st, 18);
    r->incomplete = sqlite3_column_int(st, 19) != 0;
    r->doc_len = sqlite3_column_int64(st, 20);
    r->tags = col_text(st, 21);
}

/* Walks the rows of a prepared statement. */
static int walk(struct archive *a, sqlite3_stmt *st, archive_row_fn fn, void *ctx, unsigned *count, char *err,
                size_t errlen)
{
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct archive_row r;
        row_of(st, &r);
        (*count)++;
        int u = fn(&r, ctx);
        if (u)
            return u;
    }
    if (rc != SQLITE_DONE)
        return archive_sql_err(a, "cannot read", err, errlen);
    return 0;
}

int archive_list(struct archive *a, const struct archive_filter *f, bool newest_first, unsigned limit,
                 archive_row_fn fn, void *ctx, char *err, size_t errlen)
{
    return archive_list_ordered(a, f, newest_first ? "r.started_ms DESC, r.id DESC" : "r.started_ms ASC, r.id ASC",
                                limit, fn, ctx, err, errlen);
}

int archive_list_ordered(struct archive *a, const struct archive_filter *f, const char *order, unsigned limit,
                         archive_row_fn fn, void *ctx, char *err, size_t errlen)
{
    char sql[4096];
    size_t n = (size_t)snprintf(sql, sizeof(sql), "SELECT " ROW_COLS " FROM results r WHERE 1");
    /* every condition binds its values in this order */
    const char *binds[16 + 2 * ARCHIVE_MAX_TAGS];
    int nb = 0;
#define COND(text) n += (size_t)snprintf(sql + n, sizeof(sql) - n, " AND %s", text)
    const char *simple[][2] = {{"r.host = ?", f->host},       {"r.kind = ?", f->kind},
                               {"r.label = ?", f->label},     {"r.workload_key = ?", f->workload_key},
                               {"r.serial = ?", f->serial},   {"r.model = ?", f->model},
                               {"r.target = ?", f->target}};
    if (f->device) {
        COND("(r.model = ? OR r.serial = ? OR r.target = ?)");
        binds[nb++] = f->device;
        binds[nb++] = f->device;
        binds[nb++] = f->device;
    }
    if (f->workload) {
        COND("(r.kind = ? OR r.workload = ? OR EXISTS (SELECT 1 FROM names WHERE result_id = r.id AND name = ?))");
        binds[nb++] = f->workload;
        binds[nb++] = f->workload;
        binds[nb++] = f->workload;
    }
    for (size_t i = 0; i < sizeof(simple) / sizeof(simple[0]); i++)
        if (simple[i][1]) {
            COND(simple[i][0]);
            binds[nb++] = simple[i][1];
        }
    for (size_t i = 0; i < f->ntags; i++) {
        COND("EXISTS (SELECT 1 FROM tags WHERE result_id = r.id AND key = ? AND value = ?)");
        binds[nb++] = f->tags[i].key;
        binds[nb++] = f->tags[i].value;
    }
    if (f->since_set)
        COND("r.started_ms >= ?");
#undef COND
    n += (size_t)snprintf(sql + n, sizeof(sql) - n, " ORDER BY %s", order);
    if (limit)
        snprintf(sql + n, sizeof(sql) - n, " LIMIT %u", limit);
    sqlite3_stmt *st;
    int rc = prepare(a, sql, &st, err, errlen);
    if (rc < 0)
        return rc;
    for (int i = 0; i < nb; i++)
        sqlite3_bind_text(st, i + 1, binds[i], -1, SQLITE_STATIC);
    if (f->since_set)
        sqlite3_bind_int64(st, nb + 1, f->since_ms);
    unsigned count = 0;
    rc = walk(a, st, fn, ctx, &count, err, errlen);
    sqlite3_finalize(st);
    return rc;
}

int archive_row_get(struct archive *a, int64_t id, archive_row_fn fn, void *ctx, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    int rc = prepare(a, "SELECT " ROW_COLS " FROM results r WHERE r.id = ?", &st, err, errlen);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    unsigned count = 0;
    rc = walk(a, st, fn, ctx, &count, err, errlen);
    sqlite3_finalize(st);
    if (rc == 0 && count == 0) {
        snprintf(err, errlen, "%s: no archived result %lld", a->path, (long long)id);
        return -ENOENT;
    }
    return rc;
}

static double col_num(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

int archive_figures(struct archive *a, int64_t id, archive_fig_fn fn, void *ctx, char *err, size_t errlen)
{
    int rc;
    if (!a->fig_st &&
        (rc = prepare(a,
                      "SELECT seq, phase, dir, steady, iops, mbps, mean_ns, p99_ns, p999_ns, max_ns FROM figures"
                      " WHERE result_id = ? ORDER BY seq, CASE dir WHEN 'read' THEN 0 WHEN 'write' THEN 1 ELSE 2 END",
                      &a->fig_st, err, errlen)) < 0)
        return rc;
    sqlite3_stmt *st = a->fig_st;
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct archive_fig f = {
            .seq = sqlite3_column_int(st, 0), .phase = col_text(st, 1), .dir = col_text(st, 2),
            .steady = col_text(st, 3), .iops = col_num(st, 4), .mbps = col_num(st, 5), .mean_ns = col_num(st, 6),
            .p99_ns = col_num(st, 7), .p999_ns = col_num(st, 8), .max_ns = col_num(st, 9),
        };
        int u = fn(&f, ctx);
        if (u) {
            sqlite3_reset(st);
            return u;
        }
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return archive_sql_err(a, "cannot read", err, errlen);
    return 0;
}

int archive_get(struct archive *a, int64_t id, char **text, size_t *len, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    int rc = prepare(a, "SELECT d.doc, r.doc_len, r.sha256 FROM results r JOIN docs d ON d.result_id = r.id WHERE r.id = ?",
                     &st, err, errlen);
    if (rc < 0)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE)
            return archive_sql_err(a, "cannot read", err, errlen);
        snprintf(err, errlen, "%s: no archived result %lld", a->path, (long long)id);
        return -ENOENT;
    }
    const void *z = sqlite3_column_blob(st, 0);
    int zlen = sqlite3_column_bytes(st, 0);
    sqlite3_int64 dlen = sqlite3_column_int64(st, 1);
    char want[65];
    snprintf(want, sizeof(want), "%s", col_text(st, 2));
    char *out = dlen >= 0 && dlen < ((sqlite3_int64)1 << 32) ? malloc((size_t)dlen + 1) : NULL;
    uLongf olen = (uLongf)dlen;
    int zrc = out && z ? uncompress((Bytef *)out, &olen, z, (uLong)zlen) : Z_MEM_ERROR;
    sqlite3_finalize(st);
    if (zrc != Z_OK || (sqlite3_int64)olen != dlen) {
        free(out);
        snprintf(err, errlen, "%s: archived result %lld is damaged (%s)", a->path, (long long)id,
                 zrc == Z_MEM_ERROR ? "out of memory" : "its compressed document does not decompress");
        return zrc == Z_MEM_ERROR ? -ENOMEM : -EINVAL;
    }
    out[olen] = 0;
    char got[65];
    sha256_hex(out, olen, got);
    if (strcmp(got, want) != 0) {
        free(out);
        snprintf(err, errlen, "%s: archived result %lld is damaged (its SHA-256 differs from the one filed)", a->path,
                 (long long)id);
        return -EINVAL;
    }
    *text = out;
    *len = olen;
    return 0;
}

int archive_rm(struct archive *a, int64_t id, char *err, size_t errlen)
{
    int rc = archive_exec(a, "BEGIN IMMEDIATE", err, errlen);
    if (rc < 0)
        return rc;
    static const char *const del[] = {"DELETE FROM tags WHERE result_id = ?", "DELETE FROM names WHERE result_id = ?",
                                      "DELETE FROM figures WHERE result_id = ?", "DELETE FROM docs WHERE result_id = ?",
                                      "DELETE FROM results WHERE id = ?"};
    for (int i = 0; i < 5; i++) {
        sqlite3_stmt *st;
        if ((rc = prepare(a, del[i], &st, err, errlen)) < 0)
            goto fail;
        sqlite3_bind_int64(st, 1, id);
        rc = sqlite3_step(st);
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE) {
            rc = archive_sql_err(a, "cannot remove", err, errlen);
            goto fail;
        }
    }
    if (sqlite3_changes(a->db) == 0) {
        snprintf(err, errlen, "%s: no archived result %lld", a->path, (long long)id);
        rc = -ENOENT;
        goto fail;
    }
    if ((rc = archive_exec(a, "COMMIT", err, errlen)) < 0)
        goto fail;
    return 0;
fail:
    sqlite3_exec(a->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}
