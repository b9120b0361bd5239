/*
 * test_record.c: the digests of each page's inputs (gen/out/record.h),
 * which decide whether a page is rendered again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "out/output.h"
#include "out/record.h"
#include "scratch.h"

static int
enter(void **state)
{
	(void)state;
	return scratch_enter("record");
}

static int
leave(void **state)
{
	(void)state;
	return scratch_leave();
}

/* The digest of one page under key, with data given as JSON text. */
static void
digest(char hex[DIGEST_HEX + 1], const char *key, const char *path,
    const char *tname, const char *title, const char *json)
{
	struct page_record *r;
	json_t *data = json != NULL ? json_loads(json,
	    JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL) : NULL;

	assert_true(json == NULL || data != NULL);
	r = record_load(NULL, 1);
	record_set_key(r, key);
	record_digest(hex, r, path, tname, title, data);
	record_free(r);
	json_decref(data);
}

/* Whether two pages' digests are equal. */
static int
same(const char *key1, const char *path1, const char *tname1,
    const char *title1, const char *json1, const char *key2,
    const char *path2, const char *tname2, const char *title2,
    const char *json2)
{
	char a[DIGEST_HEX + 1], b[DIGEST_HEX + 1];

	digest(a, key1, path1, tname1, title1, json1);
	digest(b, key2, path2, tname2, title2, json2);
	return strcmp(a, b) == 0;
}

#define BASE "k", "p/index", "project.md", "T"

/* The same inputs give the same digest, 32 lowercase hex digits. */
static void
test_digest_stable(void **state)
{
	char a[DIGEST_HEX + 1];

	(void)state;
	digest(a, BASE, "{\"a\": [1, 2.5, true, null, \"x\"]}");
	assert_int_equal(strlen(a), DIGEST_HEX);
	assert_int_equal(strspn(a, "0123456789abcdef"), DIGEST_HEX);
	assert_true(same(BASE, "{\"a\": [1, 2.5, true, null, \"x\"]}",
	    BASE, "{\"a\": [1, 2.5, true, null, \"x\"]}"));
}

/* Every input counts: the site's key, path, template, title, data. */
static void
test_digest_every_input(void **state)
{
	const char *d = "{\"v\": \"2.75 mm\"}";

	(void)state;
	assert_false(same(BASE, d, "k2", "p/index", "project.md", "T", d));
	assert_false(same(BASE, d, "k", "p/other", "project.md", "T", d));
	assert_false(same(BASE, d, "k", "p/index", "subsystem.md", "T", d));
	assert_false(same(BASE, d, "k", "p/index", "project.md", "U", d));
	assert_false(same(BASE, d, BASE, "{\"v\": \"2.76 mm\"}"));
	assert_false(same(BASE, d, BASE, "{\"w\": \"2.75 mm\"}"));
	assert_false(same(BASE, d, BASE, NULL));
}

/* Values never run together: boundaries, kinds and nesting all count. */
static void
test_digest_unambiguous(void **state)
{
	(void)state;
	/* a key and a title that move a byte between them */
	assert_false(same("ab", "c", "t", "T", NULL, "a", "bc", "t", "T",
	    NULL));
	assert_false(same(BASE, "[\"ab\", \"c\"]", BASE, "[\"a\", \"bc\"]"));
	assert_false(same(BASE, "{\"a\": \"bc\"}", BASE, "{\"ab\": \"c\"}"));
	assert_false(same(BASE, "[1]", BASE, "[\"1\"]"));
	assert_false(same(BASE, "[1]", BASE, "[1.0]"));
	assert_false(same(BASE, "[true]", BASE, "[false]"));
	assert_false(same(BASE, "[null]", BASE, "[]"));
	assert_false(same(BASE, "[[1], 2]", BASE, "[[1, 2]]"));
	assert_false(same(BASE, "{\"a\": {}}", BASE, "{\"a\": []}"));
	assert_false(same(BASE, "[\"\"]", BASE, "[]"));
	/* a NUL inside a string is part of it */
	assert_false(same(BASE, "[\"a\\u0000b\"]", BASE, "[\"a\"]"));
}

/* A site directory holding the previous record text (NULL: none). */
static void
site_with(const char *record)
{
	assert_int_equal(scratch_sh("rm -rf site && mkdir -p site/api && "
	    "printf 'x' > site/.mirror-output"), 0);
	if (record != NULL)
		scratch_write("site/api/pages.tsv", record, strlen(record));
}

