/*
 * search_index.c: the search index's terms, postings and files
 * (search_index.h says what the files hold).
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/search_files.h"
#include "search/search_index_int.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/hashtab.h"
#include "util/jsonwrite.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"

/* The longest term kept, in bytes; longer runs are not indexed. */
#define TERM_MAX 64

/* A whole build's records held before they are written to its spill
 * file, and the window of that file read back at once: a chunk's
 * records are a few projects', each project's added together. */
#define REC_HOLD ((size_t)256 << 10)
#define REC_WINDOW ((size_t)64 << 10)

/* The most bytes of a project's records of a kind read back at once:
 * a chunk asks for them in the order of their slots, none of their
 * own. */
#define REC_SPAN ((uint64_t)1 << 20)

/* A whole build's terms held (terms_used) before they are written out
 * as a run, and the buffer each run is written and read back through. */
#define TERM_HOLD ((size_t)2 << 20)
#define RUN_BUF ((size_t)32 << 10)

/* What every index of the process holds now, and the most it held
 * since search_held_mark (search_index.h). */
static atomic_llong held_now, held_peak;

/* Add delta (< 0: given back) to the bytes held now, raising the
 * peak. Returns nothing. */
static void
held_add(long long delta)
{
	long long now = atomic_fetch_add_explicit(&held_now, delta,
	    memory_order_relaxed) + delta;
	long long p = atomic_load_explicit(&held_peak, memory_order_relaxed);

	while (now > p && !atomic_compare_exchange_weak_explicit(&held_peak,
	    &p, now, memory_order_relaxed, memory_order_relaxed))
		;
}

void
search_held_mark(void)
{
	atomic_store_explicit(&held_peak, atomic_load_explicit(&held_now,
	    memory_order_relaxed), memory_order_relaxed);
}

unsigned long long
search_held_peak(void)
{
	long long p = atomic_load_explicit(&held_peak, memory_order_relaxed);

	return p > 0 ? (unsigned long long)p : 0;
}

struct search_index *
search_index_new(search_put_fn put, void *arg)
{
	struct search_index *x = xcalloc(1, sizeof(*x));

	x->put = put;
	x->arg = arg;
	hashtab_init(&x->projects.at, sizeof(struct tab_slot));
	hashtab_init(&x->statuses.at, sizeof(struct tab_slot));
	strbuf_init(&x->recs);
	strbuf_init(&x->words);
	x->rec_spill = (struct spill)SPILL_INIT;
	x->run_spill = (struct spill)SPILL_INIT;
	x->rec_hold = REC_HOLD;
	x->term_hold = TERM_HOLD;
	return x;
}

void
search_index_set_hold(struct search_index *x, size_t rec, size_t term)
{
	x->rec_hold = rec;
	x->term_hold = term;
}

struct search_index *
search_index_new_whole(search_put_fn put, void *arg)
{
	struct search_index *x = search_index_new(put, arg);

	x->whole = 1;
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

/* Keep doc as t's next posting, the room of x's post arrays counted. */
static void
term_keep(struct search_index *x, struct term *t, uint32_t doc)
{
	if (t->n == 0 && t->post == NULL) {
		t->n = 1;               /* held in last */
		return;
	}
	if (t->post == NULL) {
		t->post = xcalloc(post_room(2), sizeof(*t->post));
		t->post[0] = t->last;
		x->post_bytes += post_room(2) * sizeof(*t->post);
	} else if (t->n == post_room(t->n)) {
		t->post = xreallocarray(t->post, post_room(t->n + 1),
		    sizeof(*t->post));
		x->post_bytes += (post_room(t->n + 1) - t->n) *
		    sizeof(*t->post);
	}
	t->post[t->n++] = doc;
}

/* The bytes table t holds: its entries' room, its table's, their
 * strings. */
static size_t
tab_bytes(const struct tab *t)
{
	return t->cap * sizeof(*t->e) + t->at.cap * t->at.size + t->bytes;
}

/* Bring what the bytes held have of x to what x holds now (the room
 * of its arrays, as allocated), plus extra bytes its caller holds for
 * it. Returns nothing. */
static void
held_update(struct search_index *x, size_t extra)
{
	size_t now = sizeof(*x) + x->cap_terms * sizeof(*x->terms) +
	    x->words.cap + x->post_bytes + x->cap_docs * sizeof(*x->docs) +
	    x->recs.cap + x->tab.cap * sizeof(*x->tab.slot) +
	    tab_bytes(&x->projects) + tab_bytes(&x->statuses) + extra;

	held_add((long long)now - (long long)x->held);
	x->held = now;
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

		if (d->kind != k || search_sample_keeps(d->h, t->bits[k]))
			t->post[w++] = t->post[i];
	}
	t->n = w;
}

/* 2^64 divided by the golden ratio: spreads every bit of a hash. */
#define FIBONACCI UINT64_C(0x9e3779b97f4a7c15)

/* The first slot of tab that hash h probes. */
static size_t
tab_home(const struct term_table *tab, uint64_t h)
{
	return (size_t)((h * FIBONACCI) >> tab->shift);
}

/* Room in x->tab for one more term: twice the slots, its terms placed
 * again, when it would be more than half full. */
