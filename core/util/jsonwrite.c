/*
 * jsonwrite.c: JSON text in mirror's layout (see jsonwrite.h).
 */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/jsonwrite.h"
#include "util/text.h"
#include "util/utf8.h"

/* A newline and the indent of nesting level depth. */
static void
newline(strbuf *out, int depth)
{
	static const char spaces[] = "                                ";
	size_t n = (size_t)depth * 2;

	strbuf_putc(out, '\n');
	while (n > 0) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		strbuf_add(out, spaces, k);
		n -= k;
	}
}

/* "\uXXXX", upper-case hex, as jansson writes an escape. */
static void
escape_unit(strbuf *out, unsigned unit)
{
	static const char hex[] = "0123456789ABCDEF";
	char seq[6] = { '\\', 'u', hex[(unit >> 12) & 15],
	    hex[(unit >> 8) & 15], hex[(unit >> 4) & 15], hex[unit & 15] };

	strbuf_add(out, seq, sizeof(seq));
}

/* JSON's two-character escape of cp (backslash, then a letter or cp
 * itself), or NULL: cp then takes a \u escape. */
static const char *
short_escape(int32_t cp)
{
	static const char *const esc[] = { "\\\"", "\\\\", "\\b",
	    "\\f", "\\n", "\\r", "\\t" };
	static const char chars[] = "\"\\\b\f\n\r\t";

	for (size_t i = 0; i < sizeof(esc) / sizeof(*esc); i++)
		if (cp == (unsigned char)chars[i])
			return esc[i];
	return NULL;
}

/* 1 for the bytes a string holds as they are: printable ASCII (and
 * DEL, as jansson writes it) but the quote and the backslash. One load
 * a byte, where four comparisons were a fifth of a file's writing. */
#define PLAIN16 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
#define ZERO16 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
static const unsigned char plain_byte[256] = {
	ZERO16, ZERO16,                                 /* controls */
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x22 '"' */
	PLAIN16, PLAIN16,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, /* 0x5c '\\' */
	PLAIN16, PLAIN16,
	ZERO16, ZERO16, ZERO16, ZERO16,                 /* past ASCII */
	ZERO16, ZERO16, ZERO16, ZERO16,
};

/* String s of len bytes, escaped, without its quotes: quotes,
 * backslashes and control characters, and every character past ASCII
 * as \u escapes (a surrogate pair past U+FFFF). Returns 0, or -1 when
 * not UTF-8. */
static int
write_chars(strbuf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + len;

	while (p < end) {
		const unsigned char *run = p;
		const char *esc;
		int32_t cp;
		size_t n;

		/* The common case: a run of printable ASCII, copied whole. */
		while (p < end && plain_byte[*p])
			p++;
		if (p > run)
			strbuf_add(out, run, (size_t)(p - run));
		if (p == end)
			break;
		n = utf8_decode(&cp, p, (size_t)(end - p));
		if (cp < 0)
			return -1;
		p += n;
		if ((esc = short_escape(cp)) != NULL)
			strbuf_add(out, esc, 2);
		else if (cp < 0x10000)
			escape_unit(out, (unsigned)cp);
		else {
			cp -= 0x10000;
			escape_unit(out, 0xD800u | ((unsigned)cp >> 10));
			escape_unit(out, 0xDC00u | ((unsigned)cp & 0x3FF));
		}
	}
	return 0;
}

/* String s of len bytes, quoted and escaped (write_chars); longer than
 * cap bytes, cut as text_cut cuts and marked " … (N bytes more)" as the
 * pages mark it. Returns 0, or -1 when not UTF-8. */
static int
write_string(strbuf *out, const char *s, size_t len, size_t cap)
{
	size_t cut = text_cut(s, len, cap);
	char num[TEXT_INT_SIZE];

	strbuf_putc(out, '"');
	if (write_chars(out, s, cut) < 0)
		return -1;
	if (cut < len) {
		strbuf_add(out, " \\u2026 (", 9);
		strbuf_add(out, num, text_int(num, (long long)(len - cut)));
		strbuf_add(out, " bytes more)", 12);
	}
	strbuf_putc(out, '"');
	return 0;
}

