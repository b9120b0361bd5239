/*
 * test_search_index.c: the search index's files (gen/search/
 * search_index.h): a document is found from its number as search.js
 * finds it, a document added or changed rewrites its chunk and the
 * shards of its words alone, and a common word's total counts
 * documents. The promises of doc/site.md, "Search".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "search/search_index.h"
#include "util/xalloc.h"

/* The files an index wrote, by path. */
struct file {
	char *path, *data;
};

struct files {
	struct file *f;
	size_t n;
};

static int
put(void *arg, const char *path, const char *data, size_t len,
    mirror_error *err)
{
	struct files *fs = arg;

	(void)err;
	fs->f = xreallocarray(fs->f, fs->n + 1, sizeof(*fs->f));
	fs->f[fs->n].path = xstrdup(path);
	fs->f[fs->n].data = xstrndup(data, len);
	fs->n++;
	return 0;
}

static void
files_free(struct files *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		free(fs->f[i].path);
		free(fs->f[i].data);
	}
	free(fs->f);
	memset(fs, 0, sizeof(*fs));
}

static const char *
file_of(const struct files *fs, const char *path)
{
	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->f[i].path, path) == 0)
			return fs->f[i].data;
	return NULL;
}

/* n state facts "f<i>" of project p<i % 7>, titled "key <i>", valued
 * "<word> <word> v<i>"; with extra, one more before them, "f-extra"
 * (added first, so documents numbered one after another would all
 * move). */
static void
build(struct files *fs, size_t n, const char *word, int extra)
{
	struct search_index *x = search_index_new(put, fs);
	mirror_error err;
	char id[32], title[32], value[64], proj[16], slug[16];

	memset(fs, 0, sizeof(*fs));
	for (size_t k = extra ? 0 : 1; k <= n; k++) {
		size_t i = k - 1;

		if (k == 0)
			(void)snprintf(id, sizeof(id), "f-extra");
		else
			(void)snprintf(id, sizeof(id), "f%zu", i);
		(void)snprintf(title, sizeof(title), "key %zu", i);
		(void)snprintf(value, sizeof(value), "%s %s v%zu", word, word,
		    i);
		(void)snprintf(proj, sizeof(proj), "P%zu", i % 7);
		(void)snprintf(slug, sizeof(slug), "p%zu", i % 7);
		assert_int_equal(search_index_add(x, &(struct search_doc){
		    .title = title, .value = value, .project = proj,
		    .pslug = slug, .layer = "state", .status = "active",
		    .id = id }, &err), 0);
	}
	assert_int_equal(search_index_finish(x, &err), 0);
	search_index_free(x);
}

#define B36 "0123456789abcdefghijklmnopqrstuvwxyz"

/* The postings text of term t as the shards list them (decoding each
 * shard's entries "<p><rest> <postings>" as search.js does) into post
 * (size bytes); 0, or -1 when no shard holds t. */
static int
find_term(const struct files *fs, const char *t, char *post, size_t size)
{
	for (size_t i = 0; i < fs->n; i++) {
		const char *d = fs->f[i].data;
		char prev[128] = "";

		if (strncmp(fs->f[i].path, "search/t-", 9) != 0)
			continue;
		d = strstr(d, ",\"") + 2;
		while (*d != '"') {
			size_t keep = (size_t)(strchr(B36, d[0]) - B36);
			size_t rest = strcspn(d + 1, " ");
			size_t plen;

			assert_true(keep + rest < sizeof(prev));
			memcpy(prev + keep, d + 1, rest);
			prev[keep + rest] = '\0';
			d += 1 + rest + 1;
			plen = strcspn(d, " \"");
			if (strcmp(prev, t) == 0) {
				assert_true(plen < size);
				memcpy(post, d, plen);
				post[plen] = '\0';
				return 0;
			}
			d += plen + (d[plen] == ' ');
		}
	}
	return -1;
}

/* The postings of term t: its numbers into out (at most max), their
 * count returned; *total the sum of "<c>.<k>.<f>;" or the count. -1
 * when no shard
 * holds t. */
static long
postings(const struct files *fs, const char *t, unsigned long long *out,
    size_t max, long *total)
{
	static char post[65536];
	unsigned long long v = 0;
	const char *p = post;
	long n = 0;

	if (find_term(fs, t, post, sizeof(post)) < 0)
		return -1;
	*total = -1;
	if (strchr(p, ';') != NULL) {
		/* "<conflicts>.<checks>.<facts>;" */
		*total = 0;
		while (*p != ';') {
			char *end;

			*total += strtol(p, &end, 36);
			p = *end == '.' ? end + 1 : end;
		}
		p++;
	}
	while (*p != '\0') {
		char *end;

		v += strtoull(p, &end, 36);
		if ((size_t)n < max)
			out[n] = v;
		n++;
		p = *end == ',' ? end + 1 : end;
	}
	if (*total < 0)
		*total = n;
	return n;
}

/* Fact number num (the facts' numbers start at 0: their slots) is in
 * the chunk search.js loads for it, at its slot's place (each record's
 * first element its gap from the one before), holding id. */
