/*
 * test_escape.c: store text reaches output only as inert text.
 *
 * Every string of the hostile corpus (tests/data/hostile/[name].txt) is
 * escaped for Markdown, rendered by gen/markdown, and must come out as
 * one paragraph whose text is the cleaned input itself; escaped for HTML
 * it must hold no markup character at all.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "render/escape.h"
#include "render/markdown.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"
#include "../unkept.h"

struct corpus {
	char **name;
	strbuf *text;
	size_t n;
};

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
corpus_load(struct corpus *c)
{
	const char *top = getenv("MIRROR_TOP");
	char dir[4096], path[8192];
	struct dirent *de;
	DIR *d;

	memset(c, 0, sizeof(*c));
	snprintf(dir, sizeof(dir), "%s/tests/data/hostile", top ? top : ".");
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);

		if (l < 5 || strcmp(de->d_name + l - 4, ".txt") != 0)
			continue;
		c->name = xreallocarray(c->name, c->n + 1, sizeof(*c->name));
		c->name[c->n++] = xstrdup(de->d_name);
	}
	closedir(d);
	qsort(c->name, c->n, sizeof(*c->name), cmp_str);
	c->text = xcalloc(c->n, sizeof(*c->text));
	for (size_t i = 0; i < c->n; i++) {
		char buf[4096];
		size_t got;
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, c->name[i]);
		f = fopen(path, "rb");
		assert_non_null(f);
		strbuf_init(&c->text[i]);
		while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
			strbuf_add(&c->text[i], buf, got);
		fclose(f);
	}
	assert_true(c->n >= 40);
}

static void
corpus_free(struct corpus *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->name[i]);
		strbuf_free(&c->text[i]);
	}
	free(c->name);
	free(c->text);
}

/* escape_md of s as a fresh string (caller frees). */
static char *
emd(const char *s, size_t n)
{
	strbuf sb;
	char *r;

	strbuf_init(&sb);
	escape_md(&sb, s, n);
	r = xstrdup(sb.data);
	strbuf_free(&sb);
	return r;
}

static char *
ehtml(const char *s, size_t n)
{
	strbuf sb;
	char *r;

	strbuf_init(&sb);
	escape_html(&sb, s, n);
	r = xstrdup(sb.data);
	strbuf_free(&sb);
	return r;
}

static char *
eurl(const char *s, size_t n)
{
	strbuf sb;
	char *r;

	strbuf_init(&sb);
	escape_url(&sb, s, n);
	r = xstrdup(sb.data);
	strbuf_free(&sb);
	return r;
}

static char *
to_html(const char *mdtext)
{
	mirror_error err;
	strbuf sb;
	char *r;

	strbuf_init(&sb);
	assert_int_equal(markdown_to_html(&sb, mdtext, strlen(mdtext), "t",
	    &err), 0);
	unkept(&sb);    /* the words kept whole are the writer's markup */
	r = xstrdup(sb.data);
	strbuf_free(&sb);
	return r;
}

/*
 * 1: a character gets a backslash only where it could form Markdown. A
 * value of one character stands at both edges, where the template's
 * text is unknown: what could open a block there, or join the
 * template's own markup, is escaped; ordinary punctuation is not.
 */
