/* cli_opts.c - see cli_opts.h. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"

int cli_opts_next(const char *cmd, const struct cli_opt *t, int *i, int argc, char **argv, const char **value,
                  bool *operands)
{
    const struct cli_opt *hit;
    int id = cli_opts_next_typed(cmd, t, i, argc, argv, value, operands, &hit);
    return id == CLI_OPT_TYPED ? hit->id : id;
}

const struct cli_opt *cli_opts_find(const struct cli_opt *t, const char *a)
{
    size_t klen = strcspn(a, "=");
    for (const struct cli_opt *o = t; o->name || o->help; o++) {
        if (!o->name || (o->type == CLI_T_ID && o->id <= 0))
            continue;
        const char *n[] = {o->name, o->alias, o->alt};
        for (unsigned k = 0; k < 3; k++)
            if (n[k] && strlen(n[k]) == klen && !strncmp(a, n[k], klen))
                return o;
    }
    return NULL;
}

int cli_opts_next_typed(const char *cmd, const struct cli_opt *t, int *i, int argc, char **argv, const char **value,
                        bool *operands, const struct cli_opt **hitp)
{
    const char *a = argv[*i];
    *value = NULL;
    *hitp = NULL;
    if (*operands || a[0] != '-' || !a[1])
        return CLI_OPT_OPERAND;
    if (!strcmp(a, "--")) {
        *operands = true;
        return CLI_OPT_SKIP;
    }
    /* -h is help, unless the table gives it to an option with a value
     * (act-analyze's -h NAME, as ACT's): then only as the last word */
    bool h_taken = false;
    for (const struct cli_opt *o = t; o->name || o->help; o++)
        h_taken |= o->name && o->alias && o->value && !strcmp(o->alias, "-h");
    if (!strcmp(a, "--help") || (!strcmp(a, "-h") && (!h_taken || *i + 1 == argc)))
        return CLI_OPT_HELP;
    size_t klen = strcspn(a, "=");
    for (const struct cli_opt *o = t; o->name || o->help; o++) {
        if (!o->name || (o->type == CLI_T_ID && o->id <= 0))
            continue;
        bool hit = (strlen(o->name) == klen && !strncmp(a, o->name, klen)) ||
                   (o->alias && strlen(o->alias) == klen && !strncmp(a, o->alias, klen)) ||
                   (o->alt && strlen(o->alt) == klen && !strncmp(a, o->alt, klen));
        /* getopt's "-t3600": a short name with its value attached */
        bool attached = !hit && (o->flags & CLI_GETOPT) && o->value && o->alias && strlen(o->alias) == 2 &&
                        a[1] != '-' && a[1] == o->alias[1] && a[2];
        if (attached) {
            *hitp = o;
            *value = a + 2;
            return o->type == CLI_T_ID ? o->id : CLI_OPT_TYPED;
        }
        if (!hit)
            continue;
        *hitp = o;
        int ret = o->type == CLI_T_ID ? o->id : CLI_OPT_TYPED;
        if (!o->value) {
            if (a[klen] == '=') {
                cli_err("%s%s%.*s takes no value", cmd ? cmd : "", cmd ? ": " : "", (int)klen, a);
                return CLI_OPT_ERROR;
            }
            return ret;
        }
        if (!strncmp(o->value, "[=", 2)) { /* an optional value: only after '=' */
            if (a[klen] == '=')
                *value = a + klen + 1;
            return ret;
        }
        if (a[klen] == '=') {
            *value = a + klen + 1;
        } else if (*i + 1 < argc) {
            *value = argv[++*i];
        } else {
            cli_err("%s%s%s needs a value (%s)", cmd ? cmd : "", cmd ? ": " : "", a, o->value);
            return CLI_OPT_ERROR;
        }
        return ret;
    }
    const char *names[CLI_OPTS_MAX + 2];
    unsigned n = 0;
    for (const struct cli_opt *o = t; (o->name || o->help) && n < CLI_OPTS_MAX; o++)
        if (o->name)
            names[n++] = o->name;
    names[n++] = "--help";
    names[n] = NULL;
    char key[64];
    snprintf(key, sizeof(key), "%.*s", (int)klen, a);
    const char *sg = cli_suggest(key, names);
    if (sg)
        cli_err("%s: unknown option '%s' (did you mean '%s'?)", cmd, a, sg);
    else
        cli_err("%s: unknown option '%s' (see ssdbench %s --help)", cmd, a, cmd);
    return CLI_OPT_ERROR;
}
