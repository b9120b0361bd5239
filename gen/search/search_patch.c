/*
 * search_patch.c: search_index_update, the index the last build wrote
 * changed where some projects' documents changed (search_index.h).
 *
 * Everything is read and worked out before anything is written, and
 * anything this code cannot be sure a whole build would write the same
 * way is SEARCH_REBUILD, never a guess:
 *
 *   1. the manifest, read back and written again from what was read:
 *      the same bytes, this format, this key;
 *   2. each kind's documents after the change: its ring keeps its size;
 *   3. the old documents are found in their chunks (from the slot each
 *      asked for on), and the new ones take slots as a whole build
 *      would give them, which holds while neither meets another
 *      project's record (no run of taken slots holds both);
 *   4. each word of the old and new documents: its entry in its shard,
 *      postings taken out and put in, each kind's sample keeping its
 *      size; the shards from the cut before the first such word to the
 *      cut after the last are cut again (search_files.h's shard_cut);
 *   5. the chunks, shards and manifest that changed are written, the
 *      files gone dropped, the rest kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/search_files.h"
#include "search/search_index_int.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/jsonwrite.h"
#include "util/xalloc.h"

/* How far from the slot it asked for an old document is looked for. */
#define FIND_MAX 4096

/* A record of a chunk the update read, or one it adds. */
struct prec {
	uint64_t slot;          /* within its kind */
	unsigned code;          /* search_rec_code's */
	const char *head, *tail;
	size_t hlen, tlen;
	const char *proj, *status;
	int layer;
	int moved;              /* past the slot it asked for */
	int gone;               /* an old document's, taken out */
};

/* A chunk the update read. */
struct pchunk {
	uint64_t n;
	char *text;             /* its file; NULL: none */
	char **tabs;            /* its tables' entries, owned */
	size_t ntabs;
	struct prec *r;         /* read (norig, in slot order), then added */
	size_t nr, norig, cap;
	int dirty;
};

/* A shard of the manifest. */
struct pshard {
	char *key, *first;
};

/* A shard an update writes. */
struct nshard {
	char key[13];
	char *first;
	strbuf body;
};

/* An entry of a shard: a term and its postings' text. */
struct tent {
	char *term, *post;
};

/* A term whose postings change: its index in old and in x (-1: none). */
struct tdelta {
	const char *s;
	long o, n;
};

struct patch {
	struct search_index *x, *old;
	const struct search_prev *prev;
	mirror_error *err;
	size_t per[3], docs;
	uint64_t base[3], end[3];
	char *key;
	struct pshard *sh;
	size_t nsh;
	struct pchunk *ch;
	size_t nch, chcap;
	struct tdelta *td;
	size_t ntd;
	struct nshard *ns;      /* the ranges' new shards, in order */
	size_t nns, nscap;
	size_t *rng;            /* ranges [rng[2i], rng[2i + 1]) */
	size_t nrng;
	size_t *rng_ns;         /* range i's first new shard, and the end */
	char **drop;            /* the files gone, for prev->keep */
	size_t ndrop, dcap;
};

/* ---- reading the files' text ------------------------------------------ */

/* The end of the JSON string at p (just past its closing quote), or
 * NULL when p holds none. */
static const char *
scan_str(const char *p)
{
	if (*p != '"')
		return NULL;
	for (p++; *p != '\0' && *p != '"'; p++)
		if (*p == '\\' && *++p == '\0')
			return NULL;
	return *p == '"' ? p + 1 : NULL;
}

/* The text of the JSON string [p, end) (with its quotes), as
 * json_quote wrote it, unquoted into sb (reset). Returns 0, or -1 for
 * an escape json_quote does not write. */
static int
unquote(strbuf *sb, const char *p, const char *end)
{
	strbuf_reset(sb);
	for (p++, end--; p < end; p++) {
		unsigned v;

		if (*p != '\\') {
			strbuf_putc(sb, *p);
			continue;
		}
		p++;
		if (*p == '"' || *p == '\\')
			strbuf_putc(sb, *p);
		else if (*p == 'u' && end - p > 4 && sscanf(p + 1, "%4x",
		    &v) == 1 && v < 0x80 && v > 0) {
			strbuf_putc(sb, (char)v);
			p += 4;
		} else
			return -1;
	}
	return 0;
}

/* The last build's file path into *data (NULL: none). Returns 0 or
 * < 0 with P's err set. */
static int
get_file(struct patch *P, const char *path, char **data)
{
	size_t len;
	int rc = P->prev->get(P->prev->arg, path, data, &len, P->err);

	if (rc > 0 && strlen(*data) != len) {
		free(*data);            /* a NUL inside: not ours */
		*data = NULL;
	}
	return rc < 0 ? rc : 0;
}

/* The strings of the JSON list at *pp, "[" lead s (sep s)... "]",
 * unquoted into *out (n of them, owned); *pp past it. Returns 0, or -1
 * when it is not such a list. */
static int
read_list(char ***out, size_t *n, const char **pp, const char *lead,
    const char *sep)
{
	const char *p = *pp, *e;
	size_t cap = 0, sl = strlen(sep);
	strbuf sb;

	*out = NULL;
	*n = 0;
	if (*p++ != '[' || strncmp(p, lead, strlen(lead)) != 0)
		return -1;
	p += strlen(lead);
	strbuf_init(&sb);
	while (*p != ']') {
		if (*n > 0 && strncmp(p, sep, sl) != 0)
			break;
		p += *n > 0 ? sl : 0;
		if ((e = scan_str(p)) == NULL || unquote(&sb, p, e) < 0)
			break;
		ARRAY_PUSH(*out, *n, cap) = xstrdup(sb.data);
		p = e;
	}
	strbuf_free(&sb);
	*pp = p + 1;
	return *p == ']' ? 0 : -1;
}

