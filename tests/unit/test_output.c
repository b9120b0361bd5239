/*
 * test_output.c: the output directory updated in place under a journal:
 * kept and staged files, the lists for the git stage, the marker's tree
 * line, and what the next build does with a killed build's journal.
 * The promises of doc/site.md, "The output directory".
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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

#include "output/out_dircache.h"
#include "output/out_fs.h"
#include "output/out_journal.h"
#include "output/out_lock.h"
#include "output/out_ring.h"
#include "output/out_site.h"
#include "output/output.h"
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

/* What the shell command line cmd prints (at most 4 KiB). */
static char *
sh_out(const char *cmd)
{
	char buf[4096];
	size_t n;
	FILE *p;

	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(buf, 1, sizeof(buf) - 1, p);
	pclose(p);
	buf[n] = '\0';
	return xstrdup(buf);
}

/* Entries of base as one sorted line ("a b c"), to see staging dirs. */
static char *
ls_base(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | sort | tr '\\n' ' '", base);
	return sh_out(cmd);
}

/* got (freed here) must be want. */
static void
expect_eq(char *got, const char *want)
{
	assert_string_equal(got, want);
	free(got);
}

/* The entries of base must be want (as ls_base gives them). */
static void
expect_base(const char *want)
{
	expect_eq(ls_base(), want);
}

/* Wait for the child pid, which must die of SIGKILL. */
static void
wait_killed(pid_t pid)
{
	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
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
	expect_base("site ");
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
	expect_base("site ");
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
	expect_base("site ");
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
	expect_base("real site ");
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
	char stale[256], live[512];
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
	expect_base(".site.mirror-stage-1 site ");
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
	wait_killed(pid);
	s = read_text(site, "a.md");
	assert_string_equal(s, "A\n");
	free(s);
	assert_null(read_text(site, "d/new.md"));
	s = ls_base();
	assert_non_null(strstr(s, ".site.mirror-stage-"));   /* left behind */
	free(s);
	build(v1, 4, &w, &r);
	assert_int_equal(w, 0);
	expect_base("site ");
}

/*
 * DIR as one string: every entry below it but the marker, sorted, a
 * regular file as "path=bytes;", anything else as "path;" (directories
 * too, so an empty one left behind shows).
 */
static char *
site_state(void)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "cd '%s' && find . ! -name . ! -name "
	    ".mirror-output | LC_ALL=C sort | while read -r f; do "
	    "if [ -f \"$f\" ] && [ ! -L \"$f\" ]; then printf '%%s=%%s;' "
	    "\"${f#./}\" \"$(cat \"$f\")\"; else printf '%%s;' \"${f#./}\"; "
	    "fi; done", site);
	return sh_out(cmd);
}

static void
expect_state(const char *want)
{
	expect_eq(site_state(), want);
}

/* Two versions of a site: v2 changes a.md, keeps d/b.md and keep.md,
 * drops old/x.md (and so old/), adds n/new.md and n/new2.md. Applying
 * v2's journal: step 0 the journal is in place, 1 the removal, 2 and 3
 * the renames (a.md, then the new directory n/ whole), 4 the marker. */
static const char *const v1[] = { "a.md", "A", "d/b.md", "B", "keep.md", "K",
    "old/x.md", "X" };
static const char *const v2[] = { "a.md", "A2", "d/b.md", "B", "keep.md",
    "K", "n/new.md", "N", "n/new2.md", "N2" };
#define V1_STATE "a.md=A;d;d/b.md=B;keep.md=K;old;old/x.md=X;"
#define V2_STATE "a.md=A2;d;d/b.md=B;keep.md=K;n;n/new.md=N;n/new2.md=N2;"
#define TREE_A "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
#define TREE_B "0123456789abcdef0123456789abcdef01234567"

static size_t kill_step;

static void
kill_at(size_t step)
{
	if (step == kill_step)
		raise(SIGKILL);
}

/* Build files (n strings, path and bytes in turn) with the marker's tree
 * tree in a child process killed at step at of the journal (see v2). */
static void
build_killed(const char *const *files, size_t n, const char *tree,
    size_t at)
{
	mirror_error err;
	struct output *o;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		kill_step = at;
		out_journal_test_step = kill_at;
		if (output_begin(&o, site, &err) < 0)
			_exit(1);
		for (size_t i = 0; i < n; i += 2)
			(void)output_write(o, files[i], files[i + 1],
			    strlen(files[i + 1]), &err);
		output_set_tree(o, tree);
		(void)output_commit(o, &err);
		_exit(2);
	}
	wait_killed(pid);
}

/* DIR holds v1, and a build of v2 (with tree) was killed the moment its
 * journal was in place. */
static void
v2_journaled(const char *tree)
{
	size_t w, r;

	build(v1, 8, &w, &r);
	build_killed(v2, 10, tree, 0);
}

/* The base's entries that are mirror's side files (journal, stage). */
static int
side_files(void)
{
	char *s = ls_base();
	int any = strstr(s, "mirror-journal") != NULL ||
	    strstr(s, "mirror-stage") != NULL;

	free(s);
	return any;
}

