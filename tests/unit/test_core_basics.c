/*
 * test_core_basics.c: clock, hash, strbuf, error, the growable array, the
 * index by id, the heap's tuning and store opening.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <cmocka.h>
#ifdef MIRROR_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

#include "site/items.h"
#include "store/store.h"
#include "sys/clock.h"
#include "util/array.h"
#include "util/byid.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/jsonbuild.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/utf8.h"
#include "util/xalloc.h"

/* 1: timestamps parse in every accepted form and round-trip. */
static void
test_ts_parse_format(void **state)
{
	char buf[MIRROR_TS_LEN];
	time_t t;

	(void)state;
	assert_int_equal(mirror_parse_ts(&t, "2024-02-29 13:45:07"), 0);
	mirror_format_ts(buf, t);
	assert_string_equal(buf, "2024-02-29 13:45:07");
	assert_int_equal(mirror_parse_ts(&t, "1970-01-01"), 0);
	assert_int_equal((long long)t, 0);
	assert_int_equal(mirror_parse_ts(&t, "2001-09-09T01:46:40Z"), 0);
	assert_int_equal((long long)t, 1000000000LL);
	assert_int_equal(mirror_parse_ts(&t, "2001-09-09T01:46:40.123Z"), 0);
	assert_int_equal((long long)t, 1000000000LL);
	assert_int_equal(mirror_parse_ts(&t, "yesterday"), -1);
	assert_int_equal(mirror_parse_ts(&t, "2024-13-01"), -1);
	assert_int_equal(mirror_parse_ts(&t, "2024-01-01 25:00:00"), -1);
	assert_int_equal(mirror_parse_ts(&t, "2024-01-01 10:00:00 junk"), -1);
	assert_int_equal(mirror_parse_ts(&t, NULL), -1);
}

/* 2: SOURCE_DATE_EPOCH drives the clock; garbage is refused. */
static void
test_clock_source_date_epoch(void **state)
{
	mirror_error err;
	time_t t;

	(void)state;
	setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
	assert_int_equal(mirror_clock(&t, &err), 0);
	assert_int_equal((long long)t, 1700000000LL);
	setenv("SOURCE_DATE_EPOCH", "17e8", 1);
	assert_int_equal(mirror_clock(&t, &err), -MIRROR_EUSAGE);
	assert_non_null(strstr(err.msg, "SOURCE_DATE_EPOCH"));
	setenv("SOURCE_DATE_EPOCH", "-5", 1);
	assert_int_equal(mirror_clock(&t, &err), -MIRROR_EUSAGE);
	unsetenv("SOURCE_DATE_EPOCH");
	assert_int_equal(mirror_clock(&t, &err), 0);
	assert_true(t > 1700000000);
}

/* 3: hash values are fixed forever (ids derive from them). */
static void
test_hash_stable(void **state)
{
	char hex[17];

	(void)state;
	hash_hex(hex, hash_add(MIRROR_HASH_INIT, "", 0));
	assert_string_equal(hex, "cbf29ce484222325");
	hash_hex(hex, hash_add(MIRROR_HASH_INIT, "a", 1));
	assert_string_equal(hex, "af63dc4c8601ec8c");
	assert_true(hash_add_str(hash_add_str(MIRROR_HASH_INIT, "ab"), "c") !=
	    hash_add_str(hash_add_str(MIRROR_HASH_INIT, "a"), "bc"));
}

/* A hash of bytes and the value it must give, as 16 hex digits. */
struct hash_case {
	const char *in;
	size_t len;
	const char *hex;
};

/* Each of cases[0..n) hashed by fn from MIRROR_HASH_INIT. */
static void
assert_hashes(uint64_t (*fn)(uint64_t, const void *, size_t),
    const struct hash_case *cases, size_t n)
{
	char hex[17];

	for (size_t i = 0; i < n; i++) {
		hash_hex(hex, fn(MIRROR_HASH_INIT, cases[i].in, cases[i].len));
		assert_string_equal(hex, cases[i].hex);
	}
}

/* 3b: hash_words gives the same values on every machine (little-endian
 * words, reckoned independently), whole words and a tail alike, and
 * counts the length: a trailing NUL is a change. */
static void
test_hash_words(void **state)
{
	static const struct hash_case cases[] = {
		{ "", 0, "f52a15e9a9b5e89b" },
		{ "abcdefghi", 9, "50e34e28874e8929" },
		{ "a", 1, "fd4ae864b0c38893" },
		{ "a\0", 2, "16bf687085c8fcd8" },
	};

	(void)state;
	assert_hashes(hash_words, cases, sizeof(cases) / sizeof(*cases));
}

/* 3b: hash_steps gives the same values on every machine (reckoned
 * independently: each little-endian word, the last zero-filled, as
 * ((h <<< 27) ^ w) * 0x9e3779b97f4a7c15), folds no length (nothing
 * leaves h as it was; a trailing NUL is the same word: the digest's
 * column hash folds the length before), and changes with any one word. */
