/*
 * arena.h: a bump allocator for the many small blocks of one short job,
 * all freed at once.
 *
 * cmark-gfm allocates every node, string and buffer of a parse and
 * frees each again (a thousand blocks for a small page, a tenth of a
 * render's instructions in the allocator): through an arena a block is
 * a pointer bump, and the parse's memory goes back in one arena_free.
 *
 * Blocks are aligned for any type. arena_block_free reclaims only the
 * newest block (a buffer given back right after it was taken); any
 * other block lives until arena_free. A block of a quarter chunk or
 * more is a malloc of its own, resized in place. Like xalloc.h, running
 * out of memory exits (status 3): no call fails. Not thread-safe: one
 * arena per thread.
 */
#ifndef MIRROR_RENDER_ARENA_H
#define MIRROR_RENDER_ARENA_H

#include <stddef.h>

struct arena {
	unsigned char *at, *end;        /* the newest chunk's free room */
	unsigned char *last;            /* the newest small block, or NULL */
	void **owned;                   /* chunks and big blocks, freed by
	                                   arena_free */
	size_t n_owned, cap_owned;
};

/* An empty arena (it allocates on first use). */
void arena_init(struct arena *a);

/* n bytes, not zeroed (n 0: a valid block of none). */
void *arena_alloc(struct arena *a, size_t n);

/* nmemb * size bytes, zeroed; exits on overflow as on no memory. */
void *arena_calloc(struct arena *a, size_t nmemb, size_t size);

/* p (a block of a, or NULL: arena_alloc) resized to n bytes, its first
 * bytes kept; the old block may still take room until arena_free. */
void *arena_realloc(struct arena *a, void *p, size_t n);

/* Give p back: its room is reused when it is the newest block (else
 * nothing happens until arena_free). p may be NULL. */
void arena_block_free(struct arena *a, void *p);

/* Free every block; a is empty again, as after arena_init. */
void arena_free(struct arena *a);

#endif
