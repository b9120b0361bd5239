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

#include <stddef.h>
#include <time.h>

#include "rules/rules.h"
#include "store/digest.h"
#include "store/store.h"
#include "store/undo.h"
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
	long long violations_opened;        /* rule violations (rules.h) */
	long long violations_closed;
	long long violations_open_after;    /* open violations after the run */
	long long rules_failed;             /* rules that failed this run */
	long long rules_parallel;           /* rules evaluated in parallel
	                                       with the sweep (rules_start);
	                                       never shown: it depends on
	                                       the machine, not the store */
	long long scan_parallel;              /* 1: the entities were scanned
	                                       on a second connection
	                                       (scan_split); never shown,
	                                       as rules_parallel */
	long long rules_kept;               /* rules not evaluated: their
	                                       tables were as they last
	                                       read them (rules_keep) */
	long long rows_written;             /* rows of conflicts,
	                                       conflict_members,
	                                       rule_violations and
	                                       violation_facts inserted or
	                                       changed: 0 when the run left
	                                       them as they were */
	struct rule_keys *keys_later;       /* owned (rules_keys_free): the
	                                       keys to write after the run,
	                                       when its early job was given
	                                       rules_key_later; else NULL */
	int attempts;                       /* 1, or more after SQLITE_BUSY */
	int scope_by_rows;                  /* 1 when a scoped sweep found
	                                       its rows through the caller's
	                                       row ids (sweep_scope's rows);
	                                       never shown */
};

/*
 * The projects a scoped sweep is limited to: projects[0..n), canonical
 * project ids ("" is the group of memories of no project; an alias
 * stands for its project), in any order, repeats allowed. The strings
 * stay the caller's; the sweep copies what it needs. n == 0 is an empty
 * scope (projects may then be NULL): nothing is swept.
 *
 * A scoped sweep reports the active rows of the whole store as
 * facts_scanned, as a full sweep does: three scans, unless the caller
 * counted them (counted 1: active_facts, e.g. a digest's, in a read on
 * the sweep's connection whose PRAGMA data_version was version). The
 * sweep takes that count when the version is still the store's (no
 * other connection committed since), else it counts.
 *
 * rows, when not NULL, is a facts_digest (with rowids) of such a read (store/
 * facts.h: each project's row ids): while the version stands, the
 * scope is widened and its rows are read through those ids, a lookup
 * each, instead of by scans of every table (the store has no index on
 * project). The caller keeps it until the sweep returns. NULL, or a
 * version that moved, reads as before; the result is the same.
 *
 * checked 1: that read (counted, at version) also checked every row of
 * conflicts and conflict_members (conflict_check); while the version
 * stands the sweep does not check them again under its write lock.
 */
struct sweep_scope {
	const char *const *projects;
	size_t n;
	int counted;
	long long active_facts, version;
	const struct store_digest *rows;
	int checked;
};

/*
 * Run one sweep on st (opened STORE_WRITE) with now as the run's clock
 * (it decides expiry and every timestamp written). Fills *out. Returns 0,
 * or < 0 with err set and the store unchanged: -MIRROR_EINPUT for a bad
 * row (named in err), -MIRROR_EIO when the store stays locked.
 * The same as sweep_run_scoped with scope NULL.
 */
int sweep_run(struct sweep_run *out, mirror_store *st, time_t now,
    mirror_error *err);

/*
 * Run one sweep limited to scope (NULL: every project, which is
 * sweep_run). Contract (doc/sweep.md, "Scoped sweeps"): when every
 * project outside the scope is unchanged since the last sweep that
 * recorded its conflicts (its rows in the three layers, the edges with
 * an end in its entities, its conflicts and their members, the audit
 * rows of its facts, its projects row and which of its memories have
 * expired at now), everything it writes to conflicts and
 * conflict_members is what sweep_run would write, and its sweep_runs
 * row carries the numbers sweep_run would report (facts_scanned counts
 * the whole store, open_after every open conflict). It reads the rows
 * of the scope's projects, widened to the projects whose rows read a
 * row of the scope (uses_material and part_of edges), and to the
 * projects of every open conflict touching them (sweep.c, scope.c).
 * An empty scope writes its sweep_runs row and nothing else. Fills
 * *out; returns 0, or < 0 like sweep_run, and -MIRROR_EINPUT for a
 * scope naming a NULL project.
 */
int sweep_run_scoped(struct sweep_run *out, mirror_store *st, time_t now,
    const struct sweep_scope *scope, mirror_error *err);

/* One sweep's work beyond its clock: the projects it reads, the rules
 * it runs and the job the caller started of them, and where the caller
 * keeps what the run changed, to take it back. */
struct sweep_plan {
	const struct sweep_scope *scope; /* NULL: every project */
	const struct rule_set *set;    /* NULL: none */
	struct rules_job *early;       /* NULL: none; see sweep_run_rules */
	struct store_undo *undo;       /* NULL: none; else the committed
	                                  run's changes are added to it
	                                  (store/undo.h) */
};

/*
 * sweep_run_scoped with plan->scope, then, in the same transaction,
 * every rule of plan->set over the WHOLE store whatever the scope
 * (rules are cross-project: core/rules/rules.h, rules_finish),
 * recording violations and one rule_runs row per rule as this run. set
 * NULL runs none and leaves the rule tables alone (sweep_run and
 * sweep_run_scoped); an empty set closes every open violation. A rule
 * that fails never fails the sweep.
 *
 * plan->early is a job the caller made with rules_prepare_early(st,
 * plan->set, now's time) while it read st (and maybe started:
 * rules_go; NULL: none). The sweep takes it: the job stands for its
 * own rules_start when no other connection committed since
 * (rules_job_current), else it is abandoned and the rules start again;
 * either way it is freed. Returns as sweep_run_scoped does.
 */
int sweep_run_rules(struct sweep_run *out, mirror_store *st, time_t now,
    const struct sweep_plan *plan, mirror_error *err);

#endif
