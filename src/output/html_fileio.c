/* html_fileio.c - report sections for sysbench-style fileio runs. */
#include "output/html_kinds.h"

int rep_build_fileio(struct report *r)
{
    (void)r;
    return 0;
}
