/*
 * byid.h: find the elements of an array by a string id they hold.
 *
 * An index is an array of pointers to the elements, sorted by the id
 * (strcmp) each holds at one offset (a char * or const char * member):
 * built once in n log n, each lookup a binary search. The array of
 * elements is the caller's and must not move while its index is used.
 */
#ifndef MIRROR_BYID_H
#define MIRROR_BYID_H

#include <stddef.h>

#include "util/hashtab.h"

/*
 * An index of the n elements of size bytes at items by the string at
 * offset off in each (offsetof(type, member), a char * never NULL).
 * Returns the array of n pointers (never NULL; the caller frees it).
 */
void **byid_index(void *items, size_t n, size_t size, size_t off);

/* The element of index by[0..n) (byid_index's, same off) whose id is
 * id, or NULL. */
void *byid_find(void *const *by, size_t n, size_t off, const char *id);

/* No element: what byid_sorted and byid_pairs_find return when none
 * holds the id. */
#define BYID_NONE ((size_t)-1)

/* The position in items[0..n) (elements of size bytes, sorted by the id
 * at offset off, as byid_find's index is) of an element whose id is id,
 * or BYID_NONE. For an array kept in id order, with no index. */
size_t byid_sorted(const void *items, size_t n, size_t size, size_t off,
    const char *id);

/*
 * A hash index of an array by a pair of strings each element holds at
 * offsets oa and ob (char * members, never NULL): where each distinct
 * pair first occurs. A lookup is one hash of the pair and a comparison
 * or two, where a binary search of 30,000 pairs is 30 strcmp; a page
 * looks every fact up in three such lists. The array is the caller's
 * and must not move while its index is used.
 */
struct byid_pairs {
	struct hashtab t;       /* the pair's hash, its first position */
	size_t size, oa, ob;
};

/* Index the n elements of size bytes at items into ix (an empty index
 * for none). Free with byid_pairs_free. */
void byid_pairs_index(struct byid_pairs *ix, const void *items, size_t n,
    size_t size, size_t oa, size_t ob);

/* The position in items (ix's array) of the first element whose pair
 * is (a, b), or BYID_NONE. */
size_t byid_pairs_find(const struct byid_pairs *ix, const void *items,
    const char *a, const char *b);

void byid_pairs_free(struct byid_pairs *ix);

#endif
