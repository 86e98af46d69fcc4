/* test_cli_opts.c - the command option tables: the typed parsers
 * (percentage, size, duration, whole number, real, enum) with exact values
 * and their one-line refusals naming option and value, a typed table
 * storing into its configuration, and every registered command table
 * consistent with its fields (cli_opts_check) and present in the man text
 * it generates. */
#include "check.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "cli/cli_value.h"

static char msg[512];

TEST(percent_values)
{
    double x = -1;
    CHECK(cli_parse_pct("--range", "20", 0, 100, CLI_LO_OPEN, &x, msg, sizeof(msg)) == 0 && x == 20, "%g", x);
    CHECK(cli_parse_pct("--range", "12.5%", 0, 100, CLI_LO_OPEN, &x, msg, sizeof(msg)) == 0 && x == 12.5, "%g", x);
    CHECK(cli_parse_pct("--range", "100", 0, 100, CLI_LO_OPEN, &x, msg, sizeof(msg)) == 0 && x == 100, "%g", x);
    CHECK(cli_parse_pct("--op", "0", 0, 100, CLI_HI_OPEN, &x, msg, sizeof(msg)) == 0 && x == 0, "%g", x);
}

TEST(percent_refusals)
{
    double x = 7;
    CHECK(cli_parse_pct("--range", "0", 0, 100, CLI_LO_OPEN, &x, msg, sizeof(msg)) < 0, "0 in (0, 100]");
    CHECK(!strcmp(msg, "--range: '0' is not a percentage in (0, 100]"), "%s", msg);
    CHECK(cli_parse_pct("--op", "100", 0, 100, CLI_HI_OPEN, &x, msg, sizeof(msg)) < 0, "100 in [0, 100)");
    CHECK(!strcmp(msg, "--op: '100' is not a percentage in [0, 100)"), "%s", msg);
    const char *bad[] = {"", "x", "20%%", "20 %", "nan", "inf", "-1", "100.5", "5x", NULL};
    for (int i = 0; bad[i]; i++)
        CHECK(cli_parse_pct("--range", bad[i], 0, 100, CLI_LO_OPEN, &x, msg, sizeof(msg)) < 0, "'%s'", bad[i]);
    CHECK(x == 7, "refused values leave the target alone (%g)", x);
}

TEST(size_values_and_units)
{
    uint64_t b = 0;
    CHECK(cli_parse_size("--bs", "4k", 1, UINT64_MAX, 0, &b, msg, sizeof(msg)) == 0 && b == 4096, "%llu",
          (unsigned long long)b);
    CHECK(cli_parse_size("--bs", "4KB", 1, UINT64_MAX, 0, &b, msg, sizeof(msg)) == 0 && b == 4096, "%llu",
          (unsigned long long)b);
    /* fio's kb_base=1024: a KiB spelling is a power of 1000 (the note the docs carry) */
    CHECK(cli_parse_size("--bs", "4KiB", 1, UINT64_MAX, 0, &b, msg, sizeof(msg)) == 0 && b == 4000, "%llu",
          (unsigned long long)b);
    CHECK(cli_parse_size("--bs", "16g", 1, UINT64_MAX, 0, &b, msg, sizeof(msg)) == 0 && b == 16ull << 30, "%llu",
          (unsigned long long)b);
    CHECK(cli_parse_size("--bs", "1536", 512, 64u << 20, 512, &b, msg, sizeof(msg)) == 0 && b == 1536, "%llu",
          (unsigned long long)b);
}

