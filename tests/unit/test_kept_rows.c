/*
 * test_kept_rows.c: gen/output/kept_rows, the rows a build keeps for the
 * next one (the A-Z's names): written and read back alike, whole or in
 * parts through a cache entry that is then mapped; and a text that is
 * not as kept (its tag, its hashes, a field's length, a NUL, a byte
 * that is not UTF-8, a row of too few or too many fields, cut anywhere,
 * every byte changed in turn) is refused, never read past its end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "output/kept_rows.h"
#include "sys/cache.h"
#include "util/strbuf.h"

#include "scratch.h"

#define TAG "mirror test rows 1"

/* Three rows of three fields, one NULL, one empty, one of UTF-8, into
 * w (to sink, NULL: w->buf). */
static void
sample(struct kept_writer *w, struct cache_writer *sink)
{
	kept_writer_begin(w, sink, TAG);
	kept_writer_put(w, (const char *const[]){ "alpha", NULL, "" }, 3);
	kept_writer_put(w, (const char *const[]){ "b\xc3\xa9ta", "p1",
	    "12:34\nx" }, 3);
	kept_writer_put(w, (const char *const[]){ "", "", NULL }, 3);
	kept_writer_end(w);
}

/* Read every row of data[0..len) as rows of n fields: how many, or -1
 * when the text is refused (opened, or a row, not as kept). */
static int
read_all(const char *data, size_t len, size_t n)
{
	struct kept_cursor c;
	const char *f[8];
	int rows = 0, rc;

	if (!kept_rows_open(&c, data, len, TAG, NULL))
		return -1;
	while ((rc = kept_rows_next(&c, f, n)) == 1)
		rows++;
	return rc < 0 ? -1 : rows;
}

static void
test_round_trip(void **state)
{
	struct kept_writer w;
	struct kept_cursor c;
	const char *f[3];

	(void)state;
	sample(&w, NULL);
	assert_true(kept_rows_open(&c, w.buf.data, w.buf.len, TAG, NULL));
	assert_int_equal(kept_rows_next(&c, f, 3), 1);
	assert_string_equal(f[0], "alpha");
	assert_null(f[1]);
	assert_string_equal(f[2], "");
	assert_int_equal(kept_rows_next(&c, f, 3), 1);
	assert_string_equal(f[0], "b\xc3\xa9ta");
	assert_string_equal(f[2], "12:34\nx");
	assert_int_equal(kept_rows_next(&c, f, 3), 1);
	assert_string_equal(f[1], "");
	assert_null(f[2]);
	assert_int_equal(kept_rows_next(&c, f, 3), 0);
	kept_writer_free(&w);
	/* No rows at all is a text too. */
	kept_writer_begin(&w, NULL, TAG);
	kept_writer_end(&w);
	assert_int_equal(read_all(w.buf.data, w.buf.len, 3), 0);
	kept_writer_free(&w);
}

static void
test_other_tag(void **state)
{
	struct kept_writer w;
	struct kept_cursor c;

	(void)state;
	sample(&w, NULL);
	assert_false(kept_rows_open(&c, w.buf.data, w.buf.len, TAG "0",
	    NULL));
	assert_false(kept_rows_open(&c, w.buf.data, w.buf.len, "mirror test",
	    NULL));
	/* Rows of more fields than kept are refused, not read on. */
	assert_int_equal(read_all(w.buf.data, w.buf.len, 4), -1);
	kept_writer_free(&w);
}

static void
test_bad_rows(void **state)
{
	/* Each a whole text's rows, hashed as kept: only the row is bad. */
	static const char *const rows[] = {
		"s5:abc\n",                     /* a length past the row */
		"s3:abcd\n",                    /* no NUL where it ends */
		"s3:a\0c\0nn\n",                /* a NUL inside */
		"s2:\xc3(\0nn\n",               /* not UTF-8 */
		"s2:\xc0\xaf\0nn\n",            /* an overlong form */
		"x\n",                          /* neither n nor s */
		"s:\0nn\n",                     /* no length */
		"s99999999999999999999999:\0nn\n",  /* a length past size_t */
		"nn\n",                         /* too few fields */
		"nnnn\n",                       /* too many */
		"nnn",                          /* no row's end */
	};
	static const size_t lens[] = { 7, 8, 10, 9, 9, 2, 6, 29, 3, 5, 3 };
	struct kept_writer w;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++) {
		kept_writer_begin(&w, NULL, TAG);
		strbuf_add(&w.buf, rows[i], lens[i]);
		kept_writer_end(&w);
		assert_int_equal(read_all(w.buf.data, w.buf.len, 3), -1);
		kept_writer_free(&w);
	}
	kept_writer_begin(&w, NULL, TAG);
	strbuf_add(&w.buf, "nnn\n", 4);
	kept_writer_end(&w);
	assert_int_equal(read_all(w.buf.data, w.buf.len, 3), 1);
	kept_writer_free(&w);
}

static void
test_damage(void **state)
{
	struct kept_writer w;
	char *copy;
	size_t len;

	(void)state;
	sample(&w, NULL);
	len = w.buf.len;
	copy = malloc(len + 1);
	/* Cut at every length: refused (the hashes end the text). */
	for (size_t n = 0; n < len; n++) {
		memcpy(copy, w.buf.data, n);
		copy[n] = '\0';
		assert_int_equal(read_all(copy, n, 3), -1);
	}
	/* Each byte changed: refused, by the tag or the hashes. */
	for (size_t i = 0; i < len; i++) {
		memcpy(copy, w.buf.data, len + 1);
		copy[i] ^= 0x21;
		assert_int_equal(read_all(copy, len, 3), -1);
	}
	assert_int_equal(read_all(NULL, 0, 3), -1);
	free(copy);
	kept_writer_free(&w);
}