static void
test_md_punct(void **state)
{
	static const char escaped[] = "!#&*+-<=>[\\]_`|~";
	static const char kept[] = "\"$%'(),./:;?@^{}";
	char *r;

	(void)state;
	for (const char *p = escaped; *p != '\0'; p++) {
		char in[2] = { *p, 0 }, want[3] = { '\\', *p, 0 };

		r = emd(in, 1);
		assert_string_equal(r, want);
		free(r);
	}
	for (const char *p = kept; *p != '\0'; p++) {
		char in[2] = { *p, 0 };

		r = emd(in, 1);
		assert_string_equal(r, in);
		free(r);
	}
	r = emd("Ab9 é ⚠", strlen("Ab9 é ⚠"));
	assert_string_equal(r, "Ab9 é ⚠");
	free(r);
	/* Inside text: no word joiner, no backslash before '@', '.' or '-'. */
	r = emd("a@b.example - x", 15);
	assert_string_equal(r, "a@b.example - x");
	free(r);
	/* Emphasis only where a run could open or close; '_' inside a word
	 * never can. */
	r = emd("snake_case a*b a * b *c* _d_ e__f", 33);
	assert_string_equal(r, "snake_case a\\*b a * b \\*c\\* \\_d\\_ e__f");
	free(r);
	/* Line-start markers at the start only. */
	r = emd("1. a 2. b - c # d > e", 21);
	assert_string_equal(r, "1\\. a 2. b - c # d > e");
	free(r);
	r = emd("> q", 3);
	assert_string_equal(r, "\\> q");
	free(r);
	/* Extended autolinks: the '.' of "www." and the ':' of "://". */
	r = emd("www.example.org http://example.org", 34);
	assert_string_equal(r, "www\\.example.org http\\://example.org");
	free(r);
	/* '<' and '&' where a tag, autolink or entity could start. */
	r = emd("a < b <b> <a@b.c> &amp; R&D", 27);
	assert_string_equal(r, "a < b \\<b> \\<a@b.c> \\&amp; R\\&D");
	free(r);
	/* A backslash before punctuation, and at the end. */
	r = emd("a\\b c\\* d\\", 10);
	assert_string_equal(r, "a\\b c\\\\\\* d\\\\");
	free(r);
}

/* 2: whitespace collapses, newlines become spaces, ends are trimmed. */
static void
test_md_whitespace(void **state)
{
	char *r;

	(void)state;
	r = emd("  \t a \n\n b  \r\n", 13);
	assert_string_equal(r, "a b");
	free(r);
	r = emd("    code", 8);
	assert_string_equal(r, "code");
	free(r);
	r = emd("", 0);
	assert_string_equal(r, "");
	free(r);
	r = emd(NULL, 5);
	assert_string_equal(r, "");
	free(r);
}

/*
 * 2b: the values escape_md copies as they are (letters, digits, single
 * spaces, '-', ',' and '/' after a letter or digit) come out whole, and
 * each edge of that set still goes through the escaping: a space at
 * either end or doubled, a '-' first, a plain value past the cap.
 */
static void
test_md_plain(void **state)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "Project 7", "Project 7" },
		{ "2024-01-01", "2024-01-01" },
		{ "a,b/c-d", "a,b/c-d" },
		{ "x", "x" },
		{ "ab ", "ab" },
		{ " ab", "ab" },
		{ "a  b", "a b" },
		{ "- a", "\\- a" },
		{ "-a", "-a" },
		{ "a - b", "a - b" },
		{ "1.", "1\\." },
		{ "1)", "1\\)" },
		{ "a_b_", "a_b\\_" },
	};
	strbuf in, want;
	char *r;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		r = emd(cases[i].in, strlen(cases[i].in));
		assert_string_equal(r, cases[i].want);
		free(r);
	}
	/* One letter past the cap: cut there, with what was left out. */
	strbuf_init(&in);
	strbuf_init(&want);
	for (int i = 0; i <= TEXT_MAX_FIELD; i++)
		strbuf_putc(&in, 'a');
	strbuf_add(&want, in.data, TEXT_MAX_FIELD);
	strbuf_puts(&want, " \xe2\x80\xa6 (1 bytes more)");
	r = emd(in.data, in.len);
	assert_string_equal(r, want.data);
	free(r);
	/* At the cap: whole. */
	r = emd(in.data, TEXT_MAX_FIELD);
	assert_int_equal(strlen(r), TEXT_MAX_FIELD);
	free(r);
	strbuf_free(&in);
	strbuf_free(&want);
}

