/*
 * test_output.c: the staged, all-or-nothing output directory.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "out/output.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static char base[64];   /* a fresh scratch dir per test */
static char site[128];  /* base/site */

static int
setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "/tmp/mirror-out.XXXXXX");
	if (mkdtemp(base) == NULL)
		return -1;
	snprintf(site, sizeof(site), "%s/site", base);
	return 0;
}

static int
teardown(void **state)
{
	char cmd[256];

	(void)state;
	snprintf(cmd, sizeof(cmd), "chmod -R u+w '%s'; rm -rf '%s'", base, base);
	return system(cmd) == 0 ? 0 : -1;
}

static char *
read_text(const char *dir, const char *rel)
{
	char path[512], buf[4096];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return xstrdup(buf);
}

/* Entries of base as one sorted line ("a b c"), to see staging dirs. */
static char *
ls_base(void)
{
	char cmd[256], buf[1024];
	size_t n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | sort | tr '\\n' ' '", base);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(buf, 1, sizeof(buf) - 1, p);
	pclose(p);
	buf[n] = '\0';
	return xstrdup(buf);
}

static void
put(struct output *o, const char *rel, const char *text)
{
	mirror_error err;

	if (output_write(o, rel, text, strlen(text), &err) < 0)
		fail_msg("%s: %s", rel, err.msg);
}

static void
build(const char *const *files, size_t n, size_t *written, size_t *reused)
{
	mirror_error err;
	struct output *o;

	assert_int_equal(output_begin(&o, site, &err), 0);
	for (size_t i = 0; i < n; i += 2)
		put(o, files[i], files[i + 1]);
	assert_int_equal(output_commit(o, &err), 0);
	*written = output_written(o);
	*reused = output_reused(o);
	output_free(o);
}

/* 1: a first build creates DIR with the files, the marker, nothing else
 * left in the parent; the paths list is sorted. */
static void
test_first_build(void **state)
{
	mirror_error err;
	struct output *o;
	const char *const *paths;
	size_t n;
	char *s;

	(void)state;
	assert_int_equal(output_begin(&o, site, &err), 0);
	put(o, "projects/p05/index.md", "# p05\n");
	put(o, "index.md", "# index\n");
	put(o, "assets/style.css", "body{}\n");
	put(o, ".nojekyll", "");
	/* Staged only: DIR does not exist yet. */
	assert_int_equal(access(site, F_OK), -1);
	assert_int_equal(output_commit(o, &err), 0);
	paths = output_paths(o, &n);
	assert_int_equal(n, 4);
	assert_string_equal(paths[0], ".nojekyll");
	assert_string_equal(paths[1], "assets/style.css");
	assert_string_equal(paths[2], "index.md");
	assert_string_equal(paths[3], "projects/p05/index.md");
	assert_int_equal(output_written(o), 4);
	assert_int_equal(output_reused(o), 0);
	assert_string_equal(output_dir(o), site);
	output_free(o);
	s = read_text(site, "projects/p05/index.md");
	assert_string_equal(s, "# p05\n");
	free(s);
	s = read_text(site, ".mirror-output");
	assert_non_null(s);
	free(s);
	s = ls_base();
	assert_string_equal(s, "site ");
	free(s);
}

/* 2: a no-op rebuild writes nothing and hard-links everything; a change
 * rewrites only what changed; files gone from the build are gone. */
static void
test_reuse(void **state)
{
	const char *v1[] = { "a.md", "A\n", "d/b.md", "B\n", "old.md", "O\n" };
	const char *v2[] = { "a.md", "A\n", "d/b.md", "B2\n" };
	struct stat st1, st2;
	size_t w, r;
	char path[256], *s;

	(void)state;
	build(v1, 6, &w, &r);
	assert_int_equal(w, 3);
	snprintf(path, sizeof(path), "%s/a.md", site);
	assert_int_equal(stat(path, &st1), 0);
	build(v1, 6, &w, &r);
	assert_int_equal(w, 0);
	assert_int_equal(r, 3);
	assert_int_equal(stat(path, &st2), 0);
	assert_int_equal(st1.st_ino, st2.st_ino);   /* the same file */
	build(v2, 4, &w, &r);
	assert_int_equal(w, 1);
	assert_int_equal(r, 1);
	s = read_text(site, "d/b.md");
	assert_string_equal(s, "B2\n");
	free(s);
	assert_null(read_text(site, "old.md"));
	s = ls_base();
	assert_string_equal(s, "site ");
	free(s);
}

