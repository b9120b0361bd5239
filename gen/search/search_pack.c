/*
 * search_pack.c: the projects' search documents in one entry of the
 * user's cache (search_pack.h).
 *
 * A pack is its header ("mirror search pack 1", the search key), then
 * each project's record, four fields "<length>:<bytes>\n" (its path,
 * its digest, its documents, and the hash of the three: a record
 * damaged is none), then the index: for each record the hash
 * of its path and digest and its offset, two 64-bit words each, in
 * order of hash then offset; last a trailer: the index's offset, its
 * count and PACK_MAGIC. The words are the machine's own: the cache is
 * the user's, on this machine. An alias is ALIAS_HEAD and a pack's
 * name.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/search_pack.h"
#include "util/hash.h"
#include "util/xalloc.h"

#define PACK_HEAD "mirror search pack 1\n"
#define ALIAS_HEAD "mirror search alias 1\n"
#define PACK_MAGIC "mspack1\n"
#define TRAILER 24              /* offset, count, PACK_MAGIC */
#define HEAD_LEN (sizeof(PACK_HEAD) - 1 + 17)
#define ALIAS_LEN (sizeof(ALIAS_HEAD) - 1 + 17)
/* The bytes gathered before a write. */
#define FLUSH_AT (1u << 20)

/* A record's place in the index. */
struct pack_ent {
	uint64_t h, off;
};

struct pack_writer {
	struct cache_writer *cw;
	strbuf buf;
	uint64_t off;                   /* the bytes written before buf */
	struct pack_ent *ent;
	size_t n, cap;
};

/* The hash of a project's path and digest. */
static uint64_t
unit_hash(const char *path, const char *hex)
{
	return hash_mix(hash_add_str(hash_add_str(MIRROR_HASH_INIT, path),
	    hex));
}

/* The hash of a record's fields (path, hex, data[0..len)) into sum. */
static void
record_sum(char sum[17], const char *path, const char *hex,
    const char *data, size_t len)
{
	hash_hex(sum, hash_mix(hash_words(unit_hash(path, hex), data, len)));
}

/* The cache's key of the pack or alias named name into out. Returns
 * its length. */
static size_t
pack_key(char out[40], const char *name)
{
	int n = snprintf(out, 40, "search pack\n%s", name);

	return n > 0 && n < 40 ? (size_t)n : 0;
}

/* The name of a set (the sum of its units' hashes, n of them) under
 * key into hex. */
static void
set_name(char hex[17], const char *key, uint64_t sum, size_t n)
{
	char num[48];
	uint64_t h = hash_add_str(MIRROR_HASH_INIT, "search pack 1");
	int len = snprintf(num, sizeof(num), "%llu %zu",
	    (unsigned long long)sum, n);

	h = hash_add_str(h, key);
	if (len > 0 && (size_t)len < sizeof(num))
		h = hash_add(h, num, (size_t)len);
	hash_hex(hex, hash_mix(h));
}

void
pack_names_start(struct pack_names *pn, const char *key)
{
	memset(pn, 0, sizeof(*pn));
	memcpy(pn->key, key, strnlen(key, 16));
}

void
pack_names_add(struct pack_names *pn, const char *path, const char *prev,
    const char *hex)
{
	if (prev[0] != '\0') {
		pn->sum_prev += unit_hash(path, prev);
		pn->n_prev++;
	}
	if (hex[0] != '\0') {
		pn->sum_now += unit_hash(path, hex);
		pn->n_now++;
	}
}

void
pack_names_finish(struct pack_names *pn)
{
	if (pn->n_prev > 0)
		set_name(pn->prev, pn->key, pn->sum_prev, pn->n_prev);
	set_name(pn->now, pn->key, pn->sum_now, pn->n_now);
}

/* The pack named name of key (no alias followed) opened into *r.
 * Returns 0, or -1 when there is none or it is not sound. */
