/*
 * escape.c: clean store text, then escape it for one output context.
 *
 * Two linear passes: text_clean (util/text.h) makes valid, control-free,
 * capped UTF-8; the escapers then only look at ASCII bytes (every byte
 * of a multi-byte UTF-8 sequence is >= 0x80 and passes through
 * unchanged).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "render/escape.h"
#include "util/text.h"

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

/*
 * Character classes of CommonMark's flanking rules (spec 0.29, 6.2) as
 * bits, so that a neighbour not known exactly is a set of classes.
 */
#define CL_SPACE 1u
#define CL_PUNCT 2u
#define CL_OTHER 4u
#define CL_ANY   (CL_SPACE | CL_PUNCT | CL_OTHER)

static int
is_alpha(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static int
is_alnum(unsigned char c)
{
	return is_alpha(c) || (c >= '0' && c <= '9');
}

/*
 * Class of the character starting at v[i] (v[0..n) clean UTF-8). At
 * the end: any class, as the template text there is unknown. A
 * non-ASCII character other than Unicode whitespace may or may not be
 * Unicode punctuation: both.
 */
static unsigned
class_at(const unsigned char *v, size_t n, size_t i)
{
	if (i >= n)
		return CL_ANY;
	if (space_at(v + i, n - i) > 0)
		return CL_SPACE;
	if (v[i] >= 0x80)
		return CL_PUNCT | CL_OTHER;
	return is_ascii_punct(v[i]) ? CL_PUNCT : CL_OTHER;
}

/* Class of the character ending at v[i); at the start: any class. */
static unsigned
class_before(const unsigned char *v, size_t i)
{
	size_t b = i;

	if (i == 0)
		return CL_ANY;
	while (b > 1 && i - b < 3 && (v[b - 1] & 0xc0) == 0x80)
		b--;
	return class_at(v, i, b - 1);
}

/*
 * Whether a run of c ('*', '_' or '~') between neighbours of the
 * classes prev and next could open or close emphasis or strikethrough,
 * for some choice of each neighbour's class: left- or right-flanking,
 * with CommonMark's stricter rule for '_' (cmark-gfm's scan_delims and
 * cmark_inline_parser_scan_delimiters).
 */
static int
run_flanks(unsigned prev, unsigned next, unsigned char c)
{
	for (unsigned p = CL_SPACE; p <= CL_OTHER; p <<= 1) {
		for (unsigned x = CL_SPACE; x <= CL_OTHER; x <<= 1) {
			int left, right;

			if (!(prev & p) || !(next & x))
				continue;
			left = x != CL_SPACE &&
			    (x != CL_PUNCT || p != CL_OTHER);
			right = p != CL_SPACE &&
			    (p != CL_PUNCT || x != CL_OTHER);
			if (c != '_' && (left || right))
				return 1;
			if (c == '_' && ((left && (!right || p == CL_PUNCT)) ||
			    (right && (!left || x == CL_PUNCT))))
				return 1;
		}
	}
	return 0;
}

/*
 * Whether the run v[b..e) of c ('*', '_' or '~') needs its backslashes.
 * '*' and '_' see their neighbours through '~' (cmark-gfm skips the
 * strikethrough character there, escaped or not), so a '~' neighbour
 * counts as any class. cmark-gfm delimits with '~' and '~~' only, taken
 * in chunks of at most 100: a run of 3 to 99 inside the value is inert;
 * at an edge it could open a fence or join the template's tildes.
 */
static int
run_escaped(const unsigned char *v, size_t n, size_t b, size_t e,
    unsigned char c)
{
	unsigned prev, next;

	if (c == '~') {
		if (b == 0 || e == n || e - b >= 100)
			return 1;
		if (e - b > 2)
			return 0;
		return run_flanks(class_before(v, b), class_at(v, n, e), c);
	}
	prev = b > 0 && v[b - 1] == '~' ? CL_ANY : class_before(v, b);
	next = e < n && v[e] == '~' ? CL_ANY : class_at(v, n, e);
	return run_flanks(prev, next, c);
}

/*
 * Whether '<' at v[i] could start raw HTML or an autolink: a tag,
 * comment, declaration or processing instruction (a letter, '/', '!' or
 * '?' next), an e-mail autolink (local-part characters up to an '@'),
 * or either with the template text after the value. The scan stops at
 * the next '<', so all scans together stay linear.
 */
static int
lt_opens(const unsigned char *v, size_t n, size_t i)
{
	static const char local[] = ".!#$%&'*+/=?^_`{|}~-";
	size_t k = i + 1;

	if (k == n || is_alpha(v[k]) || v[k] == '/' || v[k] == '!' ||
	    v[k] == '?')
		return 1;
	while (k < n && (is_alnum(v[k]) ||
	    memchr(local, v[k], sizeof(local) - 1) != NULL))
		k++;
	return k > i + 1 && (k == n || v[k] == '@');
}

/*
 * Whether '&' at v[i] could start an entity or numeric character
 * reference ("&name;", "&#123;", "&#x1F;"; any name, known or not), or
 * the start of one that the template text after the value could end.
 * Names and numbers are short: the scan is bounded.
 */
static int
amp_opens(const unsigned char *v, size_t n, size_t i)
{
	size_t k = i + 1, b, lim;

	if (k < n && v[k] == '#') {
		k++;
		if (k < n && (v[k] == 'x' || v[k] == 'X'))
			k++;
	}
	b = k;
	lim = k + 40;
	while (k < n && k < lim && is_alnum(v[k]))
		k++;
	if (k == n)
		return 1;
	return k > b && v[k] == ';';
}

/* Whether v[0..n) holds only characters of set (NUL-terminated). */
static int
only_of(const unsigned char *v, size_t n, const char *set)
{
	for (size_t i = 0; i < n; i++)
		if (strchr(set, v[i]) == NULL)
			return 0;
	return 1;
}

/* Whether v[0..n) is a one-column table delimiter row: ":?-+:? *". */
static int
is_delim_row(const unsigned char *v, size_t n)
{
	size_t k = 0, b;

	if (k < n && v[k] == ':')
		k++;
	b = k;
	while (k < n && v[k] == '-')
		k++;
	if (k == b)
		return 0;
	if (k < n && v[k] == ':')
		k++;
	while (k < n && v[k] == ' ')
		k++;
	return k == n;
}

/* What escape_md decides once per value, at its start and end. */
struct md_edges {
	int first;        /* escape v[0]: it would open a block there */
	size_t olist;     /* the '.' or ')' of "12. " at the start, or n */
	size_t hashes;    /* start of a trailing "#" run that would close an
	                     ATX heading, or n */
};

/*
 * The value may stand at the start of a line (a list item's text, a
 * heading, a line of its own): find what would open a block there
 * (block quote, heading, list item, thematic break, setext underline,
 * table delimiter row), and the trailing '#'s a heading would drop.
 * '*', '_', '~', '`', '[', '|' and '<' are handled where they stand.
 */
static void
md_edges(struct md_edges *ed, const unsigned char *v, size_t n)
{
	size_t k = 0;

	ed->first = 0;
	ed->olist = n;
	ed->hashes = n;
	if (n == 0)
		return;
	switch (v[0]) {
	case '>':
		ed->first = 1;
		break;
	case '#':
		while (k < n && v[k] == '#')
			k++;
		ed->first = k <= 6 && (k == n || v[k] == ' ');
		break;
	case '+':
		ed->first = n == 1 || v[1] == ' ';
		break;
	case '-':
		ed->first = n == 1 || v[1] == ' ' || only_of(v, n, "- ") ||
		    is_delim_row(v, n);
		break;
	case ':':
		ed->first = is_delim_row(v, n);
		break;
	case '=':
		ed->first = only_of(v, n, "= ");
		break;
	default:
		while (k < n && v[k] >= '0' && v[k] <= '9')
			k++;
		if (k > 0 && k < n && (v[k] == '.' || v[k] == ')') &&
		    (k + 1 == n || v[k + 1] == ' '))
			ed->olist = k;
		break;
	}
	for (k = n; k > 0 && v[k - 1] == '#'; k--)
		;
	if (k < n && (k == 0 || v[k - 1] == ' '))
		ed->hashes = k;
}

/*
 * Whether v[i] (not '*', '_' or '~') needs a backslash where it stands.
 * Every character escaped is ASCII punctuation, and so is the backslash
 * put before it: the neighbours' classes in the flanking rules stay
 * what they were in v.
 */
static int
md_escaped(const struct md_edges *ed, const unsigned char *v, size_t n,
    size_t i)
{
	unsigned char c = v[i];

	if (i == 0 && ed->first)
		return 1;
	switch (c) {
	case '`':
	case '[':
	case ']':
	case '|':
		return 1;
	case '\\':
		/* It would escape what follows, or the template's text. */
		return i + 1 == n || is_ascii_punct(v[i + 1]);
	case '!':
		/* '[' is always escaped: only the template's could follow. */
		return i + 1 == n;
	case '<':
		return lt_opens(v, n, i);
	case '&':
		return amp_opens(v, n, i);
	case '#':
		return i >= ed->hashes;
	case '.':
		/* "www." is an extended autolink at a word's start (after
		 * a space, '*', '_', '~' or '(', escaped or not). */
		if (i >= 3 && memcmp(v + i - 3, "www", 3) == 0 &&
		    (i == 3 || memchr(" *_~(", v[i - 4], 5) != NULL))
			return 1;
		return i == ed->olist;
	case ')':
		return i == ed->olist;
	case ':':
		/* "http://", "https://", "ftp://": the autolink extension
		 * looks for "//" right after a ':' it meets unescaped. */
		return i + 2 < n && v[i + 1] == '/' && v[i + 2] == '/';
	default:
		return 0;
	}
}

/*
 * Clean s into flat: tab and newline are spaces, whitespace (also
 * Unicode whitespace) at either end goes, runs of spaces are one space.
 */
static void
md_flatten(strbuf *flat, const char *s, size_t len)
{
	strbuf tmp;
	const unsigned char *u;
	size_t b = 0, e, k;
	int pending = 0;

	strbuf_init(&tmp);
	text_clean(&tmp, s, len, 0, TEXT_SPACES);
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
	strbuf_grow(flat, e - b);
	for (size_t i = b; i < e; i++) {
		if (u[i] == ' ') {
			pending = 1;
			continue;
		}
		if (pending)
			strbuf_putc(flat, ' ');
		pending = 0;
		strbuf_putc(flat, (char)u[i]);
	}
	strbuf_free(&tmp);
}

/*
 * 1 when escape_md would copy s[0..len) as it is: within the cap, a
 * letter or digit first, then letters, digits, single spaces and '-',
 * ',' and '/' (which open nothing after the first byte), no space last.
 * Most values (names, ids, dates without their dots) are such; they
 * skip the cleaning's two copies and the scan. Else 0.
 */
static int
md_plain(const unsigned char *v, size_t len)
{
	if (len == 0 || len > TEXT_MAX_FIELD || !is_alnum(v[0]) ||
	    v[len - 1] == ' ')
		return 0;
	for (size_t i = 1; i < len; i++) {
		unsigned char c = v[i];

		if (!is_alnum(c) && c != '-' && c != ',' && c != '/' &&
		    (c != ' ' || v[i - 1] == ' '))
			return 0;
	}
	return 1;
}

void
escape_md(strbuf *sb, const char *s, size_t len)
{
	strbuf flat;
	struct md_edges ed;
	const unsigned char *v;
	size_t n, i = 0;

	if (s != NULL && md_plain((const unsigned char *)s, len)) {
		strbuf_add(sb, s, len);
		return;
	}
	strbuf_init(&flat);
	md_flatten(&flat, s, len);
	v = (const unsigned char *)flat.data;
	n = flat.len;
	md_edges(&ed, v, n);
	strbuf_grow(sb, n + n / 8);
	while (i < n) {
		unsigned char c = v[i];

		if (c == '*' || c == '_' || c == '~') {
			size_t e = i;
			int esc;

			while (e < n && v[e] == c)
				e++;
			esc = run_escaped(v, n, i, e, c) || (i == 0 && ed.first);
			for (; i < e; i++) {
				if (esc)
					strbuf_putc(sb, '\\');
				strbuf_putc(sb, (char)c);
			}
			continue;
		}
		if (md_escaped(&ed, v, n, i))
			strbuf_putc(sb, '\\');
		strbuf_putc(sb, (char)c);
		i++;
	}
	strbuf_free(&flat);
}

void
escape_html(strbuf *sb, const char *s, size_t len)
{
	strbuf tmp;

	strbuf_init(&tmp);
	text_clean(&tmp, s, len, 0, 0);
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
escape_url_path(strbuf *sb, const char *s, size_t len)
{
	size_t at = 0;

	if (len > 0 && s[0] == '/') {
		strbuf_add(sb, "%2F", 3);
		at = 1;
	}
	for (;;) {
		const char *slash = memchr(s + at, '/', len - at);
		size_t end = slash != NULL ? (size_t)(slash - s) : len;

		escape_url(sb, s + at, end - at);
		if (slash == NULL)
			return;
		strbuf_putc(sb, '/');
		at = end + 1;
	}
}

void
escape_url(strbuf *sb, const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	strbuf tmp;

	strbuf_init(&tmp);
	text_clean(&tmp, s, len, SIZE_MAX, TEXT_SPACES);
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
