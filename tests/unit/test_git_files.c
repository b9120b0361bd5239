/*
 * test_git_files.c: gen/git/git_files, mgit_ahead: the commit reads
 * files ahead of their turn on a pool of threads, bounded by bytes and
 * by slots, and takes them in order, each read and hashed (and, for a
 * pack, compressed) as git would; files skipped are never read; files
 * without a disk and unreadable files are told apart from read ones.
 * Also the pack's zlib streams (git_pack.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* disks[0..N_FILES): names[0..n), then NULL. */
static void
prepare(const char **disks, size_t n)
{
	for (size_t i = 0; i < N_FILES; i++)
		disks[i] = i < n ? names[i] : NULL;
}

/* r was read: its bytes are file i's and its id git's blob id of them;
 * the bytes become the caller's (r->data NULL after). */
static void
assert_read(struct mgit_read *r, int i)
{
	char text[FILE_BYTES];
	git_oid want;

	memset(text, 'a' + i, sizeof(text));
	assert_int_equal(r->rc, 0);
	assert_int_equal(r->len, FILE_BYTES);
	assert_null(r->z);
	assert_memory_equal(r->data, text, FILE_BYTES);
	assert_int_equal(git_odb_hash(&want, text, sizeof(text),
	    GIT_OBJECT_BLOB), 0);
	assert_true(git_oid_equal(&r->id, &want));
	free(r->data);
	r->data = NULL;
}

/* How many files a has claimed once at least want (polled up to 5 s),
 * and 50 ms later: a pool that claims past what it may is caught. */
static size_t
claimed_after(struct mgit_ahead *a, size_t want)
{
	struct timespec ts = { 0, 10 * 1000000L };

	for (int i = 0; i < 500 && mgit_ahead_claimed(a) < want; i++)
		nanosleep(&ts, NULL);
	ts.tv_nsec = 50 * 1000000L;
	nanosleep(&ts, NULL);
	return mgit_ahead_claimed(a);
}

/* Taken in turn on one thread or several, every file comes read and
 * hashed as git would, in order. */
static void
test_ahead_in_order(void **state)
{
	const char *disks[N_FILES];

	(void)state;
	prepare(disks, N_FILES);
	for (int jobs = 1; jobs <= 4; jobs++) {
		struct mgit_readers rd;
		struct mgit_ahead *a;

		mgit_readers_init(&rd, jobs);
		a = mgit_ahead_start(disks, N_FILES, 1u << 20, 0, &rd);
		for (int i = 0; i < N_FILES; i++)
			assert_read(mgit_ahead_take(a, (size_t)i, 0), i);
		assert_int_equal(mgit_ahead_claimed(a), N_FILES);
		mgit_ahead_stop(a);
		mgit_readers_free(&rd);
	}
}

/* The pool reads ahead only while less than the budget is held: 2,500
 * bytes are three files of 1,000 with file 0 not given up (a fourth
 * when the taker's read of file 0 was still under way), and each file
 * given up lets one more be read; a budget of 0 still reads the file
 * taken; compressed, a file holds its stream's bytes; alone, the taker
 * reads only what it takes. */
static void
test_ahead_budget(void **state)
{
	const char *disks[N_FILES];
	struct mgit_readers rd;
	struct mgit_ahead *a;
	struct mgit_read *r;
	size_t k;

	(void)state;
	prepare(disks, N_FILES);
	mgit_readers_init(&rd, 2);
	a = mgit_ahead_start(disks, N_FILES, 2500, 0, &rd);
	assert_read(mgit_ahead_take(a, 0, 0), 0);
	k = claimed_after(a, 3);
	assert_in_range(k, 3, 4);
	assert_read(mgit_ahead_take(a, 1, 0), 1);
	assert_in_range(claimed_after(a, 4), k > 3 ? k : 4, 5);
	mgit_ahead_stop(a);
	a = mgit_ahead_start(disks, N_FILES, 0, 0, &rd);
	assert_read(mgit_ahead_take(a, 0, 0), 0);
	assert_in_range(claimed_after(a, 1), 1, 2);
	mgit_ahead_stop(a);
	/* Compressed, a file holds its stream: ten files of 1,000 equal
	 * bytes, a few dozen bytes each, are all read ahead of file 0. */
	a = mgit_ahead_start(disks, N_FILES, 2500, N_FILES, &rd);
	r = mgit_ahead_take(a, 0, 0);
	assert_true(r->zlen < 100);
	assert_int_equal(claimed_after(a, N_FILES), N_FILES);
	mgit_ahead_stop(a);
	mgit_readers_free(&rd);
	mgit_readers_init(&rd, 1);
	a = mgit_ahead_start(disks, N_FILES, 2500, 0, &rd);
	assert_read(mgit_ahead_take(a, 0, 0), 0);
	assert_int_equal(claimed_after(a, 1), 1);
	assert_read(mgit_ahead_take(a, 1, 0), 1);
	assert_int_equal(claimed_after(a, 2), 2);
	mgit_ahead_stop(a);
	mgit_readers_free(&rd);
}

