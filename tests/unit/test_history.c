/*
 * test_history.c: committing a site with history_commit, judged by the
 * git command line (rev-list, ls-tree, diff, fsck --strict, reflog,
 * interpret-trailers, verify-pack), on repositories made by 'git init'.
 *
 * Every test works in its own scratch directory. HOME points at a
 * directory whose .gitconfig names a "Global Person": mirror must never
 * read it (its identity comes from the author or the repository).
 * The promises of doc/history.md, "Moving the branch".
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
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "scratch.h"
#include "gitcap.h"

#include "git/git_message.h"
#include "git/git_ref.h"
#include "git/git_repo.h"
#include "git/git_sig.h"
#include "git/history.h"
#include "util/error.h"
#include "util/strbuf.h"

#define AUTHOR "Mirror Bot <mirror@example.org>"
#define T0 1700000000L

static char root[] = "/tmp/mirror-history.XXXXXX";
static char cwd0[4096];


/* A small site: twins, JSON, a dotfile, nested directories. */
static void
make_site(const char *site)
{
	char p[4096];

#define PUT(rel, text) do { \
	snprintf(p, sizeof(p), "%s/%s", site, rel); \
	put(p, text); \
} while (0)
	PUT("index.md", "# Mirror\n\n- p05: 3 facts\n");
	PUT("index.html", "<h1>Mirror</h1>\n<ul><li>p05: 3 facts</li></ul>\n");
	PUT(".nojekyll", "");
	PUT("404.html", "<p>not here</p>\n");
	PUT("api/health.json", "{\"open_conflicts_count\": 1}\n");
	PUT("projects/p05/index.md", "# p05\n\nmaterial: GF-PTFE\nmass: 4.8 kg\n"
	    "heat: 20 W\n");
	PUT("projects/p05/index.html", "<h1>p05</h1>\n<p>material: GF-PTFE</p>\n"
	    "<p>mass: 4.8 kg</p>\n<p>heat: 20 W</p>\n");
	PUT("conflicts/index.md", "# Conflicts\n\n- c1 open\n");
	PUT("conflicts/index.html", "<h1>Conflicts</h1>\n<p>c1 open</p>\n");
	PUT("themes/default/assets/css/site.css", "body { color: #222; }\n");
#undef PUT
}

static int
commit_at(struct history_result *r, const char *repo, const char *site,
    const char *author, long t, mirror_error *err)
{
	struct history_request rq;

	memset(&rq, 0, sizeof(rq));
	rq.repo_path = repo;
	rq.branch = "mirror";
	rq.site_dir = site;
	rq.author = author;
	rq.have_time = 1;
	rq.time = (time_t)t;
	rq.conflicts_opened = 2;
	rq.conflicts_closed = 1;
	rq.sweep_run_id = "run-20231114-0001";
	rq.store_checksum = "9f86d081884c7d65";
	mirror_error_clear(err);
	return history_commit(r, &rq, err);
}

/* history_file by strcmp of path: the order history_request wants. */
static int
cmp_file_path(const void *a, const void *b)
{
	return strcmp(((const struct history_file *)a)->path,
	    ((const struct history_file *)b)->path);
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
	history_test_before_update = NULL;
	history_test_before_update_arg = NULL;
	return chdir(cwd0);
}

/* ---- pure parts -------------------------------------------------- */

/* Subject in words, twins counted once, trailers last. */
static void
test_message_words(void **state)
{
	const struct mgit_change ch[] = {
		{ "404.html", MGIT_CHANGED },
		{ "api/health.json", MGIT_CHANGED },
		{ "conflicts/c2.html", MGIT_ADDED },
		{ "conflicts/c2.md", MGIT_ADDED },
		{ "conflicts/index.html", MGIT_CHANGED },
		{ "conflicts/index.md", MGIT_CHANGED },
		{ "old.html", MGIT_REMOVED },
		{ "old.md", MGIT_REMOVED },
		{ "projects/p05/index.md", MGIT_CHANGED },
		{ "projects/p06/index.md", MGIT_ADDED },
		{ "projects/p06/index.html", MGIT_CHANGED },
	};
	struct mgit_counts c;
	mirror_error err;
	strbuf sb;

	(void)state;
	strbuf_init(&sb);
	assert_int_equal(mgit_message(&sb, &c, &(struct mgit_message_in){
	    .ch = ch, .n = 11, .changes = "2 conflicts opened, " "1 resolved",
	    .run_id = "run-7", .checksum = "abc123" }, &err), 0);
	assert_string_equal(sb.data,
	    "2 conflicts opened, 1 resolved; 4 pages changed, 1 added, "
	    "1 removed\n"
	    "\n"
	    "Pages added:\n"
	    "  conflicts/c2\n"
	    "Pages changed:\n"
	    "  404\n"
	    "  conflicts/index\n"
	    "  projects/p05/index\n"
	    "  projects/p06/index\n"
	    "Pages removed:\n"
	    "  old\n"
	    "\n"
	    "Mirror-Sweep-Run: run-7\n"
	    "Mirror-Store-Checksum: abc123\n");
	assert_int_equal(c.pages_added, 1);
	assert_int_equal(c.pages_changed, 4);
	assert_int_equal(c.pages_removed, 1);
	assert_int_equal(c.files_changed, 11);
	strbuf_free(&sb);
}

/* No fact words, only other files, singulars, no trailers. */
static void
test_message_edges(void **state)
{
	const struct mgit_change json[] = { { "api/health.json", 'M' } };
	const struct mgit_change one[] = { { "index.md", MGIT_REMOVED } };
	const struct mgit_change two[] = { { "a.json", 'M' }, { "b.css", 'A' } };
	struct mgit_counts c;
	mirror_error err;
	strbuf sb;

	(void)state;
	strbuf_init(&sb);
	assert_int_equal(mgit_message(&sb, &c, &(struct mgit_message_in){
	    .ch = json, .n = 1 }, &err), 0);
	assert_string_equal(sb.data, "1 file changed\n");
	strbuf_reset(&sb);
	assert_int_equal(mgit_message(&sb, &c, &(struct mgit_message_in){
	    .ch = two, .n = 2, .changes = "", .run_id = "r" }, &err),
	    0);
	assert_string_equal(sb.data, "2 files changed\n\nMirror-Sweep-Run: r\n");
	strbuf_reset(&sb);
	assert_int_equal(mgit_message(&sb, &c, &(struct mgit_message_in){
	    .ch = one, .n = 1, .changes = "1 conflict closed", .checksum = "x"
	    }, &err), 0);
	assert_string_equal(sb.data, "1 conflict closed; 1 page removed\n\n"
	    "Pages removed:\n  index\n\nMirror-Store-Checksum: x\n");
	strbuf_reset(&sb);
	/* Store text cannot break the subject or forge a trailer. */
	strbuf_reset(&sb);
	assert_int_equal(mgit_message(&sb, &c, &(struct mgit_message_in){
	    .ch = json, .n = 1, .changes = "a\nMirror-Sweep-" "Run: forged" },
	    &err), 0);
	assert_string_equal(sb.data, "a Mirror-Sweep-Run: forged; 1 file "
	    "changed\n");
	/* Blank words are no words. */
	strbuf_reset(&sb);
	assert_int_equal(mgit_message(&sb, &c, &(struct mgit_message_in){
	    .ch = json, .n = 1, .changes = " \n " }, &err), 0);
	assert_string_equal(sb.data, "1 file changed\n");
	strbuf_reset(&sb);
	assert_int_equal(mgit_message(&sb, &c, &(struct mgit_message_in){
	    .ch = json, .n = 0, .changes = "" }, &err), 0);
	assert_string_equal(sb.data, "no change\n");
	assert_int_equal(mgit_message(&sb, &c, &(struct mgit_message_in){
	    .ch = json, .n = 1, .run_id = "a\nb", .checksum = "x" }, &err),
	    -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "trailer"));
	strbuf_free(&sb);
}

