/*
 * strbuf.h: a growable, always NUL-terminated byte buffer.
 *
 * The buffer owns its memory; strbuf_free releases it and
 * strbuf_detach hands it to the caller (who must then free it).
 */
#ifndef MIRROR_STRBUF_H
#define MIRROR_STRBUF_H

#include <stddef.h>

typedef struct strbuf {
	char *data;     /* NUL-terminated; never NULL after strbuf_init */
	size_t len;     /* bytes used, not counting the NUL */
	size_t cap;     /* bytes allocated */
} strbuf;

void strbuf_init(strbuf *sb);
void strbuf_free(strbuf *sb);
/*
 * Return the contents; the caller must free them. sb is left released,
 * as after strbuf_free (calling strbuf_free again is harmless); call
 * strbuf_init before using it again.
 */
char *strbuf_detach(strbuf *sb);
void strbuf_reset(strbuf *sb);
void strbuf_grow(strbuf *sb, size_t extra);
void strbuf_add(strbuf *sb, const void *p, size_t n);
void strbuf_puts(strbuf *sb, const char *s);

/*
 * Append one byte. Inline, with the common case (room left) free of a
 * call: the normalisers run it for every byte of every fact.
 */
static inline void
strbuf_putc(strbuf *sb, char c)
{
	if (sb->len + 1 < sb->cap) {
		sb->data[sb->len++] = c;
		sb->data[sb->len] = '\0';
	} else
		strbuf_add(sb, &c, 1);
}

void strbuf_printf(strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