/* 10: output_keep keeps all of a list or none of it. */
static void
test_keep(void **state)
{
	const char *ok[] = { "a.md", "d/b.md" };
	const char *partial[] = { "keep.md", "missing.md" };
	const char *twice[] = { "keep.md", "keep.md" };
	const char *written[] = { "old/x.md" };
	const char *const *paths;
	struct stat st1, st2;
	mirror_error err;
	struct output *o;
	char path[256];
	size_t w, r, n;

	(void)state;
	build(v1, 8, &w, &r);
	snprintf(path, sizeof(path), "%s/a.md", site);
	assert_int_equal(stat(path, &st1), 0);
	assert_int_equal(output_begin(&o, site, &err), 0);
	assert_int_equal(output_keep(o, ok, 2), 1);
	/* A missing file: nothing kept, keep.md still free to keep. */
	assert_int_equal(output_keep(o, partial, 2), 0);
	assert_int_equal(output_keep(o, twice, 2), 0);
	assert_int_equal(output_keep(o, partial, 1), 1);
	/* Kept already, or written already: no. */
	assert_int_equal(output_keep(o, ok, 1), 0);
	put(o, "old/x.md", "X2");
	assert_int_equal(output_keep(o, written, 1), 0);
	paths = output_paths(o, &n);
	assert_int_equal(n, 4);
	assert_string_equal(paths[0], "a.md");
	assert_string_equal(paths[3], "old/x.md");
	assert_int_equal(output_reused(o), 3);
	assert_int_equal(output_written(o), 1);
	assert_int_equal(output_commit(o, &err), 0);
	output_free(o);
	expect_state("a.md=A;d;d/b.md=B;keep.md=K;old;old/x.md=X2;");
	assert_int_equal(stat(path, &st2), 0);
	assert_int_equal(st1.st_ino, st2.st_ino);   /* not rewritten */
	assert_false(side_files());
	/* Kept, then written: refused, and the build cannot commit. */
	assert_int_equal(output_begin(&o, site, &err), 0);
	assert_int_equal(output_keep(o, ok, 1), 1);
	assert_int_equal(output_write(o, "a.md", "A!", 2, &err),
	    -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "written twice"));
	assert_int_equal(output_commit(o, &err), -MIRROR_EIO);
	output_free(o);
	expect_state("a.md=A;d;d/b.md=B;keep.md=K;old;old/x.md=X2;");
	assert_false(side_files());
}

/* 11: output_read_prev reads the previous build's file, safely. */
/* 10b: a family kept in one call, its files sharing directories (which
 * output_keep checks once for siblings): every file and directory is in
 * the new site, none rewritten; a directory that is a file written in
 * this build refuses the siblings below it, whichever comes first. */
static void
test_keep_family(void **state)
{
	const char *fam[] = { "f/1.md", "f", "f/2.md", "2", "f/3.md", "3",
	    "f/g/4.md", "4", "f/g/5.md", "5", "f/6.md", "6", "z/a.md", "a",
	    "z/b.md", "b", "y.md", "y" };
	const char *keep[] = { "f/1.md", "f/2.md", "f/g/4.md", "f/g/5.md",
	    "f/3.md", "f/6.md" };
	const char *under[] = { "z/a.md", "z/b.md" };
	const char *after[] = { "y.md", "z/b.md" };
	const char *const *paths;
	mirror_error err;
	struct output *o;
	size_t w, r, n;

	(void)state;
	build(fam, 18, &w, &r);
	assert_int_equal(output_begin(&o, site, &err), 0);
	assert_int_equal(output_keep(o, keep, 6), 1);
	put(o, "z", "Z");
	assert_int_equal(output_keep(o, under, 2), 0);
	assert_int_equal(output_keep(o, under + 1, 1), 0);
	assert_int_equal(output_keep(o, after, 2), 0);
	assert_int_equal(output_keep(o, after, 1), 1);
	paths = output_paths(o, &n);
	assert_int_equal(n, 8);
	assert_string_equal(paths[0], "f/1.md");
	assert_string_equal(paths[4], "f/g/4.md");
	assert_string_equal(paths[7], "z");
	assert_int_equal(output_reused(o), 7);
	assert_int_equal(output_commit(o, &err), 0);
	output_free(o);
	expect_state("f;f/1.md=f;f/2.md=2;f/3.md=3;f/6.md=6;f/g;f/g/4.md=4;"
	    "f/g/5.md=5;y.md=y;z=Z;");
	assert_false(side_files());
}

