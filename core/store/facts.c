/*
 * facts.c: reading projects and their facts for the site.
 *
 * Every query canonicalises projects through TEMP project_alias and
 * orders by a total order of store columns (ids last), so the arrays are
 * deterministic. Rows are checked as they are read: a NULL in a required
 * column, invalid UTF-8 or invalid JSON is an error naming table, row id
 * and column, because a page silently missing a fact is worse than a
 * build that stops and says why.
 */
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "store/parallel.h"
#include "store/digest.h"
#include "store/facts.h"
#include "store/undo.h"
#include "store/storerow.h"
#include "sys/clock.h"
#include "sys/partcache.h"
#include "sys/jobs.h"
#include "sys/work.h"
#include "util/array.h"
#include "util/byid.h"
#include "util/hash.h"
#include "util/layer.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The canonical project of table alias t (joined to project_alias a). */
#define CANON(t) "coalesce(a.canonical, " t ".project)"
#define JOIN_ALIAS(t) " LEFT JOIN temp.project_alias a ON a.name = " \
	t ".project "

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The canonical project of the row of table whose id is id: a scalar
 * subquery, NULL when there is no such row. */
#define FACT_PROJECT(table, id) "(SELECT coalesce(a.canonical, x.project) " \
	"FROM main." table " x LEFT JOIN temp.project_alias a ON a.name = " \
	"x.project WHERE x.id = " id ")"
/* The same for a fact named by a conflict member's or an audit row's
 * kind (storerow_member_kinds) and id. */
#define KIND_PROJECT(kind, id) "CASE " kind " WHEN 'project_state' THEN " \
	FACT_PROJECT("project_state", id) " WHEN 'entity' THEN " \
	FACT_PROJECT("entities", id) " WHEN 'memory' THEN " \
	FACT_PROJECT("memories", id) " END"

/* Prepare sql; what names the failure. Returns 0 or < 0 with err set. */
static int
prepare(sqlite3_stmt **stmt, mirror_store *st, const char *sql,
    const char *what, mirror_error *err)
{
	int rc = sqlite3_prepare_v2(store_db(st), sql, -1, stmt, NULL);

	if (rc != SQLITE_OK) {
		rc = store_fail(st, err, rc, what);
		sqlite3_finalize(*stmt);
		*stmt = NULL;
		return rc;
	}
	return 0;
}

/* ---- projects ---------------------------------------------------------- */

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
project_aliases(struct fact_project *p, struct store_row *r, int i)
{
	json_t *arr, *v;
	size_t k;
	int rc;

	rc = storerow_json(&arr, r, i, "aliases", 0);
	if (rc < 0)
		return rc;
	p->aliases = xcalloc(json_array_size(arr) + 1, sizeof(char *));
	json_array_foreach(arr, k, v) {
		if (!json_is_string(v)) {
			json_decref(arr);
			return storerow_fail(r, "aliases", "holds a non-string");
		}
		if (strcmp(json_string_value(v), p->id) == 0)
			continue;
		p->aliases[p->n_aliases++] = xstrdup(json_string_value(v));
	}
	json_decref(arr);
	qsort(p->aliases, p->n_aliases, sizeof(char *), cmp_str);
	return 0;
}

/* Fail when any layer has a row whose project is NULL. */
static int
check_null_projects(mirror_store *st, mirror_error *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;

	rc = prepare(&stmt, st, "SELECT 'project_state', id FROM "
	    "main.project_state WHERE project IS NULL UNION ALL "
	    "SELECT 'entities', id FROM main.entities WHERE project IS NULL "
	    "UNION ALL SELECT 'memories', id FROM main.memories WHERE "
	    "project IS NULL LIMIT 1", "cannot read projects", err);
	if (rc < 0)
		return rc;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(stmt, 1);

		rc = mirror_fail(err, MIRROR_EINPUT, "store %s: %s row '%s': "
		    "project is NULL", store_path(st),
		    (const char *)sqlite3_column_text(stmt, 0), id ? id : "?");
	} else if (rc == SQLITE_DONE) {
		rc = 0;
	} else {
		rc = store_fail(st, err, rc, "cannot read projects");
	}
	sqlite3_finalize(stmt);
	return rc;
}

/*
 * Fill p from the current row of r (id, listed, name, aliases,
 * description, then the counts of state, entities, memories and active
 * rows), checking each column. Returns 0 or -MIRROR_EINPUT naming the
 * row; p holds what was read either way (facts_projects_free).
 */
static int
project_row(struct fact_project *p, struct store_row *r)
{
	int rc;

	if ((rc = storerow_text(&p->id, r, 0, "id", 0)) < 0)
		return rc;
	r->id = p->id;
	p->listed = sqlite3_column_int(r->stmt, 1);
	p->n_state = sqlite3_column_int64(r->stmt, 5);
	p->n_entities = sqlite3_column_int64(r->stmt, 6);
	p->n_memories = sqlite3_column_int64(r->stmt, 7);
	p->n_active = sqlite3_column_int64(r->stmt, 8);
	if (!p->listed) {
		p->name = xstrdup(p->id);
		p->description = xstrdup("");
		p->aliases = xcalloc(1, sizeof(char *));
		return 0;
	}
	if ((rc = storerow_text(&p->name, r, 2, "name", 0)) < 0 ||
	    (rc = project_aliases(p, r, 3)) < 0)
		return rc;
	return storerow_text(&p->description, r, 4, "description", 0);
}

/*
 * Check the projects rows of the scope (scope_set) as
 * facts_projects reads them. Returns 0 or < 0 with err set.
 */
static int
check_scoped_projects(mirror_store *st, mirror_error *err)
{
	struct store_row r = { .st = st, .table = "projects", .err = err };
	int rc;

	rc = prepare(&r.stmt, st, "SELECT id, 1, name, aliases, description, "
	    "0, 0, 0, 0 FROM main.projects WHERE id IN (SELECT p FROM "
	    "temp.mirror_scope)", "cannot list projects", err);
	while (rc == 0 && (rc = store_step(st, r.stmt)) == SQLITE_ROW) {
		struct fact_project *p = xcalloc(1, sizeof(*p));

		r.id = NULL;
		rc = project_row(p, &r);
		facts_projects_free(p, 1);
	}
	if (rc > 0)
		rc = rc == SQLITE_DONE ? 0 : store_fail(st, err, rc,
		    "cannot list projects");
	sqlite3_finalize(r.stmt);
	return rc;
}

/*
 * One stream of rows, a row per listed project and one per layer row
 * under its canonical project, grouped once: a sort of the rows read,
 * then a lookup per project for its listing. (Grouping the layers apart
 * and joining the groups back to the project ids made SQLite scan the
 * groups once per project: projects squared.)
 */
static int
projects_read(struct fact_project **out, size_t *n, mirror_store *st,
    mirror_error *err)
{
	static const char sql[] =
	    "WITH c(p, layer, active) AS ("
	    " SELECT id, 0, 0 FROM main.projects WHERE id IS NOT NULL"
	    " UNION ALL SELECT " CANON("s") ", 3, s.status = 'active' FROM "
	    "  main.project_state s" JOIN_ALIAS("s")
	    " UNION ALL SELECT " CANON("e") ", 2, e.status = 'active' FROM "
	    "  main.entities e" JOIN_ALIAS("e")
	    " UNION ALL SELECT " CANON("m") ", 1, m.status = 'active' FROM "
	    "  main.memories m" JOIN_ALIAS("m")
	    "), g AS (SELECT p, sum(layer = 3) n3, sum(layer = 2) n2, "
	    " sum(layer = 1) n1, sum(active) na FROM c GROUP BY p)"
	    " SELECT g.p, pr.id IS NOT NULL, pr.name, pr.aliases, "
	    " pr.description, g.n3, g.n2, g.n1, coalesce(g.na, 0) FROM g"
	    " LEFT JOIN main.projects pr ON pr.id = g.p ORDER BY g.p";
	struct store_row r = { .st = st, .table = "projects", .err = err };
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	rc = check_null_projects(st, err);
	if (rc < 0)
		return rc;
	rc = prepare(&r.stmt, st, sql, "cannot list projects", err);
	if (rc < 0)
		return rc;
	while ((rc = store_step(st, r.stmt)) == SQLITE_ROW) {
		struct fact_project *p;

		p = &ARRAY_PUSH(*out, *n, cap);
		memset(p, 0, sizeof(*p));
		if ((rc = project_row(p, &r)) < 0)
			goto out;
	}
	rc = rc == SQLITE_DONE ? 0 : store_fail(st, err, rc,
	    "cannot list projects");
out:
	sqlite3_finalize(r.stmt);
	return rc;
}

/* Push onto out the project of digest e, unlisted: its id for a name. */
static void
push_unlisted(struct fact_project **out, size_t *n, size_t *cap,
    const struct project_digest *e)
{
	struct fact_project *p = &ARRAY_PUSH(*out, *n, *cap);

	memset(p, 0, sizeof(*p));
	p->id = xstrdup(e->project);
	p->name = xstrdup(e->project);
	p->description = xstrdup("");
	p->aliases = xcalloc(1, sizeof(char *));
	p->n_state = e->rows[0];
	p->n_entities = e->rows[1];
	p->n_memories = e->rows[2];
	p->n_active = e->active;
	p->latest = e->latest;
}

/*
 * Where facts_projects with a digest takes the listed projects from:
 * the projects table, read in id order (st), or the rows a caller kept
 * (kept, in id order, ended by one whose id is NULL).
 */
struct listed_rows {
	struct store_row r;           /* r.stmt: the table's rows */
	const struct fact_project *kept;
	size_t i;                     /* kept: the next row */
};

/* The id of the next listed project of src (pointing into it, valid
 * until the next call), NULL after the last. Returns 0 or < 0 with the
 * store's error set. */
static int
listed_next(const char **id, struct listed_rows *src)
{
	int rc;

	if (src->kept != NULL) {
		*id = src->kept[src->i].id;
		return 0;
	}
	rc = store_step(src->r.st, src->r.stmt);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(src->r.st, src->r.err, rc,
		    "cannot list projects");
	*id = rc == SQLITE_ROW ?
	    (const char *)sqlite3_column_text(src->r.stmt, 0) : NULL;
	return 0;
}

/* The listed project src is at into *p (zeroed): the table's row, or a
 * copy of the kept one. Returns 0 or < 0 with err set. */
static int
listed_take(struct fact_project *p, struct listed_rows *src)
{
	const struct fact_project *k;

	if (src->kept == NULL)
		return project_row(p, &src->r);
	k = &src->kept[src->i++];
	p->id = xstrdup(k->id);
	p->name = xstrdup(k->name);
	p->description = xstrdup(k->description);
	p->aliases = xcalloc(k->n_aliases + 1, sizeof(char *));
	for (size_t a = 0; a < k->n_aliases; a++)
		p->aliases[a] = xstrdup(k->aliases[a]);
	p->n_aliases = k->n_aliases;
	p->listed = 1;
	return 0;
}

/* facts_projects from d (not NULL): the listed projects of src and the
 * digest's projects that hold rows of a layer, two lists in id order,
 * merged. Returns as facts_projects. */
static int
projects_digested(struct fact_project **out, size_t *n,
    const struct store_digest *d, struct listed_rows *src)
{
	size_t cap = 0, k = 0;
	const char *id = NULL;
	int rc;

	while ((rc = listed_next(&id, src)) == 0) {
		struct fact_project *p;

		for (; k < d->n && (id == NULL ||
		    strcmp(d->p[k].project, id) < 0); k++)
			if (d->p[k].rows[0] + d->p[k].rows[1] +
			    d->p[k].rows[2] > 0)
				push_unlisted(out, n, &cap, &d->p[k]);
		if (id == NULL)
			break;
		p = &ARRAY_PUSH(*out, *n, cap);
		memset(p, 0, sizeof(*p));
		if ((rc = listed_take(p, src)) < 0)
			break;
		p->latest = -1;
		if (k < d->n && strcmp(d->p[k].project, p->id) == 0) {
			p->n_state = d->p[k].rows[0];
			p->n_entities = d->p[k].rows[1];
			p->n_memories = d->p[k].rows[2];
			p->latest = d->p[k].latest;
			p->n_active = d->p[k++].active;
		}
	}
	return rc;
}

int
facts_projects(struct fact_project **out, size_t *n, mirror_store *st,
    const struct store_digest *d, const struct fact_project *kept,
    mirror_error *err)
{
	struct listed_rows src = { .r = { .st = st, .table = "projects",
	    .err = err }, .kept = kept };
	int rc;

	if (d == NULL)
		return projects_read(out, n, st, err);
	*out = NULL;
	*n = 0;
	if ((rc = check_null_projects(st, err)) < 0)
		return rc;
	if (kept == NULL && (rc = prepare(&src.r.stmt, st, "SELECT id, 1, "
	    "name, aliases, description, 0, 0, 0, 0 FROM main.projects "
	    "WHERE id IS NOT NULL ORDER BY id", "cannot list projects",
	    err)) < 0)
		return rc;
	rc = projects_digested(out, n, d, &src);
	sqlite3_finalize(src.r.stmt);
	return rc;
}

void
facts_projects_free(struct fact_project *p, size_t n)
{
	for (size_t i = 0; p != NULL && i < n; i++) {
		free(p[i].id);
		free(p[i].name);
		free(p[i].description);
		for (size_t k = 0; k < p[i].n_aliases; k++)
			free(p[i].aliases[k]);
		free(p[i].aliases);
	}
	free(p);
}

/* ---- one project at a time --------------------------------------------- */

/*
 * Each table is read once per build, ordered by canonical project first
 * (its last column), so the reader walks the four cursors forward as the
 * pages ask for projects in id order. Filtering per project instead made
 * a build projects x rows: no index can serve coalesce(alias, project).
 */
/* A table's row ids are listed under 1 + its index (fold_table): the
 * lists facts.h names. */
enum { T_STATE = FACTS_ROWS_STATE, T_ENT = FACTS_ROWS_ENTITIES,
    T_REL = FACTS_ROWS_RELATIONSHIPS, T_MEM = FACTS_ROWS_MEMORIES, T_N };

