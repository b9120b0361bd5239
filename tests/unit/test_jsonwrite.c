/*
 * test_jsonwrite.c: core/util/jsonwrite, JSON text written without
 * jansson's dump, is byte for byte jansson's json_dumps with
 * MIRROR_JSON_FLAGS: on every kind of value and string (escapes,
 * control characters, ASCII's last character, two- to four-byte UTF-8,
 * empty containers, extreme integers, reals jansson writes in their
 * fewest digits) and on thousands of random trees; nested in a file
 * (depth 2) it is jansson's text with every line indented twice more;
 * and what jansson refuses, it refuses. Every other real is written in
 * the fewest digits that read back as the same double.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "util/jsonfmt.h"
#include "util/jsonwrite.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"

/* v written by json_write at depth 0 equals jansson's text. */
static void
assert_same(const json_t *v)
{
	char *want = json_dumps(v, MIRROR_JSON_FLAGS | JSON_ENCODE_ANY);
	strbuf got;

	assert_non_null(want);
	strbuf_init(&got);
	assert_int_equal(json_write(&got, v, 0), 0);
	assert_string_equal(got.data != NULL ? got.data : "", want);
	strbuf_free(&got);
	free(want);
}

/* Strings a page can carry: escapes, control characters, DEL, slash,
 * UTF-8 of two, three and four bytes, an embedded NUL. */
static const char *const strings[] = {
	"", "plain", "quote \" backslash \\ slash /", "tab\tnl\ncr\rbs\bff\f",
	"\x01\x1f\x7f", "caf\xc3\xa9", "\xe2\x9a\xa0 disputed",
	"\xf0\x9f\x98\x80 emoji \xf4\x8f\xbf\xbf", "\xef\xbf\xbf\xc2\x80",
	"<script>&amp;</script>", "mirror-list-goes-here",
};

static void
test_scalars(void **state)
{
	static const double reals[] = { 0.0, -0.0, 0.5, 1.5, 5.0, -2.0,
	    123456789012345678.0, 0.375, 1e21, -1024.25 };
	json_t *v;

	(void)state;
	for (size_t i = 0; i < sizeof(strings) / sizeof(*strings); i++) {
		v = json_string(strings[i]);
		assert_non_null(v);
		assert_same(v);
		json_decref(v);
	}
	v = json_stringn("a\0b", 3);
	assert_same(v);
	json_decref(v);
	/* Every ASCII byte, between two letters: each one the writer
	 * copies, escapes or \u-escapes as jansson does. */
	for (int c = 0; c < 0x80; c++) {
		char three[3] = { 'a', (char)c, 'b' };

		v = json_stringn(three, 3);
		assert_non_null(v);
		assert_same(v);
		json_decref(v);
	}
	for (size_t i = 0; i < sizeof(reals) / sizeof(*reals); i++) {
		v = json_real(reals[i]);
		assert_same(v);
		json_decref(v);
	}
	v = json_pack("[I, I, i, i, b, b, n, [], {}, [[]], {s:{}}]",
	    (json_int_t)INT64_MAX, (json_int_t)INT64_MIN, 0, -1, 1, 0, "k");
	assert_same(v);
	json_decref(v);
}

/* The significant digits of the real text t (no sign, point or
 * exponent; leading and trailing zeros left out: "120.0" has 2). */
static int
significant(const char *t)
{
	int n = 0, zeros = 0, lead = 1;

	for (; *t != '\0' && *t != 'e' && *t != 'E'; t++) {
		if (*t < '0' || *t > '9')
			continue;
		if (*t == '0' && lead)
			continue;
		lead = 0;
		if (*t == '0') {
			zeros++;
			continue;
		}
		n += zeros + 1;
		zeros = 0;
	}
	return n;
}

/* x as json_write writes it reads back as x, in the fewest digits:
 * one digit fewer does not. */
