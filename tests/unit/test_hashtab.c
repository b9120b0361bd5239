/*
 * test_hashtab.c: core/util/hashtab, the one hash table: insert and
 * look up, growth, keys that share a slot or a whole hash, many keys,
 * walking every entry.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/hash.h"
#include "util/hashtab.h"

/* A map entry as callers write one: the key first, a value after. */
struct ent {
	uint64_t key;
	uint64_t value;
	const char *name;
};

/* The first slot key probes in a table of cap slots (hashtab.c's). */
static size_t
home(uint64_t key, size_t cap)
{
	int shift = 64;

	for (size_t c = cap; c > 1; c >>= 1)
		shift--;
	return (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> shift);
}

/* 1: an empty table finds nothing; put makes an entry, zeroed but for
 * its key, and finds it again; get finds what put made. */
static void
test_put_get(void **state)
{
	struct hashtab t;
	struct ent *e, *f;
	int added;

	(void)state;
	hashtab_init(&t, sizeof(struct ent));
	assert_null(hashtab_get(&t, 42));
	assert_null(hashtab_get(&t, 0));
	e = hashtab_put(&t, 42, &added);
	assert_int_equal(added, 1);
	assert_int_equal(e->key, 42);
	assert_int_equal(e->value, 0);
	assert_null(e->name);
	e->value = 7;
	f = hashtab_put(&t, 42, &added);
	assert_int_equal(added, 0);
	assert_ptr_equal(e, f);
	assert_int_equal(f->value, 7);
	assert_ptr_equal(hashtab_get(&t, 42), e);
	assert_null(hashtab_get(&t, 43));
	assert_null(hashtab_get(&t, 0));
	assert_int_equal(t.n, 1);
	hashtab_free(&t);
	assert_int_equal(t.n, 0);
	assert_null(hashtab_get(&t, 42));
	/* Freed, it is empty and usable again. */
	e = hashtab_put(&t, 5, &added);
	assert_int_equal(added, 1);
	hashtab_free(&t);
}

/* 2: growth keeps every entry and its value, never lets the table pass
 * half full, and a reserve makes room so that inserts move nothing. */
static void
test_grow(void **state)
{
	struct hashtab t;
	struct ent *e;
	unsigned char *slots;
	int added;

	(void)state;
	hashtab_init(&t, sizeof(struct ent));
	for (uint64_t k = 1; k <= 1000; k++) {
		e = hashtab_put(&t, k, &added);
		assert_int_equal(added, 1);
		e->value = k * 3;
		assert_true(t.n * 2 <= t.cap);
		assert_int_equal(t.cap & (t.cap - 1), 0);
	}
	assert_int_equal(t.n, 1000);
	for (uint64_t k = 1; k <= 1000; k++) {
		e = hashtab_get(&t, k);
		assert_non_null(e);
		assert_int_equal(e->value, k * 3);
	}
	assert_null(hashtab_get(&t, 1001));
	hashtab_free(&t);

	hashtab_init(&t, sizeof(uint64_t));
	hashtab_reserve(&t, 5000);
	slots = t.slots;
	assert_true(t.cap >= 10000);
	for (uint64_t k = 1; k <= 5000; k++)
		(void)hashtab_put(&t, k * 977, NULL);
	assert_ptr_equal(t.slots, slots);
	/* A smaller reserve changes nothing. */
	hashtab_reserve(&t, 10);
	assert_ptr_equal(t.slots, slots);
	hashtab_free(&t);
}

/* 3: keys that probe from the same slot, the last one so that their
 * run wraps around to slot 0, are all found; a key of that slot that
 * was never put is not. */
static void
test_collisions(void **state)
{
	uint64_t keys[9];
	struct hashtab t;
	size_t n = 0;
	int added;

	(void)state;
	/* Nine keys whose home is the last of 16 slots: a table of 16
	 * holds eight, so the ninth is the absent one. */
	for (uint64_t k = 1; n < 9; k++)
		if (home(k, 16) == 15)
			keys[n++] = k;
	hashtab_init(&t, sizeof(struct ent));
	hashtab_reserve(&t, 8);
	assert_int_equal(t.cap, 16);
	for (size_t i = 0; i < 8; i++) {
		struct ent *e = hashtab_put(&t, keys[i], &added);

		assert_int_equal(added, 1);
		e->value = i;
	}
	assert_int_equal(t.cap, 16);
	for (size_t i = 0; i < 8; i++) {
		struct ent *e = hashtab_get(&t, keys[i]);

		assert_non_null(e);
		assert_int_equal(e->key, keys[i]);
		assert_int_equal(e->value, i);
	}
	assert_null(hashtab_get(&t, keys[8]));
	/* The ninth grows the table; all nine are there after. */
	(void)hashtab_put(&t, keys[8], &added);
	assert_int_equal(added, 1);
	assert_true(t.cap > 16);
	for (size_t i = 0; i < 9; i++)
		assert_non_null(hashtab_get(&t, keys[i]));
	hashtab_free(&t);
}

