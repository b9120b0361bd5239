/*
 * byid.c: find the elements of an array by a string id (see byid.h).
 */
#include <stdlib.h>
#include <string.h>

#include "util/byid.h"
#include "util/xalloc.h"

/* The id at offset off of element e. */
static const char *
id_of(const void *e, size_t off)
{
	const char *id;

	memcpy(&id, (const char *)e + off, sizeof(id));
	return id;
}

/* qsort has no argument for the comparison: the offset of the sort in
 * progress (one at a time: the callers sort on one thread each, and
 * the value is only read during their own qsort). */
static _Thread_local size_t sort_off;

static int
cmp_id(const void *a, const void *b)
{
	return strcmp(id_of(*(void *const *)a, sort_off),
	    id_of(*(void *const *)b, sort_off));
}

void **
byid_index(void *items, size_t n, size_t size, size_t off)
{
	void **by = xcalloc(n + 1, sizeof(*by));

	for (size_t i = 0; i < n; i++)
		by[i] = (char *)items + i * size;
	sort_off = off;
	qsort(by, n, sizeof(*by), cmp_id);
	return by;
}

void *
byid_find(void *const *by, size_t n, size_t off, const char *id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(id_of(by[mid], off), id);

		if (c == 0)
			return by[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
