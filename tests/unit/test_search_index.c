/*
 * test_search_index.c: the search index's files (gen/search/
 * search_index.h): a document is found from its number as search.js
 * finds it, a document added or changed rewrites its chunk and the
 * shards of its words alone, a common word's total counts documents and
 * its sample is of the documents alone and its shard its own, shards
 * are named by their first terms, and an update from one project's
 * documents writes a whole build's bytes. The promises of
 * doc/site.md, "Search".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "search/search_index.h"
#include "search/search_index_int.h"
#include "search/search_spill.h"
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
		    .pslug = slug, .what = SEARCH_FACT, .layer = LAYER_STATE,
		    .status = "active",
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
		    .what = SEARCH_CHECK, .status = "open", .id = id }, &err), 0);
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

/* ---- updates ------------------------------------------------------------ */

/* A store as the update tests make it: np projects "Project <p>" of
 * facts "p<p>-f<i>" (nf[p] of them; -1: no such project), valued
 * "<word> <ver[p]> v<i>" with every third one "common", and with open
 * conflicts ("p<p>-c<i>", nc[p]). */
struct tstore {
	size_t np;
	int nf[16], nc[16], ver[16];
	int renamed[16];        /* 1: the project's name is another */
	const char *word;
};

/* The documents of project p of st into x. */
static void
add_project(struct search_index *x, const struct tstore *st, size_t p)
{
	char id[64], title[32], value[96], proj[32], slug[32];
	mirror_error err;

	(void)snprintf(proj, sizeof(proj), "%s %zu", st->renamed[p] ?
	    "Bench" : "Project", p);
	(void)snprintf(slug, sizeof(slug), "p%zu", p);
	/* its own page first, as gen/site/site_search.c adds it: in every
	 * sample of a common word ("common") */
	assert_int_equal(search_index_add(x, &(struct search_doc){
	    .title = proj, .value = "common bench project", .project = proj,
	    .pslug = slug, .what = SEARCH_PROJECT, .status = "project",
	    .id = slug, .text = "alias" }, &err), 0);
	for (int i = 0; i < st->nc[p]; i++) {
		(void)snprintf(id, sizeof(id), "p%zu-c%d", p, i);
		(void)snprintf(value, sizeof(value), "%d mm \xc2\xb7 %d mm",
		    i + st->ver[p], i);
		assert_int_equal(search_index_add(x, &(struct search_doc){
		    .title = "disputed width", .value = value, .project = proj,
		    .what = SEARCH_CONFLICT, .status = "open", .id = id,
		    .text = value, .flags = 1 }, &err), 0);
	}
	for (int i = 0; i < st->nf[p]; i++) {
		(void)snprintf(id, sizeof(id), "p%zu-f%d", p, i);
		(void)snprintf(title, sizeof(title), "key %d", i);
		(void)snprintf(value, sizeof(value), "%s%s %d v%d", i % 3 ? ""
		    : "common ", st->word, st->ver[p], i);
		assert_int_equal(search_index_add(x, &(struct search_doc){
		    .title = title, .value = value, .project = proj,
		    .pslug = slug, .what = SEARCH_FACT, .layer = LAYER_STATE,
		    .status = "active",
		    .id = id, .text = "source review" }, &err), 0);
	}
}

/* A whole build of st into fs. */
static void
build_store(struct files *fs, const struct tstore *st)
{
	struct search_index *x;
	mirror_error err;

	memset(fs, 0, sizeof(*fs));
	x = search_index_new(put, fs);
	search_index_set_key(x, "k1");
	for (size_t p = 0; p < st->np; p++)
		if (st->nf[p] >= 0)
			add_project(x, st, p);
	assert_int_equal(search_index_finish(x, &err), 0);
	search_index_free(x);
}

/* The last build's files an update reads (a), and what it does: puts
 * into out, the paths it keeps or drops. */
struct upd {
	const struct files *a;
	struct files out;
	int kept;
	char **drop;
	size_t ndrop;
};

