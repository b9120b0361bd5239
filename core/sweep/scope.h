/*
 * scope.h: which projects a scoped sweep reads (core-internal; the face
 * is sweep_run_scoped in sweep.h).
 *
 * The scope lives in TEMP tables of the sweep's connection, built
 * inside the sweep's write transaction and dropped with its own:
 *   sweep_scope(project)  the canonical projects swept: the caller's,
 *                         widened (see scope.c for the rules and why);
 *   sweep_names(name)     every stored project name whose canonical
 *                         project is in sweep_scope, for the scans;
 *   sweep_touched(id)     the open conflicts the sweep may change;
 * plus sweep_cproj, the projects of each open conflict (through a
 * digest's row ids: the ones it records, and its members' for each
 * touching one), and with row ids sweep_rows (the scope's rows),
 * sweep_listed, sweep_expanded and sweep_dangling (scope.c).
 */
#ifndef MIRROR_SWEEP_SCOPE_H
#define MIRROR_SWEEP_SCOPE_H

#include <stddef.h>

#include <sqlite3.h>

#include "store/digest.h"

/*
 * " AND <the row of stored project col is in the scope>", appended to a
 * scan's WHERE: a name of sweep_names, or NULL when '' is swept.
 */
#define SCOPE_HAS(col) " AND (" col " IN (SELECT name FROM " \
	"temp.sweep_names) OR (" col " IS NULL AND EXISTS (SELECT 1 FROM " \
	"temp.sweep_scope WHERE project = '')))"

/* Drops every TEMP table of the scope (none of them may exist). */
#define SCOPE_DROP \
	"DROP TABLE IF EXISTS temp.sweep_scope;" \
	"DROP TABLE IF EXISTS temp.sweep_names;" \
	"DROP TABLE IF EXISTS temp.sweep_cproj;" \
	"DROP TABLE IF EXISTS temp.sweep_touched;" \
	"DROP TABLE IF EXISTS temp.sweep_rows;" \
	"DROP TABLE IF EXISTS temp.sweep_listed;" \
	"DROP TABLE IF EXISTS temp.sweep_expanded;" \
	"DROP TABLE IF EXISTS temp.sweep_dangling;" \
	"DROP TABLE IF EXISTS temp.sweep_unlisted;"

/*
 * Build the scope's TEMP tables for the caller's projects[0..n) (none
 * NULL; a struct sweep_scope's) on db (the sweep's connection, inside
 * its transaction, with TEMP project_alias present). The sweep may
 * change only the open conflicts of sweep_touched: it takes every other
 * one as found again (neither closes it nor counts it gone), without
 * listing it in its sweep_seen.
 *
 * rows, when not NULL, is a facts_digest (with rowids) of the store as it is
 * (the caller checked): the scope is then found through its row ids,
 * and *by_rows set to 1 when TEMP sweep_rows(t, rid) holds the row ids
 * of every project of the scope (t: enum facts_rows), for SCOPE_ROWS;
 * else (rows NULL, or '' in the scope) *by_rows is 0 and the scope is
 * found by its rows' project columns. The scope is the same either way.
 * Returns SQLITE_OK or the SQLite error code (the caller turns it into
 * its error).
 */
int scope_build(sqlite3 *db, const char *const *projects, size_t n,
    const struct store_digest *rows, int *by_rows);

/* The rows (name, canonical) of TEMP project_alias whose canonical is a
 * project of the scope, looked up by name: each such row names its
 * project itself or one of its projects row's aliases (store.c builds
 * the table so), which are the candidates. */
#define SCOPE_ALIAS_ROWS "SELECT a.name, a.canonical FROM " \
	"temp.project_alias a WHERE a.name IN (SELECT project FROM " \
	"temp.sweep_scope UNION SELECT j.value FROM main.projects p, " \
	"json_each(CASE WHEN json_valid(p.aliases) THEN p.aliases " \
	"ELSE '[]' END) j WHERE p.id IN (SELECT project FROM " \
	"temp.sweep_scope)) AND a.canonical IN (SELECT project FROM " \
	"temp.sweep_scope)"

/* The rowids of the conflicts whose slot may be one of the scope's rows
 * when scope_build set *by_rows: those the digest listed under a
 * project of the scope, and those it listed under none. */
#define SCOPE_CONFLICT_ROWIDS "SELECT rid FROM temp.sweep_rows WHERE " \
	"t = 4 UNION SELECT rid FROM temp.sweep_unlisted"

/* " AND <the row's rowid (col) is one of table t's in sweep_rows>",
 * after SCOPE_HAS when scope_build set *by_rows. */
#define SCOPE_ROWS(col, t) " AND " col " IN (SELECT rid FROM " \
	"temp.sweep_rows WHERE t = " #t ")"

/*
 * Count into *out the active rows of the three layers of the whole
 * store: what a full sweep reports as facts_scanned. Returns SQLITE_OK
 * or the SQLite error code.
 */
int scope_count_facts(sqlite3 *db, long long *out);

#endif
