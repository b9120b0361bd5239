/*
 * factrow.h: one row of any layer, read by kind and id, as the slot rules
 * and the review pages need it (core-internal).
 */
#ifndef MIRROR_FACTROW_H
#define MIRROR_FACTROW_H

#include "slot.h"
#include "store.h"

/*
 * SQL giving the part_of parent of entity alias e: the names of its
 * active part_of targets, sorted and joined with ", ". The sweep and
 * factrow_get must agree on it, so it lives here once.
 */
#define FACTROW_PARENT_SQL \
	"(SELECT group_concat(pn, ', ') FROM (SELECT p.name AS pn " \
	"FROM main.relationships r JOIN main.entities p " \
	"ON p.id = r.target_entity_id WHERE r.source_entity_id = e.id " \
	"AND r.relationship_type = 'part_of' AND p.status = 'active' " \
	"ORDER BY p.name))"

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

/*
 * Read the row kind ("project_state", "entity", "memory") / id into
 * *out, project canonicalised. Returns 1 found, 0 when no such row, or
 * < 0 with err set. The caller must factrow_free(out) in every case.
 */
int factrow_get(struct factrow *out, mirror_store *st, const char *kind,
    const char *id, mirror_error *err);

void factrow_free(struct factrow *r);

/*
 * What row claims now, by the slot rules: 1 with *out filled (free it
 * with claim_free), or 0 when it claims nothing, also when its
 * properties broke since it was recorded (a row that cannot be read
 * as a claim no longer disagrees with anything). Never fails.
 */
int factrow_claim(struct claim *out, struct factrow *row);

#endif