/* 3: invalid UTF-8 becomes U+FFFD; controls and NUL are dropped. */
static void
test_clean_utf8(void **state)
{
	static const char bad[] = "a\xff" "b\xc0\xaf" "c\xed\xa0\x80" "d"
	    "\x01\x1b[\x7f" "e\xc2\x85" "f\0g\xe2\x82";
	char *r;

	(void)state;
	r = ehtml(bad, sizeof(bad) - 1);
	assert_string_equal(r, "a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd"
	    "c\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" "d[efg\xef\xbf\xbd"
	    "\xef\xbf\xbd");
	free(r);
	/* Noncharacters, which HTML and XML forbid, are replaced too. */
	r = ehtml("a\xef\xbf\xbf" "b\xef\xb7\x90" "c\xf4\x8f\xbf\xbe" "d",
	    14);
	assert_string_equal(r, "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xef\xbf\xbd"
	    "d");
	free(r);
	/* Tab and newline survive in HTML, not in Markdown. */
	r = ehtml("a\tb\nc", 5);
	assert_string_equal(r, "a\tb\nc");
	free(r);
	/* Bidi overrides and isolates (U+202E, U+2066, U+2069) are dropped,
	 * so a value cannot show itself reordered; U+200F (a mark, not an
	 * override) and other text stay. */
	r = ehtml("PEEK\xe2\x80\xae" "EFTP\xe2\x81\xa6" "x\xe2\x81\xa9"
	    "\xe2\x80\x8f" "y", 22);
	assert_string_equal(r, "PEEKEFTPx\xe2\x80\x8fy");
	free(r);
}

/* 4: values over the cap are cut at a character boundary. */
static void
test_cap(void **state)
{
	strbuf in, want;
	char *r;

	(void)state;
	strbuf_init(&in);
	strbuf_init(&want);
	for (int i = 0; i < 2000; i++)
		strbuf_puts(&in, "\xe2\x82\xac");   /* 3 bytes each */
	for (int i = 0; i < TEXT_MAX_FIELD / 3; i++)
		strbuf_puts(&want, "\xe2\x82\xac");
	strbuf_printf(&want, " \xe2\x80\xa6 (%d bytes more)",
	    6000 - TEXT_MAX_FIELD / 3 * 3);
	r = ehtml(in.data, in.len);
	assert_string_equal(r, want.data);
	free(r);
	r = emd(in.data, in.len);
	assert_non_null(strstr(r, " \xe2\x80\xa6 (1905 bytes more)"));
	free(r);
	strbuf_free(&in);
	strbuf_free(&want);
}

/* 5: HTML text and attributes. */
static void
test_html(void **state)
{
	char *r;

	(void)state;
	r = ehtml("<a href=\"x\" title='y'>&amp;</a>", 32);
	assert_string_equal(r, "&lt;a href=&quot;x&quot; title=&#39;y&#39;"
	    "&gt;&amp;amp;&lt;/a&gt;");
	free(r);
}

/* A path keeps its '/' between segments, each escaped as escape_url,
 * and still cannot climb or leave the site. */
static void
test_url_path(void **state)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "conflicts/projects/_", "conflicts/projects/_" },
		{ "projects/a b/index", "projects/a%20b/index" },
		{ "../etc/x", "%2E%2E/etc/x" },
		{ "/abs", "%2Fabs" },
		{ "//host/x", "%2F/host/x" },
		{ "a/./b?c#d", "a/%2E/b%3Fc%23d" },
		{ "", "" },
	};
	strbuf sb;

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(*cases); k++) {
		strbuf_init(&sb);
		escape_url_path(&sb, cases[k].in, strlen(cases[k].in));
		assert_string_equal(sb.data, cases[k].want);
		strbuf_free(&sb);
	}
}

