/*
 * scope.c: the projects a scoped sweep reads, and the open conflicts it
 * may change (doc/sweep.md, "Scoped sweeps").
 *
 * The caller names the projects whose data changed since the last
 * sweep; everything else is taken as a full sweep would leave it. A
 * slot belongs to one canonical project (it is the first part of every
 * slot key), so sweeping all rows of a project finds all of its slots.
 * What crosses projects, and how the scope widens for it:
 *
 *  1. A row whose claim reads a row of another project: a component's
 *     uses_material edge claims the material's name, and a subsystem's
 *     or component's value is the name of its part_of parent. When the
 *     target is in the scope, or no longer exists (its project cannot
 *     be known), the source's project is swept too. Only the caller's
 *     projects are followed: the rows of a project added here are
 *     unchanged, so its dependants are too.
 *  2. An open conflict touches the scope when its recorded project, the
 *     project of its slot key, or the canonical project of any member's
 *     row is in it (each also through the alias map: an alias change
 *     moves rows between projects, and a conflict recorded before keeps
 *     the old name). All the projects of a touching conflict are swept,
 *     which may make more conflicts touch; this is repeated until
 *     nothing is added. (A member whose row was deleted needs no rule:
 *     the deletion changed its project, which is the conflict's, or,
 *     for a material named through an edge, rule 1's.)
 *
 * With the row ids of a digest (scope_build's rows), the same rules
 * are applied without reading every row: a project's rows are its ids
 * in the digest (TEMP sweep_rows), so "a row of the scope" is a lookup
 * by rowid, rule 1 reads only the edges listed under the caller's
 * projects and those whose target the digest did not find (TEMP
 * sweep_dangling), rule 2 takes the conflicts and members the digest
 * lists under the scope's projects (t = 4 and 5; a conflict whose slot
 * key names another project than its own is listed under none, in
 * sweep_unlisted, and looked at always), and only the touching
 * conflicts' own projects and members are looked up for their
 * projects. A scope that holds '' (the rows of no project, which the
 * digest lists under none) is built as above.
 *
 * Only touching conflicts may gain members, be found again or be
 * closed; every other open conflict stands as a full sweep would find
 * it again (the sweep's close_vanished takes it so, without listing it
 * in sweep_seen). The scans keep the rows whose stored
 * project is one of sweep_names (an id or an alias of a swept project).
 * An empty scope adds nothing: no row is read, no conflict touched.
 */
#include <stddef.h>

#include "store/facts.h"
#include "sweep/factrow.h"
#include "sweep/scope.h"

#define CANON(col) FACTROW_CANON(col)

static const char scope_ddl[] =
	SCOPE_DROP
	"CREATE TEMP TABLE sweep_scope (project TEXT PRIMARY KEY) "
	"WITHOUT ROWID;"
	"CREATE TEMP TABLE sweep_names (name TEXT PRIMARY KEY) WITHOUT ROWID;"
	"CREATE TEMP TABLE sweep_cproj (id TEXT, project TEXT);"
	"CREATE TEMP TABLE sweep_touched (id TEXT PRIMARY KEY) WITHOUT ROWID;";

/* A caller's project, as given and as its canonical project. */
static const char scope_add[] =
	"INSERT OR IGNORE INTO temp.sweep_scope SELECT ?1 UNION SELECT "
	CANON("?1");

/* Rule 1: the sources of edges whose claim reads a scope's row. */
static const char scope_edges[] =
	"INSERT OR IGNORE INTO temp.sweep_scope "
	"SELECT DISTINCT " CANON("c.project") " FROM main.relationships r "
	"JOIN main.entities c ON c.id = r.source_entity_id "
	"WHERE r.relationship_type IN ('uses_material', 'part_of') "
	"AND NOT EXISTS (SELECT 1 FROM main.entities t WHERE "
	"t.id = r.target_entity_id AND " CANON("t.project")
	" NOT IN (SELECT project FROM temp.sweep_scope))";

