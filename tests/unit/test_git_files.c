/*
 * test_git_files.c: gen/git/git_files, mgit_read_many: the commit reads
 * files ahead in batches bounded by bytes, so a batch is a prefix of
 * the files given, each read and hashed as git would, with the ones
 * past the batch untouched; files without a disk and unreadable files
 * are told apart from read ones.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <git2.h>
#include <zlib.h>

#include "git/git_files.h"
#include "git/git_pack.h"

#include "scratch.h"

#define N_FILES 10
#define FILE_BYTES 1000

static char names[N_FILES][16];

static int
setup(void **state)
{
	char text[FILE_BYTES];

	(void)state;
	git_libgit2_init();
	if (scratch_enter("gitfiles") != 0)
		return -1;
	for (int i = 0; i < N_FILES; i++) {
		memset(text, 'a' + i, sizeof(text));
		snprintf(names[i], sizeof(names[i]), "f%d", i);
		scratch_write(names[i], text, sizeof(text));
	}
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	git_libgit2_shutdown();
	return scratch_leave();
}

/* mgit_read_many on jobs threads, as the commit reads (pack 0). */
static size_t
read_many(struct mgit_read *r, size_t n, size_t budget, int jobs)
{
	struct mgit_readers rd;
	size_t k;

	mgit_readers_init(&rd, jobs);
	k = mgit_read_many(r, n, budget, &rd);
	mgit_readers_free(&rd);
	return k;
}

/* r[0..n) set to read names[0..n), the rest marked as never touched. */
static void
prepare(struct mgit_read *r, size_t n)
{
	memset(r, 0, N_FILES * sizeof(*r));
	for (size_t i = 0; i < N_FILES; i++) {
		r[i].disk = i < n ? names[i] : NULL;
		r[i].len = 77;          /* untouched unless read */
	}
}

/* r was read: its bytes are file i's and its id git's blob id of them. */
static void
assert_read(const struct mgit_read *r, int i)
{
	char text[FILE_BYTES];
	git_oid want;

	memset(text, 'a' + i, sizeof(text));
	assert_int_equal(r->rc, 0);
	assert_int_equal(r->len, FILE_BYTES);
	assert_memory_equal(r->data, text, FILE_BYTES);
	assert_int_equal(git_odb_hash(&want, text, sizeof(text),
	    GIT_OBJECT_BLOB), 0);
	assert_true(git_oid_equal(&r->id, &want));
}

static void
free_all(struct mgit_read *r)
{
	for (size_t i = 0; i < N_FILES; i++)
		if (r[i].len != 77)
			free(r[i].data);
}

/* One thread stops at the first file that reaches the budget: 2,500
 * bytes are three files of 1,000; the fourth is not touched. */
static void
test_budget_one_thread(void **state)
{
	struct mgit_read r[N_FILES];

	(void)state;
	prepare(r, N_FILES);
	assert_int_equal(read_many(r, N_FILES, 2500, 1), 3);
	for (int i = 0; i < 3; i++)
		assert_read(&r[i], i);
	assert_int_equal(r[3].len, 77);
	assert_null(r[3].data);
	free_all(r);
}

/* Threads claim files in turn: the batch is still a prefix, each file
 * in it read once, overshooting the budget by at most a file a thread. */
static void
test_budget_threads(void **state)
{
	struct mgit_read r[N_FILES];
	size_t k;

	(void)state;
	prepare(r, N_FILES);
	k = read_many(r, N_FILES, 2500, 4);
	assert_in_range(k, 3, 6);
	for (size_t i = 0; i < k; i++)
		assert_read(&r[i], (int)i);
	for (size_t i = k; i < N_FILES; i++)
		assert_int_equal(r[i].len, 77);
	free_all(r);
}

/* A budget larger than the files reads them all; one is always read,
 * however small the budget; none of none. */
static void
test_all_and_least(void **state)
{
	struct mgit_read r[N_FILES];

	(void)state;
	prepare(r, N_FILES);
	assert_int_equal(read_many(r, N_FILES, 1u << 20, 2), N_FILES);
	for (int i = 0; i < N_FILES; i++)
		assert_read(&r[i], i);
	free_all(r);
	prepare(r, N_FILES);
	assert_int_equal(read_many(r, N_FILES, 0, 1), 1);
	assert_read(&r[0], 0);
	assert_int_equal(r[1].len, 77);
	free_all(r);
	prepare(r, N_FILES);
	assert_int_equal(read_many(r, 0, 100, 2), 0);
	assert_int_equal(r[0].len, 77);
}

