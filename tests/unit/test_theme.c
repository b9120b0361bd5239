/*
 * test_theme.c: the shipped themes render valid-looking HTML5 pages
 * with no JavaScript; bad themes are refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "output/output.h"
#include "render/theme.h"
#include "util/xalloc.h"

static const char *
top(void)
{
	const char *t = getenv("MIRROR_TOP");

	return t != NULL ? t : ".";
}

static json_t *
page(void)
{
	return json_pack("{s:s,s:s,s:s,s:s,s:b,s:b,s:b,s:b,s:b,s:b,s:s,s:s,"
	    "s:[{s:s,s:s,s:b},{s:s,s:s,s:b}],s:s}", "title", "Conflict <c-1>",
	    "site_title", "Mirror & Co",
	    "head_title", "Conflict <c-1> \xc2\xb7 Mirror & Co",
	    "description", "Is the \"pad\" <PEEK>?", "standalone", 0,
	    "search", 0, "queue", 0, "sortable", 0, "changes", 0, "toc", 0,
	    "root", "../", "markdown", "c-1.md", "nav", "href", "index.html",
	    "label", "Home", "current", 0, "href", "conflicts/index.html",
	    "label", "Conflicts", "current", 1, "footer",
	    "Store snapshot 0123456789abcdef");
}

static char *
render(const char *name, const char *body)
{
	char dir[4096];
	mirror_error err;
	theme *th;
	json_t *p = page();
	strbuf sb;
	char *r;

	snprintf(dir, sizeof(dir), "%s/themes/%s", top(), name);
	if (theme_open(&th, dir, &err) < 0)
		fail_msg("%s", err.msg);
	assert_string_equal(theme_name(th), dir);
	strbuf_init(&sb);
	if (theme_render(&sb, th, p, body, &err) < 0)
		fail_msg("%s", err.msg);
	r = xstrdup(sb.data);
	strbuf_free(&sb);
	json_decref(p);
	theme_free(th);
	return r;
}

static void
assert_html5(const char *h)
{
	assert_int_equal(strncmp(h, "<!DOCTYPE html>\n<html lang=\"en\">", 31),
	    0);
	assert_non_null(strstr(h, "<meta charset=\"utf-8\">"));
	assert_non_null(strstr(h, "<meta name=\"viewport\" content=\"width="
	    "device-width, initial-scale=1\">"));
	assert_non_null(strstr(h, "<title>Conflict &lt;c-1&gt; \xc2\xb7 "
	    "Mirror &amp; Co</title>"));
	assert_non_null(strstr(h, "<meta name=\"description\" content=\"Is "
	    "the &quot;pad&quot; &lt;PEEK&gt;?\">"));
	assert_non_null(strstr(h, "Mirror &amp; Co"));
	assert_non_null(strstr(h, "\n<p>body</p>\n"));
	assert_non_null(strstr(h, "href=\"../conflicts/index.html\""));
	assert_non_null(strstr(h, "href=\"c-1.md\""));
	assert_non_null(strstr(h, "Store snapshot 0123456789abcdef"));
	/* No script but the default theme's "/" key (assets/keys.js). */
	for (const char *s = strstr(h, "<script"); s != NULL;
	    s = strstr(s + 1, "<script"))
		assert_int_equal(strncmp(s, "<script src=\"../assets/keys.js\" "
		    "defer></script>\n", 48), 0);
	assert_null(strstr(h, "{{"));
	assert_null(strstr(h, "\n\n"));   /* standalone tags left no gaps */
	assert_int_equal(strcmp(h + strlen(h) - 8, "</html>\n"), 0);
}

/* 1: the default theme: layout keys, stylesheet, aria-current. */
static void
test_default(void **state)
{
	char *h = render("default", "<p>body</p>");

	(void)state;
	assert_html5(h);
	assert_non_null(strstr(h, "<link rel=\"stylesheet\" href=\"../assets/"
	    "style.css\">"));
	assert_non_null(strstr(h, "aria-current=\"page\">Conflicts</a>"));
	assert_null(strstr(h, "aria-current=\"page\">Home"));
	free(h);
}

/* 2: the plain theme: no stylesheet, no style at all. */
static void
test_plain(void **state)
{
	char *h = render("plain", "<p>body</p>");

	(void)state;
	assert_html5(h);
	assert_null(strstr(h, "stylesheet"));
	assert_null(strstr(h, "style"));
	free(h);
}

static char *
slurp(const char *path)
{
	strbuf sb;
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "rb");

	assert_non_null(f);
	strbuf_init(&sb);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	{
		char *r = strbuf_detach(&sb);

		strbuf_free(&sb);
		return r;
	}
}

