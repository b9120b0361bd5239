/*
 * audit.c: the latest memory_audit row of each fact (audit.h).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "store/audit.h"
#include "util/array.h"
#include "util/xalloc.h"

/* Column i of stmt as a new string ("" for NULL). */
static char *
col(sqlite3_stmt *stmt, int i)
{
	const unsigned char *s = sqlite3_column_text(stmt, i);

	return xstrndup(s != NULL ? (const char *)s : "",
	    (size_t)sqlite3_column_bytes(stmt, i));
}

int
audit_latest(struct audit_list *out, mirror_store *st, mirror_error *err)
{
	/* One pass over the table: the window keeps each fact's newest row;
	 * the order is the byte order audit_find searches in. */
	static const char sql[] =
	    "SELECT entity_kind, memory_id, action, actor, note, timestamp, "
	    "before_json, after_json, coalesce(CASE entity_kind "
	    "WHEN 'memory' THEN (SELECT content FROM main.memories x "
	    "WHERE x.id = memory_id) WHEN 'entity' THEN (SELECT name FROM "
	    "main.entities x WHERE x.id = memory_id) WHEN 'project_state' "
	    "THEN (SELECT key FROM main.project_state x WHERE x.id = "
	    "memory_id) END, ''), coalesce(CASE entity_kind "
	    "WHEN 'memory' THEN (SELECT project FROM main.memories x "
	    "WHERE x.id = memory_id) WHEN 'entity' THEN (SELECT project FROM "
	    "main.entities x WHERE x.id = memory_id) WHEN 'project_state' "
	    "THEN (SELECT project FROM main.project_state x WHERE x.id = "
	    "memory_id) END, '') "
	    "FROM (SELECT *, row_number() OVER (PARTITION BY entity_kind, "
	    "memory_id ORDER BY timestamp DESC, id DESC) AS rn FROM "
	    "main.memory_audit) WHERE rn = 1 "
	    "ORDER BY entity_kind COLLATE BINARY, memory_id COLLATE BINARY";
	sqlite3_stmt *stmt = NULL;
	size_t cap = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!store_features(st)->has_audit)
		return 0;
	rc = sqlite3_prepare_v2(store_db(st), sql, -1, &stmt, NULL);
	if (rc != SQLITE_OK)
		return store_fail(st, err, rc, "cannot read memory_audit");
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct fact_audit *a;

		a = &ARRAY_PUSH(out->items, out->n, cap);
		a->kind = col(stmt, 0);
		a->id = col(stmt, 1);
		a->action = col(stmt, 2);
		a->actor = col(stmt, 3);
		a->note = col(stmt, 4);
		a->timestamp = col(stmt, 5);
		a->before = col(stmt, 6);
		a->after = col(stmt, 7);
		a->label = col(stmt, 8);
		a->project = col(stmt, 9);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		audit_list_free(out);
		return store_fail(st, err, rc, "cannot read memory_audit");
	}
	byid_pairs_index(&out->by, out->items, out->n, sizeof(*out->items),
	    offsetof(struct fact_audit, kind), offsetof(struct fact_audit, id));
	return 0;
}

void
audit_list_free(struct audit_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->items[i].kind);
		free(l->items[i].id);
		free(l->items[i].action);
		free(l->items[i].actor);
		free(l->items[i].note);
		free(l->items[i].timestamp);
		free(l->items[i].before);
		free(l->items[i].after);
		free(l->items[i].label);
		free(l->items[i].project);
	}
	free(l->items);
	byid_pairs_free(&l->by);
	l->items = NULL;
	l->n = 0;
}

const struct fact_audit *
audit_find(const struct audit_list *l, const char *kind, const char *id)
{
	size_t k = byid_pairs_find(&l->by, l->items, kind, id);

	return k != BYID_NONE ? &l->items[k] : NULL;
}
