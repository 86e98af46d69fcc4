/* suggest.h - "did you mean ...?" for every parser: the known name nearest to
 * a misspelt one by edit distance (case-insensitive, '-' equals '_'), or none
 * when even the nearest is too different to be a typo. */
#ifndef SSDBENCH_SUGGEST_H
#define SSDBENCH_SUGGEST_H

struct suggest {
    const char *input;
    const char *best;
    unsigned dist;
};

void suggest_init(struct suggest *s, const char *input);
void suggest_consider(struct suggest *s, const char *candidate);
/* The nearest candidate when it is a typo's distance away (1 edit for
 * inputs up to 4 characters, 2 up to 10, 3 beyond), else NULL. */
const char *suggest_result(const struct suggest *s);

/* Shorthand over a NULL-terminated list. */
const char *suggest_from_list(const char *input, const char *const *names);

/* Levenshtein distance as used above (names longer than 100 are "far"). */
unsigned suggest_distance(const char *a, const char *b);

#endif
