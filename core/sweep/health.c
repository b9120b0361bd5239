#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/storerow.h"
#include "sweep/conflict.h"
#include "sweep/health.h"
#include "sys/clock.h"
#include "util/array.h"
#include "util/xalloc.h"

static int
layer_counts(struct health_layer *l, mirror_store *st, mirror_error *err)
{
	sqlite3_stmt *stmt = NULL;
	char sql[160];
	size_t cap = 0;
	int rc, n;

	n = snprintf(sql, sizeof(sql), "SELECT coalesce(status, ''), count(*), "
	    "min(id) FROM main.%s GROUP BY 1 ORDER BY 1", l->name);
	if (n < 0 || (size_t)n >= sizeof(sql))
		return mirror_fail(err, MIRROR_EIO, "internal: sql too long");
	rc = sqlite3_prepare_v2(store_db(st), sql, -1, &stmt, NULL);
	if (rc != SQLITE_OK)
		goto fail;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		/* A row of the group (min id) names where bad text is. */
		struct store_row row = { .st = st, .stmt = stmt,
		    .table = l->name, .err = err };
		char *id = NULL, *status = NULL;
		struct status_count *b;

		rc = storerow_text(&id, &row, 2, "id", 1);
		row.id = id;
		if (rc == 0)
			rc = storerow_text(&status, &row, 0, "status", 0);
		free(id);
		if (rc < 0) {
			sqlite3_finalize(stmt);
			return rc;
		}
		b = &ARRAY_PUSH(l->by_status, l->n_status, cap);
		b->status = status;
		b->n = sqlite3_column_int64(stmt, 1);
		l->total += b->n;
	}
	if (rc != SQLITE_DONE)
		goto fail;
	sqlite3_finalize(stmt);
	return 0;
fail:
	n = snprintf(sql, sizeof(sql), "cannot count %s", l->name);
	rc = store_fail(st, err, rc, n < 0 || (size_t)n >= sizeof(sql) ?
	    "cannot count a layer" : sql);
	sqlite3_finalize(stmt);
	return rc;
}

int
health_read(struct health *h, mirror_store *st, time_t now,
    mirror_error *err)
{
	static const char *const names[3] = { "project_state", "entities",
	    "memories" };
	const struct store_features *f = store_features(st);
	char ts[MIRROR_TS_LEN];
	int rc;

	memset(h, 0, sizeof(*h));
	for (int i = 0; i < 3; i++) {
		h->layers[i].name = names[i];
		h->layers[i].trust = 3 - i;
	}
	rc = store_count(&h->projects, st, "SELECT count(*) FROM "
	    "main.projects", NULL, err);
	for (int i = 0; rc == 0 && i < 3; i++)
		rc = layer_counts(&h->layers[i], st, err);
	if (rc == 0)
		rc = store_count(&h->relationships, st,
		    "SELECT count(*) FROM main.relationships", NULL, err);
	if (rc == 0 && f->mem_valid_until) {
		mirror_format_ts(ts, now);
		rc = store_count(&h->expired_memories, st, "SELECT count(*) "
		    "FROM main.memories WHERE status = 'active' AND "
		    "mirror_ts(valid_until) < mirror_ts(?1)", ts, err);
	}
	if (rc == 0 && f->has_mirror_tables) {
		struct conflict_counts cc;

		rc = conflict_counts(&cc, st, err);
		h->open_conflicts_count = cc.open;
		h->resolved_conflicts = cc.resolved;
		h->dismissed_conflicts = cc.dismissed;
		if (rc == 0)
			rc = store_count(&h->sweep_runs, st, "SELECT count(*) "
			    "FROM main.sweep_runs", NULL, err);
	}
	if (rc == 0)
		rc = violation_counts(&h->checks, st, err);
	return rc;
}

json_t *
health_checks_json(const struct violation_counts *c)
{
	return json_pack("{s:I, s:I, s:I, s:I}", "open_error",
	    (json_int_t)c->open_error, "open_warn", (json_int_t)c->open_warn,
	    "closed", (json_int_t)c->closed, "rules_failed",
	    (json_int_t)c->rules_failed);
}

void
health_free(struct health *h)
{
	for (int i = 0; i < 3; i++) {
		for (size_t j = 0; j < h->layers[i].n_status; j++)
			free(h->layers[i].by_status[j].status);
		free(h->layers[i].by_status);
		h->layers[i].by_status = NULL;
		h->layers[i].n_status = 0;
	}
}
