/*
 * git_ref.c: branch name, lock and checkout guards, compare-and-swap.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "git/git_ref.h"
#include "git/git_repo.h"

int
mgit_branch_refname(char *out, const char *branch, mirror_error *err)
{
	int n, valid = 0;

	out[0] = '\0';
	if (branch == NULL || branch[0] == '\0')
		return mirror_fail(err, MIRROR_EUSAGE, "--branch: an empty "
		    "branch name");
	n = snprintf(out, MGIT_REFNAME_MAX, "refs/heads/%s", branch);
	if (n < 0 || n >= MGIT_REFNAME_MAX) {
		out[0] = '\0';
		return mirror_fail(err, MIRROR_EUSAGE, "--branch: the branch "
		    "name is longer than %d bytes", MGIT_REFNAME_MAX - 12);
	}
	/* "HEAD" is a valid ref name but never a branch. */
	if (git_reference_name_is_valid(&valid, out) < 0 || !valid ||
	    strcmp(branch, "HEAD") == 0 || branch[0] == '-') {
		out[0] = '\0';
		return mirror_fail(err, MIRROR_EUSAGE, "--branch: '%s' is not "
		    "a valid git branch name", branch);
	}
	return 0;
}

int
mgit_check_lock(git_repository *repo, const char *repo_path,
    const char *refname, mirror_error *err)
{
	char path[4096];
	struct stat st;
	int n;

	/* Branches live in the common dir, shared by linked work trees. */
	n = snprintf(path, sizeof(path), "%s%s.lock",
	    git_repository_commondir(repo), refname);
	if (n < 0 || (size_t)n >= sizeof(path))
		return mirror_fail(err, MIRROR_EIO, "%s: the path of %s.lock "
		    "is too long", repo_path, refname);
	if (lstat(path, &st) == 0)
		return mirror_fail(err, MIRROR_EIO, "%s: %s is locked: %s "
		    "exists (a git process is updating it, or one died; "
		    "remove the file only if none is running)", repo_path,
		    refname, path);
	if (errno != ENOENT && errno != ENOTDIR)
		return mirror_fail(err, MIRROR_EIO, "%s: %s", path,
		    strerror(errno));
	return 0;
}

/* *yes = 1 when r's HEAD is the symbolic ref refname (born or not). */
static int
head_is(int *yes, git_repository *r, const char *refname)
{
	git_reference *head = NULL;
	int rc;

	*yes = 0;
	rc = git_reference_lookup(&head, r, "HEAD");
	if (rc == GIT_ENOTFOUND)
		return 0;
	if (rc < 0)
		return rc;
	*yes = git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	    strcmp(git_reference_symbolic_target(head), refname) == 0;
	git_reference_free(head);
	return 0;
}

static int
refuse_checked_out(mirror_error *err, const char *repo_path,
    const char *refname, const char *workdir)
{
	return mirror_fail(err, MIRROR_EIO, "%s: %s is checked out in the "
	    "work tree %s; mirror will not move it under your files (the "
	    "checkout would look like its changes were reverted): use "
	    "another --branch or a bare repository", repo_path, refname,
	    workdir != NULL ? workdir : "(unknown)");
}

int
mgit_check_not_checked_out(git_repository *repo, const char *repo_path,
    const char *refname, mirror_error *err)
{
	git_strarray names = { NULL, 0 };
	git_repository *other = NULL;
	int yes, rc = 0;

	if (!git_repository_is_bare(repo)) {
		if (head_is(&yes, repo, refname) < 0)
			return mgit_fail(err, MIRROR_EIO, "%s: cannot read HEAD",
			    repo_path);
		if (yes)
			return refuse_checked_out(err, repo_path, refname,
			    git_repository_workdir(repo));
	}
	/* Opened through a linked work tree: the main one counts too. */
	if (git_repository_is_worktree(repo) &&
	    git_repository_open_ext(&other, git_repository_commondir(repo),
	    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) == 0) {
		if (!git_repository_is_bare(other) &&
		    head_is(&yes, other, refname) == 0 && yes)
			rc = refuse_checked_out(err, repo_path, refname,
			    git_repository_workdir(other));
		git_repository_free(other);
		other = NULL;
		if (rc < 0)
			return rc;
	}
	if (git_worktree_list(&names, repo) < 0)
		return mgit_fail(err, MIRROR_EIO, "%s: cannot list work trees",
		    repo_path);
	for (size_t i = 0; i < names.count && rc == 0; i++) {
		git_worktree *wt = NULL;

		/* A pruned or broken work tree has no checkout to protect. */
		if (git_worktree_lookup(&wt, repo, names.strings[i]) < 0)
			continue;
		if (git_repository_open_from_worktree(&other, wt) == 0) {
			if (head_is(&yes, other, refname) == 0 && yes)
				rc = refuse_checked_out(err, repo_path,
				    refname, git_worktree_path(wt));
			git_repository_free(other);
			other = NULL;
		}
		git_worktree_free(wt);
	}
	git_strarray_dispose(&names);
	git_error_clear();
	return rc;
}

