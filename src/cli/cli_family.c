/* cli_family.c - see cli_family.h. */
#include <stdbool.h>
#include <string.h>

#include "base/outfile.h"
#include "base/textsafe.h"
#include "cli/cli_family.h"

int cli_family_parse(int argc, char **argv, const struct cli_family *f, struct cli_output *out)
{
    bool operands = false; /* after `--`: every word is an operand */
    for (int i = 1; i < argc; i++) {
        if (!operands && !strcmp(argv[i], "--")) {
            operands = true;
            continue;
        }
        if (operands) {
            if (f->operand(argv[i], f->arg) < 0)
                return -1;
            continue;
        }
        int r = cli_output_option(&i, argc, argv, out);
        if (r < 0)
            return -1;
        if (r > 0)
            continue;
        const char *s = argv[i];
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            f->usage(stdout);
            return 1;
        }
        if ((r = f->option(&i, argc, argv, f->arg)) < 0)
            return -1;
        if (r > 0)
            continue;
        if (s[0] == '-' && s[1]) {
            char key[64];
            snprintf(key, sizeof(key), "%.*s", (int)strcspn(s, "="), s);
            const char *sg = cli_suggest(key, f->names);
            if (sg)
                cli_err("%s: unknown option '%s' (did you mean '%s'?)", f->cmd, s, sg);
            else
                cli_err("%s: unknown option '%s' (see ssdbench %s --help)", f->cmd, s, f->cmd);
            return -1;
        }
        if (f->operand(s, f->arg) < 0)
            return -1;
    }
    return 0;
}

int cli_family_render(cJSON *doc, const struct cli_output *o, int code,
                      void (*render)(FILE *f, const cJSON *doc, const struct render_opts *ro))
{
    struct render_opts ro = {.summary = true, .details = true};
    if (o->format != FMT_TEXT)
        return cli_emit(doc, o, &ro, code);
    char e2[512];
    if (cli_save_result(doc, o) < 0)
        code = code ? code : CLI_EXIT_FAIL;
    struct outfile of;
    if (outfile_open(&of, o->output ? o->output : "-", e2, sizeof(e2)) < 0) {
        cli_err("%s", e2);
        return code ? code : CLI_EXIT_FAIL;
    }
    FILE *safe = textsafe_open(of.f); /* names and paths escaped */
    render(safe ? safe : of.f, doc, &ro);
    if (safe)
        textsafe_close(safe);
    if (outfile_commit(&of, e2, sizeof(e2)) < 0) {
        cli_err("%s", e2);
        code = code ? code : CLI_EXIT_FAIL;
    }
    fflush(stdout);
    return code;
}
