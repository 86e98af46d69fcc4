/* round.c - decimal rounding as Python prints it. */
#include <stdio.h>
#include <stdlib.h>

#include "base/round.h"

/* printf's %.*f is correctly rounded (ties to even on the exact binary
 * value), which is what Python's round() does; parsing the text back gives
 * the same double Python holds. */
double round_decimal(double x, int ndigits)
{
    char buf[64];
    snprintf(buf, sizeof(buf), "%.*f", ndigits, x);
    return strtod(buf, NULL);
}
