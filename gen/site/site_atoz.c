/*
 * site_atoz.c: the A-Z index of keys and names, keys/index and
 * keys/<letter>.
 *
 * Every project_state key and entities name of the store, whatever its
 * status and project, read in one query (facts_names: also the rows of
 * projects whose pages a build keeps, so the pages are the same as a
 * full build's), sorted and grouped by first letter: a page per letter
 * that has names, a name once with every fact that carries it, each
 * linking to the fact's anchor on its project's overview (or on the
 * index, for rows of no project). Letters are a to z (a name starting
 * with a Latin letter such as "Ü" goes under its base letter, as slugs
 * map it), "0-9", and "other" for the rest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site/items.h"
#include "site/site_atoz.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Buckets: 0 digits, 1..26 letters, 27 the rest. */
#define B_DIGITS 0
#define B_OTHER 27
#define N_BUCKETS 28

/* One name of the index and its bucket. */
struct entry {
	const struct fact_name *f;
	int b;
};

/* The bucket of a name: its first character, letters folded to a-z. */
static int
bucket_of(const char *name)
{
	unsigned char c = (unsigned char)name[0];
	char first[8], slug[SLUG_SIZE];
	size_t n = 1;

	if (c >= '0' && c <= '9')
		return B_DIGITS;
	if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')
		return 1 + ((c | 0x20) - 'a');
	if (c < 0x80)
		return B_OTHER;
	while (n < 4 && ((unsigned char)name[n] & 0xc0) == 0x80)
		n++;
	memcpy(first, name, n);
	first[n] = '\0';
	/* A Latin letter's slug starts with its base letter; any other
	 * character's is the fallback "x--<hash>". */
	slug_make(slug, first);
	if (slug[0] >= 'a' && slug[0] <= 'z' && slug[0] != 'x' &&
	    (slug[1] == '-' || slug[1] == '\0'))
		return 1 + (slug[0] - 'a');
	return B_OTHER;
}

/* The slug (file name) and label of bucket b, into slug and label. */
static void
bucket_names(int b, char slug[8], char label[16])
{
	if (b == B_DIGITS) {
		strcpy(slug, "0-9");
		strcpy(label, "0\xe2\x80\x93" "9");
	} else if (b == B_OTHER) {
		strcpy(slug, "other");
		strcpy(label, "Other");
	} else {
		slug[0] = (char)('a' + b - 1);
		slug[1] = '\0';
		label[0] = (char)('A' + b - 1);
		label[1] = '\0';
	}
}

/* strcmp with ASCII letters folded to lower case. */
static int
fold_cmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		int x = (unsigned char)*a, y = (unsigned char)*b;

		if (x >= 'A' && x <= 'Z')
			x += 'a' - 'A';
		if (y >= 'A' && y <= 'Z')
			y += 'a' - 'A';
		if (x != y || x == 0)
			return x - y;
	}
}

/* qsort order: bucket, folded name, name, project, layer, id: total. */
static int
cmp_entry(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int d;

	if (a->b != b->b)
		return a->b - b->b;
	if ((d = fold_cmp(a->f->name, b->f->name)) != 0 ||
	    (d = strcmp(a->f->name, b->f->name)) != 0 ||
	    (d = strcmp(a->f->project, b->f->project)) != 0 ||
	    (d = strcmp(a->f->layer, b->f->layer)) != 0)
		return d;
	return strcmp(a->f->id, b->f->id);
}

/* One fact of a name: where it is and what it is. A new object. */
static json_t *
fact_json(const struct site_model *m, const struct fact_name *f)
{
	long i = model_project_index(m, f->project);
	int loose = f->project[0] == '\0';

	return json_pack("{s:s, s:s, s:o, s:s, s:s, s:b, s:s, s:s, s:o, "
	    "s:b, s:b}", "layer", f->layer, "id", f->id,
	    "anchor", item_anchor(f->layer, f->id), "kind", f->kind,
	    "status", f->status, "active", strcmp(f->status, "active") == 0,
	    "project", f->project, "project_name", loose ? "(no project)" :
	    i >= 0 ? m->projects[i].name : f->project,
	    "project_slug", i >= 0 && !loose ? json_string(m->pslug[i]) :
	    json_null(), "on_index", i >= 0 && loose, "linked", i >= 0);
}

/* The names of e[0..n) (one bucket, sorted), each with its facts, into
 * a new array; *distinct gets the number of names. */
static json_t *
names_json(const struct site_model *m, const struct entry *e, size_t n,
    size_t *distinct)
{
	json_t *names = json_array(), *facts = NULL;

	*distinct = 0;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || strcmp(e[i].f->name, e[i - 1].f->name) != 0) {
			facts = json_array();
			json_array_append_new(names, json_pack("{s:s, s:o}",
			    "name", e[i].f->name, "facts", facts));
			(*distinct)++;
		}
		json_array_append_new(facts, item_must(fact_json(m, e[i].f),
		    "keys and names: row", e[i].f->id));
	}
	return names;
}

/* The letters that have names, for every page's letter line: each
 * label, slug, count (names) and whether it is the page's own (cur). */
