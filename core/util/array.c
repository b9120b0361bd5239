/*
 * array.c: the one way an array grows, is sorted and is searched
 * (array.h).
 */
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/xalloc.h"

void *
array_reserve(void *v, size_t *cap, size_t need, size_t size)
{
	size_t grown;

	if (need <= *cap)
		return v;
	grown = *cap < 8 ? 8 : *cap;
	while (grown < need)
		grown = grown > (size_t)-1 / 2 ? need : grown * 2;
	v = xreallocarray(v, grown, size);
	*cap = grown;
	return v;
}

void *
array_fit(void *v, size_t *cap, size_t n, size_t size)
{
	if (n == 0 || n >= *cap)
		return v;
	v = xreallocarray(v, n, size);
	*cap = n;
	return v;
}

void *
array_append(void *v, size_t *n, size_t *cap, const void *src, size_t m,
    size_t size)
{
	if (m == 0)
		return v;
	/* An overflowing count asks for all: xreallocarray exits. */
	v = array_reserve(v, cap, *n > (size_t)-1 - m ? (size_t)-1 : *n + m,
	    size);
	memcpy((char *)v + *n * size, src, m * size);
	*n += m;
	return v;
}

int
array_str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A run this short is sorted by insertion: fewer moves than merging. */
#define SORT_RUN 8

/* One array_sort: the elements' size, their order, and scratch of n + 1
 * elements. */
struct sort {
	size_t size;
	array_cmp_fn cmp;
	const void *ctx;
	char *tmp;
};

/* Sort the n elements at v in place by insertion (stable), with one
 * element of s's scratch (the one at n). */
static void
insertion_sort(const struct sort *s, char *v, size_t n)
{
	size_t size = s->size;
	char *tmp = s->tmp + n * size;

	for (size_t i = 1; i < n; i++) {
		size_t j = i;

		if (s->cmp(v + (i - 1) * size, v + i * size, s->ctx) <= 0)
			continue;
		memcpy(tmp, v + i * size, size);
		while (j > 0 && s->cmp(v + (j - 1) * size, tmp, s->ctx) > 0)
			j--;
		memmove(v + (j + 1) * size, v + j * size, (i - j) * size);
		memcpy(v + j * size, tmp, size);
	}
}

/* Sort v[0..n) stably through s's scratch (n elements, and one more
 * past them, for insertion_sort). */
static void
merge_sort(const struct sort *s, char *v, size_t n)
{
	size_t size = s->size, h = n / 2, i = 0, j = h, k = 0;
	char *tmp = s->tmp;

	if (n <= SORT_RUN) {
		insertion_sort(s, v, n);
		return;
	}
	merge_sort(s, v, h);
	merge_sort(s, v + h * size, n - h);
	if (s->cmp(v + (h - 1) * size, v + h * size, s->ctx) <= 0)
		return;                 /* already in order */
	/* Take from the left run on a tie: that keeps the sort stable. */
	while (i < h && j < n) {
		const char *src = s->cmp(v + j * size, v + i * size,
		    s->ctx) < 0 ? v + j++ * size : v + i++ * size;

		memcpy(tmp + k++ * size, src, size);
	}
	memcpy(tmp + k * size, v + i * size, (h - i) * size);
	k += h - i;
	memcpy(v, tmp, k * size);       /* the rest of the right run stays */
}

void
array_sort(void *base, size_t n, size_t size, array_cmp_fn cmp,
    const void *ctx)
{
	struct sort s = { .size = size, .cmp = cmp, .ctx = ctx };

	if (n < 2)
		return;
	s.tmp = xcalloc(n + 1, size);
	merge_sort(&s, base, n);
	free(s.tmp);
}

size_t
array_lower(const void *key, const void *base, size_t n, size_t size,
    array_cmp_fn cmp, const void *ctx)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp(key, (const char *)base + mid * size, ctx) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t
array_find(const void *key, const void *base, size_t n, size_t size,
    array_cmp_fn cmp, const void *ctx)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp(key, (const char *)base + mid * size, ctx);

		if (c == 0)
			return mid;
		if (c > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return ARRAY_NONE;
}
