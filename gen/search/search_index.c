/*
 * search_index.c: the search index's terms, postings and files
 * (search_index.h says what the files hold).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/search_index.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/hashtab.h"
#include "util/jsonwrite.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"

/* The longest term kept, in bytes; longer runs are not indexed. */
#define TERM_MAX 64

struct term {
	char *s;
	uint32_t *post;         /* document numbers, increasing */
	size_t n, cap;
	size_t total;           /* documents, also past SEARCH_POSTINGS */
	size_t kept[3];         /* postings kept of each kind (kind_of) */
};

/* The kinds of documents, each keeping at most a third of a term's
 * SEARCH_POSTINGS: a word in thousands of facts still finds the
 * conflicts and checks that hold it, and the other way round. */
static const char kinds[3] = { 'c', 'k', 'f' };

struct term_slot {
	uint64_t key;
	size_t term;
};

/* The layers, in the order of their codes in a record: a fact's three,
 * then a conflict's and a check's (search_index.h). */
static const char *const layers[] = { "state", "entity", "memory",
    "conflict", "check" };
#define LAYER_CONFLICT 3
#define LAYER_CHECK 4

/* A table of a chunk: its distinct projects (name, slug) or statuses
 * (a alone), in the order first met; a record names one by index. */
struct tab_entry {
	char *a, *b;
};

struct tab {
	struct tab_entry *e;
	size_t n, cap;
};

struct search_index {
	search_put_fn put;
	void *arg;
	struct hashtab tab;     /* term hash -> struct term_slot */
	struct term *terms;
	size_t n_terms, cap_terms;
	size_t docs;            /* documents added */
	size_t first[3], last[3];  /* each kind's documents: first, last + 1
	                              (kinds come one after another) */
	int kind;               /* the kind of the document being added */
	strbuf chunk;           /* the records of the chunk being filled */
	struct tab projects, statuses;  /* the chunk's tables */
	size_t files, bytes;
};

struct search_index *
search_index_new(search_put_fn put, void *arg)
{
	struct search_index *x = xcalloc(1, sizeof(*x));

	x->put = put;
	x->arg = arg;
	hashtab_init(&x->tab, sizeof(struct term_slot));
	strbuf_init(&x->chunk);
	return x;
}

/* Write a file through the caller's put, counting it. Returns 0 or < 0
 * with err set. */
static int
put_file(struct search_index *x, const char *path, const strbuf *sb,
    mirror_error *err)
{
	x->files++;
	x->bytes += sb->len;
	return x->put(x->arg, path, sb->data, sb->len, err);
}

/* The posting of document doc for the term of len bytes at s. */
static void
term_add(struct search_index *x, const char *s, size_t len, uint32_t doc)
{
	uint64_t h = hash_add(MIRROR_HASH_INIT, s, len);
	struct term_slot *ts;
	struct term *t = NULL;

	h = h == 0 ? 1 : h;
	for (ts = hashtab_get(&x->tab, h); ts != NULL;
	    ts = hashtab_next(&x->tab, ts)) {
		struct term *c = &x->terms[ts->term];

		if (strncmp(c->s, s, len) == 0 && c->s[len] == '\0') {
			t = c;
			break;
		}
	}
	if (t == NULL) {
		ts = hashtab_add(&x->tab, h);
		ts->term = x->n_terms;
		t = &ARRAY_PUSH(x->terms, x->n_terms, x->cap_terms);
		memset(t, 0, sizeof(*t));
		t->s = xstrndup(s, len);
	}
	if (t->total > 0 && t->n > 0 && t->post[t->n - 1] == doc)
		return;                 /* twice in one document */
	t->total++;
	if (t->kept[x->kind] < SEARCH_POSTINGS / 3) {
		t->kept[x->kind]++;
		ARRAY_PUSH(t->post, t->n, t->cap) = doc;
	}
}