/* Free the n strings of l and l. */
static void
free_list(char **l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

/*
 * The manifest of the last build into P: its numbers, key and shards
 * (each shard's key listed, or else its first term's).
 * It must be this format, written again from what was read the same
 * bytes, and of x's key. Returns 0, SEARCH_REBUILD, or < 0.
 */
static int
man_read(struct patch *P)
{
	char *text = NULL, **keys = NULL, **first = NULL;
	unsigned long long b[3], e[3];
	size_t nk = 0, nf = 0;
	const char *p, *q;
	int v, chunk, at = 0, rc;
	strbuf sb, kl, fl;

	if ((rc = get_file(P, "search/index.js", &text)) < 0 || text == NULL)
		return rc < 0 ? rc : SEARCH_REBUILD;
	rc = SEARCH_REBUILD;
	strbuf_init(&sb);
	strbuf_init(&kl);
	strbuf_init(&fl);
	if (sscanf(text, "mirrorSearch.m({\"v\":%d,\"chunk\":%d,\"docs\":%zu,"
	    "\"kinds\":{\"c\":[%llu,%llu],\"k\":[%llu,%llu],\"f\":[%llu,%llu]},"
	    "\"per\":[%zu,%zu,%zu],\"key\":%n", &v, &chunk, &P->docs, &b[0],
	    &e[0], &b[1], &e[1], &b[2], &e[2], &P->per[0], &P->per[1],
	    &P->per[2], &at) != 12 || at == 0 || v != SEARCH_VERSION)
		goto out;
	p = text + at;
	if ((q = scan_str(p)) == NULL || unquote(&sb, p, q) < 0)
		goto out;
	P->key = xstrdup(sb.data);
	/* The URL templates: x's, or the manifest written again differs. */
	p = strncmp(q, ",\"urls\":", 8) == 0 ? strstr(q, ",\"keys\":") : q;
	if (p == NULL || strncmp(p, ",\"keys\":", 8) != 0 || (p += 8,
	    read_list(&keys, &nk, &p, "", ",") < 0) ||
	    strncmp(p, ",\"first\":[\n", 11) != 0 ||
	    (p += 9, read_list(&first, &nf, &p, "\n", ",\n") < 0) ||
	    (nk != 0 && nk != nf) || nf == 0)
		goto out;
	/* No keys listed: each shard's is its first term's. */
	if (nk == 0)
		keys = xcalloc(nf, sizeof(*keys));
	for (; nk < nf; nk++) {
		char k[13];

		search_shard_key(k, first[nk]);
		keys[nk] = xstrdup(k);
	}
	P->nsh = nk;
	P->sh = xcalloc(nk, sizeof(*P->sh));
	for (size_t i = 0; i < nk; i++) {
		P->sh[i].key = keys[i];
		P->sh[i].first = first[i];
		/* A key made unique by its place moves with any shard
		 * before it: only a whole build says. */
		if (strlen(keys[i]) != 12 || strchr(keys[i], '-') != NULL)
			goto out;
		strbuf_printf(&kl, "%s\"%s\"", i > 0 ? "," : "", keys[i]);
		strbuf_puts(&fl, i > 0 ? ",\n" : "");
		json_quote(&fl, first[i], 1);
	}
	for (int k = 0; k < 3; k++) {
		P->base[k] = b[k];
		P->end[k] = e[k];
	}
	search_manifest_text(&sb, &(struct manifest_out){ .docs = P->docs,
	    .base = { b[0], b[1], b[2] }, .end = { e[0], e[1], e[2] },
	    .per = { P->per[0], P->per[1], P->per[2] }, .key = P->key,
	    .urls = P->x->urls, .keys = &kl, .first = &fl });
	if (strcmp(sb.data, text) == 0 && strcmp(P->key, P->x->key != NULL ?
	    P->x->key : "") == 0)
		rc = 0;
out:
	if (P->sh == NULL) {
		free_list(keys, nk);
		free_list(first, nf);
	} else {
		free(keys);
		free(first);
	}
	strbuf_free(&sb);
	strbuf_free(&kl);
	strbuf_free(&fl);
	free(text);
	return rc;
}

/* ---- chunks -------------------------------------------------------------- */

/* A chunk table's entries at *pp ("[" entry ("," entry)... "]", each a
 * JSON string or a list of two) onto c's tables, their first index
 * into *first; *pp past it. Returns 0 or -1. */
static int
read_tab(struct pchunk *c, size_t *cap, const char **pp, size_t *first)
{
	const char *p = *pp, *e;

	*first = c->ntabs;
	if (*p++ != '[')
		return -1;
	while (*p != ']') {
		const char *s = p;

		if (c->ntabs > *first && *p++ != ',')
			return -1;
		s = p;
		if (*p == '[') {
			if ((e = scan_str(p + 1)) == NULL || *e != ',' ||
			    (e = scan_str(e + 1)) == NULL || *e != ']')
				return -1;
			e++;
		} else if ((e = scan_str(p)) == NULL)
			return -1;
		ARRAY_PUSH(c->tabs, c->ntabs, *cap) = xstrndup(s,
		    (size_t)(e - s));
		p = e;
	}
	*pp = p + 1;
	return 0;
}

/* One record at p ("[" gap "," head "," project "," status "," tail
 * "]") onto c, its slot past *lo; *pp past it. Returns 0 or -1. */
static int
read_rec(struct pchunk *c, const char **pp, uint64_t *lo, size_t ps,
    size_t ss)
{
	const char *p = *pp, *e;
	struct prec r;
	unsigned long long gap, pi, si;
	char *end;

	memset(&r, 0, sizeof(r));
	if (*p++ != '[' || (gap = strtoull(p, &end, 10), *end != ','))
		return -1;
	r.code = (unsigned)strtoul(end + 1, &end, 10);
	r.layer = (int)(r.code >> 3);
	r.moved = (r.code >> 2) & 1;
	if (*end != ',' || (e = scan_str(end + 1)) == NULL || *e != ',' ||
	    (e = scan_str(e + 1)) == NULL || *e != ',')
		return -1;
	r.head = end + 1;
	r.hlen = (size_t)(e - r.head);
	pi = strtoull(e + 1, &end, 10);
	if (*end != ',' || (si = strtoull(end + 1, &end, 10), *end != ','))
		return -1;
	if (pi >= ss - ps || si >= c->ntabs - ss)
		return -1;
	r.proj = c->tabs[ps + pi];
	r.status = c->tabs[ss + si];
	r.tail = p = end + 1;
	if ((e = scan_str(p)) == NULL)
		return -1;
	if (*e == ',' && e[1] == '[') {
		if ((e = scan_str(e + 2)) == NULL || *e++ != ']')
			return -1;
	} else if (*e == ',' && (e = scan_str(e + 1)) == NULL)
		return -1;
	if (*e != ']')
		return -1;
	r.tlen = (size_t)(e - r.tail);
	*lo += gap;
	r.slot = (c->n / 4 << SEARCH_SLOT_BITS) + *lo;
	ARRAY_PUSH(c->r, c->nr, c->cap) = r;
	*pp = e + 1;
	return 0;
}

/* The records of c's text into c; then the text they make must be the
 * file's. Returns 0 or -1. */
static int
chunk_parse(struct pchunk *c)
{
	const char *p = c->text;
	size_t tcap = 0, ps, ss, at = 0;
	unsigned long long n;
	uint64_t lo = 0;
	int ok;

	if (sscanf(p, "mirrorSearch.d(%llu,{\"p\":%zn", &n, &at) != 1 ||
	    at == 0 || n != c->n)
		return -1;
	p += at;
	if (read_tab(c, &tcap, &p, &ps) < 0 || strncmp(p, ",\"s\":", 5) != 0)
		return -1;
	p += 5;
	if (read_tab(c, &tcap, &p, &ss) < 0 || strncmp(p, "},[", 3) != 0)
		return -1;
	for (p += 3; *p != ']'; ) {
		if (strncmp(p, c->nr > 0 ? ",\n" : "\n", c->nr > 0 ? 2 : 1))
			return -1;
		p += c->nr > 0 ? 2 : 1;
		if (read_rec(c, &p, &lo, ps, ss) < 0)
			return -1;
	}
	if (strcmp(p, "]);\n") != 0)
		return -1;
	c->norig = c->nr;
	{
		struct chunk_rec *r = xcalloc(c->nr + 1, sizeof(*r));
		strbuf sb;

		for (size_t i = 0; i < c->nr; i++)
			r[i] = (struct chunk_rec){ c->r[i].slot &
			    ((UINT64_C(1) << SEARCH_SLOT_BITS) - 1), c->r[i].code,
			    c->r[i].head,
			    c->r[i].tail, c->r[i].hlen, c->r[i].tlen,
			    c->r[i].proj, c->r[i].status };
		strbuf_init(&sb);
		search_chunk_text(&sb, c->n, r, c->nr);
		ok = strcmp(sb.data, c->text) == 0;
		strbuf_free(&sb);
		free(r);
	}
	return ok ? 0 : -1;
}

/* Chunk n, read when first asked for, into *out. Returns 0,
 * SEARCH_REBUILD (a file not as this code writes it) or < 0. */
static int
chunk_get(struct patch *P, uint64_t n, struct pchunk **out)
{
	char path[64];
	struct pchunk *c;
	int rc;

	for (size_t i = 0; i < P->nch; i++)
		if (P->ch[i].n == n) {
			*out = &P->ch[i];
			return 0;
		}
	c = &ARRAY_PUSH(P->ch, P->nch, P->chcap);
	memset(c, 0, sizeof(*c));
	c->n = n;
	search_chunk_path(path, n);
	if ((rc = get_file(P, path, &c->text)) < 0)
		return rc;
	*out = c;
	return c->text == NULL || chunk_parse(c) == 0 ? 0 : SEARCH_REBUILD;
}

/* The record of kind k read at slot, into *r (NULL: none; it may be
 * one gone). Returns 0, SEARCH_REBUILD or < 0. */
/* array_lower order of a slot (key) and a record. */
static int
cmp_slot_key(const void *key, const void *e, const void *ctx)
{
	uint64_t s = *(const uint64_t *)key, x = ((const struct prec *)e)->slot;

	(void)ctx;
	return (s > x) - (s < x);
}

static int
rec_at(struct patch *P, int k, uint64_t slot, struct prec **r)
{
	struct pchunk *c;
	size_t lo;
	int rc;

	*r = NULL;
	if ((rc = chunk_get(P, search_chunk_of(slot, k), &c)) != 0)
		return rc;
	lo = array_lower(&slot, c->r, c->norig, sizeof(*c->r), cmp_slot_key,
	    NULL);
	if (lo < c->norig && c->r[lo].slot == slot)
		*r = &c->r[lo];
	return 0;
}

/* ---- the documents' slots ------------------------------------------------ */

/* The length of the quoted id that starts a record's tail. */
static size_t
tail_id(const char *tail)
{
	const char *e = scan_str(tail);

	return e != NULL ? (size_t)(e - tail) : 0;
}

/* 1 when r is document d of x (its layer, project and id). */
static int
is_doc(const struct prec *r, const struct search_index *x,
    const struct doc *d)
{
	const char *tail = x->recs.data + d->off + d->hlen;
	size_t n = tail_id(tail);

	return r->layer == (int)d->layer && n > 0 && n == tail_id(r->tail) &&
	    memcmp(r->tail, tail, n) == 0 &&
	    strcmp(r->proj, x->projects.e[d->project].json) == 0;
}

/* 1 when document a of x and b of y are the same document: its layer,
 * project and id. */
static int
same_doc(const struct search_index *x, const struct doc *a,
    const struct search_index *y, const struct doc *b)
{
	const char *ta = x->recs.data + a->off + a->hlen;
	const char *tb = y->recs.data + b->off + b->hlen;
	size_t n = tail_id(ta);

	return a->layer == b->layer && n > 0 && n == tail_id(tb) &&
	    memcmp(ta, tb, n) == 0 && strcmp(x->projects.e[a->project].json,
	    y->projects.e[b->project].json) == 0;
}

/* What renumbering a kind holds: the old and new documents as they ask
 * for slots (sorted), and for each its pair in the other (-1: none). */
struct kind_docs {
	int k;
	struct doc_key *ko, *kn;
	size_t no, nn;
	long *po, *pn;
};

/* Pair each old document with the new one that asks for the same slot
 * and is the same document: it keeps its slot (its record is written
 * again in place). */
static void
pair_docs(struct patch *P, struct kind_docs *kd)
{
	size_t i = 0, j = 0;

	kd->po = xcalloc(kd->no + 1, sizeof(*kd->po));
	kd->pn = xcalloc(kd->nn + 1, sizeof(*kd->pn));
	memset(kd->po, 0xff, (kd->no + 1) * sizeof(*kd->po));
	memset(kd->pn, 0xff, (kd->nn + 1) * sizeof(*kd->pn));
	while (i < kd->no && j < kd->nn) {
		const struct doc_key *a = &kd->ko[i], *b = &kd->kn[j];

		if (a->want != b->want || a->h != b->h) {
			if (a->want < b->want || (a->want == b->want &&
			    a->h < b->h))
				i++;
			else
				j++;
			continue;
		}
		if (same_doc(P->old, &P->old->docs[a->i], P->x,
		    &P->x->docs[b->i])) {
			kd->po[i] = (long)j;
			kd->pn[j] = (long)i;
		}
		i++;
		j++;
	}
}

/* The record of old document i of kd: from the slot it asked for on,
 * past the records of others. Into *r (its slot: r->slot). Returns 0,
 * SEARCH_REBUILD or < 0. */
static int
find_old(struct patch *P, const struct kind_docs *kd, size_t i,
    struct prec **r)
{
	const struct doc *d = &P->old->docs[kd->ko[i].i];
	int rc = 0;

	for (uint64_t s = kd->ko[i].want; s < kd->ko[i].want + FIND_MAX;
	    s++) {
		if ((rc = rec_at(P, kd->k, s, r)) != 0 || *r == NULL)
			break;
		if (!(*r)->gone && is_doc(*r, P->old, d))
			return 0;
	}
	return rc != 0 ? rc : SEARCH_REBUILD;
}

/*
 * The old documents of kd: each found in its chunk; one the new ones
 * keep takes their record in place (d->num: its number), the others are
 * taken out. A record of another project right after one taken out, and
 * moved past the slot it asked for, may have been moved by it and would
 * move back: SEARCH_REBUILD. (One that sits where it asked, and those
 * after it, asked for later slots: a run of slots is in the order
 * asked.) Returns 0, SEARCH_REBUILD or < 0.
 */
static int
take_old(struct patch *P, struct kind_docs *kd)
{
	struct prec **at = xcalloc(kd->no + 1, sizeof(*at));
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < kd->no; i++)
		if ((rc = find_old(P, kd, i, &at[i])) == 0 && kd->po[i] < 0)
			at[i]->gone = 1;
	for (size_t i = 0; rc == 0 && i < kd->no; i++) {
		struct doc *d = &P->old->docs[kd->ko[i].i];
		struct prec *r = NULL;

		d->num = P->base[kd->k] + at[i]->slot;
		if (kd->po[i] >= 0) {
			struct doc *n = &P->x->docs[kd->kn[kd->po[i]].i];
			struct chunk_rec cr;

			n->num = d->num;
			search_doc_rec(&cr, P->x, n, at[i]->slot, at[i]->moved);
			at[i]->code = cr.code;
			at[i]->head = cr.head;
			at[i]->hlen = cr.hlen;
			at[i]->tail = cr.tail;
			at[i]->tlen = cr.tlen;
			at[i]->proj = cr.proj;
			at[i]->status = cr.status;
			continue;
		}
		rc = rec_at(P, kd->k, at[i]->slot + 1, &r);
		if (rc == 0 && r != NULL && !r->gone && r->moved)
			rc = SEARCH_REBUILD;
	}
	free(at);
	return rc;
}

