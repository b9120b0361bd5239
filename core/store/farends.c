/*
 * farends.c: looking up the far ends of a project's relationships (see
 * farends.h).
 */
#include <stdlib.h>
#include <string.h>

#include "store/farends.h"
#include "store/storerow.h"
#include "util/array.h"

/* One entity by id, its project made canonical as facts.c does. */
static const char far_sql[] = "SELECT e.id, coalesce(a.canonical, "
    "e.project), e.name, e.status FROM main.entities e "
    "LEFT JOIN temp.project_alias a ON a.name = e.project WHERE e.id = ?1 "
    "LIMIT 1";

/* Read the current row of r into a zeroed *f. Returns 0 or < 0 as
 * storerow.h's readers do. */
static int
far_row(struct fact_far *f, struct store_row *r)
{
	int rc;

	if ((rc = storerow_text(&f->id, r, 0, "id", 0)) < 0)
		return rc;
	r->id = f->id;
	if ((rc = storerow_text(&f->project, r, 1, "project", 0)) < 0 ||
	    (rc = storerow_text(&f->name, r, 2, "name", 0)) < 0)
		return rc;
	return storerow_text(&f->status, r, 3, "status", 0);
}

int
farends_read(struct fact_far **out, size_t *n,
    const struct farends_lookup *lk, const char *const *ids, size_t nids,
    mirror_error *err)
{
	mirror_store *st = lk->st;
	sqlite3_stmt **stmt = lk->stmt;
	static const char what[] = "cannot read entities";
	struct store_row r = { .st = st, .table = "entities", .err = err };
	size_t cap = 0;
	int rc = SQLITE_OK;

	*out = NULL;
	*n = 0;
	if (nids > 0 && *stmt == NULL)
		rc = sqlite3_prepare_v2(store_db(st), far_sql, -1, stmt, NULL);
	for (size_t i = 0; rc == SQLITE_OK && i < nids; i++) {
		rc = sqlite3_bind_text(*stmt, 1, ids[i], -1, SQLITE_STATIC);
		if (rc == SQLITE_OK)
			rc = store_step(st, *stmt);
		if (rc == SQLITE_ROW) {
			struct fact_far *f = &ARRAY_PUSH(*out, *n, cap);

			memset(f, 0, sizeof(*f));
			r.stmt = *stmt;
			r.id = NULL;
			if ((rc = far_row(f, &r)) < 0) {
				sqlite3_reset(*stmt);
				return rc;
			}
			rc = SQLITE_DONE;
		}
		if (rc == SQLITE_DONE)
			rc = SQLITE_OK;
		sqlite3_reset(*stmt);
	}
	return rc == SQLITE_OK ? 0 : store_fail(st, err, rc, what);
}

void
farends_free(struct fact_far *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].id);
		free(v[i].project);
		free(v[i].name);
		free(v[i].status);
	}
	free(v);
}
