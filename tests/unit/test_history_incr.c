/*
 * test_history_incr.c: history_commit given the site as a list of files
 * (history_request.files), judged by the git command line and against
 * the same site committed from its directory.
 *
 * Every test works in its own scratch directory under root; HOME is
 * gitcap_env's.
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

#include "scratch.h"
#include "gitcap.h"

#include "git/history.h"
#include "util/array.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define AUTHOR "Mirror Bot <mirror@example.org>"
#define T0 1700000000L

static char root[] = "/tmp/mirror-history-incr.XXXXXX";
static char cwd0[4096];

/* A site as history_request lists it; every string is owned here. */
struct flist {
	struct history_file *f;
	size_t n, cap;
};

static void
flist_free(struct flist *fl)
{
	for (size_t i = 0; i < fl->n; i++) {
		free((char *)(uintptr_t)fl->f[i].path);
		free((char *)(uintptr_t)fl->f[i].disk);
	}
	free(fl->f);
	memset(fl, 0, sizeof(*fl));
}

/* Append path, read from disk, with its changed flag. */
static void
flist_add(struct flist *fl, const char *path, const char *disk, int changed)
{
	struct history_file *f = &ARRAY_PUSH(fl->f, fl->n, fl->cap);

	f->path = xstrdup(path);
	f->disk = xstrdup(disk);
	f->changed = changed;
}

/*
 * Every file under site (as find(1) lists them, in strcmp order), each
 * read from site/<path>; changed when its path is in the NULL-terminated
 * list changed, or every one for changed NULL.
 */
static void
flist_of(struct flist *fl, const char *site, const char *const *changed)
{
	char *all = cap("cd %s && find . -type f -o -type l -o -type p | "
	    "sed 's|^\\./||' | LC_ALL=C sort", site);
	char disk[4096];

	memset(fl, 0, sizeof(*fl));
	for (char *line = strtok(all, "\n"); line != NULL;
	    line = strtok(NULL, "\n")) {
		int c = changed == NULL;

		for (size_t i = 0; changed != NULL && changed[i] != NULL; i++)
			c |= strcmp(changed[i], line) == 0;
		assert_true((size_t)snprintf(disk, sizeof(disk), "%s/%s", site,
		    line) < sizeof(disk));
		flist_add(fl, line, disk, c);
	}
	free(all);
}

/* The request every commit here makes, at time t. */
static void
request(struct history_request *rq, const char *repo, long t)
{
	memset(rq, 0, sizeof(*rq));
	rq->repo_path = repo;
	rq->branch = "mirror";
	rq->author = AUTHOR;
	rq->have_time = 1;
	rq->time = (time_t)t;
	rq->conflicts_opened = 1;
	rq->sweep_run_id = "run-1";
	rq->store_checksum = "abc";
}

/* Commit the list fl (removed and base as given) at time t. */
static int
commit_list(struct history_result *r, const char *repo,
    const struct flist *fl, const char *const *removed, size_t nremoved,
    const char *base, long t, mirror_error *err)
{
	struct history_request rq;

	request(&rq, repo, t);
	rq.files = fl->f;
	rq.n_files = fl->n;
	rq.removed = removed;
	rq.n_removed = nremoved;
	rq.base_tree = base;
	mirror_error_clear(err);
	return history_commit(r, &rq, err);
}

/* Commit the directory site at time t, as before lists existed. */
static int
commit_dir(struct history_result *r, const char *repo, const char *site,
    long t, mirror_error *err)
{
	struct history_request rq;

	request(&rq, repo, t);
	rq.site_dir = site;
	mirror_error_clear(err);
	return history_commit(r, &rq, err);
}

/* A project twin whose one fact k has value v. */
static void
put_project(const char *path, const char *slug, const char *v)
{
	char text[1024];

	assert_true((size_t)snprintf(text, sizeof(text), "{\"project\": "
	    "{\"slug\": \"%s\"}, \"f\": [{\"anchor\": \"state-s1\", "
	    "\"layer\": \"state\", \"id\": \"s1\", \"label\": \"k\", "
	    "\"value\": \"%s\", \"status\": \"active\"}]}\n", slug, v) <
	    sizeof(text));
	put(path, text);
}

/* A site of pages, JSON twins, a dotfile, an executable, deep trees. */
static void
make_site(const char *site)
{
	char p[4096];

#define PUT(rel, text) do { \
	assert_true((size_t)snprintf(p, sizeof(p), "%s/%s", site, rel) < \
	    sizeof(p)); \
	put(p, text); \
} while (0)
	PUT("index.md", "# Mirror\n");
	PUT("index.html", "<h1>Mirror</h1>\n");
	PUT(".nojekyll", "");
	PUT("a-b.md", "# a-b\n");
	PUT("a.md", "# a\n");
	PUT("a/x.md", "# a/x\n");
	PUT("projects/p1/index.md", "# p1\n\nk: ok\n");
	PUT("projects/p1/index.html", "<p>k: ok</p>\n");
	PUT("projects/p2/index.md", "# p2\n");
	PUT("deep/d1/d2/d3/leaf.md", "# leaf\n");
	PUT("deep/d1/d2/other.md", "# other\n");
	PUT("tools/run.sh", "#!/bin/sh\n");
