/*
 * arena.h: a bump allocator for the many small blocks of one short job,
 * all freed at once, its room kept for the next job.
 *
 * cmark-gfm allocates every node, string and buffer of a parse and
 * frees each again (many blocks even for a small page, each a trip
 * through the allocator): through an arena a block is
 * a pointer bump, and the parse's memory goes back in one arena_reset,
 * which keeps the first chunks for the next page instead of taking
 * them from malloc again. A block freed before the reset is not reused
 * (but for the newest), so a long job's peak is more than malloc's:
 * markdown.c gives long pages to malloc.
 *
 * Blocks are aligned for any type. arena_block_free reclaims only the
 * newest block (a buffer given back right after it was taken); any
 * other block lives until arena_reset. A block of 16 KB or more is a
 * malloc of its own, resized in place. Like xalloc.h, running out of
 * memory exits (status 3): no call fails. Not thread-safe: one arena
 * per thread.
 */
#ifndef MIRROR_RENDER_ARENA_H
#define MIRROR_RENDER_ARENA_H

#include <stddef.h>

struct arena {
	unsigned char *at, *end;        /* the current chunk's free room */
	unsigned char *last;            /* the newest small block, or NULL */
	unsigned char **chunks;         /* every chunk, in order of use */
	size_t n_chunks, cap_chunks, cur;       /* cur: the one in use */
	void **big;                     /* the blocks of their own */
	size_t n_big, cap_big;
};

/* An empty arena (it allocates on first use). */
void arena_init(struct arena *a);

/* n bytes, not zeroed (n 0: a valid block of none). */
void *arena_alloc(struct arena *a, size_t n);

/* nmemb * size bytes, zeroed; exits on overflow as on no memory. */
void *arena_calloc(struct arena *a, size_t nmemb, size_t size);

/* p (a block of a, or NULL: arena_alloc) resized to n bytes, its first
 * bytes kept; the old block may still take room until arena_reset. */
void *arena_realloc(struct arena *a, void *p, size_t n);

/* Give p back: its room is reused when it is the newest block (else
 * nothing happens until arena_reset). p may be NULL. */
void arena_block_free(struct arena *a, void *p);

/* Free every block; the first chunks stay for the blocks to come (at
 * most ARENA_KEEP bytes of them), the others are freed. */
void arena_reset(struct arena *a);

/* Free every block and chunk; a is empty again, as after arena_init. */
void arena_free(struct arena *a);

#endif