/*
 * The new documents of kd that no old one was: each takes the slot it
 * asks for, or the next after the new ones before it, as a whole build
 * would give it while no record sits between (else a whole build
 * might give another) nor right after it, moved (it may have asked for
 * a slot the new one takes). Returns 0, SEARCH_REBUILD or < 0.
 */
static int
place_new(struct patch *P, struct kind_docs *kd)
{
	int k = kd->k, rc = 0;
	uint64_t next = 0, *slots = xcalloc(kd->nn + 1, sizeof(*slots));
	int placed = 0;

	for (size_t i = 0; rc == 0 && i < kd->nn; i++) {
		uint64_t s = kd->kn[i].want;
		struct prec *r = NULL;

		if (kd->pn[i] >= 0)
			continue;
		s = placed && s < next ? next : s;
		next = s + 1;
		placed = 1;
		if (P->base[k] + s >= P->end[k])
			rc = SEARCH_REBUILD;
		for (uint64_t t = kd->kn[i].want; rc == 0 && t <= s; t++)
			if ((rc = rec_at(P, k, t, &r)) == 0 && r != NULL &&
			    !r->gone)
				rc = SEARCH_REBUILD;
		if (rc == 0 && (rc = rec_at(P, k, s + 1, &r)) == 0 &&
		    r != NULL && !r->gone && r->moved)
			rc = SEARCH_REBUILD;
		slots[i] = s;
	}
	for (size_t i = 0; rc == 0 && i < kd->nn; i++) {
		struct doc *d = &P->x->docs[kd->kn[i].i];
		struct pchunk *c;
		struct chunk_rec cr;

		if (kd->pn[i] >= 0)
			continue;
		d->num = P->base[k] + slots[i];
		if ((rc = chunk_get(P, search_chunk_of(slots[i], k), &c)) != 0)
			break;
		search_doc_rec(&cr, P->x, d, slots[i], slots[i] !=
		    kd->kn[i].want);
		ARRAY_PUSH(c->r, c->nr, c->cap) = (struct prec){ .slot =
		    slots[i], .code = cr.code, .head = cr.head, .hlen = cr.hlen,
		    .tail = cr.tail, .tlen = cr.tlen, .proj = cr.proj,
		    .status = cr.status, .layer = (int)d->layer };
		c->dirty = 1;
	}
	free(slots);
	return rc;
}