/* A deliberately poor string hash: every name of a length collides. */
static uint64_t
bad_hash(const char *s)
{
	return strlen(s) + 1;
}

/* The entry of name, walking every entry of its hash. */
static struct ent *
find_name(const struct hashtab *t, const char *name)
{
	struct ent *e;

	for (e = hashtab_get(t, bad_hash(name)); e != NULL;
	    e = hashtab_next(t, e))
		if (strcmp(e->name, name) == 0)
			return e;
	return NULL;
}

/* 4: keys that are hashes of strings: hashtab_add keeps every string
 * of one hash, and get with next walks them all, through growth. */
static void
test_same_hash(void **state)
{
	static const char *const names[] = { "ab", "cd", "ef", "gh", "ij",
	    "abc", "def", "x", "y", "z", "klmn", "opqr", "st", "uv" };
	const size_t nn = sizeof(names) / sizeof(names[0]);
	struct hashtab t;
	size_t count = 0;

	(void)state;
	hashtab_init(&t, sizeof(struct ent));
	for (size_t i = 0; i < nn; i++) {
		struct ent *e = hashtab_add(&t, bad_hash(names[i]));

		e->name = names[i];
		e->value = i;
	}
	assert_int_equal(t.n, nn);
	for (size_t i = 0; i < nn; i++) {
		struct ent *e = find_name(&t, names[i]);

		assert_non_null(e);
		assert_int_equal(e->value, i);
	}
	assert_null(find_name(&t, "qq"));
	assert_null(find_name(&t, "w"));
	for (struct ent *e = hashtab_get(&t, bad_hash("ab")); e != NULL;
	    e = hashtab_next(&t, e))
		count++;
	assert_int_equal(count, 7);     /* the names of two letters */
	hashtab_free(&t);
}

/* 5: many keys, sequential and FNV hashes of numbers alike (a set: the
 * key alone), are each found once, and absent keys are not. */
static void
test_many(void **state)
{
	const uint64_t n = 200000;
	struct hashtab t;
	int added;

	(void)state;
	hashtab_init(&t, sizeof(uint64_t));
	for (uint64_t i = 1; i <= n; i++) {
		uint64_t h = hash_add(MIRROR_HASH_INIT, &i, sizeof(i));

		(void)hashtab_put(&t, i, &added);
		assert_int_equal(added, 1);
		(void)hashtab_put(&t, h, &added);
		assert_int_equal(added, 1);
	}
	for (uint64_t i = 1; i <= n; i++) {
		uint64_t h = hash_add(MIRROR_HASH_INIT, &i, sizeof(i));
		uint64_t *k = hashtab_get(&t, i);

		assert_non_null(k);
		assert_int_equal(*k, i);
		assert_non_null(hashtab_get(&t, h));
		(void)hashtab_put(&t, i, &added);
		assert_int_equal(added, 0);
	}
	for (uint64_t i = n + 1; i <= n + 1000; i++)
		assert_null(hashtab_get(&t, i));
	assert_int_equal(t.n, 2 * n);
	hashtab_free(&t);
}

/* 6: hashtab_each visits every entry once, same-hash ones included,
 * and nothing of an empty table. */
static void
test_each(void **state)
{
	struct hashtab t;
	struct ent *e = NULL;
	uint64_t sum = 0;
	size_t n = 0;

	(void)state;
	hashtab_init(&t, sizeof(struct ent));
	assert_null(hashtab_each(&t, NULL));
	for (uint64_t k = 1; k <= 100; k++) {
		e = hashtab_put(&t, k, NULL);
		e->value = k;
	}
	e = hashtab_add(&t, 7);
	e->value = 1000;
	e = NULL;
	while ((e = hashtab_each(&t, e)) != NULL) {
		sum += e->value;
		n++;
	}
	assert_int_equal(n, 101);
	assert_int_equal(sum, 5050 + 1000);
	hashtab_free(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_collisions),
		cmocka_unit_test(test_same_hash),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_each),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
