/*
 * test_sha1.c: the two SHA-1s mirror computes, against the git command
 * line, on thousands of blobs of varied sizes:
 *
 *   object ids: git_odb_hash (libgit2's SHA-1 with collision detection,
 *     gen/git/git_tree.c), and nettle fed "blob <len>\0" and the bytes
 *     in pieces, both against 'git hash-object';
 *   checksums: nettle over the bytes alone, in pieces, as the pack and
 *     index writer uses it (gen/git/git_pack.c), against sha1sum.
 *
 * The blobs: every length from 0 to 130 (each SHA-1 padding edge, 55,
 * 56, 63, 64, 65 and one block on, with and without the object header),
 * then random lengths under 32 KiB as pages have and a few up to 1 MiB;
 * random bytes, NULs among them, from a fixed seed.
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
#include <git2.h>
#include <nettle/sha1.h>

#include "scratch.h"

#include "util/xalloc.h"

#define EDGES 131          /* lengths 0 to 130 */
#define SMALL 2000         /* random lengths under 32 KiB */
#define LARGE 24           /* random lengths up to 1 MiB */
#define NBLOBS (EDGES + SMALL + LARGE)

static uint64_t rng = 0x9e3779b97f4a7c15u;

/* xorshift64*: the next pseudo-random number. */
static uint64_t
next_rand(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1du;
}

/* The length of blob i (see the file's comment). */
static size_t
blob_len(size_t i)
{
	if (i < EDGES)
		return i;
	if (i < EDGES + SMALL)   /* under 2^k bytes, k from 1 to 15 */
		return (size_t)(next_rand() % ((uint64_t)2 << next_rand() % 15));
	return (size_t)(next_rand() % (1024 * 1024 + 1));
}

/* SHA-1 of head (nh bytes) then data (n bytes), fed in random pieces;
 * hex digest in out. */
static void
nettle_hex(char out[41], const void *head, size_t nh,
    const unsigned char *data, size_t n)
{
	struct sha1_ctx c;
	uint8_t d[SHA1_DIGEST_SIZE];

	sha1_init(&c);
	sha1_update(&c, nh, head);
	for (size_t off = 0, k; off < n; off += k) {
		k = (size_t)(next_rand() % 200);
		if (k > n - off || next_rand() % 4 == 0)
			k = n - off;
		sha1_update(&c, k, data + off);
	}
	sha1_digest(&c, sizeof(d), d);
	for (int i = 0; i < SHA1_DIGEST_SIZE; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* The next line of fp (40 hex digits first) into hex; fails the test at
 * the end of the file. */
static void
read_hex(char hex[41], FILE *fp)
{
	char line[4200];

	assert_non_null(fgets(line, sizeof(line), fp));
	assert_true(strlen(line) >= 40);
	memcpy(hex, line, 40);
	hex[40] = '\0';
}

static int
setup(void **state)
{
	(void)state;
	git_libgit2_init();
	return scratch_enter("sha1");
}

static int
teardown(void **state)
{
	(void)state;
	git_libgit2_shutdown();
	return scratch_leave();
}

/* Each blob's object id and checksum as git and sha1sum have them. */
static void
test_blobs_match_git(void **state)
{
	size_t *len = xcalloc(NBLOBS, sizeof(*len));
	unsigned char *buf = xmalloc(1024 * 1024 + 8);
	char name[32], want[41], got[41], hdr[32];
	FILE *list, *ids, *sums;
	size_t nuls = 0;

	(void)state;
	assert_int_equal(system("mkdir b"), 0);
	list = fopen("list", "w");
	assert_non_null(list);
	for (size_t i = 0; i < NBLOBS; i++) {
		len[i] = blob_len(i);
		for (size_t j = 0; j < len[i]; j++)
			buf[j] = (unsigned char)(next_rand() >> 56);
		nuls += len[i] > 0 && memchr(buf, '\0', len[i]) != NULL;
		snprintf(name, sizeof(name), "b/%05zu", i);
		scratch_write(name, (const char *)buf, len[i]);
		fprintf(list, "%s\n", name);
	}
	assert_int_equal(fclose(list), 0);
	assert_true(nuls > NBLOBS / 3);     /* 1,020 of them */
	assert_int_equal(system("git hash-object --stdin-paths <list >ids && "
	    "xargs sha1sum <list >sums"), 0);
	ids = fopen("ids", "r");
	sums = fopen("sums", "r");
	assert_non_null(ids);
	assert_non_null(sums);
	for (size_t i = 0; i < NBLOBS; i++) {
		FILE *fp;
		git_oid oid;
		size_t nh;

		snprintf(name, sizeof(name), "b/%05zu", i);
		fp = fopen(name, "rb");
		assert_non_null(fp);
		assert_int_equal(fread(buf, 1, len[i] + 1, fp), len[i]);
		fclose(fp);

		read_hex(want, ids);
		assert_int_equal(git_odb_hash(&oid, buf, len[i],
		    GIT_OBJECT_BLOB), 0);
		git_oid_tostr(got, sizeof(got), &oid);
		if (strcmp(got, want) != 0)
			fprintf(stderr, "%s: %zu bytes\n", name, len[i]);
		assert_string_equal(got, want);
		nh = (size_t)snprintf(hdr, sizeof(hdr), "blob %zu", len[i]) + 1;
		nettle_hex(got, hdr, nh, buf, len[i]);
		assert_string_equal(got, want);

		read_hex(want, sums);
		nettle_hex(got, "", 0, buf, len[i]);
		if (strcmp(got, want) != 0)
			fprintf(stderr, "%s: %zu bytes\n", name, len[i]);
		assert_string_equal(got, want);
	}
	assert_null(fgets(name, sizeof(name), ids));
	fclose(ids);
	fclose(sums);
	free(len);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blobs_match_git),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