static void
test_hash_steps(void **state)
{
	static const struct hash_case cases[] = {
		{ "", 0, "cbf29ce484222325" },
		{ "abcdefgh", 8, "b7c731e95b2520fe" },
		{ "abcdefghi", 9, "07262d9b232227de" },
		{ "a", 1, "b75716ac828416fe" },
		{ "a\0", 2, "b75716ac828416fe" },
	};

	(void)state;
	assert_hashes(hash_steps, cases, sizeof(cases) / sizeof(*cases));
	/* One word apart, first or last: never the same chain. */
	assert_true(hash_steps(1, "abcdefghABCDEFGH", 16) !=
	    hash_steps(1, "abcdefgXABCDEFGH", 16));
	assert_true(hash_steps(1, "abcdefghABCDEFGH", 16) !=
	    hash_steps(1, "abcdefghABCDEFGX", 16));
	assert_true(hash_step(hash_step(7, 1), 2) !=
	    hash_step(hash_step(7, 2), 1));
}

/* 3b: xprefault maps pages in and leaves every byte as it was: a block
 * cut at odd offsets on both ends (its first and last pages partly
 * outside it), one below the size it bothers with, and none. */
static void
test_xprefault(void **state)
{
	size_t n = (size_t)1 << 21;
	unsigned char *p = xmalloc(n);

	(void)state;
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 131 + 7);
	xprefault(p + 3, n - 10);
	xprefault(p + 5, 100);
	xprefault(p, 0);
	for (size_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)(i * 131 + 7))
			fail_msg("byte %zu changed", i);
	free(p);
}

/* text_int and text_whole write what printf writes: "%lld" for every integer, "%.15g"
 * and "%.17g" for whole reals below 10^15, and text_whole declines the rest. */
static void
test_text_numbers(void **state)
{
	static const long long ints[] = { 0, 1, -1, 9, 10, -10, 99, 100,
	    1234567890123LL, -987654321LL, 9223372036854775807LL,
	    -9223372036854775807LL - 1 };
	static const double wholes[] = { 0.0, 1.0, -1.0, 2.0, 10.0, 100.0,
	    -250.0, 4096.0, 123456789012345.0, -999999999999999.0 };
	static const double others[] = { -0.0, 0.5, 0.9, -1.5, 1e15, -1e15,
	    1e300, 1e-7, 3.0000000000000004 };
	char buf[TEXT_INT_SIZE], want[64];
	unsigned long long x = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (size_t i = 0; i < sizeof(ints) / sizeof(*ints); i++) {
		snprintf(want, sizeof(want), "%lld", ints[i]);
		assert_int_equal(text_int(buf, ints[i]), strlen(want));
		assert_string_equal(buf, want);
	}
	/* Random integers of every magnitude. */
	for (int i = 0; i < 2000; i++) {
		long long v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = (long long)(x >> (i % 64));
		snprintf(want, sizeof(want), "%lld", i % 2 ? -v : v);
		assert_int_equal(text_int(buf, i % 2 ? -v : v),
		    strlen(want));
		assert_string_equal(buf, want);
	}
	for (size_t i = 0; i < sizeof(wholes) / sizeof(*wholes); i++) {
		snprintf(want, sizeof(want), "%.15g", wholes[i]);
		assert_int_equal(text_whole(buf, wholes[i]), strlen(want));
		assert_string_equal(buf, want);
		snprintf(want, sizeof(want), "%.17g", wholes[i]);
		assert_string_equal(buf, want);
	}
	strcpy(buf, "untouched");
	for (size_t i = 0; i < sizeof(others) / sizeof(*others); i++)
		assert_int_equal(text_whole(buf, others[i]), 0);
	assert_int_equal(text_whole(buf, NAN), 0);
	assert_int_equal(text_whole(buf, INFINITY), 0);
	assert_int_equal(text_whole(buf, -INFINITY), 0);
	assert_string_equal(buf, "untouched");
	/* text_real is "%.15g" for both kinds, and 0 when it cannot fit. */
	for (size_t i = 0; i < sizeof(others) / sizeof(*others); i++) {
		char real[64];

		snprintf(want, sizeof(want), "%.15g", others[i]);
		assert_int_equal(text_real(real, sizeof(real), others[i]),
		    strlen(want));
		assert_string_equal(real, want);
		assert_int_equal(text_real(real, sizeof(real), wholes[i]),
		    strlen(text_whole(buf, wholes[i]) > 0 ? buf : ""));
		assert_string_equal(real, buf);
	}
	assert_int_equal(text_real(buf, 3, 12345.0), 0);
	assert_int_equal(text_real(buf, 4, 0.5), 3);
	assert_string_equal(buf, "0.5");
}

/* text_natural_cmp: numbers as numbers, a total order (a tie of
 * value falls back to the bytes), read within the lengths given. */
static void
test_text_natural_order(void **state)
{
	/* In order: each sorts strictly before the next. */
	static const char *const v[] = { "", "0", "00", "01", "1", "2",
	    "9", "010", "10", "99", "100", "a", "p", "p0", "p1", "p2",
	    "p9", "p010", "p10", "p11", "p19", "p20", "p100",
	    "p100a", "p100b", "p101", "pa", "q1" };
	const size_t n = sizeof(v) / sizeof(v[0]);

	(void)state;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			int c = text_natural_cmp(v[i], strlen(v[i]), v[j],
			    strlen(v[j]));

			if (i < j)
				assert_true(c < 0);
			else if (i > j)
				assert_true(c > 0);
			else
				assert_int_equal(c, 0);
		}
	/* The lengths bound the read: "p10" cut to "p1" is "p1". */
	assert_int_equal(text_natural_cmp("p10", 2, "p1", 2), 0);
	assert_true(text_natural_cmp("p10", 2, "p2", 2) < 0);
	assert_true(text_natural_cmp("p2x", 2, "p10", 3) < 0);
	/* item_name_cmp is the same order. */
	assert_true(item_name_cmp("Project 2", "Project 10") < 0);
	assert_true(item_name_cmp("Project 07", "Project 7") < 0);
	assert_int_equal(item_name_cmp("Project 7", "Project 7"), 0);
}

