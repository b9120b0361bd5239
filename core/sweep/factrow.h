/*
 * factrow.h: one row of any layer, read by layer and id, as the slot rules
 * and the review pages need it (core-internal).
 */
#ifndef MIRROR_FACTROW_H
#define MIRROR_FACTROW_H

#include "store/store.h"
#include "sweep/slot.h"

/*
 * The rows behind an entity's part_of parent: (child id, parent name) for
 * every part_of edge to an active, named entity. A child's parent is the
 * names of its rows, sorted and joined with ", ". The sweep and
 * factrow_read both build their TEMP parent tables from this, so the two
 * agree.
 */
#define FACTROW_PARENT_ROWS \
	"SELECT r.source_entity_id, p.name FROM main.relationships r " \
	"JOIN main.entities p ON p.id = r.target_entity_id " \
	"WHERE r.relationship_type = 'part_of' AND p.status = 'active' " \
	"AND p.name IS NOT NULL"

/*
 * SQL for the canonical project of a stored project name col, as the
 * sweep's canonical() computes it: an alias maps to its project (TEMP
 * project_alias), an unlisted name stays, NULL is ''.
 */
#define FACTROW_CANON(col) "coalesce((SELECT a.canonical FROM " \
	"temp.project_alias a WHERE a.name = " col "), " col ", '')"

/* A row and its bookkeeping. Every string is owned by the fact_row. */
struct factrow {
	struct fact f;          /* its strings point into the fields below */
	char *id, *type, *project, *name, *text, *properties, *parent;
	char *status;
	char *source;           /* state.source, entities.source_refs,
	                           memories.memory_type */
	char *created_at, *updated_at;
	char *valid_until;      /* memories only, else NULL */
};

/* Lookups of many rows inside one read, with statements kept. */
struct factrow_reader;

/*
 * Start many lookups on st (inside the caller's read transaction; the
 * reader must be closed before it ends). children, when not NULL, is a
 * SELECT of one column: the ids of every entity the reader will be
 * asked for (its part_of parents are gathered for those alone; static
 * text, kept by the reader); NULL: any entity. Returns 0 with *out set,
 * or < 0 with err set and *out NULL. The caller must
 * factrow_reader_close it.
 */
int factrow_reader_open(struct factrow_reader **out, mirror_store *st,
    const char *children, mirror_error *err);

struct facts_kept;

/*
 * Let r take an entity's part_of parents from kept (store/facts.h's
 * facts_kept_parents: facts a check read in the same read of the store,
 * no other connection having written since) when a project of kept
 * holds the entity, instead of from its TEMP table, whose first fill
 * passes over every relationship (the store has no index on their
 * ends). kept must outlive the reader. NULL: from the table alone.
 */
void factrow_reader_kept(struct factrow_reader *r,
    const struct facts_kept *kept);

/*
 * Let r gather part_of parents from the edges whose rowid the SELECT of
 * one column rowids gives (static text, kept by the reader), looked up
 * by rowid, instead of passing over every relationship: the caller
 * promises they hold every part_of edge of each entity it asks for.
 * NULL: every edge.
 */
void factrow_reader_edges(struct factrow_reader *r, const char *rowids);

/* Finalize the statements and drop the reader's TEMP table. NULL is fine. */
void factrow_reader_close(struct factrow_reader *r);

/*
 * Read the row of layer / id into *out, project canonicalised ("" for
 * none). Returns 1 found, 0 when no such row, or < 0 with err set
 * (-MIRROR_EINPUT for a value outside enum fact_layer). The caller must
 * factrow_free(out) in every case.
 */
int factrow_read(struct factrow *out, struct factrow_reader *r,
    enum fact_layer layer, const char *id, mirror_error *err);

void factrow_free(struct factrow *r);

/*
 * What row claims now, by the slot rules: 1 with *out filled (free it
 * with claim_free), or 0 when it claims nothing, also when its
 * properties broke since it was recorded (a row that cannot be read
 * as a claim no longer disagrees with anything). Never fails.
 */
int factrow_claim(struct claim *out, struct factrow *row);

#endif
