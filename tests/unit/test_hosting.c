/*
 * test_hosting.c: gen/output/hosting, a site's size against the static
 * hosts' limits: the walk counts files, folders and bytes, names the
 * largest file (the first by path of a tie), never follows a link, and
 * reports an unreadable folder; each host's limits refuse the first
 * size past them, in words; the report line names the hosts a site
 * fits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "scratch.h"
#include "output/hosting.h"
#include "util/strbuf.h"

SCRATCH_FIXTURES(setup, teardown, "hosting")

/* A tree of 4 files in 3 folders, a tie for the largest, a link to a
 * big file outside that counts as a link. */
static void
test_measure(void **state)
{
	struct hosting_size s;
	mirror_error err;

	(void)state;
	assert_int_equal(scratch_sh("mkdir -p site/b/c site/a outside && "
	    "printf 12345 > site/b/c/x.html && printf 54321 > site/a/y.json && "
	    "printf 1 > site/.nojekyll && printf abc > site/index.html && "
	    "head -c 100000 /dev/zero > outside/big && "
	    "ln -s ../outside/big site/link"), 0);
	assert_int_equal(hosting_measure(&s, "site", &err), 0);
	assert_int_equal(s.files, 5);           /* the link is a file */
	assert_int_equal(s.folders, 3);         /* a, b, b/c */
	assert_int_equal(s.bytes, 5 + 5 + 1 + 3 + strlen("../outside/big"));
	assert_int_equal(s.largest, strlen("../outside/big"));
	assert_string_equal(s.largest_path, "link");
	hosting_size_free(&s);
	assert_int_equal(scratch_sh("rm site/link"), 0);
	assert_int_equal(hosting_measure(&s, "site", &err), 0);
	assert_int_equal(s.largest, 5);
	assert_string_equal(s.largest_path, "a/y.json");   /* first of a tie */
	hosting_size_free(&s);
}

/* A folder that cannot be read: the error names it (root reads all). */
static void
test_unreadable(void **state)
{
	struct hosting_size s;
	mirror_error err;

	(void)state;
	assert_int_equal(hosting_measure(&s, "no-such-dir", &err),
	    -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "no-such-dir"));
	hosting_size_free(&s);
	if (geteuid() == 0)
		return;
	assert_int_equal(scratch_sh("mkdir -p u/locked && chmod 0 u/locked"),
	    0);
	assert_int_equal(hosting_measure(&s, "u", &err), -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "locked"));
	hosting_size_free(&s);
	assert_int_equal(scratch_sh("chmod 700 u/locked"), 0);
}

/* Each limit, met exactly and passed by one. */
static void
test_fits(void **state)
{
	const struct hosting_limit *gh = hosting_find("github-pages");
	const struct hosting_limit *gl = hosting_find("gitlab-pages");
	const struct hosting_limit *cf = hosting_find("cloudflare-pages-free");
	const struct hosting_limit *cp = hosting_find("cloudflare-pages");
	char p[] = "p";
	struct hosting_size s = { 1000000000, 20000, 100, 26214400, p };
	strbuf why;

	(void)state;
	assert_non_null(gh);
	assert_non_null(gl);
	assert_non_null(cf);
	assert_non_null(cp);
	assert_null(hosting_find("netlify"));
	strbuf_init(&why);
	assert_true(hosting_fits(&s, gh, &why));
	assert_true(hosting_fits(&s, gl, &why));
	assert_true(hosting_fits(&s, cf, &why));
	assert_true(hosting_fits(&s, cp, &why));
	assert_int_equal(why.len, 0);
	s.bytes++;
	assert_false(hosting_fits(&s, gh, &why));
	assert_string_equal(why.data, "1.0 GB, over its 1.0 GB");
	s.bytes = 2307000000;
	strbuf_reset(&why);
	assert_false(hosting_fits(&s, gl, &why));
	assert_string_equal(why.data, "2.3 GB, over its 1.0 GB");
	s.bytes = 1000;
	s.files = 20001;
	strbuf_reset(&why);
	assert_false(hosting_fits(&s, cf, &why));
	assert_string_equal(why.data, "20,001 files, over its 20,000");
	assert_true(hosting_fits(&s, cp, NULL));
	s.files = 199950;
	strbuf_reset(&why);
	assert_false(hosting_fits(&s, gl, &why));
	assert_string_equal(why.data,
	    "200,050 files and folders, over its 200,000");
	s.files = 10;
	s.largest = 26214401;
	strbuf_reset(&why);
	assert_false(hosting_fits(&s, cp, &why));
	assert_string_equal(why.data, "p is 26.2 MB, over its 26.2 MB a file");
	assert_true(hosting_fits(&s, gh, NULL));
	strbuf_free(&why);
}

/* The report line: sizes in words, every host the site fits. */
static void
test_report(void **state)
{
	char checks[] = "api/checks.json", a[] = "a", x[] = "x";
	struct hosting_size s = { 20200000, 2107, 45, 1200000, checks };
	strbuf out;

	(void)state;
	strbuf_init(&out);
	hosting_report(&out, &s);
	assert_string_equal(out.data, "hosting: 20.2 MB in 2,107 files and "
	    "45 folders, largest 1.2 MB (api/checks.json); fits GitHub "
	    "Pages, GitLab Pages, Cloudflare Pages (free), Cloudflare Pages "
	    "(paid)");
	s = (struct hosting_size){ 2300000000, 206689, 1, 80000000, a };
	strbuf_reset(&out);
	hosting_report(&out, &s);
	assert_string_equal(out.data, "hosting: 2.3 GB in 206,689 files and "
	    "1 folder, largest 80.0 MB (a); fits none of the hosts mirror "
	    "knows");
	s = (struct hosting_size){ 999, 1, 0, 999, x };
	strbuf_reset(&out);
	hosting_report(&out, &s);
	assert_string_equal(out.data, "hosting: 999 B in 1 file and 0 "
	    "folders, largest 999 B (x); fits GitHub Pages, GitLab Pages, "
	    "Cloudflare Pages (free), Cloudflare Pages (paid)");
	strbuf_free(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_measure),
		cmocka_unit_test(test_unreadable),
		cmocka_unit_test(test_fits),
		cmocka_unit_test(test_report),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
