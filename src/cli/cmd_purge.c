/* cmd_purge.c - `ssdbench purge TARGET...`: the device's own erase (NVMe
 * sanitize / format, ATA security erase / sanitize, SCSI sanitize / format
 * unit) where it has one, else secure discard, discard, zero fill (files:
 * punch hole, else zero fill), through the destructive-write guard
 * (prep/prep_purge.h), and a record of the method used. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cli_dry.h"
#include "cli/cli_opts.h"
#include "cli/commands.h"
#include "base/signal.h"
#include "result/result.h"
#include "prep/prep_purge.h"
#include "target/purge.h"

enum { O_PURGE_METHOD = 1, O_DRY_RUN };

static const struct cli_opt purge_opts[] = {
    CLI_ROW(NULL, NULL, NULL,
     "usage: ssdbench purge [--destroy PATH]... [--purge-method auto|block] [--result FILE]\n"
     "                      [--format text|json] [--dry-run] TARGET...\n"
     "Returns each target to an as-if-never-written state: the device's own erase\n"
     "(NVMe sanitize or format with secure erase, ATA security erase or sanitize, SCSI\n"
     "sanitize or format unit), else secure discard, discard, zero fill (regular\n"
     "files: punch hole, else zero fill), and says which method worked. Writing needs\n"
     "the same consent as any write (--destroy); a device's erase command needs the\n"
     "device named with --destroy, and an NVMe sanitize every other namespace with\n"
     "data too. A zoned device: every zone reset (BLKRESETZONE).", 0),
    CLI_SHARED("--destroy"),
    CLI_ROW("--purge-method", NULL, "auto|block", "auto (default): the device's own erase where it has one;\n"
                                         "block: the block layer's methods only", O_PURGE_METHOD),
    {.name = "--format", .value = "text|json"},
    CLI_SHARED_NOTE("--output", "with --format json"),
    CLI_SHARED("--result"),
    CLI_ROW("--dry-run", NULL, NULL, "name each target with what the guard says about it; purge nothing\n"
                              "(a missing target: exit 2)", O_DRY_RUN),
    CLI_ROW("--help", "-h", NULL, "this text", 0),
    CLI_OPTS_END,
};

int cmd_purge(int argc, char **argv)
{
    struct cli_output out;
    cli_output_init(&out);
    const char *paths[JOB_MAX_TARGETS];
    unsigned n = 0;
    enum rpurge_mode mode = RPURGE_AUTO;
    bool operands = false, dry = false;
    for (int i = 1; i < argc; i++) {
        int r = operands ? 0 : cli_output_option(&i, argc, argv, &out);
        if (r < 0)
            return CLI_EXIT_USAGE;
        if (r > 0)
            continue;
        const char *a = argv[i], *pv;
        int id = cli_opts_next("purge", purge_opts, &i, argc, argv, &pv, &operands);
        if (id == CLI_OPT_HELP) {
            cli_opts_print(stdout, purge_opts, 30);
            return 0;
        }
        if (id == CLI_OPT_ERROR)
            return CLI_EXIT_USAGE;
        if (id == O_DRY_RUN) {
            dry = true;
            continue;
        }
        if (id == CLI_OPT_SKIP)
            continue;
        if (id == O_PURGE_METHOD) {
            static const struct cli_enum methods[] = {{"auto", RPURGE_AUTO}, {"block", RPURGE_BLOCK}, {NULL, 0}};
            char msg[256];
            int m;
            if (cli_parse_enum("--purge-method", pv, methods, &m, msg, sizeof(msg)) < 0) {
                cli_err("%s", msg);
                return CLI_EXIT_USAGE;
            }
            mode = (enum rpurge_mode)m;
            continue;
        }
        if (n == JOB_MAX_TARGETS) {
            cli_err("purge: at most %d targets", JOB_MAX_TARGETS);
            return CLI_EXIT_USAGE;
        }
        struct stat sb;
        if (dry && stat(a, &sb) < 0) {
            paths[n++] = a; /* named by the dry run */
            continue;
        }
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
    if (dry) {
        int code = 0;
        printf("purge plan (--purge-method %s):\n", mode == RPURGE_BLOCK ? "block" : "auto");
        for (unsigned i = 0; i < n; i++)
            if (cli_dry_target(stdout, paths[i], true, 0, &out.consent) < 0)
                code = CLI_EXIT_USAGE;
        return code;
    }
    signal_install();
    cJSON *doc = result_new(argc, argv);
    cJSON *arr = cJSON_AddArrayToObject(doc, "purge");
    int status = 0;
    char err[512];
    for (unsigned i = 0; i < n; i++) {
        struct rpurge_report rr;
        struct rpurge_opts po = {.consent = &out.consent, .mode = mode};
        int rc = prep_purge(paths[i], &po, &rr, err, sizeof(err));
        const struct purge_report r = rr.r;
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
        cJSON_AddBoolToObject(o, "device_command", rr.device_command);
        if (rr.considered[0])
            cJSON_AddStringToObject(o, "considered", rr.considered);
        if (rr.scope[0])
            cJSON_AddStringToObject(o, "scope", rr.scope);
        cJSON_AddItemToArray(arr, o);
        if (out.format == FMT_TEXT)
            printf("%s: %s, %llu bytes in %.2f s%s%s%s%s%s\n", r.path, purge_method_name(r.method),
                   (unsigned long long)r.length, r.elapsed_s, r.notes[0] ? " (" : "", r.notes,
                   r.notes[0] ? ")" : "", rr.considered[0] ? "; not used: " : "", rr.considered);
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