static void
tab_grow(struct search_index *x)
{
	struct term_table *tab = &x->tab;
	size_t cap = tab->cap != 0 ? tab->cap : 1024;

	if (x->n_terms + 1 <= tab->cap / 2)
		return;
	while (cap / 2 < x->n_terms + 1)
		cap *= 2;
	free(tab->slot);
	/* Zeroed by writing (hashtab.c's rehash says why not calloc). */
	tab->slot = xreallocarray(NULL, cap, sizeof(*tab->slot));
	xprefault(tab->slot, cap * sizeof(*tab->slot));
	memset(tab->slot, 0, cap * sizeof(*tab->slot));
	tab->cap = cap;
	tab->shift = 64;
	for (size_t c = cap; c > 1; c >>= 1)
		tab->shift--;
	for (size_t i = 0; i < x->n_terms; i++) {
		const char *w = term_text(x, &x->terms[i]);
		uint64_t h = hash_add(MIRROR_HASH_INIT, w, strlen(w));
		size_t pos = tab_home(tab, h);

		while (tab->slot[pos] != 0)
			pos = (pos + 1) & (tab->cap - 1);
		tab->slot[pos] = (h & ~UINT64_C(0xffffffff)) | (i + 1);
	}
}

/*
 * The term of the len bytes at s, added (empty, its text kept) when x
 * has none. Its index is held in 32 bits: 2^32 terms would take 160 GB
 * of struct term first. Returns the term.
 */
static struct term *
term_find(struct search_index *x, const char *s, size_t len)
{
	uint64_t h = hash_add(MIRROR_HASH_INIT, s, len);
	uint64_t hi = h & ~UINT64_C(0xffffffff);
	struct term *t;
	size_t pos;

	tab_grow(x);
	for (pos = tab_home(&x->tab, h); x->tab.slot[pos] != 0;
	    pos = (pos + 1) & (x->tab.cap - 1)) {
		uint64_t e = x->tab.slot[pos];
		const char *cs;

		if ((e & ~UINT64_C(0xffffffff)) != hi)
			continue;
		t = &x->terms[(e & 0xffffffff) - 1];
		cs = term_text(x, t);
		if (strncmp(cs, s, len) == 0 && cs[len] == '\0')
			return t;
	}
	x->tab.slot[pos] = hi | (uint64_t)(x->n_terms + 1);
	t = &ARRAY_PUSH(x->terms, x->n_terms, x->cap_terms);
	memset(t, 0, sizeof(*t));
	t->s = x->words.len;
	t->last = UINT32_MAX;   /* no document yet: none is numbered so
	                           (search_index_add) */
	strbuf_add(&x->words, s, len);
	strbuf_putc(&x->words, '\0');
	return t;
}

/* The posting of document doc for the term of len bytes at s. */
static void
term_add(struct search_index *x, const char *s, size_t len, uint32_t doc)
{
	struct term *t = term_find(x, s, len);
	int k = x->kind;

	if (t->last == doc)
		return;                 /* twice in one document */
	t->tot[k]++;
	if (x->whole || search_sample_keeps(x->docs[doc].h, t->bits[k]))
		term_keep(x, t, doc);   /* before last moves on: it may
		                           hold the one posting kept */
	if (!x->whole && t->tot[k] > ((uint32_t)KIND_CAP << t->bits[k]))
		term_sample(x, t, k);
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

/* Every term of s (a title: a key, a name) once more, as the term and
 * SEARCH_NAMED ("key!"), into document doc: which documents hold a word
 * in their title, so search.js ranks every match before it loads a
 * record (search_index.h). The mark sorts just after the term, so the
 * two share a shard but where a cut falls between them. */
static void
index_named(struct search_index *x, const char *s, uint32_t doc)
{
	char buf[TERM_MAX + 1];
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
		if (n > 0 && !over) {
			buf[n] = SEARCH_NAMED;
			term_add(x, buf, n + 1, doc);
		}
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
	/* "x!" is the mark of a title's term (index_named), not a whole. */
	if (!plain && buf[len - 1] != SEARCH_NAMED)
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

/* Entry (a, b) as a chunk's table holds it: ["a","b"], or "a" when b
 * is NULL; the caller frees it. */
static char *
tab_json(const char *a, const char *b)
{
	strbuf sb;

	strbuf_init(&sb);
	strbuf_puts(&sb, b != NULL ? "[" : "");
	json_quote(&sb, a, 1);
	if (b != NULL) {
		strbuf_putc(&sb, ',');
		json_quote(&sb, b, 1);
		strbuf_putc(&sb, ']');
	}
	return strbuf_detach(&sb);
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
	e->json = tab_json(e->a, e->b);
	t->bytes += strlen(e->a) + 1 + (b != NULL ? strlen(e->b) + 1 : 0) +
	    strlen(e->json) + 1;
	return ts->i;
}

/* Free t's entries and table, leaving it empty. */
static void
tab_free(struct tab *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->e[i].a);
		free(t->e[i].b);
		free(t->e[i].json);
	}
	free(t->e);
	t->e = NULL;
	t->n = t->cap = t->bytes = 0;
	hashtab_free(&t->at);
}

/* The URL of d (layer code l) as its record ends onto c: nothing when
 * search.js makes it (x's template for l filled in with d's project
 * slug and id, search_url_fill), the id as the record holds it
 * (cut_text: a long id is cut there, and a page's anchor names it by
 * its slug, so the two differ and the URL is written), [page] when it
 * is page#id, else ,"url" whole (the pages' URLs are made of slugs,
 * which are short). */