/* Sweep counts in words, for the subject. */
static void
test_sweep_words(void **state)
{
	static const struct {
		long long o, r, m;
		const char *want;
	} cases[] = {
		{ 2, 1, 0, "2 conflicts opened, 1 resolved" },
		{ 1, 0, 0, "1 conflict opened" },
		{ 0, 1, 0, "1 conflict resolved" },
		{ 0, 3, 1, "3 conflicts resolved, 1 member added" },
		{ 1, 2, 3, "1 conflict opened, 2 resolved, 3 members added" },
		{ 0, 0, 2, "2 members added" },
		{ 0, 0, 0, "" },
	};
	strbuf sb;

	(void)state;
	strbuf_init(&sb);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf_reset(&sb);
		mgit_sweep_words(&sb, cases[i].o, cases[i].r, cases[i].m);
		assert_string_equal(sb.data, cases[i].want);
	}
	strbuf_free(&sb);
}

/* The body lists at most MGIT_MESSAGE_LIST_MAX pages. */
static void
test_message_cap(void **state)
{
	struct mgit_change ch[120];
	char names[120][32];
	struct mgit_counts c;
	mirror_error err;
	strbuf sb;
	size_t lines = 0;

	(void)state;
	for (int i = 0; i < 120; i++) {
		snprintf(names[i], sizeof(names[i]), "p/%03d.md", i);
		ch[i].path = names[i];
		ch[i].kind = MGIT_ADDED;
	}
	strbuf_init(&sb);
	assert_int_equal(mgit_message(&sb, &c, &(struct mgit_message_in){
	    .ch = ch, .n = 120 }, &err), 0);
	for (const char *p = sb.data; (p = strstr(p, "\n  p/")) != NULL; p++)
		lines++;
	assert_int_equal(lines, MGIT_MESSAGE_LIST_MAX);
	assert_non_null(strstr(sb.data, "  ... and 70 more\n"));
	assert_true(strncmp(sb.data, "120 pages added\n", 16) == 0);
	strbuf_free(&sb);
}

static void
test_author_parse(void **state)
{
	static const char *const bad[] = {
		"Mirror Bot", "<a@b>", "Name <>", "Name a@b>", "Name <a@b",
		"Name <a@b> x", "Na<me <a@b>", "Name <a<b>", "Name\n<a@b>",
		"Name <a@b>>", "", "  <a@b>",
	};
	char *name, *email;
	mirror_error err;

	(void)state;
	assert_int_equal(mgit_parse_author(&name, &email,
	    "  Mirror Bot   < bot@example.org >  ", &err), 0);
	assert_string_equal(name, "Mirror Bot");
	assert_string_equal(email, "bot@example.org");
	free(name);
	free(email);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(mgit_parse_author(&name, &email, bad[i],
		    &err), -MIRROR_EUSAGE);
		assert_null(name);
		assert_null(email);
		assert_non_null(strstr(err.msg, "--author"));
		assert_null(strchr(err.msg, '\n'));
	}
}

static void
test_branch_names(void **state)
{
	static const char *const bad[] = {
		"", "a..b", "a b", "-x", "x.lock", "a~1", "a^", "a:b", "a?",
		"a*", "a[", "/a", "a/", "a//b", "@{x", "HEAD", "a\\b",
	};
	char ref[MGIT_REFNAME_MAX];
	mirror_error err;

	(void)state;
	assert_int_equal(mgit_init(&err), 0);
	assert_int_equal(mgit_branch_refname(ref, "mirror", &err), 0);
	assert_string_equal(ref, "refs/heads/mirror");
	assert_int_equal(mgit_branch_refname(ref, "site/prod-1", &err), 0);
	assert_string_equal(ref, "refs/heads/site/prod-1");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(mgit_branch_refname(ref, bad[i], &err),
		    -MIRROR_EUSAGE);
		assert_non_null(strstr(err.msg, "--branch"));
	}
	mgit_shutdown();
}

/* ---- commits judged by git ---------------------------------------- */

/* First build: a root commit on a new branch of a bare repository. */
static void
test_first_commit_bare(void **state)
{
	struct history_result r;
	mirror_error err;
	char *s;

	(void)state;
	make_site("site");
	assert_int_equal(scratch_sh("git init -q --bare repo.git"), 0);
	assert_int_equal(commit_at(&r, "repo.git", "site", AUTHOR, T0, &err),
	    0);
	assert_int_equal(r.committed, 1);
	assert_int_equal(strlen(r.commit_id), 40);
	cap_is(r.commit_id, "git -C repo.git rev-parse mirror");
	cap_is("1", "git -C repo.git rev-list --count mirror");
	cap_is("", "git -C repo.git log -1 --format=%%P mirror");
	/* The tree is exactly the site: dotfile and nested dirs included. */
	cap_is(".nojekyll\n404.html\napi/health.json\nconflicts/index.html\n"
	    "conflicts/index.md\nindex.html\nindex.md\n"
	    "projects/p05/index.html\nprojects/p05/index.md\n"
	    "themes/default/assets/css/site.css",
	    "git -C repo.git ls-tree -r --name-only mirror");
	/* ... and the same list as find(1) gives. */
	cap_is("", "git -C repo.git ls-tree -r --name-only mirror > ls && "
	    "cd site && find . -type f | sed 's|^./||' | LC_ALL=C sort | "
	    "diff - ../ls");
	cap_is("# p05\n\nmaterial: GF-PTFE\nmass: 4.8 kg\nheat: 20 W",
	    "git -C repo.git show mirror:projects/p05/index.md");
	assert_int_equal(scratch_sh("git -C repo.git fsck --strict --no-dangling "
	    ">fsck.out 2>&1"), 0);
	cap_is("", "grep -v '^notice: HEAD points to an unborn' fsck.out");
	cap_is("2 conflicts opened, 1 resolved; 4 pages added",
	    "git -C repo.git log -1 --format=%%s mirror");
	cap_is("Mirror-Sweep-Run: run-20231114-0001\n"
	    "Mirror-Store-Checksum: 9f86d081884c7d65",
	    "git -C repo.git log -1 --format=%%B mirror | "
	    "git interpret-trailers --parse");
	cap_is("Mirror Bot <mirror@example.org> 1700000000 +0000|"
	    "Mirror Bot <mirror@example.org> 1700000000 +0000",
	    "git -C repo.git log -1 --format='%%an <%%ae> %%at %%ad|"
	    "%%cn <%%ce> %%ct %%cd' --date=format:%%z mirror");
	/* Reflogs were enabled on the bare repository, and used. */
	cap_is("true", "git -C repo.git config core.logAllRefUpdates");
	s = cap("git -C repo.git reflog show --format='%%H %%gs' mirror");
	assert_true(strncmp(s, r.commit_id, 40) == 0);
	assert_non_null(strstr(s, " mirror: build (initial): 2 conflicts "
	    "opened, 1 resolved; 4 pages added"));
	free(s);
	assert_int_equal(r.pages_added, 4);
	assert_int_equal(r.files_changed, 10);
	assert_int_equal(r.files, 10);
	assert_int_equal(r.packed, 0);
}

