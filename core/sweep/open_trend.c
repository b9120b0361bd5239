/*
 * open_trend.c: the open-conflict count over time (see open_trend.h).
 */
#include <stdlib.h>
#include <string.h>

#include "sweep/open_trend.h"
#include "util/array.h"
#include "util/xalloc.h"

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

/* qsort's order of two seqs. */
static int
cmp_seq(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* The seq of the opened-th conflict of all (by seq) detected at
 * started_at, else the greatest of those; 0 when none is. */
static long long
first_last(const struct conflict_list *all, const char *started_at,
    long long opened)
{
	long long *seq = xcalloc(all->n + 1, sizeof(*seq)), last = 0;
	size_t n = 0;

	for (size_t i = 0; i < all->n; i++)
		if (all->items[i].detected_at != NULL &&
		    strcmp(all->items[i].detected_at, started_at) == 0)
			seq[n++] = all->items[i].seq;
	qsort(seq, n, sizeof(*seq), cmp_seq);
	if (opened > 0 && n > 0)
		last = seq[(size_t)opened < n ? (size_t)opened - 1 : n - 1];
	free(seq);
	return last;
}

int
sweep_first_run(struct sweep_first *out, mirror_store *st,
    const struct conflict_list *all, mirror_error *err)
{
	static const char what[] = "cannot read sweep_runs";
	sqlite3_stmt *stmt = NULL;
	int rc;

	*out = (struct sweep_first){ NULL, NULL, 0, 0 };
	if (!store_features(st)->has_mirror_tables)
		return 0;
	rc = sqlite3_prepare_v2(store_db(st), "SELECT id, started_at, "
	    "facts_scanned, conflicts_opened FROM main.sweep_runs "
	    "ORDER BY rowid LIMIT 1", -1, &stmt, NULL);
	if (rc != SQLITE_OK) {
		rc = store_fail(st, err, rc, what);
		sqlite3_finalize(stmt);
		return rc;
	}
	rc = store_step(st, stmt);
	if (rc == SQLITE_ROW && sqlite3_column_text(stmt, 0) != NULL &&
	    sqlite3_column_text(stmt, 1) != NULL) {
		out->id = xstrdup((const char *)sqlite3_column_text(stmt, 0));
		out->started_at = xstrdup((const char *)sqlite3_column_text(
		    stmt, 1));
		out->facts_scanned = sqlite3_column_int64(stmt, 2);
		out->conflicts_last = first_last(all, out->started_at,
		    sqlite3_column_int64(stmt, 3));
	}
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 :
	    store_fail(st, err, rc, what);
	sqlite3_finalize(stmt);
	return rc;
}

void
sweep_first_free(struct sweep_first *f)
{
	free(f->id);
	free(f->started_at);
	*f = (struct sweep_first){ NULL, NULL, 0, 0 };
}