/* A conflict's slot key's project (its first part), or NULL. */
#define SLOT_PROJECT "CASE WHEN json_valid(slot_key) THEN " \
	"json_extract(slot_key, '$[0]') END"

/* The projects of the members of kind whose rows are in table. */
#define MEMBER_PROJECT(table, kind) \
	"SELECT m.conflict_id, f.project FROM main.conflict_members m " \
	"JOIN oc ON oc.id = m.conflict_id JOIN main." table " f ON " \
	"m.member_kind = '" kind "' AND f.id = m.member_id"

/* The open conflicts that meet cond (" AND ..." or "") as oc and, as
 * raw(id, p), the project each records and its slot key's project, then
 * the rows of more (" UNION ALL ..." or ""). */
#define OC_RAW_OF(cond, more) \
	"WITH oc(id, project, slot_key) AS (SELECT id, project, slot_key " \
	"FROM main.conflicts WHERE status = 'open' AND id IS NOT NULL" \
	cond "), raw(id, p) AS (" \
	"SELECT id, project FROM oc UNION ALL " \
	"SELECT id, " SLOT_PROJECT " FROM oc" more ") "

/* raw's projects, as named and canonical: rows of sweep_cproj. */
#define RAW_BOTH \
	"SELECT id, p FROM raw WHERE p IS NOT NULL UNION " \
	"SELECT id, " CANON("p") " FROM raw WHERE p IS NOT NULL"

/* Rule 2's data: every project an open conflict names, raw and
 * canonical. */
static const char scope_cproj[] =
	"INSERT INTO temp.sweep_cproj(id, project) "
	OC_RAW_OF("", " UNION ALL "
	MEMBER_PROJECT("project_state", "project_state") " UNION ALL "
	MEMBER_PROJECT("entities", "entity") " UNION ALL "
	MEMBER_PROJECT("memories", "memory")) RAW_BOTH;

/* Rule 2, one round: conflicts touching the scope, then their projects
 * (the widening last: its changes tell whether to go on). */
#define SCOPE_TOUCH \
	"INSERT OR IGNORE INTO temp.sweep_touched SELECT id FROM " \
	"temp.sweep_cproj WHERE project IN (SELECT project FROM " \
	"temp.sweep_scope);"
#define SCOPE_WIDEN \
	"INSERT OR IGNORE INTO temp.sweep_scope SELECT project FROM " \
	"temp.sweep_cproj WHERE id IN (SELECT id FROM temp.sweep_touched);"

/* What the scans read: every name of the scope's projects. */
static const char scope_finish[] =
	"INSERT OR IGNORE INTO temp.sweep_names "
	"SELECT name FROM (" SCOPE_ALIAS_ROWS ") "
	"UNION SELECT project FROM temp.sweep_scope WHERE project NOT IN "
	"(SELECT name FROM temp.project_alias);";

/* ---- with a digest's row ids ------------------------------------------ */

/* The row ids of the scope's projects (per table: enum facts_rows), and
 * the projects whose ids are in it. */
static const char rows_ddl[] =
	"CREATE TEMP TABLE sweep_rows (t INTEGER, rid INTEGER, "
	"PRIMARY KEY (t, rid)) WITHOUT ROWID;"
	"CREATE TEMP TABLE sweep_listed (project TEXT PRIMARY KEY) "
	"WITHOUT ROWID;"
	"CREATE TEMP TABLE sweep_expanded (id TEXT PRIMARY KEY) "
	"WITHOUT ROWID;"
	"CREATE TEMP TABLE sweep_dangling (rid INTEGER PRIMARY KEY);"
	"CREATE TEMP TABLE sweep_unlisted (rid INTEGER PRIMARY KEY);";

/* The ids of table's rows in the scope (t: its enum facts_rows). */
#define ROWS_OF(table, t) "(SELECT f.id FROM main." table " f WHERE " \
	"f.rowid IN (SELECT rid FROM temp.sweep_rows WHERE t = " #t "))"

