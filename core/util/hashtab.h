/*
 * hashtab.h: the one hash table, open addressing keyed by 64-bit hashes.
 *
 *	struct seen { uint64_t key; size_t count; };	key first, always
 *	struct hashtab t;
 *	struct seen *s;
 *	int added;
 *
 *	hashtab_init(&t, sizeof(struct seen));
 *	s = hashtab_put(&t, h, &added);		find, or make zeroed
 *	s->count++;
 *	s = hashtab_get(&t, h);			find, or NULL
 *	hashtab_free(&t);
 *
 * An entry is the caller's struct of a fixed size whose first member is
 * its uint64_t key, usually a hash from util/hash.h (the table spreads
 * keys by Fibonacci hashing, so FNV's weak low bits do no harm). Key 0
 * marks an empty slot and is never a key: callers map a hash of 0 to 1
 * (hashtab_get finds nothing for it; hashtab_put and hashtab_add abort,
 * as on any bug).
 * A set is an entry of the key alone (hashtab_put(&t, h, NULL) adds h);
 * a map puts its value after the key.
 * When the key is the hash of a longer key (a string), two long keys can
 * share a hash: hashtab_add keeps both, and the caller walks the entries
 * of a hash with hashtab_get and hashtab_next to find its own.
 *
 * The table owns its slots and frees them in hashtab_free; the caller
 * owns whatever an entry points to. A pointer to an entry is valid until
 * the next hashtab_put, hashtab_add or hashtab_reserve (which may move
 * every entry). Growth keeps at most half the slots full and, like
 * xalloc.h, exits (status 3) when memory runs out: no call fails.
 */
#ifndef MIRROR_HASHTAB_H
#define MIRROR_HASHTAB_H

#include <stddef.h>
#include <stdint.h>

struct hashtab {
	unsigned char *slots;   /* cap entries of size bytes; key 0: empty */
	size_t size;            /* of one entry, its key first */
	size_t cap;             /* a power of two, or 0 before any entry */
	size_t n;               /* entries held */
	int shift;              /* 64 - log2(cap) */
};

/* An empty table of entries of size bytes (at least a uint64_t). */
void hashtab_init(struct hashtab *t, size_t size);

/* Free the slots; t is empty again, as after hashtab_init. */
void hashtab_free(struct hashtab *t);

/* Make room for n entries in all, so that inserting up to n moves
 * nothing. */
void hashtab_reserve(struct hashtab *t, size_t n);

/* The entry of key, or NULL when there is none (or key is 0). */
void *hashtab_get(const struct hashtab *t, uint64_t key);

/* The next entry after prev (an entry of this table) with the same key,
 * or NULL: with hashtab_get, every entry of one key, in no set order. */
void *hashtab_next(const struct hashtab *t, const void *prev);

/* The entry after prev in slot order (prev NULL: the first), or NULL
 * after the last: every entry once, in no set order, for a walk that
 * frees what entries point to. */
void *hashtab_each(const struct hashtab *t, const void *prev);

/*
 * The entry of key (not 0): the one there is, *added set to 0, or a new
 * one, zeroed but for its key, *added set to 1 (added may be NULL).
 */
void *hashtab_put(struct hashtab *t, uint64_t key, int *added);

/* A new entry of key (not 0), zeroed but for its key, even when the
 * table holds one already. */
void *hashtab_add(struct hashtab *t, uint64_t key);

#endif
