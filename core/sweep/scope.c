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
 * Only touching conflicts may gain members, be found again or be
 * closed; every other open conflict is marked seen before the scan, as
 * a full sweep would find it again. The scans keep the rows whose stored
 * project is one of sweep_names (an id or an alias of a swept project).
 * An empty scope adds nothing: no row is read, no conflict touched.
 */
#include <stddef.h>

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

/* The projects of the members of kind whose rows are in table. */
#define MEMBER_PROJECT(table, kind) \
	"SELECT m.conflict_id, f.project FROM main.conflict_members m " \
	"JOIN oc ON oc.id = m.conflict_id JOIN main." table " f ON " \
	"m.member_kind = '" kind "' AND f.id = m.member_id"

/* Rule 2's data: every project an open conflict names, raw and
 * canonical. */
static const char scope_cproj[] =
	"INSERT INTO temp.sweep_cproj(id, project) "
	"WITH oc(id, project, slot_key) AS (SELECT id, project, slot_key "
	"FROM main.conflicts WHERE status = 'open' AND id IS NOT NULL), "
	"raw(id, p) AS ("
	"SELECT id, project FROM oc UNION ALL "
	"SELECT id, CASE WHEN json_valid(slot_key) THEN "
	"json_extract(slot_key, '$[0]') END FROM oc UNION ALL "
	MEMBER_PROJECT("project_state", "project_state") " UNION ALL "
	MEMBER_PROJECT("entities", "entity") " UNION ALL "
	MEMBER_PROJECT("memories", "memory") ") "
	"SELECT id, p FROM raw WHERE p IS NOT NULL UNION "
	"SELECT id, " CANON("p") " FROM raw WHERE p IS NOT NULL";

/* Rule 2, one round: conflicts touching the scope, then their projects. */
static const char scope_touch[] =
	"INSERT OR IGNORE INTO temp.sweep_touched SELECT id FROM "
	"temp.sweep_cproj WHERE project IN (SELECT project FROM "
	"temp.sweep_scope)";
static const char scope_widen[] =
	"INSERT OR IGNORE INTO temp.sweep_scope SELECT project FROM "
	"temp.sweep_cproj WHERE id IN (SELECT id FROM temp.sweep_touched)";

/* What the scans read, and what the sweep must leave as it is. */
static const char scope_finish[] =
	"INSERT OR IGNORE INTO temp.sweep_names "
	"SELECT name FROM temp.project_alias WHERE canonical IN "
	"(SELECT project FROM temp.sweep_scope) "
	"UNION SELECT project FROM temp.sweep_scope WHERE project NOT IN "
	"(SELECT name FROM temp.project_alias);"
	"INSERT OR IGNORE INTO temp.sweep_seen SELECT id FROM main.conflicts "
	"WHERE status = 'open' AND id IS NOT NULL AND id NOT IN "
	"(SELECT id FROM temp.sweep_touched);";

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

int
scope_build(sqlite3 *db, const char *const *projects, size_t n)
{
	int rc, more;

	if ((rc = run(db, scope_ddl)) != SQLITE_OK ||
	    (rc = add_given(db, projects, n)) != SQLITE_OK)
		return rc;
	if (n > 0 && ((rc = run(db, scope_edges)) != SQLITE_OK ||
	    (rc = run(db, scope_cproj)) != SQLITE_OK))
		return rc;
	do {
		if ((rc = run(db, scope_touch)) != SQLITE_OK ||
		    (rc = run(db, scope_widen)) != SQLITE_OK)
			return rc;
		more = sqlite3_changes(db) > 0;
	} while (more);
	return run(db, scope_finish);
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
