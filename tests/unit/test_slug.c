/*
 * test_slug.c: slugs are safe file names, stable, and distinct.
 * The promises of doc/site.md, "Slugs".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render/slug.h"
#include "util/xalloc.h"

/* The shape every slug has: [a-z0-9]+(-[a-z0-9]+)*, optional --hash. */
static void
assert_safe(const char *s, const char *id)
{
	static const char *const dev[] = {
		"con", "prn", "aux", "nul", "com1", "lpt9"
	};
	size_t n = strlen(s), dashes = 0;
	const char *h = strstr(s, "--");

	if (n == 0 || n > SLUG_MAX || s[0] == '-' || s[n - 1] == '-')
		fail_msg("slug '%s' of '%.40s' has a bad length or edge", s, id);
	for (size_t i = 0; i < n; i++) {
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' &&
		    s[i] <= '9') || s[i] == '-'))
			fail_msg("slug '%s' holds '%c'", s, s[i]);
		dashes = s[i] == '-' ? dashes + 1 : 0;
		if (dashes > 2)
			fail_msg("slug '%s' has a run of dashes", s);
	}
	if (h != NULL) {
		/* Only the hash separator may be a double dash. */
		assert_null(strstr(h + 2, "--"));
		assert_int_equal(strlen(h + 2), 8);
		assert_int_equal(strspn(h + 2, "0123456789abcdef"), 8);
	}
	for (size_t i = 0; i < sizeof(dev) / sizeof(dev[0]); i++)
		assert_string_not_equal(s, dev[i]);
}

static void
expect(const char *id, const char *want)
{
	char s[SLUG_SIZE];

	slug_make(s, id);
	assert_safe(s, id);
	if (strcmp(s, want) != 0)
		fail_msg("slug of '%s': got '%s', want '%s'", id, s, want);
}

/* 1: clean ids are their own slug. */
static void
test_clean(void **state)
{
	(void)state;
	expect("p05-interferometer", "p05-interferometer");
	expect("c-1a2b3c4d", "c-1a2b3c4d");
	expect("x", "x");
	assert_int_equal(slug_is_clean("p05"), 1);
	assert_int_equal(slug_is_clean("a--b"), 0);
	assert_int_equal(slug_is_clean("-a"), 0);
	assert_int_equal(slug_is_clean("con"), 0);
	assert_int_equal(slug_is_clean(""), 0);
	assert_int_equal(slug_is_clean(NULL), 0);
}

/* 2: the hard cases, with their values pinned (slugs are URLs: they
 * must never change between versions; the hashes were checked against
 * an independent FNV-1a in Python). */
static void
test_hard_cases(void **state)
{
	(void)state;
	expect("../../etc", "etc--b2d9fe41");
	expect("con", "con--f604f119");
	expect("CON.txt", "con-txt--a53cf638");
	expect("", "x--cbf29ce4");
	expect("  ", "x--07c5a807");
	expect(".", "x--af63a34c");
	expect("..", "x--07da1a07");
	expect("\xc3\x9c" "bergr\xc3\xb6\xc3\x9f" "e", "ubergrosse--0b92f89d");
	expect("A b", "a-b--fa95b919");
	expect("a/b\\c:d", "a-b-c-d--025504a2");
	expect("\xff\xfe", "x--0a99c807");
	expect("lpt1", "lpt1--9815dead");
}

/* 3: long ids are capped and still distinct when prefixes agree. */
static void
test_long(void **state)
{
	char *a = xmalloc(5001), *b = xmalloc(5001);
	char sa[SLUG_SIZE], sb[SLUG_SIZE];

	(void)state;
	memset(a, 'a', 5000);
	a[5000] = '\0';
	memcpy(b, a, 5001);
	b[4999] = 'b';
	slug_make(sa, a);
	slug_make(sb, b);
	assert_safe(sa, a);
	assert_safe(sb, b);
	assert_string_not_equal(sa, sb);
	assert_int_equal(strlen(sa), SLUG_MAX);
	/* A clean id one over the base cap is hashed too. */
	a[SLUG_BASE_MAX + 1] = '\0';
	slug_make(sa, a);
	assert_non_null(strstr(sa, "--"));
	a[SLUG_BASE_MAX] = '\0';
	slug_make(sa, a);
	assert_string_equal(sa, a);
	free(a);
	free(b);
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* 4: ids that look alike get distinct slugs; a clean id can never take
 * the slug of a hashed one. */
static void
test_distinct(void **state)
{
	static const char *const fixed[] = {
		"A b", "a-b", "a b", "a_b", "A-B", "a--b", "a-b--fa95b919",
		"a.b", "a b ", " a b", "con", "con--f604f119", "", "x", "x--cbf29ce4",
		"Übergröße", "ubergrosse", "UBERGROSSE", "p05", "P05", "p05 ",
	};
	size_t nf = sizeof(fixed) / sizeof(fixed[0]), n = nf + 4000;
	char **slugs = xcalloc(n, sizeof(*slugs));
	char id[64];

	(void)state;
	for (size_t i = 0; i < nf; i++) {
		slugs[i] = xmalloc(SLUG_SIZE);
		slug_make(slugs[i], fixed[i]);
		assert_safe(slugs[i], fixed[i]);
	}
	/* Generated near-collisions: case and separator variants. */
	for (size_t i = 0; i < 4000; i++) {
		static const char *const sep[] = { " ", "-", "_", "." };

		snprintf(id, sizeof(id), "%s%zu%sitem", i % 2 ? "Fact" : "fact",
		    i / 8, sep[(i / 2) % 4]);
		slugs[nf + i] = xmalloc(SLUG_SIZE);
		slug_make(slugs[nf + i], id);
		assert_safe(slugs[nf + i], id);
	}
	qsort(slugs, n, sizeof(*slugs), cmp_str);
	for (size_t i = 1; i < n; i++)
		if (strcmp(slugs[i - 1], slugs[i]) == 0)
			fail_msg("two ids share the slug '%s'", slugs[i]);
	for (size_t i = 0; i < n; i++)
		free(slugs[i]);
	free(slugs);
}

/* 5: slug_make_n sees embedded NUL bytes; NULL is "". */
static void
test_bytes(void **state)
{
	char a[SLUG_SIZE], b[SLUG_SIZE];

	(void)state;
	slug_make_n(a, "ab\0cd", 5);
	slug_make_n(b, "ab", 2);
	assert_string_not_equal(a, b);
	assert_string_equal(b, "ab");
	slug_make(a, NULL);
	assert_string_equal(a, "x--cbf29ce4");
}

/* 6: the alphabet check that guards ids in templates and markup. */
static void
test_alphabet(void **state)
{
	(void)state;
	assert_true(slug_alphabet_only("state-s1", 8));
	assert_true(slug_alphabet_only("etc--b2d9fe41", 13));
	assert_false(slug_alphabet_only("", 0));
	assert_false(slug_alphabet_only("State", 5));
	assert_false(slug_alphabet_only("a b", 3));
	assert_false(slug_alphabet_only("x\"y", 3));
	assert_false(slug_alphabet_only("a_b", 3));
	/* Only the first n bytes count. */
	assert_true(slug_alphabet_only("abc\"", 3));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_hard_cases),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_distinct),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_alphabet),
	};

	return cmocka_run_group_tests_name("slug", tests, NULL, NULL);
}
