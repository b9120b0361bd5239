/*
 * git_stage.h: where the new objects of one commit go until it is made.
 *
 * The stage is an object database backend of its own, put in front of
 * the repository's (git_odb_add_backend), so every object libgit2
 * writes during the commit (trees, the commit) lands here, and blobs
 * come in directly with their id (mgit_stage_blob). Reads of what it
 * holds are answered from it, so trees can be read back and compared.
 *
 *  - Loose, as git does for a few objects: while fewer than
 *    MGIT_PACK_THRESHOLD new blobs came in, objects are held in memory
 *    and written as loose objects by mgit_stage_flush.
 *  - Packed, from MGIT_PACK_THRESHOLD new blobs on: the held objects and
 *    every later one stream into ONE pack file (git_pack.h) as they
 *    come, compressed a batch at a time (at most MGIT_STAGE_BATCH
 *    objects or MGIT_STAGE_BATCH_BYTES bytes, on every core); a blob's
 *    bytes are freed once written. mgit_stage_flush completes the pack.
 *
 * So memory is bounded by the batch and the largest file, plus every
 * new tree and the commit (kept for reads), not by the sum of blobs.
 * Nothing reaches the objects directory before mgit_stage_flush but a
 * temporary pack file, which mgit_stage_discard and a failure remove.
 * Objects written before a later failure (e.g. of the branch update)
 * are unreferenced and harmless: 'git gc' removes them.
 */
#ifndef MIRROR_GIT_STAGE_H
#define MIRROR_GIT_STAGE_H

#include <stddef.h>

#include <git2.h>

#include "util/error.h"

/* New blobs from which the stage is one pack instead of loose objects
 * (git's own transfer.unpackLimit default). */
#ifndef MGIT_PACK_THRESHOLD
#define MGIT_PACK_THRESHOLD 100
#endif
/* Objects, and bytes, compressed together at most: 4 MiB keeps two
 * cores busy on a site's files and a commit's peak small; 2,048 objects
 * of a site of small files come near that, where a smaller batch
 * started threads too often for the work each did. */
#define MGIT_STAGE_BATCH 2048
#define MGIT_STAGE_BATCH_BYTES (4u << 20)

struct mgit_stage_be;    /* the backend (git_stage.c) */

struct mgit_stage {
	git_repository *repo;
	git_odb *odb;              /* the repository's, referenced */
	struct mgit_stage_be *be;  /* owned by odb */
	/* The repository's packs alone (NULL: not opened), and which of
	 * objects/00 to objects/ff existed when the stage opened: a blob
	 * whose directory did not is looked up in the packs alone, not
	 * also as a loose file (a stat per blob). */
	git_odb *packs;
	unsigned char loose_dirs[256];
	size_t new_blobs;          /* blobs the repository lacked */
	int packed;                /* 1: a pack is (being) written */
	char pack_name[GIT_OID_HEXSZ + 1]; /* the written pack, or "" */
};

/*
 * Put a stage in front of repo's object database. *stage is filled
 * (any earlier content ignored). Returns 0, or -MIRROR_EIO; in both
 * cases call mgit_stage_free at the end.
 */
int mgit_stage_open(struct mgit_stage *stage, git_repository *repo,
    mirror_error *err);

/* An object's bytes handed to the stage: len bytes at data, or, when z
 * is not NULL, those bytes compressed as a pack entry's stream
 * (mgit_pack_compress) in zlen bytes at z (data then NULL; inflated
 * again should the objects go loose). */
struct mgit_bytes {
	char *data;
	size_t len;
	unsigned char *z;
	size_t zlen;
};

/*
 * The blob id (hashed by the caller) of the bytes b. The stage takes
 * b->data and b->z over (it frees them, also on failure). *fresh = 1 when
 * the repository lacked it before this commit (a blob staged earlier in
 * this commit counts again), else 0. A blob already held is not stored
 * twice. Returns 0 or -MIRROR_EIO.
 */
int mgit_stage_blob(int *fresh, struct mgit_stage *stage, const git_oid *id,
    const struct mgit_bytes *b, mirror_error *err);

/*
 * A tree (hashed by the caller: id) of len bytes at data, copied in
 * unless the stage or the repository holds it: what git_odb_write
 * would do, without the refresh of the repository's packs libgit2 runs
 * on every object it does not find. Returns 0
 * or -MIRROR_EIO.
 */
int mgit_stage_tree(struct mgit_stage *stage, const git_oid *id,
    const void *data, size_t len, mirror_error *err);

/*
 * Make the staged objects permanent in the repository at repo_path:
 * complete the pack (with its index, git_pack.h), or write the held
 * objects loose. Returns 0 or -MIRROR_EIO.
 */
int mgit_stage_flush(struct mgit_stage *stage, const char *repo_path,
    mirror_error *err);

/* Drop what is staged, writing nothing (a temporary pack is removed). */
void mgit_stage_discard(struct mgit_stage *stage);

/* Release the stage (before git_repository_free); what was neither
 * flushed nor discarded is discarded. */
void mgit_stage_free(struct mgit_stage *stage);

#endif