/* 6: URL segments: everything but unreserved is percent-encoded. */
static void
test_url(void **state)
{
	char *r;

	(void)state;
	r = eurl("a b/c?d#e:f%", 12);
	assert_string_equal(r, "a%20b%2Fc%3Fd%23e%3Af%25");
	free(r);
	r = eurl("..", 2);
	assert_string_equal(r, "%2E%2E");
	free(r);
	r = eurl(".", 1);
	assert_string_equal(r, "%2E");
	free(r);
	r = eurl("...", 3);
	assert_string_equal(r, "...");
	free(r);
	r = eurl("Ü-x_y.z~", strlen("Ü-x_y.z~"));
	assert_string_equal(r, "%C3%9C-x_y.z~");
	free(r);
	r = eurl("javascript:alert(1)", 19);
	assert_string_equal(r, "javascript%3Aalert%281%29");
	free(r);
}

/* Undo the entities cmark-gfm writes in text. */
static void
decode_entities(strbuf *out, const char *s)
{
	static const struct { const char *e; char c; } ents[] = {
		{ "&lt;", '<' }, { "&gt;", '>' }, { "&amp;", '&' },
		{ "&quot;", '"' }, { "&#39;", '\'' },
	};

	while (*s != '\0') {
		size_t i;

		for (i = 0; i < sizeof(ents) / sizeof(ents[0]); i++) {
			size_t l = strlen(ents[i].e);

			if (strncmp(s, ents[i].e, l) == 0) {
				strbuf_putc(out, ents[i].c);
				s += l;
				break;
			}
		}
		if (i == sizeof(ents) / sizeof(ents[0]))
			strbuf_putc(out, *s++);
	}
}

/* The text escape_md must show: cleaned, whitespace collapsed. */
static void
expected_text(strbuf *out, const char *s, size_t n)
{
	strbuf clean;
	int pending = 0;

	strbuf_init(&clean);
	text_clean(&clean, s, n, 0, 0);
	for (size_t i = 0; i < clean.len; i++) {
		char c = clean.data[i];

		if (c == ' ' || c == '\t' || c == '\n') {
			pending = 1;
			continue;
		}
		if (pending && out->len > 0)
			strbuf_putc(out, ' ');
		pending = 0;
		strbuf_putc(out, c);
	}
	strbuf_free(&clean);
}

/* Markup can only enter as '<': allow exactly the <p> and </p>. */
static void
assert_inert(const char *html, const char *name)
{
	size_t lt = 0;

	for (const char *p = html; *p != '\0'; p++)
		lt += *p == '<';
	if (lt != 0 && (lt != 2 || strncmp(html, "<p>", 3) != 0))
		fail_msg("%s: rendered HTML holds markup: %.300s", name, html);
}

/* 7: the corpus as a paragraph renders as exactly its own text. */
static void
test_corpus_paragraph(void **state)
{
	struct corpus c;

	(void)state;
	corpus_load(&c);
	for (size_t i = 0; i < c.n; i++) {
		char *e = emd(c.text[i].data, c.text[i].len);
		char *html = to_html(e);
		strbuf want, got;
		size_t hl = strlen(html);

		assert_inert(html, c.name[i]);
		strbuf_init(&want);
		strbuf_init(&got);
		expected_text(&want, c.text[i].data, c.text[i].len);
		if (want.len == 0) {
			assert_string_equal(html, "");
		} else {
			if (hl < 8 || strncmp(html, "<p>", 3) != 0 ||
			    strcmp(html + hl - 5, "</p>\n") != 0)
				fail_msg("%s: not one paragraph: %.200s",
				    c.name[i], html);
			html[hl - 5] = '\0';
			decode_entities(&got, html + 3);
			if (strcmp(got.data, want.data) != 0)
				fail_msg("%s: text changed:\n got %.300s\nwant "
				    "%.300s", c.name[i], got.data, want.data);
		}
		strbuf_free(&want);
		strbuf_free(&got);
		free(e);
		free(html);
	}
	corpus_free(&c);
}