/* Fail when ref "name" exists (a prefix that would hold refname). */
static int
prefix_taken(git_repository *repo, const char *repo_path,
    const char *refname, const char *name, mirror_error *err)
{
	git_reference *ref = NULL;

	if (git_reference_lookup(&ref, repo, name) < 0) {
		git_error_clear();
		return 0;
	}
	git_reference_free(ref);
	return mirror_fail(err, MIRROR_EIO, "%s: %s cannot be created: "
	    "the branch %s exists and a ref cannot also be a folder",
	    repo_path, refname, name);
}

int
mgit_check_name_free(git_repository *repo, const char *repo_path,
    const char *refname, mirror_error *err)
{
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	char glob[MGIT_REFNAME_MAX + 2], prefix[MGIT_REFNAME_MAX];
	int n, rc;

	/* refs/heads/a/b needs refs/heads/a to be absent... */
	for (const char *p = refname + sizeof("refs/heads/") - 1;
	    (p = strchr(p, '/')) != NULL; p++) {
		memcpy(prefix, refname, (size_t)(p - refname));
		prefix[p - refname] = '\0';
		if ((rc = prefix_taken(repo, repo_path, refname, prefix,
		    err)) < 0)
			return rc;
	}
	/* ... and refs/heads/a needs no refs/heads/a/... to exist. */
	n = snprintf(glob, sizeof(glob), "%s/*", refname);
	if (n < 0 || (size_t)n >= sizeof(glob))
		return mirror_fail(err, MIRROR_EIO, "%s: ref name too long",
		    refname);
	if (git_reference_iterator_glob_new(&it, repo, glob) < 0)
		return mgit_fail(err, MIRROR_EIO, "%s: cannot list refs",
		    repo_path);
	rc = git_reference_next(&ref, it);
	git_reference_iterator_free(it);
	if (rc == 0) {
		rc = mirror_fail(err, MIRROR_EIO, "%s: %s cannot be created: "
		    "the branch %s exists and a ref cannot also be a folder",
		    repo_path, refname, git_reference_name(ref));
		git_reference_free(ref);
		return rc;
	}
	git_error_clear();
	return 0;
}

int
mgit_read_tip(git_oid *tip, int *found, const struct mgit_branch *br,
    mirror_error *err)
{
	git_repository *repo = br->repo;
	const char *repo_path = br->repo_path, *refname = br->refname;
	git_reference *ref = NULL;
	git_commit *commit = NULL;
	int rc;

	*found = 0;
	memset(tip, 0, sizeof(*tip));
	rc = git_reference_lookup(&ref, repo, refname);
	if (rc == GIT_ENOTFOUND) {
		git_error_clear();
		return 0;
	}
	if (rc < 0)
		return mgit_fail(err, MIRROR_EIO, "%s: cannot read %s",
		    repo_path, refname);
	if (git_reference_type(ref) != GIT_REFERENCE_DIRECT) {
		git_reference_free(ref);
		return mirror_fail(err, MIRROR_EIO, "%s: %s is a symbolic "
		    "reference; mirror only moves a plain branch", repo_path,
		    refname);
	}
	git_oid_cpy(tip, git_reference_target(ref));
	git_reference_free(ref);
	if (git_commit_lookup(&commit, repo, tip) < 0)
		return mgit_fail(err, MIRROR_EIO, "%s: %s does not point to "
		    "a readable commit", repo_path, refname);
	git_commit_free(commit);
	*found = 1;
	return 0;
}

