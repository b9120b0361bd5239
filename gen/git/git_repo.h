/*
 * git_repo.h: libgit2 set up the way a tool that writes into somebody
 * else's repository should use it (after stagit).
 *
 * mgit_init hardens the library before any repository is opened: no
 * system, global or XDG config is searched (so identity and settings
 * come only from the command line or from the repository's own
 * config), strict object creation is on, and repositories are opened
 * at exactly the given path, never discovered in a parent directory.
 */
#ifndef MIRROR_GIT_REPO_H
#define MIRROR_GIT_REPO_H

#include <sys/types.h>

#include <git2.h>

#include "util/error.h"

/* The largest tree libgit2 keeps in its object cache once read (its
 * own limit is 4 KiB; mgit_init). */
#define MGIT_TREE_CACHE_BYTES (64u << 20)

/*
 * Initialise libgit2 (reference counted, so nested pairs are fine) and
 * harden it. Returns 0, or -MIRROR_EIO. Every successful call must be
 * paired with one mgit_shutdown, after every libgit2 object is freed.
 */
int mgit_init(mirror_error *err);
void mgit_shutdown(void);

/*
 * Open the repository at path: a bare repository's directory or a work
 * tree's top directory (holding .git). Nothing above path is searched.
 * Returns 0 and *out (free with git_repository_free), or -MIRROR_EIO
 * with one line naming path ("not a git repository", ...).
 */
int mgit_open(git_repository **out, const char *path, mirror_error *err);

/*
 * 1 when path looks like a repository (holds .git or HEAD) but its
 * directory is owned by another user than euid: libgit2, like git,
 * refuses to open those (safe.directory, which would allow it, lives in
 * the global config that mirror does not read). Else 0.
 */
int mgit_foreign_repo(const char *path, uid_t euid);

/*
 * Record a libgit2 failure: the formatted prefix, then ": " and
 * libgit2's own last error message when it has one. Returns -status.
 */
int mgit_fail(mirror_error *err, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
