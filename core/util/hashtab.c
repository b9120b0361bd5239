/*
 * hashtab.c: the one hash table (hashtab.h). Linear probing from the
 * key's Fibonacci hash, never more than half full, so a probe meets an
 * empty slot soon. Nothing is ever removed, so every empty slot is all
 * zero bytes: a new entry needs only its key written.
 */
#include <stdlib.h>
#include <string.h>

#include "util/hashtab.h"
#include "util/xalloc.h"

/* 2^64 divided by the golden ratio: spreads every bit of a key. */
#define FIBONACCI UINT64_C(0x9e3779b97f4a7c15)

/* The fewest slots a table has once it holds anything. */
#define MIN_CAP 16

/* The entry in slot pos. */
static unsigned char *
slot(const struct hashtab *t, size_t pos)
{
	return t->slots + pos * t->size;
}

/* The key of entry e (0: an empty slot). */
static uint64_t
key_of(const unsigned char *e)
{
	uint64_t k;

	memcpy(&k, e, sizeof(k));
	return k;
}

/* The first slot key probes. */
static size_t
home(const struct hashtab *t, uint64_t key)
{
	return (size_t)((key * FIBONACCI) >> t->shift);
}

/* The first entry of key from slot pos on, or NULL at an empty slot. */
static void *
probe(const struct hashtab *t, uint64_t key, size_t pos)
{
	uint64_t k;

	while ((k = key_of(slot(t, pos))) != 0) {
		if (k == key)
			return slot(t, pos);
		pos = (pos + 1) & (t->cap - 1);
	}
	return NULL;
}

/* The first empty slot key probes; the table has one (half full). */
static unsigned char *
empty_slot(const struct hashtab *t, uint64_t key)
{
	size_t pos = home(t, key);

	while (key_of(slot(t, pos)) != 0)
		pos = (pos + 1) & (t->cap - 1);
	return slot(t, pos);
}

/* Move every entry into cap new slots (a power of two, >= MIN_CAP). */
static void
rehash(struct hashtab *t, size_t cap)
{
	unsigned char *old = t->slots;
	size_t oldcap = t->cap;

	/* Zeroed by writing, not calloc: a large calloc maps the zero page,
	 * which the first probe reads, so each page then faulted twice, the
	 * second time a copy on write that stops the other threads' CPUs
	 * to flush their TLBs. */
	t->slots = xreallocarray(NULL, cap, t->size);
	xprefault(t->slots, cap * t->size);
	memset(t->slots, 0, cap * t->size);
	t->cap = cap;
	t->shift = 64;
	for (size_t c = cap; c > 1; c >>= 1)
		t->shift--;
	for (size_t i = 0; i < oldcap; i++) {
		const unsigned char *e = old + i * t->size;
		uint64_t k = key_of(e);

		if (k != 0)
			memcpy(empty_slot(t, k), e, t->size);
	}
	free(old);
}

void
hashtab_init(struct hashtab *t, size_t size)
{
	memset(t, 0, sizeof(*t));
	t->size = size;
}

void
hashtab_free(struct hashtab *t)
{
	free(t->slots);
	hashtab_init(t, t->size);
}

void
hashtab_reserve(struct hashtab *t, size_t n)
{
	size_t cap = t->cap != 0 ? t->cap : MIN_CAP;

	if (n <= t->cap / 2)
		return;
	/* Past SIZE_MAX / 2 slots xcalloc refuses and exits. */
	while (cap / 2 < n && cap <= SIZE_MAX / 2)
		cap *= 2;
	rehash(t, cap);
}

void *
hashtab_get(const struct hashtab *t, uint64_t key)
{
	if (t->cap == 0 || key == 0)
		return NULL;
	return probe(t, key, home(t, key));
}

void *
hashtab_next(const struct hashtab *t, const void *prev)
{
	size_t pos = (size_t)((const unsigned char *)prev - t->slots) /
	    t->size;

	return probe(t, key_of(prev), (pos + 1) & (t->cap - 1));
}

void *
hashtab_each(const struct hashtab *t, const void *prev)
{
	size_t pos = prev == NULL ? 0 : (size_t)((const unsigned char *)prev -
	    t->slots) / t->size + 1;

	for (; pos < t->cap; pos++)
		if (key_of(slot(t, pos)) != 0)
			return slot(t, pos);
	return NULL;
}

void *
hashtab_put(struct hashtab *t, uint64_t key, int *added)
{
	unsigned char *e;
	size_t pos;
	uint64_t k;

	if (key == 0)
		abort();
	hashtab_reserve(t, t->n + 1);
	pos = home(t, key);
	while ((k = key_of(slot(t, pos))) != 0 && k != key)
		pos = (pos + 1) & (t->cap - 1);
	e = slot(t, pos);
	if (added != NULL)
		*added = k == 0;
	if (k == 0) {
		memcpy(e, &key, sizeof(key));
		t->n++;
	}
	return e;
}

void *
hashtab_add(struct hashtab *t, uint64_t key)
{
	unsigned char *e;

	if (key == 0)
		abort();
	hashtab_reserve(t, t->n + 1);
	e = empty_slot(t, key);
	memcpy(e, &key, sizeof(key));
	t->n++;
	return e;
}
