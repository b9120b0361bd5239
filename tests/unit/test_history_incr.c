/*
 * test_history_incr.c: history_commit given the site as a list of files
 * (history_request.files), judged by the git command line and against
 * the same site committed from its directory.
 *
 * Every test works in its own scratch directory under root; HOME is
 * gitcap_env's.
 * The promises of doc/history.md, "Objects and speed".
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

/* ---- incremental against full ------------------------------------ */

/*
 * From the commit of site in b.git (its tree base): commit the site as
 * it is now in full into f.git and as an edit (changed: the paths
 * marked changed, removed: the paths gone, both NULL-terminated) into
 * i.git, both copies of b.git, and assert the same commit: same tree,
 * same message; the edit made incrementally or not as said. Returns
 * whether a commit was made.
 */
static int
same_both_ways(const char *base, const char *const *changed,
    const char *const *removed, int incremental)
{
	struct history_result f, i;
	struct flist fl;
	mirror_error err;
	size_t nremoved = 0;

	while (removed != NULL && removed[nremoved] != NULL)
		nremoved++;
	assert_int_equal(scratch_sh("rm -rf f.git i.git && cp -R b.git f.git "
	    "&& cp -R b.git i.git"), 0);
	flist_of(&fl, "site", NULL);
	assert_int_equal(commit_list(&f, "f.git", &fl, NULL, 0, NULL, T0 + 9,
	    &err), 0);
	flist_free(&fl);
	flist_of(&fl, "site", changed);
	assert_int_equal(commit_list(&i, "i.git", &fl, removed, nremoved, base,
	    T0 + 9, &err), 0);
	flist_free(&fl);
	assert_int_equal(i.committed, f.committed);
	assert_string_equal(i.tree_id, f.tree_id);
	assert_string_equal(i.commit_id, f.commit_id);
	assert_int_equal(i.files_changed, f.files_changed);
	assert_int_equal(i.files, f.files);
	assert_int_equal(f.incremental, 0);
	assert_int_equal(i.incremental, incremental);
	return i.committed;
}

/* The first commit of site into b.git; its tree into base. */
static void
first_commit(char base[GIT_OID_HEXSZ + 1])
{
	struct history_result r;
	struct flist fl;
	mirror_error err;

	make_site("site");
	assert_int_equal(scratch_sh("git init -q --bare b.git"), 0);
	flist_of(&fl, "site", NULL);
	assert_int_equal(commit_list(&r, "b.git", &fl, NULL, 0, NULL, T0,
	    &err), 0);
	flist_free(&fl);
	memcpy(base, r.tree_id, GIT_OID_HEXSZ + 1);
}

/* Changes deep down, in words, and of a file's mode. */
static void
test_incr_changes(void **state)
{
	static const char *const deep[] = { "deep/d1/d2/d3/leaf.md",
	    "api/projects/p1.json", "tools/run.sh", NULL };
	char base[GIT_OID_HEXSZ + 1];

	(void)state;
	first_commit(base);
	put("site/deep/d1/d2/d3/leaf.md", "# leaf, changed\n");
	put_project("site/api/projects/p1.json", "p1", "better");
	assert_int_equal(scratch_sh("chmod 644 site/tools/run.sh"), 0);
	assert_int_equal(same_both_ways(base, deep, NULL, 1), 1);
	cap_is("p1 k: ok \xe2\x86\x92 better",
	    "git -C i.git log -1 --format=%%s mirror");
	cap_is("M\tapi/projects/p1.json\nM\tdeep/d1/d2/d3/leaf.md\n"
	    "M\ttools/run.sh", "git -C i.git diff --name-status mirror~1 "
	    "mirror");
	/* The subtrees no change is under keep their ids. */
	cap_is("", "git -C i.git diff --name-only mirror~1 mirror -- "
	    "projects a");
}

