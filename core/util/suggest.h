/*
 * suggest.h: "did you mean ...?" for mistyped commands, options,
 * subcommands and values.
 *
 * Words are compared without their leading dashes and without regard
 * to ASCII case, by the optimal string alignment distance (Levenshtein
 * plus the transposition of two adjacent letters, each edit costing 1).
 */
#ifndef MIRROR_SUGGEST_H
#define MIRROR_SUGGEST_H

#include <stddef.h>

/*
 * The edit distance between a and b (leading dashes and ASCII case
 * ignored). Never fails (out of memory exits, like xalloc).
 */
size_t suggest_distance(const char *a, const char *b);

/*
 * The candidate nearest to word, or NULL when none is close enough:
 * the only candidate that word (3 letters or more) is a prefix of;
 * failing that, the first candidate at the smallest distance if that
 * distance is at most 1 for words of up to 3 letters, 2 for up to 6 and
 * 3 beyond. word itself, if it is a candidate, is returned.
 */
const char *suggest_nearest(const char *word, const char *const *cands,
    size_t n);

#endif
