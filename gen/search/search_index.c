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

/* A term: most are one document's (an id is a term of its own), so a
 * term is small and its one posting is held in it. */
struct term {
	size_t s;               /* its text in x->words */
	uint32_t *post;         /* the documents kept, by their order of
	                           adding (seq), increasing; NULL while it
	                           keeps one: last */
	uint32_t n;             /* postings kept (post's room: post_room) */
	uint32_t last;          /* the last document added */
	uint32_t tot[3];        /* documents of each kind (kinds[]) */
	uint8_t bits[3];        /* of each kind, the documents kept are
	                           those whose sample_of has these low
	                           bits zero (term_sample) */
};

/* The kinds of documents. Of each, a term keeps every document while
 * it has at most SEARCH_POSTINGS / 3, else a sample of them by their
 * own hash (term_sample): a word in thousands of facts still finds the
 * conflicts and checks that hold it, and the other way round. A
 * document's number ends in its kind (search_index.h). */
static const char kinds[3] = { 'c', 'k', 'f' };

/* The most documents of a kind a term keeps whole. */
#define KIND_CAP (SEARCH_POSTINGS / 3)

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

/* A document as added, its record kept until search_index_finish
 * numbers it: the record's text before its project and status (head)
 * and after them (tail) in x->recs, the two by index into the index's
 * tables. */
struct doc {
	uint64_t h;             /* hash_mix of its layer and id */
	uint64_t num;           /* its number (search_index_finish) */
	size_t off;             /* head, then tail, in x->recs */
	uint32_t hlen, tlen;
	uint32_t project, status;  /* into x->projects, x->statuses */
	uint8_t kind;           /* index into kinds[] */
};

/* A table of distinct projects (name, slug) or statuses (a alone),
 * in the order first met, looked up by the hash of their text. */
struct tab_entry {
	char *a, *b;
};

struct tab_slot {
	uint64_t key;
	uint32_t i;
};

struct tab {
	struct tab_entry *e;
	size_t n, cap;
	struct hashtab at;      /* hash of (a, b) -> struct tab_slot */
};

struct search_index {
	search_put_fn put;
	void *arg;
	struct hashtab tab;     /* term hash -> struct term_slot */
	struct term *terms;
	size_t n_terms, cap_terms;
	strbuf words;           /* every term's text, each ending in NUL */
	struct doc *docs;       /* in the order added (seq) */
	size_t n_docs, cap_docs;
	size_t per_kind[3];
	uint64_t base[3], end[3];  /* each kind's numbers (write_chunks) */
	int kind;               /* the kind of the document being added */
	strbuf recs;            /* every document's head and tail */
	struct tab projects, statuses;
	char *key;              /* search_index_set_key's, or NULL */
};

struct search_index *
search_index_new(search_put_fn put, void *arg)
{
	struct search_index *x = xcalloc(1, sizeof(*x));

	x->put = put;
	x->arg = arg;
	hashtab_init(&x->tab, sizeof(struct term_slot));
	hashtab_init(&x->projects.at, sizeof(struct tab_slot));
	hashtab_init(&x->statuses.at, sizeof(struct tab_slot));
	strbuf_init(&x->recs);
	strbuf_init(&x->words);
	return x;
}

/* Write a file through the caller's put. Returns 0 or < 0 with err
 * set. */
static int
put_file(struct search_index *x, const char *path, const strbuf *sb,
    mirror_error *err)
{
	return x->put(x->arg, path, sb->data, sb->len, err);
}

/* Term t's text. */
static const char *
term_text(const struct search_index *x, const struct term *t)
{
	return x->words.data + t->s;
}

/* Term t's kept postings (t->n of them). */
static const uint32_t *
term_posts(const struct term *t)
{
	return t->post != NULL ? t->post : &t->last;
}

/* The room of a post array holding n postings: 4, doubled as it
 * fills (n > 1). */
static uint32_t
post_room(uint32_t n)
{
	uint32_t room = 4;

	while (room < n)
		room *= 2;
	return room;
}

