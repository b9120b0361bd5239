/*
 * suggest.c: the nearest valid word (see suggest.h).
 */
#include <stdlib.h>
#include <string.h>

#include "util/suggest.h"
#include "util/xalloc.h"

/* s past its leading dashes. */
static const char *
undash(const char *s)
{
	while (*s == '-')
		s++;
	return s;
}

/* ASCII lower case, whatever the locale. */
static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static size_t
min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

size_t
suggest_distance(const char *a, const char *b)
{
	size_t la, lb, d, *prev2, *prev, *cur, *tmp;

	a = undash(a);
	b = undash(b);
	la = strlen(a);
	lb = strlen(b);
	/* Three rows of the matrix: i-2, i-1 and i. */
	prev2 = xcalloc(lb + 1, sizeof(*prev2));
	prev = xcalloc(lb + 1, sizeof(*prev));
	cur = xcalloc(lb + 1, sizeof(*cur));
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = lower((unsigned char)a[i - 1]);
			int cb = lower((unsigned char)b[j - 1]);
			size_t cost = ca != cb;

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1,
			    prev[j - 1] + cost);
			if (i > 1 && j > 1 &&
			    ca == lower((unsigned char)b[j - 2]) &&
			    lower((unsigned char)a[i - 2]) == cb &&
			    prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		tmp = prev2;
		prev2 = prev;
		prev = cur;
		cur = tmp;
	}
	d = prev[lb];
	free(prev2);
	free(prev);
	free(cur);
	return d;
}

/* 1 when word is a prefix of cand (dashes and case as suggest.h says). */
static int
is_prefix(const char *word, const char *cand)
{
	word = undash(word);
	cand = undash(cand);
	for (; *word != '\0'; word++, cand++)
		if (lower((unsigned char)*word) != lower((unsigned char)*cand))
			return 0;
	return 1;
}

const char *
suggest_nearest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL, *prefixed = NULL;
	size_t len = strlen(undash(word)), bestd = (size_t)-1, limit;
	int n_prefixed = 0;

	limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
	for (size_t i = 0; i < n; i++) {
		size_t d = suggest_distance(word, cands[i]);

		if (d < bestd) {
			bestd = d;
			best = cands[i];
		}
		if (len >= 3 && is_prefix(word, cands[i])) {
			prefixed = cands[i];
			n_prefixed++;
		}
	}
	if (n_prefixed == 1)
		return prefixed;
	return best != NULL && bestd <= limit ? best : NULL;
}
