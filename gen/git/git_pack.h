/*
 * git_pack.h: write objects as one git pack file and its index (v2).
 *
 * Why not libgit2's packbuilder: it searches for deltas between every
 * object and its neighbours, which for thousands of fresh pages costs
 * more than all else together; 'git gc' finds deltas later anyway.
 * Here every object is stored whole, zlib-compressed at the fastest
 * level, as git's own loose objects are; the streams are ISA-L's igzip
 * (level 1, and a fixed code for small objects: MGIT_PACK_SMALL),
 * faster than libdeflate's fastest level (itself faster than zlib's)
 * for a pack a little larger (the bench compares them:
 * doc/performance.md); any zlib reads them.
 *
 * The index is written from what the writer already knows (ids,
 * offsets, CRC-32s): libgit2's git_indexer, which reads the pack back,
 * inflating and hashing every object, writes the same bytes many
 * times slower (doc/performance.md).
 *
 * The checksums that end the pack and its index are nettle's SHA-1,
 * without collision detection: they check mirror's own bytes and name
 * the pack file, never an object; recent git can be built to compute
 * them so too. Object ids come from libgit2 (git_odb_hash), whose
 * SHA-1 detects collision attacks.
 *
 * Objects stream into the pack as they are added: their number is not
 * known in advance. mgit_pack_finish writes it into the header, then
 * reads the pack back for its checksum (SHA-1 runs from the first
 * byte, so the header must be final first).
 *
 * The pack and index are written under temporary names in
 * <objects>/pack/, flushed to disk, then renamed, the index last: a
 * reader sees a complete pack or none. A failure removes the temporary
 * files.
 */
#ifndef MIRROR_GIT_PACK_H
#define MIRROR_GIT_PACK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <git2.h>
#include <nettle/sha1.h>

#include "util/error.h"

/* What compresses pack entries (mgit_pack_compress): one for each
 * thread that compresses, reused for each object. */
struct mgit_deflater;

/* Objects shorter than this many bytes are compressed with one fixed
 * Huffman code (igzip's level 0), longer ones at level 1: at 4 KiB,
 * nine in ten files of a site, a third of its bytes. */
#define MGIT_PACK_SMALL 4096

struct mgit_pack_entry {
	git_oid oid;
	uint64_t offset;   /* of the entry in the pack */
	uint32_t crc;      /* CRC-32 of the entry's bytes */
};

struct mgit_pack {
	char *dir;                       /* <objects>/pack */
	char *tmp_pack;                  /* temporary .pack path */
	FILE *fp;
	uint64_t offset;                 /* bytes written */
	struct mgit_pack_entry *entries;
	size_t n, cap;                   /* added so far, room */
	struct mgit_deflater *z;         /* reused for each object */
	unsigned char *zbuf;             /* deflate output */
	size_t zcap;
	char name[GIT_OID_HEXSZ + 1];    /* pack-<name>.pack, when done */
};

/*
 * Start a pack in objects_dir/pack (created if missing). Returns 0, or
 * -MIRROR_EIO naming the path; in both cases call mgit_pack_free at the
 * end.
 */
int mgit_pack_begin(struct mgit_pack *pk, const char *objects_dir,
    mirror_error *err);

struct mgit_pack_obj;

/*
 * Append one object o (commit, tree, blob or tag), its o->len bytes at
 * o->data compressed here (o->z unused); the caller vouches that o->oid
 * is the id of (o->type, o->data). Every oid must be added once.
 * Returns 0 or -MIRROR_EIO.
 */
int mgit_pack_add(struct mgit_pack *pk, const struct mgit_pack_obj *o,
    mirror_error *err);

/* A deflater, the caller's to free with mgit_deflater_free (NULL is
 * fine). Never NULL: it is memory alone (xmalloc). */
struct mgit_deflater *mgit_deflater_new(void);
void mgit_deflater_free(struct mgit_deflater *z);

/*
 * Compress len bytes of data with z as one zlib stream, the form of a
 * pack entry's content, into *buf (grown to the bound, *cap its size;
 * the caller frees it); *out gets the compressed length. Returns 0 or
 * -1 (longer than a stream takes, 4 GiB, or nothing fits the bound:
 * not expected).
 */
int mgit_pack_compress(unsigned char **buf, size_t *cap, size_t *out,
    struct mgit_deflater *z, const void *data, size_t len);

/*
 * Inflate the zlib stream z, zlen bytes, into out, which takes len
 * bytes. Returns 0 when the stream is whole, its checksum right and
 * it gives exactly len bytes; else -1.
 */
int mgit_pack_inflate(void *out, size_t len, const unsigned char *z,
    size_t zlen);

/* The CRC-32 (zlib's crc32) of len bytes at data, going on from crc
 * (0 to start). */
uint32_t mgit_crc32(uint32_t crc, const void *data, size_t len);

/* One object for mgit_pack_add_many, borrowed: its len bytes at data,
 * or, when z is not NULL, those bytes compressed (mgit_pack_compress)
 * as zlen bytes at z. */
struct mgit_pack_obj {
	git_oid oid;
	git_object_t type;
	const void *data;
	size_t len;
	const unsigned char *z;
	size_t zlen;
};

/*
 * Add n objects as n calls of mgit_pack_add would, in the same order and
 * with the same bytes, compressing on up to jobs threads (jobs <= 1: on
 * this one). Returns 0 or -MIRROR_EIO.
 */
int mgit_pack_add_many(struct mgit_pack *pk, const struct mgit_pack_obj *objs,
    size_t n, int jobs, mirror_error *err);

/*
 * mgit_pack_add of an object already compressed: o->z, o->zlen bytes
 * made by mgit_pack_compress from its o->len bytes (o->data unused).
 * Returns 0 or -MIRROR_EIO.
 */
int mgit_pack_add_z(struct mgit_pack *pk, const struct mgit_pack_obj *o,
    mirror_error *err);

/*
 * Finish: the object count into the header, the checksum (the pack
 * read back) as trailer, index, fsync, rename into place; pk->name is
 * then the pack's name. Returns 0 or -MIRROR_EIO. Call mgit_pack_free
 * in every case afterwards (it removes what a failure left).
 */
int mgit_pack_finish(struct mgit_pack *pk, mirror_error *err);

/*
 * Write to fp (path names it in messages) the index of a pack of n
 * entries, sorted here by id, whose checksum is pack_sum: what
 * mgit_pack_finish writes, the file not synced or closed. Returns 0,
 * or -MIRROR_EIO when an id occurs twice or writing fails.
 */
int mgit_pack_write_index(FILE *fp, const char *path,
    struct mgit_pack_entry *entries, size_t n,
    const unsigned char pack_sum[20], mirror_error *err);

/* Free pk; an unfinished pack's temporary file is removed. */
void mgit_pack_free(struct mgit_pack *pk);

#endif