/* The site directory's record and its output, as a build has them. */
static struct page_record *
open_site(struct output **out, int fresh)
{
	struct page_record *r;
	mirror_error err;

	if (output_begin(out, "site", &err) < 0)
		fail_msg("%s", err.msg);
	r = record_load("site", fresh);
	record_set_key(r, "k");
	return r;
}

/* A record written by one build is what the next build reads. */
static void
test_record_round_trip(void **state)
{
	char a[DIGEST_HEX + 1], b[DIGEST_HEX + 1];
	struct page_record *r;
	struct output *out;
	mirror_error err;
	json_t *data = json_pack("{s:s}", "v", "1");

	(void)state;
	site_with(NULL);
	r = open_site(&out, 0);
	record_digest(a, r, "b/index", "t.md", "B", data);
	record_digest(b, r, "a/index", "t.md", "A", data);
	assert_false(record_same(r, "b/index", a));
	record_put(r, "b/index", a);
	record_put(r, "a/index", b);
	assert_int_equal(record_write(r, out, &err), 0);
	record_free(r);
	assert_int_equal(output_commit(out, &err), 0);
	output_free(out);
	/* path order, one line each, after the header */
	assert_int_equal(scratch_sh("head -1 site/api/pages.tsv | grep -q "
	    "'^# mirror page inputs 1' && sed -n 2p site/api/pages.tsv | "
	    "grep -q \"^%s\ta/index$\" && sed -n 3p site/api/pages.tsv | "
	    "grep -q \"^%s\tb/index$\" && test $(wc -l < site/api/pages.tsv) "
	    "= 3", b, a), 0);
	r = open_site(&out, 0);
	assert_true(record_same(r, "b/index", a));
	assert_true(record_same(r, "a/index", b));
	assert_false(record_same(r, "a/index", a));
	assert_false(record_same(r, "c/index", a));
	record_free(r);
	output_free(out);
	/* --force: the previous record is not read */
	r = open_site(&out, 1);
	assert_false(record_same(r, "b/index", a));
	record_free(r);
	output_free(out);
	json_decref(data);
}

/* Digest i as hex: 32 digits, none alike for i < 16. */
static const char *
hex_n(int i)
{
	static char buf[16][DIGEST_HEX + 1];

	memset(buf[i], "0123456789abcdef"[i], DIGEST_HEX);
	buf[i][DIGEST_HEX] = '\0';
	return buf[i];
}

/*
 * A kept folder's lines go into the next record as they were, in path
 * order among the pages put, each line once: a page put that a kept run
 * also holds is written with the digest put; runs inside runs are not
 * written twice; the folder's own line and its neighbours outside it
 * (c0 after c/) are not kept; a page put twice is written once, with
 * the smaller digest whatever the order of the puts.
 */