static int
upd_get(void *arg, const char *path, char **data, size_t *len,
    mirror_error *err)
{
	const struct upd *u = arg;
	const char *d = file_of(u->a, path);

	(void)err;
	*data = d != NULL ? xstrdup(d) : NULL;
	*len = d != NULL ? strlen(d) : 0;
	return d != NULL;
}

static int
upd_keep(void *arg, const char *const *drop, size_t n, mirror_error *err)
{
	struct upd *u = arg;

	(void)err;
	u->kept++;
	u->drop = xreallocarray(NULL, n + 1, sizeof(*u->drop));
	for (size_t i = 0; i < n; i++)
		u->drop[i] = xstrdup(drop[i]);
	u->ndrop = n;
	return 0;
}

/* Update a (the files of from) to the store to, project p changed:
 * returns search_index_update's answer; when 0, the files after it
 * must be the whole build's of to, byte for byte. */
static int
update_matches(const struct tstore *from, const struct tstore *to,
    size_t p)
{
	struct files a, b;
	struct upd u = { .a = &a };
	struct search_index *x, *old;
	const struct search_prev prev = { upd_get, upd_keep, &u };
	mirror_error err;
	size_t n = 0;
	int rc;

	build_store(&a, from);
	build_store(&b, to);
	x = search_index_new_whole(put, &u.out);
	old = search_index_new_whole(put, &u.out);
	search_index_set_key(x, "k1");
	if (to->nf[p] >= 0)
		add_project(x, to, p);
	if (from->nf[p] >= 0)
		add_project(old, from, p);
	rc = search_index_update(x, old, &prev, &err);
	assert_true(rc == 0 || rc == SEARCH_REBUILD);
	if (rc == 0) {
		assert_int_equal(u.kept, 1);
		/* Every file of the whole build: written, or the last
		 * build's, kept and not dropped. */
		for (size_t i = 0; i < b.n; i++) {
			const char *got = file_of(&u.out, b.f[i].path);
			int dropped = 0;

			for (size_t j = 0; j < u.ndrop; j++)
				dropped |= strcmp(u.drop[j], b.f[i].path) == 0;
			if (got == NULL && !dropped)
				got = file_of(&a, b.f[i].path);
			if (got == NULL || strcmp(got, b.f[i].data) != 0)
				fail_msg("%s differs from the whole build's",
				    b.f[i].path);
		}
		/* and nothing more */
		for (size_t i = 0; i < a.n; i++) {
			int dropped = 0;

			for (size_t j = 0; j < u.ndrop; j++)
				dropped |= strcmp(u.drop[j], a.f[i].path) == 0;
			n += !dropped || file_of(&u.out, a.f[i].path) != NULL;
		}
		for (size_t i = 0; i < u.out.n; i++)
			n += file_of(&a, u.out.f[i].path) == NULL;
		assert_int_equal(n, b.n);
	}
	for (size_t j = 0; j < u.ndrop; j++)
		free(u.drop[j]);
	free(u.drop);
	search_index_free(x);
	search_index_free(old);
	files_free(&a);
	files_free(&b);
	files_free(&u.out);
	return rc;
}

/* The store of the update tests: 12 projects of 40 to 150 facts. */
static struct tstore
tstore_make(void)
{
	struct tstore st = { .np = 12, .word = "plain" };

	for (size_t p = 0; p < st.np; p++) {
		st.nf[p] = 40 + (int)(p * 10);
		st.nc[p] = (int)(p % 3);
	}
	return st;
}

/* A value changed, a fact added, one taken away, a conflict opened and
 * one closed: each update writes the whole build's bytes. */
