/*
 * suggest.h: "did you mean ...?" for a misspelt name.
 *
 * The distance is the optimal string alignment distance (insertions,
 * deletions, substitutions and swaps of two neighbours each cost 1),
 * computed on ASCII-lowercased bytes, so "titel" and "Title" are both 1
 * and 0 away from "title". A candidate is close enough when it is at
 * most 2 away and at most half its own length: "o" suggests nothing,
 * "ot" suggests "out".
 */
#ifndef MIRROR_SUGGEST_H
#define MIRROR_SUGGEST_H

#include <stddef.h>

/* The distance between a and b (see above). */
size_t suggest_distance(const char *a, const char *b);

/*
 * The candidate among cands[0..n) nearest to word when it is close
 * enough (the first in order on a tie), else NULL. Returns one of cands.
 */
const char *suggest_nearest(const char *word, const char *const *cands,
    size_t n);

#endif
