/*
 * history.c: one mirror build as one commit (see history.h).
 *
 * Order matters for "nothing half-done": everything that can be checked
 * (names, author, repository, lock, checkout) is checked before any
 * object is written; objects are written before the branch moves; the
 * branch moves last, by compare and swap.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "git/git_message.h"
#include "git/git_ref.h"
#include "git/git_repo.h"
#include "git/git_sig.h"
#include "git/git_sign.h"
#include "git/git_tree.h"
#include "git/history.h"
#include "git/history_words.h"
#include "sys/clock.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

void (*history_test_before_update)(void *arg);
void *history_test_before_update_arg;

/* The changed paths between two trees (old_tree NULL: all added). */
static int
tree_changes(struct mgit_change **out, size_t *n, git_repository *repo,
    git_tree *old_tree, git_tree *new_tree, mirror_error *err)
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
	if (git_diff_tree_to_tree(&diff, repo, old_tree, new_tree, &opts) < 0)
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
tree_text(char **text, size_t *len, git_repository *repo, git_tree *tree,
    const char *path, mirror_error *err)
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
	if (rc < 0 || git_blob_lookup(&blob, repo, git_tree_entry_id(te)) < 0) {
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

static int
cmp_file_path(const void *key, const void *elem)
{
	return strcmp(key, ((const struct history_file *)elem)->path);
}

/*
 * The new text of path: the file the tree was made from, req->files'
 * disk for path, else path under req->site_dir. Returns 0 with *text
 * (the caller's to free) and *len, or -MIRROR_EIO.
 */
static int
new_text(char **text, size_t *len, const struct history_request *req,
    const char *path, mirror_error *err)
{
	const struct history_file *hf = NULL;
	strbuf file, data;
	char buf[65536];
	size_t got;
	FILE *f;
	int rc = 0;

	*text = NULL;
	*len = 0;
	strbuf_init(&file);
	strbuf_init(&data);
	if (req->files == NULL)
		strbuf_printf(&file, "%s/%s", req->site_dir, path);
	else if ((hf = bsearch(path, req->files, req->n_files,
	    sizeof(*req->files), cmp_file_path)) != NULL)
		strbuf_puts(&file, hf->disk);
	else {
		rc = mirror_fail(err, MIRROR_EIO, "history: %s is in the new "
		    "tree but not in the site's files", path);
		goto out;
	}
	if ((f = fopen(file.data, "rb")) == NULL) {
		rc = mirror_fail(err, MIRROR_EIO, "%s: %s", file.data,
		    strerror(errno));
		goto out;
	}
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&data, buf, got);
	if (ferror(f))
		rc = mirror_fail(err, MIRROR_EIO, "%s: read error", file.data);
	fclose(f);
	if (rc == 0) {
		*len = data.len;
		*text = strbuf_detach(&data);
	}
out:
	strbuf_free(&file);
	strbuf_free(&data);
	return rc;
}

/*
 * What the changed project and conflict twins say changed, in words,
 * into w (hw_init'ed). Reads only the files hw_wants. Returns 0 or
 * -MIRROR_EIO.
 */
static int
describe(struct hw_words *w, git_repository *repo, git_tree *old_tree,
    const struct history_request *req, const struct mgit_change *ch,
    size_t n, mirror_error *err)
{
	struct hw_file *files = xcalloc(n ? n : 1, sizeof(*files));
	size_t nf = 0;
	int initial = old_tree == NULL, rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++) {
		struct hw_file *f = &files[nf];
		char *o = NULL, *t = NULL;

		if (!hw_wants(ch[i].path, initial))
			continue;
		f->path = ch[i].path;
		if (ch[i].kind != MGIT_ADDED && (rc = tree_text(&o,
		    &f->old_len, repo, old_tree, ch[i].path, err)) < 0)
			break;
		if (ch[i].kind != MGIT_REMOVED && (rc = new_text(&t,
		    &f->new_len, req, ch[i].path, err)) < 0) {
			free(o);
			break;
		}
		f->old_text = o;
		f->new_text = t;
		nf++;
	}
	if (rc == 0)
		hw_describe(w, files, nf, initial);
	for (size_t i = 0; i < nf; i++) {
		free((char *)(uintptr_t)files[i].old_text);
		free((char *)(uintptr_t)files[i].new_text);
	}
	free(files);
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
 * Every check that needs no object written: the branch name, the author,
 * the repository itself, a lock file, a checkout of the branch, a name
 * clash, and an identity. On success *repo and *sig are the caller's to
 * free, refname holds "refs/heads/<branch>" and *tip / *have_tip the
 * branch's tip. libgit2 must be initialised. Returns 0 or < 0.
 */
