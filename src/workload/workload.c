/* workload.c - see workload.h: the registry's look-up. */
#include <string.h>

#include "workload/workload.h"

const struct workload_cmd *workload_find(const struct workload_cmd *const *table, const char *name)
{
    for (; *table; table++)
        if (!strcmp((*table)->name, name))
            return *table;
    return NULL;
}
