/*
 * flagrows.h: the one reader of the facts a finding flags (core-internal).
 *
 * A conflict names its members (conflict_members), a violation its
 * facts (violation_facts): rows of a table beside the finding's own,
 * each a fact of a layer by id, read into an array in the finding and
 * then each looked up as it is now. What differs between the two, the
 * columns, the structs and the row now, is a struct flagrows; the
 * reading, grouping, ordering and checking are here, once.
 */
#ifndef MIRROR_FLAGROWS_H
#define MIRROR_FLAGROWS_H

#include <stddef.h>

#include "store/storerow.h"

/* One kind of flagged rows and the findings that own them. */
struct flagrows {
	const char *table;      /* the rows' table, as errors name it */
	const char *what;       /* "cannot read WHAT" on a failed step */
	const char *all_sql;    /* every owner's rows, by owner id first */
	const char *check_sql;  /* every row, in the table's order */
	const char *check_what; /* "cannot read WHAT" of flagrows_check */
	const char *owner_name; /* the column of the owner's id */
	int owner_col;          /* its index in all_sql and check_sql */
	size_t owner_size;      /* an owner's struct */
	size_t owner_id;        /* offset of its char *id */
	size_t size;            /* a row's struct */
	size_t key_kind, key_id;        /* offsets of a row's char *layer
	                                   and char *id: the lookup order */
	/* Owner's rows: returns the array, *n their number. */
	void *(*rows)(void *owner, size_t *n);
	/* Give owner the array rows of n (owner frees it). */
	void (*keep)(void *owner, void *rows, size_t n);
	/* Fill row from r's current row (r->id the owner's id): 0 or
	 * -MIRROR_EINPUT naming it. */
	int (*row)(void *row, struct store_row *r);
	/* Fill the row-now half of row (arg flagrows_now's): 0 or < 0. */
	int (*now)(void *row, void *arg, mirror_error *err);
	/* Release what row holds, not row itself. */
	void (*free)(void *row);
};

/* Release owner's rows (k->free each) and their array; owner keeps
 * none. */
void flagrows_free(const struct flagrows *k, void *owner);

/*
 * Read owner's rows with s, a statement of k's rows whose ?1 is the
 * owner's id, in s's order. Returns 0 or < 0 with err set.
 */
int flagrows_of(const struct flagrows *k, void *owner, sqlite3_stmt *s,
    mirror_store *st, mirror_error *err);

/*
 * Read the rows of the n owners of the array owners in one query
 * (k->all_sql), each owner's in that order: the rows flagrows_of reads,
 * without a query per owner. Returns 0 or < 0 with err set.
 */
int flagrows_all(const struct flagrows *k, void *owners, size_t n,
    mirror_store *st, mirror_error *err);

/*
 * The row now (k->now with arg) of every row of the n owners, looked up
 * in order of layer and id: neighbouring lookups share the index's
 * pages, which list order would read again and again. Returns 0 or the
 * first error.
 */
int flagrows_now(const struct flagrows *k, void *owners, size_t n,
    void *arg, mirror_error *err);

/*
 * Check every row of k's table (k->check_sql) as the readers would read
 * it. Returns 0 or < 0 with err set: -MIRROR_EINPUT naming the first bad
 * row.
 */
int flagrows_check(const struct flagrows *k, mirror_store *st,
    mirror_error *err);

#endif