TEST(size_refusals)
{
    uint64_t b = 9;
    CHECK(cli_parse_size("--dirth-bs", "513", 512, 64u << 20, 512, &b, msg, sizeof(msg)) < 0, "513");
    CHECK(!strcmp(msg, "--dirth-bs: '513' is not a size in 512..64MiB, a multiple of 512"), "%s", msg);
    CHECK(cli_parse_size("--active-amount", "0", 1, UINT64_MAX, 0, &b, msg, sizeof(msg)) < 0, "0");
    CHECK(strstr(msg, "--active-amount: '0' is not a size") == msg, "%s", msg);
    CHECK(cli_parse_size("--dirth-bs", "65m", 512, 64u << 20, 512, &b, msg, sizeof(msg)) < 0, "65m");
    CHECK(cli_parse_size("--x", "4q", 1, UINT64_MAX, 0, &b, msg, sizeof(msg)) < 0, "4q");
    CHECK(cli_parse_size("--x", "-4k", 1, UINT64_MAX, 0, &b, msg, sizeof(msg)) < 0, "-4k");
    CHECK(b == 9, "%llu", (unsigned long long)b);
    char s[32];
    cli_size_str(64u << 20, s, sizeof(s));
    CHECK(!strcmp(s, "64MiB"), "%s", s);
    cli_size_str(1536, s, sizeof(s));
    CHECK(!strcmp(s, "1536"), "%s", s);
}

TEST(duration_values)
{
    uint64_t ns = 0;
    CHECK(cli_parse_duration("--t", "10", 1000000000ull, 0, UINT64_MAX, 0, &ns, msg, sizeof(msg)) == 0 &&
              ns == 10000000000ull, "%llu", (unsigned long long)ns);
    CHECK(cli_parse_duration("--t", "1m", 1000000000ull, 0, UINT64_MAX, 0, &ns, msg, sizeof(msg)) == 0 &&
              ns == 60000000000ull, "m is minutes: %llu", (unsigned long long)ns);
    CHECK(cli_parse_duration("--t", "1.5s", 1000000000ull, 0, UINT64_MAX, 0, &ns, msg, sizeof(msg)) == 0 &&
              ns == 1500000000ull, "%llu", (unsigned long long)ns);
    CHECK(cli_parse_duration("--t", "250ms", 1000000000ull, 0, UINT64_MAX, 0, &ns, msg, sizeof(msg)) == 0 &&
              ns == 250000000ull, "%llu", (unsigned long long)ns);
    CHECK(cli_parse_duration("--t", "24h", 1000000000ull, 1, UINT64_MAX, 1, &ns, msg, sizeof(msg)) == 0 &&
              ns == 86400000000000ull, "%llu", (unsigned long long)ns);
}

TEST(duration_refusals)
{
    uint64_t ns = 3;
    CHECK(cli_parse_duration("--round-time", "0", 1000000000ull, 1, UINT64_MAX, 0, &ns, msg, sizeof(msg)) < 0, "0");
    CHECK(!strcmp(msg, "--round-time: '0': must be more than 0"), "%s", msg);
    CHECK(cli_parse_duration("--duration", "1.5s", 1000000000ull, 1, UINT64_MAX, 1, &ns, msg, sizeof(msg)) < 0,
          "not whole seconds");
    CHECK(!strcmp(msg, "--duration: '1.5s' is not a whole number of seconds"), "%s", msg);
    CHECK(cli_parse_duration("--ramp", "soon", 1000000000ull, 0, UINT64_MAX, 0, &ns, msg, sizeof(msg)) < 0, "soon");
    CHECK(strstr(msg, "--ramp: ") == msg && strstr(msg, "'soon'"), "%s", msg);
    CHECK(ns == 3, "%llu", (unsigned long long)ns);
}