/* The documents' slots, kind by kind: the old found, kept in place or
 * taken out, the new put in, each kind's ring the size it was. Every
 * chunk read is written again (the same bytes cost nothing). Returns
 * 0, SEARCH_REBUILD or < 0. */
static int
renumber(struct patch *P)
{
	int rc = 0;

	for (int k = 0; k < 3; k++) {
		size_t was = P->per[k];

		if (P->old->per_kind[k] > was)
			return SEARCH_REBUILD;
		P->per[k] = was - P->old->per_kind[k] + P->x->per_kind[k];
		if (search_kind_bits(P->per[k]) != search_kind_bits(was) ||
		    P->end[k] - P->base[k] != UINT64_C(2) <<
		    search_kind_bits(was))
			return SEARCH_REBUILD;
	}
	for (int k = 0; rc == 0 && k < 3; k++) {
		unsigned bits = search_kind_bits(P->per[k]);
		struct kind_docs kd = { .k = k };

		kd.ko = search_kind_keys(P->old, k, bits, &kd.no);
		kd.kn = search_kind_keys(P->x, k, bits, &kd.nn);
		pair_docs(P, &kd);
		rc = take_old(P, &kd);
		if (rc == 0)
			rc = place_new(P, &kd);
		free(kd.ko);
		free(kd.kn);
		free(kd.po);
		free(kd.pn);
	}
	for (size_t i = 0; i < P->nch; i++)
		P->ch[i].dirty = 1;
	return rc;
}

