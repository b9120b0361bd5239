/*
 * escape.c: clean store text, then escape it for one output context.
 *
 * Two linear passes: clean() makes valid, control-free, capped UTF-8;
 * the escapers then only look at ASCII bytes (every byte of a multi-byte
 * UTF-8 sequence is >= 0x80 and passes through unchanged).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"
#include "utf8.h"

/* Keep tab and newline when keep_ws; drop every other control. */
static void
clean_range(strbuf *sb, const unsigned char *s, size_t len, int keep_ws)
{
	static const unsigned char fffd[] = { 0xef, 0xbf, 0xbd };
	size_t i = 0, run = 0, n;
	int32_t cp;

	strbuf_grow(sb, len);
	while (i < len) {
		/* Fast path: a run of printable ASCII is copied at once. */
		run = i;
		while (run < len && s[run] >= 0x20 && s[run] < 0x7f)
			run++;
		if (run > i) {
			strbuf_add(sb, s + i, run - i);
			i = run;
			continue;
		}
		n = utf8_decode(&cp, s + i, len - i);
		/* Noncharacters are not allowed in HTML or XML text. */
		if (cp < 0 || (cp >= 0xfdd0 && cp <= 0xfdef) ||
		    (cp & 0xfffe) == 0xfffe)
			strbuf_add(sb, fffd, sizeof(fffd));
		/* Bidirectional embeddings, overrides and isolates reorder
		 * how the text around them is shown ("Trojan Source"): a
		 * reviewer must see a fact as stored, so they are dropped. */
		else if ((cp >= 0x202a && cp <= 0x202e) ||
		    (cp >= 0x2066 && cp <= 0x2069))
			;
		else if (cp == '\t' || cp == '\n')
			strbuf_putc(sb, keep_ws ? (char)cp : ' ');
		else if (cp >= 0x20 && cp != 0x7f && (cp < 0x80 || cp > 0x9f))
			strbuf_add(sb, s + i, n);
		i += n;
	}
}

/*
 * Clean s into sb. max == 0 means no cap. A capped value is cut at a
 * UTF-8 boundary and gets " … (N bytes more)".
 */
static void
clean(strbuf *sb, const char *s, size_t len, size_t max, int keep_ws)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t cut = len;

	if (s == NULL)
		return;
	if (max > 0 && len > max) {
		size_t floor = max > 3 ? max - 3 : 0;

		/* Back off continuation bytes so no character is split. */
		cut = max;
		while (cut > floor && (u[cut] & 0xc0) == 0x80)
			cut--;
	}
	clean_range(sb, u, cut, keep_ws);
	if (cut < len)
		strbuf_printf(sb, " \xe2\x80\xa6 (%zu bytes more)", len - cut);
}

static int
is_ascii_punct(unsigned char c)
{
	return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) ||
	    (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

void
escape_md(strbuf *sb, const char *s, size_t len)
{
	strbuf tmp;
	int pending = 0;   /* whitespace seen since the last output */
	size_t start = sb->len;

	strbuf_init(&tmp);
	clean(&tmp, s, len, ESCAPE_MAX_FIELD, 0);
	strbuf_grow(sb, tmp.len + tmp.len / 4);
	for (size_t i = 0; i < tmp.len; i++) {
		unsigned char c = (unsigned char)tmp.data[i];

		if (c == ' ') {
			pending = 1;
			continue;
		}
		if (pending && sb->len > start)
			strbuf_putc(sb, ' ');
		pending = 0;
		if (c == '@') {
			/*
			 * cmark-gfm finds e-mail autolinks in text after
			 * escapes are resolved; an invisible WORD JOINER
			 * before '@' leaves no local part to link.
			 */
			strbuf_add(sb, "\xe2\x81\xa0\\@", 5);
		} else if (is_ascii_punct(c)) {
			char pair[2] = { '\\', (char)c };

			strbuf_add(sb, pair, 2);
		} else {
			strbuf_putc(sb, (char)c);
		}
	}
	strbuf_free(&tmp);
}

void
escape_html(strbuf *sb, const char *s, size_t len)
{
	strbuf tmp;

	strbuf_init(&tmp);
	clean(&tmp, s, len, ESCAPE_MAX_FIELD, 1);
	strbuf_grow(sb, tmp.len + tmp.len / 8);
	for (size_t i = 0; i < tmp.len; i++) {
		switch (tmp.data[i]) {
		case '&': strbuf_add(sb, "&amp;", 5); break;
		case '<': strbuf_add(sb, "&lt;", 4); break;
		case '>': strbuf_add(sb, "&gt;", 4); break;
		case '"': strbuf_add(sb, "&quot;", 6); break;
		case '\'': strbuf_add(sb, "&#39;", 5); break;
		default: strbuf_putc(sb, tmp.data[i]); break;
		}
	}
	strbuf_free(&tmp);
}

void
escape_url(strbuf *sb, const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	strbuf tmp;

	strbuf_init(&tmp);
	clean(&tmp, s, len, 0, 0);
	if ((tmp.len == 1 && tmp.data[0] == '.') ||
	    (tmp.len == 2 && tmp.data[0] == '.' && tmp.data[1] == '.')) {
		/* "." and ".." would climb; encoded they are plain names. */
		for (size_t i = 0; i < tmp.len; i++)
			strbuf_add(sb, "%2E", 3);
		strbuf_free(&tmp);
		return;
	}
	for (size_t i = 0; i < tmp.len; i++) {
		unsigned char c = (unsigned char)tmp.data[i];

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '.' ||
		    c == '_' || c == '~') {
			strbuf_putc(sb, (char)c);
		} else {
			char pct[3] = { '%', hex[c >> 4], hex[c & 15] };

			strbuf_add(sb, pct, 3);
		}
	}
	strbuf_free(&tmp);
}

void
escape_clean(strbuf *sb, const char *s, size_t len, size_t max)
{
	if (max == 0)
		max = ESCAPE_MAX_FIELD;
	clean(sb, s, len, max == SIZE_MAX ? 0 : max, 1);
}