static void
test_read_prev(void **state)
{
	char *data, path[256];
	mirror_error err;
	struct output *o;
	size_t len, w, r;

	(void)state;
	assert_int_equal(output_begin(&o, site, &err), 0);   /* no DIR */
	assert_int_equal(output_read_prev(&data, &len, o, "a.md", &err), 0);
	assert_null(data);
	output_free(o);
	build(v1, 8, &w, &r);
	snprintf(path, sizeof(path), "%s/link.md", site);
	assert_int_equal(symlink("a.md", path), 0);
	assert_int_equal(output_begin(&o, site, &err), 0);
	assert_int_equal(output_read_prev(&data, &len, o, "d/b.md", &err), 1);
	assert_int_equal(len, 1);
	assert_string_equal(data, "B");
	free(data);
	/* Written in this build: still the previous build's bytes. */
	put(o, "a.md", "new");
	assert_int_equal(output_read_prev(&data, &len, o, "a.md", &err), 1);
	assert_string_equal(data, "A");
	free(data);
	assert_int_equal(output_read_prev(&data, &len, o, "none.md", &err), 0);
	assert_int_equal(output_read_prev(&data, &len, o, "link.md", &err), 0);
	assert_int_equal(output_read_prev(&data, &len, o, "d", &err), 0);
	assert_int_equal(output_read_prev(&data, &len, o, "../x", &err),
	    -MIRROR_EINPUT);
	assert_int_equal(output_read_prev(&data, &len, o, ".mirror-output",
	    &err), -MIRROR_EINPUT);
	/* The stepwise way, as without openat2, reads the same. */
	out_fs_test_no_openat2 = 1;
	assert_int_equal(output_read_prev(&data, &len, o, "d/b.md", &err), 1);
	assert_string_equal(data, "B");
	free(data);
	out_fs_test_no_openat2 = 0;
	output_free(o);
}

/* 12: the lists for the git stage; a removed file's directory goes. */
static void
test_files_removed(void **state)
{
	const char *keep[] = { "keep.md" };
	const struct output_file *f;
	const char *const *rm;
	mirror_error err;
	struct output *o;
	size_t n, w, r;
	char want[256], *s;

	(void)state;
	build(v1, 8, &w, &r);
	assert_int_equal(output_begin(&o, site, &err), 0);
	assert_int_equal(output_keep(o, keep, 1), 1);
	for (size_t i = 0; i < 10; i += 2)
		if (strcmp(v2[i], "keep.md") != 0)
			put(o, v2[i], v2[i + 1]);
	n = output_files(o, &f);
	assert_int_equal(n, 5);
	assert_string_equal(f[0].path, "a.md");
	assert_int_equal(f[0].changed, 1);
	s = read_text("/", f[0].disk);
	assert_string_equal(s, "A2");       /* the staged bytes */
	free(s);
	assert_string_equal(f[1].path, "d/b.md");
	assert_int_equal(f[1].changed, 0);  /* identical: kept */
	snprintf(want, sizeof(want), "%s/d/b.md", site);
	assert_string_equal(f[1].disk, want);
	assert_string_equal(f[2].path, "keep.md");
	assert_int_equal(f[2].changed, 0);
	assert_string_equal(f[3].path, "n/new.md");
	assert_string_equal(f[4].path, "n/new2.md");
	assert_int_equal(f[4].changed, 1);
	rm = output_removed(o, &n);
	assert_int_equal(n, 1);
	assert_string_equal(rm[0], "old/x.md");
	assert_int_equal(output_commit(o, &err), 0);
	output_free(o);
	expect_state(V2_STATE);
	assert_false(side_files());
}

/* 13: the marker's tree line: read at begin, written at commit, cleared
 * by a build that sets none; a build that changes nothing writes
 * nothing, not even the marker. */
static void
test_tree_marker(void **state)
{
	struct stat st1, st2;
	mirror_error err;
	struct output *o;
	char path[256], *s;

	(void)state;
	assert_int_equal(output_begin(&o, site, &err), 0);
	assert_null(output_base_tree(o));
	put(o, "a.md", "A");
	output_set_tree(o, TREE_A);
	assert_int_equal(output_commit(o, &err), 0);
	output_free(o);
	s = read_text(site, ".mirror-output");
	assert_string_equal(s, "This directory is written by mirror and "
	    "brought up to date by every build.\ntree " TREE_A "\n");
	free(s);
	snprintf(path, sizeof(path), "%s/.mirror-output", site);
	assert_int_equal(stat(path, &st1), 0);
	/* The same files, the same tree: DIR untouched. */
	assert_int_equal(output_begin(&o, site, &err), 0);
	assert_string_equal(output_base_tree(o), TREE_A);
	put(o, "a.md", "A");
	output_set_tree(o, TREE_A);
	assert_int_equal(output_commit(o, &err), 0);
	output_free(o);
	assert_int_equal(stat(path, &st2), 0);
	assert_int_equal(st1.st_ino, st2.st_ino);
	assert_false(side_files());
	/* Only the tree changes: the marker does. A malformed id clears. */
	assert_int_equal(output_begin(&o, site, &err), 0);
	put(o, "a.md", "A");
	output_set_tree(o, TREE_B);
	assert_int_equal(output_commit(o, &err), 0);
	output_free(o);
	assert_int_equal(output_begin(&o, site, &err), 0);
	assert_string_equal(output_base_tree(o), TREE_B);
	put(o, "a.md", "A");
	output_set_tree(o, "0123456789ABCDEF0123456789abcdef01234567");
	assert_int_equal(output_commit(o, &err), 0);
	output_free(o);
	s = read_text(site, ".mirror-output");
	assert_string_equal(s, "This directory is written by mirror and "
	    "brought up to date by every build.\n");
	free(s);
	assert_int_equal(output_begin(&o, site, &err), 0);
	assert_null(output_base_tree(o));
	output_free(o);
}