/* 1 when byte c belongs to a term: an ASCII letter or digit, or any
 * byte of a non-ASCII character. */
static int
term_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z') || c >= 0x80;
}

/* Every term of text s into document doc. */
static void
index_text(struct search_index *x, const char *s, uint32_t doc)
{
	char buf[TERM_MAX];
	size_t n = 0;
	int over = 0;

	for (;; s++) {
		unsigned char c = s != NULL ? (unsigned char)*s : 0;

		if (c != 0 && term_byte(c)) {
			if (n < TERM_MAX)
				buf[n++] = (char)(c >= 'A' && c <= 'Z' ?
				    c + 'a' - 'A' : c);
			else
				over = 1;
			continue;
		}
		if (n > 0 && !over)
			term_add(x, buf, n, doc);
		n = 0;
		over = 0;
		if (c == 0)
			return;
	}
}

/* The whole of id (an id, a key or name) of no space, lower-cased, as
 * one more term when it has more than one term: search.js looks a query
 * of one word up as such. */
static void
index_whole(struct search_index *x, const char *id, uint32_t doc)
{
	size_t len = id != NULL ? strlen(id) : 0;
	char buf[TERM_MAX];
	int plain = 1;

	if (len == 0 || len > TERM_MAX)
		return;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)id[i];

		if (c <= ' ')
			return;
		plain &= term_byte(c);
		buf[i] = (char)(c >= 'A' && c <= 'Z' ? c + 'a' - 'A' : c);
	}
	if (!plain)
		term_add(x, buf, len, doc);
}

/*
 * s (NULL: "") cut as the pages cut a value, into sb (reset here): whole
 * when it fits TEXT_MAX_FIELD (4096) bytes, else cut there at a
 * character's start (util/text.h's text_cut) and marked " … (N bytes
 * more)". Returns sb's text: what a record shows of a title, a value,
 * an id or a project's name, so one huge store value costs kilobytes
 * in search/, not a copy of itself.
 */
static const char *
cut_text(strbuf *sb, const char *s)
{
	size_t len = s != NULL ? strlen(s) : 0, cut = text_cut(s, len, 0);

	strbuf_reset(sb);
	strbuf_add(sb, s != NULL ? s : "", cut);
	if (cut < len)
		strbuf_printf(sb, " \xe2\x80\xa6 (%zu bytes more)", len - cut);
	return sb->data;
}

/* The index of (a, b) in t, added when new; b NULL in a table of
 * single strings. Newest first: the records of a project come together. */
static size_t
tab_index(struct tab *t, const char *a, const char *b)
{
	struct tab_entry *e;

	for (size_t i = t->n; i-- > 0;) {
		e = &t->e[i];
		if (strcmp(e->a, a) == 0 && (b == NULL || strcmp(e->b, b) == 0))
			return i;
	}
	e = &ARRAY_PUSH(t->e, t->n, t->cap);
	e->a = xstrdup(a);
	e->b = b != NULL ? xstrdup(b) : NULL;
	return t->n - 1;
}

/* Empty t (keeping its room). */
static void
tab_clear(struct tab *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->e[i].a);
		free(t->e[i].b);
	}
	t->n = 0;
}

/* Table t as a JSON list onto sb (pairs [a, b] when b is set), then
 * empty it. */
static void
tab_flush(strbuf *sb, struct tab *t)
{
	strbuf_putc(sb, '[');
	for (size_t i = 0; i < t->n; i++) {
		struct tab_entry *e = &t->e[i];

		strbuf_puts(sb, i > 0 ? "," : "");
		strbuf_puts(sb, e->b != NULL ? "[" : "");
		json_quote(sb, e->a, 1);
		if (e->b != NULL) {
			strbuf_putc(sb, ',');
			json_quote(sb, e->b, 1);
			strbuf_putc(sb, ']');
		}
	}
	strbuf_putc(sb, ']');
	tab_clear(t);
}

