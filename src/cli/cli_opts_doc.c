/* cli_opts_doc.c - what the option tables say, written out for people:
 * the option part of each command's section of man/ssdbench.1 and the
 * page docs/options.md (`ssdbench --dump-options man|md [CMD]`, which
 * scripts/gen-man.sh and scripts/gen-options-doc.sh write into the tree;
 * tests/integration/docs.sh fails when the tree says otherwise), and the
 * consistency check of a table (cli_opts_check).
 * See cli_opts.h. */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "cli/cli_opts.h"

/* A shared row that says something of its own for this command (a note,
 * the formats it prints, its default): what else it does is said once, in
 * COMMON OPTIONS, from the shared table. */
static bool shared_differs(const struct cli_opt *o)
{
    return o->note || o->man || o->value || o->dflt;
}

static bool has_size(const struct cli_opt *t)
{
    for (; t->name || t->help; t++)
        if (t->name && t->type == CLI_T_SIZE)
            return true;
    return false;
}

/* roff text: backslashes escaped, a line never starting with '.' or '\''. */
static void roff(FILE *f, const char *s, bool sentence)
{
    bool bol = true, first = true;
    for (const char *p = s; *p; p++) {
        char ch = *p == '\n' ? ' ' : *p;
        if (bol && (ch == '.' || ch == '\''))
            fputs("\\&", f);
        if (ch == '\\')
            fputs("\\e", f);
        else if (ch == '-' && (p == s || p[-1] == ' ' || p[-1] == '-' || p[-1] == '(' || p[-1] == '\n'))
            fputs("\\-", f); /* an option name's dashes */
        else
            fputc(first && sentence ? toupper((unsigned char)ch) : ch, f);
        first = false;
        bol = false;
    }
}

static void roff_dashes(FILE *f, const char *s)
{
    for (; *s; s++)
        fputs(*s == '-' ? "\\-" : (char[2]){*s, 0}, f);
}

static bool ends_sentence(const char *s)
{
    size_t n = strlen(s);
    return n && s[n - 1] == '.';
}

static void man_option(FILE *f, const struct cli_opt *o)
{
    fputs(".TP\n", f);
    const char *v = o->value;
    if (v && o->alias) { /* bold names, italic values: ".BI "\-\-output " FILE ", \-o " FILE" */
        fputs(".BI \"", f);
        roff_dashes(f, o->name);
        fprintf(f, " \" \"%s\" \", ", v);
        roff_dashes(f, o->alias);
        fprintf(f, " \" \"%s\"", v);
    } else if (v) {
        fputs(".BI ", f);
        roff_dashes(f, o->name);
        fprintf(f, " \"%s%s\"", !strncmp(v, "[=", 2) ? "" : " ", v);
    } else {
        fputs(".B ", f);
        roff_dashes(f, o->name);
        if (o->alias) {
            fputs(", ", f);
            roff_dashes(f, o->alias);
        }
    }
    fputc('\n', f);
    if (o->man) {
        fprintf(f, "%s\n", o->man);
    } else {
        roff(f, o->help ? o->help : "", true);
        fputs(ends_sentence(o->help ? o->help : "") ? "\n" : ".\n", f);
    }
    if (o->dflt && !o->man) { /* a man text of its own says its default */
        fputs("Default: ", f);
        roff(f, o->dflt, false);
        fputs(".\n", f);
    }
}

static const char units_note[] =
    "SIZE values take fio's units as its default kb_base=1024 reads them: k, m, g, t\n"
    "(also kb, KB, ki) are powers of 1024, so 4k = 4KB = 4096 bytes, while a KiB\n"
    "spelling is read as a power of 1000 (4KiB = 4000 bytes), as fio reads it; ssdbench\n"
    "prints sizes in binary units (4096 bytes = 4KiB). TIME values: a bare number is\n"
    "seconds, or with a suffix d, h, m (minutes), s, ms, us or ns. PCT values: 20 or 20%.";

