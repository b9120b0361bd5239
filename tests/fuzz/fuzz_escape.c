/*
 * fuzz_escape.c: libFuzzer harness for gen/render/escape.c and, through it,
 * gen/render/markdown.c (cmark-gfm with mirror's pass).
 *
 * Input: any bytes, one store value (invalid UTF-8, NULs, controls and
 * all). Asserts, per escaper:
 *   - escape_md: valid UTF-8, one line, no leading, trailing or double
 *     space, and taking out its backslash escapes (a backslash before
 *     ASCII punctuation) gives back the value as text exactly;
 *   - escape_html: valid UTF-8, no < > " ' left, every & starts one of
 *     the five entities it writes;
 *   - escape_url: only A-Z a-z 0-9 - . _ ~ and %XX, never "." or "..",
 *     and percent-decoding gives back the cleaned value;
 *   - text_clean: valid UTF-8 with no control character but tab and
 *     newline, no C1 control, bidi override or noncharacter.
 * Then the Markdown value is put into the places the templates put
 * values (a paragraph; a fact list item with its anchor, in bold, in
 * italics; a table row with an anchor; link text; a heading) and
 * rendered to HTML. The HTML must be exactly the HTML of the same page
 * with a plain word in the value's place, that word replaced by the
 * cleaned value as text (whitespace collapsed, HTML-escaped): so data
 * forms no tag, link, image, table cell, emphasis, heading or entity of
 * its own, loses no character, and mirror's own markup (the li/tr ids,
 * the bold label) stays whatever the value is. The words the writer
 * keeps whole (markdown.h (i): <span class="nobreak">TOKEN</span>,
 * <time>DATE</time>, no '<' inside) are its own markup too: each is
 * put back as its text before the pages are compared. The page is
 * valid UTF-8.
 * ASan/UBSan watch every call for memory errors and leaks.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "render/escape.h"
#include "render/markdown.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "../unkept.h"

#define MARK "QfuzzmarkQ"

/* Where templates put values; '@' stands for the value. */
static const struct {
	const char *md;
	int needs_text;   /* the context needs a non-empty value */
} contexts[] = {
	{ "A @ Z\n", 0 },
	{ "- <a id=\"state-x\"></a>**@**: Z \xc2\xb7 *active*\n", 1 },
	{ "- <a id=\"entity-y\"></a>2026-01-01 \xc2\xb7 **@** \xc2\xb7 "
	  "entity\n", 1 },
	{ "- <a id=\"memory-z\"></a>A \xc2\xb7 *@*\n", 1 },
	{ "| key | value |\n|---|---|\n| <a id=\"state-t\"></a>k | @ |\n", 0 },
	{ "- [@](../projects/p/index.md) \xc2\xb7 Z\n", 0 },
	{ "# @\n", 0 },
};

static int
is_punct(unsigned char c)
{
	return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) ||
	    (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

/* md is one clean line whose backslash escapes, taken out, leave
 * plain (the value as text) exactly. */
static void
check_md(const strbuf *md, const strbuf *plain)
{
	const char *s = md->data;
	size_t n = md->len;
	strbuf un;

	FUZZ_CHECK(fuzz_utf8_valid(s, n), "escape_md: invalid UTF-8");
	FUZZ_CHECK(memchr(s, '\n', n) == NULL && memchr(s, '\t', n) == NULL,
	    "escape_md: newline or tab in [%s]", s);
	FUZZ_CHECK(n == 0 || (s[0] != ' ' && s[n - 1] != ' '),
	    "escape_md: edge space in [%s]", s);
	FUZZ_CHECK(strstr(s, "  ") == NULL, "escape_md: double space");
	strbuf_init(&un);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n &&
		    is_punct((unsigned char)s[i + 1]))
			i++;
		strbuf_putc(&un, s[i]);
	}
	FUZZ_CHECK(un.len == plain->len && memcmp(un.data, plain->data,
	    un.len) == 0, "escape_md: [%s] is not the value [%s]", s,
	    plain->data);
	strbuf_free(&un);
}

