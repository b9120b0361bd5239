/*
 * history.h: commit the rendered site to a git branch (SPEC section 6).
 *
 * One call turns the site into a commit on branch of the repository at
 * repo_path, with libgit2 and from memory: blobs and trees go straight
 * into the object database, never through a work tree or an index, so
 * bare and non-bare repositories work alike and a user's checkout and
 * index are never touched.
 *
 *  - The site is either req->files, a list of its files (path in the
 *    site, file on disk), or without one every regular file under
 *    req->site_dir (dotfiles included). Empty directories are left out,
 *    as git does; a symlink or a special file is an error.
 *  - At the cost of the change: when req->base_tree is the tree of the
 *    branch tip, the new tree is made as an edit of it: only the files
 *    marked changed are read and hashed, the removed ones dropped, and
 *    only the trees on the paths above a change rewritten (every other
 *    subtree keeps its id, unread); the change list for the message
 *    comes from that edit. Otherwise (no base_tree, no tip, the branch
 *    moved, lists that contradict the base) every file is read: the
 *    tree, the message and so the commit are the same either way.
 *  - With flat memory: new objects are held only until there are
 *    MGIT_PACK_THRESHOLD new blobs (then loose objects), or stream into
 *    one pack file as they are made (git_stage.h): a commit holds about
 *    the largest file and the new trees, not the site.
 *  - The first build creates the branch with a root commit; later ones
 *    use the tip as parent. When the tree equals the tip's, nothing is
 *    written and no commit is made.
 *  - The message says what changed (see git_message.h) and ends with
 *    the Mirror-Sweep-Run and Mirror-Store-Checksum trailers.
 *  - Author = committer = req->author, else user.name/user.email of the
 *    repository's own config (global and system config are not read);
 *    the date is req->time when have_time (SOURCE_DATE_EPOCH), else
 *    the run's clock (core/sys/clock.h), in UTC: the same site, parent and
 *    time give the same id.
 *  - The branch moves by compare and swap from the tip read at the
 *    start, with a reflog entry "mirror: build: <subject>" (bare
 *    repositories get core.logAllRefUpdates=true when it is unset).
 *  - With req->sign_key, the commit carries an SSH signature in its
 *    gpgsig header (git_sign.h), so 'git verify-commit' checks it.
 *  - Refused, with nothing changed: a branch checked out in a work tree
 *    of the repository (moving it would make that checkout look
 *    reverted), a stale refs/heads/<branch>.lock (reported, never
 *    removed), a branch that moved meanwhile.
 */
#ifndef MIRROR_HISTORY_H
#define MIRROR_HISTORY_H

#include <stddef.h>
#include <time.h>

#include <git2.h>

#include "git/site_file.h"   /* struct history_file */
#include "util/error.h"

/*
 * Every string and array of a request stays the caller's: history_commit
 * reads them during the call and keeps nothing. The caller vouches for
 * the incremental fields: a file with changed == 0 is byte for byte the
 * blob at its path in base_tree, and removed lists exactly the paths of
 * base_tree not in files (a removed path base_tree lacks makes the
 * commit a full one; a file wrongly marked unchanged is committed as
 * base_tree has it). Mark a file changed when in doubt: one whose blob
 * turns out equal to base_tree's is no change.
 */