static void
put_url(strbuf *c, const struct search_index *x, const struct search_doc *d,
    int l, const char *id)
{
	const char *url = d->url != NULL ? d->url : "";
	const char *pslug = d->pslug != NULL ? d->pslug : "";
	const char *t = x->urls[l][pslug[0] != '\0' ? 0 : 1];
	size_t ul = strlen(url), il = strlen(id);
	strbuf want;

	strbuf_init(&want);
	if (t != NULL)
		search_url_fill(&want, t, pslug, id);
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

static size_t *term_order(const struct search_index *x);

/* The bytes x's terms use now (not their arrays' room, which the next
 * run uses again): a term, its two slots of the table (at most half
 * full), its text, its postings. */
static size_t
terms_used(const struct search_index *x)
{
	return x->n_terms * (sizeof(struct term) + 2 * sizeof(uint64_t)) +
	    x->words.len + x->post_bytes;
}

/* Forget x's terms and their postings, keeping the room of its arrays
 * and table for the terms of the next run. */
static void
terms_clear(struct search_index *x)
{
	for (size_t i = 0; i < x->n_terms; i++)
		free(x->terms[i].post);
	x->n_terms = 0;
	x->post_bytes = 0;
	strbuf_reset(&x->words);
	if (x->tab.slot != NULL)
		memset(x->tab.slot, 0, x->tab.cap * sizeof(*x->tab.slot));
}

/*
 * Write x's terms in byte order as one more run of its run_spill, then
 * forget them: each as its length (a byte), its text, its documents of
 * each kind and postings kept (uint32_t each) and the postings (the
 * documents' order of adding; a run's postings keep a superset of the
 * sample the whole term keeps, as its documents are fewer). Returns 0
 * or < 0 with err set.
 */
static int
run_write(struct search_index *x, mirror_error *err)
{
	size_t *ord = term_order(x);
	uint64_t start = x->run_spill.size, off;
	strbuf sb;
	int rc = 0;

	strbuf_init(&sb);
	for (size_t i = 0; rc == 0 && i < x->n_terms; i++) {
		const struct term *t = &x->terms[ord[i]];
		const char *s = term_text(x, t);
		unsigned char len = (unsigned char)strlen(s);
		uint32_t head[4] = { t->tot[0], t->tot[1], t->tot[2], t->n };

		strbuf_add(&sb, (const char *)&len, 1);
		strbuf_add(&sb, s, len);
		strbuf_add(&sb, (const char *)head, sizeof(head));
		strbuf_add(&sb, (const char *)term_posts(t),
		    t->n * sizeof(uint32_t));
		if (sb.len >= RUN_BUF || i + 1 == x->n_terms) {
			rc = spill_write(&x->run_spill, sb.data, sb.len, &off,
			    err);
			strbuf_reset(&sb);
		}
	}
	if (rc == 0 && x->n_terms > 0)
		ARRAY_PUSH(x->runs, x->n_runs, x->cap_runs) =
		    (struct search_run_at){ start, x->run_spill.size };
	strbuf_free(&sb);
	free(ord);
	terms_clear(x);
	return rc;
}

/* Write x's records held to its spill file once they pass REC_HOLD
 * bytes (a whole build's; an update's indexes hold theirs). Returns 0
 * or < 0 with err set. */
static int
recs_hold(struct search_index *x, mirror_error *err)
{
	uint64_t off;

	if (x->whole || x->recs.len < x->rec_hold)
		return 0;
	if (spill_write(&x->rec_spill, x->recs.data, x->recs.len, &off,
	    err) < 0)
		return -1;
	strbuf_reset(&x->recs);
	return 0;
}

/* Template t of record layer l, [own], into x (copied; NULL none). */
static void
url_set(struct search_index *x, int l, int own, const char *t)
{
	free(x->urls[l][own]);
	x->urls[l][own] = t != NULL ? xstrdup(t) : NULL;
}

void
search_index_set_urls(struct search_index *x, const struct search_urls *u)
{
	for (int own = 0; own < 2; own++) {
		for (int f = LAYER_MEMORY; f <= LAYER_STATE; f++)
			url_set(x, search_rec_layer(SEARCH_FACT,
			    (enum fact_layer)f), own, u->fact[f][own]);
		url_set(x, search_rec_layer(SEARCH_CONFLICT, 0), own,
		    u->conflict[own]);
		url_set(x, search_rec_layer(SEARCH_CHECK, 0), own,
		    u->check[own]);
		url_set(x, search_rec_layer(SEARCH_PROJECT, 0), own,
		    u->project[own]);
	}
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
	int l = search_rec_layer(d->what, d->layer);
	uint32_t seq;
	strbuf *c = &x->recs, id, cut;
	struct doc *dd;
	size_t at;

	if (l < 0)
		return mirror_fail(err, MIRROR_EIO, "internal: search "
		    "document %d of layer %d", (int)d->what, (int)d->layer);
	if (x->n_docs >= UINT32_MAX)
		return mirror_fail(err, MIRROR_EIO, "search index: more than "
		    "%u documents", (unsigned)UINT32_MAX);
	seq = (uint32_t)x->n_docs;
	x->kind = (int)search_kind_of(d->what);
	x->per_kind[x->kind]++;
	dd = &ARRAY_PUSH(x->docs, x->n_docs, x->cap_docs);
	memset(dd, 0, sizeof(*dd));
	dd->kind = (uint8_t)x->kind;
	dd->layer = (uint32_t)l;
	dd->flags = (uint8_t)(d->flags & 3);
	dd->h = hash_mix(hash_add_str(hash_add_str(MIRROR_HASH_INIT,
	    search_layer_name(l)), d->id));
	/* A project's own page is in every sample (its hash's high half,
	 * which search_sample_keeps reads, zero): a common word of its
	 * name ("project") still finds it. One in some hundreds of the
	 * facts' kind, so a sample grows by the projects alone. */
	if (d->what == SEARCH_PROJECT)
		dd->h &= UINT64_C(0xffffffff);
	strbuf_init(&id);
	strbuf_init(&cut);
	/* The record's text as the pages cut it; the terms below are of
	 * the whole text, so a search finds what the record cuts. */
	cut_text(&id, d->id);
	at = c->len;
	dd->off = x->rec_spill.size + at;
	json_quote(c, cut_text(&cut, d->title), 1);
	strbuf_putc(c, ',');
	json_quote(c, cut_text(&cut, d->value), 1);
	dd->hlen = (uint32_t)(c->len - at);
	dd->project = tab_index(&x->projects, cut_text(&cut, d->project),
	    d->pslug != NULL ? d->pslug : "");
	dd->status = tab_index(&x->statuses, cut_text(&cut, d->status), NULL);
	at = c->len;
	json_quote(c, id.data, 1);
	put_url(c, x, d, l, id.data);
	dd->tlen = (uint32_t)(c->len - at);
	strbuf_free(&id);
	strbuf_free(&cut);
	index_text(x, d->title, seq);
	index_named(x, d->title, seq);
	index_text(x, d->value, seq);
	index_text(x, d->id, seq);
	index_text(x, d->text, seq);
	index_whole(x, d->id, seq);
	index_whole(x, d->title, seq);
	held_update(x, 0);
	if (!x->whole && terms_used(x) > x->term_hold && run_write(x, err) < 0)
		return -1;
	return recs_hold(x, err);
}

/* Whether a sorts before b: by want, then h, then i (a total order). */
static int
key_before(const struct doc_key *a, const struct doc_key *b)
{
	if (a->want != b->want)
		return a->want < b->want;
	if (a->h != b->h)
		return a->h < b->h;
	return a->i < b->i;
}

/* qsort order of doc_keys: key_before's, as -1, 0 or 1. */
int
search_doc_cmp(const void *a, const void *b)
{
	const struct doc_key *x = a, *y = b;

	return key_before(x, y) ? -1 : key_before(y, x);
}

static void
key_swap(struct doc_key *a, struct doc_key *b)
{
	struct doc_key t = *a;

	*a = *b;
	*b = t;
}

/* k[at] sifted down the max-heap k[0..n). */
static void
key_sift(struct doc_key *k, size_t at, size_t n)
{
	for (size_t c; (c = 2 * at + 1) < n; at = c) {
		if (c + 1 < n && key_before(&k[c], &k[c + 1]))
			c++;
		if (!key_before(&k[at], &k[c]))
			return;
		key_swap(&k[at], &k[c]);
	}
}

/* k[0..n) by heapsort. */
static void
key_heapsort(struct doc_key *k, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		key_sift(k, i, n);
	for (size_t end = n; end > 1; end--) {
		key_swap(&k[0], &k[end - 1]);
		key_sift(k, 0, end - 1);
	}
}

/* Hoare's partition of k[0..n), n > 2, around the median of its first,
 * middle and last keys: k[0..j] all before k[j+1..n). Returns j + 1
 * (0 < j + 1 < n: the keys are distinct). */
static size_t
key_partition(struct doc_key *k, size_t n)
{
	size_t m = n / 2, i = 0, j = n - 1;
	struct doc_key p;

	if (key_before(&k[m], &k[0]))
		key_swap(&k[m], &k[0]);
	if (key_before(&k[n - 1], &k[m])) {
		key_swap(&k[n - 1], &k[m]);
		if (key_before(&k[m], &k[0]))
			key_swap(&k[m], &k[0]);
	}
	p = k[m];
	for (;;) {
		while (key_before(&k[i], &p))
			i++;
		while (key_before(&p, &k[j]))
			j--;
		if (i >= j)
			return j + 1;
		key_swap(&k[i], &k[j]);
		i++;
		j--;
	}
}

void
search_doc_sort(struct doc_key *k, size_t n, unsigned depth)
{
	while (n > 16) {
		size_t cut;

		if (depth == 0) {
			key_heapsort(k, n);
			return;
		}
		depth--;
		cut = key_partition(k, n);
		/* The smaller side by recursion, the larger in the loop:
		 * the stack stays within log2(n) frames. */
		if (cut < n - cut) {
			search_doc_sort(k, cut, depth);
			k += cut;
			n -= cut;
		} else {
			search_doc_sort(k + cut, n - cut, depth);
			n = cut;
		}
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && key_before(&k[j], &k[j - 1]); j--)
			key_swap(&k[j], &k[j - 1]);
}

void
search_ask_slots(struct search_index *x, const uint32_t *ord, size_t n,
    unsigned ring_bits)
{
	size_t np = x->projects.n;
	uint32_t *count = xcalloc(np + 1, sizeof(*count));
	uint64_t ring = (UINT64_C(1) << ring_bits) - 1;

	for (size_t i = 0; i < n; i++)
		count[x->docs[ord[i]].project]++;
	for (size_t i = 0; i < n; i++) {
		struct doc *d = &x->docs[ord[i]];
		const struct tab_entry *e = &x->projects.e[d->project];
		unsigned w = search_window_bits(count[d->project]);

		d->num = (search_place(e->a, e->b) & ring) +
		    (d->h & ((UINT64_C(1) << w) - 1));
	}
	free(count);
}

struct doc_key *
search_kind_keys(struct search_index *x, int k, unsigned ring_bits,
    size_t *n)
{
	uint32_t *ord = xcalloc(x->per_kind[k] + 1, sizeof(*ord));
	struct doc_key *key;

	*n = 0;
	for (size_t i = 0; i < x->n_docs; i++)
		if (x->docs[i].kind == k)
			ord[(*n)++] = (uint32_t)i;
	search_ask_slots(x, ord, *n, ring_bits);
	key = xcalloc(*n + 1, sizeof(*key));
	for (size_t i = 0; i < *n; i++)
		key[i] = (struct doc_key){ x->docs[ord[i]].num,
		    x->docs[ord[i]].h, ord[i] };
	free(ord);
	search_doc_sort(key, *n, 2 * search_kind_bits(*n));
	return key;
}

void
search_doc_rec(struct chunk_rec *r, const struct search_index *x,
    const struct doc *d, uint64_t slot, int moved)
{
	r->lo = slot & ((UINT64_C(1) << SEARCH_SLOT_BITS) - 1);
	r->code = search_rec_code(d->layer, moved, d->flags);
	r->head = x->recs.data + d->off;
	r->hlen = d->hlen;
	r->tail = x->recs.data + d->off + d->hlen;
	r->tlen = d->tlen;
	r->proj = x->projects.e[d->project].json;
	r->status = x->statuses.e[d->status].json;
}

/* What number_kind reads the records of a chunk into: the chunk's
 * number and its records recs[0..nr), their text (at at[i], the ith
 * record's), and the window of x's spill file it read last (bytes
 * [woff, woff + win.len)); and the chunk's file text. */
struct rec_read {
	uint64_t chunk;
	struct chunk_rec *recs;
	size_t nr, cap;
	strbuf text, win, file;
	size_t *at;
	uint64_t woff;
	uint64_t *lo, *hi;      /* of each project, the bytes of the spill
	                           file its records of the kind span */
};

/* Document d's record text (head and tail) of x onto rr->text, from
 * x->recs or its spill file. Returns 0 or < 0 with err set. */
static int
rec_fetch(struct search_index *x, struct rec_read *rr, const struct doc *d,
    mirror_error *err)
{
	size_t need = (size_t)d->hlen + d->tlen, len;
	uint64_t end = x->rec_spill.size;

	if (d->off >= end) {
		strbuf_add(&rr->text, x->recs.data + (d->off - end), need);
		return 0;
	}
	if (d->off < rr->woff || d->off + need > rr->woff + rr->win.len) {
		uint64_t at = d->off;

		len = need > REC_WINDOW ? need : REC_WINDOW;
		/* A project's records in one read, as the slots ask for
		 * them in no order of their own. */
		if (rr->hi[d->project] - rr->lo[d->project] <= REC_SPAN) {
			at = rr->lo[d->project];
			len = (size_t)(rr->hi[d->project] - at);
		}
		if (len > end - at)
			len = (size_t)(end - at);
		strbuf_reset(&rr->win);
		strbuf_grow(&rr->win, len);
		if (spill_read(&x->rec_spill, at, rr->win.data, len,
		    err) < 0)
			return -1;
		rr->win.len = len;
		rr->woff = at;
	}
	strbuf_add(&rr->text, rr->win.data + (d->off - rr->woff), need);
	return 0;
}

/* Write rr's chunk, its records and their text, and start rr's
 * records and text again. Returns 0 or < 0 with err set. */
static int
chunk_write(struct search_index *x, struct rec_read *rr, mirror_error *err)
{
	struct chunk_rec *r = rr->recs;
	char path[64];
	int rc;

	for (size_t i = 0; i < rr->nr; i++) {
		r[i].head = rr->text.data + rr->at[i];
		r[i].tail = r[i].head + r[i].hlen;
	}
	search_chunk_path(path, rr->chunk);
	search_chunk_text(&rr->file, rr->chunk, r, rr->nr);
	rc = put_file(x, path, &rr->file, err);
	strbuf_reset(&rr->text);
	rr->nr = 0;
	return rc;
}

/* Of each project of x, the bytes of x's spill file its documents at
 * key[0..n) span, into rr->lo and rr->hi (the caller frees them). */
static void
rec_spans(struct rec_read *rr, const struct search_index *x,
    const struct doc_key *key, size_t n)
{
	uint64_t end = x->rec_spill.size;

	rr->lo = xcalloc(x->projects.n + 1, sizeof(*rr->lo));
	rr->hi = xcalloc(x->projects.n + 1, sizeof(*rr->hi));
	for (size_t p = 0; p <= x->projects.n; p++)
		rr->lo[p] = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct doc *d = &x->docs[key[i].i];
		uint64_t e = d->off + d->hlen + d->tlen;

		if (d->off >= end)
			continue;
		if (d->off < rr->lo[d->project])
			rr->lo[d->project] = d->off;
		if (e > rr->hi[d->project])
			rr->hi[d->project] = e;
	}
}

