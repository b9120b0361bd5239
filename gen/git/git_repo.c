/*
 * git_repo.c: libgit2 initialisation, hardening and opening.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "git/git_check.h"
#include "git/git_repo.h"
#include "gitlib/gitlib.h"

int
mgit_fail(mirror_error *err, int status, const char *fmt, ...)
{
	const git_error *ge = git_error_last();
	char what[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	/* A cut-off prefix still names the place; keep going. */
	if (n < 0)
		what[0] = '\0';
	if (ge != NULL && ge->message != NULL && ge->message[0] != '\0')
		return mirror_fail(err, status, "%s: %s", what, ge->message);
	return mirror_fail(err, status, "%s", what);
}

int
mgit_init(mirror_error *err)
{
	static const int levels[] = {
		GIT_CONFIG_LEVEL_SYSTEM, GIT_CONFIG_LEVEL_XDG,
		GIT_CONFIG_LEVEL_GLOBAL, GIT_CONFIG_LEVEL_PROGRAMDATA
	};

	if (mgit_lib_open(err) < 0)
		return -MIRROR_EIO;
	if (git_libgit2_init() < 0)
		return mgit_fail(err, MIRROR_EIO, "libgit2: cannot initialise");
	/*
	 * An empty search path means "no file at this level": the user's
	 * ~/.gitconfig or /etc/gitconfig cannot change what mirror writes.
	 */
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		if (git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, levels[i],
		    "") < 0) {
			mgit_fail(err, MIRROR_EIO, "libgit2: cannot clear the "
			    "config search path");
			git_libgit2_shutdown();
			return -MIRROR_EIO;
		}
	}
	/* Refuse to point a tree or commit at an object that is not there. */
	if (git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, 1) < 0 ||
	    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 1) < 0) {
		mgit_fail(err, MIRROR_EIO, "libgit2: cannot enable strict "
		    "object checks");
		git_libgit2_shutdown();
		return -MIRROR_EIO;
	}
	/*
	 * Keep trees of any size once read: libgit2 caches none over 4 KiB,
	 * so each path looked up under a big directory read, inflated and
	 * hashed its tree again (a commit that changed thousands of files
	 * of one folder read that folder's big tree once for each). A
	 * speed-up only: a failure changes nothing else.
	 */
	(void)git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT,
	    (int)GIT_OBJECT_TREE, (size_t)MGIT_TREE_CACHE_BYTES);
	return 0;
}

void
mgit_shutdown(void)
{
	git_libgit2_shutdown();
}

int
mgit_foreign_repo(const char *path, uid_t euid)
{
	static const char *const marks[] = { "/.git", "/HEAD" };
	char p[4096];
	struct stat st;

	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		int n = snprintf(p, sizeof(p), "%s%s", path, marks[i]);

		if (n < 0 || (size_t)n >= sizeof(p))
			return 0;
		/* The directory's owner is what git checks. */
		if (lstat(p, &st) == 0 && stat(path, &st) == 0)
			return st.st_uid != euid;
	}
	return 0;
}

int
mgit_open(git_repository **out, const char *path, mirror_error *err)
{
	struct stat st;
	int rc;

	*out = NULL;
	if (path == NULL || path[0] == '\0')
		return mirror_fail(err, MIRROR_EUSAGE, "--repo: an empty "
		    "path is not a git repository");
	/* Say plainly what is wrong before libgit2 words it its own way. */
	if (stat(path, &st) != 0)
		return mirror_fail(err, MIRROR_EIO, "%s: %s", path,
		    errno == ENOENT ? "no such directory (not a git "
		    "repository)" : strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return mirror_fail(err, MIRROR_EIO, "%s: not a directory "
		    "(not a git repository)", path);
	/*
	 * The repository's own files before libgit2 reads any: a FIFO as
	 * config, an include or packed-refs would hang it; a bad value
	 * or line would fail only when the branch is moved.
	 */
	if ((rc = mgit_check_files(path, err)) < 0)
		return rc;
	/*
	 * NO_SEARCH: path itself must be the repository (or hold .git);
	 * a directory inside someone's checkout is not silently taken to
	 * mean that checkout.
	 */
	rc = git_repository_open_ext(out, path,
	    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	/* libgit2 1.5 reports a refused owner as "not found": tell apart. */
	if (rc < 0 && mgit_foreign_repo(path, geteuid()))
		rc = GIT_EOWNER;
	if (rc == GIT_ENOTFOUND) {
		*out = NULL;
		return mirror_fail(err, MIRROR_EIO, "%s: not a git "
		    "repository (create one with 'git init --bare %s')",
		    path, path);
	}
	if (rc == GIT_EOWNER) {
		*out = NULL;
		git_error_clear();
		return mirror_fail(err, MIRROR_EIO, "%s: the repository is "
		    "owned by another user; mirror, like git, will not write "
		    "into it (run as its owner)", path);
	}
	if (rc < 0) {
		*out = NULL;
		return mgit_fail(err, MIRROR_EIO, "%s: cannot open the git "
		    "repository", path);
	}
	return 0;
}