/* Rule 1: an edge whose target is a row of the caller's projects (the
 * only ones in sweep_rows yet), or is gone. The digest lists an edge
 * under its target's project (t = 2), and one whose target it does not
 * know in sweep_dangling: the edges to read. */
static const char rows_edges[] =
	"INSERT OR IGNORE INTO temp.sweep_scope "
	"SELECT DISTINCT " CANON("c.project") " FROM main.relationships r "
	"JOIN main.entities c ON c.id = r.source_entity_id "
	"WHERE r.rowid IN (SELECT rid FROM temp.sweep_rows WHERE t = 2 "
	"UNION SELECT rid FROM temp.sweep_dangling) "
	"AND r.relationship_type IN ('uses_material', 'part_of') "
	"AND (r.target_entity_id IN " ROWS_OF("entities", 1) " OR "
	"NOT EXISTS (SELECT 1 FROM main.entities t WHERE "
	"t.id = r.target_entity_id))";

/* Rule 2's data without the members, of the open conflicts the digest
 * lists under no project (sweep_unlisted: their slot key names another
 * than their recorded one): their recorded project and slot key's
 * project, raw and canonical. Every other conflict is listed under its
 * project (the canonical of both, its scope rows' t = 4), which is in
 * the scope when any of the four is: a name enters it with its
 * canonical. */
static const char rows_cproj[] =
	"INSERT INTO temp.sweep_cproj(id, project) "
	OC_RAW_OF(" AND rowid IN (SELECT rid FROM temp.sweep_unlisted)", "")
	RAW_BOTH;

/* Rule 2, one round: conflicts whose own projects are in the scope
 * (listed in its rows, or unlisted and named in sweep_cproj), or with
 * a member that is a row of it (one of the members its rows list, t =
 * 5: a member is listed under its fact's project). */
#define ROWS_TOUCH \
	"INSERT OR IGNORE INTO temp.sweep_touched " \
	"SELECT id FROM temp.sweep_cproj WHERE project IN " \
	"(SELECT project FROM temp.sweep_scope) UNION " \
	"SELECT id FROM main.conflicts WHERE rowid IN (SELECT rid FROM " \
	"temp.sweep_rows WHERE t = 4) AND status = 'open' AND " \
	"id IS NOT NULL UNION " \
	"SELECT m.conflict_id FROM main.conflict_members m " \
	"JOIN main.conflicts c ON c.id = m.conflict_id AND " \
	"c.status = 'open' WHERE m.rowid IN (SELECT rid FROM " \
	"temp.sweep_rows WHERE t = 5) AND (" \
	"(m.member_kind = 'project_state' AND m.member_id IN " \
	ROWS_OF("project_state", 0) ") OR " \
	"(m.member_kind = 'entity' AND m.member_id IN " \
	ROWS_OF("entities", 1) ") OR " \
	"(m.member_kind = 'memory' AND m.member_id IN " \
	ROWS_OF("memories", 3) "));"

/* The projects of the touching conflicts' members and their own (as
 * OC_RAW_OF's), once a conflict. */
#define EXPANDING "SELECT id FROM temp.sweep_touched WHERE id NOT IN " \
	"(SELECT id FROM temp.sweep_expanded)"
#define MEMBER_OF(table, kind) \
	"SELECT m.conflict_id, f.project FROM main.conflict_members m " \
	"JOIN main." table " f ON m.member_kind = '" kind "' AND " \
	"f.id = m.member_id WHERE m.conflict_id IN (" EXPANDING ")"
#define ROWS_EXPAND \
	"INSERT INTO temp.sweep_cproj(id, project) " \
	"WITH raw(id, p) AS (" \
	MEMBER_OF("project_state", "project_state") " UNION ALL " \
	MEMBER_OF("entities", "entity") " UNION ALL " \
	MEMBER_OF("memories", "memory") " UNION ALL " \
	"SELECT id, project FROM main.conflicts WHERE id IN (" EXPANDING \
	") UNION ALL SELECT id, " SLOT_PROJECT " FROM main.conflicts " \
	"WHERE id IN (" EXPANDING ")) " RAW_BOTH ";" \
	"INSERT OR IGNORE INTO temp.sweep_expanded " EXPANDING ";"