static void man_cmd(FILE *f, const struct cli_cmd_opts *c)
{
    fprintf(f, ".\\\" BEGIN OPTIONS %s (made from the table in src/cli by scripts/gen-man.sh)\n", c->cmd);
    bool first_text = true;
    for (const struct cli_opt *o = c->opts; o->name || o->help; o++) {
        if (!o->name) {
            size_t n = strlen(o->help);
            if (!first_text && n && o->help[n - 1] == ':' && !strchr(o->help, '\n')) {
                fputs(".PP\n", f);
                roff(f, o->help, false);
                fputc('\n', f);
            }
            first_text = false;
            continue;
        }
        if (!cli_opt_is_shared(o)) {
            man_option(f, o);
        } else if (shared_differs(o)) {
            char buf[512];
            struct cli_opt m = cli_opt_shown(o, buf, sizeof(buf));
            m.help = o->note ? o->note : "as in COMMON OPTIONS";
            man_option(f, &m);
        }
    }
    if (has_size(c->opts)) {
        fputs(".PP\n", f);
        roff(f, units_note, false);
        fputc('\n', f);
    }
    fprintf(f, ".\\\" END OPTIONS %s\n", c->cmd);
}

static void md_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            fputc(' ', f);
        else if (*s == '|')
            fputs("\\|", f);
        else
            fputc(*s, f);
    }
}

static const char *type_name(const struct cli_opt *o)
{
    static const char *const n[] = {"", "flag", "flag", "text", "text, repeatable", "number", "percentage",
                                    "number", "size", "time", "one of", ""};
    return o->type <= CLI_T_CALL ? n[o->type] : "";
}

static void md_cmd(FILE *f, const struct cli_cmd_opts *c)
{
    if (!strcmp(c->cmd, "common"))
        fputs("## common options\n\n", f);
    else
        fprintf(f, "## ssdbench %s\n\n", c->cmd);
    fprintf(f, "| option | value | default | meaning |\n|---|---|---|---|\n");
    for (const struct cli_opt *r = c->opts; r->name || r->help; r++) {
        if (!r->name || (cli_opt_is_shared(r) && !shared_differs(r)))
            continue;
        char buf[512];
        struct cli_opt shown = cli_opt_shown(r, buf, sizeof(buf));
        const struct cli_opt *o = &shown;
        if (cli_opt_is_shared(r)) {
            snprintf(buf, sizeof(buf), "as in the common options%s%s", r->note ? "; " : "",
                     r->note ? r->note : "");
            shown.help = buf;
        }
        fprintf(f, "| `%s`%s%s%s | ", o->name, o->alias ? ", `" : "", o->alias ? o->alias : "",
                o->alias ? "`" : "");
        if (o->value) {
            fputc('`', f);
            md_text(f, o->value);
            fputc('`', f);
        }
        const char *t = type_name(o);
        if (*t)
            fprintf(f, "%s%s", o->value ? " " : "", t);
        if (o->unit)
            fprintf(f, " (%s)", o->unit);
        fputs(" | ", f);
        md_text(f, o->dflt ? o->dflt : "");
        fputs(" | ", f);
        md_text(f, o->help ? o->help : "");
        fputs(" |\n", f);
    }
    fputc('\n', f);
}

/* The shared options as one table ("common"; --archive and --tag only
 * where a result is written), for COMMON OPTIONS and docs/options.md. */
static void common_table(struct cli_opt *t, size_t n)
{
    size_t k = 0;
    for (const struct cli_opt *o; k + 1 < n && (o = cli_shared_find(NULL, (unsigned)k, NULL)); k++)
        t[k] = *o;
    t[k] = (struct cli_opt)CLI_OPTS_END;
}

int cli_opts_dump(FILE *f, const char *format, const char *cmd)
{
    bool man = !strcmp(format, "man"), md = !strcmp(format, "md"), names = !strcmp(format, "names");
    if (!man && !md && !names)
        return -1;
    if (md && !cmd) {
        fputs("# Command options (generated)\n\n"
              "<!-- Made by scripts/gen-options-doc.sh from the option tables in src/cli; do not edit. -->\n\n"
              "The options of each command that reads them from its table, as `--help`\n"
              "and the man page show them. The options every command shares come first\n"
              "(the man page's COMMON OPTIONS); a command lists one of them again only\n"
              "where it differs.\n\n",
              f);
        md_text(f, units_note);
        fputs("\n\n", f);
    }
    struct cli_opt common[16];
    common_table(common, sizeof(common) / sizeof(common[0]));
    const struct cli_cmd_opts common_opts = {.cmd = "common", .man_section = "COMMON OPTIONS", .opts = common};
    int found = 0;
    if (!cmd || !strcmp(cmd, "common")) {
        found++;
        if (man)
            man_cmd(f, &common_opts);
        else if (md)
            md_cmd(f, &common_opts);
        else
            for (const struct cli_opt *o = common; o->name; o++)
                fprintf(f, "common %s\n", o->name);
    }
    for (const struct cli_cmd_opts *const *c = cli_tables; *c; c++) {
        if (cmd && strcmp(cmd, (*c)->cmd) != 0)
            continue;
        found++;
        if (man)
            man_cmd(f, *c);
        else if (md)
            md_cmd(f, *c);
        else
            for (const struct cli_opt *o = (*c)->opts; o->name || o->help; o++)
                if (o->name)
                    fprintf(f, "%s %s\n", (*c)->cmd, o->name);
    }
    return cmd && !found ? -1 : 0;
}

