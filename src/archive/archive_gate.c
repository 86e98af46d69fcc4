/* archive_gate.c - see archive_gate.h: median, median absolute deviation
 * and the bound of the regression gate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive_gate.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double archive_median(double *v, size_t n)
{
    qsort(v, n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void archive_gate_eval(const double *hist, size_t n, double now, bool higher_better,
                       const struct archive_gate_opts *o, struct archive_gate *g)
{
    double v[ARCHIVE_GATE_MAX_HISTORY];
    if (n > ARCHIVE_GATE_MAX_HISTORY)
        n = ARCHIVE_GATE_MAX_HISTORY;
    memcpy(v, hist, n * sizeof(*v));
    memset(g, 0, sizeof(*g));
    g->n = n;
    g->median = archive_median(v, n);
    for (size_t i = 0; i < n; i++)
        v[i] = fabs(v[i] - g->median);
    g->mad = archive_median(v, n);
    g->noise = 1.4826 * g->mad;
    double sig = o && o->sigmas > 0 ? o->sigmas : ARCHIVE_GATE_SIGMAS;
    double rel = o && o->min_rel >= 0 ? o->min_rel : ARCHIVE_GATE_MIN_REL;
    g->bound = fmax(sig * g->noise, rel * fabs(g->median));
    g->limit = higher_better ? g->median - g->bound : g->median + g->bound;
    double worse = higher_better ? g->median - now : now - g->median;
    g->verdict = worse > g->bound ? ARCHIVE_GATE_REGRESSED : -worse > g->bound ? ARCHIVE_GATE_IMPROVED : ARCHIVE_GATE_WITHIN;
}