/* 3: a build that is not committed leaves DIR exactly as it was. */
static void
test_abort(void **state)
{
	const char *v1[] = { "a.md", "A\n" };
	mirror_error err;
	struct output *o;
	size_t w, r;
	char *s;

	(void)state;
	build(v1, 2, &w, &r);
	assert_int_equal(output_begin(&o, site, &err), 0);
	put(o, "a.md", "changed\n");
	put(o, "new.md", "N\n");
	output_free(o);
	s = read_text(site, "a.md");
	assert_string_equal(s, "A\n");
	free(s);
	assert_null(read_text(site, "new.md"));
	s = ls_base();
	assert_string_equal(s, "site ");
	free(s);
}

/* 4: DIR that is a symlink, a file, foreign, ".", or has no parent. */
static void
test_refused(void **state)
{
	char path[256], other[256], *s;
	mirror_error err;
	struct output *o;
	FILE *f;

	(void)state;
	snprintf(other, sizeof(other), "%s/real", base);
	assert_int_equal(mkdir(other, 0755), 0);
	assert_int_equal(symlink(other, site), 0);
	assert_int_equal(output_begin(&o, site, &err), -MIRROR_EINPUT);
	assert_null(o);
	assert_non_null(strstr(err.msg, "symbolic link"));
	unlink(site);

	f = fopen(site, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(output_begin(&o, site, &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "not a directory"));
	unlink(site);

	/* A directory with content mirror did not write. */
	assert_int_equal(mkdir(site, 0755), 0);
	snprintf(path, sizeof(path), "%s/thesis.tex", site);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(output_begin(&o, site, &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "not written by mirror"));
	s = read_text(site, "thesis.tex");
	assert_non_null(s);
	free(s);

	assert_int_equal(output_begin(&o, ".", &err), -MIRROR_EINPUT);
	assert_int_equal(output_begin(&o, "/", &err), -MIRROR_EINPUT);
	snprintf(path, sizeof(path), "%s/..", base);
	assert_int_equal(output_begin(&o, path, &err), -MIRROR_EINPUT);
	snprintf(path, sizeof(path), "%s/missing/site", base);
	assert_int_equal(output_begin(&o, path, &err), -MIRROR_EINPUT);
	snprintf(path, sizeof(path), "%s/thesis.tex/site", site);
	assert_int_equal(output_begin(&o, path, &err), -MIRROR_EINPUT);
	/* Nothing was created by the refusals. */
	s = ls_base();
	assert_string_equal(s, "real site ");
	free(s);
}

/* 5: only safe relative paths are written. */
static void
test_relpath(void **state)
{
	static const char *const bad[] = {
		"", "/etc/passwd", "../x", "a/../../x", "a//b", "a/./b", "./a",
		"a/", "..", ".", ".mirror-output", "d/.mirror-x", "a/..",
	};
	char longname[300];
	mirror_error err;
	struct output *o;

	(void)state;
	assert_int_equal(output_begin(&o, site, &err), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (output_write(o, bad[i], "x", 1, &err) != -MIRROR_EINPUT)
			fail_msg("'%s' was accepted", bad[i]);
	}
	assert_int_equal(output_write(o, NULL, "x", 1, &err), -MIRROR_EINPUT);
	memset(longname, 'a', 256);
	longname[256] = '\0';
	assert_int_equal(output_write(o, longname, "x", 1, &err),
	    -MIRROR_EINPUT);
	/* Writing one path twice is a bug upstream: refused. */
	put(o, "a/b.md", "1");
	assert_int_equal(output_write(o, "a/b.md", "2", 1, &err),
	    -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "written twice"));
	/* "a/b.md" as a directory now clashes with the file. */
	assert_int_equal(output_write(o, "a/b.md/c", "3", 1, &err),
	    -MIRROR_EIO);
	output_free(o);
}

/* 6: a symlink or FIFO planted in the previous site is never followed
 * or opened for reading in a way that blocks. */