/* Write the chunk being filled as search/d-<n>.js. Returns 0 or < 0. */
static int
flush_chunk(struct search_index *x, mirror_error *err)
{
	size_t n = (x->docs - 1) / SEARCH_CHUNK;
	char path[64];
	strbuf sb;
	int rc;

	if (x->chunk.len == 0)
		return 0;
	(void)snprintf(path, sizeof(path), "search/d-%zu.js", n);
	strbuf_init(&sb);
	strbuf_printf(&sb, "mirrorSearch.d(%zu,{\"p\":", n);
	tab_flush(&sb, &x->projects);
	strbuf_puts(&sb, ",\"s\":");
	tab_flush(&sb, &x->statuses);
	strbuf_puts(&sb, "},[");
	strbuf_add(&sb, x->chunk.data, x->chunk.len);
	strbuf_puts(&sb, "]);\n");
	rc = put_file(x, path, &sb, err);
	strbuf_free(&sb);
	strbuf_reset(&x->chunk);
	return rc;
}

/* The URL a record of layer code l, id and project slug rebuilds when
 * it holds none (search.js does the same), into sb; empty for a check,
 * whose pages are item_check_url's alone. The caller's URLs are
 * gen/site/site_atoz.c's fact_url and search_url: a record whose URL
 * differs from this one keeps it whole (put_url), so a change there
 * costs bytes, not links, until this and search.js follow. */
static void
url_rebuilt(strbuf *sb, int l, const char *id, const char *pslug)
{
	if (l == LAYER_CONFLICT) {
		strbuf_printf(sb, "conflicts/%s.html", id);
		return;
	}
	if (l == LAYER_CHECK)
		return;
	if (pslug[0] != '\0')
		strbuf_printf(sb, "projects/%s/index.html", pslug);
	else
		strbuf_puts(sb, "index.html");
	strbuf_printf(sb, "#%s-%s", layers[l], id);
}

/* The URL of d (layer code l) as its record ends onto c: nothing when
 * search.js rebuilds it (url_rebuilt) from id, the id as the record
 * holds it (cut_text: a long id is cut there, and a page's anchor names
 * it by its slug, so the two differ and the URL is written), [page]
 * when it is page#id, else ,"url" whole (the pages' URLs are made of
 * slugs, which are short). */
static void
put_url(strbuf *c, const struct search_doc *d, int l, const char *id)
{
	const char *url = d->url != NULL ? d->url : "";
	size_t ul = strlen(url), il = strlen(id);
	strbuf want;

	strbuf_init(&want);
	url_rebuilt(&want, l, id, d->pslug != NULL ? d->pslug : "");
	if (want.len > 0 && strcmp(want.data, url) == 0) {
		strbuf_free(&want);
		return;
	}
	strbuf_reset(&want);
	strbuf_putc(c, ',');
	if (il > 0 && ul > il && url[ul - il - 1] == '#' &&
	    strcmp(url + ul - il, id) == 0) {
		strbuf_add(&want, url, ul - il - 1);
		strbuf_putc(c, '[');
		json_quote(c, want.data, 1);
		strbuf_putc(c, ']');
	} else
		json_quote(c, url, 1);
	strbuf_free(&want);
}

/* The code of layer name s (its index in layers), or -1. */
static int
layer_code(const char *s)
{
	for (int i = 0; s != NULL && i < (int)(sizeof(layers) /
	    sizeof(*layers)); i++)
		if (strcmp(layers[i], s) == 0)
			return i;
	return -1;
}