/*
 * Number every document of kind k and write its chunks: each takes the
 * slot it asks for (search_ask_slots), or the next free one after those
 * that asked for the same or a lower one (in slot order), so adding or
 * removing a document moves no other but a neighbour it collides
 * with; its number is its slot past the kind's base (x->base[k]).
 * Returns 0 or < 0 with err set.
 */
static int
number_kind(struct search_index *x, int k, mirror_error *err)
{
	size_t n, cap_at = 0;
	struct doc_key *key = search_kind_keys(x, k,
	    search_kind_bits(x->per_kind[k]), &n);
	struct rec_read rr = { .woff = 0 };
	uint64_t next = 0;
	int rc = 0;

	held_update(x, n * sizeof(*key));
	rec_spans(&rr, x, key, n);
	strbuf_init(&rr.file);
	strbuf_init(&rr.text);
	strbuf_init(&rr.win);
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
		if (i > 0 && search_chunk_of(slot, k) != rr.chunk)
			rc = chunk_write(x, &rr, err);
		rr.chunk = search_chunk_of(slot, k);
		ARRAY_RESERVE(rr.at, cap_at, rr.nr + 1);
		rr.at[rr.nr] = rr.text.len;
		if (rc == 0)
			rc = rec_fetch(x, &rr, d, err);
		search_doc_rec(&ARRAY_PUSH(rr.recs, rr.nr, rr.cap), x, d, slot,
		    slot != key[i].want);
	}
	if (rc == 0 && rr.nr > 0)
		rc = chunk_write(x, &rr, err);
	strbuf_free(&rr.file);
	strbuf_free(&rr.text);
	strbuf_free(&rr.win);
	free(rr.at);
	free(rr.recs);
	free(rr.lo);
	free(rr.hi);
	free(key);
	held_update(x, 0);
	return rc;
}

