/*
 * test_markdown.c: safe mode, twin links, fact ids, disputed markers.
 * The promises of doc/templates.md, "Fact ids and markers".
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "render/arena.h"
#include "render/markdown.h"
#include "render/tablekinds.h"
#include "util/xalloc.h"

static char *
html(const char *md)
{
	mirror_error err;
	strbuf sb;
	char *r;

	strbuf_init(&sb);
	if (markdown_to_html(&sb, md, strlen(md), "t.md", &err) < 0)
		fail_msg("%s", err.msg);
	r = xstrdup(sb.data);
	strbuf_free(&sb);
	return r;
}

static void
expect(const char *md, const char *want)
{
	char *r = html(md);

	if (strcmp(r, want) != 0)
		fail_msg("markdown '%s'\n got: %s\nwant: %s", md, r, want);
	free(r);
}

/* 0: the first renders of the process, on many threads at once (as the
 * render's workers make them): cmark-gfm's extensions are registered
 * once, and every table renders as a table. Run first, before any other
 * test has rendered. */
#define RACERS 8
static pthread_barrier_t start_line;

static void *
race_one(void *arg)
{
	char **out = arg;

	(void)pthread_barrier_wait(&start_line);
	*out = html("| a | b |\n|---|---|\n| ~~c~~ | d |\n");
	return NULL;
}

static void
test_first_use_threads(void **state)
{
	pthread_t t[RACERS];
	char *out[RACERS];

	(void)state;
	assert_int_equal(pthread_barrier_init(&start_line, NULL, RACERS), 0);
	for (int i = 0; i < RACERS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, race_one,
		    &out[i]), 0);
	for (int i = 0; i < RACERS; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	(void)pthread_barrier_destroy(&start_line);
	for (int i = 0; i < RACERS; i++) {
		if (strstr(out[i], "<td>~~c~~</td>\n<td data-label=\"b\">d</td>") ==
		    NULL)
			fail_msg("render %d of %d:\n%s", i, RACERS, out[i]);
		assert_string_equal(out[i], out[0]);
	}
	for (int i = 0; i < RACERS; i++)
		free(out[i]);
}

/* 0b: parses at once, many times over (the render's workers parse
 * beside each other, with no lock): every render is the one a single
 * thread makes. Half the threads parse "~~x~~" again and again, which
 * must stay text (strikethrough is not parsed: markdown.h), while the
 * other half parse a long page of tables, links, emphasis and '~~'. */
#define PARSES 300
#define ROWS 60

struct parser_run {
	const char *md;
	const char *want;               /* the render of md on one thread */
	int times;
	long bad;                       /* renders that differ from want */
};

static void *
parse_many(void *arg)
{
	struct parser_run *r = arg;

	(void)pthread_barrier_wait(&start_line);
	for (int i = 0; i < r->times; i++) {
		char *out = html(r->md);

		r->bad += strcmp(out, r->want) != 0;
		free(out);
	}
	return NULL;
}

/* Count of needle in hay. */
static int
count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

