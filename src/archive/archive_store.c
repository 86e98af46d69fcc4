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
    if (strchr(eq + 1, ARCHIVE_TAG_SEP)) { /* it would cut the value short when read back */
        snprintf(err, errlen, "--tag: '%.*s=...': a value cannot hold byte 0x1f (the archive's tag separator)",
                 (int)(eq - s), s);
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

#define ROW_COLS ROW_BASE ", " ROW_TAGS
#define ROW_BASE                                                                                                \
    "r.id, r.started_ms, r.filed_ms, r.started, r.host, r.kernel, r.version, r.model, r.serial, r.firmware,"   \
    " r.bus, r.target, r.kind, r.workload, r.workload_key, r.label, r.source, r.sha256, r.capacity,"            \
    " r.incomplete, r.doc_len"
#define ROW_TAGS "(SELECT group_concat(kv, char(31)) FROM (SELECT key || '=' || value AS kv FROM tags" \
    " WHERE result_id = r.id ORDER BY key))"

static const char *col_text(sqlite3_stmt *st, int i)
{
    const char *s = (const char *)sqlite3_column_text(st, i);
    return s ? s : "";
}

static double col_num(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
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
    r->figcur = NULL;
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

/* The WHERE clause of f (after "FROM results r") and its text values in
 * bind order; since_ms, when set, binds after them. */
struct where {
    char sql[2048];
    size_t n;
    const char *binds[16 + 2 * ARCHIVE_MAX_TAGS];
    int nb;
};

static void where_of(const struct archive_filter *f, struct where *w)
{
    w->n = (size_t)snprintf(w->sql, sizeof(w->sql), " WHERE 1");
    w->nb = 0;
#define COND(text) w->n += (size_t)snprintf(w->sql + w->n, sizeof(w->sql) - w->n, " AND %s", text)
    const char *simple[][2] = {{"r.host = ?", f->host},       {"r.kind = ?", f->kind},
                               {"r.label = ?", f->label},     {"r.workload_key = ?", f->workload_key},
                               {"r.serial = ?", f->serial},   {"r.model = ?", f->model},
                               {"r.target = ?", f->target}};
    if (f->device) {
        COND("(r.model = ? OR r.serial = ? OR r.target = ?)");
        w->binds[w->nb++] = f->device;
        w->binds[w->nb++] = f->device;
        w->binds[w->nb++] = f->device;
    }
    if (f->workload) {
        COND("(r.kind = ? OR r.workload = ? OR EXISTS (SELECT 1 FROM names WHERE result_id = r.id AND name = ?))");
        w->binds[w->nb++] = f->workload;
        w->binds[w->nb++] = f->workload;
        w->binds[w->nb++] = f->workload;
    }
    for (size_t i = 0; i < sizeof(simple) / sizeof(simple[0]); i++)
        if (simple[i][1]) {
            COND(simple[i][0]);
            w->binds[w->nb++] = simple[i][1];
        }
    for (size_t i = 0; i < f->ntags; i++) {
        COND("EXISTS (SELECT 1 FROM tags WHERE result_id = r.id AND key = ? AND value = ?)");
        w->binds[w->nb++] = f->tags[i].key;
        w->binds[w->nb++] = f->tags[i].value;
    }
    if (f->since_set)
        COND("r.started_ms >= ?");
#undef COND
}

/* Prepares "head WHERE... tail" with f's values bound. */
static int prepare_where(struct archive *a, const char *head, const struct archive_filter *f, const char *tail,
                         sqlite3_stmt **st, char *err, size_t errlen)
{
    struct where w;
    where_of(f, &w);
    char sql[4096];
    snprintf(sql, sizeof(sql), "%s%s%s", head, w.sql, tail);
    int rc = prepare(a, sql, st, err, errlen);
    if (rc < 0)
        return rc;
    for (int i = 0; i < w.nb; i++)
        sqlite3_bind_text(*st, i + 1, w.binds[i], -1, SQLITE_STATIC);
    if (f->since_set)
        sqlite3_bind_int64(*st, w.nb + 1, f->since_ms);
    return 0;
}

int archive_list_ordered(struct archive *a, const struct archive_filter *f, const char *order, unsigned limit,
                         archive_row_fn fn, void *ctx, char *err, size_t errlen)
{
    char tail[512];
    size_t n = (size_t)snprintf(tail, sizeof(tail), " ORDER BY %s", order);
    if (limit)
        snprintf(tail + n, sizeof(tail) - n, " LIMIT %u", limit);
    sqlite3_stmt *st;
    int rc = prepare_where(a, "SELECT " ROW_COLS " FROM results r", f, tail, &st, err, errlen);
    if (rc < 0)
        return rc;
    unsigned count = 0;
    rc = walk(a, st, fn, ctx, &count, err, errlen);
    sqlite3_finalize(st);
    return rc;
}

/* The figures of a listing, read alongside its rows: one statement in the
 * rows' order (started_ms, id), then phase and direction in the figures'
 * key order (read, trim, write: no sort per row), handed out in document
 * order (read, write, trim) by holding a trim back until its phase's write
 * is out. `ahead`: the statement stands on a figure not yet handed out. */
/* A statement walked alongside the rows (its first two columns the row's
 * started_ms and id). */
struct merge {
    sqlite3_stmt *st;
    bool ahead, done;
    int rc;
};

struct archive_figcur {
    struct merge m;
    bool held;
    int64_t held_id;
    struct archive_fig hold;        /* a trim, strings in the buffers below */
    char *phase;
    size_t phase_cap;
    char steady[32];
};

#define FIG_COLS "r.started_ms, r.id, f.seq, f.phase, f.dir, f.steady, f.iops, f.mbps, f.mean_ns, f.p99_ns, f.p999_ns, f.max_ns"

static void fig_of(sqlite3_stmt *st, int c, struct archive_fig *f)
{
    *f = (struct archive_fig){
        .seq = sqlite3_column_int(st, c), .phase = col_text(st, c + 1), .dir = col_text(st, c + 2),
        .steady = col_text(st, c + 3), .iops = col_num(st, c + 4), .mbps = col_num(st, c + 5),
        .mean_ns = col_num(st, c + 6), .p99_ns = col_num(st, c + 7), .p999_ns = col_num(st, c + 8),
        .max_ns = col_num(st, c + 9),
    };
}

/* 1 when m stands on a record of row r (not consumed), 0 when on a later
 * row's or at the end, <0 on an error. Records of earlier rows that were
 * not asked for are skipped. */
static int merge_peek(struct merge *m, int64_t started_ms, int64_t id)
{
    while (!m->done) {
        if (!m->ahead) {
            int rc = sqlite3_step(m->st);
            if (rc != SQLITE_ROW) {
                m->done = true;
                if (rc != SQLITE_DONE)
                    m->rc = rc;
                break;
            }
            m->ahead = true;
        }
        int64_t ms = sqlite3_column_int64(m->st, 0), rid = sqlite3_column_int64(m->st, 1);
        if (rid == id)
            return 1;
        if (ms > started_ms || (ms == started_ms && rid > id))
            return 0;
        m->ahead = false;
    }
    return m->rc ? -EIO : 0;
}

/* Keeps f (a trim) in c's own buffers. */
static int fig_hold(struct archive_figcur *c, const struct archive_row *r, const struct archive_fig *f)
{
    size_t n = strlen(f->phase) + 1;
    if (n > c->phase_cap) {
        char *p = realloc(c->phase, n);
        if (!p)
            return -ENOMEM;
        c->phase = p;
        c->phase_cap = n;
    }
    memcpy(c->phase, f->phase, n);
    snprintf(c->steady, sizeof(c->steady), "%s", f->steady);
    c->hold = *f;
    c->hold.phase = c->phase;
    c->hold.dir = "trim";
    c->hold.steady = c->steady;
    c->held_id = r->id;
    return 0;
}

int archive_row_figure(const struct archive_row *r, struct archive_fig *f)
{
    struct archive_figcur *c = r->figcur;
    if (!c)
        return -EINVAL;
    if (c->held) {
        c->held = false;
        if (c->held_id == r->id) {
            *f = c->hold;
            return 1;
        }
    }
    struct merge *m = &c->m;
    int rc = merge_peek(m, r->started_ms, r->id);
    if (rc <= 0)
        return rc;
    fig_of(m->st, 2, f);
    m->ahead = false;
    if (strcmp(f->dir, "trim") != 0)
        return 1;
    if ((rc = fig_hold(c, r, f)) < 0)
        return rc;
    if ((rc = merge_peek(m, r->started_ms, r->id)) < 0)
        return rc;
    if (rc == 1 && sqlite3_column_int(m->st, 2) == c->hold.seq && !strcmp(col_text(m->st, 4), "write")) {
        fig_of(m->st, 2, f); /* the phase's write first, then the trim held */
        m->ahead = false;
        c->held = true;
        return 1;
    }
    *f = c->hold;
    return 1;
}

/* r's tags from m ("k=v" joined by ARCHIVE_TAG_SEP, in key order) into
 * *buf. */
static int merge_tags(struct merge *m, const struct archive_row *r, char **buf, size_t *cap)
{
    size_t n = 0;
    int rc;
    while ((rc = merge_peek(m, r->started_ms, r->id)) == 1) {
        const char *k = col_text(m->st, 2), *v = col_text(m->st, 3);
        size_t kl = strlen(k), vl = strlen(v);
        if (n + kl + vl + 3 > *cap) {
            size_t nc = 2 * (n + kl + vl + 3);
            char *p = realloc(*buf, nc);
            if (!p)
                return -ENOMEM;
            *buf = p;
            *cap = nc;
        }
        if (n)
            (*buf)[n++] = ARCHIVE_TAG_SEP;
        memcpy(*buf + n, k, kl);
        (*buf)[n + kl] = '=';
        memcpy(*buf + n + kl + 1, v, vl);
        n += kl + 1 + vl;
        m->ahead = false;
    }
    if (*cap)
        (*buf)[n] = 0;
    return rc;
}

int archive_list_all(struct archive *a, const struct archive_filter *f, archive_row_fn fn, void *ctx, char *err,
                         size_t errlen)
{
    /* one read transaction: the three statements see the same archive */
    int rc = archive_exec(a, "BEGIN", err, errlen);
    if (rc < 0)
        return rc;
    sqlite3_stmt *rows = NULL;
    struct archive_figcur cur = {0};
    struct merge tags = {0};
    char *tbuf = NULL;
    size_t tcap = 0;
    rc = prepare_where(a, "SELECT " ROW_BASE ", '' FROM results r", f, " ORDER BY r.started_ms, r.id", &rows, err,
                       errlen);
    if (rc == 0)
        rc = prepare_where(a, "SELECT r.started_ms, r.id, t.key, t.value FROM results r JOIN tags t ON t.result_id = r.id",
                           f, " ORDER BY r.started_ms, r.id, t.key", &tags.st, err, errlen);
    if (rc == 0)
        rc = prepare_where(a, "SELECT " FIG_COLS " FROM results r JOIN figures f ON f.result_id = r.id", f,
                           " ORDER BY r.started_ms, r.id, f.seq, f.dir", &cur.m.st, err, errlen);
    while (rc == 0) {
        int s = sqlite3_step(rows);
        if (s != SQLITE_ROW) {
            if (s != SQLITE_DONE)
                rc = archive_sql_err(a, "cannot read", err, errlen);
            break;
        }
        struct archive_row r;
        row_of(rows, &r);
        if ((rc = merge_tags(&tags, &r, &tbuf, &tcap)) < 0) {
            if (rc == -ENOMEM)
                snprintf(err, errlen, "out of memory");
            else
                rc = archive_sql_err(a, "cannot read the tags", err, errlen);
            break;
        }
        r.tags = tbuf && *tbuf ? tbuf : "";
        r.figcur = &cur;
        rc = fn(&r, ctx);
        if (cur.m.rc)
            rc = archive_sql_err(a, "cannot read the figures", err, errlen);
    }
    sqlite3_finalize(rows);
    sqlite3_finalize(tags.st);
    sqlite3_finalize(cur.m.st);
    free(cur.phase);
    free(tbuf);
    sqlite3_exec(a->db, "COMMIT", NULL, NULL, NULL);
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
        struct archive_fig f;
        fig_of(st, 0, &f);
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