void
search_kind_ranges(uint64_t base[3], uint64_t end[3], const size_t per[3])
{
	/* The facts' numbers first: the conflicts' and checks' move when
	 * a kind before them passes a power of two, and the facts are the
	 * most. Each kind takes twice its ring. */
	static const int order[3] = { SEARCH_KIND_FACT, SEARCH_KIND_CONFLICT,
	    SEARCH_KIND_CHECK };

	for (int i = 0; i < 3; i++) {
		int k = order[i];

		base[k] = i == 0 ? 0 : end[order[i - 1]];
		end[k] = base[k] + (UINT64_C(2) << search_kind_bits(per[k]));
	}
}

/* Number every document and write the record chunks. Returns 0 or < 0
 * with err set. */
static int
write_chunks(struct search_index *x, mirror_error *err)
{
	int rc = 0;

	search_kind_ranges(x->base, x->end, x->per_kind);
	for (int k = 0; rc == 0 && k < 3; k++)
		rc = number_kind(x, k, err);
	return rc;
}

/* t's postings onto sb (search_postings_text): the numbers num[] of
 * its documents (by their order of adding); nums is scratch room for
 * t->n numbers. */
static void
put_postings(strbuf *sb, const struct term *t, const uint64_t *num,
    uint64_t *nums)
{
	for (size_t i = 0; i < t->n; i++)
		nums[i] = num[term_posts(t)[i]];
	qsort(nums, t->n, sizeof(*nums), search_num_cmp);
	search_postings_text(sb, t->tot, (t->bits[0] | t->bits[1] |
	    t->bits[2]) != 0, nums, t->n);
}