/* Added in new directories, removed until directories are empty. */
static void
test_incr_add_remove(void **state)
{
	static const char *const added[] = { "new/dir/x.md", "new/y.md",
	    NULL };
	static const char *const gone[] = { "deep/d1/d2/d3/leaf.md",
	    "projects/p2/index.md", NULL };
	char base[GIT_OID_HEXSZ + 1];

	(void)state;
	first_commit(base);
	assert_int_equal(scratch_sh("mkdir -p site/new/dir && echo x > "
	    "site/new/dir/x.md && echo y > site/new/y.md && "
	    "rm -r site/deep/d1/d2/d3 site/projects/p2"), 0);
	assert_int_equal(same_both_ways(base, added, gone, 1), 1);
	/* As git does: the emptied directories are gone. */
	cap_is("deep/d1/d2/other.md\nnew/dir/x.md\nnew/y.md\n"
	    "projects/p1/index.html\nprojects/p1/index.md",
	    "git -C i.git ls-tree -r --name-only mirror | "
	    "grep -E '^(deep|new|projects)/'");
	cap_is("", "git -C i.git ls-tree -r -d --name-only mirror | "
	    "grep -E 'd3|p2'");
	assert_int_equal(scratch_sh("git -C i.git fsck --strict --no-dangling "
	    ">/dev/null 2>&1"), 0);
}

/* A file becomes a directory, a directory a file. */
static void
test_incr_file_dir_swap(void **state)
{
	static const char *const changed[] = { "a", "a.md/inner.md", NULL };
	static const char *const gone[] = { "a.md", "a/x.md", NULL };
	char base[GIT_OID_HEXSZ + 1];

	(void)state;
	first_commit(base);
	assert_int_equal(scratch_sh("rm -r site/a site/a.md && echo now-a-file "
	    "> site/a && mkdir site/a.md && echo in > site/a.md/inner.md"), 0);
	assert_int_equal(same_both_ways(base, changed, gone, 1), 1);
	cap_is("100644 blob a\n040000 tree a.md",
	    "git -C i.git ls-tree mirror | awk '$4 ~ /^a(\\.md)?$/ "
	    "{print $1, $2, $4}'");
}

/* A file marked changed that is not: no change, maybe no commit. */
static void
test_incr_identical(void **state)
{
	static const char *const same[] = { "index.md", "a/x.md", NULL };
	static const char *const one[] = { "index.md", "a-b.md", NULL };
	struct history_result r;
	struct flist fl;
	char base[GIT_OID_HEXSZ + 1];
	mirror_error err;

	(void)state;
	first_commit(base);
	assert_int_equal(same_both_ways(base, same, NULL, 1), 0);
	flist_of(&fl, "site", same);
	assert_int_equal(commit_list(&r, "i.git", &fl, NULL, 0, base, T0 + 9,
	    &err), 0);
	assert_int_equal(r.committed, 0);
	assert_string_equal(r.tree_id, base);
	flist_free(&fl);
	/* With one real change beside it: only that one is named. */
	put("site/a-b.md", "# a-b, changed\n");
	assert_int_equal(same_both_ways(base, one, NULL, 1), 1);
	cap_is("M\ta-b.md", "git -C i.git diff --name-status mirror~1 mirror");
	cap_is("1 conflict opened; 1 page changed",
	    "git -C i.git log -1 --format=%%s mirror");
}

/*
 * The base is not the tip (the branch moved, the output directory was
 * built without the repository), or the lists contradict it: the
 * commit is made in full, and right.
 */
static void
test_incr_not_the_tip(void **state)
{
	static const char *const none[] = { NULL };
	static const char *const ghost[] = { "never/was.md", NULL };
	char base[GIT_OID_HEXSZ + 1];
	struct history_result r;
	struct flist fl;
	mirror_error err;

	(void)state;
	first_commit(base);
	/* The branch moves on: base is now the tip's parent's tree. */
	put("site/index.md", "# Mirror, moved\n");
	flist_of(&fl, "site", NULL);
	assert_int_equal(commit_list(&r, "b.git", &fl, NULL, 0, NULL, T0 + 1,
	    &err), 0);
	flist_free(&fl);
	/* Nothing marked changed: an edit of base would miss both. */
	put("site/index.md", "# Mirror, again\n");
	put("site/a-b.md", "# a-b, changed\n");
	assert_int_equal(same_both_ways(base, none, NULL, 0), 1);
	cap_is("M\ta-b.md\nM\tindex.md",
	    "git -C i.git diff --name-status mirror~1 mirror");
	/* Garbage for a base: the same. */
	assert_int_equal(same_both_ways("not-a-tree-id", none, NULL, 0), 1);
	/* A removed path the base lacks: not an edit of it, in full. */
	assert_int_equal(scratch_sh("git -C b.git rev-parse mirror^{tree} "
	    ">tip"), 0);
	{
		char *tip = cap("cat tip");

		assert_int_equal(same_both_ways(tip, none, ghost, 0), 1);
		free(tip);
	}
}