static int
open_guarded(git_repository **repo, git_signature **sig,
    char refname[MGIT_REFNAME_MAX], git_oid *tip, int *have_tip,
    const struct history_request *req, time_t when, mirror_error *err)
{
	const char *rp = req->repo_path;
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
	if ((rc = mgit_open(repo, rp, err)) < 0 ||
	    (rc = mgit_check_lock(*repo, rp, refname, err)) < 0 ||
	    (rc = mgit_check_not_checked_out(*repo, rp, refname, err)) < 0 ||
	    (rc = mgit_read_tip(tip, have_tip, *repo, rp, refname,
	    err)) < 0 ||
	    (!*have_tip && (rc = mgit_check_name_free(*repo, rp, refname,
	    err)) < 0) ||
	    (rc = mgit_signature(sig, *repo, rp, req->author, when,
	    err)) < 0)
		return rc;
	return 0;
}

int
history_check(const struct history_request *req, mirror_error *err)
{
	char refname[MGIT_REFNAME_MAX];
	git_repository *repo = NULL;
	git_signature *sig = NULL;
	git_oid tip;
	int have_tip, rc;

	if (req->repo_path == NULL)
		return mirror_fail(err, MIRROR_EUSAGE, "history: a repository "
		    "is required");
	if ((rc = mgit_init(err)) < 0)
		return rc;
	rc = open_guarded(&repo, &sig, refname, &tip, &have_tip, req,
	    req->time, err);
	if (rc == 0 && req->sign_key != NULL)
		rc = mgit_sign_check(req->sign_key, err);
	git_signature_free(sig);
	git_repository_free(repo);
	mgit_shutdown();
	return rc;
}

/*
 * Write the commit object: signed with req->sign_key when given (the
 * object's bytes go to ssh-keygen, the signature into its gpgsig
 * header, as git does), else plain. Returns 0 with *id, or < 0.
 */
