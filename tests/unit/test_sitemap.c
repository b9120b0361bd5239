/*
 * test_sitemap.c: sitemap.xml (gen/site/site_index.h, site_index_sitemap_write)
 * lists every HTML page but 404.html in path order while they fit in one
 * file; past the limit (the protocol's 50,000 URLs, 3 here) it is a
 * sitemap index of parts sitemap-K.xml, 2^b of them for the fewest b
 * that keep each within the limits, a page in the part its path's hash
 * gives, in path order within it, an empty part left out. Checked byte
 * for byte in one file; past it, every page listed once, each part
 * within the limits (of URLs, and of bytes: 512 KiB in a build), with
 * and without a base URL; a page added changes one part; a rebuild with
 * fewer pages leaves no part behind.
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

SCRATCH_FIXTURES(setup, teardown, "sitemap")

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

/* The parts sitemap.xml names, as an index, into name[0..*n) (at most
 * max; "" past them). Returns 1 when sitemap.xml is an index. */
static int
index_parts(char name[][32], size_t *n, size_t max, const char *base)
{
	char *text = scratch_read(SITE, "sitemap.xml"), *at, *end;
	size_t skip = base != NULL ? strlen(base) : 0;

	assert_non_null(text);
	*n = 0;
	if (strncmp(text, INDEX, strlen(INDEX)) != 0) {
		free(text);
		return 0;
	}
	for (at = text; (at = strstr(at, "<loc>")) != NULL; at = end) {
		at += strlen("<loc>");
		if (base != NULL)
			assert_memory_equal(at, base, skip);
		at += skip;
		end = strstr(at, "</loc>");
		assert_non_null(end);
		assert_true(*n < max && (size_t)(end - at) < 32);
		memcpy(name[*n], at, (size_t)(end - at));
		name[(*n)++][end - at] = '\0';
	}
	free(text);
	return 1;
}

/*
 * Check the parts of a build of n pages (base its base URL or NULL)
 * under the limits urls and bytes: each a urlset in path order, none
 * empty, none past the limits (one page's line alone may pass the
 * bytes), every page p0 ... p<n-1> in exactly one. Their texts, in
 * the index's order, into text[0..*parts) (the caller frees them).
 */
static void
check_parts(char **text, size_t *parts, size_t n, size_t urls,
    size_t bytes, const char *base)
{
	char name[64][32];
	int *seen = calloc(n + 1, sizeof(*seen));

	assert_non_null(seen);
	assert_int_equal(index_parts(name, parts, 64, base), 1);
	assert_true(*parts >= 2);
	for (size_t k = 0; k < *parts; k++) {
		char *at, *end;
		size_t count = 0;
		long last = -1;

		text[k] = scratch_read(SITE, name[k]);
		assert_non_null(text[k]);
		assert_memory_equal(text[k], URLSET, strlen(URLSET));
		for (at = text[k]; (at = strstr(at, "<loc>")) != NULL;
		    at = end) {
			char *p;
			long i;

			at += strlen("<loc>") + (base != NULL ?
			    strlen(base) : 0);
			end = strstr(at, "</loc>");
			assert_non_null(end);
			assert_int_equal(*at, 'p');
			i = strtol(at + 1, &p, 10);
			assert_memory_equal(p, ".html</loc>", 11);
			assert_true(i >= 0 && (size_t)i < n);
			/* path order: p10 before p2 */
			if (last >= 0) {
				char a[32], b[32];

				snprintf(a, sizeof(a), "p%ld.html", last);
				snprintf(b, sizeof(b), "p%ld.html", i);
				assert_true(strcmp(a, b) < 0);
			}
			last = i;
			assert_int_equal(seen[i], 0);
			seen[i] = 1;
			count++;
		}
		assert_true(count >= 1 && count <= urls);
		assert_true(count == 1 || strlen(text[k]) <= bytes);
	}
	for (size_t i = 0; i < n; i++)
		assert_int_equal(seen[i], 1);
	free(seen);
}

static void
free_texts(char **text, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(text[k]);
}

/* 2: one past the limit, an index of parts; with a base URL, absolute
 * URLs in the index and the parts. */
static void
test_index(void **state)
{
	char *text[64];
	size_t parts;

	(void)state;
	build(4, 3, NULL);
	check_parts(text, &parts, 4, 3, SIZE_MAX, NULL);
	free_texts(text, parts);
	build(4, 3, "https://example.org/m/");
	check_parts(text, &parts, 4, 3, SIZE_MAX, "https://example.org/m/");
	free_texts(text, parts);
}

/* 3: many parts; the next build with fewer pages writes one urlset and
 * removes every part. */
static void
test_full_parts(void **state)
{
	char *text[64], name[32];
	size_t parts;

	(void)state;
	build(60, 8, NULL);
	check_parts(text, &parts, 60, 8, SIZE_MAX, NULL);
	free_texts(text, parts);
	build(2, 3, NULL);
	expect_file("sitemap.xml", URLSET URL("p0.html") URL("p1.html")
	    "</urlset>\n");
	for (size_t k = 1; k <= 64; k++) {
		snprintf(name, sizeof(name), "sitemap-%zu.xml", k);
		assert_null(scratch_read(SITE, name));
	}
}

/* 4: a part ends before its bytes would pass the limit, whatever its
 * count of pages; a page whose line alone passes it still gets a part
 * of its own. */
static void
test_bytes(void **state)
{
	const size_t two = strlen(URLSET URL("p0.html") URL("p1.html")
	    "</urlset>\n");
	char *text[64];
	size_t parts;

	(void)state;
	build_bytes(5, 50000, two, NULL);
	check_parts(text, &parts, 5, 50000, two, NULL);
	free_texts(text, parts);
	build_bytes(40, 50000, two, NULL);
	check_parts(text, &parts, 40, 50000, two, NULL);
	free_texts(text, parts);
	build_bytes(2, 50000, 1, NULL);
	check_parts(text, &parts, 2, 50000, 1, NULL);
	assert_int_equal(parts, 2);
	free_texts(text, parts);
}

/* 5: a page added changes one part, the others byte for byte as they
 * were, while the count of parts stays; it is no longer the next
 * pages that fit, which moved every later part's first page. */
static void
test_one_more_one_part(void **state)
{
	char *before[64], *after[64];
	size_t nb, na, changed = 0;

	(void)state;
	build(100, 40, NULL);
	check_parts(before, &nb, 100, 40, SIZE_MAX, NULL);
	build(101, 40, NULL);
	check_parts(after, &na, 101, 40, SIZE_MAX, NULL);
	assert_int_equal(na, nb);
	for (size_t k = 0; k < na; k++)
		changed += strcmp(before[k], after[k]) != 0;
	assert_int_equal(changed, 1);
	free_texts(before, nb);
	free_texts(after, na);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_file),
		cmocka_unit_test(test_index),
		cmocka_unit_test(test_full_parts),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_one_more_one_part),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
