/*
 * digest.h: the store's snapshot checksum, and beside it a digest of
 * what belongs to each canonical project, taken in one pass.
 *
 * A query's rows are folded as a multiset (their order does not
 * matter): the first nhash columns of each row make its hash, the
 * snapshot sums those hashes; then nsalt columns that only the projects'
 * digests see (a memory's expiry at the run's clock: the row did not
 * change, what the pages show of it did); then the row's owners, the
 * canonical ids of the projects it belongs to (a relationship belongs to
 * the projects of both its ends). A NULL owner column is no owner; a row
 * with none belongs to no project and goes into the "loose" digest.
 *
 * Pages show the far end of a relationship whose ends lie in two
 * projects (its name, type, status, project and whether it is
 * disputed), so a fold of edges (digest_query's edges) also gives each
 * end's project the other end's entity row, and remembers which projects
 * show which far ends: a later owner column of kind 'x' (a conflict
 * member that is an entity) reaches those projects too.
 *
 * Two stores whose rows agree for project p have equal digests for p,
 * whatever else differs; any row of p that differs, appears or goes
 * changes p's digest (up to 64-bit collisions).
 */
#ifndef MIRROR_DIGEST_H
#define MIRROR_DIGEST_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "store/store.h"
#include "util/strbuf.h"

/* How many kinds of rows a digest counts per project. */
#define DIGEST_COUNTS 3

/* How many tables' row ids a digest can list per project: the four
 * fact tables (facts.h's enum facts_rows), the conflicts and their
 * members (DIGEST_ROWS_CONFLICTS, DIGEST_ROWS_MEMBERS: a scoped sweep's,
 * before it writes them; a refold, digest_refold_begin, lists none). */
#define DIGEST_ROW_LISTS 6
#define DIGEST_ROWS_CONFLICTS 4
#define DIGEST_ROWS_MEMBERS 5

/* How many tables' sums a digest keeps (tables[]): the projects, then
 * the four fact tables (facts.h's enum facts_rows, each one up). */
#define DIGEST_TABLES 5

/* How many queries' sums a digest keeps for a refold (refold_sums). */
#define DIGEST_REFOLD_SUMS 8

/* What one query adds to the snapshot checksum. The checksum chains the
 * queries in their order; the projects' digests do not depend on it. */
struct digest_sum {
	uint64_t sum, rows;
};

/* A project's row ids per table (digest_query's rowid_list). */
struct digest_rowids {
	long long *v[DIGEST_ROW_LISTS];
	size_t n[DIGEST_ROW_LISTS], cap[DIGEST_ROW_LISTS];
};

/* One canonical project's digest, and what it holds. */
struct project_digest {
	char *project;          /* owned; "" is the no-project group */
	struct digest_rowids *rowids;   /* owned; NULL unless the digest
	                                   kept row ids (keep_rowids) */
	uint64_t sum;
	long long rows[DIGEST_COUNTS];  /* rows counted per kind (see
	                                   digest_query's count) */
	long long active;       /* of those, rows whose flag was true */
	long long latest;       /* the greatest time column of those rows
	                           (seconds), -1 when none had one */
};

/* One value of a tallied column (digest_query's tally) and its rows. */
struct digest_status {
	char *value;            /* its bytes, NUL added (a NULL column: "") */
	size_t len;
	int first_bad;          /* 1: column 0 of its first row (the id a
	                           check of the value names) is not store
	                           text (storerow_text_problem) */
	long long rows;
};

/* A table's rows by the value of one column, in order of first sight. */
struct digest_tally {
	struct digest_status *v;
	size_t n, cap;
	struct hashtab *seen;   /* while folding: a value's hash to its
	                           index in v */
};

