/*
 * test_page_list.c: a JSON file gathered one object at a time as text
 * (gen/site/page.h, page_list_*) holds what page_json writes for the
 * whole tree, each listed object on one line, and its record line
 * follows its bytes; a whole family's digest (page_hash_str) tells its
 * fields apart.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "output/output.h"
#include "output/record.h"
#include "site/page.h"
#include "util/hash.h"
#include "util/jsonfmt.h"
#include "util/jsonwrite.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include "scratch.h"

/* The site, inside the scratch directory. */
#define SITE "site"

static int
setup(void **state)
{
	(void)state;
	return scratch_enter("plist");
}

static int
teardown(void **state)
{
	(void)state;
	return scratch_leave();
}

/* The whole of file rel of the site, NUL-terminated; fails when absent. */
static char *
slurp(const char *rel)
{
	char *text = scratch_read(SITE, rel);

	assert_non_null(text);
	return text;
}

/* The objects of the list: unsorted ids, text that escaping changes
 * (newlines, quotes, non-ASCII, the marker word itself), nesting. */
static json_t *
object(int i)
{
	static const char *const ids[] = { "c-9", "c-10", "c-1", "b\xc3\xa9",
	    "c-2" };

	return json_pack("{s:s, s:s, s:[s, {s:i, s:[]}, {}], s:n, s:b}", "id",
	    ids[i], "text", i == 1 ? "two\nlines \"quoted\" \\ tab\t" :
	    "mirror-list-goes-here", "nested", "\xe2\x80\x93", "k", i,
	    "empty", "none", "flag", i % 2);
}

/* The head of the file: a key holding the marker word before the list,
 * which must be left alone. */
static json_t *
head(void)
{
	return json_pack("{s:i, s:[s]}", "count", 5, "note",
	    "mirror-list-goes-here");
}

/* 0: write_order holds the list in memory; else it starts the list's
 * scratch file (page_list_start) and moves the text there whenever this
 * many bytes are held. */
static size_t scratch_hold;

/* The orders in which write_both sets the objects. */
enum set_order { BY_INDEX, BY_ID, REVERSED };

/*
 * One build into site writing api/x.json from n objects (skipping
 * object skip, -1: none) set through a page_list in order how, and
 * api/y.json from the same objects as one tree through page_json; *hex
 * gets the record's line for api/x.json. Set in id order, each object
 * joins the list at once and none is held apart. Returns nothing:
 * fails the test on error.
 */
static void
write_order(size_t n, long skip, enum set_order how,
    char hex[DIGEST_HEX + 1])
{
	struct page_record *rec = record_load(SITE, 0);
	struct site_model m;
	struct site_writer w;
	struct page_ctx pc = { &m, &w, NULL };
	struct page_list l;
	struct output *o;
	mirror_error err;
	json_t *all = json_array(), *h = head(), *tree = head(), *v[8];
	const char *ids[8];

	memset(&m, 0, sizeof(m));
	assert_int_equal(output_begin(&o, SITE, &err), 0);
	writer_init(&w, NULL, NULL, o, NULL);
	record_set_key(rec, "0123456789abcdef");
	w.record = rec;
	for (size_t i = 0; i < n; i++) {
		v[i] = object((int)i);
		ids[i] = json_string_value(json_object_get(v[i], "id"));
	}
	page_list_init(&l, n, ids);
	if (scratch_hold > 0) {
		page_list_start(&l, &pc, h, "list");
		assert_true(l.scratch >= 0);
		l.hold = scratch_hold;
	}
	for (size_t k = 0; k < n; k++) {
		size_t i = how == BY_INDEX ? k : how == BY_ID ?
		    page_list_index(&l, k) : n - 1 - k;

		if ((long)i == skip)
			continue;
		assert_int_equal(page_list_set(&l, i, v[i]), 0);
		if (how == BY_ID && skip < 0) {
			assert_int_equal(l.joined, k + 1);
			for (size_t j = 0; j < n; j++)
				assert_null(l.text[j]);
		}
	}
	for (size_t k = 1; k < n; k++)
		assert_true(strcmp(ids[page_list_index(&l, k - 1)],
		    ids[page_list_index(&l, k)]) < 0);
	/* What the list must equal: the set objects sorted by id. */
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;

		while (k < json_array_size(all) && strcmp(json_string_value(
		    json_object_get(json_array_get(all, k), "id")),
		    json_string_value(json_object_get(v[i], "id"))) < 0)
			k++;
		if ((long)i != skip)
			json_array_insert(all, k, v[i]);
		json_decref(v[i]);
	}
	json_object_set_new(tree, "list", all);
	assert_int_equal(page_list_write(&pc, "api/x.json", h, "list", &l,
	    &err), 0);
	assert_int_equal(page_json(&pc, "api/y.json", tree, &err), 0);
	assert_int_equal(record_write(rec, o, &err), 0);
	assert_int_equal(output_commit(o, &err), 0);
	output_free(o);
	page_list_free(&l);
	writer_free(&w);
	record_free(rec);
	json_decref(h);
	json_decref(tree);
	rec = record_load(SITE, 0);
	assert_true(record_prev(hex, rec, "api/x.json"));
	record_free(rec);
}