/* 14: killed once its journal was in place: DIR is still the old site,
 * and the next output_begin makes it the new one before anything. */
static void
test_journal_begin(void **state)
{
	mirror_error err;
	struct output *o;
	char *s;

	(void)state;
	v2_journaled(TREE_B);
	expect_state(V1_STATE);
	s = ls_base();
	assert_non_null(strstr(s, ".site.mirror-journal"));
	free(s);
	assert_int_equal(output_begin(&o, site, &err), 0);
	expect_state(V2_STATE);
	assert_string_equal(output_base_tree(o), TREE_B);
	output_free(o);
	expect_base("site ");
}

/* One taker of the lock race (test_lock_race): LOCK_ROUNDS takes and
 * releases of base's lock; returns the first failure's message, or
 * NULL. */
#define LOCK_ROUNDS 4000
static void *
lock_rounds(void *arg)
{
	static char failed[2][sizeof(((mirror_error *)0)->msg)];
	int k = *(int *)arg;
	struct out_place at;
	mirror_error err;

	if (out_open_parent(&at, site, &err) < 0) {
		snprintf(failed[k], sizeof(failed[k]), "%s", err.msg);
		return failed[k];
	}
	for (int i = 0; i < LOCK_ROUNDS; i++) {
		struct out_lock lk = { -1, -1, NULL };

		if (out_lock_take(&lk, &at, &err) < 0) {
			snprintf(failed[k], sizeof(failed[k]), "%s", err.msg);
			out_place_free(&at);
			return failed[k];
		}
		out_lock_release(&lk);
	}
	out_place_free(&at);
	return NULL;
}

/* Two builds taking and letting go of one DIR's lock as fast as they
 * can: each always gets it. A release removes the file between the
 * other's open and its look at the file, which then has no name at
 * all: that is a lock let go (try again), not a file with other names
 * (hard links) to refuse. */
static void
test_lock_race(void **state)
{
	static int ids[2] = { 0, 1 };
	pthread_t t[2];
	void *res[2];

	(void)state;
	assert_int_equal(setenv("MIRROR_LOCK_TIMEOUT_MS", "60000", 1), 0);
	for (int k = 0; k < 2; k++)
		assert_int_equal(pthread_create(&t[k], NULL, lock_rounds,
		    &ids[k]), 0);
	for (int k = 0; k < 2; k++)
		assert_int_equal(pthread_join(t[k], &res[k]), 0);
	unsetenv("MIRROR_LOCK_TIMEOUT_MS");
	for (int k = 0; k < 2; k++)
		if (res[k] != NULL)
			fail_msg("taker %d: %s", k, (const char *)res[k]);
}

/* 15: killed in the middle of applying it (a mix), then output_lock:
 * the roll-forward comes first; killed again while rolling forward,
 * the next one still finishes it (every step can be done again). */
static void
test_journal_lock(void **state)
{
	mirror_error err;
	struct output_turn turn = { 0 };
	size_t w, r;
	pid_t pid;

	(void)state;
	build(v1, 8, &w, &r);
	build_killed(v2, 10, TREE_B, 2);
	expect_state("a.md=A2;d;d/b.md=B;keep.md=K;");
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		kill_step = 2;      /* a.md found renamed, n/ not yet */
		out_journal_test_step = kill_at;
		(void)output_lock(&turn, site, &err);
		_exit(2);
	}
	wait_killed(pid);
	expect_state("a.md=A2;d;d/b.md=B;keep.md=K;");
	assert_true(side_files());
	assert_int_equal(output_lock(&turn, site, &err), 0);
	expect_state(V2_STATE);
	assert_false(side_files());
	output_unlock(&turn);
	expect_base("site ");
}

/* 16: a journal without its end line is thrown away with its staging
 * directory: DIR stays the old site. A damaged whole one is refused. */
static void
test_journal_incomplete(void **state)
{
	char cmd[512];
	mirror_error err;
	struct output *o;

	(void)state;
	v2_journaled(NULL);
	snprintf(cmd, sizeof(cmd), "cd '%s' && sed -i '$d' .site.mirror-journal "
	    "&& tail -n 1 .site.mirror-journal | grep -q '^put'", base);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(output_begin(&o, site, &err), 0);
	expect_state(V1_STATE);
	/* This build's own lock and staging directory, nothing else. */
	snprintf(cmd, sizeof(cmd), ".site.mirror-lock .site.mirror-stage-%ld "
	    "site ", (long)getpid());
	expect_base(cmd);
	put(o, "a.md", "A");
	assert_int_equal(output_commit(o, &err), 0);
	output_free(o);
	/* Whole, but a line no build writes: named, nothing touched. */
	build_killed(v2, 10, NULL, 0);
	snprintf(cmd, sizeof(cmd), "cd '%s' && sed -i '4s/^put /mv /' "
	    ".site.mirror-journal", base);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(output_begin(&o, site, &err), -MIRROR_EIO);
	assert_non_null(strstr(err.msg, ".site.mirror-journal"));
	assert_non_null(strstr(err.msg, "damaged (line 4)"));
	expect_state("a.md=A;");
}