static void
assert_shortest(double x)
{
	json_t *v = json_real(x);
	strbuf got;
	char fewer[400];
	int d, n;

	assert_non_null(v);
	strbuf_init(&got);
	assert_int_equal(json_write(&got, v, 0), 0);
	assert_true(strtod(got.data, NULL) == x);
	d = significant(got.data);
	if (d > 1) {
		n = snprintf(fewer, sizeof(fewer), "%.*g", d - 1, x);
		assert_true(n > 0 && (size_t)n < sizeof(fewer));
		assert_false(strtod(fewer, NULL) == x);
	}
	strbuf_free(&got);
	json_decref(v);
}

/* The text json_write gives x. */
static void
assert_real_text(double x, const char *want)
{
	json_t *v = json_real(x);
	strbuf got;

	strbuf_init(&got);
	assert_int_equal(json_write(&got, v, 0), 0);
	assert_string_equal(got.data, want);
	strbuf_free(&got);
	json_decref(v);
}

/* Reals in their fewest digits: what a confidence of 0.8 reads as in
 * the store, not %.17g's 0.80000000000000004; and for random bit
 * patterns, the fewest digits that read back. */
static void
test_reals_shortest(void **state)
{
	unsigned seed = 7;

	(void)state;
	assert_real_text(0.8, "0.8");
	assert_real_text(0.9, "0.9");
	assert_real_text(0.1, "0.1");
	assert_real_text(0.1 + 0.2, "0.30000000000000004");
	assert_real_text(3.14159, "3.14159");
	assert_real_text(1e-7, "1e-7");
	assert_real_text(2.5e-308, "2.5e-308");
	assert_real_text(1.0 / 3.0, "0.3333333333333333");
	assert_real_text(-0.7, "-0.7");
	assert_real_text(1e300, "1e300");
	assert_real_text(5e-324, "5e-324");
	for (int i = 0; i < 20000; i++) {
		uint64_t bits = ((uint64_t)rand_r(&seed) << 42) ^
		    ((uint64_t)rand_r(&seed) << 21) ^ (uint64_t)rand_r(&seed);
		double x;

		memcpy(&x, &bits, sizeof(x));
		if (x != x || x - x != 0.0)
			continue;       /* NaN and infinities: no JSON */
		assert_shortest(x);
	}
}

/* A random value of at most depth levels, from a fixed generator. */
static json_t *
random_value(unsigned *seed, int depth)
{
	int kind = depth > 0 ? rand_r(seed) % 9 : rand_r(seed) % 6;
	size_t n;
	json_t *v;

	switch (kind) {
	case 0:
		return json_null();
	case 1:
		return json_boolean(rand_r(seed) % 2);
	case 2:
		return json_integer((json_int_t)rand_r(seed) *
		    (rand_r(seed) % 2 ? 1 : -1000003));
	case 3:
		/* Quarters: jansson's %.17g is their fewest digits. */
		return json_real((double)(rand_r(seed) % 1000000) / 4.0);
	case 4:
	case 5:
		return json_string(strings[(size_t)rand_r(seed) %
		    (sizeof(strings) / sizeof(*strings))]);
	case 6:
	case 7:
		v = json_array();
		n = (size_t)rand_r(seed) % 5;
		for (size_t i = 0; i < n; i++)
			json_array_append_new(v, random_value(seed, depth - 1));
		return v;
	default:
		v = json_object();
		n = (size_t)rand_r(seed) % 5;
		for (size_t i = 0; i < n; i++) {
			char key[64];

			snprintf(key, sizeof(key), "%s%zu", strings[(size_t)
			    rand_r(seed) % (sizeof(strings) /
			    sizeof(*strings))], i);
			json_object_set_new(v, key,
			    random_value(seed, depth - 1));
		}
		return v;
	}
}

static void
test_random_trees(void **state)
{
	unsigned seed = 20261125;

	(void)state;
	for (int i = 0; i < 3000; i++) {
		json_t *v = random_value(&seed, 1 + i % 6);

		assert_same(v);
		json_decref(v);
	}
}

/* Depth 2, as a list's object inside a file: jansson's text with
 * every newline followed by four more spaces. */
