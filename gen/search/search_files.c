/*
 * search_files.c: the text of the search index's files and the rules
 * that place a document and cut the terms, shared by a whole build
 * (search_index.c) and an update (search_patch.c), so the two write the
 * same bytes for the same documents (search_index.h says what the files
 * hold).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/search_files.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/jsonwrite.h"
#include "util/utf8.h"
#include "util/xalloc.h"

const char search_kinds[3] = { 'c', 'k', 'f' };

/* The record layers' names, by record layer: a fact's three (by trust,
 * highest first), a conflict's, a check's, a project's own page's. */
static const char *const layer_names[SEARCH_LAYERS] = { "state", "entity",
    "memory", "conflict", "check", "project" };

int
search_rec_layer(enum search_what what, enum fact_layer layer)
{
	switch (what) {
	case SEARCH_FACT:
		return layer >= LAYER_MEMORY && layer <= LAYER_STATE ?
		    LAYER_STATE - (int)layer : -1;
	case SEARCH_CONFLICT:
		return 3;
	case SEARCH_CHECK:
		return 4;
	case SEARCH_PROJECT:
		return 5;
	}
	return -1;
}

enum search_kind
search_kind_of(enum search_what what)
{
	return what == SEARCH_CONFLICT ? SEARCH_KIND_CONFLICT :
	    what == SEARCH_CHECK ? SEARCH_KIND_CHECK : SEARCH_KIND_FACT;
}

const char *
search_layer_name(int l)
{
	return l >= 0 && l < SEARCH_LAYERS ? layer_names[l] : "";
}

int
search_layer_of_name(const char *s, enum search_what *what,
    enum fact_layer *layer)
{
	static const enum search_what whats[SEARCH_LAYERS] = { SEARCH_FACT,
	    SEARCH_FACT, SEARCH_FACT, SEARCH_CONFLICT, SEARCH_CHECK,
	    SEARCH_PROJECT };

	for (int l = 0; s != NULL && l < SEARCH_LAYERS; l++)
		if (strcmp(layer_names[l], s) == 0) {
			*what = whats[l];
			*layer = l < 3 ? (enum fact_layer)(LAYER_STATE - l) :
			    (enum fact_layer)0;
			return 0;
		}
	return -1;
}

int
search_sample_keeps(uint64_t h, unsigned bits)
{
	/* The high half of the hash: the slot takes the low bits. */
	return ((h >> 32) & ((UINT64_C(1) << bits) - 1)) == 0;
}

unsigned
search_sample_bits(uint64_t n)
{
	unsigned b = 0;

	while (b < 32 && n > ((uint64_t)KIND_CAP << b))
		b++;
	return b;
}

/* The bits of a space for n documents: SEARCH_SPARE_BITS more than n
 * needs, so about one slot in 32 or fewer is taken. */
static unsigned
spare_bits(size_t n)
{
	unsigned b = SEARCH_SPARE_BITS;

	while (b < 62 && (UINT64_C(1) << (b - SEARCH_SPARE_BITS)) < n)
		b++;
	return b;
}

unsigned
search_kind_bits(size_t n)
{
	unsigned b = spare_bits(n);

	/* Its slots run to twice the ring: a project's documents start
	 * on the ring and run on past it. */
	return b < SEARCH_SLOT_BITS ? SEARCH_SLOT_BITS : b;
}

unsigned
search_window_bits(size_t n)
{
	unsigned w = spare_bits(n);

	/* At least SEARCH_WINDOW_BITS: a project of few documents of a
	 * kind (a conflict or two) keeps its place as they come and go. */
	return w < SEARCH_WINDOW_BITS ? SEARCH_WINDOW_BITS : w;
}

uint64_t
search_place(const char *name, const char *slug)
{
	return hash_mix(hash_add_str(hash_add_str(MIRROR_HASH_INIT, name),
	    slug));
}

void
search_chunk_path(char path[64], uint64_t n)
{
	/* "search/d-" and 20 digits fit. */
	(void)snprintf(path, 64, "search/d-%llu.js", (unsigned long long)n);
}

uint64_t
search_chunk_of(uint64_t slot, int k)
{
	return (slot >> SEARCH_SLOT_BITS) * 4 + (uint64_t)k;
}

/* The index of entry s in the chunk's table t (n entries), added when
 * new. A chunk names few projects and statuses: a look along them. */
static size_t
chunk_tab(const char ***t, size_t *n, size_t *cap, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if ((*t)[i] == s || strcmp((*t)[i], s) == 0)
			return i;
	ARRAY_PUSH(*t, *n, *cap) = s;
	return *n - 1;
}

