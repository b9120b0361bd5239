/*
 * history.c: one mirror build as one commit (see history.h).
 *
 * Order matters for "nothing half-done": everything that can be checked
 * (names, author, repository, lock, checkout) is checked before any
 * object is written; objects are written before the branch moves; the
 * branch moves last, by compare and swap. Beside it, the memo of a
 * branch's tip, read without libgit2.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "git/git_files.h"
#include "git/git_message.h"
#include "git/git_ref.h"
#include "git/git_repo.h"
#include "git/git_sig.h"
#include "git/git_sign.h"
#include "git/git_tree.h"
#include "git/history.h"
#include "git/history_words.h"
#include "sys/cache.h"
#include "sys/pool.h"
#include "sys/clock.h"
#include "sys/jobs.h"
#include "sys/userfile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#ifdef MIRROR_TEST_HOOKS
void (*history_test_before_update)(void *arg);
void *history_test_before_update_arg;
#endif

/* The site being committed: the caller's list, or one of site_dir. */
struct site {
	const struct history_file *files;   /* sorted by path */
	size_t n;
	struct history_file *owned;         /* mgit_files_of_dir's, or NULL */
};

/* One history_commit's state, freed by commit_ctx_free. */
struct commit_ctx {
	const struct history_request *req;
	git_repository *repo;       /* open_guarded's */
	char refname[MGIT_REFNAME_MAX];
	git_signature *sig;
	git_signature *reviewer;    /* the author of a commit of one
	                               reviewer's decisions; NULL: sig */
	git_oid tip;                /* when parent */
	git_commit *parent;         /* the tip, or NULL */
	git_tree *old_tree;         /* its tree, or NULL */
	struct site site;
	struct mgit_stage stage;
	struct mgit_change *changes; /* from an edit, or NULL: diff */
	size_t nchanges;
	int incremental;            /* the tree is an edit of the base */
};

/* The changed paths between two trees of one repository (old_tree
 * NULL: all added). Returns 0 with *out (free_changes) and *n, or
 * -MIRROR_EIO. */
static int
tree_changes(struct mgit_change **out, size_t *n, git_tree *old_tree,
    git_tree *new_tree, mirror_error *err)
{
	git_diff_options opts;
	git_diff *diff = NULL;
	struct mgit_change *ch;
	size_t nd;

	*out = NULL;
	*n = 0;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	/* Names only: no content is read, no rename is guessed. */
	opts.flags = GIT_DIFF_SKIP_BINARY_CHECK;
	if (git_diff_tree_to_tree(&diff, git_tree_owner(new_tree), old_tree,
	    new_tree, &opts) < 0)
		return mgit_fail(err, MIRROR_EIO, "cannot compare the new tree "
		    "with the branch tip");
	nd = git_diff_num_deltas(diff);
	ch = xcalloc(nd ? nd : 1, sizeof(*ch));
	for (size_t i = 0; i < nd; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		if (d->status == GIT_DELTA_ADDED) {
			ch[i].path = xstrdup(d->new_file.path);
			ch[i].kind = MGIT_ADDED;
		} else if (d->status == GIT_DELTA_DELETED) {
			ch[i].path = xstrdup(d->old_file.path);
			ch[i].kind = MGIT_REMOVED;
		} else {
			ch[i].path = xstrdup(d->new_file.path);
			ch[i].kind = MGIT_CHANGED;
		}
	}
	git_diff_free(diff);
	*out = ch;
	*n = nd;
	return 0;
}

static void
free_changes(struct mgit_change *ch, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((char *)(uintptr_t)ch[i].path);
	free(ch);
}

/*
 * The blob at path in tree into *text (NUL-terminated, the caller's to
 * free) and *len; *text = NULL for a NULL tree or no such entry. Returns
 * 0 or -MIRROR_EIO.
 */
static int
tree_text(char **text, size_t *len, git_tree *tree, const char *path,
    mirror_error *err)
{
	git_tree_entry *te = NULL;
	git_blob *blob = NULL;
	int rc;

	*text = NULL;
	*len = 0;
	if (tree == NULL)
		return 0;
	rc = git_tree_entry_bypath(&te, tree, path);
	if (rc == GIT_ENOTFOUND)
		return 0;
	if (rc < 0 || git_blob_lookup(&blob, git_tree_owner(tree),
	    git_tree_entry_id(te)) < 0) {
		git_tree_entry_free(te);
		return mgit_fail(err, MIRROR_EIO, "cannot read %s from the "
		    "branch tip", path);
	}
	*len = (size_t)git_blob_rawsize(blob);
	*text = xmalloc(*len + 1);
	memcpy(*text, git_blob_rawcontent(blob), *len);
	(*text)[*len] = '\0';
	git_blob_free(blob);
	git_tree_entry_free(te);
	return 0;
}