static void
check_html(const strbuf *h)
{
	static const char *const ents[] = {
		"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"
	};

	FUZZ_CHECK(fuzz_utf8_valid(h->data, h->len), "escape_html: UTF-8");
	for (size_t i = 0; i < h->len; i++) {
		char c = h->data[i];
		int ok = 0;

		FUZZ_CHECK(c != '<' && c != '>' && c != '"' && c != '\'',
		    "escape_html: bare '%c'", c);
		if (c != '&')
			continue;
		for (size_t k = 0; k < sizeof(ents) / sizeof(ents[0]); k++)
			ok |= strncmp(h->data + i, ents[k],
			    strlen(ents[k])) == 0;
		FUZZ_CHECK(ok, "escape_html: bare '&'");
	}
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Checks the URL segment u and that it decodes to clean (the value
 * cleaned with no cap, tab and newline as spaces). */
static void
check_url(const strbuf *u, const strbuf *clean)
{
	strbuf dec;

	strbuf_init(&dec);
	FUZZ_CHECK(strcmp(u->data, ".") != 0 && strcmp(u->data, "..") != 0,
	    "escape_url: a dot segment");
	for (size_t i = 0; i < u->len; i++) {
		char c = u->data[i];

		if (c == '%') {
			FUZZ_CHECK(i + 2 < u->len &&
			    hexval(u->data[i + 1]) >= 0 &&
			    hexval(u->data[i + 2]) >= 0, "escape_url: bad %%");
			strbuf_putc(&dec, (char)(hexval(u->data[i + 1]) * 16 +
			    hexval(u->data[i + 2])));
			i += 2;
			continue;
		}
		FUZZ_CHECK((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
		    c == '~', "escape_url: bare 0x%02x", (unsigned char)c);
		strbuf_putc(&dec, c);
	}
	FUZZ_CHECK(dec.len == clean->len && memcmp(dec.data, clean->data,
	    dec.len) == 0, "escape_url: does not decode to the value");
	strbuf_free(&dec);
}

/* Unicode whitespace as CommonMark has it, less the ASCII kind. */
static const char *const uspaces[] = {
	"\xc2\xa0", "\xe1\x9a\x80", "\xe2\x80\x80", "\xe2\x80\x81",
	"\xe2\x80\x82", "\xe2\x80\x83", "\xe2\x80\x84", "\xe2\x80\x85",
	"\xe2\x80\x86", "\xe2\x80\x87", "\xe2\x80\x88", "\xe2\x80\x89",
	"\xe2\x80\x8a", "\xe2\x80\xaf", "\xe2\x81\x9f", "\xe3\x80\x80",
};

/* Length of the whitespace starting at s[i] (end 1: ending there). */
static size_t
ws_len(const char *s, size_t n, size_t i, int end)
{
	if (!end && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
		return 1;
	if (end && (s[i - 1] == ' ' || s[i - 1] == '\t' || s[i - 1] == '\n'))
		return 1;
	for (size_t k = 0; k < sizeof(uspaces) / sizeof(uspaces[0]); k++) {
		size_t l = strlen(uspaces[k]);

		if (!end && i + l <= n && memcmp(s + i, uspaces[k], l) == 0)
			return l;
		if (end && i >= l && memcmp(s + i - l, uspaces[k], l) == 0)
			return l;
	}
	return 0;
}

/* The value as cmark-gfm should show it: trimmed of all whitespace,
 * ASCII whitespace runs collapsed; HTML-escaped as cmark-gfm escapes
 * text into out, as is into plain. */
static void
expected_text(strbuf *out, strbuf *plain, const strbuf *clean)
{
	const char *s = clean->data;
	size_t b = 0, e = clean->len, k;
	int space = 0;

	while (b < e && (k = ws_len(s, e, b, 0)) > 0)
		b += k;
	while (e > b && (k = ws_len(s, e, e, 1)) > 0)
		e -= k;
	for (size_t i = b; i < e; i++) {
		char c = s[i];

		if (c == ' ' || c == '\t' || c == '\n') {
			space = 1;
			continue;
		}
		if (space) {
			strbuf_putc(out, ' ');
			strbuf_putc(plain, ' ');
		}
		space = 0;
		strbuf_putc(plain, c);
		switch (c) {
		case '&': strbuf_puts(out, "&amp;"); break;
		case '<': strbuf_puts(out, "&lt;"); break;
		case '>': strbuf_puts(out, "&gt;"); break;
		case '"': strbuf_puts(out, "&quot;"); break;
		default: strbuf_putc(out, c); break;
		}
	}
}

/* ctx with '@' replaced by val, rendered to HTML into out. */
static void
render(strbuf *out, const char *ctx, const char *val)
{
	strbuf md;
	mirror_error err;
	const char *at = strchr(ctx, '@');

	strbuf_init(&md);
	strbuf_add(&md, ctx, (size_t)(at - ctx));
	strbuf_puts(&md, val);
	strbuf_puts(&md, at + 1);
	FUZZ_CHECK(markdown_to_html(out, md.data, md.len, "fuzz.md", &err) ==
	    0, "markdown_to_html failed: %s", err.msg);
	strbuf_free(&md);
}

#define NCONTEXTS (sizeof(contexts) / sizeof(contexts[0]))

static void
check_contexts(const strbuf *md, const strbuf *text)
{
	/* The pages with the plain word: the same for every input. */
	static strbuf skel[NCONTEXTS];
	static int have_skel;

	if (!have_skel) {
		for (size_t k = 0; k < NCONTEXTS; k++) {
			strbuf_init(&skel[k]);
			render(&skel[k], contexts[k].md, MARK);
		}
		have_skel = 1;
	}
	for (size_t k = 0; k < NCONTEXTS; k++) {
		strbuf got, want;
		const char *m;

		if (contexts[k].needs_text && text->len == 0)
			continue;
		strbuf_init(&got);
		strbuf_init(&want);
		render(&got, contexts[k].md, md->data);
		unkept(&got);
		m = strstr(skel[k].data, MARK);
		FUZZ_CHECK(m != NULL, "context %zu lost the mark", k);
		strbuf_add(&want, skel[k].data, (size_t)(m - skel[k].data));
		strbuf_add(&want, text->data, text->len);
		strbuf_puts(&want, m + strlen(MARK));
		FUZZ_CHECK(fuzz_utf8_valid(got.data, got.len),
		    "context %zu: invalid UTF-8 HTML", k);
		FUZZ_CHECK(got.len == want.len && memcmp(got.data, want.data,
		    got.len) == 0, "context %zu: data changed the page:\n"
		    "want %s\ngot  %s", k, want.data, got.data);
		strbuf_free(&got);
		strbuf_free(&want);
	}
}

static void
check_clean(const strbuf *c)
{
	FUZZ_CHECK(fuzz_utf8_valid(c->data, c->len), "text_clean: UTF-8");
	for (size_t i = 0; i < c->len; i++) {
		unsigned char b = (unsigned char)c->data[i];

		FUZZ_CHECK(b == '\t' || b == '\n' || (b >= 0x20 && b != 0x7f),
		    "text_clean: control 0x%02x", b);
		/* C1 controls are U+0080-U+009F: 0xc2 0x80-0x9f. */
		FUZZ_CHECK(!(b == 0xc2 && i + 1 < c->len &&
		    (unsigned char)c->data[i + 1] <= 0x9f),
		    "text_clean: C1 control");
		/* Bidi U+202A-202E, U+2066-2069; nonchars U+FDD0-FDEF. */
		if (b == 0xe2 && i + 2 < c->len) {
			unsigned char b1 = (unsigned char)c->data[i + 1];
			unsigned char b2 = (unsigned char)c->data[i + 2];

			FUZZ_CHECK(!(b1 == 0x80 && b2 >= 0xaa && b2 <= 0xae) &&
			    !(b1 == 0x81 && b2 >= 0xa6 && b2 <= 0xa9),
			    "text_clean: bidi control");
		}
		FUZZ_CHECK(!(b == 0xef && i + 2 < c->len &&
		    (unsigned char)c->data[i + 1] == 0xb7 &&
		    (unsigned char)c->data[i + 2] >= 0x90 &&
		    (unsigned char)c->data[i + 2] <= 0xaf),
		    "text_clean: noncharacter");
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	strbuf md, html, url, clean, flat, text, plain;

	if (size > 2 * TEXT_MAX_FIELD)
		return 0;
	strbuf_init(&md);
	strbuf_init(&html);
	strbuf_init(&url);
	strbuf_init(&clean);
	strbuf_init(&flat);
	strbuf_init(&text);
	strbuf_init(&plain);
	escape_md(&md, s, size);
	escape_html(&html, s, size);
	check_html(&html);
	text_clean(&clean, s, size, 0, 0);
	check_clean(&clean);
	text_clean(&flat, s, size, SIZE_MAX, 0);
	for (size_t i = 0; i < flat.len; i++)
		if (flat.data[i] == '\t' || flat.data[i] == '\n')
			flat.data[i] = ' ';
	escape_url(&url, s, size);
	check_url(&url, &flat);
	expected_text(&text, &plain, &clean);
	check_md(&md, &plain);
	check_contexts(&md, &text);
	strbuf_free(&md);
	strbuf_free(&html);
	strbuf_free(&url);
	strbuf_free(&clean);
	strbuf_free(&flat);
	strbuf_free(&text);
	strbuf_free(&plain);
	return 0;
}