TEST(uint_and_real)
{
    uint64_t n = 0;
    double d = 0;
    CHECK(cli_parse_uint("--tc", "0x10", 1, 64, &n, msg, sizeof(msg)) == 0 && n == 16, "%llu", (unsigned long long)n);
    CHECK(cli_parse_uint("--tc", "65", 1, 64, &n, msg, sizeof(msg)) < 0, "65");
    CHECK(!strcmp(msg, "--tc: '65' is not a number in 1..64"), "%s", msg);
    CHECK(cli_parse_uint("--tc", "-1", 1, 64, &n, msg, sizeof(msg)) < 0, "-1");
    CHECK(cli_parse_real("--capacity-scale", "0.25", 0, 100, CLI_LO_OPEN, &d, msg, sizeof(msg)) == 0 && d == 0.25,
          "%g", d);
    CHECK(cli_parse_real("--capacity-scale", "0", 0, 100, CLI_LO_OPEN, &d, msg, sizeof(msg)) < 0, "0");
    CHECK(!strcmp(msg, "--capacity-scale: '0' is not a number in (0, 100]"), "%s", msg);
    CHECK(cli_parse_real("--capacity-scale", "1%", 0, 100, CLI_LO_OPEN, &d, msg, sizeof(msg)) < 0, "1%%");
}

static const struct cli_enum engines[] = {{"io_uring", 1}, {"libaio", 2}, {"psync", 3}, {NULL, 0}};

TEST(enum_values)
{
    int e = 0;
    CHECK(cli_parse_enum("--engine", "libaio", engines, &e, msg, sizeof(msg)) == 0 && e == 2, "%d", e);
    CHECK(cli_parse_enum("--engine", "LIBAIO", engines, &e, msg, sizeof(msg)) < 0, "names are exact");
    CHECK(cli_parse_enum("--engine", "aio", engines, &e, msg, sizeof(msg)) < 0, "aio");
    CHECK(!strcmp(msg, "--engine: 'aio' is not io_uring, libaio or psync"), "%s", msg);
    CHECK(e == 2, "%d", e);
}

/* a table over a configuration of every typed kind */
struct demo {
    bool flag;
    int mode;
    const char *str;
    const char *list[2];
    unsigned nlist;
    unsigned n;
    uint64_t tick_ns, t_ns, bytes;
    uint32_t secs;
    double pct;
    int eng;
};

#define D(f) CLI_AT(struct demo, f)
static const struct cli_opt demo_opts[] = {
    CLI_TEXT("usage: demo"),
    {.name = "--flag", .help = "a flag", .type = CLI_T_FLAG, D(flag)},
    {.name = "--mode", .help = "a constant", .type = CLI_T_CONST, D(mode), .ival = 7},
    {.name = "--str", .value = "S", .help = "a string", .type = CLI_T_STR, D(str)},
    {.name = "--item", .value = "S", .help = "repeatable", .type = CLI_T_STRS, D(list), CLI_COUNT(struct demo, nlist)},
    {.name = "--n", .value = "N", .help = "a number", .dflt = "3", .type = CLI_T_UINT, D(n), .ulo = 1, .uhi = 10},
    {.name = "--tick-ms", .value = "MS", .help = "scaled", .type = CLI_T_UINT, D(tick_ns), .ulo = 1, .uhi = 1000,
     .scale = 1000000},
    {.name = "--t", .value = "TIME", .help = "a time", .type = CLI_T_TIME, D(t_ns)},
    {.name = "--secs", .value = "TIME", .help = "whole seconds", .type = CLI_T_TIME, D(secs), .ulo = 1000000000ull,
     .flags = CLI_WHOLE},
    {.name = "--size", .value = "SIZE", .help = "a size", .type = CLI_T_SIZE, D(bytes), .ulo = 1},
    {.name = "--pct", .value = "PCT", .help = "a percentage", .type = CLI_T_PCT, D(pct), .lo = 0, .hi = 100,
     .flags = CLI_LO_OPEN},
    {.name = "--engine", .value = "E", .help = "an enum", .type = CLI_T_ENUM, D(eng), .enums = engines},
    CLI_OPTS_END,
};
#undef D
static const struct cli_cmd_opts demo = {.cmd = "demo", .man_section = "DEMO", .opts = demo_opts, .col = 20};

static int no_operand(const char *s, void *cfg)
{
    (void)s;
    (void)cfg;
    return -1;
}

