/* cli_family.h - the text output that the family commands with a report
 * renderer of their own (pts, suite) share: text through the family's
 * renderer (also into --output FILE, after --result is saved) or any other
 * format through cli_emit. (Their options: cli_opts.h.) */
#ifndef SSDBENCH_CLI_FAMILY_H
#define SSDBENCH_CLI_FAMILY_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "output/render.h"

/* Emits the finished document: text through render (into --output or
 * standard output, after saving --result), other formats via cli_emit.
 * Returns code, or a failure code when writing failed. */
int cli_family_render(cJSON *doc, const struct cli_output *o, int code,
                      void (*render)(FILE *f, const cJSON *doc, const struct render_opts *ro));

#endif