/* One way to build the scope: its TEMP tables beyond scope_ddl's, rule
 * 1, rule 2's data, and one round of rule 2 (widening last). */
struct scope_way {
	const char *ddl, *edges, *cproj, *round;
};

static const struct scope_way by_names = { "", scope_edges, scope_cproj,
	SCOPE_TOUCH SCOPE_WIDEN };
static const struct scope_way by_ids = { rows_ddl, rows_edges, rows_cproj,
	ROWS_TOUCH ROWS_EXPAND SCOPE_WIDEN };

/* Run sql (one or more statements). Returns SQLITE_OK or the error. */
static int
run(sqlite3 *db, const char *sql)
{
	return sqlite3_exec(db, sql, NULL, NULL, NULL);
}

/* Put the caller's projects into sweep_scope. Returns SQLITE_OK or the
 * error code. */
static int
add_given(sqlite3 *db, const char *const *projects, size_t n)
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(db, scope_add, -1, &s, NULL);

	for (size_t i = 0; rc == SQLITE_OK && i < n; i++) {
		sqlite3_bind_text(s, 1, projects[i], -1, SQLITE_STATIC);
		rc = sqlite3_step(s);
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return rc;
}

/*
 * Add to sweep_rows the row ids rows lists for each project of
 * sweep_scope not in sweep_listed yet, and list those projects. Sets
 * *blank when one of them is '' (its rows are listed under none).
 * Returns SQLITE_OK or the error code.
 */
static int
add_rows(sqlite3 *db, const struct store_digest *rows, int *blank)
{
	sqlite3_stmt *sel = NULL, *ins = NULL, *listed = NULL;
	int rc;

	_Static_assert(FACTS_ROWS_STATE == 0 && FACTS_ROWS_ENTITIES == 1 &&
	    FACTS_ROWS_RELATIONSHIPS == 2 && FACTS_ROWS_MEMORIES == 3,
	    "ROWS_OF's and rows_edges' table numbers");
	_Static_assert(DIGEST_ROWS_CONFLICTS == 4 && DIGEST_ROWS_MEMBERS == 5,
	    "ROWS_TOUCH's table numbers");

	rc = sqlite3_prepare_v2(db, "SELECT project FROM temp.sweep_scope "
	    "WHERE project NOT IN (SELECT project FROM temp.sweep_listed)",
	    -1, &sel, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO "
		    "temp.sweep_rows(t, rid) VALUES (?1, ?2)", -1, &ins, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, "INSERT INTO temp.sweep_listed "
		    "VALUES (?1)", -1, &listed, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(sel)) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(sel, 0);
		const struct project_digest *d = digest_find(rows,
		    p != NULL ? p : "");
		const struct digest_rowids *r = d != NULL ? d->rowids : NULL;

		rc = SQLITE_OK;
		if (p == NULL || p[0] == '\0')
			*blank = 1;
		for (int t = 0; r != NULL && t < DIGEST_ROW_LISTS; t++)
			for (size_t k = 0; rc == SQLITE_OK && k < r->n[t];
			    k++) {
				sqlite3_bind_int(ins, 1, t);
				sqlite3_bind_int64(ins, 2, r->v[t][k]);
				rc = sqlite3_step(ins);
				rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
				sqlite3_reset(ins);
			}
		if (rc == SQLITE_OK) {
			sqlite3_bind_text(listed, 1, p != NULL ? p : "", -1,
			    SQLITE_TRANSIENT);
			rc = sqlite3_step(listed);
			rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
			sqlite3_reset(listed);
		}
	}
	if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
	sqlite3_finalize(sel);
	sqlite3_finalize(ins);
	sqlite3_finalize(listed);
	return rc;
}