TEST(table_stores_by_type)
{
    CHECK(cli_opts_check(&demo, msg, sizeof(msg)) == 0, "%s", msg);
    struct demo d = {0};
    char *argv[] = {"demo", "--flag", "--mode", "--str=a", "--item", "x", "--item=y", "--n", "0x3", "--tick-ms=5",
                    "--t", "2m", "--secs=1h", "--size=64k", "--pct", "50%", "--engine", "psync", NULL};
    int argc = (int)(sizeof(argv) / sizeof(argv[0])) - 1;
    CHECK(cli_opts_parse(&demo, argc, argv, &d, NULL, no_operand) == 0, "parse");
    CHECK(d.flag && d.mode == 7 && !strcmp(d.str, "a"), "flag %d mode %d", d.flag, d.mode);
    CHECK(d.nlist == 2 && !strcmp(d.list[0], "x") && !strcmp(d.list[1], "y"), "list %u", d.nlist);
    CHECK(d.n == 3 && d.tick_ns == 5000000ull && d.t_ns == 120000000000ull, "n %u tick %llu t %llu", d.n,
          (unsigned long long)d.tick_ns, (unsigned long long)d.t_ns);
    CHECK(d.secs == 3600 && d.bytes == 65536 && d.pct == 50 && d.eng == 3, "secs %u bytes %llu pct %g eng %d",
          d.secs, (unsigned long long)d.bytes, d.pct, d.eng);
}

TEST(table_refusals)
{
    struct demo d = {0};
    char *a1[] = {"demo", "--item=1", "--item=2", "--item=3", NULL};
    CHECK(cli_opts_parse(&demo, 4, a1, &d, NULL, no_operand) < 0 && d.nlist == 2, "a third item is refused");
    char *a2[] = {"demo", "--n", "11", NULL};
    CHECK(cli_opts_parse(&demo, 3, a2, &d, NULL, no_operand) < 0 && d.n == 0, "11 > 10");
    char *a3[] = {"demo", "--tick-ms=1001", NULL};
    CHECK(cli_opts_parse(&demo, 2, a3, &d, NULL, no_operand) < 0 && d.tick_ns == 0, "1001 ms");
    char *a4[] = {"demo", "--flag=1", NULL};
    CHECK(cli_opts_parse(&demo, 2, a4, &d, NULL, no_operand) < 0 && !d.flag, "a flag takes no value");
    char *a5[] = {"demo", "--n", NULL};
    CHECK(cli_opts_parse(&demo, 2, a5, &d, NULL, no_operand) < 0, "needs a value");
    char *a6[] = {"demo", "--", "--flag", NULL};
    CHECK(cli_opts_parse(&demo, 3, a6, &d, NULL, no_operand) < 0 && !d.flag, "after -- an operand");
}

TEST(check_finds_bad_tables)
{
    static const struct cli_opt bad1[] = {
        {.name = "--n", .value = "N", .help = "x", .type = CLI_T_UINT, CLI_AT(struct demo, n), .ulo = 5, .uhi = 4},
        CLI_OPTS_END};
    static const struct cli_opt bad2[] = {
        {.name = "--f", .help = "x", .type = CLI_T_FLAG, CLI_AT(struct demo, n)}, CLI_OPTS_END};
    static const struct cli_opt bad3[] = {
        {.name = "--e", .value = "E", .help = "x", .type = CLI_T_ENUM, CLI_AT(struct demo, eng)}, CLI_OPTS_END};
    static const struct cli_opt bad4[] = {
        {.name = "--a", .help = "x", .type = CLI_T_FLAG, CLI_AT(struct demo, flag)},
        {.name = "--a", .help = "y", .type = CLI_T_FLAG, CLI_AT(struct demo, flag)}, CLI_OPTS_END};
    const struct cli_opt *bad[] = {bad1, bad2, bad3, bad4};
    for (unsigned i = 0; i < 4; i++) {
        struct cli_cmd_opts c = {.cmd = "bad", .opts = bad[i]};
        CHECK(cli_opts_check(&c, msg, sizeof(msg)) < 0, "table %u passed", i);
    }
}