static void
test_parses_at_once(void **state)
{
	static const char *const tiny = "~~x~~";
	pthread_t t[RACERS];
	struct parser_run run[RACERS];
	char *want;
	strbuf md;

	(void)state;
	strbuf_init(&md);
	for (int i = 0; i < ROWS; i++)
		strbuf_printf(&md, "a line of *emphasis* then ~~kept %d~~ and "
		    "[a link](p%d.md) after it\n\n| k | v |\n|---|---|\n"
		    "| ~~c~~ | [d](q.md) |\n\n", i, i);
	want = html(md.data);
	assert_int_equal(count(want, "<table>"), ROWS);
	assert_int_equal(count(want, "<a href=\""), 2 * ROWS);
	assert_int_equal(count(want, "<em>"), ROWS);
	assert_int_equal(count(want, "<del>"), 0);
	assert_int_equal(count(want, "~~"), 4 * ROWS);
	assert_int_equal(pthread_barrier_init(&start_line, NULL, RACERS), 0);
	for (int i = 0; i < RACERS; i++) {
		run[i] = i % 2 == 0 ?
		    (struct parser_run){ tiny, "<p>~~x~~</p>\n", 10 * PARSES,
		    0 } :
		    (struct parser_run){ md.data, want, PARSES, 0 };
		assert_int_equal(pthread_create(&t[i], NULL, parse_many,
		    &run[i]), 0);
	}
	for (int i = 0; i < RACERS; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	(void)pthread_barrier_destroy(&start_line);
	strbuf_free(&md);
	free(want);
	for (int i = 0; i < RACERS; i++)
		if (run[i].bad != 0)
			fail_msg("thread %d: %ld of %d renders differ from one "
			    "thread's", i, run[i].bad, run[i].times);
}

/* 1: relative .md links point to the .html twin; others stay. */
static void
test_twin_links(void **state)
{
	(void)state;
	expect("[a](x.md)", "<p><a href=\"x.html\">a</a></p>\n");
	expect("[a](../../conflicts/c-1.md#m-2)",
	    "<p><a href=\"../../conflicts/c-1.html#m-2\">a</a></p>\n");
	expect("[a](projects/p%20q/index.md?x=1)",
	    "<p><a href=\"projects/p%20q/index.html?x=1\">a</a></p>\n");
	expect("[a](https://example.org/x.md)",
	    "<p><a href=\"https://example.org/x.md\">a</a></p>\n");
	expect("[a](/root/x.md)", "<p><a href=\"/root/x.md\">a</a></p>\n");
	expect("[a](dir/.md)", "<p><a href=\"dir/.md\">a</a></p>\n");
	expect("[a](x.mdx)", "<p><a href=\"x.mdx\">a</a></p>\n");
	expect("[a](#frag)", "<p><a href=\"#frag\">a</a></p>\n");
	expect("![i](x.md)", "<p><img src=\"x.md\" alt=\"i\" /></p>\n");
}

/* 2: list items and table rows led by an anchor get its id. */
static void
test_fact_ids(void **state)
{
	(void)state;
	expect("- <a id=\"state-s1\"></a> key = value\n- plain\n",
	    "<ul>\n<li id=\"state-s1\">key = value</li>\n<li>plain</li>\n"
	    "</ul>\n");
	/* Loose list: the id goes on the li, the paragraph stays. */
	expect("- <a id=\"entity-e1\"></a> one\n\n- two\n",
	    "<ul>\n<li id=\"entity-e1\">\n<p>one</p>\n</li>\n<li>\n<p>two</p>\n"
	    "</li>\n</ul>\n");
	expect("1. <a id=\"memory-m-1\"></a> first\n",
	    "<ol>\n<li id=\"memory-m-1\">first</li>\n</ol>\n");
	expect("| fact | v |\n|---|---|\n| <a id=\"entity-e2\"></a> x | y |\n",
	    "<table>\n<thead>\n<tr>\n<th>fact</th>\n<th>v</th>\n</tr>\n</thead>"
	    "\n<tbody>\n<tr id=\"entity-e2\">\n<td>x</td>\n"
	    "<td data-label=\"v\">y</td>\n</tr>\n"
	    "</tbody>\n</table>\n");
	/* Nested lists: each item its own id. */
	expect("- <a id=\"a\"></a> outer\n  - <a id=\"b\"></a> inner\n",
	    "<ul>\n<li id=\"a\">outer\n<ul>\n<li id=\"b\">inner</li>\n</ul>\n"
	    "</li>\n</ul>\n");
}

/* 2b: a table's body cells carry their column's header text as
 * data-label (escaped for the attribute; markup in the header reduced to
 * its text), with or without a row id; a header cell without text gives
 * none, nor does a cell past the header's columns, nor the first cell
 * (a card's title, shown unlabelled). */
static void
test_cell_labels(void **state)
{
	(void)state;
	expect("| **Key** | Say \"a\" & `<b>` |  |\n|---|---|---|\n"
	    "| <a id=\"state-s1\"></a> k | v | w |\n| x | | z |\n",
	    "<table>\n<thead>\n<tr>\n<th><strong>Key</strong></th>\n"
	    "<th>Say &quot;a&quot; &amp; <code>&lt;b&gt;</code></th>\n<th></th>\n"
	    "</tr>\n</thead>\n<tbody>\n<tr id=\"state-s1\">\n"
	    "<td>k</td>\n"
	    "<td data-label=\"Say &quot;a&quot; &amp; &lt;b&gt;\">v</td>\n"
	    "<td>w</td>\n</tr>\n<tr>\n<td>x</td>\n"
	    "<td data-label=\"Say &quot;a&quot; &amp; &lt;b&gt;\"></td>\n"
	    "<td>z</td>\n</tr>\n</tbody>\n</table>\n");
	/* Raw HTML in a header, omitted in safe mode, stays out of the
	 * label too. */
	expect("| a | <i>x</i> \\| y |\n|---|---|\n| 0 | 1 |\n",
	    "<table>\n<thead>\n<tr>\n<th>a</th>\n<th><!-- raw HTML omitted -->x"
	    "<!-- raw HTML omitted --> | y</th>\n"
	    "</tr>\n</thead>\n<tbody>\n<tr>\n<td>0</td>\n"
	    "<td data-label=\"x | y\">1</td>\n</tr>\n</tbody>\n</table>\n");
}

/* The variants of a template's header line: each if-block taken either
 * way; a line with another tag or an unclosed block has none. */
static void
test_table_variants(void **state)
{
	static const char ifelse[] = "| Fact | From |{{#if d}} Then | Now |"
	    "{{else}} Value |{{/if}} Status |";
	static const char nested[] = "| a |{{#if x}} b |{{#unless y}} c |"
	    "{{/unless}}{{/if}}";
	char **v;
	size_t n;

	(void)state;
	assert_int_equal(table_kinds_variants(&v, &n, ifelse,
	    strlen(ifelse)), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0], "| Fact | From | Then | Now | Status |");
	assert_string_equal(v[1], "| Fact | From | Value | Status |");
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	assert_int_equal(table_kinds_variants(&v, &n, nested,
	    strlen(nested)), 0);
	assert_int_equal(n, 3);
	assert_string_equal(v[0], "| a | b | c |");
	assert_string_equal(v[1], "| a | b |");
	assert_string_equal(v[2], "| a |");
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	assert_int_equal(table_kinds_variants(&v, &n, "| {{label}} | x |",
	    17), -1);
	assert_null(v);
	assert_int_equal(table_kinds_variants(&v, &n, "| a |{{#if x}} b |",
	    18), -1);
}

