/*
 * git_tree.h: a directory on disk as a git tree, built from memory.
 *
 * Every regular file under the directory becomes a blob and every
 * directory a tree, written straight into the object database with
 * git_odb_write and git_treebuilder: no work tree, no index. Objects the
 * repository already has are not written again.
 *
 * Where new objects go (the "stage"): a few of them are written as
 * loose objects, as git does; from MGIT_PACK_THRESHOLD new files on,
 * they are collected in memory (libgit2's mempack backend) and written
 * as ONE pack file when the commit is ready, which for thousands of
 * pages is much faster than one file per object. Nothing reaches the
 * disk for a tree that turns out equal to the branch tip's. Objects
 * written before a later failure (e.g. of the branch update) are
 * unreferenced and harmless: 'git gc' removes them.
 */
#ifndef MIRROR_GIT_TREE_H
#define MIRROR_GIT_TREE_H

#include <stddef.h>

#include <git2.h>

#include "git/site_file.h"
#include "util/error.h"

/* New blobs from which the stage is one pack instead of loose objects
 * (git's own transfer.unpackLimit default). */
#ifndef MGIT_PACK_THRESHOLD
#define MGIT_PACK_THRESHOLD 100
#endif

struct mgit_stage {
	git_repository *repo;
	git_odb *odb;              /* the repository's, referenced */
	git_odb_backend *mempack;  /* owned by odb; NULL: loose objects */
	git_oid *ids;              /* objects written, maybe staged */
	size_t nids, capids;
	size_t objects;            /* objects in the written pack */
	char pack_name[GIT_OID_HEXSZ + 1]; /* the written pack, or "" */
};

struct mgit_site_stats {
	size_t files;       /* regular files in the tree */
	size_t dirs;        /* non-empty directories, the root included */
	size_t new_blobs;   /* files whose content the repository lacked */
	size_t bytes;       /* bytes of all files */
};

/*
 * Write the tree of every regular file under dir (dotfiles included;
 * empty directories are left out, as git does) into repo and set *tree.
 * stage must be zeroed by the caller; afterwards it must be finished
 * with mgit_stage_flush or mgit_stage_discard, then mgit_stage_free.
 * Returns 0; -MIRROR_EINPUT when dir holds something a tree cannot hold
 * (a symlink, a device, a FIFO, a name git refuses such as ".git"),
 * -MIRROR_EIO for a read or write failure; the message names the path.
 */
int mgit_tree_from_dir(git_oid *tree, struct mgit_site_stats *stats,
    struct mgit_stage *stage, git_repository *repo, const char *dir,
    mirror_error *err);

/*
 * As mgit_tree_from_dir, for the site given as the list files[0..n):
 * each file read from its disk path (a symlink or a special file there
 * is -MIRROR_EINPUT), stored at its path. Returns as mgit_tree_from_dir;
 * also -MIRROR_EUSAGE when the list is not sorted by strcmp of path or
 * names a path twice, -MIRROR_EINPUT for a malformed path or a path
 * that is both a file and a directory.
 */
int mgit_tree_from_files(git_oid *tree, struct mgit_site_stats *stats,
    struct mgit_stage *stage, git_repository *repo,
    const struct history_file *files, size_t n, mirror_error *err);

/* Note an object written into the odb after mgit_tree_from_dir (the
 * commit), so that mgit_stage_flush packs it too. */
void mgit_stage_note(struct mgit_stage *stage, const git_oid *id);

/*
 * Make staged objects permanent: write the in-memory objects as one
 * pack (with its index, see git_pack.h) into the repository. Does
 * nothing for loose objects. Returns 0 or -MIRROR_EIO.
 */
int mgit_stage_flush(struct mgit_stage *stage, const char *repo_path,
    mirror_error *err);

/* Drop staged in-memory objects without writing them. */
void mgit_stage_discard(struct mgit_stage *stage);

/* Release the stage's references (before git_repository_free). */
void mgit_stage_free(struct mgit_stage *stage);

#endif
