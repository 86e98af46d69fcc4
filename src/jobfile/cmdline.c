/* cmdline.c - fio's command-line job form: `--key=value` options where those
 * before the first --name are global and every --name starts a job
 * (--name=global starts a global section, as in fio). Without any --name the
 * options make one job. Keys the option table does not know are offered to
 * the caller's cli_option hook, so `ssdbench run` can mix its own options in.
 * "--key value" works for every option that takes a value, as in fio; the
 * empty-or-boolean ones (--time_based) never take the next argument.
 */
#include "jobfile/jobfile_int.h"

#include <errno.h>
#include <string.h>


int jobfile_parse_cmdline(int argc, char **argv, const struct jobfile_opts *o,
                          struct jobfile *out, char *err, size_t errlen)
{
    struct jf_parser p;
    int rc = jf_begin(&p, o, out, err, errlen);
    bool named = false;

    if (!rc)
        rc = jf_section(&p, "global", CMDLINE_LOC);
    for (int i = 0; !rc && i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) || !arg[2]) {
            rc = jf_fail(&p, -EINVAL, "%s: unexpected argument '%s' (options are written --key=value)",
                         CMDLINE_LOC, arg);
            break;
        }
        char key[128];
        const char *eq = strchr(arg + 2, '=');
        size_t klen = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
        if (klen == 0 || klen >= sizeof(key)) {
            rc = jf_fail(&p, -EINVAL, "%s: bad option '%.60s'", CMDLINE_LOC, arg);
            break;
        }
        memcpy(key, arg + 2, klen);
        key[klen] = '\0';
        const char *value = eq ? eq + 1 : NULL;
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        const struct job_opt *opt = job_option_find(key);

        if (!strcmp(key, "name")) {
            if (!value && next && strncmp(next, "--", 2)) {
                value = next;
                i++;
            }
            if (!value || !*value) {
                rc = jf_fail(&p, -EINVAL, "%s: --name needs a value", CMDLINE_LOC);
                break;
            }
            rc = jf_section(&p, value, CMDLINE_LOC);
            named = named || strcmp(value, "global");
            continue;
        }
        if (!strcmp(key, "include")) {
            rc = jf_fail(&p, -EINVAL, "%s: include is only valid in job files", CMDLINE_LOC);
            break;
        }
        if (!opt && p.o->cli_option) {
            char msg[JOBFILE_MSG_MAX] = "";
            int used = p.o->cli_option(p.o->cli_ctx, key, value, next, msg, sizeof(msg));
            if (used < 0) {
                rc = jf_fail(&p, used, "%s: %s", CMDLINE_LOC, msg);
                break;
            }
            if (used > 0) {
                i += used == 2;
                continue;
            }
        }
        /* "--key value": as fio's getopt, for every option that takes a
         * value (options.h: job_option_takes_arg) */
        if (!value && job_option_takes_arg(key) && next && strncmp(next, "--", 2)) {
            value = next;
            i++;
        }
        rc = jf_add(&p, key, value, CMDLINE_LOC);
    }
    /* no --name at all: the global options make the one job */
    if (!rc && !named) {
        const char *name = p.o->default_name ? p.o->default_name : "job";
        rc = jf_section(&p, name, CMDLINE_LOC);
    }
    if (!rc)
        rc = jf_end(&p, CMDLINE_LOC);
    jf_cleanup(&p, rc);
    return rc;
}
