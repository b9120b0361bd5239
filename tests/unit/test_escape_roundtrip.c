/*
 * test_escape_roundtrip.c: escape_md is minimal and exact, proven by a
 * round trip through cmark-gfm.
 *
 * Values: the Markdown input of every example of cmark-gfm's spec.txt,
 * extensions.txt, regression.txt and smart_punct.txt
 * (tests/data/cmark-gfm-examples.txt), then seeded pseudo-random strings
 * over an alphabet rich in Markdown punctuation. Each value, escaped, is
 * put where the templates put values (after "**key** = ", as a list
 * item, in a table cell, in bold, in italics, as link text, as a
 * heading, alone at a line's start) and must give exactly the page the
 * same context gives with a plain word in its place, that word replaced
 * by the value's text (cleaned, whitespace collapsed and trimmed):
 *
 *   .md    parsed by cmark-gfm with the site's extensions: the same tree
 *          (node types, link URLs, raw HTML of the template), text
 *          nodes joined;
 *   .html  rendered by gen/markdown (the site's renderer): the same
 *          bytes, the value's text HTML-escaped as cmark-gfm escapes it;
 *   forge  parsed again with GFM's autolink extension too, as a git host
 *          shows the .md: the same tree, except that an e-mail address
 *          may become a mailto: link to exactly its own text (cmark-gfm
 *          finds those in text after escapes and entities are resolved:
 *          nothing but altering the text could stop it). Never a www.,
 *          http://, https:// or ftp:// link.
 *
 * It prints the backslashes escape_md adds per 1,000 characters of
 * value over the spec examples.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>

#include "render/escape.h"
#include "render/markdown.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"
#include "../unkept.h"

#define MARK "QplainwordQ"
#define NRANDOM 4000
#define SEED 0x6d6972726f72ULL   /* "mirror" */

/* Where templates put values; "%V" stands for the value. */
static const struct {
	const char *md;
	int needs_text;   /* the context needs a non-empty value */
} contexts[] = {
	{ "- <a id=\"state-s\"></a>**key** = %V \xc2\xb7 source: x\n", 0 },
	{ "- %V\n", 0 },
	{ "| fact | value |\n|---|---|\n| <a id=\"entity-e\"></a>k | %V |\n",
	  0 },
	{ "- <a id=\"state-x\"></a>**%V**: Z \xc2\xb7 *active*\n", 1 },
	{ "- <a id=\"memory-z\"></a>A \xc2\xb7 *%V*\n", 1 },
	{ "- [%V](../projects/p/index.md) \xc2\xb7 Z\n", 1 },
	{ "## %V\n", 0 },
	{ "%V\n", 1 },
	{ "**Slot:** x\n%V\n", 1 },
};
#define NCONTEXTS (sizeof(contexts) / sizeof(contexts[0]))

struct values {
	char **name;
	strbuf *text;
	size_t n;
};

static void
values_add(struct values *v, const char *name, const char *s, size_t len)
{
	v->name = xreallocarray(v->name, v->n + 1, sizeof(*v->name));
	v->text = xreallocarray(v->text, v->n + 1, sizeof(*v->text));
	v->name[v->n] = xstrdup(name);
	strbuf_init(&v->text[v->n]);
	strbuf_add(&v->text[v->n], s, len);
	v->n++;
}

static void
values_free(struct values *v)
{
	for (size_t i = 0; i < v->n; i++) {
		free(v->name[i]);
		strbuf_free(&v->text[i]);
	}
	free(v->name);
	free(v->text);
}

