/* cmd_purge.c - `ssdbench purge TARGET...`: secure discard, else discard,
 * else zero fill (files: punch hole, else zero fill), through the
 * destructive-write guard, and a record of the method used. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "base/signal.h"
#include "result/result.h"
#include "target/purge.h"

int cmd_purge(int argc, char **argv)
{
    struct cli_output out;
    cli_output_init(&out);
    const char *paths[JOB_MAX_TARGETS];
    unsigned n = 0;
    for (int i = 1; i < argc; i++) {
        int r = cli_output_option(&i, argc, argv, &out);
        if (r < 0)
            return CLI_EXIT_USAGE;
        if (r > 0)
            continue;
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: ssdbench purge [--destroy PATH]... [--result FILE] [--format text|json] TARGET...\n"
                   "Returns each target to an as-if-never-written state: secure discard, else\n"
                   "discard, else zero fill (regular files: punch hole, else zero fill), and says\n"
                   "which method worked. Writing needs the same consent as any write (--destroy).\n");
            return 0;
        }
        if (a[0] == '-' && a[1]) {
            cli_err("purge: unknown option '%s' (see ssdbench purge --help)", a);
            return CLI_EXIT_USAGE;
        }
        if (n == JOB_MAX_TARGETS) {
            cli_err("purge: at most %d targets", JOB_MAX_TARGETS);
            return CLI_EXIT_USAGE;
        }
        struct stat sb;
        if (stat(a, &sb) < 0) {
            cli_err("purge: %s: %s", a, strerror(errno));
            return CLI_EXIT_USAGE;
        }
        paths[n++] = a;
    }
    if (!n) {
        cli_err("purge: which device? usage: ssdbench purge --destroy DEV DEV");
        return CLI_EXIT_USAGE;
    }
    if (out.format != FMT_TEXT && out.format != FMT_JSON) {
        cli_err("purge: --format text or json");
        return CLI_EXIT_USAGE;
    }
    signal_install();
    cJSON *doc = result_new(argc, argv);
    cJSON *arr = cJSON_AddArrayToObject(doc, "purge");
    int status = 0;
    char err[512];
    for (unsigned i = 0; i < n; i++) {
        struct purge_report r;
        int rc = purge_target(paths[i], &out.consent, &r, err, sizeof(err));
        if (rc < 0) {
            cli_err("%s", err);
            status = rc == -EPERM || rc == -EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
            break;
        }
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "target", r.path);
        cJSON_AddStringToObject(o, "method", purge_method_name(r.method));
        cJSON_AddNumberToObject(o, "offset", (double)r.offset);
        cJSON_AddNumberToObject(o, "length", (double)r.length);
        cJSON_AddNumberToObject(o, "elapsed_s", r.elapsed_s);
        if (r.notes[0])
            cJSON_AddStringToObject(o, "notes", r.notes);
        cJSON_AddItemToArray(arr, o);
        if (out.format == FMT_TEXT)
            printf("%s: %s, %llu bytes in %.2f s%s%s%s\n", r.path, purge_method_name(r.method),
                   (unsigned long long)r.length, r.elapsed_s, r.notes[0] ? " (" : "", r.notes,
                   r.notes[0] ? ")" : "");
    }
    result_finish(doc, signal_received() != 0, signal_received());
    if (out.result && result_write(doc, out.result, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        status = status ? status : CLI_EXIT_FAIL;
    }
    if (out.format == FMT_JSON && result_write(doc, out.output ? out.output : "-", err, sizeof(err)) < 0) {
        cli_err("%s", err);
        status = status ? status : CLI_EXIT_FAIL;
    }
    cJSON_Delete(doc);
    return status;
}