/* Keep doc as t's next posting. */
static void
term_keep(struct term *t, uint32_t doc)
{
	if (t->n == 0 && t->post == NULL) {
		t->n = 1;               /* held in last */
		return;
	}
	if (t->post == NULL) {
		t->post = xcalloc(post_room(2), sizeof(*t->post));
		t->post[0] = t->last;
	} else if (t->n == post_room(t->n))
		t->post = xreallocarray(t->post, post_room(t->n + 1),
		    sizeof(*t->post));
	t->post[t->n++] = doc;
}

/* The bits of a document's hash its sampling looks at: others than the
 * slot's (ask_slots uses the low ones). */
static uint64_t
sample_of(const struct doc *d)
{
	return d->h >> 32;
}

/* Whether document d of a kind whose sample takes bits bits is kept. */
static int
sample_keeps(const struct doc *d, unsigned bits)
{
	return (sample_of(d) & ((UINT64_C(1) << bits) - 1)) == 0;
}

/*
 * One more bit for t's sample of kind k: keep of its postings of that
 * kind those whose hash has it zero too. The sample of a kind of n
 * documents takes the fewest bits b with n <= KIND_CAP << b, so it is
 * a function of the documents alone (not of the order they came in),
 * and the documents kept of two common words are samples of the same
 * documents. (A term that keeps one posting holds it in last; it keeps
 * at most KIND_CAP + 1 here, so it has a post array.)
 */
static void
term_sample(const struct search_index *x, struct term *t, int k)
{
	uint32_t w = 0;

	t->bits[k]++;
	for (uint32_t i = 0; i < t->n; i++) {
		const struct doc *d = &x->docs[t->post[i]];

		if (d->kind != k || sample_keeps(d, t->bits[k]))
			t->post[w++] = t->post[i];
	}
	t->n = w;
}

/* The posting of document doc for the term of len bytes at s. */
static void
term_add(struct search_index *x, const char *s, size_t len, uint32_t doc)
{
	uint64_t h = hash_add(MIRROR_HASH_INIT, s, len);
	struct term_slot *ts;
	struct term *t = NULL;
	int k = x->kind;

	h = h == 0 ? 1 : h;
	for (ts = hashtab_get(&x->tab, h); ts != NULL;
	    ts = hashtab_next(&x->tab, ts)) {
		struct term *c = &x->terms[ts->term];
		const char *cs = term_text(x, c);

		if (strncmp(cs, s, len) == 0 && cs[len] == '\0') {
			t = c;
			break;
		}
	}
	if (t == NULL) {
		ts = hashtab_add(&x->tab, h);
		ts->term = x->n_terms;
		t = &ARRAY_PUSH(x->terms, x->n_terms, x->cap_terms);
		memset(t, 0, sizeof(*t));
		t->s = x->words.len;
		strbuf_add(&x->words, s, len);
		strbuf_putc(&x->words, '\0');
	} else if (t->last == doc)
		return;                 /* twice in one document */
	t->tot[k]++;
	if (sample_keeps(&x->docs[doc], t->bits[k])) {
		term_keep(t, doc);      /* before last moves on: it may
		                           hold the one posting kept */
		if (t->tot[k] > ((uint32_t)KIND_CAP << t->bits[k]))
			term_sample(x, t, k);
	}
	t->last = doc;
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
 * single strings. */
static uint32_t
tab_index(struct tab *t, const char *a, const char *b)
{
	uint64_t h = hash_mix(hash_add_str(hash_add_str(MIRROR_HASH_INIT, a),
	    b != NULL ? b : ""));
	struct tab_slot *ts;
	struct tab_entry *e;

	h = h == 0 ? 1 : h;
	for (ts = hashtab_get(&t->at, h); ts != NULL;
	    ts = hashtab_next(&t->at, ts)) {
		e = &t->e[ts->i];
		if (strcmp(e->a, a) == 0 && (b == NULL || strcmp(e->b, b) == 0))
			return ts->i;
	}
	ts = hashtab_add(&t->at, h);
	ts->i = (uint32_t)t->n;
	e = &ARRAY_PUSH(t->e, t->n, t->cap);
	e->a = xstrdup(a);
	e->b = b != NULL ? xstrdup(b) : NULL;
	return ts->i;
}

/* Free t's entries and table. */
static void
tab_free(struct tab *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->e[i].a);
		free(t->e[i].b);
	}
	free(t->e);
	hashtab_free(&t->at);
}