/* The examples of tests/data/cmark-gfm-examples.txt (see its header). */
static void
load_examples(struct values *v)
{
	const char *top = getenv("MIRROR_TOP");
	char path[4096], line[65536];
	FILE *f;
	int n;

	n = snprintf(path, sizeof(path), "%s/tests/data/cmark-gfm-examples.txt",
	    top != NULL ? top : ".");
	assert_true(n > 0 && (size_t)n < sizeof(path));
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		char *tab = strchr(line, '\t');
		strbuf s;

		if (line[0] == '#')
			continue;
		assert_non_null(tab);
		assert_non_null(strchr(tab, '\n'));
		*tab = '\0';
		strbuf_init(&s);
		for (char *p = tab + 1; *p != '\n'; p++) {
			if (*p != '\\') {
				strbuf_putc(&s, *p);
				continue;
			}
			switch (*++p) {
			case 'n': strbuf_putc(&s, '\n'); break;
			case 't': strbuf_putc(&s, '\t'); break;
			case 'r': strbuf_putc(&s, '\r'); break;
			case '\\': strbuf_putc(&s, '\\'); break;
			default: fail_msg("%s: bad escape \\%c", line, *p);
			}
		}
		values_add(v, line, s.data, s.len);
		strbuf_free(&s);
	}
	fclose(f);
}

static uint64_t
next_rand(uint64_t *x)
{
	/* xorshift64* */
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1dULL;
}

/* NRANDOM strings from a fixed seed, over Markdown-heavy pieces. */
static void
make_random(struct values *v)
{
	static const char *const pieces[] = {
		"!", "\"", "#", "$", "%", "&", "'", "(", ")", "*", "+", ",",
		"-", ".", "/", ":", ";", "<", "=", ">", "?", "@", "[", "\\",
		"]", "^", "_", "`", "{", "|", "}", "~", " ", " ", " ", " ",
		"a", "b", "x", "Z", "0", "1", "9", "w", "\n", "\t", "  ",
		"\xc2\xa0", "\xe3\x80\x80", "\xc3\xa9", "\xc2\xab", "\xc2\xbb",
		"\xe2\x80\x94", "\xe2\x82\xac", "\xe2\x9a\xa0", "\xf0\x9f\x98\x80",
		"www.", "http://", "https://", "ftp://", "mailto:", "a@b.co",
		"x.y@ex.org", "&amp;", "&#35;", "&#x41;", "&copy", "<a>", "</a>",
		"<!--", "-->", "<?", "<http://e.org>", "<a@b.co>", "1. ", "2) ",
		"- ", "+ ", "* ", "# ", "### ", "> ", "```", "~~~", "~~", "**",
		"__", "***", "[x](y)", "![i](j)", "[^1]", "[ ] ", "| a | b |",
		"---", "===", ":-:", "\\*", "\\\\", "\x01", "\x7f", "\xff",
		"\xe2\x80\xae", "snake_case", "4.8 kg", "2026-11-01 00:00:00",
	};
	uint64_t x = SEED;

	for (int i = 0; i < NRANDOM; i++) {
		strbuf s;
		char name[32];
		size_t len = next_rand(&x) % 24;
		int n;

		strbuf_init(&s);
		for (size_t k = 0; k < len; k++)
			strbuf_puts(&s, pieces[next_rand(&x) %
			    (sizeof(pieces) / sizeof(pieces[0]))]);
		n = snprintf(name, sizeof(name), "random:%d", i);
		assert_true(n > 0 && (size_t)n < sizeof(name));
		values_add(v, name, s.data, s.len);
		strbuf_free(&s);
	}
}

/* Bytes of the Unicode whitespace (cmark-gfm's list) at s[0..n), or 0. */
static size_t
uspace(const char *s, size_t n)
{
	static const char *const sp[] = {
		" ", "\xc2\xa0", "\xe1\x9a\x80", "\xe2\x80\x80", "\xe2\x80\x81",
		"\xe2\x80\x82", "\xe2\x80\x83", "\xe2\x80\x84", "\xe2\x80\x85",
		"\xe2\x80\x86", "\xe2\x80\x87", "\xe2\x80\x88", "\xe2\x80\x89",
		"\xe2\x80\x8a", "\xe2\x80\xaf", "\xe2\x81\x9f", "\xe3\x80\x80",
	};

	for (size_t k = 0; k < sizeof(sp) / sizeof(sp[0]); k++) {
		size_t l = strlen(sp[k]);

		if (l <= n && memcmp(s, sp[k], l) == 0)
			return l;
	}
	return 0;
}

/*
 * The text the value must show: cleaned (text_clean), tab and newline
 * as spaces, whitespace trimmed at both ends, runs of spaces as one.
 */