/* Unchanged site: no commit; changed: one commit, diff line by line. */
static void
test_unchanged_then_changed(void **state)
{
	struct history_result r1, r2, r3;
	mirror_error err;
	char *objs_before, *objs_after;

	(void)state;
	make_site("site");
	assert_int_equal(scratch_sh("git init -q --bare repo.git"), 0);
	assert_int_equal(commit_at(&r1, "repo.git", "site", AUTHOR, T0, &err),
	    0);
	objs_before = cap("cd repo.git && find objects -type f | sort");
	assert_int_equal(commit_at(&r2, "repo.git", "site", AUTHOR, T0 + 60,
	    &err), 0);
	assert_int_equal(r2.committed, 0);
	assert_string_equal(r2.commit_id, r1.commit_id);
	cap_is("1", "git -C repo.git rev-list --count mirror");
	cap_is("1", "git -C repo.git reflog show mirror | wc -l");
	objs_after = cap("cd repo.git && find objects -type f | sort");
	assert_string_equal(objs_before, objs_after);
	free(objs_before);
	free(objs_after);

	/* One fact changes in both twins; one page goes, one comes. */
	put("site/projects/p05/index.md", "# p05\n\nmaterial: PEEK\n"
	    "mass: 4.8 kg\nheat: 20 W\n");
	put("site/projects/p05/index.html", "<h1>p05</h1>\n<p>material: "
	    "PEEK</p>\n<p>mass: 4.8 kg</p>\n<p>heat: 20 W</p>\n");
	assert_int_equal(scratch_sh("rm site/404.html && mkdir -p site/conflicts && "
	    "echo '# c9' > site/conflicts/c9.md"), 0);
	assert_int_equal(commit_at(&r3, "repo.git", "site", AUTHOR, T0 + 120,
	    &err), 0);
	assert_int_equal(r3.committed, 1);
	cap_is("2", "git -C repo.git rev-list --count mirror");
	cap_is(r1.commit_id, "git -C repo.git rev-parse mirror~1");
	cap_is("A\tconflicts/c9.md\nD\t404.html\n"
	    "M\tprojects/p05/index.html\nM\tprojects/p05/index.md",
	    "git -C repo.git diff --name-status %s %s | LC_ALL=C sort",
	    r1.commit_id, r3.commit_id);
	/* A one-fact change is a one-line change, not a rewritten page. */
	cap_is("-material: GF-PTFE\n+material: PEEK",
	    "git -C repo.git diff -U0 %s %s -- projects/p05/index.md | "
	    "grep '^[-+][^-+]'", r1.commit_id, r3.commit_id);
	cap_is("2 conflicts opened, 1 resolved; 1 page changed, 1 added, "
	    "1 removed", "git -C repo.git log -1 --format=%%s mirror");
	cap_is("Pages added:\n  conflicts/c9\nPages changed:\n"
	    "  projects/p05/index\nPages removed:\n  404",
	    "git -C repo.git log -1 --format=%%b mirror | sed -n '/^Pages/,/^$/p'"
	    " | sed '/^$/d'");
	assert_int_equal(r3.pages_added, 1);
	assert_int_equal(r3.pages_changed, 1);
	assert_int_equal(r3.pages_removed, 1);
	assert_int_equal(r3.files_changed, 4);
	cap_is("2", "git -C repo.git reflog show mirror | wc -l");
	assert_int_equal(scratch_sh("git -C repo.git fsck --strict --no-dangling "
	    ">/dev/null 2>&1"), 0);
}

/* A non-bare repository: its work tree, index and HEAD stay as they are. */
static void
test_nonbare_untouched(void **state)
{
	struct history_result r;
	mirror_error err;
	char *status0, *status1, *idx0, *idx1, *files0, *files1, *cfg0;

	(void)state;
	make_site("site");
	assert_int_equal(scratch_sh("git init -q -b main work && cd work && "
	    "echo hello > README && echo draft > notes && git add README && "
	    "git commit -qm init && echo edit >> README && "
	    "echo staged > new && git add new"), 0);
	status0 = cap("git -C work status --porcelain=v1 --untracked=all");
	idx0 = cap("sha256sum work/.git/index");
	cfg0 = cap("cat work/.git/config work/.git/HEAD");
	files0 = cap("cd work && find . -path ./.git -prune -o -type f "
	    "-print | LC_ALL=C sort | xargs sha256sum");
	assert_int_equal(commit_at(&r, "work", "site", AUTHOR, T0, &err), 0);
	assert_int_equal(r.committed, 1);
	status1 = cap("git -C work status --porcelain=v1 --untracked=all");
	idx1 = cap("sha256sum work/.git/index");
	files1 = cap("cd work && find . -path ./.git -prune -o -type f "
	    "-print | LC_ALL=C sort | xargs sha256sum");
	assert_string_equal(status0, status1);
	assert_string_equal(idx0, idx1);
	assert_string_equal(files0, files1);
	cap_is("refs/heads/main", "git -C work symbolic-ref HEAD");
	cap_is(r.commit_id, "git -C work rev-parse mirror");
	cap_is("1", "git -C work reflog show mirror | wc -l");
	/* Config and HEAD are untouched. */
	cap_is(cfg0, "cat work/.git/config work/.git/HEAD");
	free(cfg0);
	assert_int_equal(scratch_sh("git -C work fsck --strict --no-dangling "
	    ">/dev/null 2>&1"), 0);
	free(status0);
	free(status1);
	free(idx0);
	free(idx1);
	free(files0);
	free(files1);
}

/* The branch checked out in a work tree is refused, born or not. */
static void
test_checked_out_refused(void **state)
{
	struct history_result r;
	mirror_error err;
	char *before;

	(void)state;
	make_site("site");
	/* Unborn: 'git init -b mirror' and nothing committed yet. */
	assert_int_equal(scratch_sh("git init -q -b mirror fresh"), 0);
	assert_int_equal(commit_at(&r, "fresh", "site", AUTHOR, T0, &err),
	    -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "refs/heads/mirror is checked out"));
	assert_non_null(strstr(err.msg, "--branch"));
	assert_int_equal(scratch_sh("git -C fresh rev-parse -q --verify mirror "
	    ">/dev/null"), 1);
	/* Born. */
	assert_int_equal(scratch_sh("git init -q -b mirror work && cd work && "
	    "echo x > x && git add x && git commit -qm x"), 0);
	before = cap("git -C work rev-parse mirror");
	assert_int_equal(commit_at(&r, "work", "site", AUTHOR, T0, &err),
	    -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "checked out"));
	cap_is(before, "git -C work rev-parse mirror");
	cap_is("", "git -C work status --porcelain");
	free(before);
	/* Checked out in a linked work tree of a bare repository. */
	assert_int_equal(scratch_sh("git clone -q --bare work bare.git && "
	    "git -C bare.git worktree add -q ../linked mirror"), 0);
	assert_int_equal(commit_at(&r, "bare.git", "site", AUTHOR, T0, &err),
	    -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "linked"));
	/* Another branch of the same repository is fine. */
	assert_int_equal(scratch_sh("git -C bare.git branch -q other mirror"), 0);
	{
		struct history_request rq;

		memset(&rq, 0, sizeof(rq));
		rq.repo_path = "work";
		rq.branch = "site";
		rq.site_dir = "site";
		rq.author = AUTHOR;
		assert_int_equal(history_commit(&r, &rq, &err), 0);
		assert_int_equal(r.committed, 1);
		cap_is(r.commit_id, "git -C work rev-parse site");
	}
}

