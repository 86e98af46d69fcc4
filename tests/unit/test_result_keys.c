/* test_result_keys.c - every key a renderer reads is in the schema table.
 *
 * Reads each .c file of src/output (the test runs from the tree's top) and finds
 * each call of a results-model reader with a string literal for its key:
 * result_snum/result_sstr (the typed readers: the literal must be a full
 * path of the table), result_num, result_num_in, result_str, result_get,
 * cJSON's object look-ups, and each private accessor wrapper of the file (a
 * static function taking (const cJSON *, const char *)), whose literal must
 * be the last member of a path of the table (fio_text.c's reads of fio's
 * own JSON keys excepted, by name). A renamed key in a renderer
 * fails here, not as a silent default. The scanner itself is checked on
 * sources made up for it (a known key passes, an unknown one fails, a
 * literal inside a string or comment is not a call). */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "result/result_schema.h"

#define MAX_READERS 64

struct readers {
    char name[MAX_READERS][64];
    bool typed[MAX_READERS];
    size_t n;
};

static void add_reader(struct readers *r, const char *name, size_t len, bool typed)
{
    if (r->n < MAX_READERS && len < sizeof(r->name[0])) {
        memcpy(r->name[r->n], name, len);
        r->name[r->n][len] = 0;
        r->typed[r->n++] = typed;
    }
}

static bool ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The readers of a source: the shared ones and its own wrappers. */
static void readers_of(const char *src, struct readers *r)
{
    static const char *const shared[] = {"result_num",
                                         "result_num_in",
                                         "result_str",
                                         "result_get",
                                         "cJSON_GetObjectItemCaseSensitive",
                                         "cJSON_GetObjectItem",
                                         "cJSON_HasObjectItem"};
    r->n = 0;
    add_reader(r, "result_snum", strlen("result_snum"), true);
    add_reader(r, "result_sstr", strlen("result_sstr"), true);
    for (size_t i = 0; i < sizeof(shared) / sizeof(shared[0]); i++)
        add_reader(r, shared[i], strlen(shared[i]), false);
    /* "static T name(const cJSON *a, const char *b" at the start of a line */
    for (const char *p = src; (p = strstr(p, "\nstatic ")); p++) {
        const char *eol = strchr(p + 1, '\n'), *paren = strchr(p + 1, '(');
        if (!paren || (eol && paren > eol))
            continue;
        const char *e = paren, *b = e;
        while (b > p && ident(b[-1]))
            b--;
        const char *args = paren + 1;
        if (strncmp(args, "const cJSON *", 13) != 0)
            continue;
        const char *q = args + 13;
        while (ident(*q))
            q++;
        if (strncmp(q, ", const char *", 14) == 0 && e > b)
            add_reader(r, b, (size_t)(e - b), false);
    }
}

/* Past a string or character literal starting at p (at its quote). */
static const char *skip_literal(const char *p)
{
    char q = *p++;
    while (*p && *p != q) {
        if (*p == '\\' && p[1])
            p++;
        p++;
    }
    return *p ? p + 1 : p;
}

/* Past a comment starting at p, or p when there is none. */
static const char *skip_comment(const char *p)
{
    if (p[0] == '/' && p[1] == '*') {
        const char *e = strstr(p + 2, "*/");
        return e ? e + 2 : p + strlen(p);
    }
    if (p[0] == '/' && p[1] == '/') {
        const char *e = strchr(p, '\n');
        return e ? e : p + strlen(p);
    }
    return p;
}

/* Past the first argument of a call (p just after its "("): at the "," or
 * ")" that ends it. */
static const char *skip_arg(const char *p)
{
    int depth = 0;
    while (*p) {
        const char *c = skip_comment(p);
        if (c != p) {
            p = c;
            continue;
        }
        if (*p == '"' || *p == '\'') {
            p = skip_literal(p);
            continue;
        }
        if (*p == '(' || *p == '[' || *p == '{')
            depth++;
        else if (*p == ')' || *p == ']' || *p == '}') {
            if (depth == 0)
                return p;
            depth--;
        } else if (*p == ',' && depth == 0)
            return p;
        p++;
    }
    return p;
}

struct finding {
    unsigned calls, bad;
    char first[512];
};

static void report(struct finding *f, const char *file, const char *src, const char *at, const char *key,
                   const char *fn, const char *why)
{
    f->bad++;
    if (getenv("RESULT_KEYS_ALL"))
        fprintf(stderr, "%s: %s %s\n", file, fn, key);
    if (f->bad > 1)
        return;
    unsigned line = 1;
    for (const char *p = src; p < at; p++)
        line += *p == '\n';
    snprintf(f->first, sizeof(f->first), "%s:%u: %s(..., \"%s\"): %s", file, line, fn, key, why);
}

/* fio_text.c renders fio's text from the fio-shaped document fio_json.c
 * builds: these keys are fio's JSON format's, not the results model's. */
static bool fio_key(const char *file, const char *key)
{
    static const char *const keys[] = {"lat_ns", "iodepth_level", "iodepth_submit", "iodepth_complete", "disk_util"};
    if (!strstr(file, "fio_text.c"))
        return false;
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        if (!strcmp(key, keys[i]))
            return true;
    return false;
}