static void
test_depth(void **state)
{
	unsigned seed = 7;

	(void)state;
	for (int i = 0; i < 300; i++) {
		json_t *v = random_value(&seed, 4);
		char *plain = json_dumps(v, MIRROR_JSON_FLAGS |
		    JSON_ENCODE_ANY);
		strbuf want, got;

		strbuf_init(&want);
		strbuf_init(&got);
		for (const char *p = plain; *p != '\0'; p++) {
			strbuf_putc(&want, *p);
			if (*p == '\n')
				strbuf_puts(&want, "    ");
		}
		assert_int_equal(json_write(&got, v, 2), 0);
		assert_string_equal(got.data, want.data);
		strbuf_free(&want);
		strbuf_free(&got);
		free(plain);
		json_decref(v);
	}
}

/* Not UTF-8 (a lone continuation byte, an overlong form, a surrogate,
 * a sequence cut short), in a value or a key: refused, as jansson's
 * dump refuses it; and a nesting past JSONWRITE_DEPTH. */
static void
test_refused(void **state)
{
	static const char *const bad[] = { "a\x80", "\xc0\xaf",
	    "\xed\xa0\x80", "\xe2\x9a" };
	json_t *v, *deep;
	strbuf out;

	(void)state;
	strbuf_init(&out);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		v = json_stringn_nocheck(bad[i], strlen(bad[i]));
		assert_null(json_dumps(v, MIRROR_JSON_FLAGS |
		    JSON_ENCODE_ANY));
		assert_int_equal(json_write(&out, v, 0), -1);
		json_decref(v);
		v = json_object();
		json_object_set_new_nocheck(v, bad[i], json_null());
		assert_int_equal(json_write(&out, v, 0), -1);
		json_decref(v);
	}
	deep = v = json_array();
	for (int i = 0; i < JSONWRITE_DEPTH + 1; i++) {
		json_t *inner = json_array();

		json_array_append_new(v, inner);
		v = inner;
	}
	assert_int_equal(json_write(&out, deep, 0), -1);
	json_decref(deep);
	strbuf_free(&out);
}

/* json_write_capped: a string past TEXT_MAX_FIELD bytes is cut where
 * the pages cut it (never inside a character) and marked with how much
 * was left out; one at the cap, keys, and "id" and "..._id" members are
 * written whole. */
static void
test_capped(void **state)
{
	char *big = xmalloc(TEXT_MAX_FIELD + 101);
	json_t *v;
	strbuf out, want;

	(void)state;
	memset(big, 'x', TEXT_MAX_FIELD + 100);
	memcpy(big + TEXT_MAX_FIELD - 1, "\xc3\xa9", 2);  /* é across the cap */
	big[TEXT_MAX_FIELD + 100] = '\0';
	v = json_pack("{s:s, s:s, s:s, s:[s]}", "value", big, "id", big,
	    "member_id", big, "refs", big);
	json_object_set_new(v, big, json_string("k"));
	strbuf_init(&out);
	strbuf_init(&want);
	assert_int_equal(json_write_capped(&out, v, 0), 0);
	/* Cut before the é: 4095 bytes kept, 101 left out. */
	strbuf_printf(&want, "\"%.*s \\u2026 (101 bytes more)\"",
	    TEXT_MAX_FIELD - 1, big);
	assert_non_null(strstr(out.data, want.data));
	/* value and refs[0] cut; id, member_id and the key whole. */
	{
		size_t cuts = 0;

		for (const char *p = out.data; (p = strstr(p, "bytes more"))
		    != NULL; p++)
			cuts++;
		assert_int_equal(cuts, 2);
	}
	assert_true(out.len > 3 * (TEXT_MAX_FIELD + 100) + 2 * want.len);
	assert_true(out.len < 4 * (TEXT_MAX_FIELD + 100) + 2 * want.len);
	json_decref(v);
	v = json_stringn(big, TEXT_MAX_FIELD - 1);
	strbuf_reset(&out);
	assert_int_equal(json_write_capped(&out, v, 0), 0);
	assert_int_equal(out.len, TEXT_MAX_FIELD - 1 + 2);
	json_decref(v);
	strbuf_free(&want);
	strbuf_free(&out);
	free(big);
}

