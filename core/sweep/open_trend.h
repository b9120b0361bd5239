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

#endif