static int
create_commit(git_oid *id, git_repository *repo, const git_signature *sig,
    const char *message, const git_tree *tree, size_t nparents,
    const git_commit *parents[], const struct history_request *req,
    mirror_error *err)
{
	git_buf buf = GIT_BUF_INIT;
	strbuf signature;
	int rc;

	if (req->sign_key == NULL) {
		if (git_commit_create(id, repo, NULL, sig, sig, NULL, message,
		    tree, nparents, parents) < 0)
			return mgit_fail(err, MIRROR_EIO, "%s: cannot create "
			    "the commit", req->repo_path);
		return 0;
	}
	if (git_commit_create_buffer(&buf, repo, sig, sig, NULL, message,
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

/* The commit tip and its tree, into *parent and *tree. Returns 0, or
 * -MIRROR_EIO naming the repository rp and refname. */
static int
read_tip(git_commit **parent, git_tree **tree, git_repository *repo,
    const git_oid *tip, const char *rp, const char *refname,
    mirror_error *err)
{
	if (git_commit_lookup(parent, repo, tip) < 0 ||
	    git_commit_tree(tree, *parent) < 0)
		return mgit_fail(err, MIRROR_EIO, "%s: cannot read the tree of "
		    "%s", rp, refname);
	return 0;
}

int
history_tip_file(char **text, size_t *len, const char *repo_path,
    const char *branch, const char *path, mirror_error *err)
{
	char refname[MGIT_REFNAME_MAX];
	git_repository *repo = NULL;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_oid tip;
	int found = 0, rc;

	*text = NULL;
	*len = 0;
	if ((rc = mgit_init(err)) < 0)
		return rc;
	if ((rc = mgit_branch_refname(refname, branch, err)) == 0 &&
	    (rc = mgit_open(&repo, repo_path, err)) == 0 &&
	    (rc = mgit_read_tip(&tip, &found, repo, repo_path, refname,
	    err)) == 0 && found &&
	    (rc = read_tip(&commit, &tree, repo, &tip, repo_path, refname,
	    err)) == 0)
		rc = tree_text(text, len, repo, tree, path, err);
	git_tree_free(tree);
	git_commit_free(commit);
	git_repository_free(repo);
	mgit_shutdown();
	return rc < 0 ? rc : *text != NULL;
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
 * The message of the commit from old_tree (NULL: the first) to
 * new_tree, into msg: what changed, in words, then the pages and the
 * trailers (git_message.h, history_words.h); *counts gets the page
 * counts. Returns 0 or < 0 with err set.
 */
static int
compose_message(strbuf *msg, struct mgit_counts *counts,
    git_repository *repo, git_tree *old_tree, git_tree *new_tree,
    const struct history_request *req, mirror_error *err)
{
	struct mgit_change *changes = NULL;
	struct hw_words words;
	strbuf sweep;
	size_t nchanges = 0;
	int rc;

	hw_init(&words);
	strbuf_init(&sweep);
	mgit_sweep_words(&sweep, req->conflicts_opened, req->conflicts_closed,
	    req->members_added);
	if ((rc = tree_changes(&changes, &nchanges, repo, old_tree,
	    new_tree, err)) == 0 &&
	    (rc = describe(&words, repo, old_tree, req, changes, nchanges,
	    err)) == 0)
		rc = mgit_message(msg, counts, changes, nchanges,
		    sweep.data, &words, req->sweep_run_id,
		    req->store_checksum, err);
	free_changes(changes, nchanges);
	strbuf_free(&sweep);
	hw_free(&words);
	return rc;
}

/*
 * Make commit_id, written and staged, the tip of refname: the staged
 * objects reach the disk, then the branch moves by compare and swap from
 * tip (NULL: it must not exist) with a reflog line from msg. Returns 0
 * or < 0 with err set.
 */
static int
publish_commit(git_repository *repo, struct mgit_stage *stage,
    const char *refname, const git_oid *tip, const git_oid *commit_id,
    const char *msg, const struct history_request *req, mirror_error *err)
{
	strbuf logmsg;
	int rc;

	mgit_stage_note(stage, commit_id);
	if ((rc = mgit_stage_flush(stage, req->repo_path, err)) < 0)
		return rc;
	if (history_test_before_update != NULL)
		history_test_before_update(history_test_before_update_arg);
	strbuf_init(&logmsg);
	reflog_message(&logmsg, msg, tip == NULL);
	if ((rc = mgit_enable_reflog(repo, req->repo_path, err)) == 0)
		rc = mgit_ref_cas(repo, req->repo_path, refname, tip,
		    commit_id, logmsg.data, err);
	strbuf_free(&logmsg);
	return rc;
}

/*
 * The tree of the site, req->files or else req->site_dir, written
 * through stage (git_tree.h). Returns 0 with *tree and *stats, or < 0.
 */
static int
site_tree(git_oid *tree, struct mgit_site_stats *stats,
    struct mgit_stage *stage, git_repository *repo,
    const struct history_request *req, mirror_error *err)
{
	if (req->files != NULL)
		return mgit_tree_from_files(tree, stats, stage, repo,
		    req->files, req->n_files, err);
	return mgit_tree_from_dir(tree, stats, stage, repo, req->site_dir,
	    err);
}

int
history_commit(struct history_result *out,
    const struct history_request *req, mirror_error *err)
{
	char refname[MGIT_REFNAME_MAX];
	git_repository *repo = NULL;
	git_signature *sig = NULL;
	git_commit *parent = NULL;
	const git_commit *parents[1];
	git_tree *old_tree = NULL, *new_tree = NULL;
	struct mgit_stage stage;
	struct mgit_site_stats stats;
	struct mgit_counts counts;
	strbuf msg;
	git_oid tip, tree_id, commit_id;
	const char *rp = req->repo_path;
	time_t when;
	int have_tip = 0, rc;

	memset(out, 0, sizeof(*out));
	memset(&stage, 0, sizeof(stage));
	strbuf_init(&msg);
	if ((rc = request_ok(&when, req, err)) < 0 ||
	    (rc = mgit_init(err)) < 0)
		goto out_early;
	if ((rc = open_guarded(&repo, &sig, refname, &tip, &have_tip, req,
	    when, err)) < 0)
		goto out;
	if (have_tip) {
		if ((rc = read_tip(&parent, &old_tree, repo, &tip, rp,
		    refname, err)) < 0)
			goto out;
		git_oid_tostr(out->commit_id, sizeof(out->commit_id), &tip);
	}
	if ((rc = site_tree(&tree_id, &stats, &stage, repo, req, err)) < 0)
		goto out;
	out->files = stats.files;
	git_oid_tostr(out->tree_id, sizeof(out->tree_id), &tree_id);
	/* Same tree: no commit, and nothing staged reaches the disk. */
	if (have_tip && git_oid_equal(&tree_id, git_tree_id(old_tree))) {
		mgit_stage_discard(&stage);
		goto out;
	}
	if (git_tree_lookup(&new_tree, repo, &tree_id) < 0) {
		rc = mgit_fail(err, MIRROR_EIO, "%s: cannot read back the new "
		    "tree", rp);
		goto out;
	}
	parents[0] = parent;
	if ((rc = compose_message(&msg, &counts, repo, old_tree, new_tree,
	    req, err)) < 0 ||
	    (rc = create_commit(&commit_id, repo, sig, msg.data, new_tree,
	    have_tip ? 1 : 0, parents, req, err)) < 0 ||
	    (rc = publish_commit(repo, &stage, refname, have_tip ? &tip :
	    NULL, &commit_id, msg.data, req, err)) < 0)
		goto out;

	out->committed = 1;
	git_oid_tostr(out->commit_id, sizeof(out->commit_id), &commit_id);
	out->pages_added = counts.pages_added;
	out->pages_changed = counts.pages_changed;
	out->pages_removed = counts.pages_removed;
	out->files_changed = counts.files_changed;
	out->packed = stage.mempack != NULL;
	out->new_blobs = stats.new_blobs;
out:
	git_tree_free(new_tree);
	git_tree_free(old_tree);
	git_commit_free(parent);
	git_signature_free(sig);
	mgit_stage_free(&stage);
	git_repository_free(repo);
	mgit_shutdown();
out_early:
	strbuf_free(&msg);
	if (rc < 0 && out->committed == 0)
		memset(out, 0, sizeof(*out));
	return rc;
}
