/*
 * farends.h: the entities at the far end of a project's relationships
 * (core-internal, read by facts.c).
 *
 * A project's relationships (facts.h's rel) are those with an end in
 * one of its entities; the other end may be an entity of another
 * project, or of no project, or no entity at all. Pages name that other
 * end and link to where it is shown, so the reader looks each one up by
 * id, with its canonical project. Text is checked as every store column
 * is (storerow.h).
 */
#ifndef MIRROR_FARENDS_H
#define MIRROR_FARENDS_H

#include <stddef.h>

#include "store/store.h"

/* An entity at the far end of an edge, outside the project read. */
struct fact_far {
	char *id;
	char *project;          /* canonical ("" for no project) */
	char *name, *status;
};

/* Where farends_read looks up: st, with the statement *stmt, prepared on
 * first use and kept for the next call (the caller finalizes it). */
struct farends_lookup {
	mirror_store *st;
	sqlite3_stmt **stmt;
};

/*
 * Look up the entities ids[0..n) (sorted by strcmp, no duplicates) as
 * lk says. The ones that exist go into *out and *n in
 * id order; an id no entity has is left out. Returns 0, -MIRROR_EINPUT
 * naming the entities row and column, or the store's error. The caller
 * frees with farends_free, also after a failure.
 */
int farends_read(struct fact_far **out, size_t *n,
    const struct farends_lookup *lk, const char *const *ids, size_t nids,
    mirror_error *err);

void farends_free(struct fact_far *v, size_t n);

#endif