/* bsearch: the path key against a file's path, as strcmp. */
static int
cmp_file_path(const void *key, const void *elem)
{
	return strcmp(key, ((const struct history_file *)elem)->path);
}

/*
 * The new text of path: the file of the site the tree was made from,
 * read as the tree read it. Returns 0 with *text (NUL-terminated, the
 * caller's to free) and *len, or < 0.
 */
static int
new_text(char **text, size_t *len, const struct site *site,
    const char *path, mirror_error *err)
{
	const struct history_file *hf;
	git_filemode_t mode;
	int rc;

	*text = NULL;
	*len = 0;
	hf = bsearch(path, site->files, site->n, sizeof(*site->files),
	    cmp_file_path);
	if (hf == NULL)
		return mirror_fail(err, MIRROR_EIO, "history: %s is in the new "
		    "tree but not in the site's files", path);
	if ((rc = mgit_read_file(text, len, &mode, hf->disk, err)) < 0)
		return rc;
	*text = xrealloc(*text, *len + 1);
	(*text)[*len] = '\0';
	return 0;
}

/*
 * The changes of a first commit: every file of site, added, in path
 * order (as a diff against no tree lists them); the paths stay the
 * site's. The caller frees the array.
 */
static struct mgit_change *
all_added(const struct site *site)
{
	struct mgit_change *ch = xcalloc(site->n ? site->n : 1, sizeof(*ch));

	for (size_t i = 0; i < site->n; i++) {
		ch[i].path = site->files[i].path;
		ch[i].kind = MGIT_ADDED;
	}
	return ch;
}

/* describe's work: the changes the message reads, and each one's
 * events, filled by the pool's workers. */
struct describe_work {
	git_tree *old_tree;
	const struct site *site;
	const struct mgit_change **wanted;      /* the changes hw_wants */
	struct hw_events **parts;               /* each one's events */
	int initial;
};

/* Free a loaded file's texts (a pool payload). */
static void
drop_texts(void *payload)
{
	struct hw_file *f = payload;

	if (f != NULL) {
		free((char *)(uintptr_t)f->old_text);
		free((char *)(uintptr_t)f->new_text);
		free(f);
	}
}

/* On the calling thread, in order: change i's texts, before and after,
 * into *payload (libgit2 is used by this thread alone). Returns 0 or
 * < 0 with err set. */
static int
load_texts(void *arg, size_t i, void **payload, mirror_error *err)
{
	const struct describe_work *dw = arg;
	const struct mgit_change *ch = dw->wanted[i];
	struct hw_file *f = xcalloc(1, sizeof(*f));
	char *o = NULL, *t = NULL;
	int rc = 0;

	f->path = ch->path;
	if (ch->kind != MGIT_ADDED)
		rc = tree_text(&o, &f->old_len, dw->old_tree, ch->path,
		    err);
	if (rc == 0 && ch->kind != MGIT_REMOVED)
		rc = new_text(&t, &f->new_len, dw->site, ch->path, err);
	f->old_text = o;
	f->new_text = t;
	if (rc < 0) {
		drop_texts(f);
		return rc;
	}
	*payload = f;
	return 0;
}

/* On a worker: change i's events from its texts (JSON parsing, most of
 * the time of a commit that changes many projects). Returns 0. */
static int
file_events(void *arg, size_t i, void *payload, mirror_error *err)
{
	const struct describe_work *dw = arg;

	(void)err;
	dw->parts[i] = hw_file_events(payload, dw->initial);
	return 0;
}

/*
 * Give all the site's api/health.json as it is now when no change
 * brought it (a commit of a template change alone): every message
 * says the open totals (doc/history.md). Returns 0 (nothing when the
 * site has none) or < 0 with err set.
 */
static int
health_now(struct hw_events *all, const struct site *site,
    mirror_error *err)
{
	static const char path[] = "api/health.json";
	char *t = NULL;
	size_t len = 0;
	int rc;

	if (hw_events_has_health(all) || bsearch(path, site->files,
	    site->n, sizeof(*site->files), cmp_file_path) == NULL)
		return 0;
	if ((rc = new_text(&t, &len, site, path, err)) == 0)
		hw_events_health(all, t, len);
	free(t);
	return rc;
}

