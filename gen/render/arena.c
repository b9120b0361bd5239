/*
 * arena.c: a bump allocator (arena.h).
 *
 * Each block has a header of its size and whether it is a malloc of its
 * own ("big"), so that a block can be resized; headers and sizes are
 * kept in units of ARENA_ALIGN, so every block stays aligned as malloc
 * aligns.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/arena.h"
#include "util/array.h"
#include "util/xalloc.h"

#define ARENA_ALIGN 16
/* A small page's parse takes one chunk. */
#define CHUNK ((size_t)256 * 1024)
/* What arena_reset keeps of the chunks, for the next job. */
#define ARENA_KEEP ((size_t)1024 * 1024)
/* At least this many bytes: a malloc of its own, resized in place. */
#define BIG ((size_t)16 * 1024)

struct head {
	size_t size;    /* the bytes asked for */
	size_t big;     /* 1: a malloc of its own, listed in big */
};

_Static_assert(sizeof(struct head) == ARENA_ALIGN, "a header keeps the "
    "alignment");

/* No block is this large: a size past it cannot be a real one (and
 * would wrap when its header is added). */
#define TOO_BIG (SIZE_MAX / 2)

/* n rounded up to the alignment (n <= TOO_BIG). */
static size_t
round_up(size_t n)
{
	return (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

static struct head *
head_of(void *p)
{
	return (struct head *)(void *)((unsigned char *)p - sizeof(struct
	    head));
}

/* The index of big block h in a->big, or a->n_big when it is not one.
 * Searched from the newest: a buffer grows as it is filled. */
static size_t
big_index(const struct arena *a, const struct head *h)
{
	for (size_t i = a->n_big; i-- > 0;)
		if (a->big[i] == h)
			return i;
	return a->n_big;
}

void
arena_init(struct arena *a)
{
	memset(a, 0, sizeof(*a));
}

/* A block of n bytes (n >= BIG) as a malloc of its own. */
static void *
big_alloc(struct arena *a, size_t n)
{
	struct head *h = xmalloc(sizeof(*h) + n);

	h->size = n;
	h->big = 1;
	ARRAY_PUSH(a->big, a->n_big, a->cap_big) = h;
	return h + 1;
}

void *
arena_alloc(struct arena *a, size_t n)
{
	size_t need;
	struct head *h;

	if (n > TOO_BIG)
		xalloc_fail(n);
	if (n >= BIG)
		return big_alloc(a, n);
	need = sizeof(*h) + round_up(n);
	if ((size_t)(a->end - a->at) < need) {
		/* The next chunk: one kept by arena_reset, or a new one. */
		if (a->cur + 1 < a->n_chunks)
			a->cur++;
		else {
			ARRAY_PUSH(a->chunks, a->n_chunks, a->cap_chunks) =
			    xmalloc(CHUNK);
			a->cur = a->n_chunks - 1;
		}
		a->at = a->chunks[a->cur];
		a->end = a->at + CHUNK;
	}
	h = (struct head *)(void *)a->at;
	h->size = n;
	h->big = 0;
	a->at += need;
	a->last = (unsigned char *)(h + 1);
	return h + 1;
}

void *
arena_calloc(struct arena *a, size_t nmemb, size_t size)
{
	void *p;

	if (size != 0 && nmemb > TOO_BIG / size)
		xalloc_fail(SIZE_MAX);
	p = arena_alloc(a, nmemb * size);
	memset(p, 0, nmemb * size);
	return p;
}

void *
arena_realloc(struct arena *a, void *p, size_t n)
{
	struct head *h;
	size_t i;
	void *q;

	if (p == NULL || n > TOO_BIG)
		return arena_alloc(a, n);       /* past TOO_BIG: exits */
	h = head_of(p);
	if (h->big && (i = big_index(a, h)) < a->n_big) {
		h = xrealloc(h, sizeof(*h) + (n ? n : 1));
		h->size = n;
		a->big[i] = h;
		return h + 1;
	}
	/* The newest block grows where it is while it fits. */
	if (p == a->last && n < BIG && round_up(n) <= (size_t)(a->end -
	    (unsigned char *)p)) {
		h->size = n;
		a->at = (unsigned char *)p + round_up(n);
		return p;
	}
	q = arena_alloc(a, n);
	memcpy(q, p, h->size < n ? h->size : n);
	return q;
}

void
arena_block_free(struct arena *a, void *p)
{
	struct head *h;
	size_t i;

	if (p == NULL)
		return;
	h = head_of(p);
	if (h->big) {
		if ((i = big_index(a, h)) < a->n_big) {
			a->big[i] = a->big[--a->n_big];
			free(h);
		}
		return;
	}
	if (p == a->last) {
		a->at = (unsigned char *)h;
		a->last = NULL;
	}
}

void
arena_reset(struct arena *a)
{
	size_t keep = ARENA_KEEP / CHUNK;

	for (size_t i = 0; i < a->n_big; i++)
		free(a->big[i]);
	a->n_big = 0;
	for (size_t i = keep; i < a->n_chunks; i++)
		free(a->chunks[i]);
	if (a->n_chunks > keep)
		a->n_chunks = keep;
	a->cur = 0;
	a->at = a->n_chunks > 0 ? a->chunks[0] : NULL;
	a->end = a->n_chunks > 0 ? a->at + CHUNK : NULL;
	a->last = NULL;
}

void
arena_free(struct arena *a)
{
	for (size_t i = 0; i < a->n_big; i++)
		free(a->big[i]);
	for (size_t i = 0; i < a->n_chunks; i++)
		free(a->chunks[i]);
	free(a->big);
	free(a->chunks);
	arena_init(a);
}