/* An edit reads the changed files only; in full every file is read. */
static void
test_incr_reads_changed_only(void **state)
{
	char base[GIT_OID_HEXSZ + 1], disk[4096];
	struct history_result r;
	struct flist fl, moved;
	mirror_error err;

	(void)state;
	first_commit(base);
	put("site/a-b.md", "# a-b, changed\n");
	flist_of(&fl, "site", NULL);
	memset(&moved, 0, sizeof(moved));
	for (size_t i = 0; i < fl.n; i++) {
		int changed = strcmp(fl.f[i].path, "a-b.md") == 0;

		assert_true((size_t)snprintf(disk, sizeof(disk), "%s%s",
		    changed ? "site/" : "nowhere/", fl.f[i].path) <
		    sizeof(disk));
		flist_add(&moved, fl.f[i].path, disk, changed);
	}
	flist_free(&fl);
	assert_int_equal(scratch_sh("cp -R b.git i.git && cp -R b.git f.git"),
	    0);
	assert_int_equal(commit_list(&r, "f.git", &moved, NULL, 0, NULL,
	    T0 + 9, &err), -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "nowhere/"));
	assert_non_null(strstr(err.msg, "No such file"));
	assert_int_equal(commit_list(&r, "i.git", &moved, NULL, 0, base,
	    T0 + 9, &err), 0);
	assert_int_equal(r.committed, 1);
	assert_int_equal(r.incremental, 1);
	assert_int_equal(r.new_blobs, 1);
	cap_is("M\ta-b.md", "git -C i.git diff --name-status mirror~1 mirror");
	flist_free(&moved);
}

/* A symlink or a FIFO as a changed file's disk, a path both kept and
 * removed: refused, no commit. */
static void
test_incr_refusals(void **state)
{
	char base[GIT_OID_HEXSZ + 1], *tip;
	struct history_result r;
	struct flist fl;
	mirror_error err;

	(void)state;
	first_commit(base);
	tip = cap("git -C b.git rev-parse mirror");
	for (int k = 0; k < 2; k++) {
		assert_int_equal(scratch_sh("rm -f site/a-b.md && %s",
		    k == 0 ? "ln -s index.md site/a-b.md" :
		    "mkfifo site/a-b.md"), 0);
		{
			static const char *const c[] = { "a-b.md", NULL };

			flist_of(&fl, "site", c);
		}
		assert_int_equal(commit_list(&r, "b.git", &fl, NULL, 0, base,
		    T0 + 9, &err), -MIRROR_EINPUT);
		assert_non_null(strstr(err.msg, k == 0 ?
		    "site/a-b.md: a symbolic link" :
		    "site/a-b.md: a special file"));
		flist_free(&fl);
		cap_is(tip, "git -C b.git rev-parse mirror");
	}
	/* A path both in the site and removed. */
	{
		static const char *const c[] = { "index.md", NULL };
		static const char *const twice[] = { "index.md" };

		flist_of(&fl, "site", c);
		assert_int_equal(commit_list(&r, "b.git", &fl, twice, 1, base,
		    T0 + 9, &err), -MIRROR_EUSAGE);
		assert_non_null(strstr(err.msg, "\"index.md\" is named twice"));
		flist_free(&fl);
	}
	cap_is(tip, "git -C b.git rev-parse mirror");
	cap_is("", "ls b.git/objects/pack | grep tmp_");
	free(tip);
}