/* 3: the stylesheet covers phone, print, dark mode, markers, :target;
 * no theme file holds JavaScript. */
static void
test_css(void **state)
{
	static const char *const need[] = {
		"@media (prefers-color-scheme: dark)", "@media print",
		"@media (max-width:", "a.disputed", ":target", "overflow-x: auto",
		"overflow-wrap: anywhere",
	};
	char path[4096], *css;

	(void)state;
	snprintf(path, sizeof(path), "%s/themes/default/assets/style.css",
	    top());
	css = slurp(path);
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (strstr(css, need[i]) == NULL)
			fail_msg("style.css lacks %s", need[i]);
	assert_null(strstr(css, "javascript"));
	assert_null(strstr(css, "expression("));
	assert_null(strstr(css, "@import"));
	free(css);
}

/* 4: assets are written as assets/FILE through the output. */
static void
test_assets(void **state)
{
	char dir[4096], tmp[] = "/tmp/mirror-theme.XXXXXX", out[64], cmd[8400];
	const char *const *paths;
	mirror_error err;
	struct output *o;
	theme *th;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(tmp));
	snprintf(out, sizeof(out), "%s/site", tmp);
	snprintf(dir, sizeof(dir), "%s/themes/default", top());
	assert_int_equal(theme_open(&th, dir, &err), 0);
	assert_int_equal(output_begin(&o, out, &err), 0);
	assert_int_equal(theme_write_assets(th, o, NULL, &err), 0);
	paths = output_paths(o, &n);
	assert_int_equal(n, 6);
	assert_string_equal(paths[0], "assets/changes.js");
	assert_string_equal(paths[1], "assets/keys.js");
	assert_string_equal(paths[2], "assets/queue.js");
	assert_string_equal(paths[3], "assets/search.js");
	assert_string_equal(paths[4], "assets/sort.js");
	assert_string_equal(paths[5], "assets/style.css");
	assert_int_equal(output_commit(o, &err), 0);
	output_free(o);
	theme_free(th);
	snprintf(cmd, sizeof(cmd), "cmp -s '%s/assets/style.css' '%s/"
	    "assets/style.css'", out, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* 5: unknown, badly named and broken themes are refused (exit 2). */
static void
test_refused(void **state)
{
	char tmp[] = "/tmp/mirror-theme.XXXXXX", p[128];
	mirror_error err;
	strbuf sb;
	theme *th;
	json_t *pg;

	(void)state;
	assert_int_equal(theme_open(&th, "no-such-theme", &err),
	    -MIRROR_EINPUT);
	assert_null(th);
	assert_non_null(strstr(err.msg, "unknown theme 'no-such-theme'"));
	assert_int_equal(theme_open(&th, "Bad Name", &err), -MIRROR_EINPUT);
	assert_int_equal(theme_open(&th, "", &err), -MIRROR_EINPUT);
	assert_int_equal(theme_open(&th, "../../etc", &err), -MIRROR_EINPUT);

	assert_non_null(mkdtemp(tmp));
	/* No layout. */
	assert_int_equal(theme_open(&th, tmp, &err), -MIRROR_EINPUT);
	/* A layout without the content slot. */
	snprintf(p, sizeof(p), "%s/layout.html", tmp);
	write_file(p, "<!DOCTYPE html>\n<title>{{title}}</title>\n");
	assert_int_equal(theme_open(&th, tmp, &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "no {{{content}}} slot"));
	/* A layout naming a key the page lacks: error at render. */
	write_file(p, "<title>{{title}}</title>\n{{{content}}}\n{{colour}}\n");
	assert_int_equal(theme_open(&th, tmp, &err), 0);
	strbuf_init(&sb);
	pg = page();
	assert_int_equal(theme_render(&sb, th, pg, "", &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "layout.html:3: unknown placeholder "
	    "'colour'"));
	json_decref(pg);
	strbuf_free(&sb);
	theme_free(th);
	/* An asset with a bad name. */
	write_file(p, "{{{content}}}\n");
	snprintf(p, sizeof(p), "%s/assets", tmp);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/assets/bad name.css", tmp);
	write_file(p, "x");
	assert_int_equal(theme_open(&th, tmp, &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "not a usable theme asset"));
	snprintf(p, sizeof(p), "rm -rf '%s'", tmp);
	assert_int_equal(system(p), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_css),
		cmocka_unit_test(test_assets),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests_name("theme", tests, NULL, NULL);
}
