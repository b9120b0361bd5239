/*
 * array.h: the one way an array grows.
 *
 *	struct item *v = NULL;
 *	size_t n = 0, cap = 0;
 *
 *	ARRAY_PUSH(v, n, cap) = x;		append one element
 *	ARRAY_RESERVE(v, cap, need);		room for need elements
 *	ARRAY_FIT(v, n, cap);			room for the n held, no more
 *
 * The capacity at least doubles (from 8), so n appends cost O(n) in all;
 * an overflowing size exits as xreallocarray does (status 3), so the
 * macros never fail. The caller owns v and frees it with free(). The
 * arguments are evaluated more than once: pass plain names, never an
 * expression with a side effect.
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

/* qsort and bsearch order of an array of strings (const char *), by
 * strcmp. */
int array_str_cmp(const void *a, const void *b);

/* The test for room is inline: only a growth costs a call. */
#define ARRAY_RESERVE(v, cap, need) \
	((v) = (need) <= (cap) ? (v) : \
	    array_reserve((v), &(cap), (need), sizeof(*(v))))

/* The new last element of v (an lvalue), n incremented. */
#define ARRAY_PUSH(v, n, cap) \
	(*(ARRAY_RESERVE(v, cap, (n) + 1), &(v)[(n)++]))

/* Give back v's room beyond its n elements. */
#define ARRAY_FIT(v, n, cap) \
	((v) = array_fit((v), &(cap), (n), sizeof(*(v))))

#endif