/* page's HTML, rendered knowing the kinds of template tmpl_text. */
static char *
html_kinds(struct table_kinds **kinds, const char *tmpl_text,
    const char *page)
{
	mirror_error err;
	strbuf sb;
	char *r;

	*kinds = table_kinds_new();
	if (table_kinds_add_template(*kinds, tmpl_text, strlen(tmpl_text),
	    markdown_table_labels, &err) < 0)
		fail_msg("%s", err.msg);
	table_kinds_seal(*kinds);
	strbuf_init(&sb);
	if (markdown_render(&sb, NULL, &(struct md_source){ .md = page,
	    .len = strlen(page), .name = "t.md", .kinds = *kinds }, &err) < 0)
		fail_msg("%s", err.msg);
	r = xstrdup(sb.data);
	strbuf_free(&sb);
	return r;
}

/* (g): a table whose labels the templates' header rows give (either
 * way of an if-block) gets its kind's class and no data-label; another
 * table keeps its per-cell labels; a body row of a template adds none. */
static void
test_table_kinds(void **state)
{
	static const char tmpl_text[] =
	    "## State\n\n"
	    "| Key | Value |{{#if c}} Confidence |{{/if}} Updated |\n"
	    "| --- | --- |{{#if c}} --- |{{/if}} --- |\n"
	    "{{#each rows}}\n| **{{label}}** | {{value}} | {{updated}} |\n"
	    "{{/each}}\n";
	static const char page[] =
	    "| Key | Value | Updated |\n| --- | --- | --- |\n| k | v | u |\n\n"
	    "| Key | Value | Confidence | Updated |\n|---|---|---|---|\n"
	    "| k | v | 1 | u |\n\n"
	    "| Key | Value | Source |\n|---|---|---|\n| k | v | s |\n";
	const char *l3[] = { "Value", "Updated" }, *l4[] = { "Value",
	    "Confidence", "Updated" }, *l5[] = { "{{value}}", "{{updated}}" };
	char c3[TABLE_KINDS_CLASS_MAX], c4[TABLE_KINDS_CLASS_MAX], want[64];
	struct table_kinds *k;
	char *r = html_kinds(&k, tmpl_text, page);

	(void)state;
	assert_int_equal(table_kinds_class(c3, k, l3, 2), 1);
	assert_int_equal(table_kinds_class(c4, k, l4, 3), 1);
	assert_string_not_equal(c3, c4);
	/* Not a body row's, nor a known list cut short. */
	assert_int_equal(table_kinds_class(want, k, l5, 2), 0);
	assert_int_equal(table_kinds_class(want, k, l4, 2), 0);
	snprintf(want, sizeof(want), "<table class=\"%s\">\n<thead>", c3);
	assert_non_null(strstr(r, want));
	snprintf(want, sizeof(want), "<table class=\"%s\">\n<thead>", c4);
	assert_non_null(strstr(r, want));
	assert_non_null(strstr(r, "<td>k</td>\n<td>v</td>\n<td>u</td>"));
	assert_non_null(strstr(r, "<table>\n<thead>\n<tr>\n<th>Key</th>"));
	assert_non_null(strstr(r, "<td>k</td>\n<td data-label=\"Value\">v"
	    "</td>\n<td data-label=\"Source\">s</td>"));
	/* The unknown table's cells are the only ones labelled. */
	assert_ptr_equal(strstr(r, "data-label"),
	    strstr(r, "<td data-label=\"Value\">v") + 4);
	free(r);
	table_kinds_free(k);
}

/* Two kinds whose classes would be the same 8 hex digits ("c66903" and
 * "c105709" both hash to 9c7174d2): neither gets a class, so both kinds'
 * tables keep their data-labels, and the stylesheet has no rule of the
 * class; another kind is not affected. */
static void
test_table_kinds_clash(void **state)
{
	static const char tmpl_text[] = "| A | c66903 |\n|---|---|\n\n"
	    "| B | c105709 |\n|---|---|\n\n| C | x |\n|---|---|\n";
	const char *l1[] = { "c66903" }, *l2[] = { "c105709" }, *l3[] = {
	    "x" };
	char cls[TABLE_KINDS_CLASS_MAX];
	struct table_kinds *k;
	strbuf css;
	char *r = html_kinds(&k, tmpl_text, "| A | c66903 |\n|---|---|\n"
	    "| 1 | 2 |\n");

	(void)state;
	assert_int_equal(table_kinds_class(cls, k, l1, 1), 0);
	assert_int_equal(table_kinds_class(cls, k, l2, 1), 0);
	assert_int_equal(table_kinds_class(cls, k, l3, 1), 1);
	assert_non_null(strstr(r, "<table>\n"));
	assert_non_null(strstr(r, "<td data-label=\"c66903\">2</td>"));
	strbuf_init(&css);
	table_kinds_css(&css, k);
	assert_null(strstr(css.data, "9c7174d2"));
	assert_non_null(strstr(css.data, cls));
	strbuf_free(&css);
	free(r);
	table_kinds_free(k);
}

/* The stylesheet's rules: each label a CSS string that no text can end
 * early nor turn into "</" (the not-found page holds it inline), UTF-8
 * kept; nothing at all for no kind. */
