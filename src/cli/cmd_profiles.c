/* cmd_profiles.c - `ssdbench profiles`: lists the workload profiles (built-in
 * and from files) with their definitions, or prints them as a job file. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "cli/commands.h"
#include "profiles/profiles.h"

#define MAX_FILES 16
#define MAX_NAMES 64

/* "rw=randrw\nbs=8k\n" -> "rw=randrw bs=8k", without description lines. */
static void one_line(const char *def, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    while (*def) {
        size_t l = strcspn(def, "\n");
        if (strncmp(def, "description", 11) != 0 && n < len)
            n += (size_t)snprintf(buf + n, len - n, "%s%.*s", n ? " " : "", (int)l, def);
        def += l;
        if (*def)
            def++;
    }
}

static void list(const struct profile_set *ps, const struct profile *p)
{
    fprintf(stdout, "%-16s %s\n", p->name, p->description);
    for (unsigned k = 0; k < p->nparts; k++) {
        const struct profile_part *pp = profile_part(ps, p, k);
        char sum[200], def[PROFILE_DEF_MAX];
        profile_summary(&pp->job, sum, sizeof(sum));
        one_line(pp->def, def, sizeof(def));
        if (p->nparts > 1)
            fprintf(stdout, "  %-14s %s\n  %-14s %s\n", pp->name, sum, "", def);
        else
            fprintf(stdout, "  %-14s %s\n  %-14s %s\n", "", sum, "", def);
    }
    if (p->fixed_load)
        fprintf(stdout, "  %-14s fixed load: the suite runs it at its own threads and queue depth\n", "");
    if (strcmp(p->source, "built-in") != 0)
        fprintf(stdout, "  %-14s from %s\n", "", p->source);
}

static void jobfile(const struct profile_set *ps, const struct profile *p, const char **last_global)
{
    if (!*last_global || strcmp(*last_global, p->global_def) != 0) {
        fprintf(stdout, "[global]\n%s\n", p->global_def);
        *last_global = p->global_def;
    }
    for (unsigned k = 0; k < p->nparts; k++) {
        const struct profile_part *pp = profile_part(ps, p, k);
        fprintf(stdout, "[%s]\n%s\n", pp->name, pp->def);
    }
}

enum { O_PROFILE_FILE = 1, O_JOB_FILE };

static const struct cli_opt profiles_opts[] = {
    CLI_ROW(NULL, NULL, NULL,
     "usage: ssdbench profiles [--profile-file FILE]... [--as-job-file] [NAME...]\n"
     "Lists the workload profiles with their definitions (fio job syntax).", 0),
    CLI_ROW("--profile-file", NULL, "FILE", "also read profiles from a job file (one section each;\n"
                                     "NAME/PART sections are parts of profile NAME)", O_PROFILE_FILE),
    CLI_ROW("--as-job-file", "--jobfile", NULL, "print the definitions as a job file fio can read", O_JOB_FILE),
    CLI_ROW("--help", "-h", NULL, "this text", 0),
    CLI_OPTS_END,
};

int cmd_profiles(int argc, char **argv)
{
    const char *files[MAX_FILES], *names[MAX_NAMES];
    unsigned nfiles = 0, nnames = 0;
    bool as_jobfile = false;
    bool operands = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int id = cli_opts_next("profiles", profiles_opts, &i, argc, argv, &v, &operands);
        if (id == CLI_OPT_HELP) {
            cli_opts_print(stdout, profiles_opts, 24);
            return 0;
        } else if (id == CLI_OPT_ERROR) {
            return CLI_EXIT_USAGE;
        } else if (id == CLI_OPT_SKIP) {
            continue;
        } else if (id == O_PROFILE_FILE) {
            if (nfiles == MAX_FILES) {
                cli_err("--profile-file: at most %d files", MAX_FILES);
                return CLI_EXIT_USAGE;
            }
            files[nfiles++] = v;
        } else if (id == O_JOB_FILE) {
            as_jobfile = true;
        } else if (nnames < MAX_NAMES) {
            names[nnames++] = a;
        }
    }
    char err[1024];
    struct profile_set ps;
    if (profile_set_builtin(&ps, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        return CLI_EXIT_FAIL;
    }
    for (unsigned f = 0; f < nfiles; f++)
        if (profile_set_load_file(&ps, files[f], err, sizeof(err)) < 0) {
            cli_err("%s", err);
            profile_set_free(&ps);
            return CLI_EXIT_USAGE;
        }
    for (unsigned n = 0; n < nnames; n++)
        if (!profile_find(&ps, names[n])) {
            profile_unknown_msg(&ps, names[n], err, sizeof(err));
            cli_err("%s", err);
            profile_set_free(&ps);
            return CLI_EXIT_USAGE;
        }
    const char *last_global = NULL;
    unsigned count = nnames ? nnames : ps.nprofiles;
    for (unsigned i = 0; i < count; i++) {
        const struct profile *p = nnames ? profile_find(&ps, names[i]) : &ps.profiles[i];
        if (as_jobfile) {
            jobfile(&ps, p, &last_global);
        } else {
            if (i)
                fputc('\n', stdout);
            list(&ps, p);
        }
    }
    if (!as_jobfile && ps.nprofiles) {
        char g[PROFILE_DEF_MAX];
        one_line(ps.profiles[0].global_def, g, sizeof(g));
        printf("\nbuilt-in profiles share: %s\n"
               "(sizes are shares of I/Os; 'ssdbench profiles --jobfile NAME' prints a job file)\n",
               g);
    }
    profile_set_free(&ps);
    return 0;
}