/* Opened through a linked work tree: every checkout still counts. */
static void
test_through_linked_worktree(void **state)
{
	struct history_request rq;
	struct history_result r;
	mirror_error err;

	(void)state;
	make_site("site");
	assert_int_equal(scratch_sh("git init -q -b main work && cd work && "
	    "echo x > x && git add x && git commit -qm x && "
	    "git worktree add -q -b feature ../linked"), 0);
	memset(&rq, 0, sizeof(rq));
	rq.repo_path = "linked";
	rq.site_dir = "site";
	rq.author = AUTHOR;
	rq.branch = "main";
	assert_int_equal(history_commit(&r, &rq, &err), -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "refs/heads/main is checked out"));
	rq.branch = "feature";
	assert_int_equal(history_commit(&r, &rq, &err), -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "refs/heads/feature is checked out"));
	rq.branch = "mirror";
	assert_int_equal(history_commit(&r, &rq, &err), 0);
	assert_int_equal(r.committed, 1);
	/* Branches are shared: the main checkout sees it. */
	cap_is(r.commit_id, "git -C work rev-parse mirror");
	cap_is("", "git -C work status --porcelain; "
	    "git -C linked status --porcelain");
}

/* Compare and swap, called directly with a stale old value. */
static void
test_cas_direct(void **state)
{
	git_repository *repo = NULL;
	git_oid a, b, c;
	mirror_error err;
	char *s;

	(void)state;
	assert_int_equal(scratch_sh("git init -q --bare r.git && "
	    "t=$(git -C r.git hash-object -t tree -w /dev/null) && "
	    "a=$(git -C r.git commit-tree -m a $t) && "
	    "b=$(git -C r.git commit-tree -m b $t) && "
	    "c=$(git -C r.git commit-tree -m c $t) && "
	    "git -C r.git update-ref refs/heads/mirror $a && "
	    "echo $a $b $c > ids"), 0);
	s = cap("cut -d' ' -f1 ids");
	assert_int_equal(git_oid_fromstr(&a, s), 0);
	free(s);
	s = cap("cut -d' ' -f2 ids");
	assert_int_equal(git_oid_fromstr(&b, s), 0);
	free(s);
	s = cap("cut -d' ' -f3 ids");
	assert_int_equal(git_oid_fromstr(&c, s), 0);
	free(s);
	assert_int_equal(mgit_init(&err), 0);
	assert_int_equal(mgit_open(&repo, "r.git", &err), 0);
	/* Stale: we believe the tip is b, it is a. */
	assert_int_equal(mgit_ref_cas(repo, "r.git", &(struct mgit_ref_move){
	    .refname = "refs/heads/mirror", .old_id = &b, .new_id = &c,
	    .log_message = "mirror: build" }, &err), -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "moved while mirror was building"));
	s = cap("git -C r.git rev-parse mirror");
	assert_int_equal(git_oid_streq(&a, s), 0);
	free(s);
	/* Creating a branch that appeared meanwhile also fails. */
	assert_int_equal(mgit_ref_cas(repo, "r.git", &(struct mgit_ref_move){
	    .refname = "refs/heads/mirror", .new_id = &c,
	    .log_message = "mirror: build" }, &err), -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "it was nothing"));
	/* The right old value moves it. */
	assert_int_equal(mgit_ref_cas(repo, "r.git", &(struct mgit_ref_move){
	    .refname = "refs/heads/mirror", .old_id = &a, .new_id = &c,
	    .log_message = "mirror: build" }, &err), 0);
	s = cap("git -C r.git rev-parse mirror");
	assert_int_equal(git_oid_streq(&c, s), 0);
	free(s);
	git_repository_free(repo);
	mgit_shutdown();
}

/* Another writer moves the branch between read and update. */
static void
move_branch(void *arg)
{
	(void)arg;
	assert_int_equal(scratch_sh("git -C repo.git update-ref refs/heads/mirror "
	    "$(git -C repo.git commit-tree -p mirror -m other "
	    "$(git -C repo.git hash-object -t tree -w /dev/null))"), 0);
	assert_int_equal(scratch_sh("git -C repo.git rev-parse mirror > theirs"), 0);
}

static void
test_cas_concurrent_writer(void **state)
{
	struct history_result r;
	mirror_error err;
	char *theirs;

	(void)state;
	make_site("site");
	assert_int_equal(scratch_sh("git init -q --bare repo.git"), 0);
	assert_int_equal(commit_at(&r, "repo.git", "site", AUTHOR, T0, &err),
	    0);
	put("site/index.md", "# Mirror\n\nchanged\n");
	history_test_before_update = move_branch;
	assert_int_equal(commit_at(&r, "repo.git", "site", AUTHOR, T0 + 1,
	    &err), -MIRROR_EIO);
	history_test_before_update = NULL;
	assert_non_null(strstr(err.msg, "refs/heads/mirror moved while"));
	assert_int_equal(r.committed, 0);
	theirs = cap("cat theirs");
	cap_is(theirs, "git -C repo.git rev-parse mirror");
	cap_is("other", "git -C repo.git log -1 --format=%%s mirror");
	free(theirs);
	/* The loser's objects are harmless: the repository is sound. */
	assert_int_equal(scratch_sh("git -C repo.git fsck --strict >/dev/null 2>&1"),
	    0);
}

/*
 * Four processes commit to one branch at once, five times each: every
 * commit that reports success is on the branch, which stays linear;
 * every other attempt failed with a clear "moved" or "locked" error.
 * No update is lost.
 */
static void
test_concurrent_processes(void **state)
{
	enum { WRITERS = 4, ROUNDS = 5 };
	pid_t pids[WRITERS];
	char *ok_count, *lines, *bad;

	(void)state;
	make_site("site");
	assert_int_equal(scratch_sh("git init -q --bare repo.git"), 0);
	for (int c = 0; c < WRITERS; c++) {
		pids[c] = fork();
		assert_true(pids[c] >= 0);
		if (pids[c] > 0)
			continue;
		for (int k = 0; k < ROUNDS; k++) {
			struct history_result r;
			mirror_error err;
			char site[64], file[96], text[64], log[32];
			FILE *fp;
			int rc;

			if (snprintf(site, sizeof(site), "s%d", c) >=
			    (int)sizeof(site) ||
			    snprintf(file, sizeof(file), "%s/writer.md", site) >=
			    (int)sizeof(file) ||
			    snprintf(log, sizeof(log), "w%d.log", c) >=
			    (int)sizeof(log))
				_exit(2);
			if (k == 0 && scratch_sh("cp -R site %s", site) != 0)
				_exit(2);
			snprintf(text, sizeof(text), "writer %d round %d\n", c,
			    k);
			put(file, text);
			rc = commit_at(&r, "repo.git", site, AUTHOR, T0 + k,
			    &err);
			fp = fopen(log, "a");
			if (fp == NULL)
				_exit(2);
			if (rc == 0 && r.committed)
				fprintf(fp, "ok %s\n", r.commit_id);
			else
				fprintf(fp, "fail %d %s\n", rc, err.msg);
			if (fclose(fp) != 0)
				_exit(2);
		}
		_exit(0);
	}
	for (int c = 0; c < WRITERS; c++) {
		int st;

		assert_int_equal(waitpid(pids[c], &st, 0), pids[c]);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	lines = cap("cat w*.log | wc -l");
	assert_string_equal(lines, "20");
	free(lines);
	/* Every success is on the branch, and the branch is only those. */
	ok_count = cap("grep -c '^ok ' w*.log | awk -F: '{s += $2} END "
	    "{print s}'");
	cap_is(ok_count, "git -C repo.git rev-list --count mirror");
	cap_is("", "grep '^ok ' w*.log | cut -d' ' -f2 | sort > ok.ids; "
	    "git -C repo.git rev-list mirror | sort | diff - ok.ids");
	cap_is("0", "git -C repo.git rev-list --min-parents=2 --count mirror");
	assert_true(atoi(ok_count) >= 1);
	free(ok_count);
	/* Failures are the two race errors, with exit status 3. */
	bad = cap("grep '^fail ' w*.log | grep -v '^[^ ]* -3 .*\\(moved "
	    "while mirror was building\\|is locked\\)' || true");
	assert_string_equal(bad, "");
	free(bad);
	assert_int_equal(scratch_sh("git -C repo.git fsck --strict >/dev/null 2>&1"),
	    0);
}

/* A stale lock file: exit 3, the lock stays, nothing is written. */
static void
test_stale_lock(void **state)
{
	struct history_result r;
	mirror_error err;
	char *before, *after;

	(void)state;
	make_site("site");
	assert_int_equal(scratch_sh("git init -q --bare repo.git"), 0);
	assert_int_equal(commit_at(&r, "repo.git", "site", AUTHOR, T0, &err),
	    0);
	put("site/index.md", "# changed\n");
	put("repo.git/refs/heads/mirror.lock", "");
	before = cap("cd repo.git && find . -type f | LC_ALL=C sort | "
	    "xargs sha256sum");
	assert_int_equal(commit_at(&r, "repo.git", "site", AUTHOR, T0 + 1,
	    &err), -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "refs/heads/mirror.lock exists"));
	assert_null(strchr(err.msg, '\n'));
	after = cap("cd repo.git && find . -type f | LC_ALL=C sort | "
	    "xargs sha256sum");
	assert_string_equal(before, after);
	assert_int_equal(access("repo.git/refs/heads/mirror.lock", F_OK), 0);
	free(before);
	free(after);
	/* Lock taken after the check (by a racing git): still refused. */
	assert_int_equal(scratch_sh("rm repo.git/refs/heads/mirror.lock"), 0);
	{
		git_repository *repo = NULL;
		struct mgit_branch br = { NULL, "repo.git",
		    "refs/heads/mirror" };
		git_oid tip;
		int found;

		assert_int_equal(mgit_init(&err), 0);
		assert_int_equal(mgit_open(&repo, "repo.git", &err), 0);
		br.repo = repo;
		assert_int_equal(mgit_read_tip(&tip, &found, &br, &err), 0);
		assert_int_equal(found, 1);
		put("repo.git/refs/heads/mirror.lock", "");
		assert_int_equal(mgit_ref_cas(repo, "repo.git", &(struct
		    mgit_ref_move){ .refname = "refs/heads/mirror",
		    .old_id = &tip, .new_id = &tip, .log_message = "x" },
		    &err), -MIRROR_EIO);
		assert_non_null(strstr(err.msg, "locked"));
		git_repository_free(repo);
		mgit_shutdown();
	}
	assert_int_equal(access("repo.git/refs/heads/mirror.lock", F_OK), 0);
}