static void
test_table_css(void **state)
{
	static const char tmpl_text[] = "| Name | Say &quot;x&quot; \\\\ "
	    "y&#10;z &lt;/style> | Tilt µrad |\n|---|---|---|\n";
	const char *l[] = { "Say \"x\" \\ y\nz </style>", "Tilt µrad" };
	char cls[TABLE_KINDS_CLASS_MAX];
	struct table_kinds *k;
	strbuf css;
	char *r = html_kinds(&k, tmpl_text, "x\n");

	(void)state;
	free(r);
	assert_int_equal(table_kinds_class(cls, k, l, 2), 1);
	strbuf_init(&css);
	table_kinds_css(&css, k);
	assert_non_null(strstr(css.data, "@media (max-width: 40rem) {\n"));
	assert_non_null(strstr(css.data, cls));
	assert_non_null(strstr(css.data, " td:nth-child(2)::before { content: "
	    "\"Say \\\"x\\\" \\\\ y\\A z \\3C /style>: \"; }\n"));
	assert_non_null(strstr(css.data, " td:nth-child(3)::before { content: "
	    "\"Tilt µrad: \"; }\n}\n"));
	assert_null(strstr(css.data, "</"));
	strbuf_free(&css);
	table_kinds_free(k);
	k = table_kinds_new();
	table_kinds_seal(k);
	strbuf_init(&css);
	table_kinds_css(&css, k);
	assert_int_equal(css.len, 0);
	strbuf_free(&css);
	table_kinds_free(k);
}

/* The date and number columns of a kind stay on one line at every
 * width, one rule for all (doc/site.md, "Pages that hold at any
 * size"): "Updated", a right-aligned count and two dates ("Created ·
 * updated", whose label takes a line of its own on a phone) are, a
 * value and any other column are not; no kind with such a column, no
 * rule. */
static void
test_table_css_nowrap(void **state)
{
	static const char tmpl_text[] = "| Name | Value | Hits | Updated | "
	    "Created · updated | Source |\n|---|---|--:|---|---|---|\n\n"
	    "| Name | Value |\n|---|---|\n";
	static const char head[] = "on one line (mirror). */\n";
	const char *l[] = { "Value", "Hits", "Updated", "Created · updated",
	    "Source" };
	char cls[TABLE_KINDS_CLASS_MAX], want[256];
	struct table_kinds *k;
	strbuf css;
	const char *rule;
	char *r = html_kinds(&k, tmpl_text, "x\n");

	(void)state;
	free(r);
	assert_int_equal(table_kinds_class(cls, k, l, 5), 1);
	strbuf_init(&css);
	table_kinds_css(&css, k);
	rule = strstr(css.data, head);
	assert_non_null(rule);
	assert_int_equal(snprintf(want, sizeof(want), "main table.%s "
	    "td:nth-child(3),\nmain table.%s td:nth-child(4),\nmain table.%s "
	    "td:nth-child(5) { white-space: nowrap; }\n@media (max-width: "
	    "40rem) {\nmain table.%s td:nth-child(5)::before { display: "
	    "block; }\n}\n", cls, cls, cls, cls) < (int)sizeof(want), 1);
	assert_string_equal(rule + strlen(head), want);
	strbuf_free(&css);
	table_kinds_free(k);
}

/* (i): the words a browser would cut at a '-' are kept whole where a
 * line can break inside them, and nowhere else. */
#define LONG "A paragraph long enough to wrap on a phone: "
static void
test_nobreak(void **state)
{
	static const char tmpl_text[] = "| Name | Value | Updated |\n"
	    "|---|---|---|\n";
	struct table_kinds *k;
	char *r;

	(void)state;
	/* running text: a date as <time>, a value or id of capitals or
	 * digits in a span; a hyphenated word of lower case as it is */
	expect(LONG "design review 2025-11-04, GF-PTFE, p04-st-power, 1e-12 "
	    "and a well-kept word.",
	    "<p>" LONG "design review <time>2025-11-04</time>, "
	    "<span class=\"nobreak\">GF-PTFE,</span> "
	    "<span class=\"nobreak\">p04-st-power,</span> "
	    "<span class=\"nobreak\">1e-12</span> and a well-kept word.</p>\n");
	/* a date after the calendar's last day is a token like any other;
	 * the punctuation around a date stays outside its <time> */
	expect(LONG "(2025-02-29) (2024-02-29) 2025-11-045",
	    "<p>" LONG "<span class=\"nobreak\">(2025-02-29)</span> "
	    "<span class=\"nobreak\">(2024-02-29)</span> "
	    "<span class=\"nobreak\">2025-11-045</span></p>\n");
	expect(LONG "on 2024-02-29.", "<p>" LONG "on <time>2024-02-29</time>."
	    "</p>\n");
	/* a short paragraph is one line, and a paragraph's first word
	 * starts one: neither is cut */
	expect("open since 2025-11-04", "<p>open since 2025-11-04</p>\n");
	expect("2025-11-04 · " LONG "GF-PTFE",
	    "<p>2025-11-04 · " LONG "<span class=\"nobreak\">GF-PTFE</span>"
	    "</p>\n");
	/* a code span is kept whole by the theme; a code block's words
	 * here, whatever their case; a token over MD_NOBREAK_MAX wraps */
	expect("`p04-st-power` " LONG "x", "<p><code>p04-st-power</code> "
	    LONG "x</p>\n");
	expect("```sh\nmirror x --winner p06-st-spindle-max\n```\n",
	    "<pre><code class=\"language-sh\">mirror x --winner "
	    "<span class=\"nobreak\">p06-st-spindle-max</span>\n"
	    "</code></pre>\n");
	expect(LONG "A-0123456789012345678901234567890123456789",
	    "<p>" LONG "A-0123456789012345678901234567890123456789</p>\n");
	/* store text stays text: escaped inside and around the span */
	expect(LONG "A&lt;1-B&amp;2 &lt;b&gt;-x",
	    "<p>" LONG "<span class=\"nobreak\">A&lt;1-B&amp;2</span> "
	    "&lt;b&gt;-x</p>\n");
	/* a cell: every hyphenated word, but not in a column the
	 * stylesheet keeps on one line (a known kind's "Updated") */
	r = html_kinds(&k, tmpl_text, "| Name | Value | Updated |\n"
	    "|---|---|---|\n| self-weight | 6061-T6 | 2025-11-04 |\n");
	assert_non_null(strstr(r, "<td><span class=\"nobreak\">self-weight"
	    "</span></td>\n<td><span class=\"nobreak\">6061-T6</span></td>\n"
	    "<td>2025-11-04</td>"));
	free(r);
	table_kinds_free(k);
	expect("| a | b |\n|---|---|\n| x | 2025-11-04 |\n",
	    "<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n"
	    "</thead>\n<tbody>\n<tr>\n<td>x</td>\n<td data-label=\"b\">"
	    "<time>2025-11-04</time></td>\n</tr>\n</tbody>\n</table>\n");
}
#undef LONG