/* Row i of the large text: its fields into f, their text in sb. */
static void
large_row(const char *f[3], strbuf *sb, size_t i)
{
	strbuf_reset(sb);
	strbuf_printf(sb, "name %zu%cproject %zu%c", i, '\0', i % 97, '\0');
	f[0] = sb->data;
	f[1] = sb->data + strlen(sb->data) + 1;
	f[2] = i % 5 == 0 ? NULL : "a value of some length, \xc3\xa9";
}

static void
test_parts(void **state)
{
	struct kept_writer whole, parts;
	struct cache_writer *sink;
	struct cache_map m;
	struct kept_cursor c;
	const char *f[3], *g[3];
	strbuf sb;
	size_t n = 60000, i = 0;

	(void)state;
	assert_int_equal(scratch_enter("kept_rows"), 0);
	assert_int_equal(setenv("MIRROR_CACHE_DIR", scratch_dir, 1), 0);
	strbuf_init(&sb);
	/* The same rows, about 4 MB: whole, and in parts to an entry. */
	sink = cache_writer_start("test", "k", 1);
	assert_non_null(sink);
	kept_writer_begin(&whole, NULL, TAG);
	kept_writer_begin(&parts, sink, TAG);
	for (size_t k = 0; k < n; k++) {
		large_row(f, &sb, k);
		kept_writer_put(&whole, f, 3);
		kept_writer_put(&parts, f, 3);
	}
	kept_writer_end(&whole);
	kept_writer_end(&parts);
	cache_writer_end(sink, 1);
	kept_writer_free(&parts);
	assert_true(whole.buf.len > 3 * KEPT_BLOCK);
	/* The entry is the whole text, byte for byte, and reads back. */
	assert_int_equal(cache_map(&m, whole.buf.len, "test", "k", 1), 0);
	assert_int_equal(m.len, whole.buf.len);
	assert_memory_equal(m.data, whole.buf.data, m.len);
	assert_true(kept_rows_open(&c, m.data, m.len, TAG, &m));
	while (kept_rows_next(&c, g, 3) == 1) {
		large_row(f, &sb, i++);
		assert_string_equal(g[0], f[0]);
		assert_string_equal(g[1], f[1]);
		assert_true(g[2] == NULL ? f[2] == NULL :
		    strcmp(g[2], f[2]) == 0);
	}
	assert_int_equal(i, n);
	cache_unmap(&m);
	/* Longer than asked: not mapped. */
	assert_int_equal(cache_map(&m, whole.buf.len - 1, "test", "k", 1),
	    -1);
	assert_null(m.data);
	/* Dropped unfinished: no entry. */
	sink = cache_writer_start("test", "j", 1);
	cache_writer_add(sink, "x", 1);
	cache_writer_end(sink, 0);
	assert_int_equal(cache_map(&m, 100, "test", "j", 1), -1);
	kept_writer_free(&whole);
	strbuf_free(&sb);
	assert_int_equal(scratch_leave(), 0);
}

/* The decimal digits of n. */
static size_t
digits(size_t n)
{
	size_t d = 1;

	while ((n /= 10) > 0)
		d++;
	return d;
}

/* A text of rows of one field, 'a's, then seq (under 10 bytes) as a
 * row's field starting at byte at of the text: whether it reads (the
 * rows, or -1). */
static int
read_at(const char *seq, size_t at)
{
	struct kept_writer w;
	char pad[2048];
	size_t left, len = 0;
	int rows;

	memset(pad, 'a', sizeof(pad) - 1);
	pad[1023] = '\0';
	kept_writer_begin(&w, NULL, TAG);
	/* "s1023:", 1023 bytes, a NUL and "\n": 1030 bytes a row. */
	while (w.buf.len + 1030 + 40 < at)
		kept_writer_put(&w, (const char *const[]){ pad }, 1);
	/* The last row of 'a's: "sL:", L bytes, NUL, "\n"; then "sK:". */
	left = at - w.buf.len - 7;
	for (size_t d = 1; d <= 4 && len == 0; d++)
		if (digits(left - d) == d)
			len = left - d;
	assert_true(len > 0 && len < sizeof(pad));
	pad[1023] = 'a';
	pad[len] = '\0';
	kept_writer_put(&w, (const char *const[]){ pad }, 1);
	assert_int_equal(w.buf.len + 3, at);
	kept_writer_put(&w, (const char *const[]){ seq }, 1);
	kept_writer_end(&w);
	rows = read_all(w.buf.data, w.buf.len, 1);
	kept_writer_free(&w);
	return rows;
}

/* The text's UTF-8 is checked a megabyte at a time (kept_rows_open): a
 * character across that edge reads, at any of its bytes; a bad one
 * there does not. */
static void
test_utf8_edge(void **state)
{
	(void)state;
	for (size_t back = 1; back <= 4; back++) {
		assert_true(read_at("\xf0\x9f\x98\x80", (1u << 20) - back) >
		    1000);
		assert_true(read_at("\xc3\xa9", (1u << 20) - back) > 1000);
		assert_int_equal(read_at("\xf0\x9f\x98(", (1u << 20) - back),
		    -1);
		assert_int_equal(read_at("\xe2\x80\x80\x80", (1u << 20) -
		    back), -1);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_other_tag),
		cmocka_unit_test(test_bad_rows),
		cmocka_unit_test(test_damage),
		cmocka_unit_test(test_utf8_edge),
		cmocka_unit_test(test_parts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
