/*
 * byid.c: find the elements of an array by a string id (see byid.h).
 */
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/byid.h"
#include "util/hash.h"
#include "util/xalloc.h"

/* The id at offset off of element e. */
static const char *
id_of(const void *e, size_t off)
{
	const char *id;

	memcpy(&id, (const char *)e + off, sizeof(id));
	return id;
}

/* array_sort order of two pointers of an index: by the ids at the
 * offset *off in the elements they point to. */
static int
cmp_id(const void *a, const void *b, const void *off)
{
	return strcmp(id_of(*(void *const *)a, *(const size_t *)off),
	    id_of(*(void *const *)b, *(const size_t *)off));
}

/* array_find order of an id (key) and a pointer of an index. */
static int
cmp_key_ptr(const void *key, const void *e, const void *off)
{
	return strcmp(*(const char *const *)key,
	    id_of(*(void *const *)e, *(const size_t *)off));
}

/* array_find order of an id (key) and an element holding one. */
static int
cmp_key_el(const void *key, const void *e, const void *off)
{
	return strcmp(*(const char *const *)key,
	    id_of(e, *(const size_t *)off));
}

void **
byid_index(void *items, size_t n, size_t size, size_t off)
{
	void **by = xcalloc(n + 1, sizeof(*by));

	for (size_t i = 0; i < n; i++)
		by[i] = (char *)items + i * size;
	array_sort(by, n, sizeof(*by), cmp_id, &off);
	return by;
}

void *
byid_find(void *const *by, size_t n, size_t off, const char *id)
{
	size_t at = array_find(&id, by, n, sizeof(*by), cmp_key_ptr, &off);

	return at != ARRAY_NONE ? by[at] : NULL;
}

size_t
byid_sorted(const void *items, size_t n, size_t size, size_t off,
    const char *id)
{
	return array_find(&id, items, n, size, cmp_key_el, &off);
}

/* An entry of a byid_pairs table. */
struct pair_at {
	uint64_t key;
	size_t at;
};

/* The table's key of the pair (a, b): never 0, which marks a free slot. */
static uint64_t
pair_key(const char *a, const char *b)
{
	uint64_t h = hash_add_str(hash_add_str(MIRROR_HASH_INIT, a), b);

	return h != 0 ? h : 1;
}

/* The entry of ix for the pair (a, b), or NULL. */
static const struct pair_at *
pair_get(const struct byid_pairs *ix, const void *items, const char *a,
    const char *b)
{
	const struct pair_at *e = hashtab_get(&ix->t, pair_key(a, b));

	/* Two pairs may share a hash: each has its own entry. */
	for (; e != NULL; e = hashtab_next(&ix->t, e)) {
		const char *el = (const char *)items + e->at * ix->size;

		if (strcmp(id_of(el, ix->oa), a) == 0 &&
		    strcmp(id_of(el, ix->ob), b) == 0)
			return e;
	}
	return NULL;
}

void
byid_pairs_index(struct byid_pairs *ix, const void *items, size_t n,
    size_t size, size_t oa, size_t ob)
{
	*ix = (struct byid_pairs){ .size = size, .oa = oa, .ob = ob };
	hashtab_init(&ix->t, sizeof(struct pair_at));
	for (size_t i = 0; i < n; i++) {
		const char *el = (const char *)items + i * size;
		const char *a = id_of(el, oa), *b = id_of(el, ob);
		struct pair_at *e;

		if (pair_get(ix, items, a, b) != NULL)
			continue;       /* not the first of its pair */
		e = hashtab_add(&ix->t, pair_key(a, b));
		e->at = i;
	}
}

size_t
byid_pairs_find(const struct byid_pairs *ix, const void *items,
    const char *a, const char *b)
{
	const struct pair_at *e = pair_get(ix, items, a, b);

	return e != NULL ? e->at : BYID_NONE;
}

void
byid_pairs_free(struct byid_pairs *ix)
{
	hashtab_free(&ix->t);
}
