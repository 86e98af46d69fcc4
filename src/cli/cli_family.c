/* cli_family.c - see cli_family.h. */
#include <stdbool.h>
#include <string.h>

#include "base/outfile.h"
#include "base/textsafe.h"
#include "cli/cli_family.h"


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