/* utf8_valid one code point at a time, as utf8_decode reads them. */
static int
utf8_valid_slow(const unsigned char *s, size_t n)
{
	int32_t cp;

	for (size_t i = 0; i < n; ) {
		i += utf8_decode(&cp, s + i, n - i);
		if (cp < 0)
			return 0;
	}
	return 1;
}

/* utf8_valid on long ASCII text (which it checks eight bytes at a
 * time) with a sequence, whole, cut or bad, at every place across two
 * words, is what one code point at a time says. */
static void
utf8_valid_long(void)
{
	static const char *const seq[] = { "\xc3\xa9", "\xe2\x9a\xa0",
	    "\xf0\x9f\x98\x80", "\xc3", "\xe2\x9a", "\x80", "\xff",
	    "\xc0\xaf", "\xed\xa0\x80" };
	unsigned char buf[40];

	for (size_t k = 0; k < sizeof(seq) / sizeof(*seq); k++)
		for (size_t at = 0; at + strlen(seq[k]) <= 24; at++)
			for (size_t n = at + strlen(seq[k]); n <= 24; n += 5) {
				memset(buf, 'a', sizeof(buf));
				memcpy(buf + at, seq[k], strlen(seq[k]));
				assert_int_equal(utf8_valid(buf, n),
				    utf8_valid_slow(buf, n));
				assert_int_equal(utf8_valid(buf, n), k < 3);
			}
}

/* A built object: keys in the order set, each kind of value; dumped as
 * json_pack's object of the same values would be. */
static void
test_jsonbuild(void **state)
{
	struct jbuild b;
	json_t *arr = json_pack("[i]", 1), *o, *p;
	char *a, *c;

	(void)state;
	/* utf8_valid, which the kept rows and the search shards' keys use:
	 * a NUL is valid, an overlong form, a surrogate or a cut sequence
	 * is not. */
	assert_true(utf8_valid((const unsigned char *)"", 0));
	assert_true(utf8_valid((const unsigned char *)"a\0\xc3\xa9", 4));
	assert_false(utf8_valid((const unsigned char *)"\xc0\xaf", 2));
	assert_false(utf8_valid((const unsigned char *)"\xed\xa0\x80", 3));
	assert_false(utf8_valid((const unsigned char *)"\xc3", 1));
	utf8_valid_long();
	jb_init(&b);
	jb_str(&b, "s", "caf\xc3\xa9");
	jb_str_or_null(&b, "n", NULL);
	jb_str_or_null(&b, "t", "x");
	jb_bool(&b, "b", 7);
	jb_bool(&b, "f", 0);
	jb_int(&b, "i", -3);
	jb_real(&b, "r", 2.5);
	jb_ref(&b, "a", arr);
	jb_take(&b, "o", json_object());
	o = jb_done(&b);
	assert_non_null(o);
	p = json_pack("{s:s, s:n, s:s, s:b, s:b, s:I, s:f, s:O, s:o}", "s",
	    "caf\xc3\xa9", "n", "t", "x", "b", 1, "f", 0, "i", (json_int_t)-3,
	    "r", 2.5, "a", arr, "o", json_object());
	a = json_dumps(o, JSON_COMPACT);
	c = json_dumps(p, JSON_COMPACT);
	assert_string_equal(a, "{\"s\":\"caf\xc3\xa9\",\"n\":null,\"t\":\"x\","
	    "\"b\":true,\"f\":false,\"i\":-3,\"r\":2.5,\"a\":[1],\"o\":{}}");
	assert_string_equal(a, c);
	free(a);
	free(c);
	assert_int_equal(arr->refcount, 3);
	json_decref(o);
	json_decref(p);
	assert_int_equal(arr->refcount, 1);
	/* any value that cannot be made fails the object; what comes after
	 * is freed, not leaked (ASan's run) */
	jb_init(&b);
	jb_str(&b, "ok", "x");
	jb_str(&b, "bad", "\xff");
	jb_ref(&b, "a", arr);
	jb_take(&b, "o", json_object());
	assert_null(jb_done(&b));
	assert_int_equal(arr->refcount, 1);
	jb_init(&b);
	jb_str(&b, "null", NULL);
	assert_null(jb_done(&b));
	jb_init(&b);
	jb_take(&b, "null", NULL);
	assert_null(jb_done(&b));
	jb_init(&b);
	jb_ref(&b, "null", NULL);
	assert_null(jb_done(&b));
	jb_init(&b);
	jb_real(&b, "nan", NAN);
	assert_null(jb_done(&b));
	json_decref(arr);
}

