/*
 * factrow.c: read one fact row by kind and id.
 */
#include <stdlib.h>
#include <string.h>

#include "factrow.h"
#include "xalloc.h"

#define CANON(col) "coalesce((SELECT a.canonical FROM temp.project_alias a " \
	"WHERE a.name = " col "), " col ", '')"

static const struct {
	const char *kind;
	enum fact_layer layer;
	const char *sql;
} queries[] = {
	{ "project_state", LAYER_STATE,
	  "SELECT s.id, s.category, " CANON("s.project") ", s.key, s.value, "
	  "NULL, NULL, s.status, s.source, s.created_at, s.updated_at, NULL "
	  "FROM main.project_state s WHERE s.id = ?1" },
	{ "entity", LAYER_ENTITY,
	  "SELECT e.id, e.entity_type, " CANON("e.project") ", e.name, "
	  "e.description, e.properties, " FACTROW_PARENT_SQL ", e.status, "
	  "e.source_refs, e.created_at, e.updated_at, NULL "
	  "FROM main.entities e WHERE e.id = ?1" },
	{ "memory", LAYER_MEMORY,
	  "SELECT m.id, m.memory_type, " CANON("m.project") ", NULL, "
	  "m.content, NULL, NULL, m.status, m.memory_type, m.created_at, "
	  "m.updated_at, m.valid_until FROM main.memories m WHERE m.id = ?1" },
};

/* The memory query for stores without the optional valid_until. */
static const char memory_sql_no_expiry[] =
	"SELECT m.id, m.memory_type, " CANON("m.project") ", NULL, "
	"m.content, NULL, NULL, m.status, m.memory_type, m.created_at, "
	"m.updated_at, NULL FROM main.memories m WHERE m.id = ?1";

static char *
col(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return t != NULL ? xstrdup((const char *)t) : NULL;
}

int
factrow_get(struct factrow *r, mirror_store *st, const char *kind,
    const char *id, mirror_error *err)
{
	sqlite3_stmt *stmt = NULL;
	const char *sql;
	int rc;
	size_t q;

	memset(r, 0, sizeof(*r));
	for (q = 0; q < sizeof(queries) / sizeof(queries[0]); q++)
		if (strcmp(queries[q].kind, kind) == 0)
			break;
	if (q == sizeof(queries) / sizeof(queries[0]))
		return mirror_fail(err, MIRROR_EINPUT, "unknown member kind "
		    "'%s'", kind);
	sql = queries[q].sql;
	if (queries[q].layer == LAYER_MEMORY &&
	    !store_features(st)->mem_valid_until)
		sql = memory_sql_no_expiry;
	rc = sqlite3_prepare_v2(store_db(st), sql, -1, &stmt, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(stmt);
	if (rc == SQLITE_DONE) {
		sqlite3_finalize(stmt);
		return 0;
	}
	if (rc != SQLITE_ROW) {
		rc = store_fail(st, err, rc, "cannot read a fact");
		sqlite3_finalize(stmt);
		return rc;
	}
	r->id = col(stmt, 0);
	r->type = col(stmt, 1);
	r->project = col(stmt, 2);
	r->name = col(stmt, 3);
	r->text = col(stmt, 4);
	r->properties = col(stmt, 5);
	r->parent = col(stmt, 6);
	r->status = col(stmt, 7);
	r->source = col(stmt, 8);
	r->created_at = col(stmt, 9);
	r->updated_at = col(stmt, 10);
	r->valid_until = col(stmt, 11);
	sqlite3_finalize(stmt);
	r->f.layer = queries[q].layer;
	r->f.id = r->id;
	r->f.type = r->type;
	r->f.project = r->project;
	r->f.name = r->name;
	r->f.text = r->text;
	r->f.properties = r->properties;
	r->f.parent = r->parent;
	return 1;
}

void
factrow_free(struct factrow *r)
{
	if (r == NULL)
		return;
	free(r->id);
	free(r->type);
	free(r->project);
	free(r->name);
	free(r->text);
	free(r->properties);
	free(r->parent);
	free(r->status);
	free(r->source);
	free(r->created_at);
	free(r->updated_at);
	free(r->valid_until);
	memset(r, 0, sizeof(*r));
}

int
factrow_claim(struct claim *out, struct factrow *row)
{
	mirror_error ignored;
	int rc;

	/* A material's value is its name, whichever component names it. */
	if (row->type != NULL && strcmp(row->type, "material") == 0)
		row->f.component = row->name;
	rc = slot_claim(out, &row->f, NULL, NULL, &ignored);
	if (rc == 1)
		return 1;
	claim_free(out);
	return 0;
}