/* A file without a disk is read as nothing (no error), a missing file
 * fails naming itself, and neither stops the others. */
static void
test_nothing_and_missing(void **state)
{
	struct mgit_read r[N_FILES];

	(void)state;
	prepare(r, 4);
	r[1].disk = NULL;
	r[2].disk = "no-such-file";
	assert_int_equal(read_many(r, 4, 1u << 20, 2), 4);
	assert_read(&r[0], 0);
	assert_int_equal(r[1].rc, 0);
	assert_int_equal(r[1].len, 0);
	assert_null(r[1].data);
	assert_true(r[2].rc < 0);
	assert_null(r[2].data);
	assert_non_null(strstr(r[2].err.msg, "no-such-file"));
	assert_read(&r[3], 3);
	r[1].len = r[2].len = 77;
	free_all(r);
}

/* The bytes of file i inflated from r's stream: what a pack holds. */
static void
assert_packed(const struct mgit_read *r, int i)
{
	char text[FILE_BYTES], got[FILE_BYTES + 1];
	uLongf n = sizeof(got);
	git_oid want;

	memset(text, 'a' + i, sizeof(text));
	assert_int_equal(r->rc, 0);
	assert_null(r->data);
	assert_non_null(r->z);
	assert_int_equal(r->len, FILE_BYTES);
	assert_true(r->zlen > 0 && r->zlen < FILE_BYTES);
	/* zlib's own inflate: what git reads packs with. */
	assert_int_equal(uncompress((Bytef *)got, &n, r->z, r->zlen), Z_OK);
	assert_int_equal(n, FILE_BYTES);
	assert_memory_equal(got, text, FILE_BYTES);
	assert_int_equal(git_odb_hash(&want, text, sizeof(text),
	    GIT_OBJECT_BLOB), 0);
	assert_true(git_oid_equal(&r->id, &want));
}

/* Packed, each file comes as its compressed stream, hashed from its
 * bytes; the threads' buffers, kept from one batch to the next, give
 * a short file after a long one its own length and bytes; a missing
 * file still fails alone; data mode after packed gives bytes again; a
 * file past MGIT_READ_KEEP leaves no buffer kept that long. */
static void
test_packed(void **state)
{
	struct mgit_read r[N_FILES];
	struct mgit_readers rd;
	char *big = malloc(3 * FILE_BYTES);

	(void)state;
	memset(big, 'z', 3 * FILE_BYTES);
	scratch_write("big", big, 3 * FILE_BYTES);
	free(big);
	mgit_readers_init(&rd, 2);
	rd.pack = 1;
	prepare(r, 1);
	r[0].disk = "big";
	assert_int_equal(mgit_read_many(r, 1, 1u << 20, &rd), 1);
	assert_int_equal(r[0].len, 3 * FILE_BYTES);
	assert_true(rd.t[0].cap > 3 * FILE_BYTES);      /* kept */
	free(r[0].z);
	prepare(r, N_FILES);
	r[4].disk = "no-such-file";
	assert_int_equal(mgit_read_many(r, N_FILES, 1u << 20, &rd), N_FILES);
	for (int i = 0; i < N_FILES; i++)
		if (i != 4)
			assert_packed(&r[i], i);
	assert_true(r[4].rc < 0);
	assert_null(r[4].z);
	assert_null(r[4].data);
	for (int i = 0; i < N_FILES; i++)
		free(r[i].z);
	rd.pack = 0;
	prepare(r, 2);
	assert_int_equal(mgit_read_many(r, 2, 1u << 20, &rd), 2);
	assert_read(&r[0], 0);
	assert_read(&r[1], 1);
	assert_null(r[0].z);
	free(r[0].data);
	free(r[1].data);
	/* A file longer than MGIT_READ_KEEP leaves no buffer that long. */
	big = calloc(1, MGIT_READ_KEEP + 1);
	scratch_write("long", big, MGIT_READ_KEEP + 1);
	free(big);
	rd.pack = 1;
	prepare(r, 1);
	r[0].disk = "long";
	assert_int_equal(mgit_read_many(r, 1, 1u << 30, &rd), 1);
	assert_int_equal(r[0].rc, 0);
	assert_int_equal(r[0].len, MGIT_READ_KEEP + 1);
	assert_null(rd.t[0].buf);
	assert_int_equal(rd.t[0].cap, 0);
	assert_true(rd.t[0].zcap <= MGIT_READ_KEEP);
	free(r[0].z);
	mgit_readers_free(&rd);
}

