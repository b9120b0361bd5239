/*
 * array.c: the one way an array grows (array.h).
 */
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

int
array_str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}