static void
test_record_keep_under(void **state)
{
	char prev[4096], want[4096];
	struct page_record *r;
	struct output *out;
	mirror_error err;
	char *got;

	(void)state;
	(void)snprintf(prev, sizeof(prev), "%s%s\ta/index\n%s\tc/\n"
	    "%s\tc/1\n%s\tc/2\n%s\tc/2/x\n%s\tc/2/y\n%s\tc0\n%s\td/1\n"
	    "%s\te/\n", RECORD_HEADER, hex_n(1), hex_n(2), hex_n(3), hex_n(4),
	    hex_n(5), hex_n(14), hex_n(6), hex_n(7), hex_n(8));
	site_with(prev);
	r = open_site(&out, 0);
	record_put(r, "d/1", hex_n(9));
	assert_int_equal(record_keep_under(r, "c/2/"), 2);
	record_put(r, "c/2", hex_n(10));
	record_put(r, "b/index", hex_n(15));     /* put twice: */
	record_put(r, "b/index", hex_n(11));     /* the smaller stays */
	assert_int_equal(record_keep_under(r, "c/"), 4);
	assert_int_equal(record_keep_under(r, "zz/"), 0);
	assert_int_equal(record_keep_under(r, "e/"), 0);
	record_put(r, "c/15", hex_n(12));
	record_put(r, "c/", hex_n(13));
	assert_int_equal(record_write(r, out, &err), 0);
	record_free(r);
	assert_int_equal(output_commit(out, &err), 0);
	output_free(out);
	(void)snprintf(want, sizeof(want), "%s%s\tb/index\n%s\tc/\n"
	    "%s\tc/1\n%s\tc/15\n%s\tc/2\n%s\tc/2/x\n%s\tc/2/y\n"
	    "%s\td/1\n", RECORD_HEADER, hex_n(11), hex_n(13), hex_n(3),
	    hex_n(12), hex_n(10), hex_n(5), hex_n(14), hex_n(9));
	got = scratch_read("site", "api/pages.tsv");
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

/* A large record: every path it holds is found with its digest, and
 * none it does not hold (before, between and after its lines). */
static void
test_record_lookup(void **state)
{
	struct page_record *r;
	struct output *out;
	char path[64], hex[DIGEST_HEX + 1];
	size_t cap = 1 << 20, len;
	char *text = malloc(cap);
	int n;

	(void)state;
	assert_non_null(text);
	len = (size_t)snprintf(text, cap, "%s", RECORD_HEADER);
	for (int i = 0; i < 3000; i++) {
		n = snprintf(text + len, cap - len, "%s\tp/%05d\n",
		    hex_n(i % 16), 2 * i + 1);
		assert_true(n > 0 && (size_t)n < cap - len);
		len += (size_t)n;
	}
	site_with(text);
	r = open_site(&out, 0);
	for (int i = 0; i <= 6001; i++) {
		(void)snprintf(path, sizeof(path), "p/%05d", i);
		if (i % 2 == 1 && i < 6000) {
			assert_true(record_prev(hex, r, path));
			assert_string_equal(hex, hex_n((i / 2) % 16));
			assert_true(record_same(r, path, hex));
		} else
			assert_false(record_prev(hex, r, path));
	}
	assert_false(record_prev(hex, r, "p/"));
	assert_false(record_prev(hex, r, "p/000011"));
	assert_false(record_prev(hex, r, ""));
	record_free(r);
	output_free(out);
	free(text);
}

/* A record that is not exactly ours is dropped whole, never half used. */
static void
test_record_doubtful(void **state)
{
	static const char *const bad[] = {
		"a/index\t0123456789abcdef0123456789abcdef\n",     /* no header */
		RECORD_HEADER "0123456789abcdef0123456789abcdef\ta/index\n"
		    "0123456789ABCDEF0123456789abcdef\tb/index\n", /* case */
		RECORD_HEADER "0123456789abcdef0123456789abcdef\ta/index\n"
		    "0123456789abcdef\tb/index\n",                  /* short */
		RECORD_HEADER "0123456789abcdef0123456789abcdef\ta/index\n"
		    "0123456789abcdef0123456789abcdef\tb/index",    /* cut */
		"# mirror page inputs 2\n"
		    "0123456789abcdef0123456789abcdef\ta/index\n",  /* format */
		RECORD_HEADER "0123456789abcdef0123456789abcdef\tb/index\n"
		    "0123456789abcdef0123456789abcdef\ta/index\n", /* order */
		RECORD_HEADER "0123456789abcdef0123456789abcdef\ta/index\n"
		    "0123456789abcdef0123456789abcdef\ta/index\n", /* twice */
		RECORD_HEADER "0123456789abcdef0123456789abcdef\ta/index/x\n"
		    "0123456789abcdef0123456789abcdef\ta/index\n", /* prefix */
	};
	const char *hex = "0123456789abcdef0123456789abcdef";
	struct page_record *r;
	struct output *out;

	(void)state;
	site_with(RECORD_HEADER "0123456789abcdef0123456789abcdef\ta/index\n");
	r = open_site(&out, 0);
	assert_true(record_same(r, "a/index", hex));
	record_free(r);
	output_free(out);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		site_with(bad[i]);
		r = open_site(&out, 0);
		assert_false(record_same(r, "a/index", hex));
		record_free(r);
		output_free(out);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digest_stable),
		cmocka_unit_test(test_digest_every_input),
		cmocka_unit_test(test_digest_unambiguous),
		cmocka_unit_test(test_record_round_trip),
		cmocka_unit_test(test_record_doubtful),
		cmocka_unit_test(test_record_keep_under),
		cmocka_unit_test(test_record_lookup),
	};

	return cmocka_run_group_tests(tests, enter, leave);
}