/* How a column becomes its field; each kind is checked by storerow.h. */
enum col_kind {
	COL_TEXT,               /* text; NULL is an error */
	COL_TEXT_NULL,          /* text, or NULL kept */
	COL_REAL,               /* a number; NULL is an error */
	COL_OBJECT,             /* a JSON object */
	COL_ARRAY,              /* a JSON array */
	COL_INT                 /* as SQLite converts it, unchecked */
};

/* The C type of the field each kind fills (FIELD checks it). */
#define CTYPE_COL_TEXT char *
#define CTYPE_COL_TEXT_NULL char *
#define CTYPE_COL_REAL double
#define CTYPE_COL_OBJECT json_t *
#define CTYPE_COL_ARRAY json_t *
#define CTYPE_COL_INT long long

/*
 * A column the facts read: its name in the store (and in errors), its
 * kind, where its field lies in the row's struct, and for an optional
 * column what stands in when the store lacks it (NULL: required) and
 * where struct store_features says whether it has it.
 */
struct column {
	const char *name;
	enum col_kind kind;
	size_t off;
	const char *absent;
	size_t feature;
};

/* offsetof(type, field), refused at compile time unless the field is
 * of the C type that kind fills. */
#define FIELD_OFF(type, field, kind) (offsetof(type, field) + \
	0 * sizeof((CTYPE_##kind *){ &((type *)0)->field }))

/* A required column, and an optional one with its stand-in and flag. */
#define FIELD(type, field, col, kind) \
	{ col, kind, FIELD_OFF(type, field, kind), NULL, 0 }
#define OPTIONAL(type, field, col, kind, absent, flag) \
	{ col, kind, FIELD_OFF(type, field, kind), absent, \
	    offsetof(struct store_features, flag) }

/*
 * A table read into struct project_facts: one entry per table and one
 * reader, read_row, for all of them. Its SQL names its column list
 * @COLS, which table_sql writes from cols, so the SELECT and the field
 * each column fills are said once. The first column is the row's id,
 * which errors name.
 */
struct table {
	const char *name;
	char alias;                /* of the table in its SQL */
	const char *what;          /* the failure of its SELECT */
	const char *read_sql;      /* rows in page order, canonical project
	                              as the last column */
	const char *all_sql;       /* every row, for the checksum */
	const char *check_sql;     /* what facts_check reads; NULL: all_sql */
	const char *digest_sql;    /* all_sql's rows with their salt, the
	                              active flag and updated_at (seconds)
	                              when counted, owners
	                              (store/digest.h: a row's project, or
	                              an edge's two entities), and rowid */
	int nsalt;
	int count;                 /* the digest's count of its rows, -1:
	                              none */
	const struct column *cols;
	size_t ncols;
	size_t size;               /* of the row's struct */
	size_t rows, n;            /* of its array and count in project_facts */
	/* What no column kind says, after the columns (NULL: nothing):
	 * returns 0 or -MIRROR_EINPUT naming the row. */
	int (*finish)(void *row, struct store_row *r, time_t now);
	const struct column *more; /* a column no page reads that digest_sql
	                              hashes after @COLS (@MORE), for the
	                              rules that read it; NULL: none */
};

static const struct column state_cols[] = {
	FIELD(struct fact_state, id, "id", COL_TEXT),
	FIELD(struct fact_state, project, "project", COL_TEXT),
	FIELD(struct fact_state, category, "category", COL_TEXT),
	FIELD(struct fact_state, key, "key", COL_TEXT),
	FIELD(struct fact_state, value, "value", COL_TEXT),
	FIELD(struct fact_state, source, "source", COL_TEXT),
	FIELD(struct fact_state, confidence, "confidence", COL_REAL),
	FIELD(struct fact_state, status, "status", COL_TEXT),
	FIELD(struct fact_state, created_at, "created_at", COL_TEXT),
	FIELD(struct fact_state, updated_at, "updated_at", COL_TEXT),
};

static const struct column entity_cols[] = {
	FIELD(struct fact_entity, id, "id", COL_TEXT),
	FIELD(struct fact_entity, type, "entity_type", COL_TEXT),
	FIELD(struct fact_entity, name, "name", COL_TEXT),
	FIELD(struct fact_entity, project, "project", COL_TEXT),
	FIELD(struct fact_entity, description, "description", COL_TEXT),
	FIELD(struct fact_entity, properties, "properties", COL_OBJECT),
	FIELD(struct fact_entity, status, "status", COL_TEXT),
	FIELD(struct fact_entity, confidence, "confidence", COL_REAL),
	FIELD(struct fact_entity, source_refs, "source_refs", COL_ARRAY),
	FIELD(struct fact_entity, created_at, "created_at", COL_TEXT),
	FIELD(struct fact_entity, updated_at, "updated_at", COL_TEXT),
};

static const struct column rel_cols[] = {
	FIELD(struct fact_rel, id, "id", COL_TEXT),
	FIELD(struct fact_rel, source, "source_entity_id", COL_TEXT),
	FIELD(struct fact_rel, target, "target_entity_id", COL_TEXT),
	FIELD(struct fact_rel, type, "relationship_type", COL_TEXT),
	FIELD(struct fact_rel, confidence, "confidence", COL_REAL),
};

/* relationships.created_at: no page reads it, the digest hashes it
 * (@MORE); optional in the contract, so never read into a row. */
static const struct column rel_more = { .name = "created_at",
    .kind = COL_TEXT_NULL, .off = 0, .absent = "NULL",
    .feature = offsetof(struct store_features, rel_created_at) };

static const struct column memory_cols[] = {
	FIELD(struct fact_memory, id, "id", COL_TEXT),
	FIELD(struct fact_memory, type, "memory_type", COL_TEXT),
	FIELD(struct fact_memory, content, "content", COL_TEXT),
	FIELD(struct fact_memory, project, "project", COL_TEXT),
	FIELD(struct fact_memory, confidence, "confidence", COL_REAL),
	FIELD(struct fact_memory, status, "status", COL_TEXT),
	OPTIONAL(struct fact_memory, reference_count, "reference_count",
	    COL_INT, "0", mem_reference_count),
	OPTIONAL(struct fact_memory, domain_tags, "domain_tags", COL_ARRAY,
	    "'[]'", mem_domain_tags),
	OPTIONAL(struct fact_memory, valid_until, "valid_until",
	    COL_TEXT_NULL, "NULL", mem_valid_until),
	OPTIONAL(struct fact_memory, graduated_to, "graduated_to_entity_id",
	    COL_TEXT_NULL, "NULL", mem_graduated),
	FIELD(struct fact_memory, created_at, "created_at", COL_TEXT),
	FIELD(struct fact_memory, updated_at, "updated_at", COL_TEXT),
};

static int memory_expiry(void *row, struct store_row *r, time_t now);

/* A layer's columns, row struct, and array and count in project_facts
 * (its rows in field F, their number in n_F). */
#define LAYER_ROWS(T, C, F) .cols = C, .ncols = NELEM(C), \
	.size = sizeof(T), .rows = offsetof(struct project_facts, F), \
	.n = offsetof(struct project_facts, n_##F)

static const struct table tables[T_N] = {
	[T_STATE] = {
		.name = "project_state",
		.alias = 's',
		.what = "cannot read project_state",
		.read_sql = "SELECT @COLS, " CANON("s")
		    " FROM main.project_state s" JOIN_ALIAS("s")
		    "@SCOPE ORDER BY " CANON("s") ", s.category, "
		    "s.key, s.created_at, s.id",
		.all_sql = "SELECT @COLS FROM main.project_state s",
		.digest_sql = "SELECT @COLS, s.status = 'active', "
		    "mirror_ts(s.updated_at), s.project, s.rowid FROM "
		    "main.project_state s",
		.count = 0,
		LAYER_ROWS(struct fact_state, state_cols, state),
	},
	[T_ENT] = {
		.name = "entities",
		.alias = 'e',
		.what = "cannot read entities",
		.read_sql = "SELECT @COLS, " CANON("e") " FROM main.entities e"
		    JOIN_ALIAS("e") "@SCOPE ORDER BY " CANON("e")
		    ", e.entity_type, e.name, e.id",
		.all_sql = "SELECT @COLS FROM main.entities e",
		.digest_sql = "SELECT @COLS, e.status = 'active', "
		    "mirror_ts(e.updated_at), e.project, e.rowid FROM "
		    "main.entities e",
		.count = 1,
		LAYER_ROWS(struct fact_entity, entity_cols, ent),
	},
	/* A relationship is listed under the project of each of its ends
	 * (column 6, after its five); facts_check reads what the pages
	 * do: an edge with an end in some project. */
	[T_REL] = {
		.name = "relationships",
		.alias = 'r',
		.what = "cannot read relationships",
		.read_sql = "WITH ent(id, p) AS @INLINE(SELECT e.id, " CANON("e")
		    " FROM main.entities e" JOIN_ALIAS("e") "@SCOPE) "
		    "SELECT @COLS, x.p FROM main.relationships r "
		    "JOIN ent x ON x.id = r.source_entity_id@RSCOPE UNION "
		    "SELECT @COLS, x.p FROM main.relationships r "
		    "JOIN ent x ON x.id = r.target_entity_id@RSCOPE "
		    "ORDER BY 6, 4, 2, 3, 1",
		.all_sql = "SELECT @COLS FROM main.relationships r",
		.check_sql = "SELECT @COLS FROM main.relationships r WHERE "
		    "r.source_entity_id IN (SELECT id FROM main.entities) OR "
		    "r.target_entity_id IN (SELECT id FROM main.entities)",
		.digest_sql = "SELECT @COLS, @MORE, r.source_entity_id, "
		    "r.target_entity_id, r.rowid FROM main.relationships r",
		.count = -1,
		LAYER_ROWS(struct fact_rel, rel_cols, rel),
		.more = &rel_more,
	},
	/* Whether a memory has expired is the clock's, not the row's: a
	 * salt of its project's digest (@EXPIRED, see facts_digest). */
	[T_MEM] = {
		.name = "memories",
		.alias = 'm',
		.what = "cannot read memories",
		.read_sql = "SELECT @COLS, " CANON("m") " FROM main.memories m"
		    JOIN_ALIAS("m") "@SCOPE ORDER BY " CANON("m")
		    ", m.memory_type, m.created_at, m.id",
		.all_sql = "SELECT @COLS FROM main.memories m",
		.digest_sql = "SELECT @COLS, @EXPIRED, m.status = 'active', "
		    "mirror_ts(m.updated_at), m.project, m.rowid FROM "
		    "main.memories m",
		.nsalt = 1,
		.count = 2,
		LAYER_ROWS(struct fact_memory, memory_cols, mem),
		.finish = memory_expiry,
	},
};

/* Column c of t as "alias.name", or its stand-in when the store lacks
 * it, onto sb. */
static void
col_sql(strbuf *sb, const struct table *t, const struct column *c,
    mirror_store *st)
{
	const int *has = (const int *)((const char *)store_features(st) +
	    c->feature);

	if (c->absent != NULL && !*has)
		strbuf_puts(sb, c->absent);
	else
		strbuf_printf(sb, "%c.%s", t->alias, c->name);
}

/* t's columns (col_sql), comma-separated, onto sb. */
static void
cols_sql(strbuf *sb, const struct table *t, mirror_store *st)
{
	for (size_t i = 0; i < t->ncols; i++) {
		if (i > 0)
			strbuf_puts(sb, ", ");
		col_sql(sb, t, &t->cols[i], st);
	}
}

/* How a read is limited to the scope's projects (table_sql). */
enum { SCOPE_NONE, SCOPE_NAMES, SCOPE_ROWS };


/*
 * Write into sb the SQL tmpl of t with its marks replaced: @COLS by t's
 * columns (cols_sql); @SCOPE by a WHERE that keeps the projects of TEMP
 * mirror_scope (SCOPE_NAMES: by the rows' stored project, SCOPE_ROWS:
 * by the rowids of TEMP mirror_scope_rows), else by nothing
 * (relationships: the entities of those projects); @RSCOPE (an edge's
 * own rows) by the rowids with SCOPE_ROWS, else by nothing; @EXPIRED by
 * whether a memory's valid_until lies before the timestamp bound as ?1;
 * @MORE by t's more column (NULL when the store lacks it); @INLINE (the
 * relationships' entities, used by both arms of their UNION) by NOT
 * MATERIALIZED when the read is of the whole store: each arm then looks
 * its entities up by their key, where a materialized list of every
 * entity and an automatic index of every relationship (their columns
 * covered) per arm were held until the read ended (3.6 MB a reader at
 * 100,000 facts), for the same rows.
 */
static void
table_sql(strbuf *sb, const struct table *t, mirror_store *st,
    const char *tmpl, int scoped)
{
	static const char *const marks[] = { "@COLS", "@SCOPE", "@EXPIRED",
	    "@RSCOPE", "@MORE", "@INLINE" };
	const char *p;

	strbuf_reset(sb);
	while ((p = strchr(tmpl, '@')) != NULL) {
		size_t k = 0;

		while (k < NELEM(marks) && strncmp(p, marks[k],
		    strlen(marks[k])) != 0)
			k++;
		strbuf_add(sb, tmpl, (size_t)(p - tmpl));
		if (k == 0)
			cols_sql(sb, t, st);
		else if (k == 1 && scoped == SCOPE_NAMES)
			/* By the raw name, so rows are filtered before
			 * the alias join; an edge's scope is that of its
			 * entities. */
			strbuf_printf(sb, " WHERE %c.project IN (SELECT name "
			    "FROM temp.mirror_scope_names) ",
			    t->alias == 'r' ? 'e' : t->alias);
		else if ((k == 1 || k == 3) && scoped == SCOPE_ROWS) {
			/* An edge's @SCOPE is its entities' (T_ENT). */
			const struct table *x = k == 1 && t == &tables[T_REL] ?
			    &tables[T_ENT] : t;

			strbuf_printf(sb, " %s %c.rowid IN (SELECT rid FROM "
			    "temp.mirror_scope_rows WHERE t = %d) ",
			    k == 1 ? "WHERE" : "AND", x->alias,
			    (int)(x - tables));
		} else if (k == 2)
			strbuf_puts(sb, store_features(st)->mem_valid_until ?
			    "mirror_ts(m.valid_until) < mirror_ts(?1)" :
			    "NULL");
		else if (k == 4 && t->more != NULL)
			col_sql(sb, t, t->more, st);
		else if (k == 5 && scoped == SCOPE_NONE)
			strbuf_puts(sb, "NOT MATERIALIZED ");
		else if (k == NELEM(marks))
			strbuf_putc(sb, '@');
		tmpl = p + (k < NELEM(marks) ? strlen(marks[k]) : 1);
	}
	strbuf_puts(sb, tmpl);
}

/* Read column i of r into field, as c says. Returns 0 or < 0 as
 * storerow.h's readers do. */
static int
read_col(void *field, const struct column *c, struct store_row *r, int i)
{
	switch (c->kind) {
	case COL_TEXT:
	case COL_TEXT_NULL:
		return storerow_text(field, r, i, c->name,
		    c->kind == COL_TEXT_NULL);
	case COL_REAL:
		return storerow_real(field, r, i, c->name);
	case COL_OBJECT:
	case COL_ARRAY:
		return storerow_json(field, r, i, c->name,
		    c->kind == COL_OBJECT);
	case COL_INT:
		break;
	}
	*(long long *)field = sqlite3_column_int64(r->stmt, i);
	return 0;
}

/*
 * Read the current row of r into a new, zeroed element of t's array in
 * f, whose room is *cap: column by column in SELECT order, then t's
 * finish. The element is counted in before it is read, so facts_free
 * frees what a bad row left half read. Returns 0 or -MIRROR_EINPUT
 * naming the table, the row and the column.
 */
static int
read_row(struct project_facts *f, size_t *cap, const struct table *t,
    struct store_row *r, time_t now)
{
	size_t *n = (size_t *)((char *)f + t->n);
	char *row;
	void *v;
	int rc;

	/* f's array pointers are of their own types: copied, not cast. */
	memcpy(&v, (char *)f + t->rows, sizeof(v));
	v = array_reserve(v, cap, *n + 1, t->size);
	memcpy((char *)f + t->rows, &v, sizeof(v));
	row = (char *)v + (*n)++ * t->size;
	memset(row, 0, t->size);
	for (size_t i = 0; i < t->ncols; i++) {
		if ((rc = read_col(row + t->cols[i].off, &t->cols[i], r,
		    (int)i)) < 0)
			return rc;
		if (i == 0)
			r->id = *(char **)(row + t->cols[0].off);
	}
	return t->finish != NULL ? t->finish(row, r, now) : 0;
}

/* struct table's finish for memories: an empty valid_until is none; any
 * other must be a timestamp, and flags the memory expired before now. */
static int
memory_expiry(void *row, struct store_row *r, time_t now)
{
	struct fact_memory *m = row;
	time_t until;

	if (m->valid_until != NULL && m->valid_until[0] == '\0') {
		free(m->valid_until);
		m->valid_until = NULL;
	}
	if (m->valid_until != NULL) {
		if (mirror_parse_ts(&until, m->valid_until) < 0)
			return storerow_fail(r, "valid_until",
			    "is not a timestamp (YYYY-MM-DD HH:MM:SS)");
		m->expired = until < now;
	}
	return 0;
}

/* One project of a struct facts_kept. */
struct kept_project {
	char *id;
	struct project_facts f;
};

struct facts_kept {
	struct kept_project *p;       /* by id (strcmp) */
	size_t n;
};

struct facts_reader {
	mirror_store *st;
	time_t now;
	struct facts_kept *kept;      /* non-NULL: hand out these instead */
	sqlite3_stmt *stmt[T_N];
	mirror_store *conn[T_N];        /* the connection of stmt[t] */
	mirror_store *side[T_N];        /* connections of its own, one a
	                                   side (a wide plan's) */
	int pending[T_N];       /* the current row is not consumed yet */
	int done[T_N];          /* stepped past the last row */
	char *last;             /* the project read last; NULL before */
	sqlite3_stmt *far;      /* farends_read's lookup; NULL until used */
	int scoped;             /* SCOPE_*: how its reads are limited */
};

/* SQLite's BINARY order of a (n bytes) against NUL-terminated b. */
static int
binary_cmp(const unsigned char *a, size_t n, const char *b)
{
	size_t m = strlen(b);
	int c = memcmp(a, b, n < m ? n : m);

	return c != 0 ? c : (n > m) - (n < m);
}

/*
 * Move cursor t to the first row of project (skipping rows of projects
 * before it). Returns 1 when that row belongs to project, 0 when the
 * table has no (more) rows of it, or < 0 with err set.
 */
static int
cursor_seek(struct facts_reader *r, int t, const char *project,
    mirror_error *err)
{
	sqlite3_stmt *stmt = r->stmt[t];
	int last = sqlite3_column_count(stmt) - 1;

	for (;;) {
		const unsigned char *p;
		int c, rc;

		if (r->done[t])
			return 0;
		if (!r->pending[t]) {
			rc = store_step(r->conn[t], stmt);
			if (rc == SQLITE_DONE) {
				r->done[t] = 1;
				return 0;
			}
			if (rc != SQLITE_ROW)
				return store_fail(r->conn[t], err, rc,
				    tables[t].what);
			r->pending[t] = 1;
		}
		p = sqlite3_column_text(stmt, last);
		c = p == NULL ? -1 : binary_cmp(p, (size_t)sqlite3_column_bytes(
		    stmt, last), project);
		if (c == 0)
			return 1;
		if (c > 0)
			return 0;
		r->pending[t] = 0;  /* a project before this one */
	}
}

/*
 * Prepare into *stmt the read of table t (its read_sql) for st, scoped
 * as table_sql says. Returns 0 or < 0 with err set.
 */
static int
prepare_table(sqlite3_stmt **stmt, mirror_store *st, int t, int scoped,
    mirror_error *err)
{
	strbuf sql;
	int rc;

	strbuf_init(&sql);
	table_sql(&sql, &tables[t], st, tables[t].read_sql, scoped);
	rc = prepare(stmt, st, sql.data, tables[t].what, err);
	strbuf_free(&sql);
	return rc;
}

/* A reader of st with no statement yet, every table on st. */
static struct facts_reader *
reader_new(mirror_store *st, time_t now)
{
	struct facts_reader *r = xcalloc(1, sizeof(*r));

	r->st = st;
	r->now = now;
	for (int t = 0; t < T_N; t++)
		r->conn[t] = st;
	return r;
}

/* facts_reader_open, of every project or (scoped) of mirror_scope's. */
static int
reader_open(struct facts_reader **out, mirror_store *st, time_t now,
    int scoped, mirror_error *err)
{
	struct facts_reader *r = *out = reader_new(st, now);
	int rc;

	r->scoped = scoped;
	for (int t = 0; t < T_N; t++)
		if ((rc = prepare_table(&r->stmt[t], st, t, scoped, err)) < 0)
			return rc;
	return 0;
}

/* The tables in the order a wide reader deals them to its
 * connections: on the bench's store two connections get 9.4 and 9.6 ms
 * of sorting. */
static const int wide_order[T_N] = { T_ENT, T_STATE, T_REL, T_MEM };

/* One connection's share of a wide reader (reader_open_wide). */
struct wide_side {
	struct facts_reader *r;
	int k, n;                       /* wide_order[k], [k + n], ... */
	struct store_parallel *bs;
};

/* Prepare the reads of w's tables on st and take the first step of
 * each, which sorts the table (a store_parallel_fn). Each side sets the
 * elements of r's arrays of its own tables alone. Returns 0 or < 0 with
 * err set. */
static int
wide_sort(void *arg, mirror_store *st, mirror_error *err)
{
	struct wide_side *w = arg;
	struct facts_reader *r = w->r;
	int rc = 0;

	for (int k = w->k; rc == 0 && k < T_N; k += w->n) {
		int t = wide_order[k];

		if ((rc = prepare_table(&r->stmt[t], st, t, SCOPE_NONE,
		    err)) < 0)
			break;
		rc = store_step(st, r->stmt[t]);
		if (rc == SQLITE_DONE)
			r->done[t] = 1;
		else if (rc == SQLITE_ROW)
			r->pending[t] = 1;
		else
			return store_fail(st, err, rc, tables[t].what);
		rc = 0;
	}
	return rc;
}

/* A reader of every project whose tables' sorts run on connections of
 * their own (facts_plan's wide). Returns as facts_reader_open. */
static int
reader_open_wide(struct facts_reader **out, mirror_store *st, time_t now,
    mirror_error *err)
{
	struct wide_side w[T_N];
	int n = mirror_jobs() < T_N ? mirror_jobs() : T_N;
	struct facts_reader *r;
	int rc = 0;

	if (n < 2 || !store_shares_snapshot(st))
		return reader_open(out, st, now, SCOPE_NONE, err);
	*out = r = reader_new(st, now);
	for (int k = 0; k < n; k++) {
		w[k] = (struct wide_side){ .r = r, .k = k, .n = n };
		w[k].bs = store_parallel_start_kept(st, wide_sort, &w[k]);
	}
	for (int k = 0; k < n; k++) {
		mirror_store *kept;
		mirror_error e;
		int src;

		if (store_parallel_join_kept(w[k].bs, &kept, &src, &e)) {
			for (int j = k; j < T_N; j += n)
				r->conn[wide_order[j]] = kept;
			r->side[k] = kept;
			if (src < 0 && rc == 0) {
				*err = e;
				rc = src;
			}
		} else if (rc == 0)     /* no second connection: here */
			rc = wide_sort(&w[k], st, err);
	}
	return rc;
}

/*
 * Set the scope of scoped reads and checks on st's connection to the
 * canonical project ids ids[0..n) (TEMP tables, replaced by each call).
 * Returns 0 or < 0 with err set.
 */
static int
scope_set(mirror_store *st, const char *const *ids, size_t n,
    mirror_error *err)
{
	static const char what[] = "cannot limit the read to projects";
	sqlite3_stmt *ins = NULL;
	int rc;

	rc = sqlite3_exec(store_db(st), "DROP TABLE IF EXISTS "
	    "temp.mirror_scope; DROP TABLE IF EXISTS temp.mirror_scope_names; "
	    "CREATE TEMP TABLE mirror_scope(p TEXT PRIMARY KEY) WITHOUT "
	    "ROWID; CREATE TEMP TABLE mirror_scope_names(name TEXT PRIMARY "
	    "KEY) WITHOUT ROWID", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(store_db(st), "INSERT OR IGNORE INTO "
		    "temp.mirror_scope(p) VALUES(?1)", -1, &ins, NULL);
	for (size_t i = 0; rc == SQLITE_OK && i < n; i++) {
		rc = sqlite3_bind_text(ins, 1, ids[i], -1, SQLITE_STATIC);
		if (rc == SQLITE_OK && (rc = sqlite3_step(ins)) == SQLITE_DONE)
			rc = SQLITE_OK;
		sqlite3_reset(ins);
	}
	sqlite3_finalize(ins);
	/* Every name a row may file a scoped project under: its aliases
	 * (and its own id, when listed), or the id of an unlisted one. */
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(store_db(st), "INSERT INTO "
		    "temp.mirror_scope_names SELECT name FROM "
		    "temp.project_alias WHERE canonical IN (SELECT p FROM "
		    "temp.mirror_scope) UNION SELECT p FROM temp.mirror_scope "
		    "WHERE p NOT IN (SELECT name FROM temp.project_alias)",
		    NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : store_fail(st, err, rc, what);
}

int
facts_reader_sides(const struct facts_reader *r)
{
	int n = 0;

	for (int t = 0; t < T_N; t++)
		n += r->side[t] != NULL;
	return n;
}

void
facts_reader_close(struct facts_reader *r)
{
	if (r == NULL)
		return;
	for (int t = 0; r->scoped != SCOPE_NONE && t < T_N; t++)
		if (r->stmt[t] != NULL)
			work_add(&work_scope_scans, (unsigned long long)
			    sqlite3_stmt_status(r->stmt[t],
			    SQLITE_STMTSTATUS_FULLSCAN_STEP, 0));
	for (int t = 0; t < T_N; t++)
		sqlite3_finalize(r->stmt[t]);
	for (int t = 0; t < T_N; t++)
		store_parallel_close(r->st, r->side[t]);
	sqlite3_finalize(r->far);
	free(r->last);
	free(r);
}

/* 1 when id is in the sorted array v[0..n). */
static int
in_sorted(const char *const *v, size_t n, const char *id)
{
	return byid_sorted(v, n, sizeof(*v), 0, id) != BYID_NONE;
}

/*
 * The far ends of f's relationships: every end that is not one of f's
 * entities, looked up (farends.h) into f->far. Returns 0 or < 0 with
 * err set.
 */
static int
read_far(struct project_facts *f, struct facts_reader *r, mirror_error *err)
{
	const char **own = xcalloc(f->n_ent + 1, sizeof(*own));
	const char **ids = NULL;
	size_t n = 0, cap = 0, k = 0;
	int rc;

	for (size_t i = 0; i < f->n_ent; i++)
		own[i] = f->ent[i].id;
	qsort(own, f->n_ent, sizeof(*own), cmp_str);
	for (size_t i = 0; i < f->n_rel; i++) {
		if (!in_sorted(own, f->n_ent, f->rel[i].source))
			ARRAY_PUSH(ids, n, cap) = f->rel[i].source;
		if (!in_sorted(own, f->n_ent, f->rel[i].target))
			ARRAY_PUSH(ids, n, cap) = f->rel[i].target;
	}
	if (n > 0)
		qsort(ids, n, sizeof(*ids), cmp_str);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || strcmp(ids[k - 1], ids[i]) != 0)
			ids[k++] = ids[i];
	rc = farends_read(&f->far, &f->n_far, &(struct farends_lookup){
	    .st = r->st, .stmt = &r->far }, ids, k, err);
	free(own);
	free(ids);
	return rc;
}

/* The kept project whose id is id in k (sorted by id), or NULL. */
static struct kept_project *
kept_find(const struct facts_kept *k, const char *id)
{
	size_t at = byid_sorted(k->p, k->n, sizeof(*k->p),
	    offsetof(struct kept_project, id), id);

	return at != BYID_NONE ? &k->p[at] : NULL;
}

int
facts_read_project(struct project_facts *out, struct facts_reader *r,
    const char *project, mirror_error *err)
{
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (r->last != NULL && strcmp(project, r->last) <= 0)
		return mirror_fail(err, MIRROR_EIO, "internal: project '%s' "
		    "read after '%s'", project, r->last);
	free(r->last);
	r->last = xstrdup(project);
	if (r->kept != NULL) {
		struct kept_project *k = kept_find(r->kept, project);

		if (k != NULL) {
			*out = k->f;    /* moved: each is handed out once */
			memset(&k->f, 0, sizeof(k->f));
		}
		return 0;
	}
	for (int t = 0; rc == 0 && t < T_N; t++) {
		struct store_row row = { .st = r->conn[t], .stmt = r->stmt[t],
		    .table = tables[t].name, .err = err };
		size_t cap = 0;

		while ((rc = cursor_seek(r, t, project, err)) == 1) {
			row.id = NULL;
			r->pending[t] = 0;
			if ((rc = read_row(out, &cap, &tables[t], &row,
			    r->now)) < 0)
				break;
		}
	}
	return rc == 0 ? read_far(out, r, err) : rc;
}

int
facts_load(struct project_facts *out, mirror_store *st, const char *project,
    time_t now, mirror_error *err)
{
	struct facts_reader *r;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = facts_reader_open(&r, st, &(const struct facts_plan){ .now = now },
	    err);
	if (rc == 0)
		rc = facts_read_project(out, r, project, err);
	facts_reader_close(r);
	return rc;
}

/*
 * Read the rows facts_check reads of table t (its check_sql, else its
 * all_sql) as the pages would, keeping none. Returns 0 or the first
 * row's error.
 */
static int
check_rows(mirror_store *st, int t, time_t now, mirror_error *err)
{
	const struct table *tb = &tables[t];
	struct store_row r = { .st = st, .table = tb->name, .err = err };
	struct project_facts f;
	strbuf sql;
	size_t cap = 0;
	int rc;

	memset(&f, 0, sizeof(f));
	strbuf_init(&sql);
	table_sql(&sql, tb, st, tb->check_sql != NULL ? tb->check_sql :
	    tb->all_sql, 0);
	rc = prepare(&r.stmt, st, sql.data, tb->what, err);
	strbuf_free(&sql);
	if (rc < 0)
		return rc;
	while ((rc = store_step(st, r.stmt)) == SQLITE_ROW) {
		r.id = NULL;
		if ((rc = read_row(&f, &cap, tb, &r, now)) < 0)
			break;
		/* Keep memory flat: drop what was read every 1024 rows. */
		if (f.n_state + f.n_ent + f.n_rel + f.n_mem >= 1024) {
			facts_free(&f);
			cap = 0;
		}
	}
	if (rc == SQLITE_DONE)
		rc = 0;
	else if (rc > 0)
		rc = store_fail(st, err, rc, tb->what);
	facts_free(&f);
	sqlite3_finalize(r.stmt);
	return rc;
}

/* The tables a second connection reads while this one reads the rest
 * (facts_check, digest_store): their owners are project columns alone,
 * so the digest needs none of the entity and edge tables the others
 * build. */
static const int parallel_tables[] = { T_STATE, T_MEM };

/* 1 when table t is one of parallel_tables. */
static int
is_parallel(int t)
{
	for (size_t i = 0; i < NELEM(parallel_tables); i++)
		if (parallel_tables[i] == t)
			return 1;
	return 0;
}

/* The second connection's share of a check (facts_check): the tables
 * of parallel_tables, in order, up to the first that fails. */
struct parallel_check {
	time_t now;
	int failed;                     /* the table that failed, or T_N */
};

/* Check parallel_tables of st (a store_parallel_fn). Returns 0 or < 0 with
 * err set and b->failed naming the table. */
static int
check_parallel(void *arg, mirror_store *st, mirror_error *err)
{
	struct parallel_check *b = arg;
	int rc = 0;

	b->failed = T_N;
	for (size_t i = 0; rc == 0 && i < NELEM(parallel_tables); i++)
		if ((rc = check_rows(st, parallel_tables[i], b->now, err)) < 0)
			b->failed = parallel_tables[i];
	return rc;
}

/*
 * The tables of parallel_tables are checked on a second connection at the
 * same time when it can (as the digest folds them: on one connection
 * the check kept one core busy while the other idled), the rest here.
 * The error is the one of the first table, in table order, that has a
 * bad row: the one a check of one table after another reports.
 */
static int
check_all(mirror_store *st, time_t now, mirror_error *err)
{
	struct parallel_check side = { now, T_N };
	struct store_parallel *bs;
	struct fact_project *p = NULL;
	mirror_error side_err;
	size_t n = 0;
	int rc, brc, failed = T_N;

	bs = store_parallel_start(st, check_parallel, &side);
	rc = projects_read(&p, &n, st, err);
	facts_projects_free(p, n);
	for (int t = 0; rc == 0 && t < T_N; t++)
		if ((bs == NULL || !is_parallel(t)) &&
		    (rc = check_rows(st, t, now, err)) < 0)
			failed = t;
	if (bs == NULL)
		return rc;              /* every table was checked here */
	/* When it did not run (no second connection), its tables here:
	 * one of them may come before a table that failed. */
	if (!store_parallel_join(bs, &brc, &side_err) &&
	    (rc == 0 || failed != T_N))
		brc = check_parallel(&side, st, &side_err);
	/* The projects' read failed (failed is T_N) or a table before the
	 * parallel one did: that error stands. */
	if (brc < 0 && (rc == 0 || (failed != T_N && side.failed < failed))) {
		*err = side_err;
		rc = brc;
	}
	return rc;
}

/*
 * TEMP mirror_scope_rows (t, rid): the row ids d lists for the projects
 * ids[0..n), by table (T_*). Returns 0 or < 0 with err set.
 */
static int
scope_rows_set(mirror_store *st, const struct store_digest *d,
    const char *const *ids, size_t n, mirror_error *err)
{
	sqlite3_stmt *ins = NULL;
	int rc;

	rc = sqlite3_exec(store_db(st), "DROP TABLE IF EXISTS "
	    "temp.mirror_scope_rows; CREATE TEMP TABLE mirror_scope_rows("
	    "t INTEGER, rid INTEGER, PRIMARY KEY(t, rid)) WITHOUT ROWID",
	    NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(store_db(st), "INSERT OR IGNORE INTO "
		    "temp.mirror_scope_rows(t, rid) VALUES(?1, ?2)", -1, &ins,
		    NULL);
	for (size_t i = 0; rc == SQLITE_OK && i < n; i++) {
		const struct project_digest *p = digest_find(d, ids[i]);
		const struct digest_rowids *r = p != NULL ? p->rowids : NULL;

		for (int t = 0; r != NULL && t < T_N; t++)
			for (size_t k = 0; rc == SQLITE_OK && k < r->n[t];
			    k++) {
				sqlite3_bind_int(ins, 1, t);
				sqlite3_bind_int64(ins, 2, r->v[t][k]);
				if ((rc = sqlite3_step(ins)) == SQLITE_DONE)
					rc = SQLITE_OK;
				sqlite3_reset(ins);
			}
	}
	sqlite3_finalize(ins);
	return rc == SQLITE_OK ? 0 : store_fail(st, err, rc,
	    "cannot limit the read to projects");
}

/*
 * facts_check of p's scope, read (keep NULL) or read and kept with the
 * no-project group "" (keep non-NULL). Returns as facts_check.
 */
static int
check_scoped(struct facts_kept *keep, mirror_store *st,
    const struct facts_plan *p, mirror_error *err)
{
	const char *const *ids = p->ids;
	size_t n = p->n;
	const struct store_digest *d = p->d;
	time_t now = p->now;
	int by_rows = d != NULL && d->keep_rowids;
	struct facts_reader *r = NULL;
	const char **read = xcalloc(n + 2, sizeof(*read));
	size_t n_read = 0, cap = 0;
	int rc;

	/* The no-project group sorts first; the check proper leaves it out
	 * (a changed row of it would have changed the rows of no project,
	 * which the caller scopes nothing for), a reader later needs it. */
	if (keep != NULL && (n == 0 || ids[0][0] != '\0'))
		read[n_read++] = "";
	for (size_t i = 0; i < n; i++)
		read[n_read++] = ids[i];
	rc = scope_set(st, read, n_read, err);
	if (rc == 0)
		rc = check_scoped_projects(st, err);
	if (rc == 0 && by_rows)
		rc = scope_rows_set(st, d, read, n_read, err);
	if (rc == 0)
		rc = reader_open(&r, st, now, by_rows ? SCOPE_ROWS :
		    SCOPE_NAMES, err);
	for (size_t i = 0; rc == 0 && i < n_read; i++) {
		struct project_facts f;

		/* ids is sorted, as the reader asks. */
		rc = facts_read_project(&f, r, read[i], err);
		if (rc == 0 && keep != NULL) {
			struct kept_project *k = &ARRAY_PUSH(keep->p, keep->n,
			    cap);

			k->id = xstrdup(read[i]);
			k->f = f;
		} else
			facts_free(&f);
	}
	facts_reader_close(r);
	free(read);
	return rc;
}

int
facts_check(mirror_store *st, const struct facts_plan *p, mirror_error *err)
{
	struct facts_kept *k;
	int rc;

	if (p->keep != NULL)
		*p->keep = NULL;
	if (p->ids == NULL)
		return check_all(st, p->now, err);
	if (p->keep == NULL)
		return check_scoped(NULL, st, p, err);
	k = xcalloc(1, sizeof(*k));
	if ((rc = check_scoped(k, st, p, err)) < 0)
		facts_kept_free(k);
	else
		*p->keep = k;
	return rc;
}

int
facts_kept_covers(const struct facts_kept *k, const char *const *ids,
    size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (kept_find(k, ids[i]) == NULL)
			return 0;
	return 1;
}

/* A reader that hands out the projects of k (facts_plan's kept); k
 * must outlive it. */
static struct facts_reader *
reader_of_kept(struct facts_kept *k)
{
	struct facts_reader *r = xcalloc(1, sizeof(*r));

	r->kept = k;
	return r;
}

int
facts_reader_open(struct facts_reader **out, mirror_store *st,
    const struct facts_plan *p, mirror_error *err)
{
	int by_rows = p->d != NULL && p->d->keep_rowids;
	int rc;

	*out = NULL;
	if (p->kept != NULL) {
		*out = reader_of_kept(p->kept);
		return 0;
	}
	if (p->ids == NULL)
		return p->wide ? reader_open_wide(out, st, p->now, err) :
		    reader_open(out, st, p->now, SCOPE_NONE, err);
	rc = scope_set(st, p->ids, p->n, err);
	if (rc == 0 && by_rows)
		rc = scope_rows_set(st, p->d, p->ids, p->n, err);
	if (rc == 0)
		rc = reader_open(out, st, p->now, by_rows ? SCOPE_ROWS :
		    SCOPE_NAMES, err);
	return rc;
}

/* A deep copy of JSON value j (NULL for NULL); exits when out of
 * memory, as xalloc does. */
static json_t *
facts_json_copy(json_t *j)
{
	json_t *c = j != NULL ? json_deep_copy(j) : NULL;

	if (j != NULL && c == NULL)
		xalloc_fail(sizeof(json_t));
	return c;
}

/* The state rows and entities of f copied into out (whose arrays are
 * empty). Returns nothing; out owns what it holds. */
static void
copy_state_ent(struct project_facts *out, const struct project_facts *f)
{
	out->state = xcalloc(f->n_state + 1, sizeof(*out->state));
	for (size_t i = 0; i < f->n_state; i++) {
		const struct fact_state *a = &f->state[i];

		out->state[i] = (struct fact_state){ xstrdup(a->id),
		    xstrdup(a->project), xstrdup(a->category),
		    xstrdup(a->key), xstrdup(a->value), xstrdup(a->source),
		    xstrdup(a->status), xstrdup(a->created_at),
		    xstrdup(a->updated_at), a->confidence };
	}
	out->n_state = f->n_state;
	out->ent = xcalloc(f->n_ent + 1, sizeof(*out->ent));
	for (size_t i = 0; i < f->n_ent; i++) {
		const struct fact_entity *a = &f->ent[i];

		out->ent[i] = (struct fact_entity){ xstrdup(a->id),
		    xstrdup(a->type), xstrdup(a->name), xstrdup(a->project),
		    xstrdup(a->description), xstrdup(a->status),
		    xstrdup(a->created_at), xstrdup(a->updated_at),
		    facts_json_copy(a->properties), facts_json_copy(a->source_refs),
		    a->confidence };
	}
	out->n_ent = f->n_ent;
}

/* The relationships, memories and far ends of f copied into out (whose
 * arrays are empty). Returns nothing; out owns what it holds. */
static void
copy_rel_mem(struct project_facts *out, const struct project_facts *f)
{
	out->rel = xcalloc(f->n_rel + 1, sizeof(*out->rel));
	for (size_t i = 0; i < f->n_rel; i++)
		out->rel[i] = (struct fact_rel){ xstrdup(f->rel[i].id),
		    xstrdup(f->rel[i].source), xstrdup(f->rel[i].target),
		    xstrdup(f->rel[i].type), f->rel[i].confidence };
	out->n_rel = f->n_rel;
	out->mem = xcalloc(f->n_mem + 1, sizeof(*out->mem));
	for (size_t i = 0; i < f->n_mem; i++) {
		const struct fact_memory *a = &f->mem[i];

		out->mem[i] = (struct fact_memory){ xstrdup(a->id),
		    xstrdup(a->type), xstrdup(a->content), xstrdup(a->project),
		    xstrdup(a->status), xstrdup(a->created_at),
		    xstrdup(a->updated_at), xstrdup(a->valid_until),
		    xstrdup(a->graduated_to), facts_json_copy(a->domain_tags),
		    a->reference_count, a->confidence, a->expired };
	}
	out->n_mem = f->n_mem;
	out->far = xcalloc(f->n_far + 1, sizeof(*out->far));
	for (size_t i = 0; i < f->n_far; i++)
		out->far[i] = (struct fact_far){ xstrdup(f->far[i].id),
		    xstrdup(f->far[i].project), xstrdup(f->far[i].name),
		    xstrdup(f->far[i].status) };
	out->n_far = f->n_far;
}

struct facts_kept *
facts_kept_copy(const struct facts_kept *k, const char *const *ids,
    size_t n)
{
	struct facts_kept *c = xcalloc(1, sizeof(*c));
	unsigned char *take = xcalloc(k->n + 1, 1);

	/* Marked by kept_find's lookup, copied in k's order: the copy stays
	 * by id whatever the order of ids. */
	for (size_t j = 0; j < n; j++) {
		const struct kept_project *from = kept_find(k, ids[j]);

		if (from != NULL)
			take[from - k->p] = 1;
	}
	c->p = xcalloc(n + 1, sizeof(*c->p));
	for (size_t i = 0; i < k->n; i++) {
		struct kept_project *to;

		if (!take[i])
			continue;
		to = &c->p[c->n++];
		to->id = xstrdup(k->p[i].id);
		copy_state_ent(&to->f, &k->p[i].f);
		copy_rel_mem(&to->f, &k->p[i].f);
	}
	free(take);
	return c;
}

/* The name of entity id if it is an active one of f (its rows or the
 * far ends of its edges), else NULL. */
static const char *
kept_active_name(const struct project_facts *f, const char *id)
{
	for (size_t i = 0; i < f->n_ent; i++)
		if (strcmp(f->ent[i].id, id) == 0)
			return f->ent[i].status != NULL &&
			    strcmp(f->ent[i].status, "active") == 0 ?
			    f->ent[i].name : NULL;
	for (size_t i = 0; i < f->n_far; i++)
		if (strcmp(f->far[i].id, id) == 0)
			return f->far[i].status != NULL &&
			    strcmp(f->far[i].status, "active") == 0 ?
			    f->far[i].name : NULL;
	return NULL;
}

/* The parents of entity id, one of f's: see facts_kept_parents. */
static char *
kept_parents_of(const struct project_facts *f, const char *id)
{
	const char **v = NULL;
	size_t n = 0, cap = 0;
	strbuf sb;

	for (size_t i = 0; i < f->n_rel; i++) {
		const char *name;

		if (strcmp(f->rel[i].type, "part_of") != 0 ||
		    strcmp(f->rel[i].source, id) != 0 ||
		    (name = kept_active_name(f, f->rel[i].target)) == NULL)
			continue;
		ARRAY_PUSH(v, n, cap) = name;
	}
	if (n == 0)
		return NULL;
	qsort(v, n, sizeof(*v), array_str_cmp);
	strbuf_init(&sb);
	for (size_t i = 0; i < n; i++)
		strbuf_printf(&sb, "%s%s", i > 0 ? ", " : "", v[i]);
	free(v);
	return strbuf_detach(&sb);
}

int
facts_kept_parents(char **out, const struct facts_kept *k, const char *id)
{
	*out = NULL;
	for (size_t i = 0; k != NULL && i < k->n; i++) {
		const struct project_facts *f = &k->p[i].f;

		for (size_t j = 0; j < f->n_ent; j++)
			if (strcmp(f->ent[j].id, id) == 0) {
				*out = kept_parents_of(f, id);
				return 1;
			}
	}
	return 0;
}

void
facts_kept_free(struct facts_kept *k)
{
	if (k == NULL)
		return;
	for (size_t i = 0; i < k->n; i++) {
		free(k->p[i].id);
		facts_free(&k->p[i].f);
	}
	free(k->p);
	free(k);
}

void
facts_free(struct project_facts *f)
{
	for (size_t i = 0; i < f->n_state; i++) {
		struct fact_state *s = &f->state[i];

		free(s->id); free(s->project); free(s->category);
		free(s->key); free(s->value); free(s->source);
		free(s->status); free(s->created_at); free(s->updated_at);
	}
	for (size_t i = 0; i < f->n_ent; i++) {
		struct fact_entity *e = &f->ent[i];

		free(e->id); free(e->type); free(e->name); free(e->project);
		free(e->description); free(e->status); free(e->created_at);
		free(e->updated_at);
		json_decref(e->properties);
		json_decref(e->source_refs);
	}
	for (size_t i = 0; i < f->n_rel; i++) {
		free(f->rel[i].id); free(f->rel[i].source);
		free(f->rel[i].target); free(f->rel[i].type);
	}
	for (size_t i = 0; i < f->n_mem; i++) {
		struct fact_memory *m = &f->mem[i];

		free(m->id); free(m->type); free(m->content); free(m->project);
		free(m->status); free(m->created_at); free(m->updated_at);
		free(m->valid_until); free(m->graduated_to);
		json_decref(m->domain_tags);
	}
	free(f->state);
	free(f->ent);
	free(f->rel);
	free(f->mem);
	farends_free(f->far, f->n_far);
	memset(f, 0, sizeof(*f));
}

/* ---- snapshot checksum and projects' digests --------------------------- */

/* What owns a row of each table (digest_query's owners). */
static const char *const owner_kinds[T_N] = { "p", "p", "ee", "p" };

/* The columns the A-Z index shows (digest_query's names): a state row's
 * id, project, category, key, value and status; an entity's id, type,
 * name, project, description, properties (its value) and status
 * (state_cols, entity_cols); a project's id, name and aliases. */
static const unsigned names_cols[T_N] = { [T_STATE] = 0x9f,
    [T_ENT] = 0x7f };
#define PROJECT_NAMES_COLS 0x7u


/* Each rule's label in its latest run (STORE_LATEST_RULE_RUNS), read
 * once and joined to a query's rows as "lr". */
#define WITH_LATEST_LABEL "WITH lr(rule_id, label) AS MATERIALIZED (" \
	"SELECT rule_id, label FROM main.rule_runs WHERE rowid IN (" \
	STORE_LATEST_RULE_RUNS ")) "
#define JOIN_LATEST_LABEL(rule) " LEFT JOIN lr ON lr.rule_id = " rule " "

/* What an extra digest query needs of the store. */
enum { NEED_MIRROR, NEED_AUDIT, NEED_RULES };

/* The conflict tables, the audit and the rule tables, with their owners
 * (digest.h); those the sweep writes are swept (digest_query's), so
 * that facts_digest_swept folds them again alone: a conflict's rows
 * (its own and its members') are one group of kind 'c', a violation's
 * one of 'v', read alone by the query with its where added; the rules'
 * latest runs one group ('r', folded whole). */
static const struct {
	const char *sql;
	int nhash, nsalt;
	const char *owners;
	int needs;              /* NEED_* */
	int swept;
	char group_kind;
	int group_slot;
	const char *where;      /* of one group's rows, by id (?1) */
	int rowid_list;         /* digest_query's */
} extra_digests[] = {
	/* A conflict's row is listed (with its rowid, for a scoped sweep:
	 * core/sweep/scope.c) under its project, or apart when its slot
	 * key names another (owner 'l'). */
	{ .sql =
	  "SELECT c.id, c.detected_at, c.slot_kind, c.slot_key, c.project, "
	  "c.status, c.resolved_at, c.resolution, c.resolved_by, c.project, "
	  "CASE WHEN json_valid(c.slot_key) THEN "
	  "json_extract(c.slot_key, '$[0]') END, c.rowid "
	  "FROM main.conflicts c",
	  .nhash = 9, .nsalt = 0, .owners = "pl", .needs = NEED_MIRROR,
	  .swept = 1, .group_kind = 'c', .group_slot = 0,
	  .where = " WHERE c.id = ?1",
	  .rowid_list = 1 + DIGEST_ROWS_CONFLICTS },
	/* A member belongs to its conflict's project and to its fact's,
	 * which differ once an alias moved the fact; an entity member also
	 * to the projects that show it as a far end (its marker there),
	 * salted with its conflict's status, which opens and closes it.
	 * An entity's project is the one its row registered (owner 'e'),
	 * not looked up again. */
	{ .sql = "SELECT cm.conflict_id, cm.member_kind, cm.member_id, "
	  "cm.member_layer_trust, cm.value_snapshot, cm.conflicts_with, "
	  "c.status, " CANON("c") ", "
	  "CASE WHEN cm.member_kind <> 'entity' THEN "
	  KIND_PROJECT("cm.member_kind", "cm.member_id") " END, "
	  "CASE cm.member_kind WHEN 'entity' THEN cm.member_id END, "
	  "CASE cm.member_kind WHEN 'entity' THEN cm.member_id END, "
	  "cm.rowid FROM main.conflict_members cm LEFT JOIN main.conflicts c "
	  "ON c.id = cm.conflict_id" JOIN_ALIAS("c"),
	  .nhash = 6, .nsalt = 1, .owners = "ccex", .needs = NEED_MIRROR,
	  .swept = 1, .group_kind = 'c', .group_slot = 1,
	  .where = " WHERE cm.conflict_id = ?1",
	  .rowid_list = 1 + DIGEST_ROWS_MEMBERS },
	/* Pages and messages name who last changed a fact. */
	{ .sql =
	  "SELECT au.id, au.memory_id, au.entity_kind, au.action, au.actor, "
	  "au.note, au.timestamp, " KIND_PROJECT("au.entity_kind",
	  "au.memory_id") " FROM main.memory_audit au",
	  .nhash = 7, .nsalt = 0, .owners = "c", .needs = NEED_AUDIT },
	/* A violation belongs to its project; the overview lists it (its
	 * Gaps) under its rule's label. */
	{ .sql =
	  WITH_LATEST_LABEL "SELECT v.id, v.rule_id, v.severity, v.project, "
	  "v.facts, v.message, v.status, v.detected_at, v.closed_at, "
	  "lr.label, v.project FROM main.rule_violations v"
	  JOIN_LATEST_LABEL("v.rule_id"),
	  .nhash = 10, .nsalt = 0, .owners = "p", .needs = NEED_RULES,
	  .swept = 1, .group_kind = 'v', .group_slot = 0,
	  .where = " WHERE v.id = ?1" },
	/* A violation's fact carries the marker, with the rule's label and
	 * while the violation is open, on the page of the fact's project (a
	 * relationship's: both ends'; an entity's: the one its row
	 * registered); the violation's project lists it. */
	{ .sql =
	  WITH_LATEST_LABEL "SELECT vf.violation_id, vf.layer, vf.fact_id, "
	  "v.status, lr.label, v.project, CASE WHEN vf.layer <> 'entity' "
	  "THEN " KIND_PROJECT("vf.layer", "vf.fact_id") " END, "
	  "CASE vf.layer WHEN 'entity' THEN vf.fact_id END, "
	  "(SELECT r.source_entity_id FROM main.relationships r WHERE "
	  "vf.layer = 'relationship' AND r.id = vf.fact_id), "
	  "(SELECT r.target_entity_id FROM main.relationships r WHERE "
	  "vf.layer = 'relationship' AND r.id = vf.fact_id) "
	  "FROM main.violation_facts vf LEFT JOIN main.rule_violations v "
	  "ON v.id = vf.violation_id" JOIN_LATEST_LABEL("v.rule_id"),
	  .nhash = 5, .nsalt = 0, .owners = "pceee", .needs = NEED_RULES,
	  .swept = 1, .group_kind = 'v', .group_slot = 1,
	  .where = " WHERE vf.violation_id = ?1" },
	/* Each rule's latest run as the pages explain it (not its run id,
	 * hits or time, which every sweep writes anew), and whether the latest
 * sweep ran it: of no project. */
	{ .sql =
	  "SELECT r.rule_id, r.origin, r.severity, r.label, r.description, "
	  "r.query, r.status, r.error, r.sweep_run = (SELECT l.sweep_run "
	  "FROM main.rule_runs l ORDER BY l.rowid DESC LIMIT 1), NULL "
	  "FROM main.rule_runs r WHERE r.rowid IN (" STORE_LATEST_RULE_RUNS
	  ")",
	  .nhash = 9, .nsalt = 0, .owners = "c", .needs = NEED_RULES,
	  .swept = 1, .group_kind = 'r' },
};

/* Where fact tables fold: into d's projects, read from st as of ts,
 * each query's SQL written into sql, an error into err. */
struct table_fold {
	struct store_digest *d;
	mirror_store *st;
	const char *ts;
	strbuf *sql;
	mirror_error *err;
};

/* Fold table t's digest query as f says, its sum into *sum. Returns 0
 * or < 0 with f->err set. */
static int
fold_table(struct digest_sum *sum, const struct table_fold *f, int t)
{
	struct digest_query q;

	_Static_assert(T_N <= DIGEST_ROW_LISTS, "a row list per table");
	_Static_assert(1 + T_N <= DIGEST_TABLES, "a sum per table");
	table_sql(f->sql, &tables[t], f->st, tables[t].digest_sql, 0);
	q = (struct digest_query){
		.sql = f->sql->data,
		.table = 1 + t,
		.nhash = (int)tables[t].ncols + (tables[t].more != NULL),
		.nsalt = tables[t].nsalt,
		.count = tables[t].count,
		.owners = owner_kinds[t],
		.entities = t == T_ENT,
		.param = f->ts,
		.edges = t == T_REL,
		.names = names_cols[t],
		.rowid_list = 1 + t,
		.tally = 0,
		.expiry = t == T_MEM,
	};
	/* The layers' rows by status, for api/health.json (health.c). */
	for (size_t c = 0; t != T_REL && c < tables[t].ncols; c++)
		if (strcmp(tables[t].cols[c].name, "status") == 0)
			q.tally = 1 + (int)c;
	return digest_fold_part(sum, f->d, f->st, &q, f->err);
}

int
facts_digest_column(const char *table, const char *column)
{
	static const char *const project_cols[] = { "id", "name", "aliases",
	    "description" };

	/* "": SQLite's name when a statement reads no column of the table
	 * (count(*)): its rows, which the sum counts. */
	if (strcasecmp(table, "projects") == 0) {
		if (column[0] == '\0')
			return 0;
		for (size_t i = 0; i < NELEM(project_cols); i++)
			if (strcasecmp(column, project_cols[i]) == 0)
				return 0;
		return -1;
	}
	for (int t = 0; t < T_N; t++) {
		if (strcasecmp(table, tables[t].name) != 0)
			continue;
		if (column[0] == '\0')
			return 1 + t;
		for (size_t i = 0; i < tables[t].ncols; i++)
			if (strcasecmp(column, tables[t].cols[i].name) == 0)
				return 1 + t;
		return tables[t].more != NULL && strcasecmp(column,
		    tables[t].more->name) == 0 ? 1 + t : -1;
	}
	return -1;
}

static int clock_memories(struct facts_clock *out, mirror_store *st,
    time_t now, mirror_error *err);

/* Which extra digests a fold takes (fold_extras): every one, the swept
 * alone, or by what their owners look up: no entity (EXTRAS_PLAIN),
 * entities that a fold of the entities registered ('e', maybe in
 * another digest: digest.h's lender), or far ends ('x'), which only the
 * digest whose edges were folded knows. */
enum extras_part {
	EXTRAS_ALL, EXTRAS_SWEPT, EXTRAS_PLAIN, EXTRAS_ENTITY, EXTRAS_FAR
};

static int fold_extras(struct digest_sum *extra, int *folded,
    const struct table_fold *f, enum extras_part part);

/* The tables a second and a third connection fold at once (digest_store):
 * the entities and the tables whose owners are entities (edges, the
 * extra digests) on one, since they look those up in its digest. */
static const int entity_tables[] = { T_ENT, T_REL };

#ifdef MIRROR_TEST_HOOKS
int facts_test_fail_entities;
#endif

/* Whether the entities' fold beside the caller has registered them
 * (digest_store): 0 not yet, 1 done, -1 it failed or never ran. */
struct maps_latch {
	pthread_mutex_t mu;
	pthread_cond_t set;
	int state;
};

/* Say state into l, once; wake its waiter. */
static void
maps_done(struct maps_latch *l, int state)
{
	pthread_mutex_lock(&l->mu);
	if (l->state == 0)
		l->state = state;
	pthread_cond_broadcast(&l->set);
	pthread_mutex_unlock(&l->mu);
}

/* Wait for l's state: 1 (the entities are registered) or -1. */
static int
maps_wait(struct maps_latch *l)
{
	int state;

	pthread_mutex_lock(&l->mu);
	while (l->state == 0)
		pthread_cond_wait(&l->set, &l->mu);
	state = l->state;
	pthread_mutex_unlock(&l->mu);
	return state;
}

/* A second connection's share of a digest (digest_store). */
struct parallel_fold {
	const char *ts;
	time_t now;                     /* of ts, for the clock */
	const int *tables;              /* the tables folded here */
	size_t ntables;
	int entities;                   /* 1: entity_tables and extras */
	struct facts_clock clock;       /* the memories' clock at now, */
	int clocked;                    /* when 1 (with parallel_tables) */
	void (*then)(void *);           /* when done (digest_store) */
	void *arg;
	struct store_digest d;          /* its projects, for digest_merge */
	struct digest_sum sum[T_N];
	struct digest_sum extra[NELEM(extra_digests)];
	int folded[NELEM(extra_digests)];
	struct store_parallel *bs;      /* its connection; NULL: none */
	/* With entities: the caller folds the extra digests that name no
	 * far end (fold_lent), this one those that do, once maps says
	 * the entities and edges are folded. */
	struct maps_latch maps;
	int taken;                      /* parallel_finish took its folds */
	const struct part_ctx *kept;    /* the folds kept between runs, or
	                                   NULL: none (fold_kept) */
};

/* The entities' count into d's room for them: one pass over the
 * smallest index. Returns 0 or < 0 with err set. */
static int
expect_entities(struct store_digest *d, mirror_store *st, mirror_error *err)
{
	long long n = 0;
	int rc;

	if ((rc = store_count(&n, st, "SELECT count(*) FROM main.entities",
	    NULL, err)) == 0)
		digest_expect_entities(d, (size_t)n);
	return rc;
}

static int clock_memories(struct facts_clock *out, mirror_store *st,
    time_t now, mirror_error *err);

/* What a kept fold's key starts with: bumped when what a fold keeps
 * changes meaning (digest.c's hashes, a query's counts, the bytes of
 * digest_part_save), so a fold kept by another mirror is never read. */
#define PART_FORMAT "mirror-fold/1"

/* The folds of the fact tables kept between runs (partcache.h), for
 * one pass (digest_store): set when the store's versions can be
 * trusted (store.h, "The fact tables' versions"). */
struct part_ctx {
	const char *path;               /* the store's */
	int take;                       /* 0: keep folds, take none */
	struct store_versions vers;
	time_t now;
};

/* Each fact table's version (store.h's VERSION_*). */
static const int version_of[T_N] = { [T_STATE] = VERSION_STATE,
    [T_ENT] = VERSION_ENTITIES, [T_REL] = VERSION_RELATIONSHIPS,
    [T_MEM] = VERSION_MEMORIES };

/* The key of the fold of tabs[0..n) of st, with d's aliases, into key
 * (sql: room for a query): what the fold read, as c's versions say it,
 * and how. */
static void
part_key(strbuf *key, const struct part_ctx *c, const struct table_fold *f,
    const int *tabs, size_t n)
{
	strbuf_reset(key);
	strbuf_printf(key, "%s schema %lld aliases %016llx",
	    PART_FORMAT, c->vers.schema,
	    (unsigned long long)digest_aliases_hash(f->d));
	for (size_t i = 0; i < n; i++) {
		int t = tabs[i], v = version_of[t];

		table_sql(f->sql, &tables[t], f->st, tables[t].digest_sql, 0);
		strbuf_printf(key, " | %s %lld %lld %016llx", tables[t].name,
		    c->vers.v[v], c->vers.max_rowid[v],
		    (unsigned long long)hash_words(MIRROR_HASH_INIT,
		    f->sql->data, f->sql->len));
	}
}

/* The words a kept fold holds before its part: each table's sum, then
 * the memories' clock (flag, expired, after, until). */
#define PART_HEAD_WORDS(n) (2 * (n) + 4)

/*
 * Add the fold of tabs[0..n) kept under key to d, its tables' sums
 * into b->sum and, with the memories, their clock into b (when it
 * holds at b->kept->now: else the fold is not taken). Returns 1 when
 * it was taken, 0 when not (d unchanged).
 */
static int
part_take(struct store_digest *d, struct parallel_fold *b, const char *key,
    const int *tabs, size_t n)
{
	const struct part_ctx *c = b->kept;
	uint64_t w[PART_HEAD_WORDS(T_N)];
	size_t at, head = PART_HEAD_WORDS(n) * sizeof(uint64_t);
	struct facts_clock clock;
	strbuf entry;
	int took = 0;

	if (!c->take)
		return 0;
	strbuf_init(&entry);
	if (partcache_get(&entry, &at, c->path, tables[tabs[0]].name,
	    key) < 0 || entry.len - at < head)
		goto out;
	memcpy(w, entry.data + at, head);
	clock.expired = (long long)w[2 * n + 1];
	clock.after = (long long)w[2 * n + 2];
	clock.until = (long long)w[2 * n + 3];
	if (w[2 * n] != 0 && !facts_clock_holds(&clock, c->now))
		goto out;
	if (digest_part_load(d, entry.data + at + head,
	    entry.len - at - head) < 0)
		goto out;
	for (size_t i = 0; i < n; i++)
		b->sum[tabs[i]] = (struct digest_sum){ w[2 * i], w[2 * i + 1] };
	if (w[2 * n] != 0) {
		b->clock.expired = clock.expired;
		b->clock.after = clock.after;
		b->clock.until = clock.until;
		b->clocked = 1;
	}
	took = 1;
	work_add(&work_tables_kept, n);
out:
	strbuf_free(&entry);
	return took;
}

/* Keep the fold of tabs[0..n) in d (b->sum's, and b's clock when
 * clocked) under key. Returns nothing (best effort). */
static void
part_keep(const struct store_digest *d, const struct parallel_fold *b,
    const char *key, const int *tabs, size_t n, int clocked)
{
	uint64_t w[PART_HEAD_WORDS(T_N)];
	strbuf data;

	for (size_t i = 0; i < n; i++) {
		w[2 * i] = b->sum[tabs[i]].sum;
		w[2 * i + 1] = b->sum[tabs[i]].rows;
	}
	w[2 * n] = (uint64_t)clocked;
	w[2 * n + 1] = (uint64_t)b->clock.expired;
	w[2 * n + 2] = (uint64_t)b->clock.after;
	w[2 * n + 3] = (uint64_t)b->clock.until;
	strbuf_init(&data);
	strbuf_add(&data, w, PART_HEAD_WORDS(n) * sizeof(uint64_t));
	digest_part_save(&data, d);
	partcache_put(b->kept->path, tables[tabs[0]].name, key, data.data,
	    data.len);
	strbuf_free(&data);
}

/*
 * Fold table t of b (not the entities') as f says, its sum into b->sum:
 * the fold kept when it holds, else a fold now, kept for the next run
 * (b->kept NULL: only the fold). The memories' clock is read with
 * their fold, and kept with it. Returns 0 or < 0 with f->err set.
 */
static int
fold_kept(struct parallel_fold *b, const struct table_fold *f, int t)
{
	struct store_digest part;
	struct table_fold g = *f;
	mirror_error ignored;
	strbuf key;
	int rc = 0;

	if (b->kept == NULL)
		return fold_table(&b->sum[t], f, t);
	strbuf_init(&key);
	part_key(&key, b->kept, f, &t, 1);
	/* Taken straight into the digest (its row ids skipped when it
	 * lists none), as fold_entities takes its own. */
	if (part_take(f->d, b, key.data, &t, 1)) {
		strbuf_free(&key);
		return 0;
	}
	/* Folded apart, so that what is kept is this table's alone, with
	 * its row ids, whoever asked for it: a digest that lists them
	 * takes it, and one that does not skips them. */
	digest_init(&part);
	part.keep_rowids = 1;
	part.keep_refold = f->d->keep_refold;
	digest_aliases_borrow(&part, f->d);
	g.d = &part;
	rc = fold_table(&b->sum[t], &g, t);
	if (rc == 0 && t == T_MEM)
		b->clocked = clock_memories(&b->clock, f->st, b->now,
		    &ignored) == 0;
	if (rc == 0 && (t != T_MEM || b->clocked))
		part_keep(&part, b, key.data, &t, 1, t == T_MEM);
	if (!f->d->keep_rowids)
		digest_unlist(&part);
	digest_merge(f->d, &part);
	digest_free(&part);
	strbuf_free(&key);
	return rc;
}

/* The entities and their edges (entity_tables) into b->d as f says:
 * the fold kept when it holds, else a fold now, kept for the next run.
 * Returns 0 or < 0 with f->err set. */
static int
fold_entities(struct parallel_fold *b, const struct table_fold *f)
{
	strbuf key;
	int rc, listed;

	strbuf_init(&key);
	if (b->kept != NULL) {
		part_key(&key, b->kept, f, entity_tables,
		    NELEM(entity_tables));
		if (part_take(f->d, b, key.data, entity_tables,
		    NELEM(entity_tables))) {
			strbuf_free(&key);
			return 0;
		}
	}
	/* Kept with their row ids (fold_kept), listed for this fold. */
	listed = f->d->keep_rowids;
	f->d->keep_rowids |= b->kept != NULL;
	rc = expect_entities(f->d, f->st, f->err);
	for (size_t i = 0; rc == 0 && i < NELEM(entity_tables); i++)
		rc = fold_table(&b->sum[entity_tables[i]], f,
		    entity_tables[i]);
	if (rc == 0 && b->kept != NULL)
		part_keep(f->d, b, key.data, entity_tables,
		    NELEM(entity_tables), 0);
	if (!listed && f->d->keep_rowids)
		digest_unlist(f->d);
	strbuf_free(&key);
	return rc;
}

/* Fold b's tables of st into b->d (a store_parallel_fn), with the
 * entities the extra digests, else the memories' clock. Returns 0 or
 * < 0 with err set. */
static int
fold_parallel(void *arg, mirror_store *st, mirror_error *err)
{
	struct parallel_fold *b = arg;
	strbuf sql;
	struct table_fold f = { .d = &b->d, .st = st, .ts = b->ts,
	    .sql = &sql, .err = err };
	int rc;

	strbuf_init(&sql);
	rc = digest_aliases(&b->d, st, err);
	if (rc == 0 && b->entities)
		rc = fold_entities(b, &f);
	for (size_t i = 0; rc == 0 && !b->entities && i < b->ntables; i++)
		rc = fold_kept(b, &f, b->tables[i]);
	if (b->entities)
		maps_done(&b->maps, rc == 0 ? 1 : -1);
	if (rc == 0 && b->entities)
		rc = fold_extras(b->extra, b->folded, &f, EXTRAS_FAR);
#ifdef MIRROR_TEST_HOOKS
	if (rc == 0 && b->entities && __atomic_load_n(
	    &facts_test_fail_entities, __ATOMIC_RELAXED))
		rc = mirror_fail(err, MIRROR_EIO, "test: the entities fail");
#endif
	strbuf_free(&sql);
	/* The clock here, where the core is this connection's: the build
	 * would read it on the main thread after the sweep (a pass over
	 * the memories). One that cannot be read is left to that read. */
	if (rc == 0 && !b->entities && !b->clocked) {
		mirror_error ignored;

		b->clocked = clock_memories(&b->clock, st, b->now,
		    &ignored) == 0;
	}
	if (b->then != NULL)
		b->then(b->arg);
	return rc;
}

/* fold_parallel will not run on its thread (store_parallel_start_or):
 * whoever waits on its entities hears so. */
static void
fold_unrun(void *arg)
{
	struct parallel_fold *b = arg;

	if (b->entities)
		maps_done(&b->maps, -1);
}

/*
 * Wait for the parallel fold b (b->bs NULL: none was started) and take
 * its tables into f->d and sum, its extra digests into extra and folded.
 * When it did not run or failed and f->st is not NULL, fold them as f
 * says instead (which tells what is wrong). Returns 0 or < 0 with
 * f->err set.
 */
static int
parallel_finish(struct parallel_fold *b, struct digest_sum sum[T_N],
    struct digest_sum *extra, int *folded, const struct table_fold *f)
{
	struct store_digest *d = f->d;
	mirror_error ignored;
	int rc = 0;

	if (b->bs == NULL)
		return 0;
	if (store_parallel_join(b->bs, &rc, &ignored) && rc == 0) {
		b->taken = 1;
		digest_merge(d, &b->d);
		for (size_t i = 0; i < b->ntables; i++)
			sum[b->tables[i]] = b->sum[b->tables[i]];
		d->parallel += (int)b->ntables;
		if (b->entities) {
			memcpy(extra, b->extra, sizeof(b->extra));
			memcpy(folded, b->folded, sizeof(b->folded));
			return 0;
		}
		d->clock_expired = b->clock.expired;
		d->clock_after = b->clock.after;
		d->clock_until = b->clock.until;
		d->clocked = b->clocked;
		return 0;
	}
	rc = 0;
	if (f->st != NULL && b->entities)
		rc = expect_entities(d, f->st, f->err);
	for (size_t i = 0; f->st != NULL && rc == 0 && i < b->ntables; i++)
		rc = fold_table(&sum[b->tables[i]], f, b->tables[i]);
	if (f->st != NULL && rc == 0 && b->entities)
		rc = fold_extras(extra, folded, f, EXTRAS_ALL);
	return rc;
}

/* 1 when a store of features ft has the tables of extra digest i. */
static int
extra_has(const struct store_features *ft, size_t i)
{
	int needs = extra_digests[i].needs;

	return needs == NEED_AUDIT ? ft->has_audit : needs == NEED_RULES ?
	    ft->has_rule_tables : ft->has_mirror_tables;
}

/* Fold extra digest i as f says, its sum into *sum: every row, or with
 * id those of group id alone. Returns 0 or < 0 with f->err set. */
static int
fold_extra(struct digest_sum *sum, const struct table_fold *f, size_t i,
    const char *id)
{
	struct digest_query q = {
		.sql = extra_digests[i].sql,
		.table = 1 + T_N + (int)i,
		.nhash = extra_digests[i].nhash,
		.nsalt = extra_digests[i].nsalt,
		.count = -1,
		.owners = extra_digests[i].owners,
		.swept = extra_digests[i].swept,
		.group_kind = extra_digests[i].group_kind,
		.group = extra_digests[i].where != NULL,
		.group_slot = extra_digests[i].group_slot,
		.param = id,
		.rowid_list = extra_digests[i].rowid_list,
	};

	if (id != NULL) {
		strbuf_reset(f->sql);
		strbuf_puts(f->sql, extra_digests[i].sql);
		strbuf_puts(f->sql, extra_digests[i].where);
		q.sql = f->sql->data;
	}
	return digest_fold_part(sum, f->d, f->st, &q, f->err);
}

/* Fold the extra digests whose tables f->st has (with swept, the swept
 * ones alone) into f->d and extra[i], setting folded[i] for each.
 * Returns 0 or < 0 with f->err set. */
static int
fold_extras(struct digest_sum *extra, int *folded, const struct table_fold *f,
    enum extras_part part)
{
	const struct store_features *ft = store_features(f->st);
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < NELEM(extra_digests); i++) {
		const char *owners = extra_digests[i].owners;
		enum extras_part its = strchr(owners, 'x') != NULL ?
		    EXTRAS_FAR : strchr(owners, 'e') != NULL ?
		    EXTRAS_ENTITY : EXTRAS_PLAIN;

		if ((part == EXTRAS_SWEPT && !extra_digests[i].swept) ||
		    (part >= EXTRAS_PLAIN && its != part) ||
		    !extra_has(ft, i))
			continue;
		rc = fold_extra(&extra[i], f, i, NULL);
		folded[i] = 1;
	}
	return rc;
}

/* How digest_store digests: listing row ids and keeping what a refold
 * needs when rowids (facts_digest_plan's); then(arg), when then is not
 * NULL, as facts_digest_plan's then says. */
struct digest_how {
	int rowids;
	void (*then)(void *);
	void *arg;
	const struct part_ctx *kept;    /* NULL: no fold kept or taken */
};

/*
 * Start digest_store's second and third connections on f's store
 * (side[k].bs NULL: not started) on side[k], as of f->ts (now): the second
 * first, so the entity table's room is made while it folds (its zeroed
 * pages kept the other waiting); the third takes the entities, their edges and the extra
 * digests, so the caller folds the projects alone and waits.
 */
static void
sides_start(struct parallel_fold side[2], const struct table_fold *f,
    time_t now, const struct digest_how *how)
{
	mirror_store *st = f->st;

	memset(side, 0, 2 * sizeof(*side));
	for (int k = 0; k < 2; k++) {
		side[k].ts = f->ts;
		side[k].now = now;
		side[k].entities = k == 1;
		side[k].tables = k == 1 ? entity_tables : parallel_tables;
		side[k].ntables = k == 1 ? NELEM(entity_tables) :
		    NELEM(parallel_tables);
		digest_init(&side[k].d);
		side[k].d.keep_rowids = how->rowids;
		side[k].d.keep_refold = how->rowids;
		side[k].kept = how->kept;
	}
	pthread_mutex_init(&side[1].maps.mu, NULL);
	pthread_cond_init(&side[1].maps.set, NULL);
	side[0].then = how->then;
	side[0].arg = how->arg;
	side[0].bs = store_parallel_start(st, fold_parallel, &side[0]);
	side[1].bs = side[0].bs != NULL ? store_parallel_start_or(st,
	    fold_parallel, fold_unrun, &side[1]) : NULL;
}

/* The extra digests the caller folds while a third connection folds the
 * entities (digest_store), apart, into d: its own unless that one fails
 * (parallel_finish then folds every extra digest in its place). */
struct lent_fold {
	struct store_digest d;
	struct digest_sum extra[NELEM(extra_digests)];
	int folded[NELEM(extra_digests)];
};

/*
 * Into l, as caller says but for its digest (the aliases borrowed from
 * caller's, not read again): the extra digests whose
 * owners name no entity at once, and those that name entities ('e')
 * once side, the entities' fold, has registered them, looked up in its
 * digest (the lender; digest.h). The far ends' ('x') are side's. So
 * the caller's core folds what the entities' would fold after them, on
 * two cores the longest share. Nothing of side's when it failed or never
 * ran. Returns 0 or < 0 with caller->err set.
 */
static int
fold_lent(struct lent_fold *l, const struct table_fold *caller,
    struct parallel_fold *side)
{
	struct table_fold f = *caller;
	int rc;

	f.d = &l->d;
	digest_aliases_borrow(&l->d, caller->d);
	rc = fold_extras(l->extra, l->folded, &f, EXTRAS_PLAIN);
	if (rc == 0 && maps_wait(&side->maps) == 1) {
		l->d.lender = &side->d;
		rc = fold_extras(l->extra, l->folded, &f, EXTRAS_ENTITY);
		l->d.lender = NULL;
	}
	return rc;
}

/* Take l's folds into d and extra, folded, when the entities' fold they
 * went beside was taken (taken), else drop them; free l. */
static void
lent_finish(struct lent_fold *l, struct store_digest *d, int taken,
    struct digest_sum *extra, int *folded)
{
	if (taken) {
		digest_merge(d, &l->d);
		for (size_t i = 0; i < NELEM(extra_digests); i++)
			if (l->folded[i]) {
				extra[i] = l->extra[i];
				folded[i] = 1;
			}
	}
	digest_free(&l->d);
}

/* Chain the extra digests folded (folded[i]) into d->snapshot, in
 * order, as d's refold keeps them (digest.h). Returns nothing. */
static void
extras_seal(struct store_digest *d, const struct digest_sum *extra,
    const int *folded)
{
	_Static_assert(NELEM(extra_digests) <= DIGEST_REFOLD_SUMS,
	    "a refold keeps every extra digest's sum");
	d->refold_snapshot = d->snapshot;
	for (size_t i = 0; i < NELEM(extra_digests); i++) {
		d->refold_sums[i] = extra[i];
		d->refold_folded[i] = folded[i];
		if (folded[i])
			digest_seal(d, &extra[i]);
	}
}

/*
 * facts_digest, as how says. The queries fold in order, the fact tables
 * of parallel_tables on a second connection at the same time when it can
 * (store_parallel_start), and the snapshot chains their sums in order: the
 * digest is the same either way. Returns as facts_digest.
 */
static int
digest_store(struct store_digest *out, mirror_store *st, time_t now,
    const struct digest_how *how, mirror_error *err)
{
	static const struct digest_query q = {
		.sql = "SELECT id, name, aliases, description, id FROM "
		    "main.projects",
		.table = 0,
		.nhash = 4,
		.nsalt = 0,
		.count = -1,
		.owners = "c",
		.names = PROJECT_NAMES_COLS,
	};
	int rowids = how->rowids;
	struct digest_sum projects = { 0, 0 }, sum[T_N];
	struct digest_sum extra[NELEM(extra_digests)];
	int folded[NELEM(extra_digests)] = { 0 };
	struct parallel_fold side[2];
	struct lent_fold lent;
	char ts[MIRROR_TS_LEN];
	strbuf sql;
	struct table_fold f = { .d = out, .st = st, .ts = ts, .sql = &sql,
	    .err = err };
	int rc;

	mirror_format_ts(ts, now);
	memset(sum, 0, sizeof(sum));
	digest_init(out);
	out->keep_rowids = rowids;
	out->keep_refold = rowids;
	sides_start(side, &f, now, how);
	memset(&lent, 0, sizeof(lent));
	digest_init(&lent.d);
	lent.d.keep_rowids = rowids;
	lent.d.keep_refold = rowids;
	strbuf_init(&sql);
	rc = digest_aliases(out, st, err);
	if (rc == 0 && side[1].bs == NULL)
		rc = expect_entities(out, st, err);
	if (rc == 0)
		rc = digest_fold_part(&projects, out, st, &q, err);
	/* The layers and relationships: every column the pages read. */
	for (int t = 0; rc == 0 && t < T_N; t++)
		if ((side[0].bs == NULL || !is_parallel(t)) &&
		    (side[1].bs == NULL || (t != T_ENT && t != T_REL)))
			rc = fold_table(&sum[t], &f, t);
	if (rc == 0 && side[1].bs == NULL)
		rc = fold_extras(extra, folded, &f, EXTRAS_ALL);
	else if (rc == 0)
		rc = fold_lent(&lent, &f, &side[1]);
	for (int k = 0; k < 2; k++) {
		struct table_fold fb = f;
		int brc;

		fb.st = rc == 0 ? st : NULL;
		brc = parallel_finish(&side[k], sum, extra, folded, &fb);
		rc = rc < 0 ? rc : brc;
		digest_free(&side[k].d);
	}
	/* After the entities' digest, as when it folded them itself. */
	lent_finish(&lent, out, rc == 0 && side[1].taken, extra, folded);
	pthread_mutex_destroy(&side[1].maps.mu);
	pthread_cond_destroy(&side[1].maps.set);
	strbuf_free(&sql);
	digest_seal(out, &projects);
	for (int t = 0; t < T_N; t++)
		digest_seal(out, &sum[t]);
	digest_table_sum(out, 0, &projects);
	for (int t = 0; t < T_N; t++)
		digest_table_sum(out, 1 + t, &sum[t]);
	out->tables_set = rc == 0;
	out->tallied = rc == 0;
	out->now = now;
	extras_seal(out, extra, folded);
	digest_finish(out);
	return rc;
}

int
facts_digest(struct store_digest *out, mirror_store *st,
    const struct facts_digest_plan *p, mirror_error *err)
{
	char *real = realpath(store_path(st), NULL);
	struct part_ctx kept = { .path = real != NULL ? real :
	    store_path(st), .take = !p->whole, .now = p->now };
	int rc;

	/* The folds kept between runs, when the versions say which tables
	 * no one wrote since (store.h, "The fact tables' versions"). */
	store_versions_read(&kept.vers, st);
	rc = digest_store(out, st, p->now, &(struct digest_how){
	    .rowids = p->rowids, .then = p->rowids ? p->then : NULL,
	    .arg = p->arg, .kept = kept.vers.ok ? &kept : NULL }, err);
	free(real);
	return rc;
}

/* The most groups a refold folds one by one: past it, a statement a
 * group costs more than the swept tables whole. */
#define SWEPT_GROUPS_MAX 256

/* Take group id of extra digest i's kind out of f->d, fold its rows now
 * (each swept query of that kind), and move sums (extra_digests' order)
 * from what it added to what it adds now. Returns 0 or < 0 with f->err
 * set. */
static int
refold_group(struct digest_sum *sums, const struct table_fold *f, char kind,
    const char *id)
{
	struct digest_sum old[DIGEST_GROUP_SLOTS], now;
	int rc = 0;

	digest_group_out(f->d, kind, id, strlen(id), old);
	for (size_t i = 0; rc == 0 && i < NELEM(extra_digests); i++) {
		const struct digest_sum *was;

		if (!extra_digests[i].swept || extra_digests[i].group_kind !=
		    kind)
			continue;
		rc = fold_extra(&now, f, i, extra_digests[i].where != NULL ?
		    id : NULL);
		was = &old[extra_digests[i].group_slot];
		sums[i].sum += now.sum - was->sum;
		sums[i].rows += now.rows - was->rows;
	}
	return rc;
}

/*
 * Fold again the groups undo's changes touched into f->d, their sums into
 * sums: first the rules' latest runs (their labels are in every
 * violation's rows). Returns 0; 1 when that cannot be done by group (the
 * changes cannot be told, too many, the runs' labels changed, the store
 * has a swept table it had not): fold every swept query whole then; or
 * < 0 with f->err set.
 */
static int
refold_groups(struct digest_sum *sums, const struct table_fold *f,
    const struct store_undo *undo)
{
	const struct store_features *ft = store_features(f->st);
	struct store_undo_ids ids[2] = { { 0 }, { 0 } };
	struct digest_sum runs = { 0, 0 };
	int rc = 0;

	for (size_t i = 0; i < NELEM(extra_digests); i++) {
		if (extra_digests[i].group_kind == 'r')
			runs = sums[i];
		if (extra_digests[i].swept && extra_has(ft, i) !=
		    f->d->refold_folded[i])
			rc = 1;
	}
	if (rc == 0 && (store_undo_ids(&ids[0], undo, "conflicts",
	    "conflict_members", SWEPT_GROUPS_MAX) < 0 || store_undo_ids(
	    &ids[1], undo, "rule_violations", "violation_facts",
	    SWEPT_GROUPS_MAX) < 0))
		rc = 1;
	if (rc == 0 && (rc = refold_group(sums, f, 'r', "")) == 0)
		for (size_t i = 0; i < NELEM(extra_digests); i++)
			if (extra_digests[i].group_kind == 'r' &&
			    (sums[i].sum != runs.sum ||
			    sums[i].rows != runs.rows))
				rc = 1;
	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; rc == 0 && i < ids[k].n; i++)
			rc = refold_group(sums, f, k == 0 ? 'c' : 'v',
			    ids[k].v[i]);
		store_undo_ids_free(&ids[k]);
	}
	return rc;
}

int
facts_digest_swept(struct store_digest *d, mirror_store *st,
    const struct store_undo *undo, mirror_error *err)
{
	struct digest_sum extra[NELEM(extra_digests)];
	int folded[NELEM(extra_digests)] = { 0 };
	strbuf sql;
	struct table_fold f = { .d = d, .st = st, .sql = &sql, .err = err };
	int rc;

	if (digest_refold_begin(d, 0) != 0)
		return 1;
	memcpy(extra, d->refold_sums, sizeof(extra));
	memcpy(folded, d->refold_folded, sizeof(folded));
	strbuf_init(&sql);
	rc = refold_groups(extra, &f, undo);
	if (rc > 0) {
		(void)digest_refold_begin(d, 1);
		memset(folded, 0, sizeof(folded));
		rc = fold_extras(extra, folded, &f, EXTRAS_SWEPT);
		/* The others' sums are the ones the digest kept. */
		for (size_t i = 0; i < NELEM(extra_digests); i++)
			if (!extra_digests[i].swept) {
				extra[i] = d->refold_sums[i];
				folded[i] = d->refold_folded[i];
			}
	}
	strbuf_free(&sql);
	d->snapshot = d->refold_snapshot;
	extras_seal(d, extra, folded);
	digest_refold_end(d);
	return rc;
}

int
facts_findings_sum(uint64_t *out, const struct store_digest *d)
{
	uint64_t h = hash_add_str(0, "findings");

	if (!d->tables_set)
		return -1;
	for (size_t i = 0; i < NELEM(extra_digests); i++) {
		if (extra_digests[i].group_kind != 'c' &&
		    extra_digests[i].group_kind != 'v')
			continue;
		if (!d->refold_folded[i])
			return -1;
		h = hash_step(hash_step(h, d->refold_sums[i].sum),
		    d->refold_sums[i].rows);
	}
	*out = hash_step(h, d->tables[0]);
	return 0;
}

int
facts_checksum(uint64_t *out, mirror_store *st, mirror_error *err)
{
	struct store_digest d;
	int rc;

	rc = facts_digest(&d, st, &(const struct facts_digest_plan){ 0 }, err);
	*out = d.snapshot;
	digest_free(&d);
	return rc;
}

/* The memories' part of facts_clock_read into *out (any_conflicts
 * left alone). Returns 0 or < 0 with err set. */
static int
clock_memories(struct facts_clock *out, mirror_store *st, time_t now,
    mirror_error *err)
{
	/* One pass: the count, and the nearest expiry on either side. */
	static const char sql[] = "SELECT count(*) FILTER (WHERE t < ?1), "
	    "max(t) FILTER (WHERE t < ?1), min(t) FILTER (WHERE t >= ?1) "
	    "FROM (SELECT mirror_ts(valid_until) AS t FROM main.memories)";
	sqlite3_stmt *stmt = NULL;
	int rc = 0;

	out->expired = 0;
	out->after = LLONG_MIN;
	out->until = LLONG_MAX;
	if (!store_features(st)->mem_valid_until ||
	    (rc = prepare(&stmt, st, sql, "cannot count expired memories",
	    err)) < 0)
		return rc;
	sqlite3_bind_int64(stmt, 1, (sqlite3_int64)now);
	rc = store_step(st, stmt);
	if (rc == SQLITE_ROW) {
		out->expired = sqlite3_column_int64(stmt, 0);
		if (sqlite3_column_type(stmt, 1) != SQLITE_NULL)
			out->after = sqlite3_column_int64(stmt, 1);
		if (sqlite3_column_type(stmt, 2) != SQLITE_NULL)
			out->until = sqlite3_column_int64(stmt, 2);
		rc = 0;
	} else
		rc = store_fail(st, err, rc, "cannot count expired memories");
	sqlite3_finalize(stmt);
	return rc;
}

/* out->any_conflicts as st's read sees it. Returns 0 or < 0 with err
 * set. */
static int
clock_conflicts(struct facts_clock *out, mirror_store *st,
    mirror_error *err)
{
	long long any = 0;
	int rc = 0;

	if (store_features(st)->has_mirror_tables)
		rc = store_count(&any, st, "SELECT EXISTS (SELECT 1 FROM "
		    "main.conflicts)", NULL, err);
	out->any_conflicts = any != 0;
	return rc;
}

int
facts_clock_read(struct facts_clock *out, mirror_store *st, time_t now,
    mirror_error *err)
{
	int rc;

	memset(out, 0, sizeof(*out));
	rc = clock_memories(out, st, now, err);
	return rc < 0 ? rc : clock_conflicts(out, st, err);
}

int
facts_clock_of(struct facts_clock *out, const struct store_digest *d,
    mirror_store *st, mirror_error *err)
{
	int rc;

	if (!d->clocked)
		return 0;
	memset(out, 0, sizeof(*out));
	out->expired = d->clock_expired;
	out->after = d->clock_after;
	out->until = d->clock_until;
	rc = clock_conflicts(out, st, err);
	return rc < 0 ? rc : 1;
}

int
facts_clock_holds(const struct facts_clock *c, time_t t)
{
	return c->after < (long long)t && (long long)t <= c->until;
}

/* ---- names: every state key and entity name, for the A-Z index -------- */

/* The reader of the names query. */
struct names_reader {
	struct store_row r;
	struct store_key key;
	int scan;               /* 1: of some projects, by a scan */
};

/* The names query's rows, of every project (ids NULL) or of the
 * canonical projects of the JSON array ids, in facts_names_open's
 * order. */
#define NAMES_SQL(where) "SELECT * FROM (SELECT s.key AS n, " \
	CANON("s") " AS p, 3 AS l, s.id AS i, s.category, s.status, " \
	"s.value, NULL, '' FROM main.project_state s" JOIN_ALIAS("s") \
	where("s") "UNION ALL SELECT e.name, " CANON("e") ", 2, e.id, " \
	"e.entity_type, e.status, NULL, e.properties, e.description FROM " \
	"main.entities e" JOIN_ALIAS("e") where("e") ") ORDER BY " \
	"mirror_key(n, ?1), p COLLATE mirror_natural, l, i"
#define NAMES_ALL(t) ""
#define NAMES_OF(t) "WHERE " CANON(t) " IN (SELECT value FROM " \
	"json_each(?2)) "
/* ?3 a facts_kept_names text: its rows of t (its alias, "s" or "e"),
 * each found by its id, kept when of a project of ?2. */
#define NAMES_BY_ID(t) "WHERE " t ".id IN (SELECT value FROM " \
	"json_each(?3, '$." t "')) AND " CANON(t) " IN (SELECT value FROM " \
	"json_each(?2)) "

/* facts_names_open of sql on nr (its store, key and err set; freed on
 * failure), with ids (NULL: none) bound as ?2 and rows (NULL: none) as
 * ?3. Returns 0 with *out nr, or < 0 with *out NULL and the error set. */
static int
names_open(struct names_reader **out, struct names_reader *nr,
    const char *sql, const char *ids, const char *rows)
{
	mirror_store *st = nr->r.st;
	mirror_error *err = nr->r.err;
	int rc;

	*out = NULL;
	rc = prepare(&nr->r.stmt, st, sql, "cannot list keys and names", err);
	if (rc == 0 && (rc = sqlite3_bind_pointer(nr->r.stmt, 1, &nr->key,
	    STORE_KEY_TYPE, NULL)) == SQLITE_OK && ids != NULL)
		rc = sqlite3_bind_text(nr->r.stmt, 2, ids, -1,
		    SQLITE_TRANSIENT);
	if (rc == SQLITE_OK && rows != NULL)
		rc = sqlite3_bind_text(nr->r.stmt, 3, rows, -1,
		    SQLITE_STATIC);
	if (rc > 0)
		rc = store_fail(st, err, rc, "cannot list keys and names");
	if (rc < 0) {
		facts_names_close(nr);
		return rc;
	}
	*out = nr;
	return 0;
}

/* A names reader of st by key, reporting into err, not yet prepared. */
static struct names_reader *
names_new(mirror_store *st, const struct store_key *key, mirror_error *err)
{
	struct names_reader *nr = xcalloc(1, sizeof(*nr));

	nr->r = (struct store_row){ .st = st, .table = "project_state",
	    .err = err };
	nr->key = *key;
	return nr;
}

int
facts_names_open(struct names_reader **out, mirror_store *st,
    const struct store_key *key, const struct names_plan *p,
    mirror_error *err)
{
	struct names_reader *nr;
	json_t *a;
	char *text;
	int rc;

	if (p->ids == NULL)
		return names_open(out, names_new(st, key, err),
		    NAMES_SQL(NAMES_ALL), NULL, NULL);
	a = json_array();
	for (size_t i = 0; i < p->n; i++)
		json_array_append_new(a, json_string(p->ids[i]));
	text = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	if (text == NULL)
		return mirror_fail(err, MIRROR_EIO, "store %s: out of memory "
		    "listing keys and names", store_path(st));
	nr = names_new(st, key, err);
	nr->scan = p->rows == NULL;
	rc = p->rows != NULL ? names_open(out, nr, NAMES_SQL(NAMES_BY_ID),
	    text, p->rows) : names_open(out, nr, NAMES_SQL(NAMES_OF), text,
	    NULL);
	free(text);
	return rc;
}

char *
facts_kept_names(const struct facts_kept *k, const char *const *ids,
    size_t n)
{
	json_t *s, *e, *o;
	char *text;
	int bad = 0;

	if (k == NULL || !facts_kept_covers(k, ids, n))
		return NULL;
	s = json_array();
	e = json_array();
	/* An id jansson refuses (never one the check kept) leaves no text:
	 * a row left out would be a row missing from the A-Z. */
	for (size_t i = 0; i < n && !bad; i++) {
		const struct kept_project *kp = kept_find(k, ids[i]);
		const struct project_facts *f;

		if (kp == NULL) {       /* facts_kept_covers said it is */
			bad = 1;
			break;
		}
		f = &kp->f;
		for (size_t j = 0; j < f->n_state; j++)
			bad |= json_array_append_new(s,
			    json_string(f->state[j].id));
		for (size_t j = 0; j < f->n_ent; j++)
			bad |= json_array_append_new(e,
			    json_string(f->ent[j].id));
	}
	o = json_pack("{s:o, s:o}", "s", s, "e", e);
	text = o != NULL && !bad ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return text;
}

/* Column i of r's row, checked as storerow_text checks it, into *out
 * (sqlite's text: valid until the next step). Returns 0 or < 0. */
static int
name_col(const char **out, struct store_row *r, int i, const char *col)
{
	const unsigned char *s = sqlite3_column_text(r->stmt, i);
	const char *bad;

	*out = (const char *)s;
	if (s == NULL)
		return sqlite3_column_type(r->stmt, i) == SQLITE_NULL ?
		    storerow_fail(r, col, "is NULL") : mirror_fail(r->err,
		    MIRROR_EIO, "store %s: out of memory reading %s",
		    store_path(r->st), r->table);
	bad = storerow_text_problem(s,
	    (size_t)sqlite3_column_bytes(r->stmt, i));
	return bad != NULL ? storerow_fail(r, col, bad) : 0;
}

int
facts_names_next(struct names_reader *nr, struct fact_name *v,
    mirror_error *err)
{
	struct store_row *r = &nr->r;
	int rc, state;

	r->err = err;
	rc = store_step(r->st, r->stmt);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? 0 : store_fail(r->st, err, rc,
		    "cannot list keys and names");
	/* Its layer (column 2) tells the table and column errors name. */
	state = sqlite3_column_int(r->stmt, 2) == LAYER_STATE;
	r->table = layer_table(state ? LAYER_STATE : LAYER_ENTITY);
	r->id = NULL;
	v->layer = state ? "state" : "entity";
	if ((rc = name_col(&v->id, r, 3, "id")) < 0)
		return rc;
	r->id = v->id;
	if ((rc = name_col(&v->name, r, 0, state ? "key" : "name")) < 0 ||
	    (rc = name_col(&v->project, r, 1, "project")) < 0 ||
	    (rc = name_col(&v->kind, r, 4, state ? "category" :
	    "entity_type")) < 0 ||
	    (rc = name_col(&v->status, r, 5, "status")) < 0 ||
	    (state && (rc = name_col(&v->value, r, 6, "value")) < 0) ||
	    (!state && (rc = name_col(&v->properties, r, 7,
	    "properties")) < 0) ||
	    (!state && (rc = name_col(&v->description, r, 8,
	    "description")) < 0))
		return rc;
	if (state) {
		v->properties = NULL;
		v->description = "";
	} else
		v->value = NULL;
	return 1;
}

int
facts_names_count(mirror_store *st, void (*each)(void *arg,
    const char *name, long long rows), void *arg, mirror_error *err)
{
	/* No alias join: it changes only the project, and project_alias
	 * has one row a name (its key), so it neither adds nor drops a
	 * row. CAST as sqlite3_column_text reads a non-text value. */
	static const char sql[] = "SELECT CAST(n AS TEXT) AS t, count(*) "
	    "FROM (SELECT key AS n FROM main.project_state UNION ALL "
	    "SELECT name FROM main.entities) WHERE n IS NOT NULL GROUP BY t";
	sqlite3_stmt *s = NULL;
	int rc;

	rc = prepare(&s, st, sql, "cannot count keys and names", err);
	while (rc == 0 && (rc = store_step(st, s)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);

		if (t == NULL) {
			rc = SQLITE_NOMEM;
			break;
		}
		each(arg, t, sqlite3_column_int64(s, 1));
		rc = 0;
	}
	if (rc == SQLITE_DONE)
		rc = 0;
	else if (rc > 0)
		rc = store_fail(st, err, rc, "cannot count keys and names");
	sqlite3_finalize(s);
	return rc;
}

void
facts_names_close(struct names_reader *nr)
{
	if (nr == NULL)
		return;
	if (nr->scan)
		work_add(&work_scope_scans, (unsigned long long)
		    sqlite3_stmt_status(nr->r.stmt,
		    SQLITE_STMTSTATUS_FULLSCAN_STEP, 0));
	sqlite3_finalize(nr->r.stmt);
	free(nr);
}