/* ---- the terms' postings ------------------------------------------------- */

/* qsort order of tdeltas: by the terms' bytes. */
static int
tdelta_cmp(const void *a, const void *b)
{
	return strcmp(((const struct tdelta *)a)->s,
	    ((const struct tdelta *)b)->s);
}

/* The numbers of t's documents (every one: the index keeps them whole)
 * into *nums, sorted; returns their count. */
static size_t
term_nums(uint64_t **nums, const struct search_index *x,
    const struct term *t)
{
	*nums = xcalloc(t->n + 1, sizeof(**nums));
	for (uint32_t i = 0; i < t->n; i++)
		(*nums)[i] = x->docs[term_posts(t)[i]].num;
	qsort(*nums, t->n, sizeof(**nums), search_num_cmp);
	return t->n;
}

/* 1 when term o of the old documents and n of the new hold the same
 * numbers: its postings do not change (a document kept in place). */
static int
delta_none(const struct patch *P, long o, long n)
{
	uint64_t *a, *b;
	size_t na, nb;
	int same;

	if (o < 0 || n < 0)
		return 0;
	na = term_nums(&a, P->old, &P->old->terms[o]);
	nb = term_nums(&b, P->x, &P->x->terms[n]);
	same = na == nb && memcmp(a, b, na * sizeof(*a)) == 0;
	free(a);
	free(b);
	return same;
}

/* Every term of the old and the new documents whose postings change
 * into P->td, in byte order, once each. */
static void
deltas_make(struct patch *P)
{
	size_t n = 0, w = 0;
	struct tdelta *td = xcalloc(P->old->n_terms + P->x->n_terms + 1,
	    sizeof(*td));

	for (size_t i = 0; i < P->old->n_terms; i++)
		td[n++] = (struct tdelta){ term_text(P->old,
		    &P->old->terms[i]), (long)i, -1 };
	for (size_t i = 0; i < P->x->n_terms; i++)
		td[n++] = (struct tdelta){ term_text(P->x, &P->x->terms[i]),
		    -1, (long)i };
	qsort(td, n, sizeof(*td), tdelta_cmp);
	for (size_t i = 0; i < n; i++) {
		if (w > 0 && strcmp(td[w - 1].s, td[i].s) == 0) {
			if (td[i].o >= 0)
				td[w - 1].o = td[i].o;
			if (td[i].n >= 0)
				td[w - 1].n = td[i].n;
			continue;
		}
		td[w++] = td[i];
	}
	n = w;
	w = 0;
	for (size_t i = 0; i < n; i++)
		if (!delta_none(P, td[i].o, td[i].n))
			td[w++] = td[i];
	P->td = td;
	P->ntd = w;
}

/* The kind of document number num, or -1. */
static int
kind_of(const struct patch *P, uint64_t num)
{
	for (int k = 0; k < 3; k++)
		if (num >= P->base[k] && num < P->end[k])
			return k;
	return -1;
}

/* A term's postings as a shard writes them (search_postings_text):
 * its documents of each kind (tot), whether they are a sample, and the
 * numbers of those listed, nums[0..n) (room for cap). */
struct postings {
	uint32_t tot[3];
	int sampled;
	uint64_t *nums;
	size_t n, cap;
};

/* The postings text post (NULL: "") into *pp (its nums the caller
 * frees). Returns 0 or -1. */
static int
post_read(struct postings *pp, const struct patch *P, const char *post)
{
	const char *p = post != NULL ? post : "";
	uint32_t *tot = pp->tot;
	uint64_t v = 0;
	char *end;

	*pp = (struct postings){ .nums = NULL };
	pp->sampled = strchr(p, ';') != NULL;
	for (int k = 0; pp->sampled && k < 3; k++) {
		tot[k] = (uint32_t)strtoul(p, &end, 36);
		if (*end != (k < 2 ? '.' : ';'))
			return -1;
		p = end + 1;
	}
	while (*p != '\0') {
		v += strtoull(p, &end, 36);
		if (end == p || (*end != ',' && *end != '\0') ||
		    kind_of(P, v) < 0)
			return -1;
		ARRAY_PUSH(pp->nums, pp->n, pp->cap) = v;
		if (!pp->sampled)
			tot[kind_of(P, v)]++;
		p = *end == ',' ? end + 1 : end;
	}
	return 0;
}

/* The place of num among nums[0..n) (sorted), or NULL. */
static uint64_t *
num_find(uint64_t *nums, size_t n, uint64_t num)
{
	return n > 0 ? bsearch(&num, nums, n, sizeof(*nums),
	    search_num_cmp) : NULL;
}

/* Take doc out of nums[0..*n) (sorted) when the sample of bits keeps
 * it. Returns 0, or -1 when it was not there to take out. */
static int
post_take(uint64_t *nums, size_t *n, const struct doc *d, unsigned bits)
{
	uint64_t *hit;

	if (!search_sample_keeps(d->h, bits))
		return 0;
	if ((hit = num_find(nums, *n, d->num)) == NULL)
		return -1;
	memmove(hit, hit + 1, (size_t)(nums + *n - hit - 1) * sizeof(*hit));
	(*n)--;
	return 0;
}