/* write_order, objects set in index order (ids unsorted). */
static void
write_both(size_t n, long skip, char hex[DIGEST_HEX + 1])
{
	write_order(n, skip, BY_INDEX, hex);
}

/*
 * x.json must hold what y.json holds, and be y.json's text but for each
 * listed object, which is on a line of its own (json_write_line): the
 * text without the list's lines equals y.json's without them.
 */
static void
expect_same(void)
{
	char *x = slurp("api/x.json"), *y = slurp("api/y.json");
	json_t *jx = json_loads(x, 0, NULL), *jy = json_loads(y, 0, NULL);
	json_t *list = json_incref(json_object_get(jy, "list")), *o;
	strbuf want, line;
	size_t i;

	assert_non_null(jx);
	assert_true(json_equal(jx, jy));
	strbuf_init(&want);
	json_object_set_new(jy, "list", json_array());
	assert_int_equal(json_write_capped(&want, jy, 0), 0);
	/* The empty list's "[]" opened, the lines put in. */
	if (json_array_size(list) > 0) {
		char *at = strstr(want.data, "\"list\": []");
		strbuf rest;

		assert_non_null(at);
		strbuf_init(&rest);
		strbuf_puts(&rest, at + strlen("\"list\": []"));
		want.len = (size_t)(at - want.data);
		want.data[want.len] = '\0';
		strbuf_puts(&want, "\"list\": [");
		json_array_foreach(list, i, o) {
			strbuf_init(&line);
			assert_int_equal(json_write_line(&line, o), 0);
			assert_null(strchr(line.data, '\n'));
			strbuf_printf(&want, "%s\n    %s", i > 0 ? "," : "",
			    line.data);
			strbuf_free(&line);
		}
		strbuf_printf(&want, "\n  ]%s", rest.data);
		strbuf_free(&rest);
	}
	strbuf_putc(&want, '\n');
	assert_string_equal(x, want.data);
	strbuf_free(&want);
	json_decref(list);
	json_decref(jx);
	json_decref(jy);
	free(x);
	free(y);
}

/* 1: five objects, two, one, none and one left unset: the file is what
 * page_json writes for the tree, objects in id order. */
static void
test_same_bytes(void **state)
{
	char hex[DIGEST_HEX + 1];
	char *x;

	(void)state;
	write_both(5, -1, hex);
	expect_same();
	x = slurp("api/x.json");
	assert_non_null(strstr(x, "\"note\": [\n    \"mirror-list-goes-here\""
	    "\n  ],\n  \"list\": [\n    {\"id\": \"b\\u00E9\", \"text\": "));
	assert_true(strstr(x, "\"c-1\"") < strstr(x, "\"c-10\"") &&
	    strstr(x, "\"c-10\"") < strstr(x, "\"c-2\"") &&
	    strstr(x, "\"c-2\"") < strstr(x, "\"c-9\""));
	free(x);
	write_both(2, -1, hex);
	expect_same();
	write_both(1, -1, hex);
	expect_same();
	write_both(0, -1, hex);
	expect_same();
	x = slurp("api/x.json");
	assert_non_null(strstr(x, "\"list\": []\n}\n"));
	free(x);
	write_both(3, 1, hex);
	expect_same();
}

/* 3: the same file whatever order the objects are set in; set in id
 * order (page_list_index), each joins the list at once. */
static void
test_any_order(void **state)
{
	char a[DIGEST_HEX + 1], b[DIGEST_HEX + 1], c[DIGEST_HEX + 1];

	(void)state;
	write_order(5, -1, BY_INDEX, a);
	expect_same();
	write_order(5, -1, BY_ID, b);
	expect_same();
	write_order(5, -1, REVERSED, c);
	expect_same();
	assert_string_equal(a, b);
	assert_string_equal(a, c);
	write_order(5, 3, BY_ID, b);
	expect_same();
	write_order(5, 3, REVERSED, c);
	expect_same();
	assert_string_equal(b, c);
	assert_string_not_equal(a, b);
}

/* 2: the record's line for the file is the same for the same bytes and
 * changes with them. */
static void
test_record_line(void **state)
{
	char a[DIGEST_HEX + 1], b[DIGEST_HEX + 1], c[DIGEST_HEX + 1];

	(void)state;
	write_both(5, -1, a);
	write_both(5, -1, b);
	write_both(5, 2, c);
	assert_string_equal(a, b);
	assert_string_not_equal(a, c);
}

/* The two hashes after folding the n strings of s into a fresh pair. */
static void
hash_of(uint64_t h[2], const char *const *s, size_t n)
{
	h[0] = MIRROR_HASH_INIT;
	h[1] = 1;
	page_hash_strs(h, s, n);
}

