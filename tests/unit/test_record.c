/*
 * test_record.c: the digests of each page's inputs (gen/output/record.h),
 * which decide whether a page is rendered again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <nettle/sha2.h>

#include "output/output.h"
#include "output/record.h"
#include "scratch.h"

SCRATCH_FIXTURES(enter, leave, "record")

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

/* Bytes for the feeds the next tests spell out by hand. */
struct feed {
	unsigned char b[20000];
	size_t n;
};

/* An input's head as the record feeds it: kind, then the length seven
 * bits a byte, low first, the high bit on all but the last. */
static void
put_head(struct feed *f, char kind, size_t len)
{
	f->b[f->n++] = (unsigned char)kind;
	for (; len >= 0x80; len >>= 7)
		f->b[f->n++] = (unsigned char)(0x80 | (len & 0x7f));
	f->b[f->n++] = (unsigned char)len;
}

static void
put(struct feed *f, char kind, const void *p, size_t len)
{
	put_head(f, kind, len);
	if (len > 0)
		memcpy(f->b + f->n, p, len);
	f->n += len;
}

/* hex is the first DIGEST_HEX digits of the SHA-256 of f's bytes. */
static void
assert_sha(const char *hex, const struct feed *f)
{
	struct sha256_ctx c;
	unsigned char sum[SHA256_DIGEST_SIZE];
	char want[DIGEST_HEX + 1];

	sha256_init(&c);
	sha256_update(&c, f->n, f->b);
	sha256_digest(&c, sizeof(sum), sum);
	for (int i = 0; i < DIGEST_HEX / 2; i++)
		(void)snprintf(want + 2 * i, 3, "%02x", sum[i]);
	assert_string_equal(hex, want);
}

/*
 * The bytes digested, spelled out: a file's bytes and a JSON tree, with
 * lengths on both sides of each head size (1, 2 and 3 bytes), so the
 * record's format is pinned and every length keeps its own head.
 */
static void
test_digest_format(void **state)
{
	static const size_t lens[] = { 0, 1, 127, 128, 300, 16383, 16384 };
	static struct feed f;
	static char data[16384];
	char hex[DIGEST_HEX + 1];
	struct page_record *r = record_load(NULL, 1);
	json_t *v;

	(void)state;
	record_set_key(r, "k");
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (char)('a' + i % 26);
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		f.n = 0;
		put(&f, 'K', "k", 1);
		put(&f, 'P', "a/b.json", 8);
		put(&f, 'B', data, lens[i]);
		record_digest_bytes(hex, r, "a/b.json", data, lens[i]);
		assert_sha(hex, &f);
	}
	/* {"s": "x…" (200), "a": [7, true]}: objects and arrays by count */
	v = json_pack("{s:s%, s:[I, b]}", "s", data, (size_t)200, "a",
	    (json_int_t)7, 1);
	assert_non_null(v);
	f.n = 0;
	put(&f, 'K', "k", 1);
	put(&f, 'P', "p/index", 7);
	put(&f, 'T', "t.md", 4);
	put(&f, 'H', "T", 1);
	put_head(&f, '{', 2);
	put(&f, 'k', "s", 1);
	put(&f, 's', data, 200);
	put(&f, 'k', "a", 1);
	put_head(&f, '[', 2);
	{
		json_int_t seven = 7;

		put(&f, 'i', &seven, sizeof(seven));
	}
	put(&f, 't', NULL, 0);
	record_digest(hex, r, "p/index", "t.md", "T", v);
	assert_sha(hex, &f);
	json_decref(v);
	record_free(r);
}

/* A twin's digest is made from its page's: key, its path, the page's
 * digest; another page digest or path gives another. */
static void
test_digest_from(void **state)
{
	static struct feed f;
	const char *from = "0123456789abcdef0123456789abcdef";
	char hex[DIGEST_HEX + 1], other[DIGEST_HEX + 1];
	struct page_record *r = record_load(NULL, 1);

	(void)state;
	record_set_key(r, "k");
	record_digest_from(hex, r, "api/x.json", from);
	put(&f, 'K', "k", 1);
	put(&f, 'P', "api/x.json", 10);
	put(&f, 'D', from, DIGEST_HEX);
	assert_sha(hex, &f);
	record_digest_from(other, r, "api/y.json", from);
	assert_string_not_equal(hex, other);
	record_digest_from(other, r, "api/x.json",
	    "1123456789abcdef0123456789abcdef");
	assert_string_not_equal(hex, other);
	record_free(r);
}

/* The name of the part whose text is text: from the path of its first
 * line after the header, or zeros when it has no such line. */
static void
name_of(char name[17], const char *text)
{
	const char *p = strchr(text, '\n');

	if (p == NULL || strlen(p + 1) < DIGEST_HEX + 2 ||
	    p[1 + DIGEST_HEX] != '\t') {
		memcpy(name, "0000000000000000", 17);
		return;
	}
	p += 1 + DIGEST_HEX + 1;
	record_part_name(name, p, strcspn(p, "\n"));
}