/*
 * What the changed project and conflict twins of ch[0..n) say changed,
 * in words, into w (hw_init'ed), the files read from dw's old_tree
 * and site (its wanted and parts are set here). Reads only the files
 * hw_wants, a few at a time (the pool's queue), so memory holds a few
 * files' texts however many changed, and parses them on every core.
 * Returns 0 or -MIRROR_EIO.
 */
static int
describe(struct hw_words *w, const struct describe_work *from,
    const struct mgit_change *ch, size_t n, mirror_error *err)
{
	struct describe_work dw = { .old_tree = from->old_tree,
	    .site = from->site, .initial = from->old_tree == NULL };
	struct pool_work work = { .load = load_texts, .run = file_events,
	    .drop = drop_texts, .arg = &dw };
	struct hw_events *all;
	size_t nw = 0;
	int rc;

	dw.wanted = xcalloc(n ? n : 1, sizeof(*dw.wanted));
	for (size_t i = 0; i < n; i++)
		if (hw_wants(ch[i].path, dw.initial))
			dw.wanted[nw++] = &ch[i];
	dw.parts = xcalloc(nw ? nw : 1, sizeof(*dw.parts));
	work.n = nw;
	rc = pool_run(&work, err);
	all = hw_events_new(dw.initial);
	for (size_t i = 0; i < nw; i++)
		if (dw.parts[i] != NULL)
			hw_events_take(all, dw.parts[i]);
	for (size_t i = 0; i < n && dw.initial; i++)
		hw_events_project(all, ch[i].path);    /* its path alone */
	if (rc == 0 && !dw.initial)
		rc = health_now(all, dw.site, err);
	if (rc == 0)
		hw_events_words(w, all);
	else
		hw_events_free(all);
	free(dw.parts);
	free(dw.wanted);
	return rc;
}