#undef PUT
	assert_true((size_t)snprintf(p, sizeof(p), "%s/api/projects/p1.json",
	    site) < sizeof(p));
	put_project(p, "p1", "ok");
	assert_int_equal(scratch_sh("chmod 755 %s/tools/run.sh", site), 0);
}

static int
setup(void **state)
{
	(void)state;
	return gitcap_enter(root);
}

static int
teardown(void **state)
{
	(void)state;
	return chdir(cwd0);
}

/* The list and the directory make the same commits, tree_id included. */
static void
test_list_equals_dir(void **state)
{
	struct history_result a, b;
	struct flist fl;
	mirror_error err;

	(void)state;
	make_site("site");
	assert_int_equal(scratch_sh("git init -q --bare d.git && "
	    "git init -q --bare l.git"), 0);
	flist_of(&fl, "site", NULL);
	assert_int_equal(commit_dir(&a, "d.git", "site", T0, &err), 0);
	assert_int_equal(commit_list(&b, "l.git", &fl, NULL, 0, NULL, T0,
	    &err), 0);
	assert_int_equal(b.committed, 1);
	assert_string_equal(a.commit_id, b.commit_id);
	assert_string_equal(a.tree_id, b.tree_id);
	cap_is(b.tree_id, "git -C l.git rev-parse mirror^{tree}");
	assert_int_equal(b.files, 13);
	cap_is("100755 blob tools/run.sh", "git -C l.git ls-tree -r mirror | "
	    "awk '$4 ~ /run/ {print $1, $2, $4}'");
	flist_free(&fl);

	/* A fact changes: the message reads the new JSON from disk. */
	put_project("site/api/projects/p1.json", "p1", "better");
	flist_of(&fl, "site", NULL);
	assert_int_equal(commit_dir(&a, "d.git", "site", T0 + 1, &err), 0);
	assert_int_equal(commit_list(&b, "l.git", &fl, NULL, 0, NULL, T0 + 1,
	    &err), 0);
	assert_string_equal(a.commit_id, b.commit_id);
	cap_is("p1 k: ok \xe2\x86\x92 better",
	    "git -C l.git log -1 --format=%%s mirror");
	/* Nothing changed: no commit, and tree_id is the tip's tree. */
	assert_int_equal(commit_list(&b, "l.git", &fl, NULL, 0, NULL, T0 + 2,
	    &err), 0);
	assert_int_equal(b.committed, 0);
	assert_string_equal(b.commit_id, a.commit_id);
	cap_is(b.tree_id, "git -C l.git rev-parse mirror^{tree}");
	flist_free(&fl);
	assert_int_equal(scratch_sh("git -C l.git fsck --strict --no-dangling "
	    ">/dev/null 2>&1"), 0);
}

/* A file's bytes can be anywhere: the tree holds its path. */
static void
test_disk_elsewhere(void **state)
{
	struct history_result r;
	struct flist fl;
	mirror_error err;

	(void)state;
	memset(&fl, 0, sizeof(fl));
	assert_int_equal(scratch_sh("git init -q --bare repo.git && "
	    "mkdir store && echo one > store/1 && echo two > store/2"), 0);
	flist_add(&fl, "x/deep/one.md", "store/1", 1);
	flist_add(&fl, "y.md", "store/2", 1);
	assert_int_equal(commit_list(&r, "repo.git", &fl, NULL, 0, NULL, T0,
	    &err), 0);
	cap_is("x/deep/one.md\ny.md",
	    "git -C repo.git ls-tree -r --name-only mirror");
	cap_is("one", "git -C repo.git show mirror:x/deep/one.md");
	flist_free(&fl);
	/* An empty list (not NULL: that is site_dir) is the empty tree. */
	fl.f = xcalloc(1, sizeof(*fl.f));
	assert_int_equal(commit_list(&r, "repo.git", &fl, NULL, 0, NULL,
	    T0 + 1, &err), 0);
	assert_string_equal(r.tree_id,
	    "4b825dc642cb6eb9a060e54bf8d69288fbee4904");
	flist_free(&fl);
}