int
mgit_ref_cas(git_repository *repo, const char *repo_path,
    const struct mgit_ref_move *mv, mirror_error *err)
{
	const char *refname = mv->refname, *log_message = mv->log_message;
	const git_oid *old_id = mv->old_id, *new_id = mv->new_id;
	git_reference *ref = NULL;
	char was[GIT_OID_HEXSZ + 1], now[GIT_OID_HEXSZ + 1];
	git_oid cur;
	int rc, dfd;

	/*
	 * libgit2 checks that a branch to be created does not exist before
	 * it takes the ref's lock, so two first commits could both win
	 * (seen under valgrind: 10 commits reported, 8 on the branch).
	 * Between mirror processes the repository directory's flock makes
	 * the check and the update one step; the ref's own lock still
	 * guards against git itself.
	 */
	dfd = open(git_repository_commondir(repo), O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC);
	if (dfd >= 0)
		(void)flock(dfd, LOCK_EX);
	if (old_id != NULL)
		rc = git_reference_create_matching(&ref, repo, refname,
		    new_id, 1, old_id, log_message);
	else if (git_reference_name_to_id(&cur, repo, refname) == 0)
		rc = GIT_EMODIFIED;
	else
		rc = git_reference_create(&ref, repo, refname, new_id, 0,
		    log_message);
	git_reference_free(ref);
	if (dfd >= 0)
		close(dfd);         /* lets the flock go */
	if (rc == 0)
		return 0;
	if (rc == GIT_ELOCKED)
		return mgit_fail(err, MIRROR_EIO, "%s: %s is locked by "
		    "another process (its .lock file exists); the branch was "
		    "not moved", repo_path, refname);
	if (rc == GIT_EMODIFIED || rc == GIT_EEXISTS) {
		int exists = git_reference_name_to_id(&cur, repo, refname) == 0;

		/* "refs/heads/a" when "refs/heads/a/b" exists, and the like. */
		if (rc == GIT_EEXISTS && !exists)
			return mgit_fail(err, MIRROR_EIO, "%s: cannot create %s",
			    repo_path, refname);
		if (old_id != NULL)
			git_oid_tostr(was, sizeof(was), old_id);
		else
			memcpy(was, "nothing", sizeof("nothing"));
		if (exists)
			git_oid_tostr(now, sizeof(now), &cur);
		else
			memcpy(now, "nothing", sizeof("nothing"));
		git_error_clear();
		return mirror_fail(err, MIRROR_EIO, "%s: %s moved while "
		    "mirror was building (it was %s, now it is %s: another "
		    "writer?); the branch was not moved and the objects "
		    "written are unreferenced ('git gc' prunes them): run the "
		    "build again", repo_path, refname, was, now);
	}
	return mgit_fail(err, MIRROR_EIO, "%s: cannot update %s", repo_path,
	    refname);
}

/*
 * One try: 1 when core.logAllRefUpdates is set (by anyone), 0 when this
 * call set it, GIT_ELOCKED when another process holds config.lock, or
 * another negative libgit2 error.
 */
static int
reflog_try(git_repository *repo)
{
	git_config *cfg = NULL, *local = NULL;
	git_config_entry *entry = NULL;
	int rc;

	/* A fresh config object each try, so a value another process has
	 * just written is seen. */
	if ((rc = git_repository_config(&cfg, repo)) < 0)
		return rc;
	rc = git_config_open_level(&local, cfg, GIT_CONFIG_LEVEL_LOCAL);
	if (rc == 0) {
		rc = git_config_get_entry(&entry, local,
		    "core.logallrefupdates");
		if (rc == 0)
			rc = 1;
		else if (rc == GIT_ENOTFOUND)
			rc = git_config_set_bool(local, "core.logAllRefUpdates",
			    1);
	}
	git_config_entry_free(entry);
	git_config_free(local);
	git_config_free(cfg);
	return rc;
}

int
mgit_enable_reflog(git_repository *repo, const char *repo_path,
    mirror_error *err)
{
	int rc = 0;

	if (!git_repository_is_bare(repo))
		return 0;
	/* Two builds starting at once both find the setting missing; the
	 * one that loses the race for config.lock waits for the other
	 * (about a second at most) and then finds it set. */
	for (int attempt = 0; attempt < 100; attempt++) {
		rc = reflog_try(repo);
		if (rc != GIT_ELOCKED)
			break;
		git_error_clear();
		(void)nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 },
		    NULL);
	}
	if (rc < 0) {
		rc = mgit_fail(err, MIRROR_EIO, "%s: cannot set "
		    "core.logAllRefUpdates", repo_path);
		git_error_clear();
		return rc;
	}
	git_error_clear();
	return 0;
}
