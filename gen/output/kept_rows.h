/*
 * kept_rows.h: rows of text fields a build keeps for the next one (in
 * the user's cache, core/sys/cache.h), written as one text in parts and
 * read back, mapped, as untrusted input.
 *
 * A text is a tag line, then each row: per field "n" (NULL) or
 * "s<len>:" and the field's bytes and a NUL, the row ended by "\n";
 * then "end <32 hex>\n", two 64-bit hashes of everything before it,
 * each folded over its KEPT_BLOCK-byte blocks in turn (so a writer
 * hashes and writes a block at a time) and sealed with its length. A
 * reader checks the tag, the hashes and that the text is UTF-8 (once,
 * so each field is), then, row by row, every length, that no field
 * holds a NUL and every row has the fields asked: any doubt and the
 * text is not read (the caller does the work whole). The fields a reader gives
 * point into the text, each NUL-ended.
 */
#ifndef MIRROR_OUT_KEPT_ROWS_H
#define MIRROR_OUT_KEPT_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "sys/cache.h"
#include "util/strbuf.h"

/* The bytes a writer holds before it writes them, and a hash's block. */
#define KEPT_BLOCK 65536

/* A text being written: to a cache entry in parts, or (sink NULL)
 * whole in buf. */
struct kept_writer {
	strbuf buf;             /* what is not written yet */
	size_t hashed;          /* of buf, the bytes hashed */
	uint64_t length;        /* the bytes hashed in all */
	uint64_t h[2];
	struct cache_writer *sink;
};

/* Start w as a text of rows tagged tag (one line, no newline in it),
 * written to sink (NULL: kept in w->buf). */
void kept_writer_begin(struct kept_writer *w, struct cache_writer *sink,
    const char *tag);

/* Append a row of the n fields f (each NULL or a NUL-ended string). */
void kept_writer_put(struct kept_writer *w, const char *const *f, size_t n);

/* End w's text: its hashes, the rest written to the sink. w->buf then
 * holds the whole text when there is no sink; kept_writer_free frees
 * it. */
void kept_writer_end(struct kept_writer *w);
void kept_writer_free(struct kept_writer *w);

/* A reader of a text's rows. */
struct kept_cursor {
	const char *data;       /* the text */
	size_t len;             /* its bytes before "end ..." */
	size_t pos;
	const struct cache_map *map;  /* its map, whose pages behind pos
	                                 go as it reads on; NULL: none */
	size_t dropped;         /* the bytes let go so far */
};

/*
 * Start c at the first row of data[0..len) when its tag is tag, its
 * hashes hold and it is UTF-8: returns 1, else 0 (c unusable). map
 * (NULL: none) is the mapping data is, whose pages go behind the
 * reader.
 */
int kept_rows_open(struct kept_cursor *c, const char *data, size_t len,
    const char *tag, const struct cache_map *map);

/*
 * The next row of c into f[0..n) (NULL for a NULL field): 1, 0 after
 * the last row, -1 when the row is not n well-formed fields with no
 * NUL (c then stays there).
 */
int kept_rows_next(struct kept_cursor *c, const char **f, size_t n);

#endif