static int
open_named(struct pack_reader *r, const char *kind, const char *key,
    const char *name)
{
	char k[40];
	size_t klen = pack_key(k, name);
	uint64_t index, count;
	const char *d;

	if (klen == 0 || cache_map(&r->m, SIZE_MAX, kind, k, klen) != 0)
		return -1;
	d = r->m.data;
	if (r->m.len < HEAD_LEN + TRAILER || memcmp(d, PACK_HEAD,
	    sizeof(PACK_HEAD) - 1) != 0 || memcmp(d + sizeof(PACK_HEAD) - 1,
	    key, 16) != 0 || d[HEAD_LEN - 1] != '\n' ||
	    memcmp(d + r->m.len - 8, PACK_MAGIC, 8) != 0)
		goto bad;
	memcpy(&index, d + r->m.len - TRAILER, 8);
	memcpy(&count, d + r->m.len - TRAILER + 8, 8);
	if (index < HEAD_LEN || index > r->m.len - TRAILER ||
	    count != (r->m.len - TRAILER - index) / 16 ||
	    (r->m.len - TRAILER - index) % 16 != 0)
		goto bad;
	r->index = (size_t)index;
	r->count = (size_t)count;
	memcpy(r->name, name, 17);
	return 0;
bad:
	cache_unmap(&r->m);
	return -1;
}

/* The name an alias named name gives into target; else name itself
 * (the entry, if any, is a pack). Returns nothing. */
static void
resolve(char target[17], const char *kind, const char *name)
{
	char k[40], buf[64];
	size_t klen = pack_key(k, name);
	long got = klen > 0 ? cache_get(buf, sizeof(buf), kind, k, klen) : -1;

	memcpy(target, name, 17);
	if (got == (long)ALIAS_LEN && memcmp(buf, ALIAS_HEAD,
	    sizeof(ALIAS_HEAD) - 1) == 0 && buf[ALIAS_LEN - 1] == '\n') {
		memcpy(target, buf + sizeof(ALIAS_HEAD) - 1, 16);
		target[16] = '\0';
	}
}

int
pack_open(struct pack_reader *r, const char *kind,
    const struct pack_names *pn)
{
	char target[17];

	if (r->tried)
		return r->name[0] != '\0' ? 0 : -1;
	r->tried = 1;
	if (pn->prev[0] == '\0')
		return -1;
	resolve(target, kind, pn->prev);
	return open_named(r, kind, pn->key, target);
}

/* Field "<length>:<bytes>\n" at *p (before end) into s and n; *p past
 * it. Returns 0, or -1 when it is not one. */
static int
get_field(const char **p, const char *end, const char **s, size_t *n)
{
	const char *q = *p;
	size_t len = 0;

	if (q >= end || *q < '0' || *q > '9')
		return -1;
	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		if (len > SIZE_MAX / 16)
			return -1;
		len = len * 10 + (size_t)(*q - '0');
	}
	if (q >= end || *q != ':' || len >= (size_t)(end - q - 1) ||
	    q[1 + len] != '\n')
		return -1;
	*s = q + 1;
	*n = len;
	*p = q + 2 + len;
	return 0;
}

/* 1 when field s[0..n) is the string want, else 0. */
static int
field_is(const char *s, size_t n, const char *want)
{
	return strlen(want) == n && memcmp(s, want, n) == 0;
}

/* The index's entry i of r into *e. */
static void
entry_at(struct pack_ent *e, const struct pack_reader *r, size_t i)
{
	memcpy(e, r->m.data + r->index + i * 16, 16);
}

