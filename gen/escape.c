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

/*
 * Bytes of the whitespace character starting at s[0..n), or 0: space
 * and the non-ASCII spaces cmark-gfm counts as Unicode whitespace
 * (U+00A0, U+1680, U+2000-U+200A, U+202F, U+205F, U+3000). Clean text
 * holds no other ASCII whitespace in escape_md.
 */
static size_t
space_at(const unsigned char *s, size_t n)
{
	if (n >= 1 && s[0] == ' ')
		return 1;
	if (n >= 2 && s[0] == 0xc2 && s[1] == 0xa0)
		return 2;
	if (n < 3)
		return 0;
	if ((s[0] == 0xe1 && s[1] == 0x9a && s[2] == 0x80) ||
	    (s[0] == 0xe2 && s[1] == 0x80 && (s[2] <= 0x8a || s[2] == 0xaf)) ||
	    (s[0] == 0xe2 && s[1] == 0x81 && s[2] == 0x9f) ||
	    (s[0] == 0xe3 && s[1] == 0x80 && s[2] == 0x80))
		return 3;
	return 0;
}

/* Bytes of the whitespace character ending at s[n), or 0. */
static size_t
space_before(const unsigned char *s, size_t n)
{
	for (size_t k = 1; k <= 3 && k <= n; k++)
		if (space_at(s + n - k, k) == k)
			return k;
	return 0;
}

void
escape_md(strbuf *sb, const char *s, size_t len)
{
	strbuf tmp;
	int pending = 0;   /* whitespace seen since the last output */
	size_t start = sb->len, b = 0, e, k;
	const unsigned char *u;

	strbuf_init(&tmp);
	clean(&tmp, s, len, ESCAPE_MAX_FIELD, 0);
	/*
	 * Unicode whitespace at either end goes too, like spaces: next to
	 * it a template's "**" cannot open or close emphasis (CommonMark
	 * flanking rules), so "**{{label}}**" would show its asterisks.
	 */
	u = (const unsigned char *)tmp.data;
	e = tmp.len;
	while ((k = space_at(u + b, e - b)) > 0)
		b += k;
	while (e > b && (k = space_before(u + b, e - b)) > 0)
		e -= k;
	strbuf_grow(sb, e - b + (e - b) / 4);
	for (size_t i = b; i < e; i++) {
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