/* 1 for the member names whose strings are never cut: ids, which the
 * pages put whole in their addresses too. */
static int
whole_key(const char *key, size_t len)
{
	return (len == 2 && memcmp(key, "id", 2) == 0) ||
	    (len > 3 && memcmp(key + len - 3, "_id", 3) == 0);
}

/* A real in the fewest significant digits (1 to 17) that read back as
 * the same double: 0.8, not %.17g's 0.80000000000000004, so a value's
 * text changes only when the value does. Otherwise as jansson writes
 * it: the locale's decimal point as '.', ".0" when it would read as an
 * integer, the exponent without '+' or leading zeros. Returns 0 or -1. */
static int
write_real(strbuf *out, double value)
{
	char buf[64], *e, *from;
	const char *point;
	size_t len = text_whole(buf, value);
	int n;

	/* A whole number (a confidence of 1, a count): its digits. */
	if (len > 0) {
		strbuf_add(out, buf, len);
		strbuf_add(out, ".0", 2);
		return 0;
	}
	point = localeconv()->decimal_point;
	for (int digits = 1; digits <= 17; digits++) {
		n = snprintf(buf, sizeof(buf) - 3, "%.*g", digits, value);
		if (n < 0 || (size_t)n >= sizeof(buf) - 3)
			return -1;
		/* Read back in the same locale as written. */
		if (strtod(buf, NULL) == value)
			break;
	}
	len = (size_t)n;
	if (point != NULL && point[0] != '\0' && point[0] != '.' &&
	    point[1] == '\0') {
		char *at = strchr(buf, point[0]);

		if (at != NULL)
			*at = '.';
	}
	if (strchr(buf, '.') == NULL && strchr(buf, 'e') == NULL) {
		memcpy(buf + len, ".0", 3);
		len += 2;
	}
	if ((e = strchr(buf, 'e')) != NULL) {
		char *start = e + 1;

		from = start + 1;
		if (*start == '-')
			start++;
		while (*from == '0')
			from++;
		if (from != start) {
			memmove(start, from, len - (size_t)(from - buf) + 1);
			len -= (size_t)(from - start);
		}
	}
	strbuf_add(out, buf, len);
	return 0;
}

/* How write_value lays a value out: indented, on one line, or indented
 * with each object below the top value on one line (rows), each array
 * in an array there on one line without spaces (a row: its first two
 * values whole) and what is in it so too (compact). */
enum layout { INDENTED, ONE_LINE, ROWS, ROW, COMPACT };

/* Before an element at nesting level depth: a newline and its indent,
 * or on one line (line) a space after the comma, none after the bracket
 * (first), and no space at all when compact. */
static void
element_sep(strbuf *out, int depth, int line, int first)
{
	if (line == INDENTED || line == ROWS)
		newline(out, depth);
	else if (!first && line == ONE_LINE)
		strbuf_putc(out, ' ');
}

/* The layout of v, a member of a value laid out as line: in rows an
 * object goes on one line; in a row, all is compact. */
static int
below(int line, const json_t *v)
{
	if (line == ROW)
		return COMPACT;
	return line == ROWS && json_is_object(v) ? ONE_LINE : line;
}

/* The layout of element e of an array laid out as line: in rows an
 * array of arrays has one row to a line. */
static int
below_element(int line, const json_t *e)
{
	return line == ROWS && json_is_array(e) ? ROW : below(line, e);
}

static int write_value(strbuf *out, const json_t *v, int depth, size_t cap,
    int line);

