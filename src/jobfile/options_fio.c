/* options_fio.c - looking a key up in fio's own option names (fio_names.c,
 * generated from fio's source): whether fio knows it, its main name, and
 * whether fio's command line takes the next argument as its value. The
 * option table's side of those questions is in options.c. */
#include "jobfile/fio_names.h"

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

const struct fio_name *fio_name_find(const char *key)
{
    for (unsigned i = 0; i < fio_names_count; i++)
        if (same_key(key, fio_names[i].name))
            return &fio_names[i];
    return NULL;
}