/* Table t of n entries as a JSON list onto sb. */
static void
chunk_tab_put(strbuf *sb, const char *const *t, size_t n)
{
	strbuf_putc(sb, '[');
	for (size_t i = 0; i < n; i++) {
		strbuf_puts(sb, i > 0 ? "," : "");
		strbuf_puts(sb, t[i]);
	}
	strbuf_putc(sb, ']');
}

void
search_chunk_text(strbuf *sb, uint64_t n, const struct chunk_rec *r,
    size_t nr)
{
	const char **proj = NULL, **st = NULL;
	size_t np = 0, ns = 0, cp = 0, cs = 0;
	strbuf recs;
	uint64_t last = 0;

	strbuf_init(&recs);
	for (size_t i = 0; i < nr; i++) {
		size_t p = chunk_tab(&proj, &np, &cp, r[i].proj);
		size_t s = chunk_tab(&st, &ns, &cs, r[i].status);

		/* A record: how far its slot's place in the chunk is past
		 * the record before it (the first: past 0), the head, its
		 * project's and status's indexes in the chunk's tables,
		 * the tail. */
		strbuf_puts(&recs, i > 0 ? ",\n[" : "\n[");
		search_put10(&recs, r[i].lo - last);
		strbuf_putc(&recs, ',');
		search_put10(&recs, r[i].code);
		strbuf_putc(&recs, ',');
		last = r[i].lo;
		strbuf_add(&recs, r[i].head, r[i].hlen);
		strbuf_putc(&recs, ',');
		search_put10(&recs, p);
		strbuf_putc(&recs, ',');
		search_put10(&recs, s);
		strbuf_putc(&recs, ',');
		strbuf_add(&recs, r[i].tail, r[i].tlen);
		strbuf_putc(&recs, ']');
	}
	strbuf_reset(sb);
	strbuf_printf(sb, "mirrorSearch.d(%llu,{\"p\":", (unsigned long long)n);
	chunk_tab_put(sb, proj, np);
	strbuf_puts(sb, ",\"s\":");
	chunk_tab_put(sb, st, ns);
	strbuf_puts(sb, "},[");
	strbuf_add(sb, recs.data, recs.len);
	strbuf_puts(sb, "]);\n");
	strbuf_free(&recs);
	free(proj);
	free(st);
}

int
search_num_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Number v in base b (10 or 36) onto sb. */
static void
put_base(strbuf *sb, uint64_t v, unsigned b)
{
	char buf[24];
	size_t n = sizeof(buf);

	do {
		buf[--n] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % b];
		v /= b;
	} while (v > 0);
	strbuf_add(sb, buf + n, sizeof(buf) - n);
}

void
search_put36(strbuf *sb, uint64_t v)
{
	put_base(sb, v, 36);
}

void
search_put10(strbuf *sb, uint64_t v)
{
	put_base(sb, v, 10);
}

