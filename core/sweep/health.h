/*
 * health.h: counts that tell whether a store is in shape.
 */
#ifndef MIRROR_HEALTH_H
#define MIRROR_HEALTH_H

#include <time.h>

#include <jansson.h>

#include "rules/violation.h"
#include "store/digest.h"
#include "store/store.h"
#include "sweep/conflict.h"

/* One status and how many rows of a layer carry it. */
struct status_count {
	char *status;           /* owned by the health struct */
	long long n;
};

struct health_layer {
	const char *name;       /* "project_state", "entities", "memories" */
	int trust;              /* 3, 2, 1 */
	long long total;
	struct status_count *by_status;   /* sorted by status */
	size_t n_status;
};

struct health {
	long long projects;               /* rows in projects */
	struct health_layer layers[3];    /* trust order: state first */
	long long relationships;
	long long expired_memories;       /* active, valid_until < now */
	long long open_conflicts_count;
	long long resolved_conflicts;
	long long dismissed_conflicts;
	long long sweep_runs;
	struct violation_counts checks;   /* the rules' violations */
};

/* The rules' counts of c as one JSON object: open_error, open_warn,
 * closed, rules_failed. A new object, NULL when out of memory. */
json_t *health_checks_json(const struct violation_counts *c);

/*
 * Fill *out from st, with now deciding which memories have expired.
 * Returns 0 or < 0 with err set. The caller must health_free(out),
 * also after a failure.
 */
int health_read(struct health *out, mirror_store *st, time_t now,
    mirror_error *err);

/*
 * health_read with the layers, projects, relationships and expired
 * memories taken from d, a digest of st's snapshot taken at now
 * (facts_digest: its pass read every row already, and three more scans
 * of the layers were a large part of a build's read). The
 * tables mirror writes are read on st. When d has no such counts, was
 * taken at another clock, or holds a status health_read would refuse,
 * this is health_read (which then says what is wrong). lists: the
 * conflicts and violations by status are left 0 for health_count_lists,
 * the rest read as before. Returns 0 or < 0 with err set; the caller
 * must health_free(out), also after a failure.
 */
int health_digested(struct health *out, mirror_store *st,
    const struct store_digest *d, time_t now, int lists,
    mirror_error *err);

/*
 * Set h's conflicts by status and its violations by status and
 * severity (open_error, open_warn, closed) to what c and v, every
 * conflict and every violation of the store as conflict_list and
 * violation_list read them, hold: the counts conflict_counts and
 * violation_counts take, without a pass over the tables. Never fails.
 */
void health_count_lists(struct health *h, const struct conflict_list *c,
    const struct violation_list *v);

void health_free(struct health *h);

#endif
