#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>

#include "util/error.h"
#include "util/xalloc.h"

static void
oom(size_t n)
{
	fprintf(stderr, "mirror: out of memory (asked for %zu bytes)\n", n);
	exit(MIRROR_EIO);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		oom(n);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		oom(nmemb * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		oom(n);
	return q;
}

void *
xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size)
		oom(SIZE_MAX);
	return xrealloc(p, nmemb * size);
}

char *
xstrdup(const char *s)
{
	return s == NULL ? NULL : xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* The size from which a block is mapped on its own, and the free top of
 * the heap kept before it is trimmed: both fixed, at one megabyte. */
#define XALLOC_MAP_BYTES (1024 * 1024)

void
xalloc_tune(void)
{
#ifdef __GLIBC__
	(void)mallopt(M_MMAP_THRESHOLD, XALLOC_MAP_BYTES);
	(void)mallopt(M_TRIM_THRESHOLD, XALLOC_MAP_BYTES);
#endif
}

void
xtrim(void)
{
#ifdef __GLIBC__
	(void)malloc_trim(0);
#endif
}
