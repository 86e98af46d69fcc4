/* cli_opts_typed.c - the typed entries of the option tables: storing a
 * value by its type in the command's configuration (cli_opt_apply), the
 * whole parse loop of a command on a table (cli_opts_parse) and its help
 * text (cli_opts_help). See cli_opts.h. */
#include <string.h>

#include "job/spec_parse.h"
#include "cli/cli.h"
#include "cli/cli_opts.h"

/* The largest value a field of size bytes holds (unsigned). */
static uint64_t field_max(size_t size)
{
    return size >= 8 ? UINT64_MAX : size == 4 ? UINT32_MAX : size == 2 ? UINT16_MAX : UINT8_MAX;
}

static void store_u(void *p, size_t size, uint64_t x)
{
    if (size == 8) {
        uint64_t v = x;
        memcpy(p, &v, 8);
    } else if (size == 4) {
        uint32_t v = (uint32_t)x;
        memcpy(p, &v, 4);
    } else if (size == 2) {
        uint16_t v = (uint16_t)x;
        memcpy(p, &v, 2);
    } else {
        uint8_t v = (uint8_t)x;
        memcpy(p, &v, 1);
    }
}

static uint64_t load_u(const void *p, size_t size)
{
    if (size == 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static void store_int(void *p, size_t size, int x)
{
    if (size == sizeof(int))
        memcpy(p, &x, sizeof(int));
    else
        store_u(p, size, (uint64_t)(unsigned)x);
}

static uint64_t hi_of(const struct cli_opt *o, size_t size)
{
    uint64_t m = field_max(size);
    return o->uhi && o->uhi < m ? o->uhi : m;
}

int cli_opt_apply(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    char *field = (char *)c->cfg + o->off;
    char msg[512];
    int rc = 0;
    switch (o->type) {
    case CLI_T_ID:
        cli_err("%s: %s is not handled here", c->cmd, o->name);
        return -1;
    case CLI_T_FLAG: {
        bool t = true;
        memcpy(field, &t, sizeof(t));
        return 0;
    }
    case CLI_T_CONST:
        store_int(field, o->size, o->ival);
        return 0;
    case CLI_T_STR:
        memcpy(field, &v, sizeof(v));
        return 0;
    case CLI_T_STRS: {
        char *cnt = (char *)c->cfg + o->count_off;
        uint64_t n = load_u(cnt, o->count_size), max = o->size / sizeof(const char *);
        if (n >= max) {
            cli_err("%s: at most %llu values ('%s')", o->name, (unsigned long long)max, v);
            return -1;
        }
        memcpy(field + n * sizeof(const char *), &v, sizeof(v));
        store_u(cnt, o->count_size, n + 1);
        return 0;
    }
    case CLI_T_UINT: {
        uint64_t x, s = o->scale ? o->scale : 1;
        uint64_t hi = o->uhi ? o->uhi : field_max(o->size) / s; /* the range in the value's units */
        rc = cli_parse_uint(o->name, v, o->ulo, hi, &x, msg, sizeof(msg));
        if (rc == 0)
            store_u(field, o->size, x * s);
        break;
    }
    case CLI_T_SIZE: {
        uint64_t x;
        rc = cli_parse_size(o->name, v, o->ulo, hi_of(o, o->size), o->scale, &x, msg, sizeof(msg));
        if (rc == 0)
            store_u(field, o->size, x);
        break;
    }
    case CLI_T_TIME: {
        uint64_t unit = o->scale ? o->scale : SPEC_NS_PER_S, ns;
        bool whole = o->flags & CLI_WHOLE;
        uint64_t hi = o->uhi ? o->uhi : UINT64_MAX;
        rc = cli_parse_duration(o->name, v, unit, o->ulo, hi, whole, &ns, msg, sizeof(msg));
        if (rc == 0)
            store_u(field, o->size, whole ? ns / unit : ns);
        break;
    }
    case CLI_T_PCT:
    case CLI_T_REAL: {
        double x;
        rc = o->type == CLI_T_PCT ? cli_parse_pct(o->name, v, o->lo, o->hi, o->flags, &x, msg, sizeof(msg))
                                  : cli_parse_real(o->name, v, o->lo, o->hi, o->flags, &x, msg, sizeof(msg));
        if (rc == 0)
            memcpy(field, &x, sizeof(x));
        break;
    }
    case CLI_T_ENUM: {
        int x;
        rc = cli_parse_enum(o->name, v, o->enums, &x, msg, sizeof(msg));
        if (rc == 0)
            store_int(field, o->size, x);
        break;
    }
    case CLI_T_CALL:
        return o->set(c, o, v);
    }
    if (rc < 0)
        cli_err("%s", msg);
    return rc;
}

int cli_opts_parse(const struct cli_cmd_opts *c, int argc, char **argv, void *cfg, struct cli_output *out,
                   int (*operand)(const char *s, void *cfg))
{
    const struct cli_ctx ctx = {.cmd = c->cmd, .cfg = cfg, .out = out};
    return cli_opts_parse_ctx(c, argc, argv, &ctx, operand);
}

int cli_opts_parse_ctx(const struct cli_cmd_opts *c, int argc, char **argv, const struct cli_ctx *ctx,
                       int (*operand)(const char *s, void *cfg))
{
    bool operands = false;
    struct cli_output *out = ctx->out;
    void *cfg = ctx->cfg;
    for (int i = 1; i < argc; i++) {
        if (!operands && out && strcmp(argv[i], "--") != 0) {
            int r = cli_output_option(&i, argc, argv, out);
            if (r < 0)
                return -1;
            if (r > 0)
                continue;
        }
        const char *v;
        const struct cli_opt *hit;
        int id = cli_opts_next_typed(c->cmd, c->opts, &i, argc, argv, &v, &operands, &hit);
        switch (id) {
        case CLI_OPT_HELP:
            cli_opts_help(stdout, c);
            return 1;
        case CLI_OPT_ERROR:
            return -1;
        case CLI_OPT_SKIP:
            continue;
        case CLI_OPT_OPERAND:
            if (operand(argv[i], cfg) < 0)
                return -1;
            continue;
        case CLI_OPT_TYPED:
            if (cli_opt_apply(ctx, hit, v) < 0)
                return -1;
            continue;
        default:
            cli_err("%s: %s is not handled here", c->cmd, argv[i]);
            return -1;
        }
    }
    return 0;
}

void cli_opts_help(FILE *f, const struct cli_cmd_opts *c)
{
    cli_opts_print(f, c->opts, c->col);
}