int
search_index_add(struct search_index *x, const struct search_doc *d,
    mirror_error *err)
{
	int l = layer_code(d->layer);
	uint32_t doc;
	strbuf *c = &x->chunk, id, cut;
	size_t project;

	if (l < 0)
		return mirror_fail(err, MIRROR_EIO, "internal: search "
		    "document of layer %s", d->layer != NULL ? d->layer : "");
	doc = (uint32_t)x->docs++;
	x->kind = l == LAYER_CONFLICT ? 0 : l == LAYER_CHECK ? 1 : 2;
	if (x->last[x->kind] == 0)
		x->first[x->kind] = doc;
	x->last[x->kind] = doc + 1;
	strbuf_init(&id);
	strbuf_init(&cut);
	/* The record's text as the pages cut it; the terms below are of
	 * the whole text, so a search finds what the record cuts. */
	cut_text(&id, d->id);
	strbuf_puts(c, c->len > 0 ? ",\n[" : "\n[");
	strbuf_printf(c, "%d,", l * 4 + (d->flags & 3));
	json_quote(c, cut_text(&cut, d->title), 1);
	strbuf_putc(c, ',');
	json_quote(c, cut_text(&cut, d->value), 1);
	project = tab_index(&x->projects, cut_text(&cut, d->project),
	    d->pslug != NULL ? d->pslug : "");
	strbuf_printf(c, ",%zu,%zu,", project, tab_index(&x->statuses,
	    cut_text(&cut, d->status), NULL));
	json_quote(c, id.data, 1);
	put_url(c, d, l, id.data);
	strbuf_putc(c, ']');
	strbuf_free(&id);
	strbuf_free(&cut);
	index_text(x, d->title, doc);
	index_text(x, d->value, doc);
	index_text(x, d->id, doc);
	index_text(x, d->text, doc);
	index_whole(x, d->id, doc);
	index_whole(x, d->title, doc);
	if (x->docs % SEARCH_CHUNK == 0)
		return flush_chunk(x, err);
	return 0;
}

/* Number v in base 36 onto sb. */
static void
put36(strbuf *sb, size_t v)
{
	char buf[16];
	size_t n = 0;

	do {
		buf[n++] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
		v /= 36;
	} while (v > 0);
	while (n > 0)
		strbuf_putc(sb, buf[--n]);
}

/* s as the inside of a JSON string (escaped, no quotes) onto sb: quoted
 * in place, then its quotes taken out (a scratch buffer cost a malloc
 * and a free for every term of every shard). */
static void
put_escaped(strbuf *sb, const char *s)
{
	size_t at = sb->len;

	json_quote(sb, s, 1);
	memmove(sb->data + at, sb->data + at + 1, sb->len - at - 2);
	sb->len -= 2;
	sb->data[sb->len] = '\0';
}

/* How many leading bytes a and b share, counting ASCII bytes only (so
 * that the count is JavaScript's too) and at most 35 (one base-36
 * digit). */
static size_t
shared_prefix(const char *a, const char *b)
{
	size_t n = 0;

	while (n < 35 && a[n] != '\0' && a[n] == b[n] &&
	    (unsigned char)a[n] < 0x80)
		n++;
	return n;
}

/* The entry of t onto sb, its first pre bytes those of the term before
 * it: pre as a base-36 digit, the rest of the term, a space, the
 * postings (escaped for the shard's string). */
static void
term_entry(strbuf *sb, const struct term *t, size_t pre)
{
	put36(sb, pre);
	put_escaped(sb, t->s + pre);
	strbuf_putc(sb, ' ');
	if (t->total > t->n) {
		put36(sb, t->total);
		strbuf_putc(sb, ';');
	}
	for (size_t i = 0; i < t->n; i++) {
		if (i > 0)
			strbuf_putc(sb, ',');
		put36(sb, i == 0 ? t->post[0] : t->post[i] - t->post[i - 1]);
	}
}

/* qsort order of term indexes: by the terms' bytes. */
static const struct term *sort_terms;

static int
term_cmp(const void *a, const void *b)
{
	return strcmp(sort_terms[*(const size_t *)a].s,
	    sort_terms[*(const size_t *)b].s);
}

/* Write shard k, whose entries are body, as search/t-<k>.js. Returns
 * 0 or < 0 with err set. */
