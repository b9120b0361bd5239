/*
 * git_check.h: a repository's own files checked before libgit2 reads
 * them, so a hostile or damaged repository is one line of bad input
 * (exit 2) found before the sweep writes anything, never a hang inside
 * libgit2 and never an error met only when the branch is moved.
 *
 * Checked, each a regular file or absent (a FIFO would block libgit2's
 * open forever, a device could be read forever): .git (a directory or a
 * gitlink file), commondir, gitdir, config, every file config names by
 * include.path or includeIf.*.path (nested, as libgit2 follows them:
 * relative to the naming file's directory, "~/" against HOME as git
 * does; every includeIf is checked whatever its condition), and
 * packed-refs. The contents of two of them are checked too: every
 * config value mirror or libgit2's write path reads (core.bare,
 * core.logAllRefUpdates, ...) must parse as its type, and every line
 * of packed-refs must be one libgit2 accepts.
 */
#ifndef MIRROR_GIT_CHECK_H
#define MIRROR_GIT_CHECK_H

#include "util/error.h"

/*
 * Check the repository at repo_path (as given to mgit_open) without
 * libgit2. Returns 0 (also when the files that locate the repository
 * are missing: opening it then says what is wrong), or -MIRROR_EINPUT
 * with one line naming the file, and the line, key and target.
 */
int mgit_check_files(const char *repo_path, mirror_error *err);

/*
 * The value of a config key mirror or libgit2 reads, checked as its
 * type: returns 0 when key (lower case, "core.bare") is not one mirror
 * knows or value parses as its type (NULL is "true", as in git), else
 * -MIRROR_EINPUT naming where (e.g. "g.git/config:3"), key and value.
 */
int mgit_check_value(const char *where, const char *key, const char *value,
    mirror_error *err);

#endif