static void
assert_found(const struct files *fs, unsigned long long num, const char *id)
{
	unsigned long long lo = 0, want = num % (1u << SEARCH_SLOT_BITS);
	char path[64], rec[96];
	const char *d;

	(void)snprintf(path, sizeof(path), "search/d-%llu.js",
	    (num >> SEARCH_SLOT_BITS) * 4 + 2);
	d = file_of(fs, path);
	assert_non_null(d);
	while ((d = strstr(d, "\n[")) != NULL) {
		lo += strtoull(d + 2, NULL, 10);
		if (lo >= want)
			break;
		d += 2;
	}
	assert_non_null(d);
	assert_int_equal(lo, want);
	/* The id, then the URL (none of these documents has the one
	 * search.js rebuilds) or the record's end. */
	(void)snprintf(rec, sizeof(rec), ",\"%s\"", id);
	assert_non_null(strstr(d, rec));
	assert_true(strchr(d + 1, '\n') == NULL ||
	    strstr(d, rec) < strchr(d + 1, '\n'));
	assert_true(strchr(",]", strstr(d, rec)[strlen(rec)]) != NULL);
}

/* Every document's own id term leads to its record. */
static void
test_numbers_find_records(void **state)
{
	struct files fs;
	unsigned long long num[4];
	long total;
	char id[16];

	(void)state;
	build(&fs, 3000, "plain", 0);
	for (size_t i = 0; i < 3000; i += 97) {
		(void)snprintf(id, sizeof(id), "v%zu", i);
		assert_int_equal(postings(&fs, id, num, 4, &total), 1);
		(void)snprintf(id, sizeof(id), "f%zu", i);
		assert_found(&fs, num[0], id);
	}
	files_free(&fs);
}

/* A document added rewrites its chunk, the shards of its new words
 * and the manifest, not the other chunks and shards. */
static void
test_one_more_rewrites_few(void **state)
{
	struct files a, b;
	size_t changed = 0, chunks = 0;

	(void)state;
	build(&a, 5000, "plain", 0);
	build(&b, 5000, "plain", 1);
	for (size_t i = 0; i < b.n; i++) {
		const char *old = file_of(&a, b.f[i].path);

		if (old != NULL && strcmp(old, b.f[i].data) == 0)
			continue;
		changed++;
		chunks += strncmp(b.f[i].path, "search/d-", 9) == 0;
	}
	assert_int_equal(chunks, 1);
	/* The manifest, the chunk, the shards of "f-extra", "extra", "f",
	 * "key", the value's words and "plain": at most 9 of the
	 * index's files. */
	assert_true(changed <= 9);
	assert_true(b.n > 25);
	files_free(&a);
	files_free(&b);
}

/* Checks of 300 projects, named but with no slug as a check's document
 * has: each project keeps a place of its own, so no chunk holds more
 * than twice the 256 records a chunk holds at most on average (with
 * one place for all, 2,942 of the bench's 3,000 checks at 100k facts
 * were in one chunk). */
static void
test_projects_spread(void **state)
{
	struct search_index *x;
	struct files fs;
	mirror_error err;
	char id[32], proj[32];
	size_t most = 0, records = 0;

	(void)state;
	memset(&fs, 0, sizeof(fs));
	x = search_index_new(put, &fs);
	for (size_t i = 0; i < 3000; i++) {
		(void)snprintf(id, sizeof(id), "chk-%zu", i);
		(void)snprintf(proj, sizeof(proj), "Project %zu", i % 300);
		assert_int_equal(search_index_add(x, &(struct search_doc){
		    .title = "rule", .value = "a message", .project = proj,
		    .layer = "check", .status = "open", .id = id }, &err), 0);
	}
	assert_int_equal(search_index_finish(x, &err), 0);
	search_index_free(x);
	for (size_t i = 0; i < fs.n; i++) {
		const char *d = fs.f[i].data;
		size_t n = 0;

		if (strncmp(fs.f[i].path, "search/d-", 9) != 0)
			continue;
		while ((d = strstr(d, "\n[")) != NULL) {
			n++;
			d += 2;
		}
		records += n;
		most = n > most ? n : most;
	}
	assert_int_equal(records, 3000);
	assert_true(most <= 512);
	files_free(&fs);
}

/* A word in more documents of a kind than a term keeps whole says how
 * many documents hold it (not how often it was met: each value says it
 * twice) and keeps a sample of them: between a quarter and all of
 * SEARCH_POSTINGS / 3, the same whichever document came first. */
static void
test_total_counts_documents(void **state)
{
	struct files fs, more;
	unsigned long long num[SEARCH_POSTINGS], num2[SEARCH_POSTINGS];
	long total, kept, kept2;

	(void)state;
	build(&fs, SEARCH_POSTINGS, "common", 0);
	kept = postings(&fs, "common", num, SEARCH_POSTINGS, &total);
	assert_int_equal(total, SEARCH_POSTINGS);
	assert_true(kept >= SEARCH_POSTINGS / 12);
	assert_true(kept <= SEARCH_POSTINGS / 3);
	/* One more document, added first: the sample keeps the same
	 * documents (those numbers, or that one as well). */
	build(&more, SEARCH_POSTINGS, "common", 1);
	kept2 = postings(&more, "common", num2, SEARCH_POSTINGS, &total);
	assert_int_equal(total, SEARCH_POSTINGS + 1);
	assert_true(kept2 == kept || kept2 == kept + 1);
	for (long i = 0, j = 0; i < kept; i++, j++) {
		while (j < kept2 && num2[j] != num[i])
			j++;
		assert_true(j < kept2);
	}
	files_free(&fs);
	files_free(&more);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_find_records),
		cmocka_unit_test(test_one_more_rewrites_few),
		cmocka_unit_test(test_projects_spread),
		cmocka_unit_test(test_total_counts_documents),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