/* 17: a symlink planted after the kill where the journal needs a
 * directory is replaced by one, never followed. */
static void
test_journal_symlink(void **state)
{
	char path[256], victim[256];
	mirror_error err;
	struct output *o;

	(void)state;
	v2_journaled(NULL);
	snprintf(victim, sizeof(victim), "%s/victim", base);
	assert_int_equal(mkdir(victim, 0755), 0);
	snprintf(path, sizeof(path), "%s/n", site);
	assert_int_equal(symlink(victim, path), 0);
	assert_int_equal(output_begin(&o, site, &err), 0);
	output_free(o);
	expect_state(V2_STATE);
	expect_base("site victim ");
	assert_int_equal(rmdir(victim), 0);     /* still empty */
}

/* The journal steps a build took (out_journal_test_step). */
static size_t steps_seen;

static void
count_step(size_t step)
{
	(void)step;
	steps_seen++;
}

/* 18: a rebuild that changes nothing writes no journal; one change
 * is one rename (and the marker). */
static void
test_no_change(void **state)
{
	const char *v1b[] = { "a.md", "A", "d/b.md", "B", "keep.md", "K",
	    "old/x.md", "X!" };
	size_t w, r;

	(void)state;
	build(v1, 8, &w, &r);
	out_journal_test_step = count_step;
	steps_seen = 0;
	build(v1, 8, &w, &r);
	assert_int_equal(w, 0);
	assert_int_equal(r, 4);
	assert_int_equal(steps_seen, 0);
	build(v1b, 8, &w, &r);
	out_journal_test_step = NULL;
	assert_int_equal(w, 1);
	assert_int_equal(steps_seen, 3);    /* journal, rename, marker */
	expect_state("a.md=A;d;d/b.md=B;keep.md=K;old;old/x.md=X!;");
}

/* 18b: output_flush_begin starts the staged files' writeback early and
 * changes nothing else: a file written after it is committed too, a
 * second call and one after the commit do nothing, and a build freed
 * without a commit leaves DIR as it was and no staging directory. */
static void
test_flush_early(void **state)
{
	mirror_error err;
	struct output *o;

	(void)state;
	assert_int_equal(output_begin(&o, site, &err), 0);
	put(o, "a.md", "A");
	put(o, "d/b.md", "B");
	output_flush_begin(o);
	output_flush_begin(o);
	put(o, "c.md", "C");
	assert_int_equal(output_commit(o, &err), 0);
	assert_int_equal(output_writebacks(o), 1);
	output_flush_begin(o);
	assert_int_equal(output_written(o), 3);
	output_free(o);
	expect_state("a.md=A;c.md=C;d;d/b.md=B;");
	expect_base("site ");

	assert_int_equal(output_begin(&o, site, &err), 0);
	put(o, "a.md", "A2");
	output_flush_begin(o);
	output_free(o);
	expect_state("a.md=A;c.md=C;d;d/b.md=B;");
	expect_base("site ");
}

/* site's file rel must hold size bytes, first its first, 'x' its last. */
static void
expect_big(const char *rel, size_t size, char first)
{
	char path[512], c;
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", site, rel);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal((size_t)st.st_size, size);
	assert_int_equal(pread(fd, &c, 1, 0), 1);
	assert_int_equal(c, first);
	assert_int_equal(pread(fd, &c, 1, (off_t)size - 1), 1);
	assert_int_equal(c, 'x');
	close(fd);
}

/* 18c: every 8 MiB staged asks the writeback for a syncfs, on its own
 * thread (doc/performance.md, "The stage's writeback"): a build
 * staging 9 MiB runs exactly one before its commit and commits every
 * file whole, a small one (which leaves its one file alone in DIR) runs
 * none, and one freed without a commit after its syncfs leaves DIR as
 * it was and no staging directory. output_flush_begin's is one more,
 * once. */
static void
test_writeback(void **state)
{
	const size_t mib = (size_t)1 << 20;
	mirror_error err;
	struct output *o;
	char *big = xmalloc(3 * mib + 1), name[32];

	(void)state;
	memset(big, 'x', 3 * mib);
	big[3 * mib] = '\0';
	assert_int_equal(output_begin(&o, site, &err), 0);
	for (int i = 0; i < 3; i++) {
		big[0] = (char)('a' + i);
		snprintf(name, sizeof(name), "big-%d.md", i);
		put(o, name, big);
	}
	assert_int_equal(output_commit(o, &err), 0);
	assert_int_equal(output_writebacks(o), 1);
	output_free(o);
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "big-%d.md", i);
		expect_big(name, 3 * mib, (char)('a' + i));
	}

	assert_int_equal(output_begin(&o, site, &err), 0);
	put(o, "small.md", "S");
	assert_int_equal(output_commit(o, &err), 0);
	assert_int_equal(output_writebacks(o), 0);
	output_free(o);

	assert_int_equal(output_begin(&o, site, &err), 0);
	for (int i = 0; i < 3; i++) {
		big[0] = (char)('A' + i);
		snprintf(name, sizeof(name), "big-%d.md", i);
		put(o, name, big);
	}
	output_flush_begin(o);
	output_flush_begin(o);
	output_free(o);
	expect_state("small.md=S;");
	expect_base("site ");
	free(big);
}

