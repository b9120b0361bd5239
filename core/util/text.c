/*
 * text.c: store text cleaned, and folded onto one line; numbers as
 * text (text.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/text.h"
#include "util/utf8.h"

/* Clean s[0..len) into sb, uncapped; tab and newline kept when keep_ws,
 * else spaces. */
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
		else if (!utf8_is_control(cp))
			strbuf_add(sb, s + i, n);
		i += n;
	}
}

size_t
text_cut(const char *s, size_t len, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t cut, floor;

	if (max == 0)
		max = TEXT_MAX_FIELD;
	if (len <= max)         /* always with SIZE_MAX: no cap */
		return len;
	floor = max > 3 ? max - 3 : 0;
	/* Back off continuation bytes so no character is split. */
	cut = max;
	while (cut > floor && (u[cut] & 0xc0) == 0x80)
		cut--;
	return cut;
}

void
text_clean(strbuf *sb, const char *s, size_t len, size_t max,
    unsigned flags)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t cut;

	if (s == NULL)
		return;
	cut = text_cut(s, len, max);
	clean_range(sb, u, cut, !(flags & TEXT_SPACES));
	if (cut < len)
		strbuf_printf(sb, " \xe2\x80\xa6 (%zu bytes more)", len - cut);
}

/* The length of the whitespace (space, tab, newline, U+2028, U+2029) at
 * s[0..left), or 0. */
static size_t
line_space_at(const char *s, size_t left)
{
	if (*s == ' ' || *s == '\t' || *s == '\n')
		return 1;
	if (left >= 3 && (unsigned char)s[0] == 0xe2 &&
	    (unsigned char)s[1] == 0x80 &&
	    ((unsigned char)s[2] == 0xa8 || (unsigned char)s[2] == 0xa9))
		return 3;
	return 0;
}

/* How many of s[0..left) from the start, at most max, are ASCII and
 * not a space, tab or newline. */
static size_t
ascii_run(const char *s, size_t left, size_t max)
{
	size_t n = 0;

	while (n < left && n < max && (unsigned char)s[n] < 0x80 &&
	    s[n] != ' ' && s[n] != '\t' && s[n] != '\n')
		n++;
	return n;
}

/* 1 when s[0..len) is already a line as text_line makes it, within
 * max bytes and chars characters (0: any): printable ASCII, single
 * spaces between words, none first or last; else 0. */
static int
plain_line(const char *s, size_t len, size_t max, size_t chars)
{
	if (len == 0 || len > (max == 0 ? TEXT_MAX_FIELD : max) ||
	    (chars > 0 && len > chars) || s[0] == ' ' || s[len - 1] == ' ')
		return 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] < 0x20 || s[i] > 0x7e || (s[i] == ' ' &&
		    s[i + 1] == ' '))
			return 0;
	return 1;
}

void
text_line(strbuf *sb, const char *s, size_t len, size_t max, size_t chars)
{
	strbuf c;
	size_t i = 0, kept = 0, start = sb->len;
	int pending = 0;

	if (s != NULL && plain_line(s, len, max, chars)) {
		strbuf_add(sb, s, len);
		return;
	}
	strbuf_init(&c);
	text_clean(&c, s, len, max, 0);
	while (i < c.len) {
		size_t sp = line_space_at(c.data + i, c.len - i), k;

		if (sp > 0) {
			pending = sb->len > start;
			i += sp;
			continue;
		}
		if (chars > 0 && kept + (pending ? 1 : 0) >= chars) {
			strbuf_puts(sb, "\xe2\x80\xa6");
			break;
		}
		if (pending) {
			strbuf_putc(sb, ' ');
			kept++;
			pending = 0;
		}
		/* A run of ASCII characters that are not blanks at once (as
		 * many as chars still allows), else one character: a lead
		 * byte and its continuations. */
		k = ascii_run(c.data + i, c.len - i, chars > 0 ? chars - kept :
		    SIZE_MAX);
		if (k > 0)
			kept += k;
		else {
			for (k = 1; i + k < c.len &&
			    ((unsigned char)c.data[i + k] & 0xc0) == 0x80; k++)
				;
			kept++;
		}
		strbuf_add(sb, c.data + i, k);
		i += k;
	}
	strbuf_free(&c);
}

size_t
text_int(char buf[TEXT_INT_SIZE], long long v)
{
	char rev[TEXT_INT_SIZE];
	/* The magnitude as unsigned: -LLONG_MIN does not fit a long long. */
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v :
	    (unsigned long long)v;
	size_t n = 0, len = 0;

	do {
		rev[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		buf[len++] = '-';
	while (n > 0)
		buf[len++] = rev[--n];
	buf[len] = '\0';
	return len;
}

size_t
text_whole(char buf[TEXT_INT_SIZE], double v)
{
	/* NaN fails both tests; -0 has its sign bit. */
	if (!(v > -1e15 && v < 1e15) || v != trunc(v) || (v == 0 &&
	    signbit(v)))
		return 0;
	return text_int(buf, (long long)v);
}

size_t
text_real(char *buf, size_t size, double v)
{
	size_t len;
	int n;

	if (size >= TEXT_INT_SIZE && (len = text_whole(buf, v)) > 0)
		return len;
	n = snprintf(buf, size, "%.15g", v);
	return n < 0 || (size_t)n >= size ? 0 : (size_t)n;
}

/* The length of the run of digits at s (before end), *sig set to its
 * first digit that is not a leading zero (the run's end when it is all
 * zeros). */
static size_t
digit_run(const char **sig, const char *s, const char *end)
{
	size_t n = 0;

	while (s + n < end && s[n] >= '0' && s[n] <= '9')
		n++;
	*sig = s;
	while (*sig < s + n && **sig == '0')
		(*sig)++;
	return n;
}

/* Bytes order of a and b (lengths na, nb), the shorter first on a tie. */
static int
bytes_cmp(const char *a, size_t na, const char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);

	if (c != 0)
		return c < 0 ? -1 : 1;
	return na < nb ? -1 : na > nb;
}

int
text_natural_cmp(const char *a, size_t na, const char *b, size_t nb)
{
	const char *x = a, *y = b, *ex = a + na, *ey = b + nb;

	while (x < ex && y < ey) {
		if (*x >= '0' && *x <= '9' && *y >= '0' && *y <= '9') {
			const char *sx, *sy;
			size_t nx = digit_run(&sx, x, ex);
			size_t ny = digit_run(&sy, y, ey);
			size_t lx = (size_t)(x + nx - sx);
			size_t ly = (size_t)(y + ny - sy);
			int c;

			if (lx != ly)
				return lx < ly ? -1 : 1;
			if ((c = memcmp(sx, sy, lx)) != 0)
				return c < 0 ? -1 : 1;
			x += nx;
			y += ny;
			continue;
		}
		if (*x != *y)
			return (unsigned char)*x < (unsigned char)*y ? -1 : 1;
		x++;
		y++;
	}
	if (x < ex || y < ey)
		return x < ex ? 1 : -1;
	return bytes_cmp(a, na, b, nb);
}