/* Array v as write_value writes it. Returns 0 or -1 (json_write). */
static int
write_array(strbuf *out, const json_t *v, int depth, size_t cap, int line)
{
	size_t k = json_array_size(v);

	strbuf_putc(out, '[');
	for (size_t i = 0; i < k; i++) {
		const json_t *e = json_array_get(v, i);
		/* A row starts its line: an indent on each of a million
		 * rows was 4.8 MB of the 1M site's 1 GB budget. */
		element_sep(out, line == ROWS ? 0 : depth + 1, line, i == 0);
		/* A row's first two values, its key, as an "id"
		 * member is. */
		if (write_value(out, e, depth + 1, line == ROW && i < 2 ?
		    SIZE_MAX : cap, below_element(line, e)) < 0)
			return -1;
		if (i + 1 < k)
			strbuf_putc(out, ',');
	}
	if (k > 0 && (line == INDENTED || line == ROWS))
		newline(out, depth);
	strbuf_putc(out, ']');
	return 0;
}

/* v at nesting level depth, strings cut at cap bytes, laid out as line
 * (enum layout) says. Returns 0 or -1 (json_write). */
static int
write_value(strbuf *out, const json_t *v, int depth, size_t cap, int line)
{
	char num[TEXT_INT_SIZE];

	if (v == NULL || depth > JSONWRITE_DEPTH)
		return -1;
	switch (json_typeof(v)) {
	case JSON_NULL:
		strbuf_add(out, "null", 4);
		return 0;
	case JSON_TRUE:
		strbuf_add(out, "true", 4);
		return 0;
	case JSON_FALSE:
		strbuf_add(out, "false", 5);
		return 0;
	case JSON_INTEGER:
		strbuf_add(out, num, text_int(num,
		    json_integer_value(v)));
		return 0;
	case JSON_REAL:
		return write_real(out, json_real_value(v));
	case JSON_STRING:
		return write_string(out, json_string_value(v),
		    json_string_length(v), cap);
	case JSON_ARRAY:
		return write_array(out, v, depth, cap, line);
	case JSON_OBJECT: {
		/* Insertion order, as json_object_iter walks it. */
		void *it = json_object_iter((json_t *)(uintptr_t)v);

		strbuf_putc(out, '{');
		if (it == NULL) {
			strbuf_putc(out, '}');
			return 0;
		}
		for (int first = 1; it != NULL; first = 0) {
			void *next = json_object_iter_next(
			    (json_t *)(uintptr_t)v, it);

			const char *key = json_object_iter_key(it);
			size_t klen = json_object_iter_key_len(it);

			element_sep(out, depth + 1, line, first);
			if (write_string(out, key, klen, SIZE_MAX) < 0)
				return -1;
			strbuf_add(out, ": ", line == COMPACT ? 1 : 2);
			if (write_value(out, json_object_iter_value(it),
			    depth + 1, whole_key(key, klen) ? SIZE_MAX :
			    cap, below(line, json_object_iter_value(it))) < 0)
				return -1;
			if (next != NULL)
				strbuf_putc(out, ',');
			it = next;
		}
		if (line == INDENTED || line == ROWS)
			newline(out, depth);
		strbuf_putc(out, '}');
		return 0;
	}
	}
	return -1;
}

int
json_write(strbuf *out, const json_t *v, int depth)
{
	return write_value(out, v, depth, SIZE_MAX, INDENTED);
}

void
json_quote(strbuf *sb, const char *s, int in_script)
{
	strbuf_putc(sb, '"');
	for (; s != NULL && *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			strbuf_putc(sb, '\\');
			strbuf_putc(sb, (char)c);
		} else if (c < 0x20 || (in_script && (c == '<' || c == 0x7f))) {
			strbuf_printf(sb, "\\u%04x", c);
		} else {
			strbuf_putc(sb, (char)c);
		}
	}
	strbuf_putc(sb, '"');
}

int
json_write_capped(strbuf *out, const json_t *v, int depth)
{
	return write_value(out, v, depth, TEXT_MAX_FIELD, INDENTED);
}

int
json_write_line(strbuf *out, const json_t *v)
{
	return write_value(out, v, 0, TEXT_MAX_FIELD, ONE_LINE);
}

int
json_write_rows(strbuf *out, const json_t *v)
{
	return write_value(out, v, 0, TEXT_MAX_FIELD, ROWS);
}
