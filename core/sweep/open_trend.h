/*
 * open_trend.h: the open-conflict count over time, from sweep_runs.
 *
 * Every sweep writes a sweep_runs row with the open conflicts it left
 * (open_after, the whole store's count also for a scoped sweep). The
 * trend keeps what a reader of that count needs: the last run of each
 * UTC day, and of those only the days on which the count changed. So a
 * sweep that finds nothing new adds nothing, and two stores that went
 * through the same changes, one swept more often than the other, have
 * the same trend.
 */
#ifndef MIRROR_SWEEP_OPEN_TREND_H
#define MIRROR_SWEEP_OPEN_TREND_H

#include <stddef.h>

#include "store/store.h"
#include "sweep/conflict.h"

/* One change of the count: from day on (days since 1970, UTC). */
struct sweep_point {
	long long day;
	long long open;
};

/*
 * The trend of st into *out (the caller frees it) and *n, oldest
 * first: runs in the order they ran (started_at as a time, then the
 * order of insertion), the last of each day, the days whose count
 * differs from the day before (the first always). A run whose
 * started_at is not a timestamp is left out; a store without mirror's
 * tables has none. Returns 0, or < 0 with err set.
 */
int sweep_open_trend(struct sweep_point **out, size_t *n, mirror_store *st,
    mirror_error *err);

/* The store's first sweep: the sweep_runs row inserted first. */
struct sweep_first {
	char *id;                 /* NULL when the store has no run */
	char *started_at;         /* as stored: its conflicts' detected_at */
	long long facts_scanned;
	long long conflicts_last; /* the greatest conflict seq (rowid) it
	                             opened; 0: it opened none */
};

/*
 * The first sweep of st (its sweep_runs row of the smallest rowid) into
 * *out, which sweep_first_free releases; out->id NULL when there is
 * none (no run yet, or no mirror tables). The conflicts it opened are
 * those detected at its started_at of seq at most conflicts_last: the
 * first conflicts_opened such rows, so a later sweep within the same
 * second (a pinned clock, a quick script) is not taken for it. all is
 * every conflict of st (conflict_list's, of the same read): the run's
 * row is one indexed row, its conflicts are found in all, not by a
 * pass over the table. Returns 0, or < 0 with err set.
 */
int sweep_first_run(struct sweep_first *out, mirror_store *st,
    const struct conflict_list *all, mirror_error *err);
void sweep_first_free(struct sweep_first *f);

#endif
