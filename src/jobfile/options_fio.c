/* options_fio.c - the option table seen from fio's side: whether fio knows a
 * key, its main name, and whether fio's command line takes the next argument
 * as its value. The names come from fio_names.c (generated from fio's
 * source). */
#include "jobfile/fio_names.h"
#include "jobfile/options.h"

#include <ctype.h>
#include <stddef.h>

/* '-' and '_' are the same character and case does not matter (as in
 * options.c). */
static bool same_key(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = *a == '-' ? '_' : tolower((unsigned char)*a);
        int y = *b == '-' ? '_' : tolower((unsigned char)*b);
        if (x != y)
            return false;
        if (!x)
            return true;
    }
}

static const struct fio_name *fio_find(const char *key)
{
    for (unsigned i = 0; i < fio_names_count; i++)
        if (same_key(key, fio_names[i].name))
            return &fio_names[i];
    return NULL;
}

bool job_option_fio_known(const char *key)
{
    return fio_find(key) != NULL;
}

const char *job_option_canonical(const char *key)
{
    const struct fio_name *n = fio_find(key);
    if (n)
        return n->canonical;
    const struct job_opt *o = job_option_find(key);
    return o ? o->name : NULL;
}

bool job_option_takes_arg(const char *key)
{
    const struct fio_name *n = fio_find(key);
    if (n)
        return n->takes_arg;
    const struct job_opt *o = job_option_find(key);
    /* an unknown key takes it too, so the error names the key, not its value */
    return !o || (o->type != JOPT_BOOL && !o->bare);
}