/* A trailer value must be one plain line, or it could forge others. */
static int
plain_value(const char *s)
{
	for (; s != NULL && *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

/* The reflog line: "mirror: build[ (initial)]: <subject>". */
static void
reflog_message(strbuf *out, const char *message, int initial)
{
	const char *nl = strchr(message, '\n');

	strbuf_puts(out, initial ? "mirror: build (initial): " :
	    "mirror: build: ");
	strbuf_add(out, message, nl != NULL ? (size_t)(nl - message) :
	    strlen(message));
}

/*
 * Every check of c->req that needs no object written: the branch name,
 * the author, the repository itself, a lock file, a checkout of the
 * branch, a name clash, and an identity. On success *repo and c->sig are
 * the caller's to free, c->refname holds "refs/heads/<branch>" and
 * c->tip / *have_tip the branch's tip. libgit2 must be initialised.
 * Returns 0 or < 0.
 */
static int
open_guarded(git_repository **repo, struct commit_ctx *c, int *have_tip,
    time_t when, mirror_error *err)
{
	const struct history_request *req = c->req;
	const char *rp = req->repo_path;
	git_signature **sig = &c->sig;
	char *refname = c->refname;
	git_oid *tip = &c->tip;
	struct mgit_branch br = { NULL, rp, refname };
	int rc;

	*repo = NULL;
	*sig = NULL;
	*have_tip = 0;
	/* Usage errors first: they need no repository. */
	if ((rc = mgit_branch_refname(refname, req->branch, err)) < 0)
		return rc;
	if (req->author != NULL) {
		char *n, *e;

		if ((rc = mgit_parse_author(&n, &e, req->author, err)) < 0)
			return rc;
		free(n);
		free(e);
	}
	if ((rc = mgit_open(repo, rp, err)) < 0)
		return rc;
	br.repo = *repo;
	if ((rc = mgit_check_lock(*repo, rp, refname, err)) < 0 ||
	    (rc = mgit_check_not_checked_out(*repo, rp, refname, err)) < 0 ||
	    (rc = mgit_read_tip(tip, have_tip, &br, err)) < 0 ||
	    (!*have_tip && (rc = mgit_check_name_free(*repo, rp, refname,
	    err)) < 0) ||
	    (rc = mgit_signature(sig, &br, req->author, when, err)) < 0)
		return rc;
	return 0;
}

int
history_hold(mirror_error *err)
{
	return mgit_init(err);
}

void
history_release(void)
{
	mgit_shutdown();
}

/* history_hold on a thread (history_hold_begin). */
struct history_hold_start {
	pthread_t tid;
	int started;            /* 1: tid runs hold_run */
	int rc;
	mirror_error err;
};

/* Run s's history_hold (a thread's start). Returns NULL. */
static void *
hold_run(void *arg)
{
	struct history_hold_start *s = arg;

	s->rc = history_hold(&s->err);
	return NULL;
}

struct history_hold_start *
history_hold_begin(void)
{
	struct history_hold_start *s = xcalloc(1, sizeof(*s));

	s->started = mirror_jobs() > 1 &&
	    jobs_thread_start(&s->tid, "git-start", hold_run, s) == 0;
	return s;
}

int
history_hold_finish(struct history_hold_start *s, mirror_error *err)
{
	int rc;

	if (s == NULL)
		return history_hold(err);
	if (s->started)
		pthread_join(s->tid, NULL);
	else
		hold_run(s);
	rc = s->rc;
	if (rc < 0)
		*err = s->err;
	free(s);
	return rc;
}

void
history_hold_drop(struct history_hold_start *s)
{
	if (s == NULL)
		return;
	if (s->started) {
		pthread_join(s->tid, NULL);
		if (s->rc == 0)
			history_release();
	}
	free(s);
}

int
history_check(const struct history_request *req, mirror_error *err)
{
	struct commit_ctx c = { .req = req };
	git_repository *repo = NULL;
	int have_tip, rc;

	if (req->repo_path == NULL)
		return mirror_fail(err, MIRROR_EUSAGE, "history: a repository "
		    "is required");
	if ((rc = mgit_init(err)) < 0)
		return rc;
	rc = open_guarded(&repo, &c, &have_tip, req->time, err);
	if (rc == 0 && req->sign_key != NULL)
		rc = mgit_sign_check(req->sign_key, err);
	git_signature_free(c.sig);
	git_repository_free(repo);
	mgit_shutdown();
	return rc;
}

/*
 * Write the commit object of tree with message, by c->sig, on c->parent
 * when there is one: signed with c->req->sign_key when given (the
 * object's bytes go to ssh-keygen, the signature into its gpgsig
 * header, as git does), else plain. Returns 0 with *id, or < 0.
 */
static int
create_commit(git_oid *id, const struct commit_ctx *c, const char *message,
    const git_tree *tree, mirror_error *err)
{
	git_repository *repo = c->repo;
	const struct history_request *req = c->req;
	const git_signature *sig = c->sig;
	const git_signature *author = c->reviewer != NULL ? c->reviewer : sig;
	const git_commit *parents[1] = { c->parent };
	size_t nparents = c->parent != NULL ? 1 : 0;
	git_buf buf = GIT_BUF_INIT;
	strbuf signature;
	int rc;

	if (req->sign_key == NULL) {
		if (git_commit_create(id, repo, NULL, author, sig, NULL, message,
		    tree, nparents, parents) < 0)
			return mgit_fail(err, MIRROR_EIO, "%s: cannot create "
			    "the commit", req->repo_path);
		return 0;
	}
	if (git_commit_create_buffer(&buf, repo, author, sig, NULL, message,
	    tree, nparents, parents) < 0)
		return mgit_fail(err, MIRROR_EIO, "%s: cannot create the "
		    "commit", req->repo_path);
	strbuf_init(&signature);
	rc = mgit_sign(&signature, req->sign_key, buf.ptr, buf.size, err);
	if (rc == 0 && git_commit_create_with_signature(id, repo, buf.ptr,
	    signature.data, "gpgsig") < 0)
		rc = mgit_fail(err, MIRROR_EIO, "%s: cannot write the signed "
		    "commit", req->repo_path);
	strbuf_free(&signature);
	git_buf_dispose(&buf);
	return rc;
}

/* The commit tip of branch br (mgit_read_tip's) and its tree, into
 * *parent and *tree. Returns 0, or -MIRROR_EIO naming br. */
static int
read_tip(git_commit **parent, git_tree **tree, const struct mgit_branch *br,
    const git_oid *tip, mirror_error *err)
{
	if (git_commit_lookup(parent, br->repo, tip) < 0 ||
	    git_commit_tree(tree, *parent) < 0)
		return mgit_fail(err, MIRROR_EIO, "%s: cannot read the tree of "
		    "%s", br->repo_path, br->refname);
	return 0;
}

int
history_tip_file(struct history_tip *out,
    const struct history_request *req, const char *path, mirror_error *err)
{
	char **text = &out->text;
	size_t *len = &out->len;
	char refname[MGIT_REFNAME_MAX];
	struct mgit_branch br = { NULL, req->repo_path, refname };
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_oid tip;
	int found = 0, rc;

	*text = NULL;
	*len = 0;
	out->tip[0] = '\0';
	if ((rc = mgit_init(err)) < 0)
		return rc;
	if ((rc = mgit_branch_refname(refname, req->branch, err)) == 0 &&
	    (rc = mgit_open(&br.repo, br.repo_path, err)) == 0 &&
	    (rc = mgit_read_tip(&tip, &found, &br, err)) == 0 && found &&
	    (rc = read_tip(&commit, &tree, &br, &tip, err)) == 0)
		rc = tree_text(text, len, tree, path, err);
	if (rc == 0 && *text != NULL)
		git_oid_tostr(out->tip, sizeof(out->tip), &tip);
	git_tree_free(tree);
	git_commit_free(commit);
	git_repository_free(br.repo);
	mgit_shutdown();
	return rc < 0 ? rc : *text != NULL;
}

/* ---- the memo of a branch's tip (history.h) ---------------------------- */

/* The longest commit id: SHA-256's, in hex. */
#define ID_MAX 64

/* 1 when branch is a name this memo answers for: [A-Za-z0-9._/-], no
 * "..", no empty component or one that starts with '.' or '-', not
 * ending in ".lock"; else 0. (git accepts more; those go to libgit2.) */
static int
plain_branch(const char *branch)
{
	size_t n = strlen(branch);
	const char *c = branch;

	if (n == 0 || n > 200 || strspn(branch, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-") != n ||
	    strstr(branch, "..") != NULL ||
	    (n >= 5 && strcmp(branch + n - 5, ".lock") == 0))
		return 0;
	for (;;) {
		size_t len = strcspn(c, "/");

		if (len == 0 || c[0] == '.' || c[0] == '-')
			return 0;
		if (c[len] == '\0')
			return 1;
		c += len + 1;
	}
}

/* The file repo/rel into buf (userfile_read_small). Returns its
 * length, or -1. */
static long
read_small(char *buf, size_t size, const char *repo, const char *rel)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/%s", repo, rel);

	if (n < 0 || (size_t)n >= sizeof(path))
		return -1;
	return userfile_read_small(buf, size, path);
}

/* 1 when repo/rel does not exist (not even as a link); else 0. */
static int
absent(const char *repo, const char *rel)
{
	char path[PATH_MAX];
	struct stat sb;
	int n = snprintf(path, sizeof(path), "%s/%s", repo, rel);

	return n >= 0 && (size_t)n < sizeof(path) && lstat(path, &sb) != 0 &&
	    errno == ENOENT;
}

/* 1 when id[0..len) is a commit id as git writes it (40 or 64 lowercase
 * hex digits). */
static int
commit_id(const char *id, size_t len)
{
	return (len == 40 || len == ID_MAX) &&
	    strspn(id, "0123456789abcdef") >= len;
}

/* The memo's key: the repository's real path, a NUL, the ref's name,
 * into key. Returns its length, or -1. */
static long
memo_key(char *key, size_t size, const char *repo, const char *refname)
{
	char real[PATH_MAX];
	size_t a, b;

	if (realpath(repo, real) == NULL)
		return -1;
	a = strlen(real);
	b = strlen(refname);
	if (a + 1 + b > size)
		return -1;
	memcpy(key, real, a + 1);
	memcpy(key + a + 1, refname, b);
	return (long)(a + 1 + b);
}

int
tipmemo_get(char *text, size_t size, const char *repo, const char *branch)
{
	char refname[256], lock[264], head[280], checked_out[280],
	    ref[ID_MAX + 2], key[PATH_MAX + 256],
	    memo[ID_MAX + 1 + TIPMEMO_TEXT_MAX + 1];
	long klen, n, r;
	const char *nl;

	text[0] = '\0';
	if (size < TIPMEMO_TEXT_MAX + 1 || !plain_branch(branch))
		return 0;
	(void)snprintf(refname, sizeof(refname), "refs/heads/%s", branch);
	(void)snprintf(lock, sizeof(lock), "%s.lock", refname);
	(void)snprintf(checked_out, sizeof(checked_out), "ref: %s\n", refname);
	/* The branch at an id in its own file, no lock on it, not named by
	 * HEAD, no linked work tree that could have it checked out. */
	r = read_small(ref, sizeof(ref), repo, refname);
	if (r < 41 || ref[r - 1] != '\n' || !commit_id(ref, (size_t)r - 1) ||
	    !absent(repo, lock) || !absent(repo, "worktrees") ||
	    read_small(head, sizeof(head), repo, "HEAD") < 0 ||
	    strcmp(head, checked_out) == 0)
		return 0;
	if ((klen = memo_key(key, sizeof(key), repo, refname)) < 0 ||
	    (n = cache_get(memo, sizeof(memo), "tips", key, (size_t)klen)) < 0)
		return 0;
	/* "<id>\n<text>", the id the ref's. */
	nl = memchr(memo, '\n', (size_t)n);
	if (nl == NULL || nl - memo != r - 1 || memcmp(memo, ref,
	    (size_t)r) != 0 || n - r > TIPMEMO_TEXT_MAX)
		return 0;
	memcpy(text, nl + 1, (size_t)(n - r) + 1);
	return 1;
}

void
tipmemo_put(const char *repo, const char *branch, const char *commit,
    const char *text, size_t len)
{
	char refname[256], key[PATH_MAX + 256], memo[ID_MAX + 1 +
	    TIPMEMO_TEXT_MAX + 1];
	size_t idlen = strlen(commit);
	long klen;

	if (!plain_branch(branch) || !commit_id(commit, idlen) ||
	    len > TIPMEMO_TEXT_MAX || memchr(text, '\0', len) != NULL)
		return;
	(void)snprintf(refname, sizeof(refname), "refs/heads/%s", branch);
	if ((klen = memo_key(key, sizeof(key), repo, refname)) < 0)
		return;
	memcpy(memo, commit, idlen);
	memo[idlen] = '\n';
	memcpy(memo + idlen + 1, text, len);
	cache_put("tips", key, (size_t)klen, memo, idlen + 1 + len);
}

/*
 * What history_commit checks of req before it touches anything: a
 * repository and a site, and trailer values that are one plain line;
 * and the commit's time into *when: req->time, or without one the run's
 * clock (never a second reading). Returns 0, or -MIRROR_EUSAGE /
 * -MIRROR_EINPUT naming what is wrong.
 */
static int
request_ok(time_t *when, const struct history_request *req,
    mirror_error *err)
{
	if (req->repo_path == NULL ||
	    (req->site_dir == NULL && req->files == NULL))
		return mirror_fail(err, MIRROR_EUSAGE, "history: a repository "
		    "and a site (directory or list of files) are required");
	if (!plain_value(req->sweep_run_id) ||
	    !plain_value(req->store_checksum))
		return mirror_fail(err, MIRROR_EINPUT, "history: the sweep run "
		    "id or store checksum holds a control character");
	*when = req->time;
	return req->have_time ? 0 : mirror_clock(when, err);
}

/*
 * The message of the commit from c->old_tree (NULL: the first) to
 * new_tree, into msg: what changed (c->changes when known, else a
 * tree-to-tree diff), in words, then the pages and the trailers
 * (git_message.h, history_words.h); *counts gets the page counts, and
 * c->reviewer the author of a commit that holds one person's decisions
 * alone (hw_reviewer, mgit_reviewer). Returns 0 or < 0 with err set.
 */
static int
compose_message(strbuf *msg, struct mgit_counts *counts,
    struct commit_ctx *c, git_tree *new_tree, mirror_error *err)
{
	git_tree *old_tree = c->old_tree;
	const struct mgit_change *changes = c->changes;
	size_t nchanges = c->nchanges;
	const struct site *site = &c->site;
	const struct history_request *req = c->req;
	struct mgit_change *diffed = NULL, *added = NULL;
	struct hw_words words;
	strbuf sweep;
	int rc = 0;

	hw_init(&words);
	strbuf_init(&sweep);
	mgit_sweep_words(&sweep, req->conflicts_opened, req->conflicts_closed,
	    req->members_added);
	if (changes == NULL && old_tree == NULL) {
		/* A first commit adds every file: no diff of the whole tree
		 * (a delta per file, all held at once). */
		changes = added = all_added(site);
		nchanges = site->n;
	} else if (changes == NULL && (rc = tree_changes(&diffed, &nchanges,
	    old_tree, new_tree, err)) == 0) {
		changes = diffed;
	}
	if (rc == 0 && (rc = describe(&words, &(struct describe_work){
	    .old_tree = old_tree, .site = site }, changes,
	    nchanges, err)) == 0)
		rc = mgit_message(msg, counts, &(struct mgit_message_in){
		    .ch = changes, .n = nchanges, .changes = sweep.data,
		    .words = &words, .run_id = req->sweep_run_id,
		    .checksum = req->store_checksum }, err);
	if (rc == 0) {
		char *who = hw_reviewer(&words);

		if (who != NULL)
			(void)mgit_reviewer(&c->reviewer, who, c->sig);
		free(who);
	}
	free_changes(diffed, diffed != NULL ? nchanges : 0);
	free(added);
	strbuf_free(&sweep);
	hw_free(&words);
	return rc;
}

/*
 * Make commit_id, staged with the rest in c->stage, the tip of
 * c->refname: the staged objects reach the disk, then the branch moves
 * by compare and swap from c->tip (when c->parent; else it must not
 * exist) with a reflog line from msg. Returns 0 or < 0 with err set.
 */
static int
publish_commit(struct commit_ctx *c, const git_oid *commit_id,
    const char *msg, mirror_error *err)
{
	git_repository *repo = c->repo;
	const struct history_request *req = c->req;
	struct mgit_stage *stage = &c->stage;
	const char *refname = c->refname;
	const git_oid *tip = c->parent != NULL ? &c->tip : NULL;
	strbuf logmsg;
	int rc;

	if ((rc = mgit_stage_flush(stage, req->repo_path, err)) < 0)
		return rc;
#ifdef MIRROR_TEST_HOOKS
	if (history_test_before_update != NULL)
		history_test_before_update(history_test_before_update_arg);
#endif
	strbuf_init(&logmsg);
	reflog_message(&logmsg, msg, tip == NULL);
	if ((rc = mgit_enable_reflog(repo, req->repo_path, err)) == 0)
		rc = mgit_ref_cas(repo, req->repo_path,
		    &(struct mgit_ref_move){ .refname = refname,
		    .old_id = tip, .new_id = commit_id,
		    .log_message = logmsg.data }, err);
	strbuf_free(&logmsg);
	return rc;
}

/*
 * The site of req: req->files, or every file under req->site_dir.
 * Returns 0 (site_free later) or < 0.
 */
static int
site_open(struct site *site, git_repository *repo,
    const struct history_request *req, mirror_error *err)
{
	int rc;

	memset(site, 0, sizeof(*site));
	if (req->files != NULL) {
		site->files = req->files;
		site->n = req->n_files;
		return 0;
	}
	if ((rc = mgit_files_of_dir(&site->owned, &site->n, repo,
	    req->site_dir, err)) < 0)
		return rc;
	site->files = site->owned;
	return 0;
}

/* Free what site_open made. */
static void
site_free(struct site *site)
{
	mgit_files_free(site->owned, site->owned != NULL ? site->n : 0);
	memset(site, 0, sizeof(*site));
}

/* Free what a history_commit holds, the stage before the repository. */
static void
commit_ctx_free(struct commit_ctx *c)
{
	free_changes(c->changes, c->nchanges);
	mgit_stage_free(&c->stage);     /* before the odb's repository */
	site_free(&c->site);
	git_tree_free(c->old_tree);
	git_commit_free(c->parent);
	git_signature_free(c->sig);
	git_signature_free(c->reviewer);
}

/* Whether the tree old (the tip's, or NULL) is req->base_tree, and
 * lacks req->left_out (an edit would keep it). */
static int
is_base(const git_tree *old, const struct history_request *req)
{
	git_tree_entry *e = NULL;
	git_oid base;

	if (old == NULL || req->files == NULL || req->base_tree == NULL ||
	    git_oid_fromstr(&base, req->base_tree) != 0 ||
	    !git_oid_equal(&base, git_tree_id(old)))
		return 0;
	if (req->left_out == NULL ||
	    git_tree_entry_bypath(&e, old, req->left_out) != 0)
		return 1;
	git_tree_entry_free(e);
	return 0;
}

/*
 * The tree of c's site through its stage into *tree: an edit of
 * old_tree when it is req->base_tree (c->changes then what changed,
 * c->incremental 1), else in full (c->changes NULL). Returns 0 or < 0.
 */
static int
site_tree(git_oid *tree, struct commit_ctx *c, git_tree *old_tree,
    const struct history_request *req, mirror_error *err)
{
	int rc;

	c->changes = NULL;
	c->nchanges = 0;
	c->incremental = is_base(old_tree, req);
	if (c->incremental) {
		rc = mgit_tree_edit(tree, &c->changes, &c->nchanges, &c->stage,
		    &(struct mgit_tree_delta){ .base = old_tree,
		    .files = c->site.files, .n = c->site.n,
		    .removed = req->removed, .nremoved = req->n_removed },
		    err);
		if (rc != MGIT_TREE_STALE)
			return rc;
		c->incremental = 0;
		/* The lists contradict the base: read everything. */
		mirror_error_clear(err);
	}
	return mgit_tree_from_files(tree, &c->stage, c->site.files, c->site.n,
	    err);
}

/*
 * The commit of the tree, once known to differ from the tip: its
 * message, the commit object, the stage flushed and the branch moved.
 * Returns 0 with *commit_id and *counts, or < 0.
 */
static int
commit_tree(git_oid *commit_id, struct mgit_counts *counts,
    struct commit_ctx *c, const git_oid *tree_id, mirror_error *err)
{
	git_repository *repo = c->repo;
	git_tree *new_tree = NULL;
	strbuf msg;
	int rc;

	if (git_tree_lookup(&new_tree, repo, tree_id) < 0)
		return mgit_fail(err, MIRROR_EIO, "%s: cannot read back the new "
		    "tree", c->req->repo_path);
	strbuf_init(&msg);
	if ((rc = compose_message(&msg, counts, c, new_tree, err)) == 0 &&
	    (rc = create_commit(commit_id, c, msg.data, new_tree, err)) == 0)
		rc = publish_commit(c, commit_id, msg.data, err);
	strbuf_free(&msg);
	git_tree_free(new_tree);
	return rc;
}

/* What history_commit reports of a commit made. */
static void
fill_result(struct history_result *out, const git_oid *commit_id,
    const struct mgit_counts *counts, const struct mgit_stage *stage)
{
	out->committed = 1;
	git_oid_tostr(out->commit_id, sizeof(out->commit_id), commit_id);
	out->pages_added = counts->pages_added;
	out->pages_changed = counts->pages_changed;
	out->pages_removed = counts->pages_removed;
	out->files_changed = counts->files_changed;
	out->packed = stage->packed;
	out->new_blobs = stage->new_blobs;
}

int
history_commit(struct history_result *out,
    const struct history_request *req, mirror_error *err)
{
	struct commit_ctx c;
	struct mgit_counts counts;
	git_oid tree_id, commit_id;
	time_t when;
	int have_tip = 0, rc;

	memset(out, 0, sizeof(*out));
	memset(&c, 0, sizeof(c));
	c.req = req;
	/* The commit holds new trees and a batch of blobs at a time: on
	 * top of what the caller's threads freed and kept, that made the
	 * peak of a build. */
	xtrim();
	if ((rc = request_ok(&when, req, err)) < 0 ||
	    (rc = mgit_init(err)) < 0)
		goto out_early;
	if ((rc = open_guarded(&c.repo, &c, &have_tip, when, err)) < 0)
		goto out;
	if (have_tip) {
		const struct mgit_branch br = { c.repo, req->repo_path,
		    c.refname };

		if ((rc = read_tip(&c.parent, &c.old_tree, &br, &c.tip,
		    err)) < 0)
			goto out;
		git_oid_tostr(out->commit_id, sizeof(out->commit_id), &c.tip);
	}
	if ((rc = site_open(&c.site, c.repo, req, err)) < 0 ||
	    (rc = mgit_stage_open(&c.stage, c.repo, err)) < 0 ||
	    (rc = site_tree(&tree_id, &c, c.old_tree, req, err)) < 0)
		goto out;
	out->files = c.site.n;
	out->incremental = c.incremental;
	git_oid_tostr(out->tree_id, sizeof(out->tree_id), &tree_id);
	/* Same tree: no commit, and nothing staged reaches the disk. */
	if (have_tip && git_oid_equal(&tree_id, git_tree_id(c.old_tree)))
		goto out;
	if ((rc = commit_tree(&commit_id, &counts, &c, &tree_id, err)) == 0)
		fill_result(out, &commit_id, &counts, &c.stage);
out:
	commit_ctx_free(&c);
	git_repository_free(c.repo);
	mgit_shutdown();
out_early:
	if (rc < 0 && out->committed == 0)
		memset(out, 0, sizeof(*out));
	return rc;
}

int
history_author_ok(const char *author)
{
	mirror_error ignored;
	char *name = NULL, *email = NULL;
	int ok = mgit_parse_author(&name, &email, author, &ignored) == 0;

	free(name);
	free(email);
	return ok;
}