static void
test_update_one_project(void **state)
{
	struct tstore a = tstore_make(), b;

	(void)state;
	b = a;
	b.ver[5] = 7;                   /* every value of p5 */
	assert_int_equal(update_matches(&a, &b, 5), 0);
	b = a;
	b.nf[3]++;
	assert_int_equal(update_matches(&a, &b, 3), 0);
	b = a;
	b.nf[0]--;
	assert_int_equal(update_matches(&a, &b, 0), 0);
	b = a;
	b.nc[4]++;
	assert_int_equal(update_matches(&a, &b, 4), 0);
	assert_int_equal(update_matches(&b, &a, 4), 0);
}

/* Every project of the store changed in turn, four ways: each update
 * writes the whole build's bytes, and all but a few of them are made
 * (the rest said SEARCH_REBUILD: a record of another project met). */
static void
test_update_every_project(void **state)
{
	struct tstore a = tstore_make(), b;
	int made = 0, tried = 0;

	(void)state;
	for (size_t p = 0; p < a.np; p++) {
		for (int how = 0; how < 4; how++) {
			b = a;
			if (how == 0)
				b.ver[p] = 3;
			else if (how == 1)
				b.nf[p] += 2;
			else if (how == 2)
				b.nf[p] -= 3;
			else
				b.nc[p] += 1;
			made += update_matches(&a, &b, p) == 0;
			tried++;
		}
	}
	print_message("%d of %d updates made\n", made, tried);
	assert_true(made * 10 >= tried * 9);
}

/* A project added and one gone. */
static void
test_update_project_comes_goes(void **state)
{
	struct tstore a = tstore_make(), b;

	(void)state;
	b = a;
	b.np = 13;
	b.nf[12] = 30;
	a.nf[12] = -1;
	a.np = 13;
	assert_int_equal(update_matches(&a, &b, 12), 0);
	assert_int_equal(update_matches(&b, &a, 12), 0);
}

/* A project renamed (issue 69: its own page is a document), each in
 * turn and back: its documents all name it anew and move to the new
 * name's place on the ring, so an update writes the whole build's
 * bytes or declines (SEARCH_REBUILD: the caller builds whole);
 * update_matches checks the bytes of each one made. */
static void
test_update_project_renamed(void **state)
{
	struct tstore a = tstore_make(), b;

	(void)state;
	for (size_t p = 0; p < a.np; p++) {
		b = a;
		b.renamed[p] = 1;
		(void)update_matches(&a, &b, p);
		(void)update_matches(&b, &a, p);
	}
}

/* A title's term packed over the term before it (search_titled_pack):
 * unpacked, the same postings; a sampled one keeps its counts; one
 * holding a document the term does not keep is not packed. */
static void
test_titled_pack(void **state)
{
	const char *base = "3,1,4,1,5,9,2,6", *post = "4,5,9,2";
	const char *sbase = "a.0.1s;2,1,1,1,1,1", *spost = "0.0.4;3,1,1";
	strbuf rel, back;

	(void)state;
	strbuf_init(&rel);
	strbuf_init(&back);
	/* base 3 4 8 9 14 23 25 31; post 4 9 18 20: 18 is not base's */
	assert_int_equal(search_titled_pack(&rel, post, base), -1);
	assert_int_equal(rel.len, 0);
	/* 4 9 23: bits 1 and 3 of the first five (a), 0 of the next */
	assert_int_equal(search_titled_pack(&rel, "4,5,e", base), 0);
	assert_string_equal(rel.data, "~a1");
	assert_int_equal(search_titled_expand(&back, rel.data, base), 0);
	assert_string_equal(back.data, "4,5,e");
	strbuf_reset(&rel);
	strbuf_reset(&back);
	assert_int_equal(search_titled_pack(&rel, spost, sbase), 0);
	assert_string_equal(rel.data, "~0.0.4;e");
	assert_int_equal(search_titled_expand(&back, rel.data, sbase), 0);
	assert_string_equal(back.data, spost);
	strbuf_free(&rel);
	strbuf_free(&back);
}

/* A word so common its facts are sampled: a value of one project
 * changed keeps the sample's size, and the update still writes the
 * whole build's bytes. */