/* A built row: its values in the order of its columns; a key out of
 * that order, a column too many or one left without a value fails it. */
static void
test_jsonbuild_row(void **state)
{
	static const char *const cols[] = { "layer", "id", "n", NULL };
	struct jbuild b;
	json_t *r;
	char *a;

	(void)state;
	jb_init_row(&b, cols);
	jb_str(&b, "layer", "state");
	jb_str_or_null(&b, "id", NULL);
	jb_int(&b, "n", 2);
	r = jb_done(&b);
	assert_non_null(r);
	a = json_dumps(r, JSON_COMPACT);
	assert_string_equal(a, "[\"state\",null,2]");
	free(a);
	json_decref(r);
	jb_init_row(&b, cols);
	jb_str(&b, "id", "x");
	assert_null(jb_done(&b));
	jb_init_row(&b, cols);
	jb_str(&b, "layer", "state");
	jb_str(&b, "id", "x");
	assert_null(jb_done(&b));
	jb_init_row(&b, cols);
	jb_str(&b, "layer", "state");
	jb_str(&b, "id", "x");
	jb_int(&b, "n", 1);
	jb_int(&b, "more", 1);
	assert_null(jb_done(&b));
}

/* Builds a row of cols from vals (NULL a null) and returns it compact,
 * for the caller to free. */
static char *
row_text(const char *const *cols, const char *const *vals)
{
	struct jbuild b;
	json_t *r;
	char *a;

	jb_init_row(&b, cols);
	for (size_t k = 0; cols[k] != NULL; k++)
		jb_str_or_null(&b, cols[k], vals[k]);
	r = jb_done(&b);
	assert_non_null(r);
	a = json_dumps(r, JSON_COMPACT);
	json_decref(r);
	return a;
}

/* A row ends at its last value that is not null: its trailing nulls go,
 * a null before a value stays where it is, and its first value stays
 * whatever follows. */
static void
test_jsonbuild_row_trim(void **state)
{
	static const char *const cols[] = { "layer", "id", "slug", "conflict",
		"checks", NULL };
	static const char *const none[] = { "entity", "e1", NULL, NULL, NULL };
	static const char *const mid[] = { "entity", "e1", NULL, "c1", NULL };
	static const char *const last[] = { "entity", "e1", NULL, NULL, "k" };
	static const char *const lone[] = { "entity", NULL, NULL, NULL, NULL };
	static const char *const solo[] = { NULL, NULL, NULL, NULL, NULL };
	static const char *const want[] = { "[\"entity\",\"e1\"]",
		"[\"entity\",\"e1\",null,\"c1\"]",
		"[\"entity\",\"e1\",null,null,\"k\"]", "[\"entity\"]",
		"[null]" };
	const char *const *rows[] = { none, mid, last, lone, solo };

	(void)state;
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		char *a = row_text(cols, rows[k]);

		assert_string_equal(a, want[k]);
		free(a);
	}
}

/* 4: strbuf grows across many appends and printf past its capacity. */
static void
test_strbuf(void **state)
{
	strbuf sb;
	char *s;

	(void)state;
	strbuf_init(&sb);
	for (int i = 0; i < 1000; i++)
		strbuf_printf(&sb, "%d,", i);
	assert_int_equal(sb.len, strlen(sb.data));
	assert_memory_equal(sb.data, "0,1,2,", 6);
	assert_non_null(strstr(sb.data, ",999,"));
	strbuf_reset(&sb);
	strbuf_puts(&sb, "x");
	strbuf_putc(&sb, 'y');
	s = strbuf_detach(&sb);
	assert_string_equal(s, "xy");
	assert_int_equal(sb.len, 0);
	assert_null(sb.data);
	free(s);
	strbuf_free(&sb);   /* harmless after a detach */
}

/* 5: errors keep to one line even when text has newlines. */
/* text_line folds blanks, keeps words whole, caps by characters (runs of
 * ASCII are copied at once: the same line as one by one). */