/* Write text as a part of the site's record, named as its first line
 * says. */
static void
part_with(const char *text)
{
	char name[17], path[64];

	name_of(name, text);
	(void)snprintf(path, sizeof(path), "site/%s/%s%s", RECORD_DIR, name,
	    RECORD_EXT);
	scratch_write(path, text, strlen(text));
}

/* A site directory holding the previous record text as one part (NULL:
 * no record). */
static void
site_with(const char *record)
{
	assert_int_equal(scratch_sh("rm -rf site && mkdir -p site/%s && "
	    "printf 'x' > site/.mirror-output", RECORD_DIR), 0);
	if (record != NULL)
		part_with(record);
}

/* The part of the site's record whose first path is path, read whole
 * (the caller frees it), or NULL. */
static char *
part_of(const char *path)
{
	char name[17], rel[64];

	record_part_name(name, path, strlen(path));
	(void)snprintf(rel, sizeof(rel), "%s/%s%s", RECORD_DIR, name,
	    RECORD_EXT);
	return scratch_read("site", rel);
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
	/* path order, one line each, after the header, in one part named
	 * by its first path; nothing else in the record's folder */
	{
		char want[256], *got = part_of("a/index");

		(void)snprintf(want, sizeof(want), "%s%s\ta/index\n%s\t"
		    "b/index\n", RECORD_HEADER, b, a);
		assert_non_null(got);
		assert_string_equal(got, want);
		free(got);
		assert_int_equal(scratch_sh("test $(ls site/%s | wc -l) = 1",
		    RECORD_DIR), 0);
	}
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
	got = part_of("b/index");
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
		"# mirror page inputs 1: sha-256 of each page's data, "
		    "template and site inputs\n"
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

/* Write a record of the pages p/00000 .. p/<n-1> (digest i % 16, but
 * page k's digest dk) into the site, as a build does. */
static void
write_pages(int n, int k, int dk)
{
	struct page_record *r;
	struct output *out;
	mirror_error err;
	char path[32];

	r = open_site(&out, 0);
	for (int i = 0; i < n; i++) {
		(void)snprintf(path, sizeof(path), "p/%05d", i);
		record_put(r, path, hex_n(i == k ? dk : i % 16));
	}
	assert_int_equal(record_write(r, out, &err), 0);
	record_free(r);
	assert_int_equal(output_commit(out, &err), 0);
	output_free(out);
}

/* "NAME SHA-256" of each part of the site's record, one per line. */
static char *
parts_listing(void)
{
	char *got;

	assert_int_equal(scratch_sh("cd site/%s && sha256sum * | "
	    "awk '{print $2, $1}' | LC_ALL=C sort > ../../../parts.txt",
	    RECORD_DIR), 0);
	got = scratch_read(".", "parts.txt");
	assert_non_null(got);
	return got;
}

/* How many lines of a and b (listings) differ: in one, not the other. */
static int
listing_changes(const char *a, const char *b)
{
	char *count;
	int n;

	scratch_write("a.txt", a, strlen(a));
	scratch_write("b.txt", b, strlen(b));
	assert_int_equal(scratch_sh("LC_ALL=C comm -3 a.txt b.txt | wc -l "
	    "> n.txt"), 0);
	count = scratch_read(".", "n.txt");
	assert_non_null(count);
	n = atoi(count);
	free(count);
	return n;
}

/*
 * A large record is written in parts of about 512 lines, each named by
 * its first path and starting with the header, which together hold
 * every line once in path order; the next build finds every digest. A
 * page whose digest changes rewrites the one part that holds it, and
 * every other part keeps its name and bytes.
 */
static void
test_record_parts(void **state)
{
	struct page_record *r;
	struct output *out;
	char path[32], hex[DIGEST_HEX + 1], *before, *after;
	int parts;

	(void)state;
	site_with(NULL);
	write_pages(6000, -1, 0);
	before = parts_listing();
	parts = listing_changes(before, "");
	assert_in_range(parts, 4, 40);
	/* each part: the header, then lines in order, named by its first
	 * path; all of them: every page once, in order */
	scratch_write("header.txt", RECORD_HEADER, strlen(RECORD_HEADER));
	assert_int_equal(scratch_sh("cd site/%s && for f in *; do "
	    "head -1 $f | cmp -s - ../../../header.txt || exit 1; "
	    "first=$(sed -n 2p $f | cut -f2); "
	    "tail -n +2 $f | cut -f2 | LC_ALL=C sort -c || exit 1; "
	    "echo \"$first $f\"; done > ../../../firsts.txt",
	    RECORD_DIR), 0);
	{
		char *firsts = scratch_read(".", "firsts.txt"), *line;
		char want[17];

		assert_non_null(firsts);
		for (line = strtok(firsts, "\n"); line != NULL;
		    line = strtok(NULL, "\n")) {
			char *sp = strchr(line, ' ');

			assert_non_null(sp);
			record_part_name(want, line, (size_t)(sp - line));
			assert_memory_equal(want, sp + 1, 16);
		}
		free(firsts);
	}
	assert_int_equal(scratch_sh("cd site/%s && LC_ALL=C sort "
	    "../../../firsts.txt | while read -r first f; do tail -n +2 $f; "
	    "done | cut -f2 > ../../../all.txt && LC_ALL=C sort -c -u "
	    "../../../all.txt && test $(wc -l < ../../../all.txt) = 6000",
	    RECORD_DIR), 0);
	r = open_site(&out, 0);
	for (int i = 0; i < 6000; i += 7) {
		(void)snprintf(path, sizeof(path), "p/%05d", i);
		assert_true(record_prev(hex, r, path));
		assert_string_equal(hex, hex_n(i % 16));
	}
	record_free(r);
	output_free(out);
	/* one digest changes: one part is rewritten (its old bytes out, its
	 * new ones in), the others stay */
	write_pages(6000, 4321, 4321 % 16 == 3 ? 4 : 3);
	after = parts_listing();
	assert_int_equal(listing_changes(before, after), 2);
	free(before);
	before = after;
	/* and back: the same parts as before */
	write_pages(6000, -1, 0);
	after = parts_listing();
	assert_int_equal(listing_changes(before, after), 2);
	free(after);
	free(before);
}

/* 1 when the site's record, as the next build reads it, gives path
 * the digest 0123...cdef. */
static int
found(const char *path)
{
	struct page_record *r;
	struct output *out;
	int same;

	r = open_site(&out, 0);
	same = record_same(r, path, "0123456789abcdef0123456789abcdef");
	record_free(r);
	output_free(out);
	return same;
}

/*
 * Parts that are not exactly what record_write writes drop the whole
 * record: a part named for another path, two parts that interleave or
 * repeat a path, an empty part, an old single-file record beside. A
 * file of another name is no part and is not read.
 */
static void
test_record_parts_doubtful(void **state)
{
	char path[64];
	struct page_record *r;
	struct output *out;
	int n;

	(void)state;
	/* two parts that follow each other: read */
	site_with(RECORD_HEADER "0123456789abcdef0123456789abcdef\ta/index\n");
	part_with(RECORD_HEADER "0123456789abcdef0123456789abcdef\tb/index\n");
	scratch_write("site/api/pages/README", "x", 1);
	assert_true(found("a/index"));
	assert_true(found("b/index"));
	/* interleaved */
	site_with(RECORD_HEADER "0123456789abcdef0123456789abcdef\ta/index\n"
	    "0123456789abcdef0123456789abcdef\tc/index\n");
	part_with(RECORD_HEADER "0123456789abcdef0123456789abcdef\tb/index\n");
	assert_false(found("a/index"));
	/* a path in two parts */
	site_with(RECORD_HEADER "0123456789abcdef0123456789abcdef\ta/index\n"
	    "0123456789abcdef0123456789abcdef\tb/index\n");
	part_with(RECORD_HEADER "0123456789abcdef0123456789abcdef\tb/index\n"
	    "0123456789abcdef0123456789abcdef\tc/index\n");
	assert_false(found("a/index"));
	/* named for another path */
	site_with(NULL);
	n = snprintf(path, sizeof(path), "site/%s/0123456789abcdef%s",
	    RECORD_DIR, RECORD_EXT);
	assert_true(n > 0 && (size_t)n < sizeof(path));
	scratch_write(path, RECORD_HEADER "0123456789abcdef0123456789abcdef"
	    "\ta/index\n", strlen(RECORD_HEADER) + DIGEST_HEX + 9);
	part_with(RECORD_HEADER "0123456789abcdef0123456789abcdef\tb/index\n");
	assert_false(found("b/index"));
	/* a part of the header alone */
	site_with(RECORD_HEADER "0123456789abcdef0123456789abcdef\tb/index\n");
	part_with(RECORD_HEADER);
	assert_false(found("b/index"));
	/* the old single file is not a record */
	site_with(NULL);
	scratch_write("site/api/pages.tsv", RECORD_HEADER "0123456789abcdef"
	    "0123456789abcdef\ta/index\n", strlen(RECORD_HEADER) +
	    DIGEST_HEX + 9);
	r = open_site(&out, 0);
	assert_false(record_has_lines(r));
	record_free(r);
	output_free(out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digest_stable),
		cmocka_unit_test(test_digest_every_input),
		cmocka_unit_test(test_digest_unambiguous),
		cmocka_unit_test(test_digest_format),
		cmocka_unit_test(test_digest_from),
		cmocka_unit_test(test_record_round_trip),
		cmocka_unit_test(test_record_doubtful),
		cmocka_unit_test(test_record_keep_under),
		cmocka_unit_test(test_record_lookup),
		cmocka_unit_test(test_record_parts),
		cmocka_unit_test(test_record_parts_doubtful),
	};

	return cmocka_run_group_tests(tests, enter, leave);
}