struct history_request {
	const char *repo_path;      /* GITDIR: bare or non-bare repository */
	const char *branch;         /* e.g. "mirror" */
	const char *site_dir;       /* the rendered site, read from disk
	                               (when files is NULL) */
	/* The whole new site as a list, sorted by strcmp of path, each
	 * path once; NULL: every file under site_dir. A file is read from
	 * disk with the same safety as under site_dir: a symlink or a
	 * special file there is refused (-MIRROR_EINPUT). */
	const struct history_file *files;
	size_t n_files;
	const char *const *removed; /* paths of base_tree that are not in
	                               the new site (any order; a path
	                               also in files is -MIRROR_EUSAGE) */
	size_t n_removed;
	const char *base_tree;      /* hex id of the tree the unchanged
	                               files come from (the tree of the
	                               commit the output directory was last
	                               built for), or NULL */
	const char *left_out;       /* a folder DIR holds that files
	                               leave out (the pages' record), or
	                               NULL: a base_tree that holds it
	                               (committed by an older mirror) is
	                               not edited but made again in full */
	const char *author;         /* "Name <email>", or NULL: repo config */
	int have_time;              /* 1: use time (SOURCE_DATE_EPOCH) */
	time_t time;
	/* What the run's sweep changed, in the subject when no fact or
	 * conflict did (mgit_sweep_words); all 0 without a sweep. */
	long long conflicts_opened, conflicts_closed, members_added;
	const char *sweep_run_id;   /* trailer; may be NULL */
	const char *store_checksum; /* trailer; may be NULL */
	const char *sign_key;       /* SSH private key: sign each commit as
	                               git does with gpg.format=ssh
	                               (git_sign.h); NULL: unsigned */
};

struct history_result {
	int committed;              /* 1: new commit; 0: tree unchanged */
	char commit_id[GIT_OID_HEXSZ + 1]; /* new commit, else the tip
	                                      ("" when neither exists) */
	char tree_id[GIT_OID_HEXSZ + 1];   /* the tree of commit_id: the
	                                      site as committed (the next
	                                      build's base_tree) */
	size_t pages_added, pages_changed, pages_removed;
	size_t files_changed;       /* changed paths, pages included */
	size_t files;               /* files in the committed tree */
	size_t new_blobs;           /* files the repository lacked */
	int packed;                 /* 1: new objects went into one pack */
	int incremental;            /* 1: the tree was made as an edit of
	                               base_tree (only changed files read);
	                               0: in full */
};

/*
 * Commit the site (req->files, else req->site_dir) to req->branch of
 * req->repo_path. Returns 0 with
 * *out filled, or a negative mirror_status with err set to one line and
 * the branch, work tree, index and config as they were (new objects may
 * remain as unreferenced objects, which 'git gc' prunes):
 *   -MIRROR_EUSAGE  bad branch name, malformed author, no identity;
 *                   files not sorted, a path listed twice (in files,
 *                   or in files and removed)
 *   -MIRROR_EINPUT  the site holds a symlink, a special file or a name
 *                   git refuses (a malformed path, a path that is both
 *                   a file and a directory); a trailer value that is
 *                   not one line
 *   -MIRROR_EIO     not a repository, the branch is checked out, a lock
 *                   file, the branch moved meanwhile, read/write errors
 * Initialises and shuts down libgit2 itself. Nothing to free.
 */
int history_commit(struct history_result *out,
    const struct history_request *req, mirror_error *err);

/* A file read from the tip of a branch: its bytes (NUL-terminated after
 * len; the reader frees text) and the id of the commit read. */
struct history_tip {
	char *text;
	size_t len;
	char tip[GIT_OID_HEXSZ + 1];
};

/*
 * The file at path (a blob, '/'-separated) in the tree of the tip of
 * req->branch in the repository at req->repo_path (the request's other
 * fields are not looked at): a build reads what the last commit holds
 * without a checkout. Returns 1 with *out filled; 0 with out->text
 * NULL when the branch does not exist yet or its tree has no such
 * path, or < 0 with err set (out->text NULL): -MIRROR_EUSAGE for a bad
 * branch name, -MIRROR_EIO when the repository, the branch or the
 * entry cannot be read (a directory at path included). Initialises and
 * shuts down libgit2 itself.
 */
int history_tip_file(struct history_tip *out,
    const struct history_request *req, const char *path, mirror_error *err);