/* The same site, author and time give the same commit id. */
static void
test_reproducible_id(void **state)
{
	struct history_result a, b, c;
	mirror_error err;

	(void)state;
	make_site("site");
	assert_int_equal(scratch_sh("git init -q --bare one.git && "
	    "git init -q two && git init -q --bare three.git"), 0);
	assert_int_equal(commit_at(&a, "one.git", "site", AUTHOR, T0, &err),
	    0);
	assert_int_equal(commit_at(&b, "two", "site", AUTHOR, T0, &err), 0);
	assert_string_equal(a.commit_id, b.commit_id);
	assert_int_equal(commit_at(&c, "three.git", "site", AUTHOR, T0 + 1,
	    &err), 0);
	assert_string_not_equal(a.commit_id, c.commit_id);
	/* And the id is what git computes for these bytes. */
	cap_is(a.commit_id, "git -C one.git cat-file commit mirror | "
	    "git hash-object -t commit --stdin");
}

/* A trailer value that is not one line is refused before any write. */
static void
test_bad_trailer_early(void **state)
{
	struct history_request rq;
	struct history_result r;
	mirror_error err;

	(void)state;
	make_site("site");
	assert_int_equal(scratch_sh("git init -q --bare repo.git"), 0);
	memset(&rq, 0, sizeof(rq));
	rq.repo_path = "repo.git";
	rq.branch = "mirror";
	rq.site_dir = "site";
	rq.author = AUTHOR;
	rq.store_checksum = "abc\nMirror-Sweep-Run: forged";
	assert_int_equal(history_commit(&r, &rq, &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "control character"));
	cap_is("0", "find repo.git/objects -type f | wc -l");
	/* Without have_time the date is SOURCE_DATE_EPOCH's, via the clock. */
	rq.store_checksum = "abc";
	setenv("SOURCE_DATE_EPOCH", "1234567890", 1);
	assert_int_equal(history_commit(&r, &rq, &err), 0);
	unsetenv("SOURCE_DATE_EPOCH");
	cap_is("1234567890 1234567890", "git -C repo.git log -1 "
	    "--format='%%at %%ct' mirror");
}

/* Paths that are not repositories; no discovery upwards. */
static void
test_not_a_repo(void **state)
{
	static const char *const paths[] = { "plain", "missing", "file",
	    "repo/sub", "" };
	struct history_result r;
	mirror_error err;

	(void)state;
	make_site("site");
	assert_int_equal(scratch_sh("mkdir plain && touch file && git init -q repo && "
	    "mkdir repo/sub"), 0);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		int rc = commit_at(&r, paths[i], "site", AUTHOR, T0, &err);

		assert_int_equal(rc, paths[i][0] ? -MIRROR_EIO : -MIRROR_EUSAGE);
		assert_non_null(strstr(err.msg, "not a git repository"));
		if (paths[i][0] != '\0')
			assert_true(strncmp(err.msg, paths[i],
			    strlen(paths[i])) == 0);
		assert_null(strchr(err.msg, '\n'));
	}
	cap_is("", "git -C repo for-each-ref");
	/* Someone else's repository is told apart from no repository. */
	assert_int_equal(scratch_sh("git init -q --bare bare.git"), 0);
	assert_int_equal(mgit_foreign_repo("repo", geteuid()), 0);
	assert_int_equal(mgit_foreign_repo("bare.git", geteuid()), 0);
	assert_int_equal(mgit_foreign_repo("repo", geteuid() + 1), 1);
	assert_int_equal(mgit_foreign_repo("bare.git", geteuid() + 1), 1);
	assert_int_equal(mgit_foreign_repo("plain", geteuid() + 1), 0);
	assert_int_equal(mgit_foreign_repo("missing", geteuid() + 1), 0);
}

/* Author: malformed is a usage error; else the REPOSITORY's config. */
static void
test_author_sources(void **state)
{
	struct history_result r;
	mirror_error err;

	(void)state;
	make_site("site");
	assert_int_equal(scratch_sh("git init -q --bare repo.git"), 0);
	assert_int_equal(commit_at(&r, "repo.git", "site", "Bot bot@x", T0,
	    &err), -MIRROR_EUSAGE);
	assert_non_null(strstr(err.msg, "--author"));
	/* HOME's .gitconfig names someone: not read, so no identity. */
	assert_int_equal(commit_at(&r, "repo.git", "site", NULL, T0, &err),
	    -MIRROR_EUSAGE);
	assert_non_null(strstr(err.msg, "no commit author"));
	assert_int_equal(scratch_sh("git -C repo.git rev-parse -q --verify mirror "
	    ">/dev/null"), 1);
	assert_int_equal(scratch_sh("git -C repo.git config user.name 'Repo Owner' &&"
	    " git -C repo.git config user.email owner@example.org"), 0);
	assert_int_equal(commit_at(&r, "repo.git", "site", NULL, T0, &err),
	    0);
	cap_is("Repo Owner <owner@example.org>|Repo Owner",
	    "git -C repo.git log -1 --format='%%an <%%ae>|%%cn' mirror");
	/* A forged header in the repository config is refused. */
	assert_int_equal(scratch_sh("git -C repo.git config user.name 'A <b>'"), 0);
	put("site/index.md", "changed\n");
	assert_int_equal(commit_at(&r, "repo.git", "site", NULL, T0, &err),
	    -MIRROR_EINPUT);
}