static void
value_text(strbuf *out, const strbuf *in)
{
	strbuf c;
	size_t b = 0, e, k;
	int pending = 0;

	strbuf_init(&c);
	text_clean(&c, in->data, in->len, 0, 0);
	for (size_t i = 0; i < c.len; i++)
		if (c.data[i] == '\t' || c.data[i] == '\n')
			c.data[i] = ' ';
	e = c.len;
	while ((k = uspace(c.data + b, e - b)) > 0)
		b += k;
	for (;;) {
		size_t got = 0;

		for (k = 1; k <= 3 && k <= e - b && got == 0; k++)
			if (uspace(c.data + e - k, k) == k)
				got = k;
		if (got == 0)
			break;
		e -= got;
	}
	for (size_t i = b; i < e; i++) {
		if (c.data[i] == ' ') {
			pending = 1;
			continue;
		}
		if (pending)
			strbuf_putc(out, ' ');
		pending = 0;
		strbuf_putc(out, c.data[i]);
	}
	strbuf_free(&c);
}

/* ctx with "%V" replaced by val. */
static void
fill(strbuf *out, const char *ctx, const char *val)
{
	const char *at = strstr(ctx, "%V");

	strbuf_add(out, ctx, (size_t)(at - ctx));
	strbuf_puts(out, val);
	strbuf_puts(out, at + 2);
}

static void
flush_text(strbuf *out, strbuf *text)
{
	if (text->len == 0)
		return;
	strbuf_putc(out, '"');
	strbuf_add(out, text->data, text->len);
	strbuf_puts(out, "\" ");
	strbuf_reset(text);
}

/* Whether link is what the autolink extension makes of an e-mail
 * address: its one text child, the URL "mailto:" + that text (or the
 * text itself when it starts with "mailto:" or "xmpp:"). */
static int
is_mail_autolink(cmark_node *link)
{
	cmark_node *c = cmark_node_first_child(link);
	const char *u = cmark_node_get_url(link), *t;

	if (c == NULL || cmark_node_next(c) != NULL ||
	    cmark_node_get_type(c) != CMARK_NODE_TEXT || u == NULL ||
	    (t = cmark_node_get_literal(c)) == NULL)
		return 0;
	if (strncmp(u, "mailto:", 7) == 0 && strcmp(u + 7, t) == 0)
		return 1;
	return strcmp(u, t) == 0 && (strncmp(u, "mailto:", 7) == 0 ||
	    strncmp(u, "xmpp:", 5) == 0);
}

/*
 * The tree of md as parsed with the site's extensions (and autolink
 * when forge), written out: node types, link URLs and literals of raw
 * HTML and code, adjacent text joined. With forge, an e-mail autolink
 * is written as its text and counted in *mails.
 */
static void
outline(strbuf *out, const char *md, int forge, int *mails)
{
	static const char *const exts[] = {
		"table", "strikethrough", "tagfilter", "autolink"
	};
	cmark_parser *p;
	cmark_node *doc;
	cmark_iter *it;
	cmark_event_type ev;
	strbuf text;

	cmark_gfm_core_extensions_ensure_registered();
	p = cmark_parser_new(CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8);
	for (size_t i = 0; i < (forge ? 4u : 3u); i++)
		cmark_parser_attach_syntax_extension(p,
		    cmark_find_syntax_extension(exts[i]));
	cmark_parser_feed(p, md, strlen(md));
	doc = cmark_parser_finish(p);
	assert_non_null(doc);
	strbuf_init(&text);
	it = cmark_iter_new(doc);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *nd = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(nd);
		const char *lit;

		if (t == CMARK_NODE_TEXT) {
			strbuf_puts(&text, cmark_node_get_literal(nd));
			continue;
		}
		if (forge && t == CMARK_NODE_LINK && is_mail_autolink(nd)) {
			if (ev == CMARK_EVENT_ENTER)
				(*mails)++;
			continue;
		}
		flush_text(out, &text);
		if (ev == CMARK_EVENT_EXIT) {
			strbuf_puts(out, "> ");
			continue;
		}
		strbuf_printf(out, "<%s", cmark_node_get_type_string(nd));
		if (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE)
			strbuf_printf(out, " url=%s", cmark_node_get_url(nd));
		lit = t == CMARK_NODE_TEXT ? NULL : cmark_node_get_literal(nd);
		if (lit != NULL)
			strbuf_printf(out, " [%s]", lit);
		/* Leaf nodes get no EXIT event: they close nothing. */
		strbuf_putc(out, ' ');
	}
	flush_text(out, &text);
	strbuf_free(&text);
	cmark_iter_free(it);
	cmark_node_free(doc);
	cmark_parser_free(p);
}

