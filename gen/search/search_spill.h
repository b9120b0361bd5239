/*
 * search_spill.h: a temporary file a whole search index writes what it
 * has finished adding into (its records' text, its terms' runs), so
 * that what it holds in memory stays bounded as the store grows (issue
 * 68: a whole index held ~338 bytes a fact, 340 MB at a million
 * facts). The file is unlinked when made: the system frees it when the
 * process ends, however it ends.
 */
#ifndef MIRROR_SEARCH_SPILL_H
#define MIRROR_SEARCH_SPILL_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

struct spill {
	int fd;                 /* -1 while none is open */
	uint64_t size;          /* bytes written */
};

/* An empty spill, no file open yet. */
#define SPILL_INIT { -1, 0 }

/* Append n bytes at p to s (opening its file in $TMPDIR, else /tmp, on
 * the first write), their offset into *off. Returns 0 or < 0 with err
 * set (no temporary file, a short write). */
int spill_write(struct spill *s, const void *p, size_t n, uint64_t *off,
    mirror_error *err);

/* Read n bytes at offset off of s into p. Returns 0 or < 0 with err
 * set. */
int spill_read(const struct spill *s, uint64_t off, void *p, size_t n,
    mirror_error *err);

/* Close s's file (none: no-op), leaving it empty. */
void spill_close(struct spill *s);

/* Bytes [off, end) of a spill read forward through a buffer of its
 * own. */
struct spill_reader {
	const struct spill *s;
	uint64_t off, end;      /* the next byte not yet in buf, the end */
	char *buf;
	size_t pos, len, cap;
};

/* A reader of bytes [off, end) of s with a buffer of cap bytes (fewer
 * when the range is shorter). */
void spill_reader_init(struct spill_reader *r, const struct spill *s,
    uint64_t off, uint64_t end, size_t cap);

/* The next n bytes into p. Returns 1 (read), 0 at the end (nothing
 * left), or < 0 with err set (a short range, a failed read). */
int spill_reader_get(struct spill_reader *r, void *p, size_t n,
    mirror_error *err);

void spill_reader_free(struct spill_reader *r);

#endif