static void
test_update_common_word(void **state)
{
	struct tstore a = tstore_make(), b;

	(void)state;
	for (size_t p = 0; p < a.np; p++)
		a.nf[p] = 220;          /* "common": 880 facts of 2,640 */
	b = a;
	b.ver[2] = 9;
	assert_int_equal(update_matches(&a, &b, 2), 0);
	b.nf[2]--;
	assert_int_equal(update_matches(&a, &b, 2), 0);
}

/* A common word's shard holds it alone, and every shard is named by
 * its first term's key (search_shard_key), so the manifest lists no
 * keys ("keys":[]: search.js works them out) unless a first term is
 * not UTF-8, which a browser would read otherwise (then they are
 * listed). 1,200 facts: "common" in every value keeps a sample. */
static void
test_shard_names(void **state)
{
	const char *words[2] = { "common", "\xc3" };

	(void)state;
	for (int w = 0; w < 2; w++) {
		struct files fs;
		const char *man, *p;
		char key[13], path[64], first[64];
		size_t n = 0;
		int alone = 0;

		build(&fs, 1200, words[w], 0);
		man = file_of(&fs, "search/index.js");
		assert_non_null(man);
		assert_true((strstr(man, "\"keys\":[]") != NULL) == (w == 0));
		p = strstr(man, "\"first\":[\n") + 10;
		for (; *p == '"' || *p == ',' || *p == '\n'; n++) {
			size_t len;

			p += strspn(p, ",\n");
			len = strcspn(p + 1, "\"");
			assert_true(len < sizeof(first));
			memcpy(first, p + 1, len);
			first[len] = '\0';
			p += len + 2;
			search_shard_key(key, first);
			(void)snprintf(path, sizeof(path), "search/t-%s.js", key);
			assert_non_null(file_of(&fs, path));
			if (strcmp(first, words[w]) == 0) {
				const char *t = file_of(&fs, path);

				/* mirrorSearch.t("<key>","0<word> <postings>") */
				assert_null(strchr(strchr(t + 31, ' ') + 1, ' '));
				assert_non_null(strchr(t, ';'));
				alone = 1;
			}
		}
		assert_true(n > 2 && alone);
		files_free(&fs);
	}
}

/* search_docs_each's each: the document's fields, one line each. */
static int
docs_line(void *arg, const struct search_doc *d, mirror_error *err)
{
	(void)err;
	strbuf_printf(arg, "%s|%s|%s|%s|%s|%s|%s\n",
	    search_layer_name(search_rec_layer(d->what, d->layer)), d->id,
	    d->title, d->value, d->text, d->project, d->pslug);
	return 0;
}

/* A project's documents kept as text come back field for field,
 * whatever their bytes (a newline, a colon, digits, an empty field);
 * text cut short or of another format is said to be none. */
static void
test_docs_round_trip(void **state)
{
	struct search_doc d[2] = {
		{ .what = SEARCH_FACT, .layer = LAYER_STATE, .id = "p1-st",
		    .title = "key:1\n2:x",
		    .value = "12:34", .text = "", .project = "P\n1",
		    .pslug = "p1" },
		{ .what = SEARCH_FACT, .layer = LAYER_MEMORY,
		    .id = "m\xc3\xa9", .title = NULL,
		    .value = "v", .text = "9:\n9:\n", .project = "P",
		    .pslug = "" },
	};
	strbuf text, out;
	mirror_error err;

	(void)state;
	strbuf_init(&text);
	strbuf_init(&out);
	search_docs_put(&text, &d[0]);
	search_docs_put(&text, &d[1]);
	assert_int_equal(search_docs_each(text.data, text.len, docs_line, &out,
	    &err), 0);
	assert_string_equal(out.data, "state|p1-st|key:1\n2:x|12:34||P\n1|p1\n"
	    "memory|m\xc3\xa9||v|9:\n9:\n|P|\n");
	strbuf_reset(&text);
	search_docs_put(&text, &d[0]);
	assert_int_equal(search_docs_each(text.data, text.len - 3, docs_line,
	    &out, &err), 1);
	assert_int_equal(search_docs_each((char[]){ "mirror search docs 0\n" },
	    21, docs_line, &out, &err), 1);
	strbuf_free(&text);
	strbuf_free(&out);
}

