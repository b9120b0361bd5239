/*
 * test_diagram.c: the SVG tree of gen/render/diagram.c: layout, bytes
 * that never change, escaping of hostile labels, wrapping onto lines
 * (never an ellipsis below the line cap), boxes as tall as their lines,
 * links that say what is disputed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render/diagram.h"
#include "util/xalloc.h"

/* d as SVG text (caller frees). */
static char *
svg(const struct diagram_node *nodes, size_t n)
{
	struct diagram d = { "t", "A title", nodes, n };
	strbuf sb;

	strbuf_init(&sb);
	diagram_svg(&sb, &d);
	return sb.data != NULL ? strbuf_detach(&sb) : xstrdup("");
}

static void
has(const char *s, const char *want)
{
	if (strstr(s, want) == NULL)
		fail_msg("missing '%s' in\n%s", want, s);
}

static void
lacks(const char *s, const char *bad)
{
	if (strstr(s, bad) != NULL)
		fail_msg("unexpected '%s' in\n%s", bad, s);
}

/* How often want occurs in s. */
static int
count(const char *s, const char *want)
{
	int n = 0;

	for (s = strstr(s, want); s != NULL; s = strstr(s + 1, want))
		n++;
	return n;
}

/* 1: no nodes, no picture. */
static void
test_empty(void **state)
{
	char *s = svg(NULL, 0);

	(void)state;
	assert_string_equal(s, "");
	free(s);
}

/* 2: a parent centred on its two children, a column per depth, the
 * elbow lines between, and the size in the viewBox. */
static void
test_layout(void **state)
{
	const struct diagram_node n[] = {
		{ "A", "system", "system", NULL, 0, NULL },
		{ "B", "m1", "component", NULL, 1, NULL },
		{ "C", NULL, "component", NULL, 1, NULL },
	};
	char *s = svg(n, 3);

	(void)state;
	/* Two lines make a box 42 tall, one line 26; A is centred on the
	 * middles of B (23) and C (67). */
	has(s, "viewBox=\"0 0 424 82\" width=\"424\" height=\"82\"");
	has(s, "<rect x=\"2\" y=\"24\" width=\"196\" height=\"42\"");
	has(s, "<rect x=\"226\" y=\"2\" width=\"196\" height=\"42\"");
	has(s, "<rect x=\"226\" y=\"54\" width=\"196\" height=\"26\"");
	has(s, "<path d=\"M198 45H212V23H226\"/>");
	has(s, "<path d=\"M198 45H212V67H226\"/>");
	has(s, "class=\"diagram-node diagram-system\" aria-hidden=\"true\"");
	has(s, "role=\"img\" aria-labelledby=\"t-title\"");
	has(s, "<title id=\"t-title\">A title</title>");
	/* Fill and the small size once, on the <svg>, inherited; a text
	 * of one line has its place itself, no <tspan>. */
	has(s, "font-family=\"system-ui, sans-serif\" font-size=\"12\" "
	    "fill=\"currentColor\">");
	has(s, "<text class=\"diagram-detail\" x=\"234\" y=\"36\">m1</text>");
	has(s, "<text class=\"diagram-label\" x=\"10\" y=\"42\" "
	    "font-size=\"13\" font-weight=\"600\">A</text>");
	assert_int_equal(count(s, "fill=\"currentColor\""), 1);
	assert_int_equal(count(s, "font-size=\"12\""), 1);
	lacks(s, "<tspan");
	lacks(s, "<a ");
	/* The same input gives the same bytes. */
	for (int i = 0; i < 3; i++) {
		char *again = svg(n, 3);

		assert_string_equal(s, again);
		free(again);
	}
	free(s);
}

/* 3: depths that jump count one level down; a later depth 0 is a new
 * root below the first tree; a kind that is not [a-z0-9-] is no class. */
static void
test_depths(void **state)
{
	const struct diagram_node n[] = {
		{ "A", NULL, "x y", NULL, 5, NULL },
		{ "B", NULL, "component", NULL, 3, NULL },
		{ "C", NULL, "system", NULL, 0, NULL },
	};
	char *s = svg(n, 3);

	(void)state;
	has(s, "viewBox=\"0 0 424 66\"");
	has(s, "<rect x=\"2\" y=\"2\"");       /* A, over its one child */
	has(s, "<rect x=\"226\" y=\"2\"");     /* B, one level down */
	has(s, "<rect x=\"2\" y=\"38\"");      /* C, a second root */
	has(s, "class=\"diagram-node\" aria-hidden");
	lacks(s, "x y");
	free(s);
}

/* 4: hostile text is escaped, cleaned, folded and cut; the tooltip is
 * capped too. Nothing can open an element or leave an attribute. */
