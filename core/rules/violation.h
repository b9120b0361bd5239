/*
 * violation.h: reading the violations the rules recorded, for the pages,
 * the JSON, health, the feed, the commit message and --check.
 *
 * The rules engine (rules.h) writes rule_violations, violation_facts
 * and rule_runs (store-schema.sql, schema version 2); this is their read
 * half, as conflict.h's is for conflicts. It works on any store, also
 * one without the rule tables (store_features()->has_rule_tables == 0):
 * then there are no violations and no rule runs. Every string is owned
 * by the struct that holds it and released by the matching _free
 * function; every column read goes through the store's one column
 * checker (storerow.h), so bad text is -MIRROR_EINPUT naming store,
 * table, row and column.
 */
#ifndef MIRROR_VIOLATION_H
#define MIRROR_VIOLATION_H

#include <stddef.h>

#include "store/store.h"
#include "util/byid.h"

/* One fact a violation names, with the row's state now. */
struct violation_fact {
	char *layer;           /* project_state, entity, memory, relationship */
	char *id;              /* the row's id in its table */
	char *label;           /* state key, entity name, memory content,
	                          "SOURCE type TARGET" of a relationship
	                          (its ends' names, else ids; the type's
	                          _ as spaces); NULL when the row is gone */
	char *project;         /* the row's canonical project ("" for none;
	                          a relationship's source end's); NULL when
	                          gone */
	char *source;          /* state source, entity source_refs (JSON
	                          text); "" for a memory or a relationship
	                          (no source of their own); NULL when gone */
	char *status_now;      /* the row's status ("active" for a
	                          relationship); NULL when gone */
};

/* One violation: a row of rule_violations with its facts. */
struct violation {
	char *id;              /* chk-<12 hex> */
	char *rule_id;
	char *severity;        /* error | warn */
	char *project;         /* canonical project id ('' for none) */
	char *facts;           /* the JSON array text, as stored */
	char *message;
	char *status;          /* open | closed */
	char *detected_at;     /* 'YYYY-MM-DD HH:MM:SS' */
	char *opened_run;      /* sweep_runs.id ('' when unknown) */
	char *closed_at;       /* NULL while open */
	char *closed_run;      /* NULL while open */
	struct violation_fact *fact;  /* by layer, then id */
	size_t n_facts;
	char **earlier;        /* ids of earlier violations of the same rule
	                          and facts, newest first */
	size_t n_earlier;
};

struct violation_list {
	struct violation *items;
	size_t n;
};

/* What violation_list returns; NULL fields do not filter. */
struct violation_filter {
	const char *status;    /* "open" or "closed" */
	const char *project;   /* a project id or alias (canonicalised) */
};

/* The latest rule_runs row of one rule. */
struct rule_run {
	char *sweep_run;
	char *rule_id;
	char *origin;          /* 'FILE:LINE' or 'store:mirror_rules' */
	char *severity;        /* error | warn */
	char *label;           /* the marker's words: the row's label, else
	                          the rule id */
	char *description;
	char *query;
	char *status;          /* ok | failed */
	char *error;           /* '' when ok */
	long long hits;
	long long duration_ms;
	int current;           /* 1 when the row is of the latest sweep run
	                          that ran rules: the rule is still in the set */
};

struct rule_run_list {
	struct rule_run *items;  /* sorted by rule_id */
	size_t n;
};

/* Open violations by severity, all closed ones, failed rules. */
struct violation_counts {
	long long open_error, open_warn, closed;
	long long rules_failed;  /* rules that failed in the latest sweep
	                            run that ran rules */
	long long rules;         /* rules that ran in it */
};

/*
 * Count the violations of st (open by severity, closed) and the rules
 * whose latest run failed; all 0 on a store without the rule tables.
 * Returns 0 or < 0 with err set.
 */
int violation_counts(struct violation_counts *out, mirror_store *st,
    mirror_error *err);

/* violation_counts' rules and rules_failed alone into *out (the rest
 * stays). Returns 0 or < 0 with err set. */