/*
 * Run every check history_commit makes before it writes anything (branch
 * name, author, the repository, a stale lock, the branch checked out, a
 * name clash, an identity, a signing key that cannot sign), and nothing
 * else: site_dir, changes and the
 * trailers are not looked at. mirror build calls it before its sweep, so
 * a bad --repo leaves the store as well as the site untouched. Returns 0
 * or the negative status history_commit would return for the same
 * reason. The branch can still move, or a lock appear, before the
 * commit: history_commit checks again.
 */
int history_check(const struct history_request *req, mirror_error *err);

/*
 * The memo of a branch's tip (history.c): what the tip holds in one
 * file, kept in the user's cache (core/sys/cache.h) and found again
 * without libgit2.
 *
 * Starting Debian's libgit2 parses the system's TLS certificates (a
 * good part of a no-op build), though mirror never opens a
 * connection. A commit is named by a hash of its content, so "commit C's
 * tree holds this text at this path" stays true for good: the memo keeps
 * it for the build stamp, under the repository's real path and the
 * branch, and a later run that finds the branch still at C, by reading
 * the ref's file, knows the text without starting libgit2.
 *
 * An entry is "<commit id>\n<text>". Only a plain case answers: a
 * repository directory holding refs/heads/<branch> as a file (a bare
 * repository, or a .git directory named as such), the branch name made
 * of [A-Za-z0-9._/-] alone, no <branch>.lock beside it, a HEAD that does
 * not name the branch (it could be checked out) and no linked work
 * trees. Anything else (packed refs, a symbolic ref, a file not as git
 * writes it) is no answer: the caller asks libgit2, as without a memo.
 */

/* The most bytes of text a memo keeps. */
#define TIPMEMO_TEXT_MAX 4096

/*
 * 1 with the text in text (NUL-ended; size at least TIPMEMO_TEXT_MAX +
 * 1) when the branch of the repository at repo is, by its files, at the
 * commit the memo names; else 0 (also for any case above that is not
 * plain).
 */
int tipmemo_get(char *text, size_t size, const char *repo,
    const char *branch);

/*
 * Keep text[0..len) as what commit (hex) of the branch of repo holds,
 * replacing the memo there. Best effort; nothing is kept for a name or
 * text the memo cannot answer for.
 */
void tipmemo_put(const char *repo, const char *branch, const char *commit,
    const char *text, size_t len);

/*
 * 1 when author is an --author value a commit accepts ("Name <email>",
 * as history_commit reads it); else 0. Needs no libgit2.
 */
int history_author_ok(const char *author);

/*
 * Keep libgit2 initialised from history_hold to history_release, so the
 * history calls a build makes between them (history_check,
 * history_tip_file, history_commit) share one initialisation: each
 * initialisation of Debian's libgit2 reads the system's TLS
 * certificates (about 55 M instructions), though mirror never opens a
 * network connection. Optional: each call initialises the library
 * itself anyway. Returns 0, or -MIRROR_EIO; only after 0 must
 * history_release follow, once.
 */
int history_hold(mirror_error *err);
void history_release(void);

/*
 * history_hold begun on a thread of its own (none with one job: then
 * history_hold_finish calls it), so that the certificates are read on
 * the core the check leaves idle. The caller owns it until
 * history_hold_finish or history_hold_drop.
 */
struct history_hold_start *history_hold_begin(void);

/*
 * Wait for s's history_hold (or call it now) and free s: its result,
 * 0 (history_release must follow, once) or -MIRROR_EIO with err set.
 */
int history_hold_finish(struct history_hold_start *s, mirror_error *err);

/* Wait for s's history_hold, undo it when it succeeded, and free s
 * (NULL: nothing), for a build that never needed libgit2 after all. */
void history_hold_drop(struct history_hold_start *s);

/*
 * For tests only: when set, called after every object is written and
 * just before the branch is moved, so a test can move the branch in
 * between and see the compare and swap refuse. NULL in production.
 */
#ifdef MIRROR_TEST_HOOKS
extern void (*history_test_before_update)(void *arg);
extern void *history_test_before_update_arg;
#endif

#endif