/* The postings of term t after the change, from post (the shard's;
 * NULL: a new term), into out (empty: no document has it now).
 * Returns 0 or SEARCH_REBUILD (a sample that changes size, or postings
 * not as the old documents say). */
static int
post_patch(const struct patch *P, const struct tdelta *t, const char *post,
    strbuf *out)
{
	const struct term *ot = t->o >= 0 ? &P->old->terms[t->o] : NULL;
	const struct term *nt = t->n >= 0 ? &P->x->terms[t->n] : NULL;
	struct postings pp;
	uint32_t *tot = pp.tot;
	unsigned bits[3];
	size_t kept;
	int rc = 0;

	if (post_read(&pp, P, post) < 0) {
		free(pp.nums);
		return SEARCH_REBUILD;
	}
	for (int k = 0; k < 3; k++) {
		uint32_t was = tot[k];

		bits[k] = search_sample_bits(was);
		if ((ot != NULL && ot->tot[k] > was) || (!pp.sampled &&
		    bits[k] > 0))
			rc = SEARCH_REBUILD;
		tot[k] = was - (ot != NULL ? ot->tot[k] : 0) + (nt != NULL ?
		    nt->tot[k] : 0);
		if (rc == 0 && search_sample_bits(tot[k]) != bits[k])
			rc = SEARCH_REBUILD;
	}
	for (uint32_t i = 0; rc == 0 && ot != NULL && i < ot->n; i++) {
		const struct doc *d = &P->old->docs[term_posts(ot)[i]];

		if (post_take(pp.nums, &pp.n, d, bits[d->kind]) < 0)
			rc = SEARCH_REBUILD;
	}
	/* The new ones kept go after the others, then all are sorted
	 * once; one already there is postings not as the old say. */
	kept = pp.n;
	for (uint32_t i = 0; rc == 0 && nt != NULL && i < nt->n; i++) {
		const struct doc *d = &P->x->docs[term_posts(nt)[i]];

		if (!search_sample_keeps(d->h, bits[d->kind]))
			continue;
		if (num_find(pp.nums, kept, d->num) != NULL)
			rc = SEARCH_REBUILD;
		ARRAY_PUSH(pp.nums, pp.n, pp.cap) = d->num;
	}
	if (pp.n > kept)
		qsort(pp.nums, pp.n, sizeof(*pp.nums), search_num_cmp);
	strbuf_reset(out);
	if (rc == 0 && tot[0] + tot[1] + tot[2] > 0)
		search_postings_text(out, tot, (bits[0] | bits[1] | bits[2]) !=
		    0, pp.nums, pp.n);
	free(pp.nums);
	return rc;
}

/* ---- the shards ---------------------------------------------------------- */

/* array_lower order of a term (key) and a shard, that finds the first
 * shard whose first term is after the key: never equal. */
static int
cmp_after_key(const void *key, const void *e, const void *ctx)
{
	(void)ctx;
	return strcmp(*(const char *const *)key,
	    ((const struct pshard *)e)->first) < 0 ? -1 : 1;
}

/* The shard of the manifest that holds term s: the last whose first
 * term is at most s (the first when none is). */
static size_t
shard_of(const struct patch *P, const char *s)
{
	size_t after = array_lower(&s, P->sh, P->nsh, sizeof(*P->sh),
	    cmp_after_key, NULL);

	return after > 0 ? after - 1 : 0;
}

/* The first shard of the run of shards i is in: the last at or before
 * it that starts at its cut whatever came before (search_cut_here). */
static size_t
seg_start(const struct patch *P, size_t i)
{
	while (i > 0 && !search_cut_here(P->sh[i].first))
		i--;
	return i;
}

/* The shard after the run of shards i is in (P->nsh: none). */
static size_t
seg_end(const struct patch *P, size_t i)
{
	for (i++; i < P->nsh && !search_cut_here(P->sh[i].first); i++)
		;
	return i;
}

/* Add range [a, b) to P's ranges, kept sorted and apart. */
static void
range_add(struct patch *P, size_t a, size_t b)
{
	size_t w = 0, cap = 0;
	size_t *r = NULL;
	int put = 0;

	for (size_t i = 0; i < P->nrng; i++) {
		size_t ra = P->rng[2 * i], rb = P->rng[2 * i + 1];

		if (rb < a || ra > b) {
			if (!put && ra > b) {
				ARRAY_PUSH(r, w, cap) = a;
				ARRAY_PUSH(r, w, cap) = b;
				put = 1;
			}
			ARRAY_PUSH(r, w, cap) = ra;
			ARRAY_PUSH(r, w, cap) = rb;
			continue;
		}
		a = ra < a ? ra : a;    /* they meet: one range */
		b = rb > b ? rb : b;
	}
	if (!put) {
		ARRAY_PUSH(r, w, cap) = a;
		ARRAY_PUSH(r, w, cap) = b;
	}
	free(P->rng);
	P->rng = r;
	P->nrng = w / 2;
}

/* The entries of shard i into *e (appended; *n, *cap), decoded (a
 * title's term packed over the term before it, search_titled_pack,
 * unpacked). Returns 0, SEARCH_REBUILD or < 0. */
static int
shard_read(struct patch *P, size_t i, struct tent **e, size_t *n,
    size_t *cap)
{
	char path[64], *text = NULL, *tok, *save = NULL;
	const char *body, *end;
	strbuf sb, prev, un;
	size_t start = *n;
	int rc, head;

	(void)snprintf(path, sizeof(path), "search/t-%s.js", P->sh[i].key);
	if ((rc = get_file(P, path, &text)) < 0)
		return rc;
	rc = SEARCH_REBUILD;
	strbuf_init(&sb);
	strbuf_init(&prev);
	strbuf_init(&un);
	if (text == NULL || strncmp(text, "mirrorSearch.t(\"", 16) != 0 ||
	    strncmp(text + 16, P->sh[i].key, 12) != 0 ||
	    strncmp(text + 28, "\",\"", 3) != 0)
		goto out;
	body = text + 30;
	if ((end = scan_str(body)) == NULL || strcmp(end, ");\n") != 0 ||
	    unquote(&sb, body, end) < 0)
		goto out;
	head = 1;
	for (tok = strtok_r(sb.data, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save), head = !head) {
		size_t pre;

		if (!head && tok[0] == SEARCH_TITLED) {
			strbuf_reset(&un);
			if (*n < start + 2 || search_titled_expand(&un, tok,
			    (*e)[*n - 2].post) < 0)
				goto out;
			(*e)[*n - 1].post = xstrdup(un.data);
			continue;
		}
		if (!head) {
			(*e)[*n - 1].post = xstrdup(tok);
			continue;
		}
		pre = (size_t)(strchr("0123456789abcdefghijklmnopqrstuvwxyz",
		    tok[0] != '\0' ? tok[0] : '!') != NULL ? strtoul((char[]){
		    tok[0], '\0' }, NULL, 36) : 99);
		if (pre > prev.len)
			goto out;
		prev.len = pre;
		strbuf_puts(&prev, tok + 1);
		ARRAY_PUSH(*e, *n, *cap) = (struct tent){ xstrdup(prev.data),
		    NULL };
	}
	if (!head || (*n > 0 && (*e)[*n - 1].post == NULL))
		goto out;
	rc = 0;
out:
	strbuf_free(&sb);
	strbuf_free(&prev);
	strbuf_free(&un);
	free(text);
	return rc;
}

