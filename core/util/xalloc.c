#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/error.h"
#include "util/xalloc.h"

#ifdef MIRROR_JEMALLOC
#include <jemalloc/jemalloc.h>

#define XALLOC_STR_(x) #x
#define XALLOC_STR(x) XALLOC_STR_(x)

/*
 * Read by jemalloc when it starts. A page freed goes back to the system
 * half a second after it was last used, not ten (the default): a build
 * is a few seconds of one phase after another, and the render's pages
 * would otherwise still be held when the commit reads the site. Muzzy
 * pages (given back lazily) are skipped: nothing else wants them soon.
 */
const char *malloc_conf = "dirty_decay_ms:500,muzzy_decay_ms:0";
#endif

/* xprefault's least size: below it a page or two, faulted as usual. */
#define XALLOC_PREFAULT_BYTES ((size_t)256 * 1024)

_Noreturn void
xalloc_fail(size_t n)
{
	fprintf(stderr, "mirror: out of memory (asked for %zu bytes)\n", n);
	exit(MIRROR_EIO);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		xalloc_fail(n);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		xalloc_fail(nmemb * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		xalloc_fail(n);
	return q;
}

void *
xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size)
		xalloc_fail(SIZE_MAX);
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
#if defined(__GLIBC__) && !defined(MIRROR_JEMALLOC)
	(void)mallopt(M_MMAP_THRESHOLD, XALLOC_MAP_BYTES);
	(void)mallopt(M_TRIM_THRESHOLD, XALLOC_MAP_BYTES);
#endif
}

void
xprefault(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t lo, hi;

	if (n < XALLOC_PREFAULT_BYTES || page <= 0)
		return;
	lo = ((uintptr_t)p + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	hi = ((uintptr_t)p + n) & ~((uintptr_t)page - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)n;
#endif
}

void
xtrim(void)
{
#if defined(MIRROR_JEMALLOC)
	/* Every arena's dirty pages, now rather than when they decay. */
	(void)mallctl("arena." XALLOC_STR(MALLCTL_ARENAS_ALL) ".purge",
	    NULL, NULL, NULL, 0);
#elif defined(__GLIBC__)
	(void)malloc_trim(0);
#endif
}

void
xalloc_name(char *buf, size_t size)
{
#ifdef MIRROR_JEMALLOC
	const char *v = NULL;
	size_t len = sizeof(v), n;

	if (mallctl("version", &v, &len, NULL, 0) != 0 || v == NULL)
		v = "?";
	/* "5.3.0-0-g54eaed1d...": the release alone. */
	n = strcspn(v, "-");
	(void)snprintf(buf, size, "jemalloc %.*s", (int)(n < 32 ? n : 32), v);
#else
	(void)snprintf(buf, size, "libc malloc");
#endif
}