/* 3: anything else that looks like an anchor stays suppressed. */
static void
test_other_html_suppressed(void **state)
{
	(void)state;
	/* Not at the start of the item. */
	expect("- x <a id=\"s\"></a>\n",
	    "<ul>\n<li>x <!-- raw HTML omitted --><!-- raw HTML omitted --></li>"
	    "\n</ul>\n");
	/* Not a list item. */
	expect("<a id=\"s\"></a> para\n",
	    "<p><!-- raw HTML omitted --><!-- raw HTML omitted --> para</p>\n");
	/* An id that is not [a-z0-9-]+, or extra attributes. */
	expect("- <a id=\"S\"></a> x\n",
	    "<ul>\n<li><!-- raw HTML omitted --><!-- raw HTML omitted --> x</li>"
	    "\n</ul>\n");
	expect("- <a id=\"s\" onclick=\"x()\"></a> x\n",
	    "<ul>\n<li><!-- raw HTML omitted --><!-- raw HTML omitted --> x</li>"
	    "\n</ul>\n");
	expect("- <a id=\"s\"><b></a> x\n",
	    "<ul>\n<li><!-- raw HTML omitted --><!-- raw HTML omitted -->"
	    "<!-- raw HTML omitted --> x</li>\n</ul>\n");
	expect("<script>alert(1)</script>\n", "<!-- raw HTML omitted -->\n");
	expect("[x](javascript:alert(1))", "<p><a href=\"\">x</a></p>\n");
	expect("<div>\n- <a id=\"s\"></a> x\n</div>\n",
	    "<!-- raw HTML omitted -->\n");
}

/* 4: the disputed marker. */
static void
test_disputed(void **state)
{
	(void)state;
	expect("- <a id=\"state-s1\"></a> v [\xe2\x9a\xa0 disputed]"
	    "(../../conflicts/c-1a2b.md)\n",
	    "<ul>\n<li id=\"state-s1\">v <a class=\"disputed\" "
	    "href=\"../../conflicts/c-1a2b.html\" aria-label=\"disputed: see "
	    "conflict c-1a2b\">\xe2\x9a\xa0 disputed</a></li>\n</ul>\n");
	expect("[\xe2\x9a\xa0 disputed](conflicts/c-9.md)",
	    "<p><a class=\"disputed\" href=\"conflicts/c-9.html\" "
	    "aria-label=\"disputed: see conflict c-9\">\xe2\x9a\xa0 disputed</a>"
	    "</p>\n");
	/* Other text, other directory, bad id, fragment: a plain link. */
	expect("[disputed](conflicts/c-9.md)",
	    "<p><a href=\"conflicts/c-9.html\">disputed</a></p>\n");
	expect("[\xe2\x9a\xa0 disputed](other/c-9.md)",
	    "<p><a href=\"other/c-9.html\">\xe2\x9a\xa0 disputed</a></p>\n");
	expect("[\xe2\x9a\xa0 disputed](conflicts/C_9.md)",
	    "<p><a href=\"conflicts/C_9.html\">\xe2\x9a\xa0 disputed</a></p>\n");
	expect("[\xe2\x9a\xa0 disputed](conflicts/c-9.md#x)",
	    "<p><a href=\"conflicts/c-9.html#x\">\xe2\x9a\xa0 disputed</a></p>\n");
	expect("[\xe2\x9a\xa0 *disputed*](conflicts/c-9.md)",
	    "<p><a href=\"conflicts/c-9.html\">\xe2\x9a\xa0 <em>disputed</em>"
	    "</a></p>\n");
}

/* 5: the extensions are on (tables, strikethrough) and tagfilter is
 * too; extended autolinks are off (an e-mail address in store text
 * could not be kept from linking), CommonMark's <...> autolinks work. */
static void
test_extensions(void **state)
{
	char *r;

	(void)state;
	expect("~~x~~", "<p>~~x~~</p>\n");
	expect("see https://example.org, www.example.org or a@example.org",
	    "<p>see https://example.org, www.example.org or a@example.org</p>"
	    "\n");
	expect("see <https://example.org>",
	    "<p>see <a href=\"https://example.org\">https://example.org</a></p>"
	    "\n");
	r = html("| a |\n|---|\n| b |\n");
	assert_non_null(strstr(r, "<table>"));
	free(r);
}