/* A term as term_order sorts them: its text and its index. */
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

/* x's terms in byte order: their indexes (the caller frees them). */
static size_t *
term_order(const struct search_index *x)
{
	struct term_key *key = xcalloc(x->n_terms + 1, sizeof(*key));
	size_t *ord = xcalloc(x->n_terms + 1, sizeof(*ord));

	for (size_t i = 0; i < x->n_terms; i++)
		key[i] = (struct term_key){ term_text(x, &x->terms[i]), i };
	qsort(key, x->n_terms, sizeof(*key), term_cmp);
	for (size_t i = 0; i < x->n_terms; i++)
		ord[i] = key[i].i;
	free(key);
	return ord;
}

/* What write_shards keeps between shards: the manifest's lists, the
 * keys given so far, the shard's place. */
struct shards_out {
	struct search_index *x;
	strbuf *first, *keys;
	struct hashtab seen;
	size_t k;
	strbuf file;
};

/* search_cut's done for a whole build: name the shard by its first
 * term's key ("-<k>" after it, k its place, when an earlier shard has
 * the same), write it, and add it to the manifest's lists. Returns 0 or
 * < 0 with err set. */
static int
shard_done(void *arg, const char *first, const strbuf *body,
    mirror_error *err)
{
	struct shards_out *so = arg;
	char key[13], name[48], path[64];
	uint64_t h = hash_mix(hash_add_str(MIRROR_HASH_INIT, first));
	int added;

	search_shard_key(key, first);
	h = (h >> 16) == 0 ? 1 : h >> 16;
	(void)hashtab_put(&so->seen, h, &added);
	/* 12 digits, "-" and a size_t's at most 20 fit. */
	if (added)
		(void)snprintf(name, sizeof(name), "%s", key);
	else
		(void)snprintf(name, sizeof(name), "%s-%zu", key, so->k);
	strbuf_puts(so->first, so->k > 0 ? ",\n" : "");
	json_quote(so->first, first, 1);
	strbuf_printf(so->keys, "%s\"%s\"", so->k > 0 ? "," : "", name);
	so->k++;
	(void)snprintf(path, sizeof(path), "search/t-%s.js", name);
	search_shard_text(&so->file, name, body);
	return put_file(so->x, path, &so->file, err);
}

/* x's terms as held (no run written), in byte order, onto cut. Returns
 * 0 or < 0 with err set. */
static int
memory_terms(struct search_index *x, const uint64_t *num,
    struct shard_cut *cut, mirror_error *err)
{
	size_t num_bytes = x->n_docs * sizeof(*num), *ord, most = 1;
	strbuf post;
	uint64_t *nums;
	int rc = 0;

	/* term_order's two arrays at once, then its order and nums. */
	held_update(x, num_bytes + x->n_terms * (sizeof(struct term_key) +
	    sizeof(*ord)));
	ord = term_order(x);
	for (size_t i = 0; i < x->n_terms; i++)
		most = x->terms[i].n > most ? x->terms[i].n : most;
	nums = xcalloc(most, sizeof(*nums));
	held_update(x, num_bytes + x->n_terms * sizeof(*ord) +
	    most * sizeof(*nums));
	strbuf_init(&post);
	for (size_t i = 0; rc == 0 && i < x->n_terms; i++) {
		const struct term *t = &x->terms[ord[i]];

		strbuf_reset(&post);
		put_postings(&post, t, num, nums);
		rc = search_cut_add(cut, term_text(x, t), post.data, err);
	}
	strbuf_free(&post);
	free(nums);
	free(ord);
	return rc;
}

/* A run's term being merged: its reader, and the term it read last
 * (live 0: the run has no more). */
