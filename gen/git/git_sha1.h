/*
 * git_sha1.h: plain SHA-1 (FIPS 180-4) over a byte stream.
 *
 * Only for the checksums a pack file and its index end with; object
 * ids are always computed by libgit2 (with collision detection).
 * libgit2 keeps its own hash functions private, hence this one.
 */
#ifndef MIRROR_GIT_SHA1_H
#define MIRROR_GIT_SHA1_H

#include <stddef.h>
#include <stdint.h>

struct mgit_sha1 {
	uint32_t h[5];
	uint64_t len;          /* bytes hashed so far */
	unsigned char buf[64];
	size_t nbuf;
};

/* Start a digest in c (no allocation: nothing to free). */
void mgit_sha1_init(struct mgit_sha1 *c);
/* Hash n more bytes at p; any split of the input gives the same digest. */
void mgit_sha1_update(struct mgit_sha1 *c, const void *p, size_t n);
/* Write the 20-byte digest to out; c must be initialised again to reuse. */
void mgit_sha1_final(unsigned char out[20], struct mgit_sha1 *c);

#endif
