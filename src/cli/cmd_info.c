/* cmd_info.c - `ssdbench info DEVICE...`: what a device is and how healthy
 * it is (identity, queue settings, write cache and how to change it, NVMe
 * namespace and LBA formats, the SMART / health log), read-only. A regular
 * file stands for its file system's device; loop, zram and other virtual
 * devices get the sysfs part and one line saying there is no SMART. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "base/textsafe.h"
#include "cli/commands.h"
#include "device/device.h"
#include "output/device_text.h"
#include "result/result.h"
#include "result/result_device.h"

enum { O_JSON = 1, O_NO_SMARTCTL };

static const struct cli_opt info_opts[] = {
    CLI_ROW(NULL, NULL, NULL,
     "usage: ssdbench info [--json] [--no-smartctl] DEVICE|FILE...\n"
     "Identity (model, serial, firmware, capacity, block sizes, rotational), queue\n"
     "settings, write cache state and how to change it, NVMe namespace and LBA format,\n"
     "and health (temperature, wear, data written, errors, power-on hours) of each\n"
     "device; a file stands for its file system's device. Read-only: sysfs, NVMe\n"
     "Identify and SMART log, ATA IDENTIFY and SMART READ DATA, smartctl --json.", 0),
    CLI_ROW("--json", NULL, NULL, "one JSON document per device (a list for several)", O_JSON),
    CLI_ROW("--no-smartctl", NULL, NULL, "do not run smartctl for disks the direct commands do not reach", O_NO_SMARTCTL),
    CLI_ROW("--help", "-h", NULL, "this text", 0),
    CLI_OPTS_END,
};

int cmd_info(int argc, char **argv)
{
    bool json = false, smartctl = true;
    const char *paths[64];
    unsigned n = 0;
    bool operands = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int id = cli_opts_next("info", info_opts, &i, argc, argv, &v, &operands);
        if (id == CLI_OPT_HELP) {
            cli_opts_print(stdout, info_opts, 18);
            return 0;
        }
        if (id == CLI_OPT_ERROR)
            return CLI_EXIT_USAGE;
        if (id == O_JSON)
            json = true;
        else if (id == O_NO_SMARTCTL)
            smartctl = false;
        if (id != CLI_OPT_OPERAND)
            continue;
        if (n == sizeof(paths) / sizeof(paths[0])) {
            cli_err("info: at most %u devices at once", n);
            return CLI_EXIT_USAGE;
        }
        paths[n++] = a;
    }
    if (!n) {
        cli_err("info: which device? usage: ssdbench info DEVICE|FILE");
        return CLI_EXIT_USAGE;
    }
    struct device_info *di = malloc(sizeof(*di));
    cJSON *list = cJSON_CreateArray();
    if (!di || !list) {
        free(di);
        cJSON_Delete(list);
        cli_err("info: out of memory");
        return CLI_EXIT_FAIL;
    }
    int rc = CLI_EXIT_OK;
    struct device_probe_opts o = {.health = true, .smartctl = smartctl};
    for (unsigned i = 0; i < n; i++) {
        char err[512];
        if (device_probe(paths[i], &o, di, err, sizeof(err)) < 0) {
            cli_err("info: %s", err);
            rc = CLI_EXIT_USAGE;
            continue;
        }
        cJSON *doc = result_device_info(di);
        if (!doc) {
            rc = CLI_EXIT_FAIL;
            continue;
        }
        if (!json) {
            if (i)
                printf("\n");
            FILE *safe = textsafe_open(stdout); /* model and serial strings escaped */
            render_device_info(safe ? safe : stdout, doc);
            if (safe)
                textsafe_close(safe);
            cJSON_Delete(doc);
        } else {
            cJSON_AddItemToArray(list, doc);
        }
    }
    if (json && cJSON_GetArraySize(list) > 0) {
        char *s = result_print(cJSON_GetArraySize(list) == 1 ? cJSON_GetArrayItem(list, 0) : list, true);
        if (s)
            printf("%s\n", s);
        else
            rc = CLI_EXIT_FAIL;
        free(s);
    }
    cJSON_Delete(list);
    free(di);
    if (fflush(stdout) != 0)
        rc = CLI_EXIT_FAIL;
    return rc;
}
