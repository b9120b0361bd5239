/*
 * test_sitemap.c: sitemap.xml (gen/site/site_index.h, site_index_sitemap_write)
 * lists every HTML page but 404.html in path order while they fit in one
 * file; past the limit (the protocol's 50,000 URLs, 3 here) it is a
 * sitemap index of sitemap-1.xml, sitemap-2.xml, ..., each listing the
 * next pages, the last the rest. Checked byte for byte at the limit,
 * one past it and twice it, with and without a base URL, and a rebuild
 * with fewer pages leaves no part behind; a file also ends before its
 * bytes pass the limit of bytes (512 KiB in a build).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output/output.h"
#include "site/page.h"
#include "site/site_index.h"

#include "scratch.h"

#define SITE "site"

static int
setup(void **state)
{
	(void)state;
	return scratch_enter("sitemap");
}

static int
teardown(void **state)
{
	(void)state;
	return scratch_leave();
}

/* The file rel must hold want exactly. */
static void
expect_file(const char *rel, const char *want)
{
	char *got = scratch_read(SITE, rel);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

/*
 * One build of the site: pages p0.html ... p<n-1>.html (written in
 * reverse order, so the sitemap's order is the output's path order, not
 * the writing's), beside them 404.html, a .md and a .json that the
 * sitemap leaves out, then the sitemap of at most limit URLs a file.
 */
static void
build_bytes(size_t n, size_t limit, size_t bytes, const char *base_url)
{
	struct site_model m;
	struct site_writer w;
	struct page_ctx pc = { &m, &w, NULL };
	struct output *o;
	mirror_error err;

	memset(&m, 0, sizeof(m));
	m.base_url = base_url;
	assert_int_equal(output_begin(&o, SITE, &err), 0);
	writer_init(&w, NULL, NULL, o, NULL);
	for (size_t i = n; i-- > 0;) {
		char path[32];

		assert_true((size_t)snprintf(path, sizeof(path), "p%zu.html",
		    i) < sizeof(path));
		assert_int_equal(page_file(&pc, path, "x", 1, &err), 0);
	}
	assert_int_equal(page_file(&pc, "404.html", "x", 1, &err), 0);
	assert_int_equal(page_file(&pc, "a.md", "x", 1, &err), 0);
	assert_int_equal(page_file(&pc, "api/a.json", "x", 1, &err), 0);
	assert_int_equal(site_index_sitemap_write(&pc,
	    &(struct sitemap_limits){ limit, bytes }, &err), 0);
	assert_int_equal(output_commit(o, &err), 0);
	output_free(o);
	writer_free(&w);
}

/* build_bytes with no limit of bytes. */
static void
build(size_t n, size_t limit, const char *base_url)
{
	build_bytes(n, limit, SIZE_MAX, base_url);
}

#define HEAD "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
#define URLSET HEAD "<urlset xmlns=\"http://www.sitemaps.org/schemas/" \
    "sitemap/0.9\">\n"
#define INDEX HEAD "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/" \
    "sitemap/0.9\">\n"
#define URL(p) "  <url><loc>" p "</loc></url>\n"
#define PART(p) "  <sitemap><loc>" p "</loc></sitemap>\n"

/* 1: at the limit, one urlset in path order (p10 before p2) and no
 * parts; none, an empty urlset. */
static void
test_one_file(void **state)
{
	(void)state;
	build(3, 3, NULL);
	expect_file("sitemap.xml", URLSET URL("p0.html") URL("p1.html")
	    URL("p2.html") "</urlset>\n");
	assert_null(scratch_read(SITE, "sitemap-1.xml"));
	build(0, 3, NULL);
	expect_file("sitemap.xml", URLSET "</urlset>\n");
}

/* 2: one past the limit, an index of two parts, the second holding the
 * one page left; with a base URL, absolute URLs in both. */
static void
test_index(void **state)
{
	(void)state;
	build(4, 3, NULL);
	expect_file("sitemap.xml", INDEX PART("sitemap-1.xml")
	    PART("sitemap-2.xml") "</sitemapindex>\n");
	expect_file("sitemap-1.xml", URLSET URL("p0.html") URL("p1.html")
	    URL("p2.html") "</urlset>\n");
	expect_file("sitemap-2.xml", URLSET URL("p3.html") "</urlset>\n");
	build(4, 3, "https://example.org/m/");
	expect_file("sitemap.xml", INDEX
	    PART("https://example.org/m/sitemap-1.xml")
	    PART("https://example.org/m/sitemap-2.xml") "</sitemapindex>\n");
	expect_file("sitemap-2.xml", URLSET
	    URL("https://example.org/m/p3.html") "</urlset>\n");
}

/* 3: twice the limit, two full parts and no third; the next build with
 * fewer pages writes one urlset and removes the parts. */
static void
test_full_parts(void **state)
{
	(void)state;
	build(6, 3, NULL);
	expect_file("sitemap.xml", INDEX PART("sitemap-1.xml")
	    PART("sitemap-2.xml") "</sitemapindex>\n");
	expect_file("sitemap-2.xml", URLSET URL("p3.html") URL("p4.html")
	    URL("p5.html") "</urlset>\n");
	assert_null(scratch_read(SITE, "sitemap-3.xml"));
	build(2, 3, NULL);
	expect_file("sitemap.xml", URLSET URL("p0.html") URL("p1.html")
	    "</urlset>\n");
	assert_null(scratch_read(SITE, "sitemap-1.xml"));
	assert_null(scratch_read(SITE, "sitemap-2.xml"));
}

/* 4: a file ends before its bytes would pass the limit, whatever its
 * count of pages: here two pages' lines a file; a page whose line alone
 * passes it still gets a file of its own. */
static void
test_bytes(void **state)
{
	const size_t two = strlen(URLSET URL("p0.html") URL("p1.html")
	    "</urlset>\n");

	(void)state;
	build_bytes(5, 50000, two, NULL);
	expect_file("sitemap.xml", INDEX PART("sitemap-1.xml")
	    PART("sitemap-2.xml") PART("sitemap-3.xml") "</sitemapindex>\n");
	expect_file("sitemap-1.xml", URLSET URL("p0.html") URL("p1.html")
	    "</urlset>\n");
	expect_file("sitemap-2.xml", URLSET URL("p2.html") URL("p3.html")
	    "</urlset>\n");
	expect_file("sitemap-3.xml", URLSET URL("p4.html") "</urlset>\n");
	build_bytes(3, 50000, two, NULL);
	expect_file("sitemap-2.xml", URLSET URL("p2.html") "</urlset>\n");
	assert_null(scratch_read(SITE, "sitemap-3.xml"));
	build_bytes(2, 50000, 1, NULL);
	expect_file("sitemap-1.xml", URLSET URL("p0.html") "</urlset>\n");
	expect_file("sitemap-2.xml", URLSET URL("p1.html") "</urlset>\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_file),
		cmocka_unit_test(test_index),
		cmocka_unit_test(test_full_parts),
		cmocka_unit_test(test_bytes),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