/* json_write_line: the same value on one line, read back equal; the
 * separators as the indented layout has them, less the newlines. */
static void
test_line(void **state)
{
	json_t *v = json_pack("{s:s, s:[i, {s:n, s:[]}, {}], s:f, s:{}}",
	    "id", "c1\nx", "m", 1, "k", "e", "r", 0.8, "o");
	json_t *back;
	strbuf got;

	(void)state;
	strbuf_init(&got);
	assert_int_equal(json_write_line(&got, v), 0);
	assert_string_equal(got.data, "{\"id\": \"c1\\nx\", \"m\": [1, "
	    "{\"k\": null, \"e\": []}, {}], \"r\": 0.8, \"o\": {}}");
	back = json_loads(got.data, 0, NULL);
	assert_non_null(back);
	assert_true(json_equal(back, v));
	json_decref(back);
	strbuf_free(&got);
	json_decref(v);
}

/* json_write_rows: each object below the top on one line, the rest
 * indented; read back equal. */
static void
test_rows(void **state)
{
	json_t *v = json_pack("{s:{s:s, s:[s]}, s:[{s:s, s:{s:i}}, {}, i]}",
	    "p", "id", "a", "al", "x", "facts", "id", "f1", "o", "k", 2, 3);
	json_t *back;
	strbuf got;

	(void)state;
	strbuf_init(&got);
	assert_int_equal(json_write_rows(&got, v), 0);
	assert_string_equal(got.data, "{\n  \"p\": {\"id\": \"a\", \"al\": "
	    "[\"x\"]},\n  \"facts\": [\n"
	    "{\"id\": \"f1\", \"o\": {\"k\": 2}},\n{},\n3\n"
	    "  ]\n}");
	back = json_loads(got.data, 0, NULL);
	assert_non_null(back);
	assert_true(json_equal(back, v));
	json_decref(back);
	strbuf_free(&got);
	json_decref(v);
}

/* json_write_rows of a file of facts in rows: an array in an array is
 * one line without spaces, what is in it so too; its first two values
 * whole, a long one after them cut; read back equal but for the cut. */
static void
test_rows_arrays(void **state)
{
	json_t *v = json_pack("{s:{s:[s]}, s:[[s, s, {s:i, s:[i, n]}, n, f]]}",
	    "columns", "x", "k", "facts", "x", "f1", "k", 1, "a", 2, 2.5);
	json_t *back;
	strbuf got, big;
	size_t cut;

	(void)state;
	strbuf_init(&got);
	assert_int_equal(json_write_rows(&got, v), 0);
	assert_string_equal(got.data, "{\n  \"columns\": {\"x\": [\"k\"]},\n"
	    "  \"facts\": [\n[\"x\",\"f1\",{\"k\":1,\"a\":[2,null]},"
	    "null,2.5]\n  ]\n}");
	back = json_loads(got.data, 0, NULL);
	assert_non_null(back);
	assert_true(json_equal(back, v));
	json_decref(back);
	json_decref(v);
	strbuf_init(&big);
	for (int i = 0; i < 5000; i++)
		strbuf_putc(&big, 'x');
	v = json_pack("{s:[[s, s, s]]}", "facts", big.data, big.data,
	    big.data);
	strbuf_free(&got);
	strbuf_init(&got);
	assert_int_equal(json_write_rows(&got, v), 0);
	back = json_loads(got.data, 0, NULL);
	assert_non_null(back);
	cut = strlen(json_string_value(json_array_get(json_array_get(
	    json_object_get(back, "facts"), 0), 2)));
	assert_true(cut < 5000);
	assert_string_equal(json_string_value(json_array_get(json_array_get(
	    json_object_get(back, "facts"), 0), 1)), big.data);
	json_decref(back);
	json_decref(v);
	strbuf_free(&big);
	strbuf_free(&got);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scalars),
		cmocka_unit_test(test_random_trees),
		cmocka_unit_test(test_reals_shortest),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_rows_arrays),
		cmocka_unit_test(test_capped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
