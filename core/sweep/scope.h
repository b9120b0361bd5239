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
 * plus sweep_cproj, the projects of each open conflict.
 */
#ifndef MIRROR_SWEEP_SCOPE_H
#define MIRROR_SWEEP_SCOPE_H

#include <stddef.h>

#include <sqlite3.h>

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
	"DROP TABLE IF EXISTS temp.sweep_touched;"

/*
 * Build the scope's TEMP tables for the caller's projects[0..n) (none
 * NULL; a struct sweep_scope's) on db (the sweep's connection, inside
 * its transaction, with TEMP project_alias and the sweep's sweep_seen
 * present), and mark every open conflict outside the scope as seen in
 * sweep_seen, so that the sweep neither closes it nor counts it gone.
 * Returns SQLITE_OK or the SQLite error code (the caller turns it into
 * its error).
 */
int scope_build(sqlite3 *db, const char *const *projects, size_t n);

/*
 * Count into *out the active rows of the three layers of the whole
 * store: what a full sweep reports as facts_scanned. Returns SQLITE_OK
 * or the SQLite error code.
 */
int scope_count_facts(sqlite3 *db, long long *out);

#endif