int violation_rule_counts(struct violation_counts *out, mirror_store *st,
    mirror_error *err);

/*
 * Fill *out with every violation that passes filter (which may be NULL),
 * with its facts and earlier ids: open first, then closed; within each
 * error before warn, then by rule, then by id. A filter naming a project
 * that is neither a project id or alias of st nor the project of a
 * violation is -MIRROR_EINPUT "no project 'P' in STORE". Returns 0 or
 * < 0 with err set; the caller must violation_list_free(out) in both
 * cases.
 */
int violation_list(struct violation_list *out, mirror_store *st,
    const struct violation_filter *filter, mirror_error *err);

void violation_list_free(struct violation_list *l);

/*
 * Read again the rows now of the facts of the n violations of l at the
 * indexes which (a list violation_list filled, its facts changed since),
 * as violation_list reads them; the rest stays. Returns 0 or < 0 with
 * err set.
 */
int violation_list_refresh(struct violation_list *l, const size_t *which,
    size_t n, mirror_store *st, mirror_error *err);

/*
 * Fill *out with violation id. Returns 0, -MIRROR_EINPUT "no violation
 * 'id'" when there is none, or < 0 on failure. The caller must
 * violation_free(out) in every case.
 */
int violation_get(struct violation *out, mirror_store *st, const char *id,
    mirror_error *err);

void violation_free(struct violation *v);

/*
 * Fill *out with the latest rule_runs row of every rule that ever ran
 * (the row of the newest sweep run that ran it, current when that is the
 * newest sweep run that ran any rule), sorted by rule id. A row that
 * fails its checks (text that is not UTF-8, a NULL, a status or
 * severity out of its set) is left out, with one line "mirror: warning:
 * store S: rule_runs row 'ID': COL WHAT; the row is skipped" on stderr:
 * mirror's own log, which an older mirror wrote with rules' text
 * unchecked, never stops a build. Returns 0 or < 0 with err set; the
 * caller must rule_run_list_free(out) in both cases.
 */
int rule_runs_latest(struct rule_run_list *out, mirror_store *st,
    mirror_error *err);

/* The run of rule_id in l, or NULL. Binary search. */
const struct rule_run *violation_rule_run_find(const struct rule_run_list *l,
    const char *rule_id);

void rule_run_list_free(struct rule_run_list *l);

/* One fact named by an open violation; the strings are the list's
 * (violation_flagged), valid while it is. */
struct flagged {
	const char *layer;
	const char *id;
	const char *violation_id;
	const char *rule_id;
	const char *project;     /* the violation's: where its page is */
};

struct flagged_list {
	struct flagged *items;   /* sorted by layer, id, violation_id */
	size_t n;
	struct byid_pairs by;    /* by layer and id */
};

/*
 * Fill *out with every (layer, id, violation, rule) of the facts of the
 * open violations of all (violation_list's, unfiltered: its facts are
 * the store's violation_facts rows), sorted for
 * violation_flagged_find. Reads no store: the rows were read and
 * checked with all, and a second query of the same rows was a large
 * part of a build's read. out
 * points into all; flagged_list_free(out) before all is freed.
 */
void violation_flagged(struct flagged_list *out,
    const struct violation_list *all);

/*
 * The first entry (smallest violation id) for fact layer/id, or NULL
 * when no open violation names it; *n (may be NULL) gets how many open
 * violations name it. Binary search; the result points into l.
 */
const struct flagged *violation_flagged_find(const struct flagged_list *l,
    const char *layer, const char *id, size_t *n);

/* Free what violation_flagged allocated (not the strings: all's). */
void flagged_list_free(struct flagged_list *l);

/*
 * Read every row of rule_violations and violation_facts as the readers
 * above do, keeping nothing: so a build refuses bad text before it
 * writes. (rule_runs is not read: rule_runs_latest leaves a bad row of
 * it out with a warning.) Returns 0 or the first bad row's
 * -MIRROR_EINPUT naming store, table, row and column.
 */
int violation_check(mirror_store *st, mirror_error *err);

#endif