/* 6: the same input gives the same bytes; empty input is empty. */
static void
test_deterministic(void **state)
{
	const char *md = "# T\n\n- <a id=\"s\"></a> x [\xe2\x9a\xa0 disputed]"
	    "(conflicts/c.md)\n\n| <a id=\"r\"></a> a |\n|---|\n";
	char *a, *b;

	(void)state;
	a = html(md);
	b = html(md);
	assert_string_equal(a, b);
	free(a);
	free(b);
	expect("", "");
}

/* 7: a heading that starts with an anchor gets its id; an anchor that
 * is not exactly the template's form, or text, stays suppressed. */
static void
test_heading_ids(void **state)
{
	(void)state;
	expect("## <a id=\"state\"></a>Trusted state\n",
	    "<h2 id=\"state\">Trusted state</h2>\n");
	expect("### <a id=\"a-1\"></a> x *y*\n",
	    "<h3 id=\"a-1\">x <em>y</em></h3>\n");
	expect("## <a id=\"Bad\"></a>t\n",
	    "<h2><!-- raw HTML omitted --><!-- raw HTML omitted -->t</h2>\n");
	expect("## t <a id=\"x\"></a>\n",
	    "<h2>t <!-- raw HTML omitted --><!-- raw HTML omitted --></h2>\n");
	expect("## \\<a id=\"x\"\\>\\</a\\>t\n",
	    "<h2>&lt;a id=&quot;x&quot;&gt;&lt;/a&gt;t</h2>\n");
}

/* 8: "<!-- figure:NAME -->" becomes the caller's figure NAME (also an
 * empty one), or stays suppressed when the caller has none; any other
 * HTML block (the placeholder with more on its line, or escaped) stays
 * suppressed. */
static void
test_figure(void **state)
{
	const char *md = "a\n\n<!-- figure:diagram -->\n\nb\n";
	const struct md_figure figs[] = { { "chart", "<i>no</i>" },
	    { "diagram", "<svg></svg>" } }, none[] = { { "diagram", "" } };
	mirror_error err;
	strbuf sb;

	(void)state;
	strbuf_init(&sb);
	assert_int_equal(markdown_render(&sb, NULL, &(struct md_source){
	    .md = md, .len = strlen(md), .name = "t", .figs = figs,
	    .nfigs = 2 }, &err), 0);
	assert_string_equal(sb.data, "<p>a</p>\n<svg></svg>\n<p>b</p>\n");
	strbuf_reset(&sb);
	assert_int_equal(markdown_render(&sb, NULL, &(struct md_source){
	    .md = md, .len = strlen(md), .name = "t", .figs = none,
	    .nfigs = 1 }, &err), 0);
	assert_string_equal(sb.data, "<p>a</p>\n<p>b</p>\n");
	strbuf_free(&sb);
	expect(md, "<p>a</p>\n<!-- raw HTML omitted -->\n<p>b</p>\n");
	expect("<!-- figure:diagram --> x\n", "<!-- raw HTML omitted -->\n");
	expect("\\<!-- figure:diagram -->\n",
	    "<p>&lt;!-- figure:diagram --&gt;</p>\n");
}

/* 8b: "<details><summary>TEXT</summary>" ... "</details>" folds the
 * Markdown between; a summary with markup, a close with no open fold
 * and an open fold never closed stay suppressed (balanced HTML). */
static void
test_fold(void **state)
{
	(void)state;
	expect("<details><summary>How this is checked</summary>\n\n"
	    "```sql\nSELECT 1;\n```\n\n</details>\n",
	    "<details>\n<summary>How this is checked</summary>\n"
	    "<pre><code class=\"language-sql\">SELECT 1;\n</code></pre>\n"
	    "</details>\n");
	expect("<details><summary>a <b>b</b></summary>\n\nx\n",
	    "<!-- raw HTML omitted -->\n<p>x</p>\n");
	expect("</details>\n\nx\n", "<!-- raw HTML omitted -->\n<p>x</p>\n");
	expect("<details><summary>t</summary>\n\nx\n", "<p>x</p>\n");
	expect("\\<details><summary>t</summary>\n",
	    "<p>&lt;details&gt;<!-- raw HTML omitted -->t"
	    "<!-- raw HTML omitted --></p>\n");
}

/* 8c: the two landmark lines open a nav that "</nav>" closes, with the
 * Markdown between rendered; a close of the other kind (a </details>
 * for a nav, a </nav> for a fold) stays suppressed, as does any other
 * nav line, and an escaped one is text. */
static void
test_landmark(void **state)
{
	(void)state;
	expect("<nav class=\"crumbs\" aria-label=\"Breadcrumbs\">\n\n"
	    "[Index](i.md) \xe2\x80\xba P\n\n</nav>\n",
	    "<nav class=\"crumbs\" aria-label=\"Breadcrumbs\">\n"
	    "<p><a href=\"i.html\">Index</a> \xe2\x80\xba P</p>\n</nav>\n");
	expect("<nav class=\"toc\" aria-label=\"Contents\">\n\n- a\n\n"
	    "</details>\n\n</nav>\n",
	    "<nav class=\"toc\" aria-label=\"Contents\">\n<ul>\n<li>a</li>\n"
	    "</ul>\n<!-- raw HTML omitted -->\n</nav>\n");
	expect("<details><summary>t</summary>\n\nx\n\n</nav>\n\n"
	    "</details>\n",
	    "<details>\n<summary>t</summary>\n<p>x</p>\n"
	    "<!-- raw HTML omitted -->\n</details>\n");
	expect("<nav class=\"toc\" onclick=\"x\">\n\nx\n",
	    "<!-- raw HTML omitted -->\n<p>x</p>\n");
	expect("<nav class=\"toc\" aria-label=\"Contents\">\n\nx\n",
	    "<p>x</p>\n");
	expect("\\<nav class=\"toc\" aria-label=\"Contents\">\n",
	    "<p>&lt;nav class=&quot;toc&quot; aria-label=&quot;Contents&quot;&gt;"
	    "</p>\n");
}

