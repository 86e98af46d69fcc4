/* test_option_effects.c - an option that is accepted must act: the whole job
 * option table (job_option_table) against the checked-in list of what each
 * key changes, tests/fio_option_effects.txt. Every key of the table is
 * listed with a known kind, every listed key is in the table, the test the
 * list names for a key exists and uses the key, and a default-only key
 * refuses the value listed with a one-line error naming the key (its
 * default is taken). The runs showing each formerly inert key's change are
 * tests/integration/fio_option_audit.sh. */
#include "check.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "jobfile/options.h"

#define MAXLINES 512

struct effect {
    char name[64], kind[32], test[128], value[64];
    bool seen;
};

static struct effect effects[MAXLINES];
static unsigned neffects;

/* the repository root: the working directory (tests/run.sh) or from this file */
static const char *root(void)
{
    static char dir[512];
    if (!dir[0]) {
        if (access("tests/fio_option_effects.txt", R_OK) == 0) {
            strcpy(dir, ".");
        } else {
            const char *f = __FILE__;
            const char *slash = strrchr(f, '/');
            snprintf(dir, sizeof(dir), "%.*s/../..", slash ? (int)(slash - f) : 1, slash ? f : ".");
        }
    }
    return dir;
}

static int load(void)
{
    char path[600], line[512];
    snprintf(path, sizeof(path), "%s/tests/fio_option_effects.txt", root());
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    neffects = 0;
    while (fgets(line, sizeof(line), f) && neffects < MAXLINES) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        struct effect *e = &effects[neffects];
        memset(e, 0, sizeof(*e));
        if (sscanf(line, "%63s %31s %127s %63s", e->name, e->kind, e->test, e->value) >= 3)
            neffects++;
    }
    fclose(f);
    return 0;
}

static struct effect *find(const char *name)
{
    for (unsigned i = 0; i < neffects; i++)
        if (!strcmp(effects[i].name, name))
            return &effects[i];
    return NULL;
}

/* whether file (from the root) names the key as a word */
static bool mentions(const char *file, const char *key)
{
    char path[700];
    snprintf(path, sizeof(path), "%s/%s", root(), file);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = 0;
    size_t kl = strlen(key);
    for (const char *p = strstr(buf, key); p; p = strstr(p + 1, key)) {
        char before = p == buf ? ' ' : p[-1], after = p[kl];
        bool wb = !(before == '_' || (before >= 'a' && before <= 'z'));
        bool wa = !(after == '_' || (after >= 'a' && after <= 'z'));
        if (wb && wa)
            return true;
    }
    return false;
}

TEST(every_key_is_listed)
{
    CHECK(load() == 0, "tests/fio_option_effects.txt not found from %s", root());
    unsigned n;
    const struct job_opt *t = job_option_table(&n);
    CHECK(n > 100, "the table has %u keys", n);
    static const char *const kinds[] = {"io", "output", "system", "fio-inert", "default-only"};
    for (unsigned i = 0; i < n; i++) {
        struct effect *e = find(t[i].name);
        CHECK(e != NULL, "option '%s' is accepted but not in tests/fio_option_effects.txt", t[i].name);
        e->seen = true;
        bool known = false;
        for (unsigned k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
            known = known || !strcmp(e->kind, kinds[k]);
        CHECK(known, "option '%s': unknown kind '%s'", e->name, e->kind);
        CHECK(mentions(e->test, e->name), "option '%s': %s does not use it", e->name, e->test);
    }
    for (unsigned i = 0; i < neffects; i++)
        CHECK(effects[i].seen, "'%s' is listed but not in the option table", effects[i].name);
}

TEST(default_only_keys_refuse_the_rest)
{
    CHECK(load() == 0, "tests/fio_option_effects.txt not found");
    unsigned checked = 0;
    for (unsigned i = 0; i < neffects; i++) {
        const struct effect *e = &effects[i];
        if (strcmp(e->kind, "default-only"))
            continue;
        struct job_spec j;
        struct job_extra x;
        char err[256] = "";
        job_defaults(&j);
        job_extra_defaults(&x);
        CHECK(e->value[0], "default-only '%s' names no refused value", e->name);
        int rc = job_set_option(&j, &x, e->name, e->value, err, sizeof(err));
        CHECK(rc < 0 && !strncmp(err, e->name, strlen(e->name)) && !strchr(err, '\n'),
              "%s=%s: rc %d, '%s'", e->name, e->value, rc, err);
        checked++;
    }
    CHECK(checked >= 3, "%u default-only keys", checked); /* create_on_open=1 acts with filecreate; io_submit_mode=offload and dedupe_mode=working_set act */
}

TEST(fio_inert_keys_are_run_by_the_audit)
{
    CHECK(load() == 0, "tests/fio_option_effects.txt not found");
    for (unsigned i = 0; i < neffects; i++)
        if (!strcmp(effects[i].kind, "fio-inert"))
            CHECK(strstr(effects[i].test, "fio_option_audit.sh"), "fio-inert '%s' is shown by %s, not the audit",
                  effects[i].name, effects[i].test);
}

CHECK_MAIN()
