/*
 * test_page_later.c: gen/site/page.h, page_later: pages queued to a
 * thread of their own are written as page_write writes them, all of
 * them, more than the queue holds, and so are pages written in place; a
 * failure of one stops the rest and is returned, naming the page, by
 * the next put or by the finish (in place: by its put). A page queued
 * as HTML only (struct page_doc) is its .html alone, which links no
 * Markdown, and a build that finds it unchanged keeps it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <jansson.h>

#include "output/output.h"
#include "output/record.h"
#include "render/template.h"
#include "render/theme.h"
#include "site/page.h"

#include "scratch.h"

#define SITE "site"
#define N_PAGES (3 * PAGE_LATER_DEPTH + 1)

static tmpl_set *ts;
static theme *th;

static int
setup(void **state)
{
	const char *top = getenv("MIRROR_TOP");
	char dir[4096];
	mirror_error err;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/themes/plain", top != NULL ? top : ".");
	if (theme_open(&th, dir, &err) < 0 || scratch_enter("plater") != 0)
		return -1;
	mkdir("tpl", 0755);
	scratch_write("tpl/p.md", "# Page {{v}}\n\nvalue {{v}}\n", 25);
	return tmpl_set_open(&ts, NULL, "tpl", &err) == 0 ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	tmpl_set_free(ts);
	theme_free(th);
	return scratch_leave();
}

/* Pages p/0 .. p/n-1 queued into a new build of SITE (page dup written
 * twice when dup >= 0; the odd pages HTML only when html_odd), on a
 * thread of their own when own: the puts' and the finish's results into
 * rc_put (the first failure) and rc_end, and the first failure's
 * message into msg. */
static void
build_pages(long dup, int own, int html_odd, int *rc_put, int *rc_end,
    char msg[256])
{
	struct page_record *rec = record_load(SITE, 0);
	struct site_model m;
	struct site_writer w;
	struct page_ctx pc = { &m, &w, NULL };
	struct page_later *pl;
	struct output *o;
	mirror_error err, end;

	memset(&m, 0, sizeof(m));
	m.title = "Later";
	memcpy(m.snapshot, "0123456789abcdef", sizeof(m.snapshot));
	assert_int_equal(output_begin(&o, SITE, &err), 0);
	writer_init(&w, ts, th, o, NULL);
	record_set_key(rec, "0123456789abcdef");
	w.record = rec;
	/* A thread of its own needs two jobs, whatever this machine has. */
	assert_int_equal(setenv("MIRROR_JOBS", "2", 1), 0);
	pl = page_later_start(&pc, own);
	unsetenv("MIRROR_JOBS");
	*rc_put = 0;
	msg[0] = '\0';
	for (long i = 0; i < N_PAGES; i++) {
		char path[32];
		int rc;

		snprintf(path, sizeof(path), "p/%ld", i == dup + 1 && dup >= 0 ?
		    dup : i);
		rc = page_later_put(pl, &(struct page_doc){ .path = path,
		    .tname = "p.md", .title = "P", .data = json_pack("{s:I}",
		    "v", (json_int_t)i), .html_only = html_odd && i % 2 == 1 },
		    &err);
		if (rc < 0 && *rc_put == 0) {
			*rc_put = rc;
			snprintf(msg, 256, "%.200s", err.msg);
		}
	}
	*rc_end = page_later_finish(pl, &end);
	if (*rc_end < 0 && msg[0] == '\0')
		snprintf(msg, 256, "%.200s", end.msg);
	if (*rc_end == 0 && *rc_put == 0) {
		assert_int_equal(record_write(rec, o, &err), 0);
		assert_int_equal(output_commit(o, &err), 0);
	}
	output_free(o);
	writer_free(&w);
	record_free(rec);
}

/* build_pages with every page both twins. */
static void
build(long dup, int own, int *rc_put, int *rc_end, char msg[256])
{
	build_pages(dup, own, 0, rc_put, rc_end, msg);
}

/* Every page queued is written, more than the queue holds at once, on
 * the queue's thread or in place. */
static void
all_written(int own)
{
	int rc_put, rc_end;
	char msg[256];

	build(-1, own, &rc_put, &rc_end, msg);
	assert_int_equal(rc_put, 0);
	assert_int_equal(rc_end, 0);
	for (int i = 0; i < N_PAGES; i++) {
		char rel[32], want[64], *md, *html;

		snprintf(rel, sizeof(rel), "p/%d.md", i);
		md = scratch_read(SITE, rel);
		assert_non_null(md);
		snprintf(want, sizeof(want), "# Page %d\n\nvalue %d\n", i, i);
		assert_non_null(strstr(md, want));
		snprintf(rel, sizeof(rel), "p/%d.html", i);
		html = scratch_read(SITE, rel);
		assert_non_null(html);
		snprintf(want, sizeof(want), "<h1>Page %d</h1>", i);
		assert_non_null(strstr(html, want));
		free(md);
		free(html);
	}
}

static void
test_all_written(void **state)
{
	(void)state;
	all_written(1);
}

static void
test_all_written_in_place(void **state)
{
	(void)state;
	all_written(0);
}

/* The odd pages HTML only, on the queue's thread: each its .html alone,
 * with no Markdown link, the even ones both twins; built again, all
 * stay (an HTML-only page is kept as its one file). */
static void
test_html_only(void **state)
{
	int rc_put, rc_end;
	char msg[256];

	(void)state;
	for (int round = 0; round < 2; round++) {
		build_pages(-1, 1, 1, &rc_put, &rc_end, msg);
		assert_int_equal(rc_put, 0);
		assert_int_equal(rc_end, 0);
		for (int i = 0; i < N_PAGES; i++) {
			char rel[32], *md, *html;

			snprintf(rel, sizeof(rel), "p/%d.md", i);
			md = scratch_read(SITE, rel);
			snprintf(rel, sizeof(rel), "p/%d.html", i);
			html = scratch_read(SITE, rel);
			assert_non_null(html);
			assert_true((md == NULL) == (i % 2 == 1));
			assert_true((strstr(html, ">Markdown</a>") == NULL) ==
			    (i % 2 == 1));
			free(md);
			free(html);
		}
	}
}

/* A page written twice fails on the queue's thread: the failure comes
 * back, naming the page, and the finish returns it. */
static void
test_failure_returned(void **state)
{
	int rc_put, rc_end;
	char msg[256];

	(void)state;
	build(2, 1, &rc_put, &rc_end, msg);
	assert_true(rc_end < 0);
	assert_true(rc_put == 0 || rc_put == rc_end);
	assert_non_null(strstr(msg, "p/2"));
}

/* In place, the put of the page written twice returns the failure. */
static void
test_failure_in_place(void **state)
{
	int rc_put, rc_end;
	char msg[256];

	(void)state;
	build(2, 0, &rc_put, &rc_end, msg);
	assert_true(rc_put < 0);
	assert_non_null(strstr(msg, "p/2"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_written),
		cmocka_unit_test(test_all_written_in_place),
		cmocka_unit_test(test_html_only),
		cmocka_unit_test(test_failure_returned),
		cmocka_unit_test(test_failure_in_place),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
