#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>
#include <sys/mman.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

#include "util/error.h"
#include "util/xalloc.h"

#ifdef MIRROR_JEMALLOC
#include <jemalloc/jemalloc.h>

#define XALLOC_STR_(x) #x
#define XALLOC_STR(x) XALLOC_STR_(x)

/* How long a freed page stays before it goes back (malloc_conf). */
#define XALLOC_DECAY_MS 500

/*
 * Read by jemalloc when it starts. A page freed goes back to the system
 * half a second after it was last used, not ten (the default): a build
 * is a few seconds of one phase after another, and the render's pages
 * would otherwise still be held when the commit reads the site. Muzzy
 * pages (given back lazily) are skipped: nothing else wants them soon.
 * Every mapping is advised for transparent huge pages, which the
 * process takes only while xalloc_huge says so (the kernel's
 * PR_SET_THP_DISABLE, checked at each fault).
 */
const char *malloc_conf = "dirty_decay_ms:" XALLOC_STR(XALLOC_DECAY_MS)
    ",muzzy_decay_ms:0,thp:always";
#endif

/* 1 while xalloc_keep holds freed pages: xtrim does nothing. */
static atomic_int keep_pages;

/* 1 while xalloc_huge has the kernel fault huge pages in. */
static atomic_int huge_pages;

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

#ifdef MIRROR_JEMALLOC
/* Every arena's decay, and that of arenas made from now on, to ms
 * (-1: never). An arena not made yet (EFAULT) is skipped. */
static void
decay_set(ssize_t ms)
{
	unsigned n = 0;
	size_t len = sizeof(n);
	char name[64];

	(void)mallctl("arenas.dirty_decay_ms", NULL, NULL, &ms, sizeof(ms));
	if (mallctl("arenas.narenas", &n, &len, NULL, 0) != 0)
		return;
	for (unsigned i = 0; i < n; i++) {
		int k = snprintf(name, sizeof(name), "arena.%u.dirty_decay_ms",
		    i);

		if (k > 0 && (size_t)k < sizeof(name))
			(void)mallctl(name, NULL, NULL, &ms, sizeof(ms));
	}
}
#endif

void
xalloc_keep(int on)
{
	if (atomic_exchange(&keep_pages, on != 0) == (on != 0))
		return;
#ifdef MIRROR_JEMALLOC
	decay_set(on ? -1 : XALLOC_DECAY_MS);
#endif
}

int
xalloc_huge(int on)
{
	on = on != 0;
#ifdef PR_SET_THP_DISABLE
	if (prctl(PR_SET_THP_DISABLE, on ? 0 : 1, 0, 0, 0) != 0)
		on = 0;
#else
	on = 0;
#endif
	atomic_store(&huge_pages, on);
	return on;
}

int
xalloc_huge_on(void)
{
	return atomic_load(&huge_pages);
}

void
xalloc_thread_begin(void)
{
#ifdef MIRROR_JEMALLOC
	unsigned first = 0;

	if (atomic_load(&keep_pages))
		(void)mallctl("thread.arena", NULL, NULL, &first,
		    sizeof(first));
#endif
}

void
xtrim(void)
{
	if (atomic_load(&keep_pages))
		return;
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
