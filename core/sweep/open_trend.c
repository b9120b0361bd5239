/*
 * open_trend.c: the open-conflict count over time (see open_trend.h).
 */
#include <stdlib.h>

#include "sweep/open_trend.h"
#include "util/array.h"

/* Seconds to whole days since 1970, rounding down before 1970 too. */
static long long
day_of(long long t)
{
	return t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
}

/* Put (day, open) onto out: the day's last run replaces an earlier one
 * of the same day; a count equal to the day before's is dropped. */
static void
add_run(struct sweep_point **out, size_t *n, size_t *cap, long long day,
    long long open)
{
	if (*n > 0 && (*out)[*n - 1].day == day) {
		(*n)--;
		if (*n > 0 && (*out)[*n - 1].open == open)
			return;
	} else if (*n > 0 && (*out)[*n - 1].open == open) {
		return;
	}
	ARRAY_PUSH(*out, *n, *cap) = (struct sweep_point){ day, open };
}

int
sweep_open_trend(struct sweep_point **out, size_t *n, mirror_store *st,
    mirror_error *err)
{
	static const char what[] = "cannot read sweep_runs";
	sqlite3_stmt *stmt = NULL;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!store_features(st)->has_mirror_tables)
		return 0;
	rc = sqlite3_prepare_v2(store_db(st), "SELECT mirror_ts(started_at) "
	    "AS t, open_after FROM main.sweep_runs WHERE t IS NOT NULL "
	    "ORDER BY t, rowid", -1, &stmt, NULL);
	if (rc != SQLITE_OK) {
		rc = store_fail(st, err, rc, what);
		sqlite3_finalize(stmt);
		return rc;
	}
	while ((rc = store_step(st, stmt)) == SQLITE_ROW)
		add_run(out, n, &cap, day_of(sqlite3_column_int64(stmt, 0)),
		    sqlite3_column_int64(stmt, 1));
	rc = rc == SQLITE_DONE ? 0 : store_fail(st, err, rc, what);
	sqlite3_finalize(stmt);
	return rc;
}
