/*
 * suggest.c: the nearest known name to a misspelt one (suggest.h).
 */
#include <stdlib.h>
#include <string.h>

#include "suggest.h"
#include "xalloc.h"

static unsigned char
lower(char c)
{
	return (unsigned char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
}

static size_t
min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

/* Returns the distance; three rows of (strlen(b) + 1) counters. */
size_t
suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), *prev2, *prev, *cur, *t, d;

	prev2 = xcalloc(lb + 1, sizeof(*prev2));
	prev = xcalloc(lb + 1, sizeof(*prev));
	cur = xcalloc(lb + 1, sizeof(*cur));
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = lower(a[i - 1]) != lower(b[j - 1]);

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1,
			    prev[j - 1] + cost);
			if (i > 1 && j > 1 && lower(a[i - 1]) ==
			    lower(b[j - 2]) && lower(a[i - 2]) ==
			    lower(b[j - 1]) && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	d = prev[lb];
	free(prev2);
	free(prev);
	free(cur);
	return d;
}

/* Returns one of cands, or NULL when none is close enough. */
const char *
suggest_nearest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;

	for (size_t i = 0; i < n; i++) {
		size_t d = suggest_distance(word, cands[i]);

		if (d <= 2 && 2 * d <= strlen(cands[i]) && d < best_d) {
			best = cands[i];
			best_d = d;
		}
	}
	return best;
}