/* A store's digests; digest_free releases them. */
struct store_digest {
	uint64_t snapshot;              /* facts_checksum's value */
	struct project_digest *p;       /* sorted by project (strcmp) */
	size_t n;
	uint64_t loose;                 /* the rows of no project */
	uint64_t names;                 /* the names columns of every row
	                                   (digest_query's names): what the
	                                   A-Z index is made from */
	/* Each table's sum and count as one value, set when the digest was
	 * taken by facts_digest and friends (tables_set); equal values:
	 * the hashed columns of that table hold the same rows (up to
	 * 64-bit collisions). The rules' keys are made of them. */
	uint64_t tables[DIGEST_TABLES];
	int tables_set;
	/* Set with tables[] from the same pass, for api/health.json
	 * (core/sweep/health.c: health_digested): each table's rows, the
	 * fact tables' rows by status (tallied: 1), the active memories
	 * expired at the clock now. */
	long long table_rows[DIGEST_TABLES];
	struct digest_tally tally[DIGEST_TABLES];
	int tallied;
	long long expired_active;
	time_t now;
	/* The memories' clock at now as facts_clock_read reads it (its
	 * expired, after and until; core/store/facts.h), read on the
	 * second connection once its share of the pass is folded, where
	 * the pass ran on two (clocked): a build takes it from here
	 * (facts_clock_of) instead of reading every memory again. */
	long long clock_expired, clock_after, clock_until;
	int clocked;
	/* While folding: projects by hash of their id, the loose rows, the
	 * aliases (name to project), each entity's project and row, and
	 * the projects that show an entity as a far end. */
	struct hashtab *acc, *alias, *ent, *far;
	/* Set before folding, on another thread, queries whose owners
	 * name entities ('e') that another digest registers: their
	 * projects are looked up in lender's entities, which its
	 * entities' fold has ended (it reads them and goes on with other
	 * queries, neither writing them), and taken into this digest by
	 * their ids. NULL: this digest's own. Far ends ('x') are always
	 * this digest's own. */
	const struct store_digest *lender;
	/* Set before folding: the digest whose aliases resolve project
	 * names here (digest_aliases_borrow), each project then taken into
	 * this digest by its id as its first row comes; NULL: this
	 * digest's own. A copy of 100,000 projects' aliases and entries was
	 * 37 MB of a build's peak, made for each table folded apart. */
	const struct store_digest *aliases_lender;
	uint64_t loose_sum, loose_rows, names_sum, names_rows;
	long long loose_active;         /* counted rows of no project whose
	                                   flag was true (digest_active) */
	/* Set before the folds: list each project's row ids (rowid_list),
	 * so that a read of a few projects' rows in the same read of the
	 * store looks them up instead of scanning every table for them
	 * (the store has no index on project). */
	int keep_rowids;
	/* With keep_rowids: the rowids of the edges (digest_query's edges)
	 * whose target names no entity the digest registered, so every
	 * edge whose target is gone: a scoped sweep reads their sources
	 * (core/sweep/scope.c, rule 1) without scanning every edge. */
	long long *dangling;
	size_t n_dangling, cap_dangling;
	/* With keep_rowids: the rowids of the rows whose owner 'l' (a
	 * conflict's slot key's project) is not their first owner (its
	 * recorded project), listed under no project: a scoped sweep
	 * looks at each (scope.c, rule 2). */
	long long *unlisted;
	size_t n_unlisted, cap_unlisted;
	/* How many queries a second connection folded (facts_digest):
	 * 0 when the digest was taken on one. */
	int parallel;
	/* Set before the folds: digest_finish keeps what folding the swept
	 * queries (digest_query's swept) again needs: each project's sum
	 * apart from its swept rows', the aliases, the entities, the far
	 * ends and what each group of swept rows added (refold_kept), until
	 * digest_refold_drop or digest_free. A refold then costs the rows
	 * of the groups folded again (or of the swept queries, whole), not
	 * the store's. */
	int keep_refold, refold_kept;
	/* Kept by the digest's taker for a refold (facts.c): the snapshot
	 * as chained before the first swept query, and the sums of the
	 * queries from there on, in order (refold_folded[i]: query i was
	 * folded). */
	uint64_t refold_snapshot;
	struct digest_sum refold_sums[DIGEST_REFOLD_SUMS];
	int refold_folded[DIGEST_REFOLD_SUMS];
	/* While folding: the swept rows of no project, and whether the
	 * query folding now is swept. */
	uint64_t loose_swept_sum, loose_swept_rows;
	int in_swept;
	/* With keep_refold: the swept rows' groups (digest_query's
	 * group_kind), by the hash of their kind and name. */
	struct hashtab *groups;
};

/* An empty digest, ready for digest_fold_part. */
void digest_init(struct store_digest *d);

/* Make room for n entities in d before the fold that registers them:
 * grown one by one, the table of 400,000 entities (L) moved each entry
 * about twice, a quarter of a second. */