static void
test_text_line(void **state)
{
	static const struct {
		const char *in;
		size_t chars;
		const char *want;
	} cases[] = {
		{ "  one\t two\n\nthree  ", 0, "one two three" },
		{ "component Bracket has no material", 0,
		  "component Bracket has no material" },
		{ "caf\xc3\xa9 \xe2\x80\xa8" "au lait", 0, "caf\xc3\xa9 au lait" },
		{ "abcdefgh", 5, "abcde\xe2\x80\xa6" },
		{ "abcde", 5, "abcde" },
		{ "abc defgh", 5, "abc d\xe2\x80\xa6" },
		{ "abcd efgh", 4, "abcd\xe2\x80\xa6" },
		{ "ab\xc3\xa9\xc3\xa9" "cd", 4, "ab\xc3\xa9\xc3\xa9\xe2\x80\xa6" },
		{ "a\x01" "b\x7f c", 0, "ab c" },
		{ "a  b", 0, "a b" },
		{ "", 3, "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		strbuf sb;

		strbuf_init(&sb);
		strbuf_puts(&sb, "> ");
		text_line(&sb, cases[i].in, strlen(cases[i].in), 0,
		    cases[i].chars);
		if (strcmp(sb.data + 2, cases[i].want) != 0)
			fail_msg("case %zu: '%s', want '%s'", i, sb.data + 2,
			    cases[i].want);
		strbuf_free(&sb);
	}
}

static void
test_error_one_line(void **state)
{
	mirror_error err;

	(void)state;
	assert_int_equal(mirror_fail(&err, MIRROR_EINPUT, "a\nb\r%s", "c\n"),
	    -MIRROR_EINPUT);
	assert_int_equal(err.status, MIRROR_EINPUT);
	assert_string_equal(err.msg, "a b c ");
	assert_int_equal(mirror_fail(NULL, MIRROR_EIO, "ignored"), -MIRROR_EIO);
}

#ifdef MIRROR_JEMALLOC
/* The bytes jemalloc holds in physical memory now. */
static size_t
jemalloc_resident(void)
{
	uint64_t epoch = 1;
	size_t n = sizeof(epoch), resident = 0;

	/* Its statistics are as of the last epoch: start a new one. */
	assert_int_equal(mallctl("epoch", &epoch, &n, &epoch, n), 0);
	n = sizeof(resident);
	assert_int_equal(mallctl("stats.resident", &resident, &n, NULL, 0), 0);
	return resident;
}
#endif

/*
 * xalloc_tune: once a big block was freed, the next block of a megabyte
 * or more is still a mapping of its own (glibc's default would have
 * raised the threshold to 8 MiB and served it from the heap, kept after
 * the free), and freeing it gives it back. ASan's allocator has no such
 * setting: there the case checks that big blocks still allocate whole.
 * Under jemalloc (make's default), xtrim gives a freed block back.
 */
static void
test_alloc_tune(void **state)
{
	const size_t big = 8u << 20, next = 2u << 20;
	char *p;

	(void)state;
	xalloc_tune();
	p = xmalloc(big);
	memset(p, 1, big);
	free(p);
	p = xmalloc(next);
	memset(p, 2, next);
	assert_int_equal(p[0] + p[next - 1], 4);
#if defined(MIRROR_JEMALLOC)
	{
		/* jemalloc keeps no such threshold: xtrim gives it back. */
		size_t held = jemalloc_resident(), after;

		free(p);
		xtrim();
		after = jemalloc_resident();
		assert_true(after + next <= held);
	}
#elif defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
	{
		struct mallinfo2 mapped = mallinfo2(), after;

		assert_true(mapped.hblkhd >= next);
		free(p);
		after = mallinfo2();
		assert_true(after.hblkhd + next <= mapped.hblkhd);
	}
#else
	free(p);
#endif
}

static char dbpath[64];

static int
make_path(void **state)
{
	(void)state;
	snprintf(dbpath, sizeof(dbpath), "/tmp/mirror-unit-%ld.db",
	    (long)getpid());
	unlink(dbpath);
	return 0;
}

static int
drop_path(void **state)
{
	(void)state;
	unlink(dbpath);
	return 0;
}

static void
exec_sql(const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static const char *
canonical_of(mirror_store *st, const char *name)
{
	static char buf[128];
	sqlite3_stmt *stmt;
	const char *r = NULL;

	assert_int_equal(sqlite3_prepare_v2(store_db(st), "SELECT canonical "
	    "FROM temp.project_alias WHERE name = ?1", -1, &stmt, NULL),
	    SQLITE_OK);
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		snprintf(buf, sizeof(buf), "%s", sqlite3_column_text(stmt, 0));
		r = buf;
	}
	sqlite3_finalize(stmt);
	return r;
}

/* 6: create, reopen, aliases resolve to canonical ids. */
static void
test_store_create_and_aliases(void **state)
{
	mirror_store *st;
	mirror_error err;

	(void)state;
	assert_int_equal(store_create(dbpath, &err), 0);
	assert_int_equal(store_create(dbpath, &err), -MIRROR_EINPUT);
	exec_sql("INSERT INTO projects(id, name, aliases) VALUES"
	    "('p05-interferometer', 'P05', '[\"p05\",\"interferometer\"]'),"
	    "('p06-polisher', 'P06', '[\"p06-polisher\"]')");
	assert_int_equal(store_open(&st, dbpath, STORE_READ, &err), 0);
	assert_true(store_features(st)->has_mirror_tables);
	assert_true(store_features(st)->mem_valid_until);
	assert_string_equal(canonical_of(st, "p05"), "p05-interferometer");
	assert_string_equal(canonical_of(st, "interferometer"),
	    "p05-interferometer");
	assert_string_equal(canonical_of(st, "p05-interferometer"),
	    "p05-interferometer");
	assert_string_equal(canonical_of(st, "p06-polisher"), "p06-polisher");
	assert_null(canonical_of(st, "p07"));
	store_close(st);
}

/* Every connection has the collation mirror_natural: the A-Z sorts a
 * name's projects with it (facts_names_open), as text_natural_cmp. */
static void
test_store_natural_collation(void **state)
{
	static const char *const want[] = { "p1", "p2", "p9", "p010",
	    "p10", "p11", "p100" };
	mirror_store *st;
	mirror_error err;
	sqlite3_stmt *stmt;
	size_t k = 0;

	(void)state;
	assert_int_equal(store_create(dbpath, &err), 0);
	assert_int_equal(store_open(&st, dbpath, STORE_READ, &err), 0);
	assert_int_equal(sqlite3_prepare_v2(store_db(st), "SELECT column1 "
	    "FROM (VALUES ('p10'), ('p100'), ('p2'), ('p010'), ('p1'), "
	    "('p11'), ('p9')) ORDER BY column1 COLLATE mirror_natural", -1,
	    &stmt, NULL), SQLITE_OK);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		assert_true(k < sizeof(want) / sizeof(want[0]));
		assert_string_equal(sqlite3_column_text(stmt, 0), want[k]);
		k++;
	}
	assert_int_equal(k, sizeof(want) / sizeof(want[0]));
	sqlite3_finalize(stmt);
	store_close(st);
}

