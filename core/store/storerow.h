/*
 * storerow.h: the one reader of store columns (core-internal).
 *
 * Every column core reads from a store, facts and the rows mirror wrote
 * itself (conflicts, conflict_members, sweep_runs) alike, goes through
 * these checks: a NULL in a required column, text that is not UTF-8 or
 * holds a NUL byte, JSON that does not parse, a value outside its set
 * (member_kind, slot_kind, status) are bad input (-MIRROR_EINPUT) with
 * one line naming the store, the table, the row and the column. A store
 * is written by other programs, so nothing read from it is trusted, not
 * even what mirror wrote there before.
 */
#ifndef MIRROR_STOREROW_H
#define MIRROR_STOREROW_H

#include <stddef.h>

#include <jansson.h>

#include "store/store.h"
#include "util/layer.h"

/* One row being read: what the error messages name. */
struct store_row {
	mirror_store *st;
	sqlite3_stmt *stmt;
	const char *table;
	const char *id;         /* the row's id once read, else NULL */
	const char *member;     /* conflict_members: the member id, or NULL */
	mirror_error *err;
};

/*
 * Why s[0..n) is not store text, or NULL when it is: "contains a NUL
 * byte" or "is not valid UTF-8 text" (overlongs and surrogates are
 * invalid).
 */
const char *storerow_text_problem(const unsigned char *s, size_t n);

/* Record "store S: TABLE row 'ID': COL WHAT" in r->err; returns
 * -MIRROR_EINPUT. */
int storerow_fail(struct store_row *r, const char *col, const char *what);

/*
 * Copy text column i into *out (caller frees). NULL is an error unless
 * nullable (then *out stays NULL). Returns 0, -MIRROR_EINPUT naming the
 * row, or -MIRROR_EIO when SQLite runs out of memory.
 */
int storerow_text(char **out, struct store_row *r, int i, const char *col,
    int nullable);

/*
 * storerow_text, and the value must be one of valid (NULL-terminated);
 * else -MIRROR_EINPUT naming the row, the value and the valid values.
 */
int storerow_enum(char **out, struct store_row *r, int i, const char *col,
    const char *const *valid);

/* Read column i, named col, as a member kind (storerow_member_kinds)
 * into *out, its layer. Returns 0, or -MIRROR_EINPUT naming the row and
 * col as storerow_enum does. */
int storerow_layer(enum fact_layer *out, struct store_row *r, int i,
    const char *col);

/* A non-NULL, finite number in column i into *out (SQLite stores 9e999
 * as Inf, which JSON cannot hold). Returns 0 or -MIRROR_EINPUT. */
int storerow_real(double *out, struct store_row *r, int i, const char *col);

/*
 * The deepest a stored JSON value may nest: arrays and objects inside
 * one another, the outermost counting 1 ({"a": 1} is 1 level). Real
 * property values nest a few levels; every page and JSON file that
 * carries one (the writer refuses past JSONWRITE_DEPTH, 256, and
 * recurses a level at a time, as the sweep and the page text do) has
 * room for it with margin. jansson alone would take 2048.
 */
#define STOREROW_JSON_DEPTH 64

/*
 * Parse JSON text column i into *out, which must be an object
 * (want_object) or an array nesting at most STOREROW_JSON_DEPTH levels.
 * Returns 0 or -MIRROR_EINPUT naming the row; the caller json_decrefs
 * *out.
 */
int storerow_json(json_t **out, struct store_row *r, int i, const char *col,
    int want_object);

/* The values conflict_members.member_kind, conflicts.slot_kind and
 * conflicts.status may hold. */
extern const char *const storerow_member_kinds[];
extern const char *const storerow_slot_kinds[];
extern const char *const storerow_conflict_status[];

#endif
