/*
 * factrow.c: read one fact row by layer and id.
 */
#include <stdlib.h>
#include <string.h>

#include "store/facts.h"
#include "store/storerow.h"
#include "sweep/factrow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define CANON(col) FACTROW_CANON(col)

/* The part_of parent of entity e, from the reader's TEMP table. */
#define PARENT_OF_E \
	"(SELECT group_concat(parent, ', ') FROM (SELECT parent FROM " \
	"temp.factrow_parent WHERE child = e.id ORDER BY parent))"

enum { Q_STATE, Q_ENTITY, Q_MEMORY, Q_BARE, Q_N };

static const struct {
	enum fact_layer layer;
	const char *sql;
} queries[Q_N] = {
	[Q_STATE] = { LAYER_STATE,
	  "SELECT s.id, s.category, " CANON("s.project") ", s.key, s.value, "
	  "NULL, NULL, s.status, s.source, s.created_at, s.updated_at, NULL "
	  "FROM main.project_state s WHERE s.id = ?1" },
	[Q_ENTITY] = { LAYER_ENTITY,
	  "SELECT e.id, e.entity_type, " CANON("e.project") ", e.name, "
	  "e.description, e.properties, " PARENT_OF_E ", e.status, "
	  "e.source_refs, e.created_at, e.updated_at, NULL "
	  "FROM main.entities e WHERE e.id = ?1" },
	[Q_MEMORY] = { LAYER_MEMORY,
	  "SELECT m.id, m.memory_type, " CANON("m.project") ", NULL, "
	  "m.content, NULL, NULL, m.status, m.memory_type, m.created_at, "
	  "m.updated_at, m.valid_until FROM main.memories m WHERE m.id = ?1" },
	/* An entity whose parents the reader's kept facts give. */
	[Q_BARE] = { LAYER_ENTITY,
	  "SELECT e.id, e.entity_type, " CANON("e.project") ", e.name, "
	  "e.description, e.properties, NULL, e.status, "
	  "e.source_refs, e.created_at, e.updated_at, NULL "
	  "FROM main.entities e WHERE e.id = ?1" },
};

/* The memory query for stores without the optional valid_until. */
static const char memory_sql_no_expiry[] =
	"SELECT m.id, m.memory_type, " CANON("m.project") ", NULL, "
	"m.content, NULL, NULL, m.status, m.memory_type, m.created_at, "
	"m.updated_at, NULL FROM main.memories m WHERE m.id = ?1";

/*
 * One parent table per connection: filled on a reader's first entity
 * lookup (one pass over the relationships, so n lookups cost n index
 * probes, not n scans) and emptied on close. Never dropped: a DROP
 * fails while the caller (the sweep) has statements running.
 */
static const char parent_fill[] =
	"CREATE TEMP TABLE IF NOT EXISTS factrow_parent (child TEXT, "
	"parent TEXT);"
	"CREATE INDEX IF NOT EXISTS temp.factrow_parent_child "
	"ON factrow_parent(child, parent);"
	"DELETE FROM temp.factrow_parent;"
	"INSERT INTO temp.factrow_parent " FACTROW_PARENT_ROWS;

struct factrow_reader {
	mirror_store *st;
	sqlite3_stmt *stmt[Q_N];   /* prepared on first use */
	const char *children;      /* factrow_reader_open's, or NULL */
	const struct facts_kept *kept;  /* factrow_reader_kept's, or NULL */
	const char *edges;         /* factrow_reader_edges's, or NULL */
	int have_parents;
};

int
factrow_reader_open(struct factrow_reader **out, mirror_store *st,
    const char *children, mirror_error *err)
{
	(void)err;
	*out = xcalloc(1, sizeof(**out));
	(*out)->st = st;
	(*out)->children = children;
	return 0;
}

void
factrow_reader_kept(struct factrow_reader *r, const struct facts_kept *kept)
{
	r->kept = kept;
}

void
factrow_reader_edges(struct factrow_reader *r, const char *rowids)
{
	r->edges = rowids;
}

/* Fill the parent table: every part_of edge's, or only those of the
 * reader's children (the pass over the relationships stays, the inserts
 * and their index go), of its edges when it has them (looked up by
 * rowid: no pass). Returns an SQLite code. */