/* The bytes of one kind of input for test_pack_streams: text that
 * compresses (0), bytes that do not (1: a fixed pseudo-random run), or
 * such a run of 1,000 bytes repeated (2: matches 1,000 bytes back). */
static void
fill(unsigned char *p, size_t n, int random)
{
	static const char text[] = "| key | value |\n|---|---|\n"
	    "| owner | <a href=\"x\">Ada</a> &amp; co |\n";
	uint32_t x = 2463534242u;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = random == 1 ? (unsigned char)x : random == 2 ?
		    (i < 1000 ? (unsigned char)x : p[i - 1000]) :
		    (unsigned char)text[i % (sizeof(text) - 1)];
	}
}

/* Every pack entry's stream is one zlib stream that zlib inflates to
 * the object's bytes, whatever its length (none, one byte, either side
 * of MGIT_PACK_SMALL, past the 64 KiB of a stored block when nothing
 * compresses, a megabyte) and its bytes (any byte value; matches far
 * back); one deflater serves them all in turn. mgit_pack_inflate gives the bytes
 * back and refuses a stream with a wrong checksum, one cut short, and
 * a length other than the object's. mgit_crc32 is zlib's crc32, in
 * one piece or two. */
static void
test_pack_streams(void **state)
{
	static const struct { size_t len; int random; } in[] = {
		{ 0, 0 }, { 1, 0 }, { 3000, 0 }, { 3000, 1 },
		{ 70000, 1 }, { 200000, 1 }, { 1 << 20, 0 }, { 4096, 0 },
		{ MGIT_PACK_SMALL - 1, 0 }, { MGIT_PACK_SMALL - 1, 2 },
		{ MGIT_PACK_SMALL, 2 },
	};
	struct mgit_deflater *z = mgit_deflater_new();
	unsigned char *buf = NULL, *data, *got;
	size_t cap = 0, zlen;

	(void)state;
	for (size_t k = 0; k < sizeof(in) / sizeof(in[0]); k++) {
		size_t n = in[k].len;
		uLongf out = n + 1;

		data = malloc(n + 1);
		got = malloc(n + 1);
		fill(data, n, in[k].random);
		assert_int_equal(mgit_pack_compress(&buf, &cap, &zlen, z, data,
		    n), 0);
		assert_true(zlen > 0 && zlen <= cap);
		if (in[k].random != 1 && n >= 3000)   /* matches were found */
			assert_true(zlen < n / (in[k].random == 0 ? 4 : 2));
		assert_int_equal(uncompress(got, &out, buf, zlen), Z_OK);
		assert_int_equal(out, n);
		assert_memory_equal(got, data, n);
		memset(got, 0, n + 1);
		assert_int_equal(mgit_pack_inflate(got, n, buf, zlen), 0);
		assert_memory_equal(got, data, n);
		assert_int_equal(mgit_pack_inflate(got, n + 1, buf, zlen), -1);
		if (n > 0)
			assert_int_equal(mgit_pack_inflate(got, n - 1, buf,
			    zlen), -1);
		assert_int_equal(mgit_pack_inflate(got, n, buf, zlen - 1), -1);
		buf[zlen - 1] ^= 0x01;         /* the Adler-32's last byte */
		assert_int_equal(mgit_pack_inflate(got, n, buf, zlen), -1);
		assert_int_equal(mgit_crc32(0, data, n),
		    crc32(0, data, (uInt)n));
		assert_int_equal(mgit_crc32(mgit_crc32(0, data, n / 3),
		    data + n / 3, n - n / 3), crc32(0, data, (uInt)n));
		free(data);
		free(got);
	}
	free(buf);
	mgit_deflater_free(z);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_budget_one_thread),
		cmocka_unit_test(test_budget_threads),
		cmocka_unit_test(test_all_and_least),
		cmocka_unit_test(test_nothing_and_missing),
		cmocka_unit_test(test_packed),
		cmocka_unit_test(test_pack_streams),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