/* What a tree cannot hold is refused before anything is written. */
static void
test_site_refusals(void **state)
{
	struct history_result r;
	mirror_error err;

	(void)state;
	assert_int_equal(scratch_sh("git init -q --bare repo.git"), 0);
	make_site("s1");
	assert_int_equal(scratch_sh("ln -s index.md s1/link.md"), 0);
	assert_int_equal(commit_at(&r, "repo.git", "s1", AUTHOR, T0, &err),
	    -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "s1/link.md: a symbolic link"));
	make_site("s2");
	assert_int_equal(scratch_sh("mkfifo s2/api/pipe"), 0);
	assert_int_equal(commit_at(&r, "repo.git", "s2", AUTHOR, T0, &err),
	    -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "s2/api/pipe: a special file"));
	make_site("s3");
	assert_int_equal(scratch_sh("mkdir -p s3/.git && echo x > s3/.git/config"),
	    0);
	assert_int_equal(commit_at(&r, "repo.git", "s3", AUTHOR, T0, &err),
	    -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "s3/.git: git does not allow this "
	    "name"));
	/* A nested one is found before any blob is written, too. */
	make_site("s4");
	assert_int_equal(scratch_sh("mkdir -p s4/projects/.GIT && "
	    "echo x > s4/projects/.GIT/x"), 0);
	assert_int_equal(commit_at(&r, "repo.git", "s4", AUTHOR, T0, &err),
	    -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "s4/projects/.GIT: git does not"));
	cap_is("0", "find repo.git/objects -type f | wc -l");
	assert_int_equal(commit_at(&r, "repo.git", "nosuch", AUTHOR, T0,
	    &err), -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "nosuch"));
	/* None of it moved or created the branch. */
	assert_int_equal(scratch_sh("git -C repo.git rev-parse -q --verify mirror "
	    ">/dev/null"), 1);
	assert_int_equal(scratch_sh("git -C repo.git fsck --strict >/dev/null 2>&1"),
	    0);
}

/* Modes and shapes: executable bit kept, empty directories left out. */
static void
test_tree_shapes(void **state)
{
	struct history_result r;
	mirror_error err;

	(void)state;
	assert_int_equal(scratch_sh("git init -q --bare repo.git && mkdir -p "
	    "site/a/b/c site/empty/inner site/x && echo run > site/x/tool && "
	    "chmod 755 site/x/tool && echo deep > site/a/b/c/deep.md"), 0);
	assert_int_equal(commit_at(&r, "repo.git", "site", AUTHOR, T0, &err),
	    0);
	cap_is("100644 blob a/b/c/deep.md\n100755 blob x/tool",
	    "git -C repo.git ls-tree -r mirror | awk '{print $1, $2, $4}'");
	/* An empty site is a commit of the empty tree. */
	assert_int_equal(scratch_sh("mkdir void"), 0);
	{
		struct history_request rq;

		memset(&rq, 0, sizeof(rq));
		rq.repo_path = "repo.git";
		rq.branch = "empty";
		rq.site_dir = "void";
		rq.author = AUTHOR;
		assert_int_equal(history_commit(&r, &rq, &err), 0);
	}
	cap_is("4b825dc642cb6eb9a060e54bf8d69288fbee4904",
	    "git -C repo.git rev-parse empty^{tree}");
	assert_int_equal(scratch_sh("git -C repo.git fsck --strict >/dev/null 2>&1"),
	    0);
}

/* Many new files go into one pack that git reads and verifies. */
static void
test_pack_path(void **state)
{
	struct history_result r;
	mirror_error err;
	char *s;

	(void)state;
	assert_int_equal(scratch_sh("git init -q --bare repo.git && mkdir -p site/p && "
	    "i=0; while [ $i -lt 300 ]; do "
	    "printf '# page %%d\\n\\nvalue: %%d kg\\n' $i $i > site/p/$i.md; "
	    "printf '<p>%%d</p>\\n' $i > site/p/$i.html; i=$((i+1)); done && "
	    "head -c 300000 /dev/urandom > site/big.bin && "
	    "head -c 5000000 /dev/urandom > site/z1.bin && "
	    "head -c 5000000 /dev/urandom > site/z2.bin && "
	    "cp site/p/1.md site/p/dup.md"), 0);
	assert_int_equal(commit_at(&r, "repo.git", "site", AUTHOR, T0, &err),
	    0);
	assert_int_equal(r.packed, 1);
	assert_int_equal(r.files, 604);
	cap_is("1", "ls repo.git/objects/pack/*.pack | wc -l");
	cap_is("0", "find repo.git/objects -type f ! -path '*/pack/*' | wc -l");
	cap_is("", "ls repo.git/objects/pack | grep tmp_");
	assert_int_equal(scratch_sh("git verify-pack repo.git/objects/pack/*.idx "
	    ">/dev/null"), 0);
	/* 603 distinct blobs + 2 trees + 1 commit. */
	cap_is("606", "git verify-pack -v repo.git/objects/pack/*.idx | "
	    "grep -cE '^[0-9a-f]{40} (blob|tree|commit) '");
	/* git's own index writer makes the same index, byte for byte. */
	assert_int_equal(scratch_sh("cp repo.git/objects/pack/*.pack check.pack && "
	    "git index-pack check.pack >/dev/null && "
	    "cmp check.idx repo.git/objects/pack/*.idx"), 0);
	/* Compressed on one thread, or in batches (z1.bin and z2.bin each
	 * close one: three in all) each on threads of its own while the
	 * next is gathered, the pack is byte for byte the same: its name is
	 * its checksum. */
	assert_int_equal(scratch_sh("git init -q --bare one.git"), 0);
	setenv("MIRROR_JOBS", "1", 1);
	assert_int_equal(commit_at(&r, "one.git", "site", AUTHOR, T0, &err),
	    0);
	unsetenv("MIRROR_JOBS");
	assert_int_equal(r.packed, 1);
	cap_is(s = cap("cd repo.git/objects/pack && ls *.pack"),
	    "cd one.git/objects/pack && ls *.pack");
	free(s);
	assert_int_equal(scratch_sh("git -C repo.git fsck --strict --full >/dev/null "
	    "2>&1"), 0);
	s = cap("git -C repo.git show mirror:p/299.md");
	assert_string_equal(s, "# page 299\n\nvalue: 299 kg");
	free(s);
	cap_is("", "git -C repo.git cat-file blob mirror:big.bin | "
	    "cmp - site/big.bin");
	/* A small change after that is written loose. */
	put("site/p/7.md", "# page 7\n\nvalue: 7.5 kg\n");
	assert_int_equal(commit_at(&r, "repo.git", "site", AUTHOR, T0 + 1,
	    &err), 0);
	assert_int_equal(r.committed, 1);
	assert_int_equal(r.packed, 0);
	assert_int_equal(r.new_blobs, 1);
	cap_is("1", "ls repo.git/objects/pack/*.pack | wc -l");
	cap_is("-value: 7 kg\n+value: 7.5 kg", "git -C repo.git diff -U0 "
	    "mirror~1 mirror | grep '^[-+][^-+]'");
	assert_int_equal(scratch_sh("git -C repo.git fsck --strict --full >/dev/null "
	    "2>&1"), 0);
	/* Rebuilding the same big site writes nothing at all. */
	assert_int_equal(commit_at(&r, "repo.git", "site", AUTHOR, T0 + 2,
	    &err), 0);
	assert_int_equal(r.committed, 0);
	cap_is("2", "git -C repo.git rev-list --count mirror");
}