/* Streamed packs: valid, the same on one thread or many, and edits
 * of a packed tree. */
static void
test_incr_stream_pack(void **state)
{
	static const char *const one[] = { "p/7.md", NULL };
	struct history_result a, b;
	struct flist fl;
	mirror_error err;
	char *s;

	(void)state;
	assert_int_equal(scratch_sh("git init -q --bare b.git && "
	    "git init -q --bare one.git && git init -q --bare d.git && "
	    "mkdir -p site/p site/q && i=0; "
	    "while [ $i -lt 300 ]; do printf '# %%d\\n' $i > site/p/$i.md; "
	    "printf '<p>%%d</p>\\n' $i > site/q/$i.html; i=$((i+1)); done && "
	    "head -c 3000000 /dev/urandom > site/big.bin && "
	    "cp site/p/1.md site/p/dup.md"), 0);
	flist_of(&fl, "site", NULL);
	assert_int_equal(commit_list(&a, "b.git", &fl, NULL, 0, NULL, T0,
	    &err), 0);
	setenv("MIRROR_JOBS", "1", 1);
	assert_int_equal(commit_list(&b, "one.git", &fl, NULL, 0, NULL, T0,
	    &err), 0);
	unsetenv("MIRROR_JOBS");
	flist_free(&fl);
	assert_int_equal(a.packed, 1);
	/* The duplicate counts as new, once stored. */
	assert_int_equal(a.new_blobs, 602);
	assert_int_equal(commit_dir(&b, "d.git", "site", T0, &err), 0);
	assert_string_equal(a.commit_id, b.commit_id);
	cap_is("0", "find b.git/objects -type f ! -path '*/pack/*' | wc -l");
	cap_is(s = cap("cd b.git/objects/pack && ls *.pack"),
	    "cd one.git/objects/pack && ls *.pack");
	free(s);
	/* 601 blobs, 3 trees, 1 commit; git's index is ours, byte for
	 * byte; fsck reads every object. */
	cap_is("605", "git verify-pack -v b.git/objects/pack/*.idx | "
	    "grep -cE '^[0-9a-f]{40} (blob|tree|commit) '");
	assert_int_equal(scratch_sh("cp b.git/objects/pack/*.pack check.pack "
	    "&& git index-pack check.pack >/dev/null && "
	    "cmp check.idx b.git/objects/pack/*.idx"), 0);
	assert_int_equal(scratch_sh("git -C b.git fsck --strict --full "
	    "--no-dangling >/dev/null 2>&1"), 0);
	cap_is("", "git -C b.git cat-file blob mirror:big.bin | "
	    "cmp - site/big.bin");
	/* One change as an edit: loose, its trees too. */
	put("site/p/7.md", "# seven\n");
	flist_of(&fl, "site", one);
	assert_int_equal(commit_list(&b, "b.git", &fl, NULL, 0, a.tree_id,
	    T0 + 1, &err), 0);
	flist_free(&fl);
	assert_int_equal(b.packed, 0);
	assert_int_equal(b.new_blobs, 1);
	/* The blob, two trees, the commit. */
	cap_is("4", "find b.git/objects -type f ! -path '*/pack/*' | "
	    "grep -c .");
	assert_int_equal(b.incremental, 1);
	cap_is("M\tp/7.md", "git -C b.git diff --name-status mirror~1 mirror");
	assert_int_equal(scratch_sh("git -C b.git fsck --strict --full "
	    "--no-dangling >/dev/null 2>&1"), 0);
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
		cmocka_unit_test_setup_teardown(test_incr_changes, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_incr_add_remove, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_incr_file_dir_swap, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_incr_identical, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_incr_not_the_tip, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_incr_reads_changed_only, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_incr_refusals, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_incr_stream_pack, setup,
		    teardown),
	};
	int rc;

	if (mkdtemp(root) == NULL || getcwd(cwd0, sizeof(cwd0)) == NULL)
		return 1;
	gitcap_env(root);
	rc = cmocka_run_group_tests_name("history_incr", tests, NULL, NULL);
	return gitcap_finish(rc, root, cwd0);
}