/* s HTML-escaped as cmark-gfm escapes text. */
static void
html_text(strbuf *out, const strbuf *s)
{
	for (size_t i = 0; i < s->len; i++) {
		switch (s->data[i]) {
		case '&': strbuf_puts(out, "&amp;"); break;
		case '<': strbuf_puts(out, "&lt;"); break;
		case '>': strbuf_puts(out, "&gt;"); break;
		case '"': strbuf_puts(out, "&quot;"); break;
		default: strbuf_putc(out, s->data[i]); break;
		}
	}
}

/* skel with its one MARK replaced by repl. */
static void
replace_mark(strbuf *out, const strbuf *skel, const strbuf *repl)
{
	const char *m = strstr(skel->data, MARK);

	assert_non_null(m);
	strbuf_add(out, skel->data, (size_t)(m - skel->data));
	strbuf_add(out, repl->data, repl->len);
	strbuf_puts(out, m + strlen(MARK));
}

static void
render_html(strbuf *out, const char *md)
{
	mirror_error err;

	assert_int_equal(markdown_to_html(out, md, strlen(md), "t.md", &err),
	    0);
	unkept(out);    /* the words kept whole are the writer's markup */
}

struct tally {
	size_t values, intact, chars, added, mails;
};

/*
 * Whether got equals want; if not, say so (for the first few) with
 * which value, context and view.
 */
static int
same(const char *name, size_t k, const char *view, const char *md,
    const strbuf *got, const strbuf *want)
{
	static int told;

	if (strcmp(got->data, want->data) == 0)
		return 1;
	if (told++ < 5)
		print_message("[ CHANGED  ] %s, context %zu, %s:\n  md   %s\n"
		    "  got  %s\n  want %s\n", name, k, view, md, got->data,
		    want->data);
	return 0;
}

/*
 * Put every value through every context, count the values that come
 * through intact in all of them, and what test output reports.
 */
static void
round_trip(const struct values *v, struct tally *t)
{
	strbuf skel_md[NCONTEXTS], skel_html[NCONTEXTS];

	memset(t, 0, sizeof(*t));
	for (size_t k = 0; k < NCONTEXTS; k++) {
		strbuf md;
		int mails = 0;

		strbuf_init(&md);
		strbuf_init(&skel_md[k]);
		strbuf_init(&skel_html[k]);
		fill(&md, contexts[k].md, MARK);
		outline(&skel_md[k], md.data, 0, &mails);
		render_html(&skel_html[k], md.data);
		strbuf_free(&md);
	}
	for (size_t i = 0; i < v->n; i++) {
		strbuf esc, want, want_html;
		size_t bs_esc = 0, bs_val = 0;
		int ok;

		strbuf_init(&esc);
		strbuf_init(&want);
		strbuf_init(&want_html);
		escape_md(&esc, v->text[i].data, v->text[i].len);
		value_text(&want, &v->text[i]);
		html_text(&want_html, &want);
		for (size_t k = 0; k < esc.len; k++)
			bs_esc += esc.data[k] == '\\';
		for (size_t k = 0; k < want.len; k++)
			bs_val += want.data[k] == '\\';
		t->values++;
		t->chars += want.len;
		t->added += bs_esc - bs_val;
		/* An empty value is nothing at all. */
		ok = want.len > 0 || esc.len == 0;
		for (size_t k = 0; k < NCONTEXTS && want.len > 0; k++) {
			strbuf md, got, exp;
			int mails = 0;

			strbuf_init(&md);
			strbuf_init(&got);
			strbuf_init(&exp);
			fill(&md, contexts[k].md, esc.data);
			/* The .md as the site parses it, and as a git host. */
			replace_mark(&exp, &skel_md[k], &want);
			outline(&got, md.data, 0, &mails);
			ok &= same(v->name[i], k, ".md", md.data, &got, &exp);
			strbuf_reset(&got);
			outline(&got, md.data, 1, &mails);
			ok &= same(v->name[i], k, "forge", md.data, &got, &exp);
			if (k == 0 && mails > 0)
				t->mails++;
			/* The HTML page. */
			strbuf_reset(&got);
			strbuf_reset(&exp);
			render_html(&got, md.data);
			replace_mark(&exp, &skel_html[k], &want_html);
			ok &= same(v->name[i], k, ".html", md.data, &got, &exp);
			strbuf_free(&md);
			strbuf_free(&got);
			strbuf_free(&exp);
		}
		t->intact += ok;
		strbuf_free(&esc);
		strbuf_free(&want);
		strbuf_free(&want_html);
	}
	for (size_t k = 0; k < NCONTEXTS; k++) {
		strbuf_free(&skel_md[k]);
		strbuf_free(&skel_html[k]);
	}
}