/* 7: a store without mirror's tables gains them only when writing. */
static void
test_store_write_adds_mirror_tables(void **state)
{
	mirror_store *st;
	mirror_error err;

	(void)state;
	exec_sql("CREATE TABLE projects(id, name, aliases, description);"
	    "CREATE TABLE project_state(id, project, category, key, value,"
	    " source, confidence, status, created_at, updated_at);"
	    "CREATE TABLE entities(id, entity_type, name, project, description,"
	    " properties, status, confidence, source_refs, created_at,"
	    " updated_at);"
	    "CREATE TABLE relationships(id, source_entity_id, target_entity_id,"
	    " relationship_type, confidence);"
	    "CREATE TABLE memories(id, memory_type, content, project,"
	    " confidence, status, created_at, updated_at);"
	    "PRAGMA user_version = 42;");
	assert_int_equal(store_open(&st, dbpath, STORE_READ, &err), 0);
	assert_false(store_features(st)->has_mirror_tables);
	assert_false(store_features(st)->has_audit);
	assert_false(store_features(st)->mem_valid_until);
	store_close(st);
	assert_int_equal(store_open(&st, dbpath, STORE_WRITE, &err), 0);
	assert_true(store_features(st)->has_mirror_tables);
	assert_true(store_features(st)->has_audit);
	store_close(st);
	assert_int_equal(store_open(&st, dbpath, STORE_READ, &err), 0);
	assert_true(store_features(st)->has_mirror_tables);
	{
		sqlite3_stmt *stmt;

		/* The owner's user_version is never touched. */
		assert_int_equal(sqlite3_prepare_v2(store_db(st),
		    "PRAGMA user_version", -1, &stmt, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
		assert_int_equal(sqlite3_column_int(stmt, 0), 42);
		sqlite3_finalize(stmt);
	}
	store_close(st);
}

/* The growable array: pushes keep every element, in order, through
 * many reallocations; a reserve gives room without changing the count,
 * and a smaller reserve is a no-op. */
static void
test_array_grows(void **state)
{
	size_t *v = NULL, n = 0, cap = 0, i;
	char *c = NULL;
	size_t nc = 0, capc = 0;

	(void)state;
	for (i = 0; i < 10000; i++)
		ARRAY_PUSH(v, n, cap) = i * 3;
	assert_int_equal(n, 10000);
	assert_true(cap >= n);
	for (i = 0; i < n; i++)
		assert_int_equal(v[i], i * 3);
	free(v);

	ARRAY_RESERVE(c, capc, 100);
	assert_non_null(c);
	assert_true(capc >= 100);
	assert_int_equal(nc, 0);
	i = capc;
	ARRAY_RESERVE(c, capc, 5);
	assert_int_equal(capc, i);
	ARRAY_PUSH(c, nc, capc) = 'x';
	assert_int_equal(nc, 1);
	assert_int_equal(c[0], 'x');
	free(c);
}

/* An append adds the source's elements after those held, in order,
 * through a growth; an append of none (from NULL) changes nothing. */
static void
test_array_append(void **state)
{
	int *v = NULL, src[20];
	size_t n = 0, cap = 0, i;

	(void)state;
	for (i = 0; i < 20; i++)
		src[i] = (int)i + 100;
	ARRAY_PUSH(v, n, cap) = 7;
	ARRAY_APPEND(v, n, cap, src, 20);
	assert_int_equal(n, 21);
	assert_true(cap >= 21);
	assert_int_equal(v[0], 7);
	for (i = 0; i < 20; i++)
		assert_int_equal(v[i + 1], (int)i + 100);
	ARRAY_APPEND(v, n, cap, (int *)NULL, 0);
	assert_int_equal(n, 21);
	ARRAY_APPEND(v, n, cap, src + 19, 1);
	assert_int_equal(n, 22);
	assert_int_equal(v[21], 119);
	assert_int_equal(v[20], 119);
	assert_int_equal(v[19], 118);
	free(v);
}

/* The index by id: every element found through its own id whatever the
 * order it came in, by the member at the offset given; an id no element
 * holds, and any id of an empty index, find nothing. */
struct named {
	int n;
	const char *id;
};

static void
test_byid(void **state)
{
	struct named v[] = { { 0, "m" }, { 1, "b" }, { 2, "z" }, { 3, "a" },
	    { 4, "ba" } };
	size_t n = sizeof(v) / sizeof(*v), off = offsetof(struct named, id);
	void **by = byid_index(v, n, sizeof(*v), off);
	struct named *e;

	(void)state;
	for (size_t i = 1; i < n; i++)
		assert_true(strcmp(((struct named *)by[i - 1])->id,
		    ((struct named *)by[i])->id) < 0);
	for (size_t i = 0; i < n; i++) {
		e = byid_find(by, n, off, v[i].id);
		assert_ptr_equal(e, &v[i]);
	}
	assert_null(byid_find(by, n, off, "c"));
	assert_null(byid_find(by, n, off, ""));
	assert_null(byid_find(by, n, off, "zz"));
	free(by);
	by = byid_index(v, 0, sizeof(*v), off);
	assert_null(byid_find(by, 0, off, "a"));
	free(by);
}

/* A sorted array of ids (no index) finds each element's position by
 * its id; a missing id, and any id of an empty array, give BYID_NONE. */
static void
test_byid_sorted(void **state)
{
	static const struct named v[] = { { 0, "a" }, { 1, "b" }, { 2, "ba" },
	    { 3, "m" }, { 4, "z" } };
	size_t n = sizeof(v) / sizeof(*v), off = offsetof(struct named, id);

	(void)state;
	for (size_t i = 0; i < n; i++)
		assert_int_equal(byid_sorted(v, n, sizeof(*v), off, v[i].id),
		    i);
	assert_int_equal(byid_sorted(v, n, sizeof(*v), off, "c"), BYID_NONE);
	assert_int_equal(byid_sorted(v, n, sizeof(*v), off, ""), BYID_NONE);
	assert_int_equal(byid_sorted(v, n, sizeof(*v), off, "zz"), BYID_NONE);
	assert_int_equal(byid_sorted(v, 0, sizeof(*v), off, "a"), BYID_NONE);
	assert_int_equal(byid_sorted(NULL, 0, sizeof(*v), off, "a"),
	    BYID_NONE);
}

/* The sort's comparison reads its context: keys are positions into a
 * table of weights (the context), as a page's indexes are. */
struct weighed {
	int key;                /* a position in the table of weights */
	int seq;                /* its place in the input */
};

static int
cmp_weight(const void *a, const void *b, const void *ctx)
{
	const int *w = ctx;
	int x = w[((const struct weighed *)a)->key],
	    y = w[((const struct weighed *)b)->key];

	return (x > y) - (x < y);
}

/* array_find's and array_lower's order: a weight (key) against an
 * element's. */
static int
cmp_weight_key(const void *key, const void *e, const void *ctx)
{
	const int *w = ctx;
	int x = *(const int *)key, y = w[((const struct weighed *)e)->key];

	return (x > y) - (x < y);
}

/* array_sort orders by a comparison that needs its context, and is
 * stable: of many ties (runs longer than the insertion runs, in every
 * length up to 300, in a scrambled order), each keeps its input order;
 * nothing, one element, all equal and already sorted inputs are fine. */
static void
test_array_sort(void **state)
{
	static const int w[] = { 5, 1, 3, 1, 5, 0, 3, 3 };   /* ties */
	struct weighed v[300];

	(void)state;
	array_sort(NULL, 0, sizeof(*v), cmp_weight, w);
	v[0] = (struct weighed){ 7, 0 };
	array_sort(v, 1, sizeof(*v), cmp_weight, w);
	assert_int_equal(v[0].key, 7);
	for (size_t n = 2; n <= 300; n += n < 40 ? 1 : 37) {
		for (size_t i = 0; i < n; i++)
			v[i] = (struct weighed){ (int)((i * 7919 + n) % 8),
			    (int)i };
		array_sort(v, n, sizeof(*v), cmp_weight, w);
		for (size_t i = 1; i < n; i++) {
			int d = cmp_weight(&v[i - 1], &v[i], w);

			assert_true(d < 0 || (d == 0 && v[i - 1].seq <
			    v[i].seq));
		}
	}
	for (size_t i = 0; i < 100; i++)        /* all equal: as they came */
		v[i] = (struct weighed){ 2, (int)i };
	array_sort(v, 100, sizeof(*v), cmp_weight, w);
	for (size_t i = 0; i < 100; i++)
		assert_int_equal(v[i].seq, (int)i);
}

/* array_lower gives the first of a run of equal elements, the place a
 * missing key would go (n past the last), and 0 for nothing; array_find
 * finds an element equal to each weight held and ARRAY_NONE for one not
 * held or in nothing. */
static void
test_array_search(void **state)
{
	static const int w[] = { 0, 1, 1, 1, 3, 3, 5, 8 };  /* ascending */
	struct weighed v[8];
	static const int key[] = { -1, 0, 1, 2, 3, 4, 5, 8, 9 };
	static const size_t lower[] = { 0, 0, 1, 4, 4, 6, 6, 7, 8 };

	(void)state;
	for (size_t i = 0; i < 8; i++)
		v[i] = (struct weighed){ (int)i, (int)i };
	for (size_t i = 0; i < sizeof(key) / sizeof(*key); i++) {
		size_t at = array_find(&key[i], v, 8, sizeof(*v),
		    cmp_weight_key, w);

		assert_int_equal(array_lower(&key[i], v, 8, sizeof(*v),
		    cmp_weight_key, w), lower[i]);
		if (lower[i] < 8 && w[lower[i]] == key[i])
			assert_int_equal(w[at], key[i]);
		else
			assert_int_equal(at, ARRAY_NONE);
	}
	assert_int_equal(array_lower(&key[1], NULL, 0, sizeof(*v),
	    cmp_weight_key, w), 0);
	assert_int_equal(array_find(&key[1], NULL, 0, sizeof(*v),
	    cmp_weight_key, w), ARRAY_NONE);
}

/* A pair index finds the first element of each pair (a run of equal
 * pairs gives its first), tells ("a","bc") from ("ab","c") and a pair
 * from its halves swapped, and finds nothing for a pair no element
 * holds, or in an index of nothing (as a zeroed one). */
struct paired {
	const char *kind;
	int n;
	const char *id;
};

static void
test_byid_pairs(void **state)
{
	static const struct paired v[] = { { "a", 0, "bc" }, { "ab", 1, "c" },
	    { "entity", 2, "a" }, { "entity", 3, "a" }, { "entity", 4, "b" },
	    { "memory", 5, "a" }, { "memory", 6, "a" }, { "memory", 7, "a" },
	    { "project_state", 8, "entity" } };
	static const size_t first[] = { 0, 1, 2, 2, 4, 5, 5, 5, 8 };
	size_t n = sizeof(v) / sizeof(*v);
	struct byid_pairs ix, none;

	(void)state;
	byid_pairs_index(&ix, v, n, sizeof(*v), offsetof(struct paired, kind),
	    offsetof(struct paired, id));
	for (size_t i = 0; i < n; i++)
		assert_int_equal(byid_pairs_find(&ix, v, v[i].kind, v[i].id),
		    first[i]);
	assert_int_equal(byid_pairs_find(&ix, v, "a", "b"), BYID_NONE);
	assert_int_equal(byid_pairs_find(&ix, v, "abc", ""), BYID_NONE);
	assert_int_equal(byid_pairs_find(&ix, v, "entity", "c"), BYID_NONE);
	assert_int_equal(byid_pairs_find(&ix, v, "entity", "project_state"),
	    BYID_NONE);
	assert_int_equal(byid_pairs_find(&ix, v, "", "a"), BYID_NONE);
	byid_pairs_free(&ix);
	byid_pairs_index(&ix, v, 0, sizeof(*v), offsetof(struct paired, kind),
	    offsetof(struct paired, id));
	assert_int_equal(byid_pairs_find(&ix, v, "entity", "a"), BYID_NONE);
	byid_pairs_free(&ix);
	memset(&none, 0, sizeof(none));
	assert_int_equal(byid_pairs_find(&none, v, "entity", "a"), BYID_NONE);
	byid_pairs_free(&none);
}

/* ARRAY_FIT gives back the room beyond the elements held, keeping them;
 * an array already full, or empty, stays as it is; a push after a fit
 * grows it again. */
static void
test_array_fit(void **state)
{
	size_t *v = NULL, n = 0, cap = 0, *was;

	(void)state;
	for (size_t i = 0; i < 9; i++)
		ARRAY_PUSH(v, n, cap) = i + 1;
	assert_int_equal(cap, 16);
	ARRAY_FIT(v, n, cap);
	assert_int_equal(cap, 9);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(v[i], i + 1);
	was = v;
	ARRAY_FIT(v, n, cap);
	assert_ptr_equal(v, was);
	assert_int_equal(cap, 9);
	ARRAY_PUSH(v, n, cap) = 10;
	assert_int_equal(cap, 18);
	assert_int_equal(v[9], 10);
	assert_int_equal(v[8], 9);
	free(v);

	v = NULL;
	n = cap = 0;
	ARRAY_RESERVE(v, cap, 4);
	was = v;
	ARRAY_FIT(v, n, cap);
	assert_ptr_equal(v, was);
	assert_int_equal(cap, 8);
	free(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ts_parse_format),
		cmocka_unit_test(test_clock_source_date_epoch),
		cmocka_unit_test(test_hash_stable),
		cmocka_unit_test(test_hash_words),
		cmocka_unit_test(test_hash_steps),
		cmocka_unit_test(test_jsonbuild),
		cmocka_unit_test(test_jsonbuild_row),
		cmocka_unit_test(test_jsonbuild_row_trim),
		cmocka_unit_test(test_text_numbers),
		cmocka_unit_test(test_text_natural_order),
		cmocka_unit_test(test_xprefault),
		cmocka_unit_test(test_strbuf),
		cmocka_unit_test(test_error_one_line),
		cmocka_unit_test(test_text_line),
		cmocka_unit_test(test_array_grows),
		cmocka_unit_test(test_array_append),
		cmocka_unit_test(test_array_fit),
		cmocka_unit_test(test_byid),
		cmocka_unit_test(test_byid_pairs),
		cmocka_unit_test(test_byid_sorted),
		cmocka_unit_test(test_array_sort),
		cmocka_unit_test(test_array_search),
		cmocka_unit_test(test_alloc_tune),
		cmocka_unit_test_setup_teardown(test_store_create_and_aliases,
		    make_path, drop_path),
		cmocka_unit_test_setup_teardown(test_store_natural_collation,
		    make_path, drop_path),
		cmocka_unit_test_setup_teardown(
		    test_store_write_adds_mirror_tables, make_path, drop_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
