/*
 * test_serve_path.c: what a request path names for the preview server
 * (gen/serve/serve_path.c), decided before any file is opened: escapes
 * decoded once, dot segments, escaped slashes and NULs, control and
 * non-ASCII bytes refused (400), overlong paths 414, names no site file
 * can have 404; the Content-Type by extension; the reload script placed
 * before the last </body>.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "serve/serve_path.h"
#include "util/strbuf.h"

/* serve_path(url) is 0 and names want. */
static void
names(const char *url, const char *want)
{
	char *got = NULL;

	assert_int_equal(serve_path(&got, url), 0);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

/* serve_path(url) refuses with status, and names nothing. */
static void
refused(const char *url, int status)
{
	static char dummy;
	char *got = &dummy;

	assert_int_equal(serve_path(&got, url), status);
	assert_null(got);
}

static void
test_names(void **state)
{
	(void)state;
	names("/", "index.html");
	names("/index.html", "index.html");
	names("/projects/p05/", "projects/p05/index.html");
	names("/projects/p05", "projects/p05");
	names("/api/health.json", "api/health.json");
	names("/a%20b.html", "a b.html");
	names("/caf%C3%A9.md", "caf\xc3\xa9.md");
	names("/%7e.html", "~.html");
	names("/a..b/c...", "a..b/c...");
	names("/.well-known/x", ".well-known/x");
}

static void
test_traversal(void **state)
{
	(void)state;
	refused("/..", 400);
	refused("/../etc/passwd", 400);
	refused("/a/../../etc/passwd", 400);
	refused("/a/./b", 400);
	refused("/.", 400);
	refused("/%2e%2e/etc/passwd", 400);
	refused("/%2E%2E/etc/passwd", 400);
	refused("/.%2e/x", 400);
	refused("/a/%2e/b", 400);
	refused("/a/..", 400);
	refused("/a/../", 400);
}

static void
test_escapes(void **state)
{
	(void)state;
	refused("/a%2fb", 400);
	refused("/a%2Fb", 400);
	refused("/..%2fetc", 400);
	refused("/a%5cb", 400);
	refused("/a\\b", 400);
	refused("/index.html%00.md", 400);
	refused("/%0a", 400);
	refused("/%7f", 400);
	refused("/%", 400);
	refused("/%4", 400);
	refused("/%zz", 400);
	refused("/%%41", 400);
	refused("/a b", 400);
	refused("/caf\xc3\xa9", 400);
	refused("/a\tb", 400);
	refused("index.html", 400);
	refused("", 400);
	refused("*", 400);
	refused("http://evil/x", 400);
}

static void
test_limits(void **state)
{
	char url[SERVE_URL_MAX + 2];

	(void)state;
	memset(url, 'a', sizeof(url));
	url[0] = '/';
	url[SERVE_URL_MAX + 1] = '\0';
	refused(url, 414);                   /* one byte too many */
	url[SERVE_URL_MAX] = '\0';
	refused(url, 404);                   /* a component of 4095 bytes */
	memset(url, 'a', 257);
	url[0] = '/';
	url[256] = '\0';
	names(url, url + 1);                 /* a component of 255 bytes */
	url[256] = 'a';
	url[257] = '\0';
	refused(url, 404);                   /* ... and of 256 */
	refused("//etc/passwd", 404);        /* an empty component */
	refused("/a//b", 404);
	refused("/.mirror-output", 404);
	refused("/projects/.mirror-x", 404);
}

/* serve_content_type(path) is want. */
static void
typed(const char *path, const char *want)
{
	assert_string_equal(serve_content_type(path), want);
}

static void
test_types(void **state)
{
	(void)state;
	/* Every kind a site of mirror's holds, text ones in UTF-8. */
	typed("index.html", "text/html; charset=utf-8");
	typed("a/B.HTML", "text/html; charset=utf-8");
	typed("index.md", "text/markdown; charset=utf-8");
	typed("assets/style.css", "text/css; charset=utf-8");
	typed("assets/search.js", "text/javascript; charset=utf-8");
	typed("search/t-0.js", "text/javascript; charset=utf-8");
	typed("api/x.json", "application/json; charset=utf-8");
	typed("api/pages/p.tsv", "text/tab-separated-values; charset=utf-8");
	typed("sitemap.xml", "application/xml; charset=utf-8");
	typed("feed.xml", "application/xml; charset=utf-8");
	typed(".gitattributes", "text/plain; charset=utf-8");
	typed(".nojekyll", "text/plain; charset=utf-8");
	/* What a theme's assets may be. */
	typed("g.svg", "image/svg+xml; charset=utf-8");
	typed("robots.txt", "text/plain; charset=utf-8");
	typed("logo.png", "image/png");
	typed("f.woff2", "font/woff2");
	typed("x", "application/octet-stream");
	typed("a.html/x", "application/octet-stream");
	typed("x.exe", "application/octet-stream");
	assert_int_equal(serve_is_html("a/index.html"), 1);
	assert_int_equal(serve_is_html("a/index.md"), 0);
	assert_int_equal(serve_is_html("html"), 0);
}

/* serve_inject of html gives want. */
static void
injects(const char *html, const char *want)
{
	strbuf sb;

	strbuf_init(&sb);
	serve_inject(&sb, html, strlen(html), "<S>");
	assert_string_equal(sb.data, want);
	strbuf_free(&sb);
}

static void
test_inject(void **state)
{
	(void)state;
	injects("<body>x</body></html>\n", "<body>x<S></body></html>\n");
	injects("<BODY>x</BODY>", "<BODY>x<S></BODY>");
	/* The last one: a "</body>" inside the page's text comes first. */
	injects("<p>&lt;/body&gt; </body > </body>\n",
	    "<p>&lt;/body&gt; </body > <S></body>\n");
	injects("no end tag", "no end tag<S>");
	injects("", "<S>");
	injects("</bod", "</bod<S>");
	injects("</body", "<S></body");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_traversal),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_inject),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