static json_t *
letters_json(const size_t *count, int cur)
{
	json_t *letters = json_array();
	char slug[8], label[16];

	for (int b = 0; b < N_BUCKETS; b++) {
		if (count[b] == 0)
			continue;
		bucket_names(b, slug, label);
		json_array_append_new(letters, json_pack("{s:s, s:s, s:I, s:o, "
		    "s:b}", "label", label, "slug", slug, "count",
		    (json_int_t)count[b], "count_words", item_count(
		    (long long)count[b], "name", "names"), "current",
		    b == cur));
	}
	return letters;
}

/* The page of bucket b: the sorted entries e[0..n). Returns 0 or < 0. */
static int
letter_page(const struct page_ctx *pc, const struct entry *e, size_t n,
    int b, const size_t *count, mirror_error *err)
{
	char slug[8], label[16];
	size_t distinct;
	strbuf path, title;
	json_t *data, *names = names_json(pc->m, e, n, &distinct);
	int rc;

	bucket_names(b, slug, label);
	strbuf_init(&path);
	strbuf_init(&title);
	strbuf_printf(&path, "keys/%s", slug);
	strbuf_printf(&title, "Keys and names: %s", label);
	data = json_pack("{s:s, s:s, s:o, s:o, s:o}", "label", label,
	    "slug", slug, "count_words", item_count((long long)distinct,
	    "name", "names"), "letters", letters_json(count, b), "names", names);
	rc = page_write(pc, path.data, "atoz_letter.md", title.data, data,
	    err);
	json_decref(data);
	strbuf_free(&path);
	strbuf_free(&title);
	return rc;
}

/* Distinct names per bucket of the sorted e[0..n) into count. */
static void
count_names(size_t count[N_BUCKETS], const struct entry *e, size_t n)
{
	memset(count, 0, N_BUCKETS * sizeof(*count));
	for (size_t i = 0; i < n; i++)
		if (i == 0 || e[i].b != e[i - 1].b ||
		    strcmp(e[i].f->name, e[i - 1].f->name) != 0)
			count[e[i].b]++;
}

/* The pages from the sorted entries: the letters, then each letter's. */
static int
write_pages(const struct page_ctx *pc, const struct entry *e, size_t n,
    mirror_error *err)
{
	size_t count[N_BUCKETS], total = 0;
	json_t *data;
	int rc;

	count_names(count, e, n);
	for (int b = 0; b < N_BUCKETS; b++)
		total += count[b];
	data = json_pack("{s:o, s:o, s:I}", "letters", letters_json(count,
	    -1), "count_words", item_count((long long)total, "name",
	    "names"), "facts", (json_int_t)n);
	rc = page_write(pc, "keys/index", "atoz.md",
	    "Keys and names A\xe2\x80\x93Z", data, err);
	json_decref(data);
	for (size_t i = 0, j; rc == 0 && i < n; i = j) {
		for (j = i; j < n && e[j].b == e[i].b; j++)
			;
		rc = letter_page(pc, e + i, j - i, e[i].b, count, err);
	}
	return rc;
}

/* Fold s (NULL counts as empty) into both hashes. */
static void
mix2(uint64_t h[2], const char *s)
{
	h[0] = hash_add_str(h[0], s);
	h[1] = hash_add_str(h[1], s);
}

/*
 * 1 when the A–Z pages were kept as the last build wrote them: every
 * input of theirs (each name's fact, in page order, with its project's
 * name and slug) hashes as it did then, and DIR holds their files
 * (page_keep_folder); else 0, and the caller writes them. A one-fact
 * change elsewhere costs one pass over the names, not their pages.
 */
static int
atoz_kept(const struct page_ctx *pc, const struct entry *e, size_t n)
{
	const struct site_model *m = pc->m;
	uint64_t h[2] = { MIRROR_HASH_INIT, ~MIRROR_HASH_INIT };
	char hex[DIGEST_HEX + 1];

	for (size_t i = 0; i < n; i++) {
		const struct fact_name *f = e[i].f;
		long k = model_project_index(m, f->project);

		for (int j = 0; j < 2; j++) {
			h[j] = hash_add(h[j], &e[i].b, sizeof(e[i].b));
			h[j] = hash_add(h[j], &k, sizeof(k));
		}
		mix2(h, f->name);
		mix2(h, f->layer);
		mix2(h, f->id);
		mix2(h, f->kind);
		mix2(h, f->status);
		mix2(h, f->project);
		mix2(h, k >= 0 ? m->projects[k].name : NULL);
		mix2(h, k >= 0 ? m->pslug[k] : NULL);
	}
	page_folder_digest(hex, pc, h[0], h[1]);
	return hex[0] != '\0' && page_keep_folder(pc, "keys/", NULL, hex);
}

int
atoz_pages(const struct page_ctx *pc, mirror_error *err)
{
	struct fact_name *names;
	struct entry *e;
	size_t n;
	int rc;

	rc = facts_names(&names, &n, pc->m->st, err);
	if (rc < 0) {
		facts_names_free(names, n);
		return rc;
	}
	e = xcalloc(n + 1, sizeof(*e));
	for (size_t i = 0; i < n; i++) {
		e[i].f = &names[i];
		e[i].b = bucket_of(names[i].name);
	}
	qsort(e, n, sizeof(*e), cmp_entry);
	/* Its pages stay when what they show is what they showed. */
	if (!atoz_kept(pc, e, n))
		rc = write_pages(pc, e, n, err);
	free(e);
	facts_names_free(names, n);
	return rc;
}