TEST(every_command_table)
{
    unsigned n = 0;
    for (const struct cli_cmd_opts *const *c = cli_tables; *c; c++, n++) {
        CHECK(cli_opts_check(*c, msg, sizeof(msg)) == 0, "%s", msg);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        CHECK(f && cli_opts_dump(f, "man", (*c)->cmd) == 0, "%s", (*c)->cmd);
        fclose(f);
        /* every typed option is in the man text, its dashes escaped */
        for (const struct cli_opt *o = (*c)->opts; o->name || o->help; o++) {
            if (!o->name || o->type == CLI_T_ID)
                continue;
            char want[96] = "";
            size_t k = 0;
            for (const char *p = o->name; *p && k + 3 < sizeof(want); p++) {
                if (*p == '-')
                    want[k++] = '\\';
                want[k++] = *p;
            }
            want[k] = 0;
            CHECK(strstr(buf, want), "%s %s not in its man text", (*c)->cmd, o->name);
        }
        free(buf);
    }
    CHECK(n >= 3, "%u tables", n);
}

/* act-analyze's conventions: "-t3600", another tool's spelling, -h NAME */
static const struct cli_opt getopt_opts[] = {
    {.name = "--slice", .alias = "-t", .value = "S", .help = "x", .type = CLI_T_UINT, CLI_AT(struct demo, n),
     .ulo = 1, .uhi = 100000, .flags = CLI_GETOPT},
    {.name = "--num-buckets", .alias = "-n", .alt = "--num_buckets", .value = "N", .help = "x",
     .type = CLI_T_UINT, CLI_AT(struct demo, secs), .ulo = 1, .uhi = 64},
    {.name = "--histogram", .alias = "-h", .value = "NAME", .help = "x", .type = CLI_T_STR,
     CLI_AT(struct demo, str)},
    CLI_OPTS_END,
};
static const struct cli_cmd_opts getopt_cmd = {.cmd = "g", .opts = getopt_opts, .col = 20};

TEST(getopt_conventions)
{
    CHECK(cli_opts_check(&getopt_cmd, msg, sizeof(msg)) == 0, "%s", msg);
    struct demo d = {0};
    char *argv[] = {"g", "-t3600", "--num_buckets=5", "-h", "reads", NULL};
    CHECK(cli_opts_parse(&getopt_cmd, 5, argv, &d, NULL, no_operand) == 0, "parse");
    CHECK(d.n == 3600 && d.secs == 5 && d.str && !strcmp(d.str, "reads"), "n %u secs %u", d.n, d.secs);
    char *help[] = {"g", "-h", NULL};
    FILE *keep = stdout;
    stdout = fopen("/dev/null", "w");
    int rc = cli_opts_parse(&getopt_cmd, 2, help, &d, NULL, no_operand);
    fclose(stdout);
    stdout = keep;
    CHECK(rc == 1, "-h as the last word is help (%d)", rc);
    char *notattached[] = {"g", "-n5", NULL};
    CHECK(cli_opts_parse(&getopt_cmd, 2, notattached, &d, NULL, no_operand) < 0, "-n5 without CLI_GETOPT");
}

