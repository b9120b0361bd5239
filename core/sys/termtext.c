/*
 * termtext.c: text for a terminal (see termtext.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/termtext.h"
#include "util/utf8.h"
#include "util/xalloc.h"

/* Bytes s[0..n) as \xNN each. */
static void
put_escaped(strbuf *sb, const unsigned char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		char e[4] = { '\\', 'x', hex[s[i] >> 4], hex[s[i] & 0xf] };

		strbuf_add(sb, e, sizeof(e));
	}
}

/* The bytes at s[0..len) (len > 0) that make one unit: *bad is 1 when
 * the unit is to be escaped (a control or not UTF-8). */
static size_t
unit(int *bad, const unsigned char *s, size_t len)
{
	int32_t cp;
	size_t n;

	if (s[0] >= 0x20 && s[0] < 0x7f) {
		*bad = 0;
		return 1;
	}
	n = utf8_decode(&cp, s, len);
	*bad = utf8_is_control(cp);
	return n;
}

void
termtext_escape(strbuf *sb, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k;
	int bad;

	while (i < n) {
		k = unit(&bad, u + i, n - i);
		if (bad)
			put_escaped(sb, u + i, k);
		else
			strbuf_add(sb, u + i, k);
		i += k;
	}
}

int
termtext_has_control(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), i = 0;
	int bad;

	while (i < n) {
		i += unit(&bad, u + i, n - i);
		if (bad)
			return 1;
	}
	return 0;
}

int
termtext_printf(FILE *fp, const char *fmt, ...)
{
	char small[512], *text = small;
	strbuf sb;
	va_list ap;
	size_t n;
	int len, nl, rc;

	va_start(ap, fmt);
	len = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (len < 0)
		return -1;
	if ((size_t)len >= sizeof(small)) {
		text = xmalloc((size_t)len + 1);
		va_start(ap, fmt);
		len = vsnprintf(text, (size_t)len + 1, fmt, ap);
		va_end(ap);
	}
	n = (size_t)len;
	nl = n > 0 && text[n - 1] == '\n';
	strbuf_init(&sb);
	termtext_escape(&sb, text, n - (size_t)nl);
	if (nl)
		strbuf_putc(&sb, '\n');
	rc = fwrite(sb.data, 1, sb.len, fp) == sb.len ? 0 : -1;
	strbuf_free(&sb);
	if (text != small)
		free(text);
	return rc;
}