static int bad(char *msg, size_t len, const struct cli_cmd_opts *c, const struct cli_opt *o, const char *why)
{
    snprintf(msg, len, "%s: %s: %s", c->cmd, o->name ? o->name : "(text)", why);
    return -1;
}

static bool int_size(size_t s)
{
    return s == 1 || s == 2 || s == 4 || s == 8;
}

int cli_opts_check(const struct cli_cmd_opts *c, char *msg, size_t len)
{
    for (const struct cli_opt *o = c->opts; o->name || o->help; o++) {
        if (!o->name)
            continue;
        if (o->name[0] != '-' || (o->alias && o->alias[0] != '-'))
            return bad(msg, len, c, o, "a name starts with '-'");
        for (const struct cli_opt *p = c->opts; p != o; p++)
            if (p->name && (!strcmp(p->name, o->name) || (o->alias && p->alias && !strcmp(p->alias, o->alias))))
                return bad(msg, len, c, o, "named twice");
        bool takes = o->value != NULL;
        switch (o->type) {
        case CLI_T_ID:
            break;
        case CLI_T_FLAG:
            if (takes || o->size != sizeof(bool))
                return bad(msg, len, c, o, "a flag sets a bool and takes no value");
            break;
        case CLI_T_CONST:
            if (takes || (o->size != sizeof(int) && o->size != sizeof(bool)))
                return bad(msg, len, c, o, "a constant sets an int and takes no value");
            break;
        case CLI_T_STR:
            if (!takes || o->size != sizeof(const char *))
                return bad(msg, len, c, o, "a string field is a const char *");
            break;
        case CLI_T_STRS:
            if (!takes || !o->size || o->size % sizeof(const char *) || (o->count_size != 4 && o->count_size != 8))
                return bad(msg, len, c, o, "a list is a const char *[] with an unsigned or size_t count");
            break;
        case CLI_T_UINT:
        case CLI_T_SIZE:
        case CLI_T_TIME:
            if (!takes || !int_size(o->size) || (o->uhi && o->uhi < o->ulo))
                return bad(msg, len, c, o, "a number needs a value, an integer field and lo <= hi");
            if (o->type == CLI_T_TIME && o->size != 8 && !(o->flags & CLI_WHOLE))
                return bad(msg, len, c, o, "a time in ns is a uint64_t");
            break;
        case CLI_T_PCT:
        case CLI_T_REAL:
            if (!takes || o->size != sizeof(double) || !(o->lo < o->hi))
                return bad(msg, len, c, o, "a real number is a double with lo < hi");
            break;
        case CLI_T_ENUM:
            if (!takes || !o->enums || !o->enums[0].name || (o->size != sizeof(int) && o->size != sizeof(bool)))
                return bad(msg, len, c, o, "an enum needs names and an int (or bool) field");
            break;
        case CLI_T_CALL:
            if (!o->set)
                return bad(msg, len, c, o, "a call needs its setter");
            break;
        default:
            return bad(msg, len, c, o, "unknown type");
        }
        if (o->type == CLI_T_ID && o->id == 0 && o->help && cli_shared_find(o->name, 0, NULL))
            return bad(msg, len, c, o, "a shared option's words are the shared table's (CLI_SHARED, a .note)");
        if (o->note && !cli_opt_is_shared(o))
            return bad(msg, len, c, o, "a note is for a shared row");
        if (o->type != CLI_T_ID && o->id)
            return bad(msg, len, c, o, "a typed row has no id");
        if (cli_opt_is_shared(o))
            continue;
        if (!o->help || !o->help[0])
            return bad(msg, len, c, o, "no help text");
    }
    return 0;
}
