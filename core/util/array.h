/*
 * array.h: the one way an array grows.
 *
 *	struct item *v = NULL;
 *	size_t n = 0, cap = 0;
 *
 *	ARRAY_PUSH(v, n, cap) = x;		append one element
 *	ARRAY_APPEND(v, n, cap, src, m);	append m elements from src
 *	ARRAY_RESERVE(v, cap, need);		room for need elements
 *	ARRAY_FIT(v, n, cap);			room for the n held, no more
 *
 * The capacity at least doubles (from 8), so n appends cost O(n) in all;
 * an overflowing size exits as xreallocarray does (status 3), so the
 * macros never fail. The caller owns v and frees it with free(). The
 * arguments are evaluated more than once: pass plain names, never an
 * expression with a side effect.
 *
 * And the one way a sorted array is made and searched when the order
 * needs more than the two elements (a table the elements index, the
 * key's field): array_sort and array_find take the comparison's context
 * as an argument, where qsort and bsearch have none and a caller would
 * hand it over through a static. array_sort is stable, whatever the C
 * library: equal elements keep their order, so the output of a sort
 * with ties is the same on every system.
 */
#ifndef MIRROR_ARRAY_H
#define MIRROR_ARRAY_H

#include <stddef.h>

/*
 * Returns v, reallocated so that it holds at least need elements of
 * size bytes, and updates *cap; v unchanged when *cap >= need already.
 */
void *array_reserve(void *v, size_t *cap, size_t need, size_t size);

/*
 * Returns v, reallocated to hold exactly n elements of size bytes when
 * it has room for more (n > 0), and updates *cap; v unchanged else.
 * For arrays kept long after they are filled, most of them short: a
 * list of one or two rows grows to 8.
 */
void *array_fit(void *v, size_t *cap, size_t n, size_t size);

/*
 * Returns v, reallocated when it has no room for m more elements of size
 * bytes (then *cap updated), with the m elements at src copied after its
 * *n and *n incremented by m. src may be NULL when m is 0.
 */
void *array_append(void *v, size_t *n, size_t *cap, const void *src,
    size_t m, size_t size);

/* qsort and bsearch order of an array of strings (const char *), by
 * strcmp. */
int array_str_cmp(const void *a, const void *b);

/* A comparison of a and b under ctx: < 0, 0 or > 0 as a goes before,
 * with or after b. For array_find and array_lower, a is the key. */
typedef int (*array_cmp_fn)(const void *a, const void *b, const void *ctx);

/*
 * Sort the n elements of size bytes at base (NULL is fine when n is 0)
 * by cmp, given ctx: a stable merge sort, n log n comparisons, n
 * elements of scratch.
 */
void array_sort(void *base, size_t n, size_t size, array_cmp_fn cmp,
    const void *ctx);

/*
 * The position of the first element of base[0..n) (sorted by cmp) that
 * does not go before key: cmp(key, element, ctx) <= 0. n when every
 * element goes before key (and for n 0).
 */
size_t array_lower(const void *key, const void *base, size_t n,
    size_t size, array_cmp_fn cmp, const void *ctx);

/* No element: what array_find returns when none is equal to the key. */
#define ARRAY_NONE ((size_t)-1)

/*
 * The position of an element of base[0..n) (sorted by cmp) equal to key
 * by cmp, or ARRAY_NONE: bsearch with a context. Of several equal
 * elements, the one a plain halving search meets first.
 */
size_t array_find(const void *key, const void *base, size_t n, size_t size,
    array_cmp_fn cmp, const void *ctx);

/* The test for room is inline: only a growth costs a call. */
#define ARRAY_RESERVE(v, cap, need) \
	((v) = (need) <= (cap) ? (v) : \
	    array_reserve((v), &(cap), (need), sizeof(*(v))))

/* The new last element of v (an lvalue), n incremented. */
#define ARRAY_PUSH(v, n, cap) \
	(*(ARRAY_RESERVE(v, cap, (n) + 1), &(v)[(n)++]))

/* Append the m elements at src (NULL is fine when m is 0) to v, n
 * incremented by m: one growth and one copy. The sizeof checks that an
 * element of src can be stored in v, and evaluates neither. */
#define ARRAY_APPEND(v, n, cap, src, m) \
	((void)sizeof(*(v) = *(src)), \
	    (v) = array_append((v), &(n), &(cap), (src), (m), sizeof(*(v))))

/* Give back v's room beyond its n elements. */
#define ARRAY_FIT(v, n, cap) \
	((v) = array_fit((v), &(cap), (n), sizeof(*(v))))

#endif
