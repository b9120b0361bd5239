/*
 * git_ref.h: the branch mirror writes: its name, its guards and the
 * compare-and-swap that moves it.
 *
 * The branch only ever moves from the tip read when the build began to
 * the new commit; anything else (another writer, a stale lock file, the
 * branch checked out in a work tree) is an error that changes nothing.
 */
#ifndef MIRROR_GIT_REF_H
#define MIRROR_GIT_REF_H

#include <stddef.h>

#include <git2.h>

#include "util/error.h"

/* "refs/heads/" + a branch name git accepts, plus the NUL. */
#define MGIT_REFNAME_MAX 256

/*
 * Turn branch into "refs/heads/<branch>" in out[MGIT_REFNAME_MAX]
 * (libgit2 must be initialised: mgit_init). Returns 0, or -MIRROR_EUSAGE when git would not accept the name
 * (git_reference_name_is_valid) or it is too long.
 */
int mgit_branch_refname(char *out, const char *branch, mirror_error *err);

/*
 * Fail with -MIRROR_EIO when "<refname>.lock" exists in the repository:
 * some git process is updating the branch, or one died and left the
 * file. The file is reported, never removed (only a human knows which).
 * repo_path names the repository in the message.
 */
int mgit_check_lock(git_repository *repo, const char *repo_path,
    const char *refname, mirror_error *err);

/*
 * Fail with -MIRROR_EIO when refname is what HEAD of a work tree of repo
 * points to (the main one unless bare, and every linked one), born or
 * not: moving it would leave that checkout's files and index behind its
 * branch, so 'git status' would show mirror's commit reverted.
 */
int mgit_check_not_checked_out(git_repository *repo, const char *repo_path,
    const char *refname, mirror_error *err);

/*
 * Fail with -MIRROR_EIO when refname cannot exist next to the refs the
 * repository has: "refs/heads/a" when "refs/heads/a/b" exists, or the
 * other way round. Checked before anything is written.
 */
int mgit_check_name_free(git_repository *repo, const char *repo_path,
    const char *refname, mirror_error *err);

/* A branch of an open repository: the repository, its path and the ref
 * ("refs/heads/<branch>") as messages name them. */
struct mgit_branch {
	git_repository *repo;
	const char *repo_path;
	const char *refname;
};

/*
 * Read br's tip: *found = 1 and *tip set, or *found = 0 when the
 * branch does not exist yet. Returns 0, or -MIRROR_EIO when the ref is
 * symbolic, unreadable or does not point to a commit.
 */
int mgit_read_tip(git_oid *tip, int *found, const struct mgit_branch *br,
    mirror_error *err);

/* A move of a branch: refname from old_id (NULL: it does not exist) to
 * new_id, with log_message in the reflog. */
struct mgit_ref_move {
	const char *refname;
	const git_oid *old_id;
	const git_oid *new_id;
	const char *log_message;
};

/*
 * Compare and swap: point mv->refname at mv->new_id only if it still
 * points at mv->old_id (NULL: only if it does not exist), writing a
 * reflog entry with mv->log_message. Returns 0; or -MIRROR_EIO when the
 * branch moved (or appeared) meanwhile, its lock file exists, or writing
 * failed; the branch is then exactly as it was.
 */
int mgit_ref_cas(git_repository *repo, const char *repo_path,
    const struct mgit_ref_move *mv, mirror_error *err);

/*
 * A bare repository keeps no reflog unless core.logAllRefUpdates says
 * so; set it to true there when it is unset, so every move of the
 * branch is in 'git reflog'. An explicit setting is left as it is.
 * Non-bare repositories log branches by default: nothing to do.
 * Returns 0 or -MIRROR_EIO.
 */
int mgit_enable_reflog(git_repository *repo, const char *repo_path,
    mirror_error *err);

#endif