/* A writer of test_dircache_threads: files "d<k>/t<id>-<k>" for k in
 * 0..39, every directory shared with the other writers. */
struct dc_writer {
	struct out_dircache *c;
	int id;
	int failed;
};

static void *
dc_write(void *arg)
{
	struct dc_writer *w = arg;
	char path[64], text[64];

	for (int k = 0; k < 40; k++) {
		snprintf(path, sizeof(path), "d%d/t%d-%d", k, w->id, k);
		snprintf(text, sizeof(text), "%d:%d\n", w->id, k);
		if (out_dircache_create(w->c, path, text, strlen(text)) != 0)
			w->failed++;
	}
	return NULL;
}

/* Four threads at once through one cache of fewer directories than
 * they use: every file is there with its bytes, each directory made
 * once whoever came first; a second create of a file is refused. */
static void
test_dircache_threads(void **state)
{
	struct out_dircache c;
	struct dc_writer w[4];
	pthread_t tid[4];
	char rel[64], want[64], *got;
	int top;

	(void)state;
	assert_int_equal(mkdir(site, 0755), 0);
	top = open(site, O_RDONLY | O_DIRECTORY);
	assert_true(top >= 0);
	out_dircache_init(&c, top);
	for (int t = 0; t < 4; t++) {
		w[t] = (struct dc_writer){ &c, t, 0 };
		assert_int_equal(pthread_create(&tid[t], NULL, dc_write, &w[t]),
		    0);
	}
	for (int t = 0; t < 4; t++) {
		pthread_join(tid[t], NULL);
		assert_int_equal(w[t].failed, 0);
	}
	for (int t = 0; t < 4; t++)
		for (int k = 0; k < 40; k++) {
			snprintf(rel, sizeof(rel), "d%d/t%d-%d", k, t, k);
			snprintf(want, sizeof(want), "%d:%d\n", t, k);
			got = read_text(site, rel);
			assert_non_null(got);
			assert_string_equal(got, want);
			free(got);
		}
	/* Deep, at the top, and again in a directory long since closed. */
	assert_int_equal(out_dircache_create(&c, "a/b/c/d/e.md", "e", 1), 0);
	assert_int_equal(out_dircache_create(&c, "top.md", "t", 1), 0);
	assert_int_equal(out_dircache_create(&c, "d0/late", "l", 1), 0);
	assert_int_equal(out_dircache_create(&c, "d0/late", "m", 1),
	    -EEXIST);
	got = read_text(site, "a/b/c/d/e.md");
	assert_string_equal(got, "e");
	free(got);
	got = read_text(site, "d0/late");
	assert_string_equal(got, "l");
	free(got);
	out_dircache_free(&c);
	close(top);
}

/* A writer of test_rings: files "r<k % 7>/w<id>-<k>" for k in 0..99
 * (three batches and more), and the first late failure it was told. */
struct ring_writer {
	struct out_rings *rs;
	int id;
	int failed;
	struct out_late late;
};

static void *
ring_write(void *arg)
{
	struct ring_writer *w = arg;
	char path[64], text[64];

	for (int k = 0; k < 100; k++) {
		struct out_late late;

		snprintf(path, sizeof(path), "r%d/w%d-%d", k % 7, w->id, k);
		snprintf(text, sizeof(text), "%d:%d\n", w->id, k);
		if (out_rings_create(&late, w->rs, path, text, strlen(text)) != 0)
			w->failed++;
		if (late.rc < 0 && w->late.rc == 0)
			w->late = late;
		else
			free(late.path);
	}
	return NULL;
}

/* Two threads' files through their batches (uring 1) or one by one (0):
 * every file there with its bytes; one whose name is taken already, in
 * the middle of a batch, is named with -EEXIST, once (by a later file of
 * its writer or by the drain), and it keeps what was there. */