/*
 * A site of more files than one batch reads ahead (2,600: three
 * batches of files read, hashed and compressed together) is committed
 * byte for byte as on one thread; a file that cannot be read in the
 * last batch fails the commit naming it, leaving the branch and the
 * objects as they were (the pack begun is removed).
 */
static void
test_pack_batches(void **state)
{
	struct history_result r;
	struct history_request rq;
	struct history_file *files;
	mirror_error err;
	char *s, name[64];
	size_t n = 2600;

	(void)state;
	assert_int_equal(scratch_sh("git init -q --bare repo.git && "
	    "git init -q --bare one.git && git init -q --bare bad.git && "
	    "mkdir -p site/a site/b && i=0; while [ $i -lt 1300 ]; do "
	    "printf 'a %%d\n' $i > site/a/$i.md; "
	    "printf 'b %%d\n' $i > site/b/$i.md; i=$((i+1)); done"), 0);
	assert_int_equal(commit_at(&r, "repo.git", "site", AUTHOR, T0, &err),
	    0);
	assert_int_equal(r.packed, 1);
	assert_int_equal(r.files, 2600);
	setenv("MIRROR_JOBS", "1", 1);
	assert_int_equal(commit_at(&r, "one.git", "site", AUTHOR, T0, &err),
	    0);
	unsetenv("MIRROR_JOBS");
	cap_is(s = cap("cd repo.git/objects/pack && ls *.pack"),
	    "cd one.git/objects/pack && ls *.pack");
	free(s);
	assert_int_equal(scratch_sh("git -C repo.git fsck --strict --full "
	    ">/dev/null 2>&1"), 0);
	cap_is("b 1299", "git -C repo.git show mirror:b/1299.md");
	/* The same site as a list, one file of the third batch gone. */
	files = calloc(n, sizeof(*files));
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%c/%zu.md", i < 1300 ? 'a' : 'b',
		    i % 1300);
		files[i].path = strdup(name);
		snprintf(name, sizeof(name), "site/%s", files[i].path);
		files[i].disk = strdup(name);
		files[i].changed = 1;
	}
	qsort(files, n, sizeof(*files), cmp_file_path);
	free((char *)(uintptr_t)files[2300].disk);
	files[2300].disk = strdup("site/gone.md");
	memset(&rq, 0, sizeof(rq));
	rq.repo_path = "bad.git";
	rq.branch = "mirror";
	rq.files = files;
	rq.n_files = n;
	rq.author = AUTHOR;
	rq.have_time = 1;
	rq.time = (time_t)T0;
	mirror_error_clear(&err);
	assert_true(history_commit(&r, &rq, &err) < 0);
	assert_non_null(strstr(err.msg, "site/gone.md"));
	cap_is("", "git -C bad.git for-each-ref");
	cap_is("0", "find bad.git/objects -type f | wc -l");
	for (size_t i = 0; i < n; i++) {
		free((char *)(uintptr_t)files[i].path);
		free((char *)(uintptr_t)files[i].disk);
	}
	free(files);
}

/*
 * Blobs the repository has are found wherever they are: in a pack (no
 * loose directory for them), loose, or in an alternate's pack and
 * loose objects (the packs of the repository alone would miss those);
 * none is written again.
 */
static void
test_blobs_found(void **state)
{
	struct history_result r;
	mirror_error err;

	(void)state;
	assert_int_equal(scratch_sh("git init -q --bare repo.git && "
	    "git init -q --bare alt.git && mkdir -p site/p && i=0; "
	    "while [ $i -lt 150 ]; do printf 'page %%d\n' $i > site/p/$i.md; "
	    "i=$((i+1)); done"), 0);
	assert_int_equal(commit_at(&r, "repo.git", "site", AUTHOR, T0, &err),
	    0);
	assert_int_equal(r.packed, 1);
	assert_int_equal(r.new_blobs, 150);
	/* One new file, loose beside the pack; then both again. */
	put("site/p/new.md", "new page\n");
	assert_int_equal(commit_at(&r, "repo.git", "site", AUTHOR, T0 + 1,
	    &err), 0);
	assert_int_equal(r.new_blobs, 1);
	assert_int_equal(r.packed, 0);
	put("site/p/0.md", "page 0, changed\n");
	assert_int_equal(commit_at(&r, "repo.git", "site", AUTHOR, T0 + 2,
	    &err), 0);
	assert_int_equal(r.committed, 1);
	assert_int_equal(r.new_blobs, 1);
	/* A repository borrowing repo.git's objects has every blob. */
	assert_int_equal(scratch_sh("echo \"$PWD/repo.git/objects\" > "
	    "alt.git/objects/info/alternates"), 0);
	assert_int_equal(commit_at(&r, "alt.git", "site", AUTHOR, T0 + 3,
	    &err), 0);
	assert_int_equal(r.committed, 1);
	assert_int_equal(r.new_blobs, 0);
	cap_is("0", "find alt.git/objects -type f -name '*.pack' | wc -l");
	assert_int_equal(scratch_sh("git -C alt.git fsck --strict --full "
	    ">/dev/null 2>&1"), 0);
}

/* A branch name taken by a directory of branches: a clear refusal. */
static void
test_branch_name_clash(void **state)
{
	struct history_request rq;
	struct history_result r;
	mirror_error err;
	char *before;

	(void)state;
	make_site("site");
	assert_int_equal(scratch_sh("git init -q --bare repo.git && "
	    "git -C repo.git update-ref refs/heads/mirror/old "
	    "$(git -C repo.git commit-tree -m x "
	    "$(git -C repo.git hash-object -t tree -w /dev/null))"), 0);
	memset(&rq, 0, sizeof(rq));
	rq.repo_path = "repo.git";
	rq.branch = "mirror";
	rq.site_dir = "site";
	rq.author = AUTHOR;
	before = cap("cd repo.git && find . -type f | LC_ALL=C sort");
	assert_int_equal(history_commit(&r, &rq, &err), -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "repo.git: refs/heads/mirror cannot "
	    "be created: the branch refs/heads/mirror/old exists"));
	cap_is("refs/heads/mirror/old",
	    "git -C repo.git for-each-ref --format='%%(refname)'");
	/* Found before anything was written. */
	cap_is(before, "cd repo.git && find . -type f | LC_ALL=C sort");
	free(before);
	/* The other way round: mirror/next while mirror exists. */
	assert_int_equal(scratch_sh("git -C repo.git update-ref -d "
	    "refs/heads/mirror/old && git -C repo.git update-ref "
	    "refs/heads/mirror $(git -C repo.git commit-tree -m y "
	    "$(git -C repo.git hash-object -t tree -w /dev/null))"), 0);
	rq.branch = "mirror/next";
	assert_int_equal(history_commit(&r, &rq, &err), -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "refs/heads/mirror/next cannot be "
	    "created: the branch refs/heads/mirror exists"));
}

/* An explicit core.logAllRefUpdates=false on a bare repo is respected. */
static void
test_reflog_setting_respected(void **state)
{
	struct history_result r;
	mirror_error err;

	(void)state;
	make_site("site");
	assert_int_equal(scratch_sh("git init -q --bare repo.git && "
	    "git -C repo.git config core.logAllRefUpdates false"), 0);
	assert_int_equal(commit_at(&r, "repo.git", "site", AUTHOR, T0, &err),
	    0);
	cap_is("false", "git -C repo.git config core.logAllRefUpdates");
	cap_is("0", "git -C repo.git reflog show mirror 2>/dev/null | wc -l");
}

/* history_tip_file: a file of the tip (and the tip's id), none, no
 * branch, a directory. */