static void
test_hostile(void **state)
{
	char big[2000];
	const struct diagram_node n[] = {
		{ "<script>alert(\"x\")</script> & 'q'", "a\x01" "b\n\tc\xe2\x80\xae" "d",
		    "component", NULL, 0, NULL },
		{ big, big, "component", "x\"><script>", 1, NULL },
		{ "\xff\xfe bad", "", "component", NULL, 1, NULL },
	};
	char *s;

	(void)state;
	memset(big, 'W', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	s = svg(n, 3);
	lacks(s, "<script");
	lacks(s, "x\">");
	has(s, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; "
	    "&#39;q&#39;");
	/* Wrapped after the "/" that fits, never cut. */
	has(s, ">&lt;script&gt;alert(&quot;x&quot;)&lt;/</tspan><tspan "
	    "x=\"10\" y=\"182\">script&gt; &amp; &#39;q&#39;</tspan></text>");
	has(s, ">ab cd</text>");
	has(s, "<a href=\"x&quot;&gt;&lt;script&gt;\">");
	/* 2,000 bytes of W: a label of 6 lines, a detail of 6 and a
	 * dispute line, the last of each text cut with "…"; a box as tall. */
	assert_int_equal(count(s, "\xe2\x80\xa6</tspan>"), 2);
	has(s, "height=\"218\"");
	has(s, "bytes more)");
	assert_true(strlen(s) < 6000);
	has(s, ">\xef\xbf\xbd\xef\xbf\xbd bad</text>");
	free(s);
}

/* 5: a node with an href is a link named by its title, marked and
 * classed; the picture is then a group (an img hides its links). */
static void
test_links(void **state)
{
	const struct diagram_node n[] = {
		{ "Mount", "subsystem", "subsystem", NULL, 0, NULL },
		{ "Pad", "PEEK", "component", "../../conflicts/c1.html", 1,
		    "material" },
	};
	char *s = svg(n, 2);

	(void)state;
	has(s, "role=\"group\"");
	has(s, "<a href=\"../../conflicts/c1.html\"><title>Pad (PEEK), "
	    "\xe2\x9a\xa0 disputed: material; see its conflict</title><g "
	    "class=\"diagram-node diagram-component diagram-disputed\">");
	/* The label stays itself; a last line says what is disputed. */
	has(s, ">Pad</text>");
	has(s, "<text class=\"diagram-dispute\" x=\"234\" y=\"52\" "
	    "font-weight=\"600\">\xe2\x9a\xa0 disputed: material</text>");
	has(s, "height=\"58\"");
	has(s, "stroke-width=\"2.5\"");
	free(s);
}

/* 6: many nodes: linear, and every leaf on its own row (one line, a
 * box 26 tall). */
static void
test_many(void **state)
{
	enum { N = 5001 };
	struct diagram_node *n = xcalloc(N, sizeof(*n));
	char want[64];
	char *s;

	(void)state;
	for (size_t k = 0; k < N; k++)
		n[k] = (struct diagram_node){ "n", NULL, "component", NULL,
		    k > 0, NULL };
	s = svg(n, N);
	snprintf(want, sizeof(want), "viewBox=\"0 0 424 %d\"",
	    4 + (N - 1) * 36 - 10);
	has(s, want);
	free(s);
	free(n);
}

/* 7: a label and a detail wider than the box wrap at spaces onto
 * lines of their own, whole: no ellipsis, the box as tall as the five
 * lines (greedy: each line takes the words that fit); a word wider than
 * a line breaks inside. Same bytes again. */
static void
test_wrap(void **state)
{
	const struct diagram_node n[] = {
		{ "Polycarbonate enclosure panel with foam", "Polycarbonate "
		    "with PE foam lining", "component", NULL, 0, NULL },
		{ "Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", NULL, "component",
		    NULL, 0, NULL },
	};
	char *s = svg(n, 2), *again = svg(n, 2);

	(void)state;
	assert_string_equal(s, again);
	lacks(s, "\xe2\x80\xa6");
	has(s, "<tspan x=\"10\" y=\"20\">Polycarbonate</tspan><tspan "
	    "x=\"10\" y=\"36\">enclosure panel with</tspan><tspan x=\"10\" "
	    "y=\"52\">foam</tspan></text>");
	has(s, "<tspan x=\"10\" y=\"68\">Polycarbonate with PE</tspan>"
	    "<tspan x=\"10\" y=\"84\">foam lining</tspan></text>");
	has(s, "<rect x=\"2\" y=\"2\" width=\"196\" height=\"90\"");
	/* 36 letters of one word: two lines, split inside it. */
	has(s, ">Aaaaaaaaaaaaaaaaaaa</tspan><tspan x=\"10\" y=\"136\">"
	    "aaaaaaaaaaaaaaaaa</tspan>");
	has(s, "<rect x=\"2\" y=\"102\" width=\"196\" height=\"42\"");
	assert_int_equal(count(s, "<tspan"), 7);
	lacks(s, "clip-path");
	free(again);
	free(s);
}

/* 8: a disputed node without words says "⚠ disputed"; a tall parent
 * (a label of three lines) over one short child starts where its child
 * does and moves it down to its middle: no overlap with the next. */
static void
test_tall_parent(void **state)
{
	const struct diagram_node n[] = {
		{ "One two three four five six seven eight nine ten eleven",
		    NULL, "subsystem", "c.html", 0, "" },
		{ "x", NULL, "component", NULL, 1, NULL },
		{ "y", NULL, "subsystem", NULL, 0, NULL },
	};
	char *s = svg(n, 3);

	(void)state;
	has(s, ">\xe2\x9a\xa0 disputed</text>");
	has(s, "\xe2\x9a\xa0 disputed; see its conflict</title>");
	/* Parent: 4 lines, 74 tall at 0; child (26) centred on it at 24;
	 * the next root below the parent, at 84. */
	has(s, "<rect x=\"2\" y=\"2\" width=\"196\" height=\"74\"");
	has(s, "<rect x=\"226\" y=\"26\" width=\"196\" height=\"26\"");
	has(s, "<rect x=\"2\" y=\"86\" width=\"196\" height=\"26\"");
	has(s, "viewBox=\"0 0 424 114\"");
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_depths),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_tall_parent),
	};

	return cmocka_run_group_tests_name("diagram", tests, NULL, NULL);
}