/* The tables of md, in order, as a string: 'S' for a table with the
 * class MD_SECTION_CLASS (alone: no kinds are known here), '-' for one
 * without; *toc what markdown_render says of the contents landmark. */
static char *
section_marks(const char *md, int *toc)
{
	mirror_error err;
	strbuf sb, marks;
	char *r;

	strbuf_init(&sb);
	strbuf_init(&marks);
	*toc = -1;
	if (markdown_render(&sb, NULL, &(struct md_source){ .md = md,
	    .len = strlen(md), .name = "t.md", .toc = toc }, &err) < 0)
		fail_msg("%s", err.msg);
	for (const char *p = sb.data; (p = strstr(p, "<table")) != NULL;
	    p += 6)
		strbuf_putc(&marks, strncmp(p, "<table class=\""
		    MD_SECTION_CLASS "\">", 26) == 0 ? 'S' : '-');
	r = xstrdup(marks.data != NULL ? marks.data : "");
	strbuf_free(&sb);
	strbuf_free(&marks);
	return r;
}

static void
expect_sections(const char *md, const char *want, int want_toc)
{
	int toc;
	char *r = section_marks(md, &toc);

	if (strcmp(r, want) != 0 || toc != want_toc)
		fail_msg("markdown '%s'\n got: %s toc %d\nwant: %s toc %d", md,
		    r, toc, want, want_toc);
	free(r);
}

#define TBL "\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
#define H2ID "\n## <a id=\"s\"></a>S\n\n"
#define FOLD "\n<details><summary>More</summary>\n\n"
#define TOC "\n<nav class=\"toc\" aria-label=\"Contents\">\n\n- [S](#s)\n\n"

/* 8d (h): a table after a level-2 heading with an id among the
 * children of the same element gets the class "in-section", as
 * "h2[id] ~ table" finds it in a browser: not before the heading, not
 * after an h2 without an id or an h3 with one, not in a fold after a
 * heading outside it nor after a fold whose heading is inside, but in
 * a fold after its own heading and in a list item or quote after its
 * own; the contents landmark is reported only as a child of the page,
 * and closed (one never closed renders as nothing, and what it held is
 * the page's own). */
static void
test_sections(void **state)
{
	(void)state;
	expect_sections(TBL H2ID TBL TBL, "-SS", 0);
	expect_sections("\n## S\n\n" TBL "### <a id=\"t\"></a>T\n" TBL, "--",
	    0);
	expect_sections(H2ID FOLD TBL "</details>\n\n" TBL, "-S", 0);
	expect_sections(FOLD H2ID TBL "</details>\n\n" TBL, "S-", 0);
	expect_sections(FOLD "x\n\n</details>\n" H2ID FOLD TBL "</details>\n",
	    "-", 0);
	expect_sections("- x\n\n  ## <a id=\"s\"></a>S\n\n  | a | b |\n"
	    "  |---|---|\n  | 1 | 2 |\n\n" TBL, "S-", 0);
	expect_sections("> ## <a id=\"s\"></a>S\n>\n> | a |\n> |---|\n"
	    "> | 1 |\n" TBL, "S-", 0);
	expect_sections(TOC "</nav>\n" H2ID TBL, "S", 1);
	expect_sections(TOC H2ID TBL, "S", 0);
	expect_sections(H2ID FOLD TBL, "S", 0);
	expect_sections(FOLD TOC "</nav>\n\n</details>\n", "", 0);
	expect_sections("\n<nav class=\"crumbs\" aria-label=\"Breadcrumbs\">\n"
	    TOC "</nav>\n\n</nav>\n", "", 0);
}

/* The arena: aligned blocks; calloc zeroes a room used before; the
 * newest block grows in place and its room comes back when freed; an
 * older block moves with its bytes; a big block is resized in place and
 * freed at once; a reset keeps the first chunks for the next job and
 * frees the rest; arena_free leaves an arena ready for use (ASan checks
 * that nothing leaks and no block overlaps another). */