/* Checks every reader call of src with a literal key against the table. */
static void scan(const char *file, const char *src, struct finding *f)
{
    struct readers r;
    readers_of(src, &r);
    const char *p = src;
    while (*p) {
        const char *c = skip_comment(p);
        if (c != p) {
            p = c;
            continue;
        }
        if (*p == '"' || *p == '\'') {
            p = skip_literal(p);
            continue;
        }
        if (!ident(*p) || (p > src && ident(p[-1]))) {
            p++;
            continue;
        }
        const char *e = p;
        while (ident(*e))
            e++;
        size_t len = (size_t)(e - p);
        const char *q = e;
        while (*q == ' ')
            q++;
        size_t k = 0;
        for (; *q == '(' && k < r.n; k++)
            if (strlen(r.name[k]) == len && !memcmp(r.name[k], p, len))
                break;
        /* a definition or declaration of the wrapper has a type first */
        if (*q != '(' || k == r.n || !strncmp(q + 1, "const cJSON *", 13)) {
            p = e;
            continue;
        }
        const char *a = skip_arg(q + 1);
        if (*a == ',') {
            a++;
            while (*a == ' ' || *a == '\n')
                a++;
            if (*a == '"') {
                const char *end = skip_literal(a);
                char key[256];
                size_t kl = (size_t)(end - a) - 2;
                /* "a" "b" concatenations and escapes are not plain keys */
                if (kl < sizeof(key) && !memchr(a + 1, '\\', kl)) {
                    memcpy(key, a + 1, kl);
                    key[kl] = 0;
                    f->calls++;
                    if (r.typed[k] && !result_schema_find(key))
                        report(f, file, src, p, key, r.name[k], "not a path of the schema table");
                    else if (!r.typed[k] && !result_schema_leaf(key) && !fio_key(file, key))
                        report(f, file, src, p, key, r.name[k], "no path of the schema table ends in it");
                }
            }
        }
        p = e;
    }
}

static char *slurp_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    char chunk[65536];
    while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0) {
        if (len + n + 2 > cap) {
            cap = 2 * (len + n + 2);
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(fp);
                return NULL;
            }
            buf = nb;
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    fclose(fp);
    if (!buf && !(buf = malloc(2)))
        return NULL;
    /* a leading newline lets "\nstatic " find a wrapper on the first line */
    memmove(buf + 1, buf, len);
    buf[0] = '\n';
    buf[len + 1] = 0;
    return buf;
}

TEST(scanner_finds_known_and_unknown_keys)
{
    struct finding f = {0};
    scan("made-up.c",
         "\nstatic double my_num(const cJSON *o, const char *k)\n{ return result_num(o, k, 0); }\n"
         "void g(const cJSON *d) {\n"
         "    result_num(result_get(d, \"phases\"), \"iops\", 0);\n"
         "    my_num(cJSON_GetArrayItem(d, 0), \"elapsed_s\");\n"
         "    result_snum(d, \"phases[].results[].<dir>.iops\");\n"
         "    /* result_num(d, \"not_a_key_in_a_comment\", 0) */\n"
         "    puts(\"result_num(d, \\\"not_a_key_in_a_string\\\", 0)\");\n"
         "}\n",
         &f);
    CHECK(f.bad == 0 && f.calls == 4, "%u bad (%s), %u calls", f.bad, f.first, f.calls);
    struct finding g = {0};
    scan("made-up.c", "\nstatic const char *s(const cJSON *o, const char *k);\nvoid h(const cJSON *d)\n{\n"
                      "    s(d, \"iopz\");\n}\n", &g);
    CHECK(g.bad == 1 && strstr(g.first, "made-up.c:5: s(..., \"iopz\")"), "wrapper: %u %s", g.bad, g.first);
    struct finding t = {0};
    scan("made-up.c", "\nvoid h(const cJSON *d) { result_snum(d, \"iops\"); result_str(d, \"no_such_key_x\", \"\"); }",
         &t);
    CHECK(t.bad == 2 && strstr(t.first, "not a path of the schema table"), "typed: %u %s", t.bad, t.first);
}

TEST(every_renderer_key_is_in_the_schema)
{
    DIR *d = opendir("src/output");
    CHECK(d, "src/output: run from the top of the tree");
    struct finding f = {0};
    unsigned files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 3 || strcmp(e->d_name + n - 2, ".c") != 0)
            continue;
        char path[512];
        snprintf(path, sizeof(path), "src/output/%s", e->d_name);
        char *src = slurp_file(path);
        if (!src)
            continue;
        scan(path, src, &f);
        free(src);
        files++;
    }
    closedir(d);
    printf("  %u renderer files, %u reads with a literal key\n", files, f.calls);
    CHECK(files >= 20 && f.calls >= 500, "only %u files, %u reads found", files, f.calls);
    CHECK(f.bad == 0, "%u keys not in the schema; first: %s", f.bad, f.first);
}

CHECK_MAIN()