TEST(shared_output_options)
{
    struct cli_output o;
    cli_output_init(&o);
    char *argv[] = {"x", "--format=json", "-o", "f.txt", "--destroy", "/dev/a", "--quiet", "--ranks-per-host=2",
                    "--archive", "--tag", "k=v", NULL};
    int i = 1;
    CHECK(cli_output_option(&i, 11, argv, &o) == 1 && i == 1 && o.format == FMT_JSON, "--format=json");
    i = 2;
    CHECK(cli_output_option(&i, 11, argv, &o) == 1 && i == 3 && !strcmp(o.output, "f.txt"), "-o FILE");
    i = 4;
    CHECK(cli_output_option(&i, 11, argv, &o) == 1 && o.consent.n == 1 && !strcmp(o.consent.paths[0], "/dev/a"),
          "--destroy");
    i = 6;
    CHECK(cli_output_option(&i, 11, argv, &o) == 1 && o.quiet, "--quiet");
    i = 7;
    CHECK(cli_output_option(&i, 11, argv, &o) == 1 && o.ranks_per_host == 2, "--ranks-per-host");
    /* --archive and --tag only where a result is written (a journal) */
    i = 8;
    CHECK(cli_output_option(&i, 11, argv, &o) == 0 && !o.archive, "--archive without a journal");
    char *bad[] = {"x", "--format", "yaml", NULL};
    i = 1;
    CHECK(cli_output_option(&i, 3, bad, &o) < 0 && o.format == FMT_JSON, "yaml");
    char *last[] = {"x", "--result", NULL};
    i = 1;
    CHECK(cli_output_option(&i, 2, last, &o) < 0 && !o.result, "--result needs a value");
}

/* A shared option's words are written once, in the shared table: a
 * command's row shows them (with its note on the next line), and a row that
 * writes them again, or a note on a row of the command's own, is refused. */
TEST(shared_rows_come_from_the_shared_table)
{
    static const struct cli_opt rows[] = {
        CLI_SHARED("--result"), CLI_SHARED_NOTE("--quiet", "no progress dots either"),
        {.name = "--format", .value = "text|json"}, CLI_OPTS_END};
    static const struct cli_cmd_opts cmd = {.cmd = "s", .opts = rows, .col = 20};
    CHECK(cli_opts_check(&cmd, msg, sizeof(msg)) == 0, "%s", msg);
    bool jo = true;
    const struct cli_opt *r = cli_shared_find("--result", 0, &jo);
    CHECK(r && r->help && !jo, "--result in the shared table");
    CHECK(cli_shared_find("--tag", 0, &jo) && jo, "--tag only where a result is written");
    CHECK(!cli_shared_find("--nosuch", 0, NULL), "--nosuch");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cli_opts_help(f, &cmd);
    fclose(f);
    char want[256];
    snprintf(want, sizeof(want), "  --result FILE     %s\n", r->help);
    CHECK(strstr(buf, want), "%s", buf);
    CHECK(strstr(buf, "  --quiet, -q       no live status line\n                    no progress dots either\n"), "%s",
          buf);
    CHECK(strstr(buf, "  --format text|json\n"), "%s", buf);   /* its own formats, the shared text */
    free(buf);
    static const struct cli_opt again[] = {CLI_ROW("--result", NULL, "FILE", "save it", 0), CLI_OPTS_END};
    static const struct cli_opt stray[] = {{.name = "--mine", .note = "x", .help = "y", .id = 3}, CLI_OPTS_END};
    const struct cli_opt *bad[] = {again, stray};
    for (unsigned i = 0; i < 2; i++) {
        struct cli_cmd_opts c = {.cmd = "bad", .opts = bad[i]};
        CHECK(cli_opts_check(&c, msg, sizeof(msg)) < 0, "table %u passed", i);
    }
    /* the man page's COMMON OPTIONS has every shared option */
    buf = NULL;
    f = open_memstream(&buf, &len);
    CHECK(cli_opts_dump(f, "man", "common") == 0, "common");
    fclose(f);
    for (unsigned i = 0; (r = cli_shared_find(NULL, i, NULL)); i++) {
        char dashed[64];
        size_t k = 0;
        for (const char *p = r->name; *p && k + 3 < sizeof(dashed); p++) {
            if (*p == '-')
                dashed[k++] = '\\';
            dashed[k++] = *p;
        }
        dashed[k] = 0;
        CHECK(strstr(buf, dashed), "%s not in COMMON OPTIONS", r->name);
    }
    free(buf);
}

TEST(help_prints_default)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cli_opts_help(f, &demo);
    fclose(f);
    CHECK(strstr(buf, "  --n N             a number (default 3)\n"), "%s", buf);
    free(buf);
}

CHECK_MAIN()