/* 8: in a table cell and a fact list item, the corpus stays one cell
 * and one item, and forges no id or disputed marker. */
static void
test_corpus_table_and_list(void **state)
{
	struct corpus c;

	(void)state;
	corpus_load(&c);
	for (size_t i = 0; i < c.n; i++) {
		char *e = emd(c.text[i].data, c.text[i].len);
		strbuf doc;
		char *html, *p;
		int tds = 0, lis = 0;

		strbuf_init(&doc);
		strbuf_printf(&doc, "| a | b |\n|---|---|\n| <a id=\"entity-e1\">"
		    "</a> %s | x |\n\n- <a id=\"state-s1\"></a> %s [\xe2\x9a\xa0 "
		    "disputed](conflicts/c-1.md)\n", e, e);
		html = to_html(doc.data);
		for (p = html; (p = strstr(p, "<td")) != NULL; p++)
			tds++;
		for (p = html; (p = strstr(p, "<li")) != NULL; p++)
			lis++;
		if (tds != 2 || lis != 1)
			fail_msg("%s: %d cells, %d items: %.300s", c.name[i], tds,
			    lis, html);
		assert_non_null(strstr(html, "<tr id=\"entity-e1\">"));
		/* The cell holds the whole value as text: nothing split off. */
		{
			strbuf want, got;
			/* The cell's tag, with its data-label when it has one. */
			char *cell = strstr(html, "<tr id=\"entity-e1\">\n<td");
			char *end;

			assert_non_null(cell);
			cell = strchr(cell + strlen("<tr id=\"entity-e1\">\n<td"),
			    '>');
			assert_non_null(cell);
			cell++;
			end = strstr(cell, "</td>");
			assert_non_null(end);
			*end = '\0';
			strbuf_init(&want);
			strbuf_init(&got);
			expected_text(&want, c.text[i].data, c.text[i].len);
			decode_entities(&got, cell);
			if (strcmp(got.data, want.data) != 0)
				fail_msg("%s: cell text changed:\n got %.300s\n"
				    "want %.300s", c.name[i], got.data, want.data);
			*end = '<';
			strbuf_free(&want);
			strbuf_free(&got);
		}
		assert_non_null(strstr(html, "<li id=\"state-s1\">"));
		/* Exactly one link: the template's marker. */
		p = strstr(html, "<a ");
		assert_non_null(p);
		assert_null(strstr(p + 1, "<a "));
		assert_null(strstr(html, "<img"));
		assert_null(strstr(html, "<script"));
		if (strstr(html, "c-fake.html") != NULL)
			fail_msg("%s: forged a marker", c.name[i]);
		/* Only the template's anchors became ids. */
		for (p = html, tds = 0; (p = strstr(p, " id=\"")) != NULL; p++)
			tds++;
		if (tds != 2)
			fail_msg("%s: %d ids: %.300s", c.name[i], tds, html);
		strbuf_free(&doc);
		free(e);
		free(html);
	}
	corpus_free(&c);
}

/* 9: escaped for HTML the corpus holds no markup character at all. */
static void
test_corpus_html(void **state)
{
	struct corpus c;

	(void)state;
	corpus_load(&c);
	for (size_t i = 0; i < c.n; i++) {
		char *h = ehtml(c.text[i].data, c.text[i].len);

		if (strpbrk(h, "<>\"'") != NULL)
			fail_msg("%s: markup character left: %.200s", c.name[i],
			    h);
		free(h);
	}
	corpus_free(&c);
}