static void
test_tip_file(void **state)
{
	struct history_result r;
	mirror_error err;
	const struct history_request mirror = { .repo_path = "repo.git",
	    .branch = "mirror" };
	struct history_tip f;

	(void)state;
	make_site("site");
	assert_int_equal(scratch_sh("git init -q --bare repo.git"), 0);
	assert_int_equal(history_tip_file(&f, &mirror, "index.md", &err), 0);
	assert_null(f.text);
	assert_int_equal(commit_at(&r, "repo.git", "site", AUTHOR, T0, &err),
	    0);
	assert_int_equal(history_tip_file(&f, &mirror, "api/health.json",
	    &err), 1);
	assert_string_equal(f.text, "{\"open_conflicts_count\": 1}\n");
	assert_int_equal(f.len, strlen(f.text));
	assert_string_equal(f.tip, r.commit_id);
	free(f.text);
	assert_int_equal(history_tip_file(&f, &mirror, "api/build.json",
	    &err), 0);
	assert_null(f.text);
	assert_true(history_tip_file(&f, &mirror, "api", &err) < 0);
	assert_null(f.text);
	assert_int_equal(history_tip_file(&f, &(struct history_request){
	    .repo_path = "repo.git", .branch = "a..b" }, "index.md", &err),
	    -MIRROR_EUSAGE);
	assert_int_equal(history_tip_file(&f, &(struct history_request){
	    .repo_path = "nothing", .branch = "mirror" }, "index.md", &err),
	    -MIRROR_EIO);
}

/* 1 when the memo of the branch of repo.git answers, with text in
 * text. */
static int
tip_known(char text[TIPMEMO_TEXT_MAX + 1], const char *branch)
{
	return tipmemo_get(text, TIPMEMO_TEXT_MAX + 1, "repo.git", branch);
}

/* tipmemo_get and _put: found by the ref's file for the commit the
 * memo names alone, and only in the plain case (no lock, HEAD not
 * naming the branch, no linked work tree, a loose ref, a plain name). */
static void
test_tipmemo(void **state)
{
	static const char *const not_plain[] = { "-x", ".x", "a/.b",
	    "a//b", "x.lock", "a/", "sp ace", "a..b", "c/-d" };
	struct history_result r;
	mirror_error err;
	char text[TIPMEMO_TEXT_MAX + 1], cache[4096], big[TIPMEMO_TEXT_MAX + 2];

	(void)state;
	assert_non_null(getcwd(cache, sizeof(cache) - 16));
	strcat(cache, "/cache");
	setenv("MIRROR_CACHE_DIR", cache, 1);
	make_site("site");
	assert_int_equal(scratch_sh("git init -q --bare repo.git"), 0);
	assert_int_equal(tip_known(text, "mirror"), 0);   /* no branch */
	assert_int_equal(commit_at(&r, "repo.git", "site", AUTHOR, T0, &err),
	    0);
	assert_int_equal(tip_known(text, "mirror"), 0);   /* no memo */
	tipmemo_put("repo.git", "mirror", r.commit_id, "stamp\n", 6);
	assert_int_equal(tip_known(text, "mirror"), 1);
	assert_string_equal(text, "stamp\n");
	assert_int_equal(tipmemo_get(text, sizeof(text), "./repo.git/",
	    "mirror"), 1);
	assert_int_equal(tip_known(text, "other"), 0);
	/* The ref at another commit: the memo says nothing of it. */
	assert_int_equal(scratch_sh("cp repo.git/refs/heads/mirror ref.kept &&"
	    " echo 0123456789abcdef0123456789abcdef01234567 > "
	    "repo.git/refs/heads/mirror"), 0);
	assert_int_equal(tip_known(text, "mirror"), 0);
	assert_int_equal(scratch_sh("cp ref.kept repo.git/refs/heads/mirror"),
	    0);
	assert_int_equal(tip_known(text, "mirror"), 1);
	/* What history_check refuses, or libgit2 must read: no answer. */
	assert_int_equal(scratch_sh(": > repo.git/refs/heads/mirror.lock"), 0);
	assert_int_equal(tip_known(text, "mirror"), 0);
	assert_int_equal(scratch_sh("rm repo.git/refs/heads/mirror.lock && "
	    "git --git-dir=repo.git symbolic-ref HEAD refs/heads/mirror"), 0);
	assert_int_equal(tip_known(text, "mirror"), 0);
	assert_int_equal(scratch_sh("git --git-dir=repo.git symbolic-ref HEAD "
	    "refs/heads/main && mkdir repo.git/worktrees"), 0);
	assert_int_equal(tip_known(text, "mirror"), 0);
	assert_int_equal(scratch_sh("rmdir repo.git/worktrees"), 0);
	assert_int_equal(tip_known(text, "mirror"), 1);
	assert_int_equal(scratch_sh("git --git-dir=repo.git pack-refs --all"),
	    0);
	assert_int_equal(tip_known(text, "mirror"), 0);
	assert_int_equal(scratch_sh("cp ref.kept repo.git/refs/heads/mirror"),
	    0);
	/* Names and texts it keeps nothing for (each name's ref file at
	 * the commit, where one can be made). */
	for (size_t i = 0; i < sizeof(not_plain) / sizeof(*not_plain); i++) {
		char cmd[256];
		int n = snprintf(cmd, sizeof(cmd), "f='repo.git/refs/heads/%s'"
		    " && mkdir -p \"$(dirname \"$f\")\" && "
		    "{ cp ref.kept \"$f\" || true; }", not_plain[i]);

		assert_true(n > 0 && (size_t)n < sizeof(cmd));
		assert_int_equal(scratch_sh(cmd), 0);
		tipmemo_put("repo.git", not_plain[i], r.commit_id, "x", 1);
		assert_int_equal(tip_known(text, not_plain[i]), 0);
	}
	tipmemo_put("repo.git", "plain/name-1.x", r.commit_id, "y", 1);
	assert_int_equal(scratch_sh("mkdir -p repo.git/refs/heads/plain && "
	    "cp ref.kept repo.git/refs/heads/plain/name-1.x"), 0);
	assert_int_equal(tip_known(text, "plain/name-1.x"), 1);
	assert_string_equal(text, "y");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	tipmemo_put("repo.git", "mirror", r.commit_id, big, strlen(big));
	assert_int_equal(tip_known(text, "mirror"), 1);
	assert_string_equal(text, "stamp\n");      /* the old memo stands */
	tipmemo_put("repo.git", "mirror", "not an id", "new\n", 4);
	assert_string_equal(text, "stamp\n");
	unsetenv("MIRROR_CACHE_DIR");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_message_words),
		cmocka_unit_test(test_message_edges),
		cmocka_unit_test(test_message_cap),
		cmocka_unit_test(test_sweep_words),
		cmocka_unit_test(test_author_parse),
		cmocka_unit_test(test_branch_names),
		cmocka_unit_test_setup_teardown(test_first_commit_bare, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_unchanged_then_changed,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_nonbare_untouched, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_checked_out_refused, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_through_linked_worktree,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_cas_direct, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_cas_concurrent_writer,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_processes,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_lock, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_reproducible_id, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_bad_trailer_early, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_not_a_repo, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_author_sources, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_site_refusals, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_tree_shapes, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_pack_path, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_pack_batches, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_blobs_found, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_branch_name_clash, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_reflog_setting_respected,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_tip_file, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_tipmemo, setup,
		    teardown),
	};
	int rc;

	if (mkdtemp(root) == NULL || getcwd(cwd0, sizeof(cwd0)) == NULL)
		return 1;
	gitcap_env(root);
	rc = cmocka_run_group_tests_name("history", tests, NULL, NULL);
	return gitcap_finish(rc, root, cwd0);
}
