/*
 * audit.h: who last changed a fact, from the store's memory_audit table.
 *
 * memory_audit holds one row per change a person or agent made to a
 * memory, an entity or a state row (action, actor, note, timestamp).
 * Pages and commit messages name the latest change of each fact, so a
 * reviewer sees who changed it and why. A store without the table has
 * no audit: every lookup finds nothing.
 */
#ifndef MIRROR_AUDIT_H
#define MIRROR_AUDIT_H

#include <stddef.h>

#include "store/store.h"
#include "util/byid.h"
#include "util/error.h"

/* The latest audit row of one fact. Strings are owned by the list; they
 * are as stored (not checked as UTF-8: clean them before output). */
struct fact_audit {
	char *kind;        /* entity_kind: memory | entity | project_state */
	char *id;          /* memory_id: the fact's id */
	char *action;      /* promoted, superseded, updated, ... */
	char *actor;       /* who ("" when the row does not say) */
	char *note;
	char *timestamp;
	char *before;      /* before_json and after_json as stored: the */
	char *after;       /* fields the change set, old and new */
	char *label;       /* the fact's key, name or content now; "" when
	                      the row is gone */
	char *project;     /* the fact's project column now (an id or an
	                      alias); "" when none or gone */
};

struct audit_list {
	struct fact_audit *items;  /* sorted by kind, then id (bytes) */
	size_t n;
	struct byid_pairs by;      /* by kind and id */
};

/*
 * Fill *out with the latest row (by timestamp, then id) of each fact
 * named in memory_audit, inside the caller's consistent read. Returns 0
 * (an empty list when the store has no memory_audit), or < 0 with err
 * set and *out empty. Free with audit_list_free.
 */
int audit_latest(struct audit_list *out, mirror_store *st,
    mirror_error *err);

void audit_list_free(struct audit_list *l);

/* The latest audit row of fact kind/id, or NULL. kind as in memory_audit:
 * "memory", "entity" or "project_state". */
const struct fact_audit *audit_find(const struct audit_list *l,
    const char *kind, const char *id);

#endif