/* 1: every spec example comes through intact, with few backslashes. */
static void
test_spec_examples(void **state)
{
	struct values v = { 0 };
	struct tally t;
	double per1000;

	(void)state;
	load_examples(&v);
	assert_int_equal(v.n, 744);
	round_trip(&v, &t);
	per1000 = t.chars > 0 ? 1000.0 * (double)t.added / (double)t.chars : 0;
	print_message("[ FIGURES  ] spec examples: %zu of %zu intact in %zu "
	    "contexts (.md, forge, .html); %zu backslashes added over %zu "
	    "characters of value: %.1f per 1,000; %zu hold an e-mail address "
	    "a git host links\n", t.intact, t.values, NCONTEXTS, t.added,
	    t.chars, per1000, t.mails);
	assert_int_equal(t.intact, t.values);
	assert_true(per1000 <= 180.0);
	values_free(&v);
}

/* 2: seeded random strings come through intact. */
static void
test_random_strings(void **state)
{
	struct values v = { 0 };
	struct tally t;

	(void)state;
	make_random(&v);
	round_trip(&v, &t);
	print_message("[ FIGURES  ] random strings (seed %#llx): %zu of %zu "
	    "intact; %.1f backslashes per 1,000 characters\n",
	    (unsigned long long)SEED, t.intact, t.values,
	    t.chars > 0 ? 1000.0 * (double)t.added / (double)t.chars : 0.0);
	assert_int_equal(t.intact, t.values);
	values_free(&v);
}

/* 3: ordinary punctuation in running text stays as stored. */
static void
test_verbatim(void **state)
{
	static const char *const same[] = {
		"GF-PTFE (rev B), 4.8 kg at 2026-11-01 00:00:00",
		"p05-interferometer", "cross_layer", "target: 0.5 nm (RMS)",
		"a@b.example.org, see https-like text/paths; 50% 'q' \"q\"",
		"x + y = z, a - b, 3 * 4 is not 2*3", "C# and F#m", "R&D dept",
		"a < b > c", "about ~ 5 kg", "e.g. 1.5", "(a) [sic]: no, [ needs it",
	};
	static const char *const want[] = {
		"GF-PTFE (rev B), 4.8 kg at 2026-11-01 00:00:00",
		"p05-interferometer", "cross_layer", "target: 0.5 nm (RMS)",
		"a@b.example.org, see https-like text/paths; 50% 'q' \"q\"",
		"x + y = z, a - b, 3 * 4 is not 2\\*3", "C# and F#m",
		"R&D dept", "a < b > c", "about ~ 5 kg", "e.g. 1.5",
		"(a) \\[sic\\]: no, \\[ needs it",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		strbuf sb;

		strbuf_init(&sb);
		escape_md(&sb, same[i], strlen(same[i]));
		assert_string_equal(sb.data, want[i]);
		strbuf_free(&sb);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verbatim),
		cmocka_unit_test(test_spec_examples),
		cmocka_unit_test(test_random_strings),
	};

	return cmocka_run_group_tests_name("escape_roundtrip", tests, NULL,
	    NULL);
}