static void
rings_case(int uring)
{
	struct out_dircache c;
	struct out_rings rs;
	struct ring_writer w[2];
	struct out_late late;
	pthread_t tid[2];
	char rel[64], want[64], *got;
	int top, named = 0;

	setenv("MIRROR_IO_URING", uring ? "1" : "0", 1);
	assert_int_equal(mkdir(site, 0755), 0);
	top = open(site, O_RDONLY | O_DIRECTORY);
	assert_true(top >= 0);
	out_dircache_init(&c, top);
	out_rings_init(&rs, &c);
	assert_int_equal(out_dircache_create(&c, "r3/w1-45", "old", 3), 0);
	for (int t = 0; t < 2; t++) {
		w[t] = (struct ring_writer){ .rs = &rs, .id = t };
		assert_int_equal(pthread_create(&tid[t], NULL, ring_write,
		    &w[t]), 0);
	}
	for (int t = 0; t < 2; t++)
		pthread_join(tid[t], NULL);
	assert_int_equal(w[0].failed + w[0].late.rc, 0);
	if (w[1].late.rc < 0) {
		assert_int_equal(w[1].late.rc, -EEXIST);
		assert_string_equal(w[1].late.path, "r3/w1-45");
		named++;
	}
	free(w[1].late.path);
	if (out_rings_drain(&late, &rs) < 0) {
		assert_int_equal(late.rc, -EEXIST);
		assert_string_equal(late.path, "r3/w1-45");
		free(late.path);
		named++;
	}
	assert_int_equal(named + w[1].failed, 1);
	assert_int_equal(w[1].failed, uring ? 0 : 1);
	for (int t = 0; t < 2; t++)
		for (int k = 0; k < 100; k++) {
			snprintf(rel, sizeof(rel), "r%d/w%d-%d", k % 7, t, k);
			snprintf(want, sizeof(want), "%d:%d\n", t, k);
			got = read_text(site, rel);
			assert_non_null(got);
			assert_string_equal(got, t == 1 && k == 45 ? "old" :
			    want);
			free(got);
		}
	out_rings_free(&rs);
	out_dircache_free(&c);
	close(top);
	unsetenv("MIRROR_IO_URING");
}

static void
test_rings(void **state)
{
	(void)state;
	rings_case(1);
}

static void
test_rings_plain(void **state)
{
	(void)state;
	rings_case(0);
}

/* A link or a file where a directory goes is refused, never followed,
 * also when the directory was opened before the link was planted. */
static void
test_dircache_links(void **state)
{
	struct out_dircache c;
	char outside[128], path[192];
	struct stat st;
	int top, rc;

	(void)state;
	snprintf(outside, sizeof(outside), "%s/outside", base);
	assert_int_equal(mkdir(site, 0755), 0);
	assert_int_equal(mkdir(outside, 0755), 0);
	snprintf(path, sizeof(path), "%s/ln", site);
	assert_int_equal(symlink(outside, path), 0);
	snprintf(path, sizeof(path), "%s/file", site);
	top = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(top >= 0);
	close(top);
	top = open(site, O_RDONLY | O_DIRECTORY);
	assert_true(top >= 0);
	out_dircache_init(&c, top);
	rc = out_dircache_create(&c, "ln/x.md", "x", 1);
	assert_true(rc == -ELOOP || rc == -ENOTDIR);
	rc = out_dircache_create(&c, "ln/deeper/x.md", "x", 1);
	assert_true(rc == -ELOOP || rc == -ENOTDIR);
	assert_int_equal(out_dircache_create(&c, "file/x.md", "x", 1),
	    -ENOTDIR);
	/* "kept" is open in the cache; a link put in its place is not
	 * where the next file goes. */
	assert_int_equal(out_dircache_create(&c, "kept/a.md", "a", 1), 0);
	snprintf(path, sizeof(path), "%s/kept", site);
	snprintf(outside, sizeof(outside), "%s/kept-moved", base);
	assert_int_equal(rename(path, outside), 0);
	snprintf(outside, sizeof(outside), "%s/outside", base);
	assert_int_equal(symlink(outside, path), 0);
	assert_int_equal(out_dircache_create(&c, "kept/b.md", "b", 1), 0);
	snprintf(path, sizeof(path), "%s/outside/b.md", base);
	assert_int_equal(lstat(path, &st), -1);
	snprintf(path, sizeof(path), "%s/kept-moved/b.md", base);
	assert_int_equal(lstat(path, &st), 0);
	snprintf(path, sizeof(path), "%s/outside/x.md", base);
	assert_int_equal(lstat(path, &st), -1);
	out_dircache_free(&c);
	close(top);
}

/* A set filled by pushes finds each string once indexed, at its index;
 * an add after pushes indexes them too; a reserved set moves nothing
 * while it fills up to the reserve. */