void
search_postings_text(strbuf *sb, const uint32_t tot[3], int sampled,
    const uint64_t *nums, size_t n)
{
	if (sampled) {
		for (int k = 0; k < 3; k++) {
			search_put36(sb, tot[k]);
			strbuf_putc(sb, k < 2 ? '.' : ';');
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			strbuf_putc(sb, ',');
		search_put36(sb, i == 0 ? nums[0] : nums[i] - nums[i - 1]);
	}
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

/* The entry of term s with postings post onto sb, its first pre bytes
 * those of the term before it: pre as a base-36 digit, the rest of the
 * term, a space, the postings (escaped for the shard's string). */
static void
term_entry(strbuf *sb, const char *s, const char *post, size_t pre)
{
	search_put36(sb, pre);
	put_escaped(sb, s + pre);
	strbuf_putc(sb, ' ');
	strbuf_puts(sb, post);
}

/* The numbers of postings text p (past its "c.k.f;" when sampled) into
 * *nums (the caller frees it), *n their count; *hdr the length of the
 * header ("c.k.f;", 0 when none). Returns 0, or -1 on text that is not
 * postings. */
static int
post_nums(uint64_t **nums, size_t *n, size_t *hdr, const char *p)
{
	const char *semi = strchr(p, ';');
	size_t cap = 0;
	uint64_t at = 0;

	*nums = NULL;
	*n = 0;
	*hdr = semi != NULL ? (size_t)(semi - p) + 1 : 0;
	p += *hdr;
	while (*p != '\0') {
		char *end;
		uint64_t d = strtoull(p, &end, 36);

		if (end == p || (*end != ',' && *end != '\0')) {
			free(*nums);
			*nums = NULL;
			return -1;
		}
		at = *n == 0 ? d : at + d;
		ARRAY_PUSH(*nums, *n, cap) = at;
		p = *end == ',' ? end + 1 : end;
	}
	return 0;
}

/* The base-32 digits of the titled bitmap. */
static const char b32[] = "0123456789abcdefghijklmnopqrstuv";

int
search_titled_pack(strbuf *sb, const char *post, const char *base)
{
	uint64_t *a = NULL, *b = NULL;
	size_t na, nb, ha, hb, j = 0, len;
	int rc = 0;

	if (post_nums(&a, &na, &ha, post) < 0 ||
	    post_nums(&b, &nb, &hb, base) < 0 || na == 0) {
		free(a);
		free(b);
		return -1;
	}
	len = sb->len;
	strbuf_putc(sb, SEARCH_TITLED);
	strbuf_add(sb, post, ha);
	for (size_t i = 0; i < nb; i += 5) {
		unsigned v = 0;

		for (size_t k = 0; k < 5 && i + k < nb; k++)
			if (j < na && a[j] == b[i + k]) {
				v |= 1u << k;
				j++;
			}
		strbuf_putc(sb, b32[v]);
	}
	while (sb->len > len + 1 + ha && sb->data[sb->len - 1] == '0')
		sb->data[--sb->len] = '\0';
	if (j < na) {                   /* a document base does not keep */
		sb->len = len;
		sb->data[len] = '\0';
		rc = -1;
	}
	free(a);
	free(b);
	return rc;
}

int
search_titled_expand(strbuf *sb, const char *rel, const char *base)
{
	uint64_t *b = NULL, prev = 0;
	size_t nb, hb, hr, k = 0;
	const char *semi = strchr(rel, ';');
	int first = 1;

	if (rel[0] != SEARCH_TITLED || post_nums(&b, &nb, &hb, base) < 0)
		return -1;
	rel++;
	hr = semi != NULL ? (size_t)(semi - rel) + 1 : 0;
	strbuf_add(sb, rel, hr);
	for (const char *p = rel + hr; *p != '\0'; p++, k += 5) {
		const char *d = strchr(b32, *p);

		if (d == NULL || k >= nb) {
			free(b);
			return -1;
		}
		for (size_t i = 0; i < 5; i++) {
			if (!((unsigned)(d - b32) & (1u << i)))
				continue;
			if (k + i >= nb) {
				free(b);
				return -1;
			}
			if (!first)
				strbuf_putc(sb, ',');
			search_put36(sb, first ? b[k + i] : b[k + i] - prev);
			prev = b[k + i];
			first = 0;
		}
	}
	free(b);
	return 0;
}

int
search_cut_here(const char *s)
{
	uint64_t h = hash_mix(hash_add_str(MIRROR_HASH_INIT, s));

	return (h & (SEARCH_SHARD_TERMS - 1)) == 0;
}

void
search_cut_init(struct shard_cut *c,
    int (*done)(void *, const char *, const strbuf *, mirror_error *),
    void *arg)
{
	memset(c, 0, sizeof(*c));
	strbuf_init(&c->body);
	strbuf_init(&c->entry);
	strbuf_init(&c->first);
	strbuf_init(&c->prev);
	strbuf_init(&c->prevpost);
	strbuf_init(&c->rel);
	c->done = done;
	c->arg = arg;
}

/* End the shard being filled, when it has entries. Returns 0 or done's
 * failure. */
static int
cut_flush(struct shard_cut *c, mirror_error *err)
{
	int rc;

	if (c->body.len == 0)
		return 0;
	rc = c->done(c->arg, c->first.data, &c->body, err);
	strbuf_reset(&c->body);
	return rc;
}

int
search_cut_add(struct shard_cut *c, const char *s, const char *post,
    mirror_error *err)
{
	size_t n = strlen(s);
	const char *put = post;
	int rc = 0;
	int titled = c->body.len > 0 && n > 1 && s[n - 1] == SEARCH_NAMED &&
	    c->prev.len == n - 1 && memcmp(c->prev.data, s, n - 1) == 0;
	/* A common term (a sample: "c.k.f;" first) starts a shard of its
	 * own, and the term after it and its "t!" another. */
	int common = strchr(post, ';') != NULL;

	/* A title's term "t!" right after t in its shard: its documents
	 * as a bitmap over t's (search_titled_pack). */
	strbuf_reset(&c->rel);
	if (titled && search_titled_pack(&c->rel, post,
	    c->prevpost.data) == 0 && c->rel.len < strlen(post))
		put = c->rel.data;
	/* Content-defined: a term added or gone moves no cut but its
	 * own (and, a common one, the one after it), whatever the
	 * store's size. */
	strbuf_reset(&c->entry);
	term_entry(&c->entry, s, put, c->body.len > 0 ?
	    shared_prefix(c->prev.data, s) : 0);
	if (c->body.len > 0 && (search_cut_here(s) || c->body.len +
	    c->entry.len > 3 * (size_t)SEARCH_SHARD ||
	    (!titled && (common || c->alone)))) {
		rc = cut_flush(c, err);
		strbuf_reset(&c->entry);
		term_entry(&c->entry, s, post, 0);
	}
	if (c->body.len == 0) {
		strbuf_reset(&c->first);
		strbuf_puts(&c->first, s);
		c->alone = common;
	} else
		strbuf_putc(&c->body, ' ');
	strbuf_add(&c->body, c->entry.data, c->entry.len);
	strbuf_reset(&c->prev);
	strbuf_puts(&c->prev, s);
	strbuf_reset(&c->prevpost);
	strbuf_puts(&c->prevpost, post);
	return rc;
}

int
search_cut_end(struct shard_cut *c, mirror_error *err)
{
	return cut_flush(c, err);
}

void
search_cut_free(struct shard_cut *c)
{
	strbuf_free(&c->body);
	strbuf_free(&c->entry);
	strbuf_free(&c->first);
	strbuf_free(&c->prev);
	strbuf_free(&c->prevpost);
	strbuf_free(&c->rel);
}

void
search_shard_key(char out[13], const char *s)
{
	char hex[17];

	hash_hex(hex, hash_mix(hash_add_str(MIRROR_HASH_INIT, s)));
	memcpy(out, hex, 12);
	out[12] = '\0';
}

void
search_shard_text(strbuf *sb, const char *key, const strbuf *body)
{
	strbuf_reset(sb);
	strbuf_printf(sb, "mirrorSearch.t(\"%s\",\"", key);
	strbuf_add(sb, body->data, body->len);
	strbuf_puts(sb, "\");\n");
}

void
search_url_fill(strbuf *sb, const char *t, const char *pslug,
    const char *id)
{
	while (*t != '\0') {
		if (strncmp(t, "{p}", 3) == 0) {
			strbuf_puts(sb, pslug);
			t += 3;
		} else if (strncmp(t, "{id}", 4) == 0) {
			strbuf_puts(sb, id);
			t += 4;
		} else
			strbuf_putc(sb, *t++);
	}
}

/* m's URL templates onto sb, ",\"urls\":[[t, t], ...]", null for none
 * (search_index_set_urls). */
static void
manifest_urls(strbuf *sb, const struct manifest_out *m)
{
	strbuf_puts(sb, ",\"urls\":[");
	for (int l = 0; l < SEARCH_LAYERS; l++) {
		strbuf_puts(sb, l > 0 ? ",[" : "[");
		for (int own = 0; own < 2; own++) {
			const char *t = m->urls != NULL ? m->urls[l][own] :
			    NULL;

			strbuf_puts(sb, own > 0 ? "," : "");
			if (t != NULL)
				json_quote(sb, t, 1);
			else
				strbuf_puts(sb, "null");
		}
		strbuf_putc(sb, ']');
	}
	strbuf_putc(sb, ']');
}

void
search_manifest_text(strbuf *sb, const struct manifest_out *m)
{
	strbuf_reset(sb);
	strbuf_printf(sb, "mirrorSearch.m({\"v\":%d,\"chunk\":%d,"
	    "\"docs\":%zu,\"kinds\":{", SEARCH_VERSION, 1 << SEARCH_SLOT_BITS,
	    m->docs);
	for (int k = 0; k < 3; k++)
		strbuf_printf(sb, "%s\"%c\":[%llu,%llu]", k > 0 ? "," : "",
		    search_kinds[k], (unsigned long long)m->base[k],
		    (unsigned long long)m->end[k]);
	/* What an update (search_patch.c) needs to number as this build
	 * did: each kind's documents, and the key of what else the
	 * records show. */
	strbuf_printf(sb, "},\"per\":[%zu,%zu,%zu],\"key\":", m->per[0],
	    m->per[1], m->per[2]);
	json_quote(sb, m->key != NULL ? m->key : "", 1);
	manifest_urls(sb, m);
	/* The keys only when one is made unique by its place ("-<k>")
	 * or a first term is not UTF-8 (a browser reads it otherwise):
	 * else each is its first term's (search_shard_key), which
	 * search.js and an update work out (15 bytes a shard: 25 kB of
	 * every query at 1,000,000 facts). */
	strbuf_puts(sb, ",\"keys\":[");
	if (memchr(m->keys->data, '-', m->keys->len) != NULL ||
	    !utf8_valid((const unsigned char *)m->first->data,
	    m->first->len))
		strbuf_add(sb, m->keys->data, m->keys->len);
	strbuf_puts(sb, "],\"first\":[\n");
	strbuf_add(sb, m->first->data, m->first->len);
	strbuf_puts(sb, "]});\n");
}
