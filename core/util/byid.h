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

/*
 * An index of the n elements of size bytes at items by the string at
 * offset off in each (offsetof(type, member), a char * never NULL).
 * Returns the array of n pointers (never NULL; the caller frees it).
 */
void **byid_index(void *items, size_t n, size_t size, size_t off);

/* The element of index by[0..n) (byid_index's, same off) whose id is
 * id, or NULL. */
void *byid_find(void *const *by, size_t n, size_t off, const char *id);

#endif