void digest_expect_entities(struct store_digest *d, size_t n);

/*
 * Read st's TEMP project_alias (name, canonical) for the owner columns
 * of kind 'p'. Returns 0 or < 0 with err set.
 */
int digest_aliases(struct store_digest *d, mirror_store *st,
    mirror_error *err);

/* A hash of the aliases digest_aliases read into d (each name and its
 * project, in any order): equal hashes, the same aliases. */
uint64_t digest_aliases_hash(const struct store_digest *d);

/* The aliases digest_aliases read into from, lent to into (no read of
 * the store, no copy: into's aliases_lender): for a digest folded beside
 * from on the same thread, which keeps from unchanged and alive until
 * into is folded. Returns nothing. */
void digest_aliases_borrow(struct store_digest *into,
    const struct store_digest *from);

/* One query folded into a digest. */
struct digest_query {
	const char *sql;
	int table;              /* tells the tables apart in the projects'
	                           digests */
	int nhash, nsalt;       /* hashed columns, then salt columns */
	int count;              /* in [0, DIGEST_COUNTS): each row is counted
	                           in its owners' rows[count]; the column
	                           after the salts is a flag (not an owner)
	                           whose true rows count in active, the one
	                           after it a time in seconds (or NULL) whose
	                           greatest value is kept in latest; -1: no */
	const char *owners;     /* one letter per owner column: 'c' a
	                           canonical project id, 'p' a row's project
	                           column (mapped through the aliases), 'l'
	                           one as 'p' that lists the row's rowid
	                           (rowid_list) and adds nothing else, 'e'
	                           an entity id (its project, as an earlier
	                           fold with entities set registered it),
	                           'x' an entity id: the projects an earlier
	                           fold with edges set found showing it as
	                           a far end (none when NULL) */
	int entities;           /* 1: register column 0 (an entity id) as
	                           belonging to the row's first owner, with
	                           the row's hash */
	const char *param;      /* bound to sql's one parameter, if any */
	int edges;              /* 1: the owners are "ee", an edge's source
	                           and target; when their projects differ,
	                           each also folds the other end's entity
	                           row and project, and is noted as showing
	                           that entity (owner kind 'x') */
	unsigned names;         /* a bit per hashed column (1 << i, i <
	                           nhash) whose values, with table, also
	                           fold into d->names; 0: the query adds
	                           nothing to it */
	int rowid_list;         /* k in [1, DIGEST_ROW_LISTS]: the last
	                           column is the row's rowid (neither hashed
	                           nor an owner), listed under v[k - 1] of
	                           each owner of kind 'p' or 'e' when
	                           d->keep_rowids; 0: none */
	int tally;              /* 1 + a hashed column whose rows are
	                           counted by value in d->tally[table]
	                           (table < DIGEST_TABLES); 0: none */
	int expiry;             /* 1: the first salt column is a flag; the
	                           rows where it and the count's flag are
	                           true count in d->expired_active */
	int swept;              /* 1: a table the sweep writes: its rows
	                           are summed apart in each project, so that
	                           a refold (digest_refold_begin) can fold
	                           them again over the others' sums; such a
	                           query registers no entity, folds no edge,
	                           name, tally or count */
	char group_kind;        /* a swept query's groups' kind (not '\0'):
	                           with keep_refold, what each group's rows
	                           added to each project, the loose rows and
	                           the query's sum is kept by group, so that
	                           a group is folded again alone
	                           (digest_group_out) */
	int group;              /* 1 + the column whose text names a row's
	                           group (of group_kind); 0: the query's
	                           rows are one group, named "" */
	int group_slot;         /* in [0, DIGEST_GROUP_SLOTS): which of its
	                           group's query sums a row adds to */
};

/* How many queries a group's rows come from (digest_query's
 * group_slot). */
#define DIGEST_GROUP_SLOTS 2

/*
 * A query's fold in two steps, so that queries folded on two
 * connections at once (digest_merge) still chain into the snapshot in
 * their order: digest_fold_part folds the rows of q->sql into d's
 * projects as described above and their sum into *out, leaving
 * d->snapshot alone (returns 0 or < 0 with err set); then, in query
 * order, digest_seal chains each query's sum into d->snapshot.
 */
int digest_fold_part(struct digest_sum *out, struct store_digest *d,
    mirror_store *st, const struct digest_query *q, mirror_error *err);