/* An index of another key is not updated. */
static void
test_update_other_key(void **state)
{
	struct files a, out;
	struct upd u = { .a = &a };
	const struct search_prev prev = { upd_get, upd_keep, &u };
	struct tstore st = tstore_make();
	struct search_index *x, *old;
	mirror_error err;

	(void)state;
	build_store(&a, &st);
	memset(&out, 0, sizeof(out));
	x = search_index_new_whole(put, &out);
	old = search_index_new_whole(put, &out);
	search_index_set_key(x, "k2");
	add_project(x, &st, 1);
	add_project(old, &st, 1);
	assert_int_equal(search_index_update(x, old, &prev, &err),
	    SEARCH_REBUILD);
	assert_int_equal(out.n, 0);
	search_index_free(x);
	search_index_free(old);
	files_free(&a);
}

/* The documents of test_held_out: facts of three layers, conflicts,
 * checks and projects' own pages of 40 projects, a common word in more
 * of the facts and of the conflicts than a term keeps whole (a
 * sample), into x; then its files. */
static void
held_out_build(struct files *fs, size_t rec, size_t term,
    unsigned long long *peak)
{
	static const char *const layer[] = { "state", "entity", "memory",
	    "conflict", "check", "project" };
	enum search_what what;
	enum fact_layer fl;
	struct search_index *x;
	mirror_error err;
	char id[32], title[48], value[64], proj[16], slug[16];

	memset(fs, 0, sizeof(*fs));
	search_held_mark();
	x = search_index_new(put, fs);
	if (rec > 0)
		search_index_set_hold(x, rec, term);
	for (size_t i = 0; i < 4000; i++) {
		const char *l = layer[i % 6 == 5 && i % 60 != 5 ? 0 : i % 6];

		(void)snprintf(id, sizeof(id), "d-%zu", i);
		(void)snprintf(title, sizeof(title), "key %zu word%zu", i,
		    i % 97);
		(void)snprintf(value, sizeof(value), "%s w%zu v%zu",
		    i % 3 != 2 ? "common" : "rare", i % 13, i);
		(void)snprintf(proj, sizeof(proj), "P%zu", i / 100);
		(void)snprintf(slug, sizeof(slug), "p%zu", i / 100);
		assert_int_equal(search_layer_of_name(l, &what, &fl), 0);
		assert_int_equal(search_index_add(x, &(struct search_doc){
		    .title = title, .value = value, .project = proj,
		    .pslug = slug, .what = what, .layer = fl,
		    .status = i % 5 ? "active" :
		    "open", .id = id, .flags = (int)(i % 4) }, &err), 0);
	}
	assert_int_equal(search_index_finish(x, &err), 0);
	search_index_free(x);
	*peak = search_held_peak();
}

/* A whole index that holds few records and terms, writing the rest to
 * its temporary files (in runs, merged back in byte order), writes the
 * same files, byte for byte, as one that holds them all, its common
 * words' samples too; and holds less (under two thirds: half here).
 * doc/performance.md, "Peak memory". */
static void
test_held_out(void **state)
{
	static const size_t hold[][2] = { { 3000, 20000 }, { 1, 1 } };
	struct files all, out;
	unsigned long long peak_all, peak_out;

	(void)state;
	held_out_build(&all, 0, 0, &peak_all);
	assert_non_null(file_of(&all, "search/index.js"));
	for (size_t h = 0; h < sizeof(hold) / sizeof(*hold); h++) {
		held_out_build(&out, hold[h][0], hold[h][1], &peak_out);
		assert_int_equal(out.n, all.n);
		for (size_t i = 0; i < all.n; i++) {
			assert_string_equal(out.f[i].path, all.f[i].path);
			assert_string_equal(out.f[i].data, all.f[i].data);
		}
		if (h == 0)     /* a run a document: merging costs more */
			assert_true(peak_out * 3 < peak_all * 2);
		files_free(&out);
	}
	files_free(&all);
}

