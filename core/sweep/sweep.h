/*
 * sweep.h: the cross-layer sweep (SPEC section 3).
 *
 * One call reads every taking-part row of the three layers, computes its
 * slot with the rules of slot.c, finds the slots whose rows disagree,
 * and records the result in the store's conflict tables, all in one
 * write transaction (BEGIN IMMEDIATE, retried whole on SQLITE_BUSY).
 * Rows are streamed once and kept as 40-byte hashed records grouped in
 * a hash table, so the work is O(n) plus a sort of the disagreeing few,
 * and no row text is held beyond the slot being looked at.
 */
#ifndef MIRROR_SWEEP_H
#define MIRROR_SWEEP_H

#include <time.h>

#include "store/store.h"
#include "sys/clock.h"

/* Version of the rules, written into every sweep_runs row. */
#define SWEEP_RULES_VERSION "mirror-sweep/1"

/* The sweep_runs row of one sweep. */
struct sweep_run {
	char id[64];                        /* "sweep-YYYYMMDDTHHMMSS-N" */
	char started_at[MIRROR_TS_LEN];
	char finished_at[MIRROR_TS_LEN];
	long long duration_ms;
	const char *rules_version;          /* SWEEP_RULES_VERSION */
	long long facts_scanned;            /* active rows read */
	long long conflicts_opened;
	long long members_added;            /* to conflicts already open */
	long long conflicts_closed;         /* by the sweep: disagreement gone */
	long long open_after;               /* open conflicts after the run */
	int attempts;                       /* 1, or more after SQLITE_BUSY */
};

/*
 * Run one sweep on st (opened STORE_WRITE) with now as the run's clock
 * (it decides expiry and every timestamp written). Fills *out. Returns 0,
 * or < 0 with err set and the store unchanged: -MIRROR_EINPUT for a bad
 * row (named in err), -MIRROR_EIO when the store stays locked.
 */
int sweep_run(struct sweep_run *out, mirror_store *st, time_t now,
    mirror_error *err);

#endif