/* Free the n entries of e and e. */
static void
tents_free(struct tent *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].term);
		free(e[i].post);
	}
	free(e);
}

/* search_cut's done for an update: the shard onto P's new shards. */
static int
range_done(void *arg, const char *first, const strbuf *body,
    mirror_error *err)
{
	struct patch *P = arg;
	struct nshard *s = &ARRAY_PUSH(P->ns, P->nns, P->nscap);

	(void)err;
	search_shard_key(s->key, first);
	s->first = xstrdup(first);
	strbuf_init(&s->body);
	strbuf_add(&s->body, body->data, body->len);
	return 0;
}

/*
 * The shards of range r cut again: its entries with the postings of
 * the terms that change (deltas from *d on), onto P's new shards.
 * *lost gets 1 when the range's first term is gone (the cut before it
 * with it: the run before must be cut again too). Returns 0,
 * SEARCH_REBUILD or < 0.
 */
static int
range_cut(struct patch *P, size_t r, size_t *d, int *lost)
{
	size_t a = P->rng[2 * r], b = P->rng[2 * r + 1], n = 0, cap = 0, i;
	struct tent *e = NULL;
	struct shard_cut cut;
	strbuf post;
	int rc = 0, first = 1;

	*lost = 0;
	for (size_t s = a; rc == 0 && s < b; s++)
		rc = shard_read(P, s, &e, &n, &cap);
	strbuf_init(&post);
	search_cut_init(&cut, range_done, P);
	for (i = 0; rc == 0 && (i < n || (*d < P->ntd &&
	    shard_of(P, P->td[*d].s) < b)); ) {
		int c = i >= n ? 1 : !(*d < P->ntd && shard_of(P,
		    P->td[*d].s) < b) ? -1 : strcmp(e[i].term, P->td[*d].s);
		const char *term = c <= 0 ? e[i].term : P->td[*d].s;

		if (c < 0)
			strbuf_puts((strbuf_reset(&post), &post), e[i].post);
		else
			rc = post_patch(P, &P->td[*d], c == 0 ? e[i].post :
			    NULL, &post);
		if (rc == 0 && post.len > 0) {
			*lost |= first && a > 0 && strcmp(term,
			    P->sh[a].first) != 0;
			first = 0;
			rc = search_cut_add(&cut, term, post.data, P->err);
		}
		i += c <= 0;
		*d += c >= 0;
	}
	*lost |= first && a > 0;
	if (rc == 0)
		rc = search_cut_end(&cut, P->err);
	search_cut_free(&cut);
	strbuf_free(&post);
	tents_free(e, n);
	return rc;
}

/* Drop P's new shards. */
static void
ns_clear(struct patch *P)
{
	for (size_t i = 0; i < P->nns; i++) {
		free(P->ns[i].first);
		strbuf_free(&P->ns[i].body);
	}
	P->nns = 0;
}

/*
 * The ranges of shards the changed terms are in, each from a cut that
 * holds whatever came before it to the next, cut again; a range whose
 * first term went takes in the run before it, and all are cut again.
 * Returns 0, SEARCH_REBUILD or < 0.
 */
static int
shards_cut(struct patch *P)
{
	int rc, again;

	for (size_t i = 0; i < P->ntd; i++) {
		size_t s = shard_of(P, P->td[i].s);

		range_add(P, seg_start(P, s), seg_end(P, s));
	}
	do {
		size_t d = 0;

		ns_clear(P);
		free(P->rng_ns);
		P->rng_ns = xcalloc(P->nrng + 1, sizeof(*P->rng_ns));
		rc = 0;
		again = 0;
		for (size_t r = 0; rc == 0 && r < P->nrng; r++) {
			int lost;

			P->rng_ns[r] = P->nns;
			rc = range_cut(P, r, &d, &lost);
			if (rc == 0 && lost) {
				size_t a = P->rng[2 * r];

				range_add(P, seg_start(P, a - 1), a);
				again = 1;
				break;
			}
		}
		P->rng_ns[P->nrng] = P->nns;
	} while (rc == 0 && again);
	return rc;
}

/* ---- what is written ------------------------------------------------------ */

/* The range of P that shard i of the manifest is in, or -1. */
static long
range_of(const struct patch *P, size_t i)
{
	for (size_t r = 0; r < P->nrng; r++)
		if (i >= P->rng[2 * r] && i < P->rng[2 * r + 1])
			return (long)r;
	return -1;
}

/* The manifest's lists of keys and first terms after the update into
 * keys and first, and the shards gone onto P's drop. Returns 0 or
 * SEARCH_REBUILD (two shards of one key: a whole build names one by
 * its place). */
