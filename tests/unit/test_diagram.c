/*
 * test_diagram.c: the SVG tree of gen/render/diagram.c: layout, bytes
 * that never change, escaping and cutting of hostile labels, links.
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
		{ "A", "system", "system", NULL, 0 },
		{ "B", "m1", "component", NULL, 1 },
		{ "C", NULL, "component", NULL, 1 },
	};
	char *s = svg(n, 3);

	(void)state;
	has(s, "viewBox=\"0 0 424 98\" width=\"424\" height=\"98\"");
	has(s, "<rect x=\"2\" y=\"28\" width=\"196\" height=\"42\"");
	has(s, "<rect x=\"226\" y=\"2\" width=\"196\"");
	has(s, "<rect x=\"226\" y=\"54\" width=\"196\"");
	has(s, "<path d=\"M198 49H212V23H226\"/>");
	has(s, "<path d=\"M198 49H212V75H226\"/>");
	has(s, "class=\"diagram-node diagram-system\" aria-hidden=\"true\"");
	has(s, "role=\"img\" aria-labelledby=\"t-title\"");
	has(s, "<title id=\"t-title\">A title</title>");
	has(s, ">m1</text>");
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
		{ "A", NULL, "x y", NULL, 5 },
		{ "B", NULL, "component", NULL, 3 },
		{ "C", NULL, "system", NULL, 0 },
	};
	char *s = svg(n, 3);

	(void)state;
	has(s, "viewBox=\"0 0 424 98\"");
	has(s, "<rect x=\"2\" y=\"2\"");       /* A, over its one child */
	has(s, "<rect x=\"226\" y=\"2\"");     /* B, one level down */
	has(s, "<rect x=\"2\" y=\"54\"");      /* C, a second root */
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
		    "component", NULL, 0 },
		{ big, big, "component", "x\"><script>", 1 },
		{ "\xff\xfe bad", "", "component", NULL, 1 },
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
	has(s, ">&lt;script&gt;alert(&quot;x&quot;)&lt;/scri\xe2\x80\xa6"
	    "</text>");
	has(s, ">ab cd</text>");
	has(s, "<a href=\"x&quot;&gt;&lt;script&gt;\">");
	/* A linked label: the marker and 22 characters and the cut; a
	 * detail 30 characters and the cut. */
	has(s, ">\xe2\x9a\xa0 WWWWWWWWWWWWWWWWWWWWWW\xe2\x80\xa6</text>");
	has(s, ">WWWWWWWWWWWWWWWWWWWWWWWWWWWWWW\xe2\x80\xa6</text>");
	has(s, "bytes more)");
	assert_true(strlen(s) < 4000);
	has(s, ">\xef\xbf\xbd\xef\xbf\xbd bad</text>");
	free(s);
}

/* 5: a node with an href is a link named by its title, marked and
 * classed; the picture is then a group (an img hides its links). */
static void
test_links(void **state)
{
	const struct diagram_node n[] = {
		{ "Mount", "subsystem", "subsystem", NULL, 0 },
		{ "Pad", "PEEK", "component", "../../conflicts/c1.html", 1 },
	};
	char *s = svg(n, 2);

	(void)state;
	has(s, "role=\"group\"");
	has(s, "<a href=\"../../conflicts/c1.html\"><title>\xe2\x9a\xa0 "
	    "disputed: Pad (PEEK); see its conflict</title><g "
	    "class=\"diagram-node diagram-component diagram-disputed\">");
	has(s, ">\xe2\x9a\xa0 Pad</text>");
	has(s, "stroke-width=\"2.5\"");
	free(s);
}

/* 6: many nodes: linear, and every leaf on its own row. */
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
		    k > 0 };
	s = svg(n, N);
	snprintf(want, sizeof(want), "viewBox=\"0 0 424 %d\"",
	    4 + (N - 1) * 52 - 10);
	has(s, want);
	free(s);
	free(n);
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
	};

	return cmocka_run_group_tests_name("diagram", tests, NULL, NULL);
}