/*
 * A chunk's own table of t: the entries its records name, in the order
 * first met. local[i] is entry i's index in it plus one (0: not yet),
 * used[] the entries met, in order; chunk_tab_reset empties it for the
 * next chunk.
 */
struct chunk_tab {
	uint32_t *local;
	uint32_t *used;
	size_t n, cap;
};

/* The chunk's index of t's entry i, added when new. */
static uint32_t
chunk_tab_index(struct chunk_tab *c, uint32_t i)
{
	if (c->local[i] == 0) {
		ARRAY_PUSH(c->used, c->n, c->cap) = i;
		c->local[i] = (uint32_t)c->n;
	}
	return c->local[i] - 1;
}

/* The chunk's table as a JSON list onto sb (pairs [a, b] when b is
 * set), then empty it. */
static void
chunk_tab_flush(strbuf *sb, struct chunk_tab *c, const struct tab *t)
{
	strbuf_putc(sb, '[');
	for (size_t k = 0; k < c->n; k++) {
		const struct tab_entry *e = &t->e[c->used[k]];

		strbuf_puts(sb, k > 0 ? "," : "");
		strbuf_puts(sb, e->b != NULL ? "[" : "");
		json_quote(sb, e->a, 1);
		if (e->b != NULL) {
			strbuf_putc(sb, ',');
			json_quote(sb, e->b, 1);
			strbuf_putc(sb, ']');
		}
		c->local[c->used[k]] = 0;
	}
	strbuf_putc(sb, ']');
	c->n = 0;
}

/* The chunk file of slot of kind k: its slots' run (slot >>
 * SEARCH_SLOT_BITS) times 4 plus k (search_index.h). */
static uint64_t
chunk_of(uint64_t slot, int k)
{
	return (slot >> SEARCH_SLOT_BITS) * 4 + (uint64_t)k;
}

/* What writing the chunks keeps between them: the chunk's records, the
 * slot of the last one and its own tables of projects and statuses. */
struct chunk_out {
	strbuf recs;
	uint64_t last;
	struct chunk_tab projects, statuses;
};

/* Write chunk n, the records of co, as search/d-<n>.js, and empty co.
 * Returns 0 or < 0 with err set. */
static int
chunk_write(struct search_index *x, struct chunk_out *co, uint64_t n,
    mirror_error *err)
{
	char path[64];
	strbuf sb;
	int rc, len;

	len = snprintf(path, sizeof(path), "search/d-%llu.js",
	    (unsigned long long)n);
	if (len < 0 || (size_t)len >= sizeof(path))
		return mirror_fail(err, MIRROR_EIO, "internal: search chunk "
		    "%llu", (unsigned long long)n);
	strbuf_init(&sb);
	strbuf_printf(&sb, "mirrorSearch.d(%llu,{\"p\":",
	    (unsigned long long)n);
	chunk_tab_flush(&sb, &co->projects, &x->projects);
	strbuf_puts(&sb, ",\"s\":");
	chunk_tab_flush(&sb, &co->statuses, &x->statuses);
	strbuf_puts(&sb, "},[");
	strbuf_add(&sb, co->recs.data, co->recs.len);
	strbuf_puts(&sb, "]);\n");
	rc = put_file(x, path, &sb, err);
	strbuf_free(&sb);
	strbuf_reset(&co->recs);
	co->last = 0;
	return rc;
}

/* Document d's record onto co's records: how far its slot's place in
 * the chunk is past the record before it (the first: past 0), then the
 * head, its project's and status's indexes in the chunk's tables, the
 * tail. */