static int
shards_list(struct patch *P, strbuf *keys, strbuf *first)
{
	struct hashtab seen;
	size_t k = 0;
	int rc = 0;

	hashtab_init(&seen, sizeof(uint64_t));
	for (size_t i = 0; rc == 0 && i < P->nsh; i++) {
		long r = range_of(P, i);
		size_t from = i, to = i + 1;

		if (r >= 0 && i != P->rng[2 * r])
			continue;
		if (r >= 0) {
			from = P->rng_ns[r];
			to = P->rng_ns[r + 1];
		}
		for (size_t j = from; rc == 0 && j < to; j++, k++) {
			const char *key = r >= 0 ? P->ns[j].key : P->sh[j].key;
			const char *f = r >= 0 ? P->ns[j].first :
			    P->sh[j].first;
			int added;

			(void)hashtab_put(&seen, hash_mix(hash_add_str(
			    MIRROR_HASH_INIT, key)) | 1, &added);
			if (!added)
				rc = SEARCH_REBUILD;
			strbuf_printf(keys, "%s\"%s\"", k > 0 ? "," : "", key);
			strbuf_puts(first, k > 0 ? ",\n" : "");
			json_quote(first, f, 1);
		}
	}
	for (size_t i = 0; rc == 0 && i < P->nsh; i++) {
		long r = range_of(P, i);
		int kept = 0;

		for (size_t j = r >= 0 ? P->rng_ns[r] : 0; r >= 0 &&
		    j < P->rng_ns[r + 1]; j++)
			kept |= strcmp(P->ns[j].key, P->sh[i].key) == 0;
		if (r >= 0 && !kept) {
			char path[64];

			(void)snprintf(path, sizeof(path), "search/t-%s.js",
			    P->sh[i].key);
			ARRAY_PUSH(P->drop, P->ndrop, P->dcap) = xstrdup(path);
		}
	}
	hashtab_free(&seen);
	return rc;
}

/* qsort order of precs: by slot. */
static int
prec_cmp(const void *a, const void *b)
{
	const struct prec *x = a, *y = b;

	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/* Write chunk c as it is now, or onto P's drop when no record is
 * left. Returns 0 or < 0. */
static int
chunk_put(struct patch *P, struct pchunk *c)
{
	struct chunk_rec *r = xcalloc(c->nr + 1, sizeof(*r));
	char path[64];
	size_t n = 0;
	strbuf sb;
	int rc = 0;

	qsort(c->r, c->nr, sizeof(*c->r), prec_cmp);
	for (size_t i = 0; i < c->nr; i++)
		if (!c->r[i].gone)
			r[n++] = (struct chunk_rec){ c->r[i].slot &
			    ((UINT64_C(1) << SEARCH_SLOT_BITS) - 1), c->r[i].code,
			    c->r[i].head,
			    c->r[i].tail, c->r[i].hlen, c->r[i].tlen,
			    c->r[i].proj, c->r[i].status };
	search_chunk_path(path, c->n);
	strbuf_init(&sb);
	if (n > 0) {
		search_chunk_text(&sb, c->n, r, n);
		rc = P->x->put(P->x->arg, path, sb.data, sb.len, P->err);
	} else if (c->text != NULL)
		ARRAY_PUSH(P->drop, P->ndrop, P->dcap) = xstrdup(path);
	strbuf_free(&sb);
	free(r);
	return rc;
}

/* Write every file that changed: the chunks, the ranges' shards, the
 * manifest; keep the others, drop those gone. Returns 0,
 * SEARCH_REBUILD (nothing written) or < 0. */
static int
write_all(struct patch *P)
{
	char path[64];
	strbuf keys, first, sb;
	int rc;

	strbuf_init(&keys);
	strbuf_init(&first);
	strbuf_init(&sb);
	rc = shards_list(P, &keys, &first);
	for (size_t i = 0; rc == 0 && i < P->nch; i++)
		if (P->ch[i].dirty)
			rc = chunk_put(P, &P->ch[i]);
	for (size_t i = 0; rc == 0 && i < P->nns; i++) {
		(void)snprintf(path, sizeof(path), "search/t-%s.js",
		    P->ns[i].key);
		search_shard_text(&sb, P->ns[i].key, &P->ns[i].body);
		rc = P->x->put(P->x->arg, path, sb.data, sb.len, P->err);
	}
	if (rc == 0) {
		search_manifest_text(&sb, &(struct manifest_out){
		    .docs = P->per[0] + P->per[1] + P->per[2],
		    .base = { P->base[0], P->base[1], P->base[2] },
		    .end = { P->end[0], P->end[1], P->end[2] },
		    .per = { P->per[0], P->per[1], P->per[2] }, .key = P->key,
		    .urls = P->x->urls, .keys = &keys, .first = &first });
		rc = P->x->put(P->x->arg, "search/index.js", sb.data, sb.len,
		    P->err);
	}
	if (rc == 0)
		rc = P->prev->keep(P->prev->arg, (const char *const *)P->drop,
		    P->ndrop, P->err);
	free_list(P->drop, P->ndrop);
	P->drop = NULL;
	P->ndrop = P->dcap = 0;
	strbuf_free(&keys);
	strbuf_free(&first);
	strbuf_free(&sb);
	return rc;
}

/* Free what P holds. */
static void
patch_free(struct patch *P)
{
	for (size_t i = 0; i < P->nsh; i++) {
		free(P->sh[i].key);
		free(P->sh[i].first);
	}
	free(P->sh);
	for (size_t i = 0; i < P->nch; i++) {
		free(P->ch[i].text);
		free_list(P->ch[i].tabs, P->ch[i].ntabs);
		free(P->ch[i].r);
	}
	free(P->ch);
	ns_clear(P);
	free(P->ns);
	free(P->td);
	free(P->rng);
	free(P->rng_ns);
	free(P->key);
}

int
search_index_update(struct search_index *x, struct search_index *old,
    const struct search_prev *prev, mirror_error *err)
{
	struct patch P = { .x = x, .old = old, .prev = prev, .err = err };
	int rc;

	if (!x->whole || !old->whole)
		return mirror_fail(err, MIRROR_EIO, "internal: search update "
		    "of an index that samples");
	rc = man_read(&P);
	if (rc == 0)
		rc = renumber(&P);
	if (rc == 0) {
		deltas_make(&P);
		rc = shards_cut(&P);
	}
	/* The shards' and the manifest's text are worked out before a
	 * byte is written: a rebuild after this would find its files
	 * written twice. A chunk, the one thing written before the last
	 * check, is checked already (renumber). */
	if (rc == 0)
		rc = write_all(&P);
	patch_free(&P);
	return rc;
}