static void
test_planted_symlink(void **state)
{
	const char *v1[] = { "a.md", "A\n" };
	char path[256], victim[256], *s;
	mirror_error err;
	struct output *o;
	size_t w, r;
	FILE *f;

	(void)state;
	build(v1, 2, &w, &r);
	snprintf(victim, sizeof(victim), "%s/victim", base);
	assert_int_equal(mkdir(victim, 0755), 0);
	snprintf(path, sizeof(path), "%s/victim/b.md", base);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("B\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/projects", site);
	assert_int_equal(symlink(victim, path), 0);
	snprintf(path, sizeof(path), "%s/b.md", site);
	assert_int_equal(symlink("victim/b.md", path), 0);
	/* A FIFO where a page was must not block the build. */
	snprintf(path, sizeof(path), "%s/a.md", site);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkfifo(path, 0644), 0);

	assert_int_equal(output_begin(&o, site, &err), 0);
	put(o, "projects/b.md", "B\n");   /* same bytes as the victim */
	put(o, "b.md", "B\n");
	put(o, "a.md", "A\n");
	assert_int_equal(output_commit(o, &err), 0);
	assert_int_equal(output_written(o), 3);
	assert_int_equal(output_reused(o), 0);
	output_free(o);
	s = read_text(victim, "b.md");
	assert_string_equal(s, "B\n");
	free(s);
	snprintf(path, sizeof(path), "%s/projects", site);
	{
		struct stat st;

		assert_int_equal(lstat(path, &st), 0);
		assert_true(S_ISDIR(st.st_mode));
	}
}

/* 7: a stale staging dir of a dead build is removed; a live one not. */
static void
test_stale(void **state)
{
	char stale[256], live[512], *s;
	mirror_error err;
	struct output *o;
	pid_t dead = 999999;

	(void)state;
	while (kill(dead, 0) == 0 || errno != ESRCH)
		dead--;
	snprintf(stale, sizeof(stale), "%s/.site.mirror-stage-%ld/x", base,
	    (long)dead);
	snprintf(live, sizeof(live), "mkdir -p '%s'", stale);
	assert_int_equal(system(live), 0);
	snprintf(live, sizeof(live), "%s/.site.mirror-stage-1", base);
	assert_int_equal(mkdir(live, 0755), 0);   /* pid 1 is alive */
	assert_int_equal(output_begin(&o, site, &err), 0);
	put(o, "a.md", "A");
	assert_int_equal(output_commit(o, &err), 0);
	output_free(o);
	s = ls_base();
	assert_string_equal(s, ".site.mirror-stage-1 site ");
	free(s);
}

/* 8: an empty existing directory is taken; trailing slashes are fine. */
static void
test_empty_dir(void **state)
{
	char path[256], *s;
	mirror_error err;
	struct output *o;

	(void)state;
	assert_int_equal(mkdir(site, 0755), 0);
	snprintf(path, sizeof(path), "%s//", site);
	assert_int_equal(output_begin(&o, path, &err), 0);
	put(o, "index.md", "I");
	assert_int_equal(output_commit(o, &err), 0);
	output_free(o);
	s = read_text(site, "index.md");
	assert_string_equal(s, "I");
	free(s);
}

/* 9: a build killed half-way (SIGKILL, no cleanup at all) leaves DIR
 * as it was; the next build removes its staging directory. */
static void
test_killed(void **state)
{
	const char *v1[] = { "a.md", "A\n", "d/b.md", "B\n" };
	mirror_error err;
	struct output *o;
	size_t w, r;
	int status;
	pid_t pid;
	char *s;

	(void)state;
	build(v1, 4, &w, &r);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (output_begin(&o, site, &err) < 0)
			_exit(1);
		(void)output_write(o, "a.md", "changed", 7, &err);
		(void)output_write(o, "d/new.md", "N", 1, &err);
		raise(SIGKILL);
		_exit(2);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	s = read_text(site, "a.md");
	assert_string_equal(s, "A\n");
	free(s);
	assert_null(read_text(site, "d/new.md"));
	s = ls_base();
	assert_non_null(strstr(s, ".site.mirror-stage-"));   /* left behind */
	free(s);
	build(v1, 4, &w, &r);
	assert_int_equal(w, 0);
	s = ls_base();
	assert_string_equal(s, "site ");
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_first_build, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reuse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_abort, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_relpath, setup, teardown),
		cmocka_unit_test_setup_teardown(test_planted_symlink, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_stale, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_killed, setup, teardown),
	};

	return cmocka_run_group_tests_name("output", tests, NULL, NULL);
}