struct run_term {
	struct spill_reader r;
	char s[TERM_MAX + 2];
	uint32_t tot[3];
	uint32_t *post, n, cap;
	int live;
};

/* n bytes of rt's run into p: 1, or < 0 with err set (at its end too,
 * when end is 0: a term cut short). */
static int
run_get(struct run_term *rt, void *p, size_t n, int end, mirror_error *err)
{
	int rc = spill_reader_get(&rt->r, p, n, err);

	if (rc == 0 && !end)
		return mirror_fail(err, MIRROR_EIO, "search index: a run of "
		    "its temporary file ends short");
	return rc;
}

/* The next term of rt's run into rt (live 0 past its last). Returns 0
 * or < 0 with err set. */
static int
run_next(struct run_term *rt, mirror_error *err)
{
	unsigned char len;
	uint32_t head[4];
	int rc = run_get(rt, &len, 1, 1, err);

	rt->live = rc == 1;
	if (rc <= 0)
		return rc;
	if (len > TERM_MAX + 1)
		return mirror_fail(err, MIRROR_EIO, "search index: a run "
		    "of its temporary file is damaged");
	if (run_get(rt, rt->s, len, 0, err) < 0 ||
	    run_get(rt, head, sizeof(head), 0, err) < 0)
		return -1;
	rt->s[len] = '\0';
	memcpy(rt->tot, head, sizeof(rt->tot));
	rt->n = head[3];
	if (rt->n > rt->cap) {
		rt->cap = rt->n;
		rt->post = xreallocarray(rt->post, rt->cap, sizeof(*rt->post));
	}
	return rt->n == 0 ? 0 : run_get(rt, rt->post, rt->n *
	    sizeof(*rt->post), 0, err) < 0 ? -1 : 0;
}

/* 1 when run a's term sorts before run b's: by bytes, then by run (the
 * runs' postings follow one another in that order). */
static int
run_before(const struct run_term *rt, size_t a, size_t b)
{
	int c = strcmp(rt[a].s, rt[b].s);

	return c != 0 ? c < 0 : a < b;
}

/* Restore the heap h[0..n) of runs from slot i down. */
static void
heap_down(const struct run_term *rt, size_t *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i, tmp;

		if (l < n && run_before(rt, h[l], h[m]))
			m = l;
		if (l + 1 < n && run_before(rt, h[l + 1], h[m]))
			m = l + 1;
		if (m == i)
			return;
		tmp = h[i];
		h[i] = h[m];
		h[m] = tmp;
		i = m;
	}
}

/* What the term shards need of the documents once their records are
 * written (drop_records): by their order of adding, each one's number
 * (num) and, when x wrote runs (else NULL), its hash (hs), which the
 * merge of the runs samples by. */
struct shard_docs {
	uint64_t *num;
	uint64_t *hs;
};

/* What merge_terms gathers of one term from every run that has it. */
struct merged {
	char s[TERM_MAX + 2];
	uint32_t tot[3];
	uint32_t *post;
	size_t n, cap;
	uint64_t *nums;
	size_t cap_nums;
	strbuf text;
};

/*
 * Term m of x onto cut: of its postings (the documents' order of
 * adding), those the whole term's sample keeps (search_sample_bits of
 * its documents of each kind: what an index held whole keeps), by the
 * documents' numbers (a document's kind: the range its number is in)
 * and hashes in d. Returns 0 or < 0 with err set.
 */
static int
merged_put(struct search_index *x, struct merged *m,
    const struct shard_docs *d, struct shard_cut *cut, mirror_error *err)
{
	const uint64_t *num = d->num, *hs = d->hs;
	unsigned bits[3];
	size_t k = 0;

	for (int i = 0; i < 3; i++)
		bits[i] = search_sample_bits(m->tot[i]);
	ARRAY_RESERVE(m->nums, m->cap_nums, m->n + 1);
	for (size_t i = 0; i < m->n; i++) {
		uint64_t v = num[m->post[i]];
		int kind = v >= x->base[0] && v < x->end[0] ? 0 :
		    v >= x->base[1] && v < x->end[1] ? 1 : 2;

		if (search_sample_keeps(hs[m->post[i]], bits[kind]))
			m->nums[k++] = v;
	}
	qsort(m->nums, k, sizeof(*m->nums), search_num_cmp);
	strbuf_reset(&m->text);
	search_postings_text(&m->text, m->tot, (bits[0] | bits[1] |
	    bits[2]) != 0, m->nums, k);
	return search_cut_add(cut, m->s, m->text.data, err);
}

/* Run i's term (the least) into m, and its next read. Returns 0 or < 0
 * with err set. */
static int
merged_take(struct merged *m, struct run_term *rt, mirror_error *err)
{
	for (int k = 0; k < 3; k++)
		m->tot[k] += rt->tot[k];
	ARRAY_RESERVE(m->post, m->cap, m->n + rt->n);
	memcpy(m->post + m->n, rt->post, rt->n * sizeof(*rt->post));
	m->n += rt->n;
	return run_next(rt, err);
}

/* x's runs merged in byte order, a term at a time, onto cut (d: the
 * documents). Returns 0 or < 0 with err set. */
static int
merge_terms(struct search_index *x, const struct shard_docs *d,
    struct shard_cut *cut, mirror_error *err)
{
	struct run_term *rt = xcalloc(x->n_runs, sizeof(*rt));
	size_t *h = xcalloc(x->n_runs, sizeof(*h)), nh = 0;
	struct merged m = { .n = 0 };
	int rc = 0;

	size_t bufs = 0;

