/* suggest.c - see suggest.h. */
#include <ctype.h>
#include <string.h>

#include "base/suggest.h"

static int fold(char c)
{
    return c == '-' ? '_' : tolower((unsigned char)c);
}

unsigned suggest_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    unsigned row[101];
    if (la > 100 || lb > 100)
        return 1000;
    for (size_t j = 0; j <= lb; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned prev = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned sub = prev + (fold(a[i - 1]) != fold(b[j - 1]));
            unsigned del = row[j] + 1, ins = row[j - 1] + 1;
            prev = row[j];
            row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    }
    return row[lb];
}

void suggest_init(struct suggest *s, const char *input)
{
    s->input = input;
    s->best = NULL;
    s->dist = ~0u;
}

static unsigned typo_limit(size_t len);

void suggest_consider(struct suggest *s, const char *candidate)
{
    if (!candidate)
        return;
    /* the distance is at least the difference in length: a candidate that
     * cannot come within a typo's distance cannot be the suggestion, so its
     * distance need not be computed (an unknown key is checked against every
     * option name) */
    size_t li = strlen(s->input), lc = strlen(candidate);
    if ((li > lc ? li - lc : lc - li) > typo_limit(li))
        return;
    unsigned d = suggest_distance(s->input, candidate);
    if (d < s->dist) {
        s->dist = d;
        s->best = candidate;
    }
}

/* A typo is a slip of one or two keys: 1 edit for names up to 4 letters, 2 up
 * to 10, 3 beyond. More than that is another word, and another word may well
 * mean something else ('status-interval' is not 'ss_interval'), so nothing is
 * suggested. */
static unsigned typo_limit(size_t len)
{
    return len <= 4 ? 1 : len <= 10 ? 2 : 3;
}

const char *suggest_result(const struct suggest *s)
{
    return s->best && s->dist <= typo_limit(strlen(s->input)) ? s->best : NULL;
}

const char *suggest_from_list(const char *input, const char *const *names)
{
    struct suggest s;
    suggest_init(&s, input);
    for (unsigned i = 0; names[i]; i++)
        suggest_consider(&s, names[i]);
    return suggest_result(&s);
}