void digest_seal(struct store_digest *d, const struct digest_sum *s);

/* Keep s, a query's sum, as table i's in d->tables, and its rows in
 * d->table_rows (i in [0, DIGEST_TABLES)). Returns nothing. */
void digest_table_sum(struct store_digest *d, int i,
    const struct digest_sum *s);

/*
 * Add from's projects (rows, sums, counts, row ids), loose rows and
 * names to into, both not yet finished: as if from's queries had been
 * folded into into. A query with owners of kind 'e' or 'x' reads the
 * entities and edges registered in the digest it folds into, so such
 * queries and the folds that register what they read go into the same
 * one, and into folds none of them after the merge (from's are
 * dropped). from's snapshot is not merged (the caller seals the sums).
 * from is left empty: digest_free it.
 */
void digest_merge(struct store_digest *into, struct store_digest *from);

/* Finish d after the last fold: the projects sorted into d->p. */
void digest_finish(struct store_digest *d);

/*
 * Start folding d's swept queries again: d was finished with
 * keep_refold and its other queries' rows did not change since. With
 * whole, each project's and the loose rows' swept sums are emptied (and
 * the groups), then digest_fold_part each swept query whole; else only
 * the groups digest_group_out takes out are folded again. A project
 * only swept rows name goes when none does any more. digest_refold_end
 * ends it. Returns 0, or 1 when d kept nothing to fold over (d
 * unchanged).
 */
int digest_refold_begin(struct store_digest *d, int whole);

/*
 * Take the rows of group id (len bytes) of kind out of d, kept with
 * keep_refold from the swept queries of that group_kind: what they
 * added to each project and to the loose rows is taken off, and what
 * they added to each query's sum is set into out[group_slot] (zero for
 * a group d does not know); the group is then empty, for a fold of its
 * rows now (digest_fold_part of a query that reads them alone) to fill
 * again. Call between digest_refold_begin and digest_refold_end.
 * Returns nothing.
 */
void digest_group_out(struct store_digest *d, char kind, const char *id,
    size_t len, struct digest_sum out[DIGEST_GROUP_SLOTS]);

/* End a refold: d->p made again from the projects (their row ids kept)
 * and d->loose sealed again, as a digest of every query would give
 * them; d stays kept for another refold. Returns nothing. */
void digest_refold_end(struct store_digest *d);

/* Free what d kept for a refold (d's digests stay; no refold can follow).
 * Returns nothing. */
void digest_refold_drop(struct store_digest *d);

/* The counted rows whose flag was true, of every project and of none
 * (d finished): with the fact tables' digest queries, the store's
 * active rows of the three layers. */
long long digest_active(const struct store_digest *d);

/* The digest of project id in d, or 0 when d has no row of it. */
uint64_t digest_of(const struct store_digest *d, const char *id);

/* Project id's entry in d (finished), or NULL when d has no row of it. */
const struct project_digest *digest_find(const struct store_digest *d,
    const char *id);

/* Free the row ids d kept and clear keep_rowids (a reader of d then
 * goes by project, never by ids that are gone): memory stays flat once
 * the read that used them is done. */
void digest_drop_rowids(struct store_digest *d);

void digest_free(struct store_digest *d);   /* d stays valid, empty */

/*
 * What folding the fact tables left in d (not finished; no swept
 * query folded into it, so no groups and nothing unlisted): its
 * projects (sums, counts, row ids), entities, far ends, tallies,
 * dangling edges, loose rows, names and expired rows, appended to out
 * as bytes digest_part_load reads on this machine (facts.c keeps them
 * in the user's cache). Returns nothing.
 */
void digest_part_save(strbuf *out, const struct store_digest *d);

/* Drop the row ids d's folds listed (d not finished), and list none
 * from now on: for a fold that listed them only to keep them
 * (facts.c). Returns nothing. */
void digest_unlist(struct store_digest *d);

/*
 * Add a part digest_part_save wrote (buf, len bytes) to d (not
 * finished), as if its folds were folded into d again: sums and counts
 * added, row ids appended (when d keeps them), entities and far ends
 * registered. Returns 0, or -1 when buf is not such a part, whole (d is
 * then unchanged).
 */
int digest_part_load(struct store_digest *d, const void *buf, size_t len);

#endif