	strbuf_init(&m.text);
	for (size_t i = 0; i < x->n_runs; i++) {
		spill_reader_init(&rt[i].r, &x->run_spill, x->runs[i].off,
		    x->runs[i].end, RUN_BUF);
		bufs += rt[i].r.cap + sizeof(*rt) + sizeof(*h);
		if (rc == 0)
			rc = run_next(&rt[i], err);
		if (rt[i].live)
			h[nh++] = i;
	}
	held_update(x, x->n_docs * 2 * sizeof(*d->num) + bufs);
	for (size_t i = nh; i-- > 0;)
		heap_down(rt, h, nh, i);
	while (rc == 0 && nh > 0) {
		memcpy(m.s, rt[h[0]].s, sizeof(m.s));
		memset(m.tot, 0, sizeof(m.tot));
		m.n = 0;
		while (rc == 0 && nh > 0 && strcmp(rt[h[0]].s, m.s) == 0) {
			rc = merged_take(&m, &rt[h[0]], err);
			if (!rt[h[0]].live)
				h[0] = h[--nh];
			heap_down(rt, h, nh, 0);
		}
		if (rc == 0)
			rc = merged_put(x, &m, d, cut, err);
	}
	for (size_t i = 0; i < x->n_runs; i++) {
		spill_reader_free(&rt[i].r);
		free(rt[i].post);
	}
	free(rt);
	free(h);
	free(m.post);
	free(m.nums);
	strbuf_free(&m.text);
	return rc;
}

/* Every term in byte order (held, or merged from x's runs), cut into
 * shards (search_files.h's shard_cut), each written, its first term
 * onto first and its key onto keys, the manifest's lists (d: the
 * documents). Returns 0 or < 0 with err set. */
static int
write_shards(struct search_index *x, const struct shard_docs *d,
    strbuf *first, strbuf *keys, mirror_error *err)
{
	struct shards_out so = { .x = x, .first = first, .keys = keys };
	struct shard_cut cut;
	int rc;

	hashtab_init(&so.seen, sizeof(uint64_t));
	strbuf_init(&so.file);
	search_cut_init(&cut, shard_done, &so);
	rc = x->n_runs > 0 ? merge_terms(x, d, &cut, err) :
	    memory_terms(x, d->num, &cut, err);
	if (rc == 0)
		rc = search_cut_end(&cut, err);
	search_cut_free(&cut);
	strbuf_free(&so.file);
	hashtab_free(&so.seen);
	return rc;
}

/*
 * Free what x holds for adding documents and writing their records, once
 * the records are written: the term table, the records' text, the
 * projects and statuses, the documents. Fills *d with all the term
 * shards need of the documents; the caller frees its arrays. What a
 * whole index holds at its largest is then not held while its shards
 * are written.
 */
static void
drop_records(struct shard_docs *d, struct search_index *x)
{
	d->num = xcalloc(x->n_docs + 1, sizeof(*d->num));
	d->hs = x->n_runs > 0 ? xcalloc(x->n_docs + 1, sizeof(*d->hs)) : NULL;
	for (size_t i = 0; i < x->n_docs; i++) {
		d->num[i] = x->docs[i].num;
		if (d->hs != NULL)
			d->hs[i] = x->docs[i].h;
	}
	free(x->docs);
	x->docs = NULL;
	x->cap_docs = 0;
	strbuf_free(&x->recs);
	spill_close(&x->rec_spill);
	tab_free(&x->projects);
	tab_free(&x->statuses);
}

/* Write x's last terms as a run when it wrote others, and give back
 * the room its terms took (a run's terms are read back alone).
 * Returns 0 or < 0 with err set. */
static int
runs_end(struct search_index *x, mirror_error *err)
{
	int rc = 0;

	if (x->n_runs == 0)
		return 0;
	if (x->n_terms > 0)
		rc = run_write(x, err);
	free(x->terms);
	x->terms = NULL;
	x->cap_terms = 0;
	strbuf_free(&x->words);
	return rc;
}

int
search_index_finish(struct search_index *x, mirror_error *err)
{
	strbuf man, first, keys;
	struct shard_docs d = { NULL, NULL };
	int rc;

	/* No document is added past here: the terms are found by their
	 * order from now on. */
	rc = runs_end(x, err);
	free(x->tab.slot);
	memset(&x->tab, 0, sizeof(x->tab));
	held_update(x, 0);
	if (rc == 0)
		rc = write_chunks(x, err);
	strbuf_init(&man);
	strbuf_init(&first);
	strbuf_init(&keys);
	if (rc == 0) {
		drop_records(&d, x);
		rc = write_shards(x, &d, &first, &keys, err);
	}
	free(d.num);
	free(d.hs);
	held_update(x, 0);
	if (rc == 0) {
		search_manifest_text(&man, &(struct manifest_out){
		    .docs = x->n_docs, .base = { x->base[0], x->base[1],
		    x->base[2] }, .end = { x->end[0], x->end[1], x->end[2] },
		    .per = { x->per_kind[0], x->per_kind[1],
		    x->per_kind[2] }, .key = x->key, .urls = x->urls,
		    .keys = &keys, .first = &first });
		rc = put_file(x, "search/index.js", &man, err);
	}
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
	held_add(-(long long)x->held);
	for (size_t i = 0; i < x->n_terms; i++)
		free(x->terms[i].post);
	free(x->terms);
	strbuf_free(&x->words);
	free(x->docs);
	free(x->tab.slot);
	strbuf_free(&x->recs);
	spill_close(&x->rec_spill);
	spill_close(&x->run_spill);
	free(x->runs);
	tab_free(&x->projects);
	tab_free(&x->statuses);
	free(x->key);
	for (int l = 0; l < SEARCH_LAYERS; l++) {
		free(x->urls[l][0]);
		free(x->urls[l][1]);
	}
	free(x);
}