/*
 * A family's digest (page_hash_str) tells apart what its pages tell
 * apart: a gone row's NULL field from an empty one, fields run together
 * differently, the same fields in another order; both halves move.
 */
static void
test_family_hash(void **state)
{
	static const char *const cases[][2] = {
	    { NULL, "x" }, { "", "x" }, { "ab", "c" }, { "a", "bc" },
	    { "c", "ab" }, { "x", NULL }, { "x", "" },
	};
	const size_t n = sizeof(cases) / sizeof(*cases);
	uint64_t h[sizeof(cases) / sizeof(*cases)][2], again[2], num[2];

	(void)state;
	for (size_t i = 0; i < n; i++)
		hash_of(h[i], cases[i], 2);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			assert_true(h[i][0] != h[j][0]);
			assert_true(h[i][1] != h[j][1]);
		}
	hash_of(again, cases[2], 2);
	assert_memory_equal(again, h[2], sizeof(again));
	/* A number folds as its decimal text. */
	num[0] = MIRROR_HASH_INIT;
	num[1] = 1;
	page_hash_int(num, -42);
	hash_of(again, (const char *const[]){ "-42" }, 1);
	assert_memory_equal(again, num, sizeof(num));
}

/* The inode of the site's file rel. */
static unsigned long long
inode_of(const char *rel)
{
	struct stat st;
	char path[256];

	assert_true((size_t)snprintf(path, sizeof(path), "%s/%s", SITE, rel) <
	    sizeof(path));
	assert_int_equal(stat(path, &st), 0);
	return (unsigned long long)st.st_ino;
}

/* 5: through the scratch file (moved there every byte, every few
 * objects, or only at the end), the file and its record line are what
 * the list held in memory gives, whatever order the objects come in. */
static void
test_scratch_same(void **state)
{
	static const size_t holds[] = { 1, 40, PAGE_LIST_HOLD };
	char mem[DIGEST_HEX + 1], got[DIGEST_HEX + 1];

	(void)state;
	for (size_t n = 0; n <= 5; n++)
		for (size_t h = 0; h < sizeof(holds) / sizeof(*holds); h++) {
			scratch_hold = 0;
			write_both(n, -1, mem);
			scratch_hold = holds[h];
			write_both(n, -1, got);
			expect_same();
			assert_string_equal(mem, got);
			write_order(n, n > 1 ? 1 : -1, REVERSED, got);
			expect_same();
			scratch_hold = 0;
			write_order(n, n > 1 ? 1 : -1, REVERSED, mem);
			assert_string_equal(mem, got);
		}
}

/* 6: a file from the scratch file that the record says is unchanged is
 * kept (the file the last build left stays), a changed one written. */
static void
test_scratch_kept(void **state)
{
	char a[DIGEST_HEX + 1], b[DIGEST_HEX + 1];
	unsigned long long first;

	(void)state;
	scratch_hold = 1;
	write_both(5, -1, a);
	first = inode_of("api/x.json");
	write_both(5, -1, b);
	assert_string_equal(a, b);
	assert_true(inode_of("api/x.json") == first);
	write_both(5, 2, b);
	expect_same();
	assert_string_not_equal(a, b);
	assert_true(inode_of("api/x.json") != first);
	scratch_hold = 0;
}

/* 7: when the scratch file loses bytes (here: it cannot be written),
 * the file is not written and the error names it. */
static void
test_scratch_lost(void **state)
{
	struct page_record *rec = record_load(SITE, 0);
	struct site_model m;
	struct site_writer w;
	struct page_ctx pc = { &m, &w, NULL };
	struct page_list l;
	struct output *o;
	mirror_error err;
	json_t *h = head(), *v = object(0);
	const char *id = "c-9";

	(void)state;
	memset(&m, 0, sizeof(m));
	assert_int_equal(output_begin(&o, SITE, &err), 0);
	writer_init(&w, NULL, NULL, o, NULL);
	record_set_key(rec, "0123456789abcdef");
	w.record = rec;
	page_list_init(&l, 1, &id);
	page_list_start(&l, &pc, h, "list");
	assert_true(l.scratch >= 0);
	close(l.scratch);
	l.scratch = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(l.scratch >= 0);
	l.hold = 1;
	assert_int_equal(page_list_set(&l, 0, v), 0);
	assert_int_equal(page_list_write(&pc, "api/lost.json", h, "list", &l,
	    &err), -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "api/lost.json: cannot hold its "
	    "text"));
	output_free(o);
	page_list_free(&l);
	writer_free(&w);
	record_free(rec);
	json_decref(h);
	json_decref(v);
	assert_null(scratch_read(SITE, "api/lost.json"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_same_bytes, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_record_line, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_any_order, setup,
		    teardown),
		cmocka_unit_test(test_family_hash),
		cmocka_unit_test_setup_teardown(test_scratch_same, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_scratch_kept, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_scratch_lost, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
