/*
 * kept_rows.c: rows of text fields kept for the next build (see
 * kept_rows.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "output/kept_rows.h"
#include "util/hash.h"
#include "util/utf8.h"

/* The second hash's seed: any value other than the first's. */
#define SEED2 UINT64_C(0x6b6570742d726f77)

/* The bytes a reader lets go of at a time, behind its place. */
#define DROP_STEP (1u << 20)

/* Fold data[0..len) into h, a block at a time: the text's hashes are
 * the same however it was cut into writes (every block but the last
 * is whole words). One multiply a word (hash_steps), the chains ended
 * by hash_seal: the text is checked for damage, not for an adversary,
 * who could write the hashes too. */
static void
hash_blocks(uint64_t h[2], const char *data, size_t len)
{
	for (size_t off = 0; off < len; off += KEPT_BLOCK) {
		size_t n = len - off < KEPT_BLOCK ? len - off : KEPT_BLOCK;

		h[0] = hash_steps(h[0], data + off, n);
		h[1] = hash_steps(h[1], data + off, n);
	}
}

/* The hashes of a text of len bytes that hash_blocks folded into h,
 * as the text's "end" line writes them, into hex[33]. */
static void
hash_seal(char hex[33], const uint64_t h[2], uint64_t len)
{
	hash_hex(hex, hash_mix(hash_step(h[0], len)));
	hash_hex(hex + 16, hash_mix(hash_step(h[1], ~len)));
}

/* Hash the whole blocks of w->buf not hashed yet (all: its last part
 * too), and write what is hashed to the sink. */
static void
writer_flush(struct kept_writer *w, int all)
{
	size_t whole = (w->buf.len - w->hashed) / KEPT_BLOCK * KEPT_BLOCK;

	if (all)
		whole = w->buf.len - w->hashed;
	hash_blocks(w->h, w->buf.data + w->hashed, whole);
	w->hashed += whole;
	w->length += whole;
	if (w->sink == NULL || w->hashed == 0)
		return;
	cache_writer_add(w->sink, w->buf.data, w->hashed);
	memmove(w->buf.data, w->buf.data + w->hashed, w->buf.len - w->hashed);
	w->buf.len -= w->hashed;
	w->buf.data[w->buf.len] = '\0';
	w->hashed = 0;
}

void
kept_writer_begin(struct kept_writer *w, struct cache_writer *sink,
    const char *tag)
{
	*w = (struct kept_writer){ .h = { MIRROR_HASH_INIT, SEED2 },
	    .sink = sink };
	strbuf_init(&w->buf);
	strbuf_puts(&w->buf, tag);
	strbuf_putc(&w->buf, '\n');
}

void
kept_writer_put(struct kept_writer *w, const char *const *f, size_t n)
{
	strbuf *sb = &w->buf;

	for (size_t i = 0; i < n; i++) {
		char num[24];
		size_t len, v, k = sizeof(num);

		if (f[i] == NULL) {
			strbuf_putc(sb, 'n');
			continue;
		}
		/* "s<len>:" without printf: a row is many fields. */
		len = strlen(f[i]);
		num[--k] = ':';
		v = len;
		do
			num[--k] = (char)('0' + v % 10);
		while ((v /= 10) > 0);
		num[--k] = 's';
		strbuf_add(sb, num + k, sizeof(num) - k);
		strbuf_add(sb, f[i], len + 1);
	}
	strbuf_putc(sb, '\n');
	if (sb->len - w->hashed >= 2 * KEPT_BLOCK)
		writer_flush(w, 0);
}

void
kept_writer_end(struct kept_writer *w)
{
	char hex[33];

	writer_flush(w, 1);
	hash_seal(hex, w->h, w->length);
	strbuf_printf(&w->buf, "end %s\n", hex);
	if (w->sink != NULL) {
		cache_writer_add(w->sink, w->buf.data, w->buf.len);
		strbuf_reset(&w->buf);
	}
}

void
kept_writer_free(struct kept_writer *w)
{
	strbuf_free(&w->buf);
}

/*
 * Check data[from..to) is UTF-8, to moved back to the start of the
 * code point it cuts (up to 3 bytes; not at len, the text's end): a
 * chunk's check ends where the next one's begins. Returns where the
 * next check starts, or SIZE_MAX when it is not UTF-8.
 */
static size_t
utf8_upto(const char *data, size_t from, size_t to, size_t len)
{
	for (int k = 0; k < 3 && to < len && to > from &&
	    ((unsigned char)data[to] & 0xc0) == 0x80; k++)
		to--;
	return utf8_valid((const unsigned char *)data + from, to - from) ?
	    to : SIZE_MAX;
}

int
kept_rows_open(struct kept_cursor *c, const char *data, size_t len,
    const char *tag, const struct cache_map *map)
{
	size_t tl = strlen(tag), body;
	uint64_t h[2] = { MIRROR_HASH_INIT, SEED2 };
	char hex[33];

	/* "end " 32 digits "\n" */
	if (data == NULL || len < tl + 1 + 37)
		return 0;
	body = len - 37;
	if (memcmp(data, tag, tl) != 0 || data[tl] != '\n' ||
	    memcmp(data + body, "end ", 4) != 0 || data[len - 1] != '\n')
		return 0;
	for (size_t off = 0, from = 0; off < body; off += DROP_STEP) {
		size_t n = body - off < DROP_STEP ? body - off : DROP_STEP;

		hash_blocks(h, data + off, n);
		if ((from = utf8_upto(data, from, off + n, body)) == SIZE_MAX)
			return 0;
		if (map != NULL)
			cache_map_drop(map, off + n);
	}
	hash_seal(hex, h, body);
	if (memcmp(hex, data + body + 4, 32) != 0)
		return 0;
	*c = (struct kept_cursor){ .data = data, .len = body, .pos = tl + 1,
	    .map = map };
	return 1;
}


/* The field at c's place into *f, c past it. Returns 0 or -1. */
static int
next_field(struct kept_cursor *c, const char **f)
{
	const char *p = c->data + c->pos, *end = c->data + c->len;
	size_t n = 0;

	if (p < end && *p == 'n') {
		*f = NULL;
		c->pos++;
		return 0;
	}
	if (p >= end || *p++ != 's' || p >= end || *p < '0' || *p > '9')
		return -1;
	while (p < end && *p >= '0' && *p <= '9') {
		if (n > (SIZE_MAX - 9) / 10)
			return -1;
		n = n * 10 + (size_t)(*p++ - '0');
	}
	/* UTF-8: the whole text is (kept_rows_open), so each field is,
	 * one ending in a NUL and starting after a ':'. */
	if (p >= end || *p++ != ':' || (size_t)(end - p) <= n || p[n] != '\0' ||
	    memchr(p, '\0', n) != NULL)
		return -1;
	*f = p;
	c->pos = (size_t)(p + n + 1 - c->data);
	return 0;
}

int
kept_rows_next(struct kept_cursor *c, const char **f, size_t n)
{
	size_t at = c->pos;

	if (c->pos == c->len)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (next_field(c, &f[i]) < 0) {
			c->pos = at;
			return -1;
		}
	if (c->pos >= c->len || c->data[c->pos] != '\n') {
		c->pos = at;
		return -1;
	}
	c->pos++;
	/* What lies well behind goes (a row held is read again). */
	if (c->map != NULL && c->pos - c->dropped >= DROP_STEP) {
		cache_map_drop(c->map, c->pos);
		c->dropped = c->pos;
	}
	return 1;
}
