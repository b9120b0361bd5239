/*
 * finding.h: a finding and the facts it flags (core-internal).
 *
 * A finding is a row that names facts of the layers by (layer, id): a
 * conflict (conflicts) names its members (conflict_members), a violation
 * (rule_violations) its facts (violation_facts). Each keeps its own
 * tables, SQL, structs and words; what they share is here, typed, with
 * no offsets into their structs and no callbacks holding them:
 *
 *  - struct finding_table: a table of flagged rows and its SQL, as data;
 *    finding_check reads every row of it with the kind's row reader;
 *  - struct finding_rows: a cursor over a table of flagged rows, each
 *    row handed with the position of its finding in the caller's list
 *    (one query for every finding, not one a finding);
 *  - struct finding_order: the flagged facts of many findings in order
 *    of layer and id, the order their rows now are best looked up in;
 *  - struct finding_earlier: every finding by its key (a conflict's
 *    slot, a violation's rule and facts), newest first, for the ids of
 *    the earlier findings on the same key.
 */
#ifndef MIRROR_FINDING_H
#define MIRROR_FINDING_H

#include <stddef.h>

#include "store/storerow.h"

/* The table of the facts a kind of finding flags, as it names it. */
struct finding_table {
	const char *table;      /* the rows' table, as errors name it */
	const char *what;       /* "cannot read WHAT" on a failed step */
	const char *owner;      /* the column of the finding's id */
	int owner_col;          /* its index in every statement's row */
	const char *all_sql;    /* every finding's rows, by its id first */
	const char *one_sql;    /* one finding's rows, ?1 its id, in the
	                           order all_sql gives them */
	const char *check_sql;  /* every row (finding_check) */
};

/*
 * Check every row of t (t->check_sql): its finding id as text, then the
 * row with row (a kind's own reader of the row, keeping nothing: 0 or
 * -MIRROR_EINPUT naming it). Returns 0 or < 0 with err set: the first
 * bad row's -MIRROR_EINPUT.
 */
int finding_check(const struct finding_table *t,
    int (*row)(struct store_row *r), mirror_store *st, mirror_error *err);

/* What finding_rows_next found. */
enum finding_step {
	FINDING_DONE = 0,       /* no row is left */
	FINDING_ROW = 1,        /* c->row is a row of finding *at */
	FINDING_END = 2,        /* finding *at has no row left */
};

/*
 * A cursor over flagged rows. The caller adds a FINDING_ROW to finding
 * *at's array with ARRAY_PUSH(v, n, c->cap) and fits it at its
 * FINDING_END with ARRAY_FIT(v, n, c->cap); the cursor starts c->cap
 * at 0 for each finding.
 */
struct finding_rows {
	const struct finding_table *t;
	mirror_store *st;
	sqlite3_stmt *stmt;
	struct store_row row;   /* the current row; row.id its finding's */
	char **ids;             /* the findings' ids */
	size_t n;
	char **by;              /* ids by id (util/byid.h), NULL: none */
	size_t at;              /* the finding being handed, or n: none */
	size_t next;            /* the held row's finding, or n: the end */
	int held;               /* stmt is on a row not yet handed */
	size_t cap;             /* the room of the current finding's array */
};

/*
 * Open c over t's rows of the findings whose ids are ids (NULL-ended;
 * the caller's, kept unchanged while c is open): with t->one_sql for
 * one finding, t->all_sql for more, no query for none. A row of a
 * finding not among them (a filtered list) or with no valid finding id
 * is skipped. Returns 0 or < 0 with err set; finding_rows_close(c) in
 * both cases.
 */
int finding_rows_open(struct finding_rows *c, const struct finding_table *t,
    char **ids, mirror_store *st, mirror_error *err);

/*
 * Step c: FINDING_ROW, FINDING_END (each with *at the finding's
 * position in ids), FINDING_DONE, or < 0 with err set ("cannot read
 * WHAT").
 */
int finding_rows_next(struct finding_rows *c, size_t *at);

void finding_rows_close(struct finding_rows *c);

/* A flagged fact of finding `finding`, row `at` of its array. */
struct finding_ref {
	const char *layer, *id;
	size_t finding, at;
};

/* Flagged facts in order of layer and id: neighbouring lookups share
 * the index's pages, which list order would read again and again. */
struct finding_order {
	struct finding_ref *v;
	size_t n, cap;
};

/* Add fact layer/id, row at of finding (the strings are the caller's,
 * kept while o is used). */
void finding_order_add(struct finding_order *o, const char *layer,
    const char *id, size_t finding, size_t at);

/* Sort o by layer, then id (stable). */
void finding_order_sort(struct finding_order *o);

void finding_order_free(struct finding_order *o);

/* The key of a finding and its id (key_a, key_b: a conflict's slot kind
 * and key, a violation's rule and facts). */
struct finding_key {
	char *a, *b, *id;
};

/* Every finding by key, newest first within a key. */
struct finding_earlier {
	struct finding_key *v;
	size_t n;
};

/* How a kind of finding reads its keys: sql selects a, b, id of every
 * finding, ordered by a, b, then newest first; the rest names them in
 * errors. */
struct finding_keys {
	const char *sql;
	const char *table, *a, *b, *what;
};

/* Read every finding's key into *out. Returns 0 or < 0 with err set;
 * finding_earlier_free(out) in both cases. */
int finding_earlier_load(struct finding_earlier *out,
    const struct finding_keys *k, mirror_store *st, mirror_error *err);

/*
 * The ids after id in the run of key (a, b) of x, newest first, into
 * *ids and *n (each a copy the caller frees, with the array: see
 * finding_ids_free).
 */
void finding_earlier(char ***ids, size_t *n, const struct finding_earlier *x,
    const char *a, const char *b, const char *id);

void finding_earlier_free(struct finding_earlier *x);

/* Free ids[0..n) and ids. */
void finding_ids_free(char **ids, size_t n);

#endif