static int
shard_write(struct search_index *x, size_t k, const strbuf *body,
    mirror_error *err)
{
	char path[64];
	strbuf sb;
	int rc;

	(void)snprintf(path, sizeof(path), "search/t-%zu.js", k);
	strbuf_init(&sb);
	strbuf_printf(&sb, "mirrorSearch.t(%zu,\"", k);
	strbuf_add(&sb, body->data, body->len);
	strbuf_puts(&sb, "\");\n");
	rc = put_file(x, path, &sb, err);
	strbuf_free(&sb);
	return rc;
}

/*
 * Every term in byte order, cut into shards of about SEARCH_SHARD
 * bytes; the first term of each shard onto man, the manifest's list.
 * Returns 0 or < 0 with err set.
 */
static int
write_shards(struct search_index *x, strbuf *man, mirror_error *err)
{
	size_t *ord = xcalloc(x->n_terms + 1, sizeof(*ord));
	strbuf body, entry;
	size_t k = 0;
	int rc = 0;

	for (size_t i = 0; i < x->n_terms; i++)
		ord[i] = i;
	sort_terms = x->terms;
	qsort(ord, x->n_terms, sizeof(*ord), term_cmp);
	strbuf_init(&body);
	strbuf_init(&entry);
	for (size_t i = 0; rc == 0 && i < x->n_terms; i++) {
		const struct term *t = &x->terms[ord[i]];

		strbuf_reset(&entry);
		term_entry(&entry, t, body.len > 0 ?
		    shared_prefix(x->terms[ord[i - 1]].s, t->s) : 0);
		if (body.len > 0 && body.len + entry.len > SEARCH_SHARD) {
			rc = shard_write(x, k++, &body, err);
			strbuf_reset(&body);
			strbuf_reset(&entry);
			term_entry(&entry, t, 0);
		}
		if (body.len == 0) {
			strbuf_puts(man, k > 0 ? ",\n" : "");
			json_quote(man, t->s, 1);
		} else
			strbuf_putc(&body, ' ');
		strbuf_add(&body, entry.data, entry.len);
	}
	if (rc == 0 && body.len > 0)
		rc = shard_write(x, k, &body, err);
	strbuf_free(&body);
	strbuf_free(&entry);
	free(ord);
	return rc;
}

int
search_index_finish(struct search_index *x, mirror_error *err)
{
	strbuf man;
	int rc;

	rc = flush_chunk(x, err);
	strbuf_init(&man);
	strbuf_printf(&man, "mirrorSearch.m({\"v\":2,\"chunk\":%d,\"docs\":"
	    "%zu,\"kinds\":{", SEARCH_CHUNK, x->docs);
	for (int k = 0; k < 3; k++)
		strbuf_printf(&man, "%s\"%c\":[%zu,%zu]", k > 0 ? "," : "",
		    kinds[k], x->first[k], x->last[k]);
	strbuf_puts(&man, "},\"first\":[\n");
	if (rc == 0)
		rc = write_shards(x, &man, err);
	strbuf_puts(&man, "]});\n");
	if (rc == 0)
		rc = put_file(x, "search/index.js", &man, err);
	strbuf_free(&man);
	return rc;
}

void
search_index_stats(size_t *docs, size_t *files, size_t *bytes,
    const struct search_index *x)
{
	if (docs != NULL)
		*docs = x->docs;
	if (files != NULL)
		*files = x->files;
	if (bytes != NULL)
		*bytes = x->bytes;
}

void
search_index_free(struct search_index *x)
{
	if (x == NULL)
		return;
	for (size_t i = 0; i < x->n_terms; i++) {
		free(x->terms[i].s);
		free(x->terms[i].post);
	}
	free(x->terms);
	hashtab_free(&x->tab);
	strbuf_free(&x->chunk);
	tab_clear(&x->projects);
	tab_clear(&x->statuses);
	free(x->projects.e);
	free(x->statuses.e);
	free(x);
}