static void
test_arena(void **state)
{
	struct arena a;
	unsigned char *p, *q, *r, *big;

	(void)state;
	arena_init(&a);
	p = arena_alloc(&a, 3);
	q = arena_alloc(&a, 40);
	assert_int_equal((uintptr_t)p % 16, 0);
	assert_int_equal((uintptr_t)q % 16, 0);
	assert_true(q >= p + 3);
	memset(q, 0xab, 40);
	/* The newest block grows where it is. */
	r = arena_realloc(&a, q, 100);
	assert_ptr_equal(r, q);
	assert_int_equal(r[39], 0xab);
	/* An older one moves, its bytes kept. */
	memcpy(p, "xyz", 3);
	r = arena_realloc(&a, p, 64);
	assert_ptr_not_equal(r, p);
	assert_memory_equal(r, "xyz", 3);
	/* The newest block's room is taken again once freed, zeroed by
	 * calloc. */
	memset(r, 0xcd, 64);
	arena_block_free(&a, r);
	q = arena_calloc(&a, 8, 8);
	assert_ptr_equal(q, r);
	for (int i = 0; i < 64; i++)
		assert_int_equal(q[i], 0);
	/* Freeing an older block changes nothing. */
	arena_block_free(&a, p);
	r = arena_alloc(&a, 1);
	assert_true(r >= q + 64);
	/* A big block: resized in place, freed at once. */
	big = arena_alloc(&a, 20000);
	memset(big, 7, 20000);
	big = arena_realloc(&a, big, 200000);
	assert_int_equal(big[19999], 7);
	arena_block_free(&a, big);
	/* A small block grown past the big size moves with its bytes. */
	p = arena_alloc(&a, 100);
	memset(p, 9, 100);
	q = arena_realloc(&a, p, 50000);
	assert_int_equal(q[99], 9);
	/* Many blocks over several chunks, each still its own. */
	for (int i = 0; i < 30000; i++) {
		p = arena_alloc(&a, 24);
		memset(p, i & 0xff, 24);
	}
	assert_int_equal(p[23], 29999 & 0xff);
	/* A reset keeps the first chunks (1 MB of them) and starts again
	 * at the first; big blocks go. */
	q = arena_alloc(&a, 20000);
	assert_true(a.n_chunks > 4);
	assert_int_equal(a.n_big, 2);
	arena_reset(&a);
	assert_int_equal(a.n_chunks, 4);
	assert_int_equal(a.n_big, 0);
	r = arena_calloc(&a, 1, 32);
	assert_ptr_equal(r - 16, a.chunks[0]);
	for (int i = 0; i < 32; i++)
		assert_int_equal(r[i], 0);
	/* Past the first chunk, the kept ones are used again (5,461
	 * blocks of 24 bytes and their headers fill a chunk). */
	for (int i = 0; i < 12000; i++)
		p = arena_alloc(&a, 24);
	assert_int_equal(a.n_chunks, 4);
	assert_int_equal(a.cur, 2);
	arena_free(&a);
	assert_int_equal(a.n_chunks, 0);
	assert_int_equal(a.n_big, 0);
	p = arena_calloc(&a, 1, 10);
	assert_int_equal(p[9], 0);
	arena_free(&a);
	arena_block_free(&a, NULL);
}

/* A size no block can have (its header would wrap it round) exits as
 * xalloc does on no memory, status 3, in alloc, calloc and realloc. */
static void
test_arena_too_big(void **state)
{
	(void)state;
	for (int k = 0; k < 3; k++) {
		pid_t pid = fork();
		int status;

		assert_true(pid >= 0);
		if (pid == 0) {
			struct arena a;
			void *p;

			fclose(stderr);         /* its one line is expected */
			arena_init(&a);
			p = arena_alloc(&a, 8);
			if (k == 0)
				p = arena_alloc(&a, SIZE_MAX - 4);
			else if (k == 1)
				p = arena_calloc(&a, SIZE_MAX / 8, 8);
			else
				p = arena_realloc(&a, p, SIZE_MAX - 4);
			_exit(p != NULL ? 0 : 1);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 3);
	}
}

/* A page up to MARKDOWN_ARENA_MAX bytes is parsed in the thread's
 * arena, a longer one with malloc: both give the same HTML, and the
 * arena's page after the long one still renders whole. */
static void
test_arena_and_malloc_pages(void **state)
{
	static const char para[] = "Row *%05d* with a [link](x.md) and "
	    "~~gone~~ text.\n\n";
	static const char html[] = "<p>Row <em>%05d</em> with a <a href="
	    "\"x.html\">link</a> and ~~gone~~ text.</p>\n";
	const size_t sizes[] = { MARKDOWN_ARENA_MAX - 200,
	    MARKDOWN_ARENA_MAX + 200, 300 };

	(void)state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
		strbuf md, want, got;
		mirror_error err;
		int n = 0;

		strbuf_init(&md);
		strbuf_init(&want);
		strbuf_init(&got);
		while (md.len + sizeof(para) < sizes[k]) {
			strbuf_printf(&md, para, n);
			strbuf_printf(&want, html, n);
			n++;
		}
		assert_true((k == 1) == (md.len > MARKDOWN_ARENA_MAX));
		assert_int_equal(markdown_render(&got, NULL,
		    &(struct md_source){ .md = md.data, .len = md.len,
		    .name = "t" }, &err), 0);
		assert_string_equal(got.data, want.data);
		strbuf_free(&md);
		strbuf_free(&want);
		strbuf_free(&got);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arena),
		cmocka_unit_test(test_arena_too_big),
		cmocka_unit_test(test_arena_and_malloc_pages),
		cmocka_unit_test(test_first_use_threads),
		cmocka_unit_test(test_parses_at_once),
		cmocka_unit_test(test_twin_links),
		cmocka_unit_test(test_fact_ids),
		cmocka_unit_test(test_cell_labels),
		cmocka_unit_test(test_table_variants),
		cmocka_unit_test(test_table_kinds),
		cmocka_unit_test(test_table_kinds_clash),
		cmocka_unit_test(test_table_css),
		cmocka_unit_test(test_table_css_nowrap),
		cmocka_unit_test(test_other_html_suppressed),
		cmocka_unit_test(test_disputed),
		cmocka_unit_test(test_extensions),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_heading_ids),
		cmocka_unit_test(test_figure),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_landmark),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_nobreak),
	};

	return cmocka_run_group_tests_name("markdown", tests, NULL, NULL);
}