static int
parents_fill(struct factrow_reader *r)
{
	strbuf sql;
	int rc;

	strbuf_init(&sql);
	strbuf_puts(&sql, parent_fill);
	if (r->children != NULL)
		strbuf_printf(&sql, " AND r.source_entity_id IN (%s)",
		    r->children);
	if (r->edges != NULL)
		strbuf_printf(&sql, " AND r.rowid IN (%s)", r->edges);
	strbuf_puts(&sql, ";");
	rc = sqlite3_exec(store_db(r->st), sql.data, NULL, NULL, NULL);
	strbuf_free(&sql);
	return rc;
}

void
factrow_reader_close(struct factrow_reader *r)
{
	if (r == NULL)
		return;
	for (int q = 0; q < Q_N; q++)
		sqlite3_finalize(r->stmt[q]);
	if (r->have_parents)
		sqlite3_exec(store_db(r->st), "DELETE FROM temp.factrow_parent",
		    NULL, NULL, NULL);
	free(r);
}

/* The statement of query q, prepared (and the parent table built) on
 * first use. Returns 0 or < 0 with err set. */
static int
reader_stmt(sqlite3_stmt **out, struct factrow_reader *r, int q,
    mirror_error *err)
{
	const char *sql = queries[q].sql;
	int rc;

	if (r->stmt[q] != NULL) {
		*out = r->stmt[q];
		return 0;
	}
	if (q == Q_ENTITY && !r->have_parents) {
		rc = parents_fill(r);
		if (rc != SQLITE_OK)
			return store_fail(r->st, err, rc, "cannot read a fact");
		r->have_parents = 1;
	}
	if (q == Q_MEMORY && !store_features(r->st)->mem_valid_until)
		sql = memory_sql_no_expiry;
	rc = sqlite3_prepare_v2(store_db(r->st), sql, -1, &r->stmt[q], NULL);
	if (rc != SQLITE_OK)
		return store_fail(r->st, err, rc, "cannot read a fact");
	*out = r->stmt[q];
	return 0;
}

int
factrow_read(struct factrow *out, struct factrow_reader *r,
    enum fact_layer layer, const char *id, mirror_error *err)
{
	struct store_row row = { .st = r->st, .err = err };
	sqlite3_stmt *stmt = NULL;
	char *parent = NULL;        /* Q_BARE's, from the kept facts */
	int rc, q;

	memset(out, 0, sizeof(*out));
	for (q = 0; q < Q_N; q++)
		if (queries[q].layer == layer)
			break;
	if (q == Q_N)
		return mirror_fail(err, MIRROR_EINPUT, "store %s: no layer %d",
		    store_path(r->st), (int)layer);
	if (q == Q_ENTITY && facts_kept_parents(&parent, r->kept, id) == 1)
		q = Q_BARE;
	if ((rc = reader_stmt(&stmt, r, q, err)) < 0) {
		free(parent);
		return rc;
	}
	rc = sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(stmt);
	if (rc != SQLITE_ROW) {
		rc = rc == SQLITE_DONE ? 0 :
		    store_fail(r->st, err, rc, "cannot read a fact");
		sqlite3_reset(stmt);
		free(parent);
		return rc;
	}
	row.stmt = stmt;
	row.table = layer_table(layer);
	row.id = id;
	{
		/* Columns the query names; NULL where a layer has none. */
		static const char *const names[Q_N][12] = {
		    { "id", "category", "project", "key", "value", "-", "-",
		      "status", "source", "created_at", "updated_at", "-" },
		    { "id", "entity_type", "project", "name", "description",
		      "properties", "part_of parent", "status", "source_refs",
		      "created_at", "updated_at", "-" },
		    { "id", "memory_type", "project", "-", "content", "-", "-",
		      "status", "memory_type", "created_at", "updated_at",
		      "valid_until" },
		    { "id", "entity_type", "project", "name", "description",
		      "properties", "-", "status", "source_refs",
		      "created_at", "updated_at", "-" } };
		char **dst[12] = { &out->id, &out->type, &out->project,
		    &out->name, &out->text, &out->properties, &out->parent,
		    &out->status, &out->source, &out->created_at,
		    &out->updated_at, &out->valid_until };

		for (int i = 0; i < 12; i++)
			if ((rc = storerow_text(dst[i], &row, i, names[q][i],
			    1)) < 0) {
				sqlite3_reset(stmt);
				free(parent);
				return rc;
			}
	}
	sqlite3_reset(stmt);
	if (q == Q_BARE)
		out->parent = parent;
	out->f.layer = queries[q].layer;
	out->f.id = out->id;
	out->f.type = out->type;
	out->f.project = out->project;
	out->f.name = out->name;
	out->f.text = out->text;
	out->f.properties = out->properties;
	out->f.parent = out->parent;
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