/* One list, one refusal: status and the words of its message. */
static void
refused(struct flist *fl, int status, const char *words)
{
	struct history_result r;
	mirror_error err;

	assert_int_equal(commit_list(&r, "repo.git", fl, NULL, 0, NULL, T0,
	    &err), status);
	if (strstr(err.msg, words) == NULL)
		fprintf(stderr, "message: %s\n", err.msg);
	assert_non_null(strstr(err.msg, words));
	assert_null(strchr(err.msg, '\n'));
	assert_string_equal(r.commit_id, "");
	flist_free(fl);
}

/* Symlinks, FIFOs, bad lists: refused, nothing written at all. */
static void
test_list_refusals(void **state)
{
	struct flist fl;

	(void)state;
	memset(&fl, 0, sizeof(fl));
	assert_int_equal(scratch_sh("git init -q --bare repo.git && "
	    "mkdir d && echo x > d/x && ln -s x d/link && mkfifo d/pipe"), 0);
	flist_add(&fl, "a.md", "d/x", 1);
	flist_add(&fl, "b.md", "d/link", 1);
	refused(&fl, -MIRROR_EINPUT, "d/link: a symbolic link");
	/* A FIFO is refused, not waited on. */
	flist_add(&fl, "pipe", "d/pipe", 1);
	refused(&fl, -MIRROR_EINPUT, "d/pipe: a special file");
	flist_add(&fl, "dir", "d", 1);
	refused(&fl, -MIRROR_EINPUT, "d: a directory");
	flist_add(&fl, "gone", "d/nosuch", 1);
	refused(&fl, -MIRROR_EIO, "d/nosuch: No such file");
	flist_add(&fl, "b", "d/x", 1);
	flist_add(&fl, "a", "d/x", 1);
	refused(&fl, -MIRROR_EUSAGE, "not sorted");
	flist_add(&fl, "a", "d/x", 1);
	flist_add(&fl, "a", "d/x", 1);
	refused(&fl, -MIRROR_EUSAGE, "each once");
	flist_add(&fl, "a", "d/x", 1);
	flist_add(&fl, "a/b", "d/x", 1);
	refused(&fl, -MIRROR_EINPUT, "a: both a file and a directory");
	flist_add(&fl, "p/.git/config", "d/x", 1);
	refused(&fl, -MIRROR_EINPUT, "p/.git: git does not allow this name");
	flist_add(&fl, "a//b", "d/x", 1);
	refused(&fl, -MIRROR_EINPUT, "\"a//b\" is not a file's path");
	flist_add(&fl, "/a", "d/x", 1);
	refused(&fl, -MIRROR_EINPUT, "\"/a\" is not");
	flist_add(&fl, "a/", "d/x", 1);
	refused(&fl, -MIRROR_EINPUT, "\"a/\" is not");
	flist_add(&fl, "", "d/x", 1);
	refused(&fl, -MIRROR_EINPUT, "\"\" is not");
	/* None of it wrote an object or made the branch. */
	cap_is("0", "find repo.git/objects -type f | wc -l");
	assert_int_equal(scratch_sh("git -C repo.git rev-parse -q --verify "
	    "mirror >/dev/null"), 1);
}

/* Many new files from a list: one pack that git verifies. */
static void
test_list_pack(void **state)
{
	struct history_result a, b;
	struct flist fl;
	mirror_error err;

	(void)state;
	assert_int_equal(scratch_sh("git init -q --bare l.git && "
	    "git init -q --bare d.git && mkdir -p site/p && i=0; "
	    "while [ $i -lt 150 ]; do printf '# %%d\\n' $i > site/p/$i.md; "
	    "i=$((i+1)); done && cp site/p/1.md site/p/dup.md"), 0);
	flist_of(&fl, "site", NULL);
	assert_int_equal(commit_list(&a, "l.git", &fl, NULL, 0, NULL, T0,
	    &err), 0);
	assert_int_equal(commit_dir(&b, "d.git", "site", T0, &err), 0);
	assert_string_equal(a.commit_id, b.commit_id);
	assert_int_equal(a.packed, 1);
	cap_is("0", "find l.git/objects -type f ! -path '*/pack/*' | wc -l");
	assert_int_equal(scratch_sh("git verify-pack l.git/objects/pack/*.idx "
	    ">/dev/null"), 0);
	assert_int_equal(scratch_sh("git -C l.git fsck --strict --full "
	    "--no-dangling >/dev/null 2>&1"), 0);
	flist_free(&fl);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_list_equals_dir, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_disk_elsewhere, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_list_refusals, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_list_pack, setup,
		    teardown),
	};
	int rc;

	if (mkdtemp(root) == NULL || getcwd(cwd0, sizeof(cwd0)) == NULL)
		return 1;
	gitcap_env(root);
	rc = cmocka_run_group_tests_name("history_incr", tests, NULL, NULL);
	return gitcap_finish(rc, root, cwd0);
}