static void
chunk_put(struct chunk_out *co, const struct search_index *x,
    const struct doc *d, uint64_t slot)
{
	strbuf *c = &co->recs;
	uint64_t lo = slot & ((UINT64_C(1) << SEARCH_SLOT_BITS) - 1);

	strbuf_puts(c, c->len > 0 ? ",\n[" : "\n[");
	strbuf_printf(c, "%llu,", (unsigned long long)(lo - co->last));
	co->last = lo;
	strbuf_add(c, x->recs.data + d->off, d->hlen);
	strbuf_printf(c, ",%u,%u,", chunk_tab_index(&co->projects, d->project),
	    chunk_tab_index(&co->statuses, d->status));
	strbuf_add(c, x->recs.data + d->off + d->hlen, d->tlen);
	strbuf_putc(c, ']');
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

void
search_index_set_key(struct search_index *x, const char *key)
{
	free(x->key);
	x->key = key != NULL ? xstrdup(key) : NULL;
}

int
search_index_add(struct search_index *x, const struct search_doc *d,
    mirror_error *err)
{
	int l = layer_code(d->layer);
	uint32_t seq;
	strbuf *c = &x->recs, id, cut;
	struct doc *dd;
	size_t at;

	if (l < 0)
		return mirror_fail(err, MIRROR_EIO, "internal: search "
		    "document of layer %s", d->layer != NULL ? d->layer : "");
	if (x->n_docs >= UINT32_MAX)
		return mirror_fail(err, MIRROR_EIO, "search index: more than "
		    "%u documents", (unsigned)UINT32_MAX);
	seq = (uint32_t)x->n_docs;
	x->kind = l == LAYER_CONFLICT ? 0 : l == LAYER_CHECK ? 1 : 2;
	x->per_kind[x->kind]++;
	dd = &ARRAY_PUSH(x->docs, x->n_docs, x->cap_docs);
	memset(dd, 0, sizeof(*dd));
	dd->kind = (uint8_t)x->kind;
	dd->h = hash_mix(hash_add_str(hash_add_str(MIRROR_HASH_INIT,
	    layers[l]), d->id));
	strbuf_init(&id);
	strbuf_init(&cut);
	/* The record's text as the pages cut it; the terms below are of
	 * the whole text, so a search finds what the record cuts. */
	cut_text(&id, d->id);
	dd->off = at = c->len;
	strbuf_printf(c, "%d,", l * 4 + (d->flags & 3));
	json_quote(c, cut_text(&cut, d->title), 1);
	strbuf_putc(c, ',');
	json_quote(c, cut_text(&cut, d->value), 1);
	dd->hlen = (uint32_t)(c->len - at);
	dd->project = tab_index(&x->projects, cut_text(&cut, d->project),
	    d->pslug != NULL ? d->pslug : "");
	dd->status = tab_index(&x->statuses, cut_text(&cut, d->status), NULL);
	at = c->len;
	json_quote(c, id.data, 1);
	put_url(c, d, l, id.data);
	dd->tlen = (uint32_t)(c->len - at);
	strbuf_free(&id);
	strbuf_free(&cut);
	index_text(x, d->title, seq);
	index_text(x, d->value, seq);
	index_text(x, d->id, seq);
	index_text(x, d->text, seq);
	index_whole(x, d->id, seq);
	index_whole(x, d->title, seq);
	return 0;
}

/* A document of one kind as number_kind sorts them: the slot it asks
 * for, its hash, its place in the order added. */
struct doc_key {
	uint64_t want, h;
	uint32_t i;
};

/* qsort order of doc_keys: by want, then h, then i. */
static int
doc_cmp(const void *a, const void *b)
{
	const struct doc_key *x = a, *y = b;

	if (x->want != y->want)
		return x->want < y->want ? -1 : 1;
	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The bits of a space for n documents: SEARCH_SPARE_BITS more than n
 * needs, so about one slot in 64 or fewer is taken. */
static unsigned
spare_bits(size_t n)
{
	unsigned b = SEARCH_SPARE_BITS;

	while (b < 62 && (UINT64_C(1) << (b - SEARCH_SPARE_BITS)) < n)
		b++;
	return b;
}

/* The bits of the ring of a kind of n documents: spare_bits(n), at
 * least SEARCH_SLOT_BITS. Its slots run to twice the ring (a project's
 * documents start on the ring and run on past it). */
static unsigned
kind_bits(size_t n)
{
	unsigned b = spare_bits(n);

	return b < SEARCH_SLOT_BITS ? SEARCH_SLOT_BITS : b;
}

/*
 * The slot each document of kind k (ord, n of them) asks for, into its
 * num: its project's place on the kind's ring of kind_bits(n) bits (a
 * hash of the project's name and slug: a conflict's or a check's
 * document names no slug), plus the low bits of its own hash, as
 * many as spare_bits of its project's documents of the kind (at least
 * SEARCH_WINDOW_BITS). So a
 * project's documents sit together (a chunk names few projects, a
 * word's postings within a project are close), and one moves only
 * when its project's count of the kind passes a power of two.
 */
static void
ask_slots(struct search_index *x, const uint32_t *ord, size_t n)
{
	size_t np = x->projects.n;
	uint32_t *count = xcalloc(np + 1, sizeof(*count));
	uint64_t ring = (UINT64_C(1) << kind_bits(n)) - 1;

	for (size_t i = 0; i < n; i++)
		count[x->docs[ord[i]].project]++;
	for (size_t i = 0; i < n; i++) {
		struct doc *d = &x->docs[ord[i]];
		const struct tab_entry *e = &x->projects.e[d->project];
		uint64_t at = hash_mix(hash_add_str(hash_add_str(
		    MIRROR_HASH_INIT, e->a), e->b));
		unsigned w = spare_bits(count[d->project]);

		/* At least SEARCH_WINDOW_BITS: a project of few documents
		 * of a kind (a conflict or two) keeps its place as they
		 * come and go. */
		w = w < SEARCH_WINDOW_BITS ? SEARCH_WINDOW_BITS : w;

		d->num = (at & ring) + (d->h & ((UINT64_C(1) << w) - 1));
	}
	free(count);
}

/*
 * Number every document of kind k and write its chunks: each takes the
 * slot it asks for (ask_slots), or the next free one after those that
 * asked for the same or a lower one (in slot order), so adding or
 * removing a document moves no other but a neighbour it collides
 * with; its number is its slot past the kind's base (x->base[k]).
 * Returns 0 or < 0 with err set.
 */
static int
number_kind(struct search_index *x, int k, struct chunk_out *co,
    mirror_error *err)
{
	uint32_t *ord = xcalloc(x->per_kind[k] + 1, sizeof(*ord));
	struct doc_key *key;
	size_t n = 0;
	uint64_t next = 0, chunk = 0;
	int rc = 0;

	for (size_t i = 0; i < x->n_docs; i++)
		if (x->docs[i].kind == k)
			ord[n++] = (uint32_t)i;
	ask_slots(x, ord, n);
	key = xcalloc(n + 1, sizeof(*key));
	for (size_t i = 0; i < n; i++)
		key[i] = (struct doc_key){ x->docs[ord[i]].num,
		    x->docs[ord[i]].h, ord[i] };
	qsort(key, n, sizeof(*key), doc_cmp);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct doc *d = &x->docs[key[i].i];
		uint64_t slot = key[i].want;

		if (i > 0 && slot < next)
			slot = next;
		next = slot + 1;
		if (x->base[k] + slot >= x->end[k]) {
			rc = mirror_fail(err, MIRROR_EIO, "internal: search "
			    "slot %llu past its kind's", (unsigned long long)slot);
			break;
		}
		d->num = x->base[k] + slot;
		if (i > 0 && chunk_of(slot, k) != chunk)
			rc = chunk_write(x, co, chunk, err);
		chunk = chunk_of(slot, k);
		chunk_put(co, x, d, slot);
	}
	if (rc == 0 && n > 0)
		rc = chunk_write(x, co, chunk, err);
	free(key);
	free(ord);
	return rc;
}

/* Number every document and write the record chunks. Returns 0 or < 0
 * with err set. */
static int
write_chunks(struct search_index *x, mirror_error *err)
{
	struct chunk_out co;
	int rc = 0;

	memset(&co, 0, sizeof(co));
	strbuf_init(&co.recs);
	co.projects.local = xcalloc(x->projects.n + 1, sizeof(uint32_t));
	co.statuses.local = xcalloc(x->statuses.n + 1, sizeof(uint32_t));
	/* The facts' numbers first: the conflicts' and checks' move when
	 * a kind before them passes a power of two, and the facts are the
	 * most. Each kind takes twice its ring. */
	for (int i = 0; i < 3; i++) {
		static const int order[3] = { 2, 0, 1 };
		int k = order[i];

		x->base[k] = i == 0 ? 0 : x->end[order[i - 1]];
		x->end[k] = x->base[k] + (UINT64_C(2) <<
		    kind_bits(x->per_kind[k]));
	}
	for (int k = 0; rc == 0 && k < 3; k++)
		rc = number_kind(x, k, &co, err);
	strbuf_free(&co.recs);
	free(co.projects.local);
	free(co.projects.used);
	free(co.statuses.local);
	free(co.statuses.used);
	return rc;
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

/* qsort order of document numbers. */
static int
num_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* t's postings onto sb: when it keeps a sample of a kind, first the
 * documents of each kind ("<conflicts>.<checks>.<facts>;"), then the
 * numbers of the documents kept in increasing order, as base-36
 * differences joined by ",". nums is scratch room for t->n numbers. */
static void
put_postings(strbuf *sb, const struct term *t, const struct doc *docs,
    uint64_t *nums)
{
	if ((t->bits[0] | t->bits[1] | t->bits[2]) != 0) {
		for (int k = 0; k < 3; k++) {
			put36(sb, t->tot[k]);
			strbuf_putc(sb, k < 2 ? '.' : ';');
		}
	}
	for (size_t i = 0; i < t->n; i++)
		nums[i] = docs[term_posts(t)[i]].num;
	qsort(nums, t->n, sizeof(*nums), num_cmp);
	for (size_t i = 0; i < t->n; i++) {
		if (i > 0)
			strbuf_putc(sb, ',');
		put36(sb, i == 0 ? nums[0] : nums[i] - nums[i - 1]);
	}
}

/* A term as term_list_make sorts them: its text and its index. */
struct term_key {
	const char *s;
	size_t i;
};

/* qsort order of term_keys: by the terms' bytes. */
static int
term_cmp(const void *a, const void *b)
{
	return strcmp(((const struct term_key *)a)->s,
	    ((const struct term_key *)b)->s);
}

/* The terms in byte order, each with its postings' text: what the
 * shards are cut from. */
struct term_list {
	size_t *ord;            /* term indexes, in byte order */
	size_t *post_at;        /* per place in ord: its postings in text */
	strbuf text;
};

/* Sort x's terms into tl and write their postings. */
static void
term_list_make(struct term_list *tl, const struct search_index *x)
{
	struct term_key *key = xcalloc(x->n_terms + 1, sizeof(*key));
	size_t most = 1;
	uint64_t *nums;

	tl->ord = xcalloc(x->n_terms + 1, sizeof(*tl->ord));
	tl->post_at = xcalloc(x->n_terms + 1, sizeof(*tl->post_at));
	strbuf_init(&tl->text);
	for (size_t i = 0; i < x->n_terms; i++) {
		key[i] = (struct term_key){ term_text(x, &x->terms[i]), i };
		most = x->terms[i].n > most ? x->terms[i].n : most;
	}
	qsort(key, x->n_terms, sizeof(*key), term_cmp);
	for (size_t i = 0; i < x->n_terms; i++)
		tl->ord[i] = key[i].i;
	free(key);
	nums = xcalloc(most, sizeof(*nums));
	for (size_t i = 0; i < x->n_terms; i++) {
		const struct term *t = &x->terms[tl->ord[i]];

		tl->post_at[i] = tl->text.len;
		put_postings(&tl->text, t, x->docs, nums);
		strbuf_putc(&tl->text, '\0');
	}
	free(nums);
}

static void
term_list_free(struct term_list *tl)
{
	free(tl->ord);
	free(tl->post_at);
	strbuf_free(&tl->text);
}

/* The entry of term s with postings post onto sb, its first pre bytes
 * those of the term before it: pre as a base-36 digit, the rest of the
 * term, a space, the postings (escaped for the shard's string). */
static void
term_entry(strbuf *sb, const char *s, const char *post, size_t pre)
{
	put36(sb, pre);
	put_escaped(sb, s + pre);
	strbuf_putc(sb, ' ');
	strbuf_puts(sb, post);
}

#define SHARD_KEY 40

/* The name of the shard whose first term is s, 12 hex digits of its
 * hash, into out: a shard keeps its file while its first term stays.
 * One that another shard of this index has (never seen yet) gets
 * "-<k>" after it, k its place. */
static void
shard_key(char out[SHARD_KEY], const char *s, size_t k,
    struct hashtab *seen)
{
	char hex[17];
	uint64_t h = hash_mix(hash_add_str(MIRROR_HASH_INIT, s));
	int added;

	hash_hex(hex, h);
	h = (h >> 16) == 0 ? 1 : h >> 16;
	(void)hashtab_put(seen, h, &added);
	/* 12 digits, "-" and a size_t's at most 20 fit SHARD_KEY. */
	if (added)
		(void)snprintf(out, SHARD_KEY, "%.12s", hex);
	else
		(void)snprintf(out, SHARD_KEY, "%.12s-%zu", hex, k);
}

/* Write shard key, whose entries are body, as search/t-<key>.js.
 * Returns 0 or < 0 with err set. */
static int
shard_write(struct search_index *x, const char *key, const strbuf *body,
    mirror_error *err)
{
	char path[64];
	strbuf sb;
	int rc;

	/* key is at most SHARD_KEY - 1 bytes: the path fits. */
	(void)snprintf(path, sizeof(path), "search/t-%s.js", key);
	strbuf_init(&sb);
	strbuf_printf(&sb, "mirrorSearch.t(\"%s\",\"", key);
	strbuf_add(&sb, body->data, body->len);
	strbuf_puts(&sb, "\");\n");
	rc = put_file(x, path, &sb, err);
	strbuf_free(&sb);
	return rc;
}

/* A shard being filled: its entries and its first term. */
struct shard_out {
	strbuf body, entry;
	const char *first;
	size_t k;               /* its place */
	struct hashtab keys;    /* the keys given so far */
};

/* Write the shard so being filled, its key and first term onto man's
 * lists keys and first. Returns 0 or < 0 with err set. */
static int
shard_end(struct search_index *x, struct shard_out *so, strbuf *first,
    strbuf *keys, mirror_error *err)
{
	char key[SHARD_KEY];
	int rc;

	shard_key(key, so->first, so->k, &so->keys);
	strbuf_puts(first, so->k > 0 ? ",\n" : "");
	json_quote(first, so->first, 1);
	strbuf_printf(keys, "%s\"%s\"", so->k > 0 ? "," : "", key);
	rc = shard_write(x, key, &so->body, err);
	strbuf_reset(&so->body);
	so->k++;
	return rc;
}

/*
 * Every term in byte order, cut into shards where a term's hash has
 * its low bits zero, log2 SEARCH_SHARD_TERMS of them (content-defined,
 * and the same for every store: a term added or gone moves
 * no cut but its own), or where a shard would pass 3 * SEARCH_SHARD
 * bytes; each shard's first term onto first and its key onto keys, the
 * manifest's lists. Returns 0 or < 0 with err set.
 */
static int
write_shards(struct search_index *x, strbuf *first, strbuf *keys,
    mirror_error *err)
{
	struct term_list tl;
	struct shard_out so;
	uint64_t mask;
	int rc = 0;

	term_list_make(&tl, x);
	mask = SEARCH_SHARD_TERMS - 1;
	memset(&so, 0, sizeof(so));
	strbuf_init(&so.body);
	strbuf_init(&so.entry);
	hashtab_init(&so.keys, sizeof(uint64_t));
	for (size_t i = 0; rc == 0 && i < x->n_terms; i++) {
		const char *s = term_text(x, &x->terms[tl.ord[i]]);
		const char *post = tl.text.data + tl.post_at[i];
		uint64_t h = hash_mix(hash_add_str(MIRROR_HASH_INIT, s));

		strbuf_reset(&so.entry);
		term_entry(&so.entry, s, post, so.body.len > 0 ?
		    shared_prefix(term_text(x, &x->terms[tl.ord[i - 1]]), s) :
		    0);
		if (so.body.len > 0 && ((h & mask) == 0 || so.body.len +
		    so.entry.len > 3 * (size_t)SEARCH_SHARD)) {
			rc = shard_end(x, &so, first, keys, err);
			strbuf_reset(&so.entry);
			term_entry(&so.entry, s, post, 0);
		}
		if (so.body.len == 0)
			so.first = s;
		else
			strbuf_putc(&so.body, ' ');
		strbuf_add(&so.body, so.entry.data, so.entry.len);
	}
	if (rc == 0 && so.body.len > 0)
		rc = shard_end(x, &so, first, keys, err);
	strbuf_free(&so.body);
	strbuf_free(&so.entry);
	hashtab_free(&so.keys);
	term_list_free(&tl);
	return rc;
}

int
search_index_finish(struct search_index *x, mirror_error *err)
{
	strbuf man, first, keys;
	int rc;

	rc = write_chunks(x, err);
	strbuf_init(&man);
	strbuf_init(&first);
	strbuf_init(&keys);
	if (rc == 0)
		rc = write_shards(x, &first, &keys, err);
	strbuf_printf(&man, "mirrorSearch.m({\"v\":%d,\"chunk\":%d,"
	    "\"docs\":%zu,\"kinds\":{", SEARCH_VERSION, 1 << SEARCH_SLOT_BITS,
	    x->n_docs);
	for (int k = 0; k < 3; k++)
		strbuf_printf(&man, "%s\"%c\":[%llu,%llu]", k > 0 ? "," : "",
		    kinds[k], (unsigned long long)x->base[k],
		    (unsigned long long)x->end[k]);
	/* What an update (search_patch.c) needs to number as this build
	 * did: each kind's documents, and the key of what else the
	 * records show. */
	strbuf_printf(&man, "},\"per\":[%zu,%zu,%zu],\"key\":",
	    x->per_kind[0], x->per_kind[1], x->per_kind[2]);
	json_quote(&man, x->key != NULL ? x->key : "", 1);
	strbuf_puts(&man, ",\"keys\":[");
	strbuf_add(&man, keys.data, keys.len);
	strbuf_puts(&man, "],\"first\":[\n");
	strbuf_add(&man, first.data, first.len);
	strbuf_puts(&man, "]});\n");
	if (rc == 0)
		rc = put_file(x, "search/index.js", &man, err);
	strbuf_free(&man);
	strbuf_free(&first);
	strbuf_free(&keys);
	return rc;
}

void
search_index_free(struct search_index *x)
{
	if (x == NULL)
		return;
	for (size_t i = 0; i < x->n_terms; i++)
		free(x->terms[i].post);
	free(x->terms);
	strbuf_free(&x->words);
	free(x->docs);
	hashtab_free(&x->tab);
	strbuf_free(&x->recs);
	tab_free(&x->projects);
	tab_free(&x->statuses);
	free(x->key);
	free(x);
}
