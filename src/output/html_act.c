/* html_act.c - report sections for ACT runs. */
#include "output/html_kinds.h"

int rep_build_act(struct report *r)
{
    (void)r;
    return 0;
}