static void
test_set(void **state)
{
	struct out_set set;
	char path[32];
	size_t cap;

	(void)state;
	out_set_init(&set);
	for (int i = 0; i < 1000; i++) {
		snprintf(path, sizeof(path), "p/%d.md", i);
		assert_int_equal(out_set_push(&set, path, strlen(path), i), i);
	}
	assert_int_equal(out_set_find(&set, "p/7.md", 6), -1);
	out_set_index(&set);
	for (int i = 0; i < 1000; i++) {
		snprintf(path, sizeof(path), "p/%d.md", i);
		assert_int_equal(out_set_find(&set, path, strlen(path)), i);
		assert_int_equal(set.val[i], i);
	}
	/* A prefix of a string is not the string. */
	assert_int_equal(out_set_find(&set, "p/1", 3), -1);
	assert_int_equal(out_set_find(&set, "p/1000.md", 9), -1);
	assert_int_equal(out_set_push(&set, "q/a", 3, 0), 1000);
	assert_int_equal(out_set_add(&set, "q/b", 3, 0), 1001);
	assert_int_equal(out_set_find(&set, "q/a", 3), 1000);
	assert_int_equal(out_set_find(&set, "q/b", 3), 1001);
	out_set_free(&set);

	out_set_init(&set);
	out_set_reserve(&set, 5000);
	cap = set.tab.cap;
	assert_true(cap >= 10000);
	for (int i = 0; i < 5000; i++) {
		snprintf(path, sizeof(path), "r/%d", i);
		out_set_add(&set, path, strlen(path), 0);
	}
	assert_int_equal(set.tab.cap, cap);
	assert_int_equal(set.n, 5000);
	assert_int_equal(out_set_find(&set, "r/4999", 6), 4999);
	out_set_free(&set);
}

/* 22: a build begun on a thread (output_begin_start, with two jobs and
 * with one) is the build output_begin gives: unchanged files kept,
 * changed ones written; a start dropped unfinished leaves DIR as it was
 * and no staging directory; finishing no start fails. */
static void
test_begin_start(void **state)
{
	const char *files[] = { "a.md", "A\n", "d/b.md", "B\n" };
	static const char *const jobs[] = { "2", "1" };
	struct output_start *st;
	struct output *o;
	mirror_error err;
	size_t w, r;

	(void)state;
	build(files, 4, &w, &r);
	for (size_t j = 0; j < sizeof(jobs) / sizeof(*jobs); j++) {
		assert_int_equal(setenv("MIRROR_JOBS", jobs[j], 1), 0);
		st = output_begin_start(site, NULL);
		assert_non_null(st);
		assert_int_equal(output_begin_finish(&o, st, &err), 0);
		assert_non_null(o);
		put(o, "a.md", "A\n");
		put(o, "d/b.md", j == 0 ? "B2\n" : "B3\n");
		assert_int_equal(output_commit(o, &err), 0);
		assert_int_equal(output_written(o), 1);
		assert_int_equal(output_reused(o), 1);
		output_free(o);
		expect_eq(read_text(site, "d/b.md"), j == 0 ? "B2\n" : "B3\n");

		st = output_begin_start(site, NULL);
		output_begin_drop(st);
		expect_eq(read_text(site, "d/b.md"), j == 0 ? "B2\n" : "B3\n");
		expect_base("site ");
	}
	assert_int_equal(unsetenv("MIRROR_JOBS"), 0);
	output_begin_drop(NULL);
	o = (struct output *)&err;
	assert_true(output_begin_finish(&o, NULL, &err) < 0);
	assert_null(o);
}

/* 23: DIR's turn is the caller's: a lock output_lock took into one
 * turn keeps a second turn out (no wait), is taken once, passes to the
 * build begun with that turn (the turn then holds nothing, the build
 * still keeps others out) and is let go by output_free; output_unlock
 * of an empty turn is harmless. */
static void
test_turn(void **state)
{
	const char *files[] = { "a.md", "A\n" };
	struct output_turn a = { 0 }, b = { 0 };
	struct output_start *st;
	struct output *o;
	mirror_error err;
	size_t w, r;

	(void)state;
	build(files, 2, &w, &r);
	assert_int_equal(setenv("MIRROR_LOCK_TIMEOUT_MS", "0", 1), 0);
	assert_int_equal(output_lock(&a, site, &err), 0);
	assert_true(a.held);
	assert_int_equal(output_lock(&a, site, &err), 0);
	assert_int_equal(output_lock(&b, site, &err), -MIRROR_EIO);
	assert_false(b.held);
	st = output_begin_start(site, &a);
	assert_int_equal(output_begin_finish(&o, st, &err), 0);
	assert_false(a.held);
	assert_int_equal(output_lock(&b, site, &err), -MIRROR_EIO);
	output_unlock(&a);
	assert_int_equal(output_lock(&b, site, &err), -MIRROR_EIO);
	output_free(o);
	assert_int_equal(output_lock(&b, site, &err), 0);
	output_unlock(&b);
	assert_false(b.held);
	output_unlock(&b);
	expect_base("site ");
	assert_int_equal(unsetenv("MIRROR_LOCK_TIMEOUT_MS"), 0);
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
		cmocka_unit_test_setup_teardown(test_keep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep_family, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_read_prev, setup, teardown),
		cmocka_unit_test_setup_teardown(test_files_removed, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_tree_marker, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_journal_begin, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_journal_lock, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_journal_incomplete, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_journal_symlink, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_no_change, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writeback, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_flush_early, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_dircache_threads, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_rings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rings_plain, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_dircache_links, setup,
		    teardown),
		cmocka_unit_test(test_set),
		cmocka_unit_test_setup_teardown(test_lock_race, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_turn, setup, teardown),
		cmocka_unit_test_setup_teardown(test_begin_start, setup,
		    teardown),
	};

	return cmocka_run_group_tests_name("output", tests, NULL, NULL);
}