/* Files skipped are given up unread when not claimed yet, the file
 * after them comes right; stopping frees what nobody took (ASan's leak
 * check); stopping nothing is nothing. */
static void
test_ahead_skip_and_stop(void **state)
{
	const char *disks[N_FILES];
	struct mgit_readers rd;
	struct mgit_ahead *a;

	(void)state;
	prepare(disks, N_FILES);
	mgit_readers_init(&rd, 1);
	a = mgit_ahead_start(disks, N_FILES, 1u << 20, 0, &rd);
	assert_read(mgit_ahead_take(a, 0, 0), 0);
	assert_read(mgit_ahead_take(a, 5, 0), 5);
	assert_int_equal(mgit_ahead_claimed(a), 6);
	assert_read(mgit_ahead_take(a, 9, 0), 9);
	mgit_ahead_stop(a);
	mgit_readers_init(&rd, 3);
	a = mgit_ahead_start(disks, N_FILES, 1u << 20, 0, &rd);
	assert_read(mgit_ahead_take(a, 2, 0), 2);
	mgit_ahead_stop(a);
	mgit_ahead_stop(NULL);
	mgit_readers_free(&rd);
}

/* A file without a disk is read as nothing (no error), a missing file
 * fails naming itself, and neither stops the others. */
static void
test_ahead_nothing_and_missing(void **state)
{
	const char *disks[N_FILES];
	struct mgit_readers rd;
	struct mgit_ahead *a;
	struct mgit_read *r;

	(void)state;
	prepare(disks, 4);
	disks[1] = NULL;
	disks[2] = "no-such-file";
	mgit_readers_init(&rd, 2);
	a = mgit_ahead_start(disks, 4, 1u << 20, 0, &rd);
	assert_read(mgit_ahead_take(a, 0, 0), 0);
	r = mgit_ahead_take(a, 1, 0);
	assert_int_equal(r->rc, 0);
	assert_int_equal(r->len, 0);
	assert_null(r->data);
	r = mgit_ahead_take(a, 2, 0);
	assert_true(r->rc < 0);
	assert_null(r->data);
	assert_null(r->z);
	assert_non_null(strstr(r->err.msg, "no-such-file"));
	assert_read(mgit_ahead_take(a, 3, 0), 3);
	mgit_ahead_stop(a);
	mgit_readers_free(&rd);
}

/* More files than slots: the ring comes round twice, every file in
 * its place, the pool never more than MGIT_AHEAD_SLOTS files ahead of
 * the ones given up. */