static double
seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A page of rows fields, each 4 KiB of '|' and "![[]()" store text. */
static double
time_page(int rows)
{
	strbuf hostile, doc, out;
	mirror_error err;
	double best = 1e9;
	char *e;

	strbuf_init(&hostile);
	for (int i = 0; i < 2500; i++)
		strbuf_putc(&hostile, '|');
	for (int i = 0; i < 500; i++)
		strbuf_puts(&hostile, "![[]()");
	e = emd(hostile.data, hostile.len);
	strbuf_init(&doc);
	strbuf_puts(&doc, "| fact | value |\n|---|---|\n");
	for (int i = 0; i < rows; i++)
		strbuf_printf(&doc, "| <a id=\"e-%d\"></a> %s | %s |\n", i, e, e);
	strbuf_putc(&doc, '\n');
	for (int i = 0; i < rows; i++)
		strbuf_printf(&doc, "- <a id=\"s-%d\"></a> %s\n", i, e);
	for (int k = 0; k < 3; k++) {
		double t0 = seconds(), t;

		strbuf_init(&out);
		assert_int_equal(markdown_to_html(&out, doc.data, doc.len, "t",
		    &err), 0);
		t = seconds() - t0;
		assert_null(strstr(out.data, "<img"));
		strbuf_free(&out);
		if (t < best)
			best = t;
	}
	strbuf_free(&doc);
	strbuf_free(&hostile);
	free(e);
	return best;
}

/* 10: 10x the hostile text takes about 10x the time, not 100x. */
static void
test_linear_time(void **state)
{
	double small, big;

	(void)state;
	small = time_page(5);
	big = time_page(50);
	print_message("[ TIMING   ] 5 rows %.4fs, 50 rows %.4fs, ratio %.1f\n",
	    small, big, big / small);
	/* CPU time, best of three: linear is about 10, quadratic 100. */
	assert_true(big / small < 40.0);
}

/*
 * 11: inputs the fuzzer (tests/fuzz/fuzz_escape.c) found. Unicode
 * whitespace at either end of a value (U+00A0, U+3000, ...) is trimmed
 * like spaces: next to it the template's "**" could not open or close
 * emphasis, so "**{{label}}**:" showed its asterisks. Inner Unicode
 * whitespace stays.
 */
static void
test_fuzz_regressions(void **state)
{
	static const char *const edged[] = {
		"\xc2\xa0" "edge value\xe3\x80\x80",
		" \xe2\x80\x80 \xe2\x80\xaf" "edge value\xe1\x9a\x80 \xc2\xa0",
		"\xe2\x81\x9f" "edge value\xe2\x80\x8a",
	};
	char *r;

	(void)state;
	for (size_t i = 0; i < sizeof(edged) / sizeof(edged[0]); i++) {
		char *e = emd(edged[i], strlen(edged[i]));
		strbuf doc;
		char *html;

		assert_string_equal(e, "edge value");
		strbuf_init(&doc);
		strbuf_printf(&doc, "- <a id=\"state-x\"></a>**%s**: Z\n", e);
		html = to_html(doc.data);
		assert_string_equal(html, "<ul>\n<li id=\"state-x\"><strong>"
		    "edge value</strong>: Z</li>\n</ul>\n");
		free(html);
		strbuf_free(&doc);
		free(e);
	}
	r = emd("a\xc2\xa0" "b \xe3\x80\x80 c", 10);
	assert_string_equal(r, "a\xc2\xa0" "b \xe3\x80\x80 c");
	free(r);
	/* Only whitespace: nothing at all. */
	r = emd("\xc2\xa0 \xe3\x80\x80", 6);
	assert_string_equal(r, "");
	free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_md_punct),
		cmocka_unit_test(test_md_whitespace),
		cmocka_unit_test(test_md_plain),
		cmocka_unit_test(test_clean_utf8),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_url),
		cmocka_unit_test(test_corpus_paragraph),
		cmocka_unit_test(test_corpus_table_and_list),
		cmocka_unit_test(test_corpus_html),
		cmocka_unit_test(test_linear_time),
		cmocka_unit_test(test_fuzz_regressions),
		cmocka_unit_test(test_url_path),
	};

	return cmocka_run_group_tests_name("escape", tests, NULL, NULL);
}