/* Put into TEMP table sql's (an INSERT of one rowid, ?1) the n rowids
 * of v. Returns SQLITE_OK or the error code. */
static int
add_rowids(sqlite3 *db, const char *sql, const long long *v, size_t n)
{
	sqlite3_stmt *ins = NULL;
	int rc = sqlite3_prepare_v2(db, sql, -1, &ins, NULL);

	for (size_t i = 0; rc == SQLITE_OK && i < n; i++) {
		sqlite3_bind_int64(ins, 1, v[i]);
		rc = sqlite3_step(ins);
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
		sqlite3_reset(ins);
	}
	sqlite3_finalize(ins);
	return rc;
}

/* Put into sweep_dangling the edges rows lists as dangling (its
 * dangling), and into sweep_unlisted the conflicts it lists under no
 * project (its unlisted). Returns SQLITE_OK or the error code. */
static int
add_dangling(sqlite3 *db, const struct store_digest *rows)
{
	int rc = add_rowids(db, "INSERT OR IGNORE INTO "
	    "temp.sweep_dangling(rid) VALUES (?1)", rows->dangling,
	    rows->n_dangling);

	return rc != SQLITE_OK ? rc : add_rowids(db, "INSERT OR IGNORE INTO "
	    "temp.sweep_unlisted(rid) VALUES (?1)", rows->unlisted,
	    rows->n_unlisted);
}

/* One scope_build: the sweep's connection, the caller's projects, the
 * digest that lists their row ids (NULL: none, or the way by_names),
 * and whether '' entered the scope while they were listed. */
struct building {
	sqlite3 *db;
	const char *const *projects;
	size_t n;
	const struct store_digest *rows;
	int blank;
};

/*
 * Build the scope way w (scope_build's contract) as b says; with
 * b->rows (way by_ids), list each project's row ids as it enters the
 * scope, and set b->blank and stop when '' does. Returns SQLITE_OK or
 * the error code.
 */
static int
build_way(struct building *b, const struct scope_way *w)
{
	sqlite3 *db = b->db;
	int rc, more;

	if ((rc = run(db, scope_ddl)) != SQLITE_OK ||
	    (rc = run(db, w->ddl)) != SQLITE_OK ||
	    (rc = add_given(db, b->projects, b->n)) != SQLITE_OK)
		return rc;
	if (b->rows != NULL && ((rc = add_rows(db, b->rows, &b->blank)) !=
	    SQLITE_OK || b->blank || (rc = add_dangling(db, b->rows)) !=
	    SQLITE_OK))
		return rc;
	if (b->n > 0 && ((rc = run(db, w->edges)) != SQLITE_OK ||
	    (rc = run(db, w->cproj)) != SQLITE_OK))
		return rc;
	do {
		if (b->rows != NULL && ((rc = add_rows(db, b->rows,
		    &b->blank)) != SQLITE_OK || b->blank))
			return rc;
		if ((rc = run(db, w->round)) != SQLITE_OK)
			return rc;
		more = sqlite3_changes(db) > 0;
	} while (more);
	return run(db, scope_finish);
}

int
scope_build(sqlite3 *db, const char *const *projects, size_t n,
    const struct store_digest *rows, int *by_rows)
{
	struct building b = { db, projects, n, rows, 0 };
	int rc;

	*by_rows = 0;
	if (rows != NULL) {
		rc = build_way(&b, &by_ids);
		if (rc != SQLITE_OK || !b.blank) {
			*by_rows = rc == SQLITE_OK;
			return rc;
		}
	}
	b.rows = NULL;
	return build_way(&b, &by_names);
}

int
scope_count_facts(sqlite3 *db, long long *out)
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(db, "SELECT "
	    "(SELECT count(*) FROM main.project_state WHERE status = 'active') "
	    "+ (SELECT count(*) FROM main.entities WHERE status = 'active') "
	    "+ (SELECT count(*) FROM main.memories WHERE status = 'active')",
	    -1, &s, NULL);

	if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		*out = sqlite3_column_int64(s, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	return rc;
}