static void
test_ahead_ring(void **state)
{
	enum { MANY = 2 * MGIT_AHEAD_SLOTS + 100 };
	const char **disks = calloc(MANY, sizeof(*disks));
	char (*many)[24] = calloc(MANY, sizeof(*many));
	struct mgit_readers rd;
	struct mgit_ahead *a;

	(void)state;
	for (size_t i = 0; i < MANY; i++) {
		snprintf(many[i], sizeof(many[i]), "ring%zu", i);
		scratch_write(many[i], many[i], strlen(many[i]));
		disks[i] = many[i];
	}
	mgit_readers_init(&rd, 2);
	a = mgit_ahead_start(disks, MANY, 1u << 30, 0, &rd);
	for (size_t i = 0; i < MANY; i++) {
		struct mgit_read *r = mgit_ahead_take(a, i, 0);

		assert_int_equal(r->rc, 0);
		assert_int_equal(r->len, strlen(many[i]));
		assert_memory_equal(r->data, many[i], r->len);
		free(r->data);
		r->data = NULL;
		if (i == 0)
			assert_int_equal(claimed_after(a, MGIT_AHEAD_SLOTS),
			    MGIT_AHEAD_SLOTS);
		assert_true(mgit_ahead_claimed(a) <= i + MGIT_AHEAD_SLOTS);
	}
	mgit_ahead_stop(a);
	mgit_readers_free(&rd);
	free(disks);
	free(many);
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

/* Compressed, each file comes as its stream, hashed from its bytes:
 * below pack_below, or each file claimed once the taker sets pack_all;
 * the threads' buffers, kept from one file to the next, give a short
 * file after a long one its own length and bytes; a missing file still
 * fails alone; a file past MGIT_READ_KEEP leaves no buffer kept that
 * long. */
static void
test_packed(void **state)
{
	const char *disks[N_FILES];
	struct mgit_readers rd;
	struct mgit_ahead *a;
	struct mgit_read *r;
	char *big = malloc(3 * FILE_BYTES);

	(void)state;
	memset(big, 'z', 3 * FILE_BYTES);
	scratch_write("big", big, 3 * FILE_BYTES);
	free(big);
	mgit_readers_init(&rd, 2);
	prepare(disks, N_FILES);
	disks[0] = "big";
	a = mgit_ahead_start(disks, 1, 1u << 20, 1, &rd);
	r = mgit_ahead_take(a, 0, 1);
	assert_int_equal(r->len, 3 * FILE_BYTES);
	assert_non_null(r->z);
	assert_true(rd.t[0].cap > 3 * FILE_BYTES);      /* kept */
	mgit_ahead_stop(a);
	prepare(disks, N_FILES);
	disks[4] = "no-such-file";
	/* Below 6 compressed, from 6 on as bytes. */
	a = mgit_ahead_start(disks, N_FILES, 1u << 20, 6, &rd);
	for (int i = 0; i < N_FILES; i++) {
		r = mgit_ahead_take(a, (size_t)i, 0);
		if (i == 4) {
			assert_true(r->rc < 0);
			assert_null(r->z);
			assert_null(r->data);
		} else if (i < 6) {
			assert_packed(r, i);
			free(r->z);
			r->z = NULL;
		} else {
			assert_read(r, i);
		}
	}
	mgit_ahead_stop(a);
	mgit_readers_free(&rd);
	/* Alone, the taker claims each file as it takes it: pack_all from
	 * file 2 on. */
	mgit_readers_init(&rd, 1);
	prepare(disks, N_FILES);
	a = mgit_ahead_start(disks, N_FILES, 1u << 20, 0, &rd);
	for (int i = 0; i < 4; i++) {
		r = mgit_ahead_take(a, (size_t)i, i >= 2);
		if (i < 2) {
			assert_read(r, i);
		} else {
			assert_packed(r, i);
			free(r->z);
			r->z = NULL;
		}
	}
	mgit_ahead_stop(a);
	/* A file longer than MGIT_READ_KEEP leaves no buffer that long. */
	big = calloc(1, MGIT_READ_KEEP + 1);
	scratch_write("long", big, MGIT_READ_KEEP + 1);
	free(big);
	disks[0] = "long";
	a = mgit_ahead_start(disks, 1, 1u << 30, 1, &rd);
	r = mgit_ahead_take(a, 0, 1);
	assert_int_equal(r->rc, 0);
	assert_int_equal(r->len, MGIT_READ_KEEP + 1);
	assert_null(rd.t[0].buf);
	assert_int_equal(rd.t[0].cap, 0);
	assert_true(rd.t[0].zcap <= MGIT_READ_KEEP);
	mgit_ahead_stop(a);
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
		cmocka_unit_test(test_ahead_in_order),
		cmocka_unit_test(test_ahead_budget),
		cmocka_unit_test(test_ahead_skip_and_stop),
		cmocka_unit_test(test_ahead_nothing_and_missing),
		cmocka_unit_test(test_ahead_ring),
		cmocka_unit_test(test_packed),
		cmocka_unit_test(test_pack_streams),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