int
pack_get(strbuf *sb, const struct pack_reader *r, const char *path,
    const char *hex)
{
	uint64_t h = unit_hash(path, hex);
	size_t lo = 0, hi = r->count;
	struct pack_ent e;

	if (r->name[0] == '\0')
		return -1;
	while (lo < hi) {               /* the first entry of h or above */
		size_t mid = lo + (hi - lo) / 2;

		entry_at(&e, r, mid);
		if (e.h < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < r->count; lo++) {
		const char *p, *end = r->m.data + r->index, *f[4];
		size_t n[4];
		char sum[17];
		int k = 0;

		entry_at(&e, r, lo);
		if (e.h != h)
			break;
		if (e.off < HEAD_LEN || e.off >= r->index)
			continue;
		p = r->m.data + e.off;
		while (k < 4 && get_field(&p, end, &f[k], &n[k]) == 0)
			k++;
		if (k < 4 || !field_is(f[0], n[0], path) ||
		    !field_is(f[1], n[1], hex))
			continue;
		record_sum(sum, path, hex, f[2], n[2]);
		if (!field_is(f[3], n[3], sum))
			return -1;      /* damaged */
		strbuf_add(sb, f[2], n[2]);
		return 0;
	}
	return -1;
}

struct pack_writer *
pack_start(const char *kind, const struct pack_names *pn)
{
	struct pack_reader there = { 0 };
	struct pack_writer *w;
	struct cache_writer *cw;
	char k[40];
	size_t klen = pack_key(k, pn->now);

	/* Its name names its documents: one sound is left as it is. */
	if (klen == 0 || open_named(&there, kind, pn->key, pn->now) == 0) {
		pack_close(&there);
		return NULL;
	}
	if ((cw = cache_writer_start(kind, k, klen)) == NULL)
		return NULL;
	w = xcalloc(1, sizeof(*w));
	w->cw = cw;
	strbuf_init(&w->buf);
	strbuf_puts(&w->buf, PACK_HEAD);
	strbuf_add(&w->buf, pn->key, 16);
	strbuf_putc(&w->buf, '\n');
	return w;
}

/* w's gathered bytes written. */
static void
flush(struct pack_writer *w)
{
	cache_writer_add(w->cw, w->buf.data, w->buf.len);
	w->off += w->buf.len;
	strbuf_reset(&w->buf);
}

/* Field data[0..len) onto sb. */
static void
put_field(strbuf *sb, const char *data, size_t len)
{
	strbuf_printf(sb, "%zu:", len);
	strbuf_add(sb, data, len);
	strbuf_putc(sb, '\n');
}

void
pack_add(struct pack_writer *w, const char *path, const char *hex,
    const char *data, size_t len)
{
	char sum[17];

	if (w == NULL)
		return;
	if (w->n == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 1024;
		w->ent = xrealloc(w->ent, w->cap * sizeof(*w->ent));
	}
	w->ent[w->n++] = (struct pack_ent){ unit_hash(path, hex),
	    w->off + w->buf.len };
	record_sum(sum, path, hex, data, len);
	put_field(&w->buf, path, strlen(path));
	put_field(&w->buf, hex, strlen(hex));
	put_field(&w->buf, data, len);
	put_field(&w->buf, sum, 16);
	if (w->buf.len >= FLUSH_AT)
		flush(w);
}

/* Order index entries by hash, then offset. */
static int
ent_cmp(const void *a, const void *b)
{
	const struct pack_ent *x = a, *y = b;

	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

void
pack_end(struct pack_writer *w, int keep)
{
	uint64_t index, count;

	if (w == NULL)
		return;
	if (keep) {
		qsort(w->ent, w->n, sizeof(*w->ent), ent_cmp);
		index = w->off + w->buf.len;
		count = w->n;
		for (size_t i = 0; i < w->n; i++) {
			strbuf_add(&w->buf, &w->ent[i], 16);
			if (w->buf.len >= FLUSH_AT)
				flush(w);
		}
		strbuf_add(&w->buf, &index, 8);
		strbuf_add(&w->buf, &count, 8);
		strbuf_add(&w->buf, PACK_MAGIC, 8);
		flush(w);
	}
	cache_writer_end(w->cw, keep);
	strbuf_free(&w->buf);
	free(w->ent);
	free(w);
}

/* Drop the pack or alias named name. */
static void
drop_named(const char *kind, const char *name)
{
	char k[40];
	size_t klen = pack_key(k, name);

	if (klen > 0)
		cache_drop(kind, k, klen);
}

void
pack_carry(const char *kind, const struct pack_names *pn,
    const struct pack_reader *r)
{
	char k[40], alias[ALIAS_LEN + 1];
	size_t klen = pack_key(k, pn->now);
	int n;

	if (r->name[0] == '\0' || klen == 0 || strcmp(pn->now, pn->prev) == 0)
		return;
	n = snprintf(alias, sizeof(alias), "%s%s\n", ALIAS_HEAD, r->name);
	if (strcmp(pn->now, r->name) != 0 && n == (int)ALIAS_LEN)
		cache_put(kind, k, klen, alias, ALIAS_LEN);
	if (strcmp(pn->prev, r->name) != 0)
		drop_named(kind, pn->prev);     /* the last build's alias */
}

void
pack_retire(const char *kind, const struct pack_names *pn)
{
	char target[17];

	if (pn->prev[0] == '\0' || strcmp(pn->prev, pn->now) == 0)
		return;
	resolve(target, kind, pn->prev);
	if (strcmp(target, pn->now) != 0)
		drop_named(kind, target);
	drop_named(kind, pn->prev);
}

void
pack_drop(const char *kind, struct pack_reader *r)
{
	if (r->name[0] != '\0')
		drop_named(kind, r->name);
	pack_close(r);
}

void
pack_close(struct pack_reader *r)
{
	cache_unmap(&r->m);
	r->name[0] = '\0';
}