/* The temporary file a whole index spills into has no name once made
 * (nothing is left behind however the build ends) and is closed on
 * exec (a child the build starts, such as a signing command, does not
 * inherit a build's records); what is written reads back. */
static void
test_spill_unnamed_closed_on_exec(void **state)
{
	struct spill s = SPILL_INIT;
	mirror_error err;
	struct stat st;
	uint64_t off = 1;
	char back[6] = { 0 };
	int flags;

	(void)state;
	mirror_error_clear(&err);
	assert_int_equal(spill_write(&s, "hello", 5, &off, &err), 0);
	assert_int_equal(off, 0);
	assert_true(s.fd >= 0);
	flags = fcntl(s.fd, F_GETFD);
	assert_true(flags >= 0 && (flags & FD_CLOEXEC) != 0);
	assert_int_equal(fstat(s.fd, &st), 0);
	assert_int_equal(st.st_nlink, 0);
	assert_int_equal(spill_read(&s, 0, back, 5, &err), 0);
	assert_string_equal(back, "hello");
	spill_close(&s);
	assert_int_equal(s.fd, -1);
}

/*
 * search_doc_sort gives qsort's order with search_doc_cmp (a total
 * order): on random keys with many equal slots and hashes (ties left
 * to i), on sorted, reversed and all-equal-slot input, at every size
 * around the insertion sort's cut, by quicksort and by heapsort alone
 * (depth 0), and by a quicksort cut short after a level or two.
 */
static void
test_doc_sort_is_qsort(void **state)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 16, 17, 18, 33, 1000,
	    4099 };
	static const unsigned depths[] = { 0, 1, 2, 64 };
	unsigned long seed = 20261130;

	(void)state;
	for (size_t z = 0; z < sizeof(sizes) / sizeof(*sizes); z++)
		for (int shape = 0; shape < 4; shape++)
			for (size_t d = 0; d < sizeof(depths) /
			    sizeof(*depths); d++) {
		size_t n = sizes[z];
		struct doc_key *a = xcalloc(n + 1, sizeof(*a));
		struct doc_key *b = xcalloc(n + 1, sizeof(*b));

		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
			a[i].want = shape == 3 ? 7 : (seed >> 33) % 50;
			a[i].h = (seed >> 20) % 3;
			a[i].i = (uint32_t)(n - i);
			if (shape == 1 || shape == 2) {
				a[i].want = shape == 1 ? i : n - i;
				a[i].h = 0;
			}
		}
		memcpy(b, a, n * sizeof(*a));
		if (n > 0)
			qsort(b, n, sizeof(*b), search_doc_cmp);
		search_doc_sort(a, n, depths[d]);
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(a[i].want, b[i].want);
			assert_int_equal(a[i].h, b[i].h);
			assert_int_equal(a[i].i, b[i].i);
		}
		free(a);
		free(b);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_find_records),
		cmocka_unit_test(test_one_more_rewrites_few),
		cmocka_unit_test(test_projects_spread),
		cmocka_unit_test(test_total_counts_documents),
		cmocka_unit_test(test_update_one_project),
		cmocka_unit_test(test_update_every_project),
		cmocka_unit_test(test_update_project_comes_goes),
		cmocka_unit_test(test_update_project_renamed),
		cmocka_unit_test(test_titled_pack),
		cmocka_unit_test(test_shard_names),
		cmocka_unit_test(test_update_common_word),
		cmocka_unit_test(test_update_other_key),
		cmocka_unit_test(test_docs_round_trip),
		cmocka_unit_test(test_held_out),
		cmocka_unit_test(test_doc_sort_is_qsort),
		cmocka_unit_test(test_spill_unnamed_closed_on_exec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
