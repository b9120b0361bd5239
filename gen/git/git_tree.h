/*
 * git_tree.h: a site given as a list of files, as a git tree.
 *
 * Blobs and trees go straight into the object database through the
 * stage (git_stage.h): no work tree, no index. Objects the repository
 * already has are not written again.
 *
 * Two ways to the same tree id:
 *  - in full, every file of the list is read and hashed and every tree
 *    built (mgit_tree_from_files);
 *  - as an edit of a base tree, only the files marked changed are read
 *    and hashed, the removed ones dropped, and only the trees on the
 *    paths above a change rewritten: every other subtree keeps its id
 *    from the base, unread (mgit_tree_edit). The edit also gives the
 *    change list a tree-to-tree diff would.
 * Either way a directory left without a file disappears, as in git.
 */
#ifndef MIRROR_GIT_TREE_H
#define MIRROR_GIT_TREE_H

#include <stddef.h>

#include <git2.h>

#include "git/git_message.h"
#include "git/git_stage.h"
#include "git/site_file.h"
#include "util/error.h"

/* mgit_tree_edit's answer when the edit does not fit its base. */
#define MGIT_TREE_STALE 1

/*
 * Write the tree of files[0..n) through stage into *tree: each file
 * read from its disk path and stored at its path. Returns 0;
 * -MIRROR_EUSAGE when the list is not sorted by strcmp of path or names
 * a path twice; -MIRROR_EINPUT for a malformed path (empty, a leading,
 * trailing or doubled '/', deeper than MGIT_MAX_DEPTH), a path that is
 * both a file and a directory, a name git refuses, a symbolic link or
 * special file on disk; -MIRROR_EIO for a read or write failure. The
 * message names the path (the disk path for what is on disk).
 */
int mgit_tree_from_files(git_oid *tree, struct mgit_stage *stage,
    const struct history_file *files, size_t n, mirror_error *err);

/* The site as a change of base: its files[0..n), and removed[0..nremoved)
 * the paths of base that are not in files. */
struct mgit_tree_delta {
	git_tree *base;
	const struct history_file *files;
	size_t n;
	const char *const *removed;
	size_t nremoved;
};

/*
 * The same tree as mgit_tree_from_files(d->files, d->n) would give, made
 * as an edit of d->base, whose content the caller vouches for: a file
 * with changed == 0 is in base byte for byte, d->removed are not in
 * files. Only files with changed == 1
 * are read. Returns 0 with *tree and, in *changes[0..*nchanges) (the
 * caller frees each path and the array), the paths that differ from
 * base (a changed file whose blob equals base's is no change);
 * MGIT_TREE_STALE, with nothing useful made, when base contradicts the
 * lists (a removed path that base lacks, a new directory where base has
 * a file...): the caller then commits in full; or the errors of
 * mgit_tree_from_files (also -MIRROR_EUSAGE for a path both in files
 * and removed).
 */
int mgit_tree_edit(git_oid *tree, struct mgit_change **changes,
    size_t *nchanges, struct mgit_stage *stage,
    const struct mgit_tree_delta *d, mirror_error *err);

#endif
