/*
 * facts.h: the read model of the fact store, one project at a time.
 *
 * The site generator asks core for facts through this module and never
 * runs SQL itself. Projects are canonical: a row whose project is an
 * alias (TEMP project_alias) belongs to the canonical project, a row
 * naming an unlisted project is kept under that name, and rows with
 * project '' form the "no project" group (id ""). Every list is sorted
 * by a total order on store columns, so two reads of the same store give
 * the same arrays. All calls must run inside one store_read_begin /
 * store_read_end so every part comes from the same snapshot.
 *
 * Store text is returned as read: valid UTF-8, never NULL (NULL in a
 * required column is an error), and it is data, never markup: escaping
 * is the caller's job.
 */
#ifndef MIRROR_FACTS_H
#define MIRROR_FACTS_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <jansson.h>

#include "store/farends.h"
#include "store/store.h"

/* A project as listed on the index. */
struct fact_project {
	char *id;               /* canonical id; "" = the no-project group */
	char *name;             /* display name; the id when not listed */
	char *description;      /* "" when not listed */
	char **aliases;         /* sorted; from projects.aliases */
	size_t n_aliases;
	int listed;             /* 1 when a projects row exists */
	long long n_state;      /* rows per layer, every status */
	long long n_entities;
	long long n_memories;
	long long n_active;     /* rows with status 'active' in all layers */
	long long latest;       /* the newest updated_at of its rows, in
	                           seconds since 1970, any status; -1 when
	                           none is a timestamp (facts_projects with a
	                           digest alone sets it: 0 elsewhere) */
};

/* Layer 3: a project_state row. */
struct fact_state {
	char *id, *project, *category, *key, *value, *source, *status;
	char *created_at, *updated_at;
	double confidence;
};

/* Layer 2: an entities row; properties is a JSON object. */
struct fact_entity {
	char *id, *type, *name, *project, *description, *status;
	char *created_at, *updated_at;
	json_t *properties;     /* object, owned */
	json_t *source_refs;    /* array, owned */
	double confidence;
};

/* A relationship with at least one end in the project. */
struct fact_rel {
	char *id, *source, *target, *type;
	double confidence;
};

/* Layer 1: a memories row. */
struct fact_memory {
	char *id, *type, *content, *project, *status;
	char *created_at, *updated_at;
	char *valid_until;      /* NULL: no expiry (or no such column) */
	char *graduated_to;     /* NULL when none */
	json_t *domain_tags;    /* array, owned */
	long long reference_count;
	double confidence;
	int expired;            /* valid_until lies before the run's clock */
};

/* Everything one project holds. */
struct project_facts {
	struct fact_state *state;     /* by category, key, created_at, id */
	size_t n_state;
	struct fact_entity *ent;      /* by entity_type, name, id */
	size_t n_ent;
	struct fact_rel *rel;         /* by type, source, target, id */
	size_t n_rel;
	struct fact_memory *mem;      /* by memory_type, created_at, id */
	size_t n_mem;
	struct fact_far *far;         /* by id: the entities at the other
	                                 end of rel that are not in ent
	                                 (of another project or none);
	                                 an end no entity has is absent */
	size_t n_far;
};

struct store_digest;

/*
 * Set *out to an array of *n projects sorted by id (the no-project
 * group, id "", first when it has rows): every row of projects, plus
 * every canonical project name found in a layer but not listed. With d,
 * a facts_digest of the same read (which counted every project's rows
 * per layer and its active rows), from d and the projects table alone:
 * the same array without a second pass over the layers, and each
 * project's latest (which only this way sets). With d and kept (NULL:
 * none), the listed projects are kept's rows (a build's earlier
 * facts_projects' listed ones, in id order, ended by one whose id is
 * NULL: those of a projects table that has not changed since) instead
 * of the table's; their counts are d's now. Returns 0 or < 0 with err
 * set (-MIRROR_EINPUT for bad aliases JSON). The caller frees with
 * facts_projects_free, also after a failure.
 */
int facts_projects(struct fact_project **out, size_t *n, mirror_store *st,
    const struct store_digest *d, const struct fact_project *kept,
    mirror_error *err);

void facts_projects_free(struct fact_project *p, size_t n);

/*
 * Reading projects one after another: each table is read once, in
 * canonical project order, so a build costs one pass over the store
 * whatever the number of projects.
 */
struct facts_reader;

struct facts_kept;

/*
 * A plan of a read of projects (facts_reader_open) or of their check
 * (facts_check): which projects, found how, on how many connections.
 * The plain plan, { .now = T } and nothing else, reads or checks every
 * project on the caller's connection. Every other field is a fast path
 * that promises the plain plan's rows for the projects it covers
 * (test_facts' test_plans compares each with it). The plan is the
 * caller's; nothing of it is kept.
 */
struct facts_plan {
	time_t now;             /* memories are expired against it */
	const char *const *ids; /* a scope: these canonical projects alone
	                           (sorted by strcmp, no duplicates); a
	                           reader reads any other as empty, a check
	                           reads the projects table and these. NULL:
	                           every project */
	size_t n;
	const struct store_digest *d;  /* with ids: a facts_digest with rowids of
	                           the same read, whose row ids find the
	                           scope's rows (a lookup each); NULL, or a
	                           digest without them: a scan of each table
	                           finds them by their project column */
	int wide;               /* a reader of every project: each table's
	                           first step, which sorts it, on a
	                           connection and thread of its own, up to
	                           one a job (store/parallel.h), where a
	                           second connection reads the same rows (not
	                           a WAL store) and jobs are more than one */
	struct facts_kept *kept;   /* a reader: hand out the projects a
	                           check kept (moved out of it, each once;
	                           any other reads as empty), not the store;
	                           it must outlive the reader, which then
	                           never fails */
	struct facts_kept **keep;  /* a check with ids: keep every project
	                           it read, and the no-project group "",
	                           into *keep (a new set; NULL after a
	                           failure) */
};

/*
 * Start reading as p plans, inside the caller's consistent read (close
 * the reader before store_read_end). A scope (p->ids) is a TEMP table
 * of st's connection, replaced by the next scoped read or check on it.
 * Returns 0, or < 0 with err set. *out is set in both cases and the
 * caller must facts_reader_close it.
 */
int facts_reader_open(struct facts_reader **out, mirror_store *st,
    const struct facts_plan *p, mirror_error *err);

/* The connections of its own r reads on (a wide plan's; 0: it reads
 * on the caller's alone). */
int facts_reader_sides(const struct facts_reader *r);

void facts_reader_close(struct facts_reader *r);   /* NULL is fine */

/*
 * Fill *out with every row (all statuses) of canonical project id,
 * and the far ends of its relationships.
 * Projects must be asked for in strictly increasing strcmp order (the
 * order of facts_projects); asking out of order is -MIRROR_EIO (a bug).
 * Returns 0, or -MIRROR_EINPUT naming table, row id and column for a
 * NULL in a required column, invalid UTF-8 or invalid JSON (properties,
 * source_refs, domain_tags), or the store's error. The caller frees with
 * facts_free, also after a failure.
 */
int facts_read_project(struct project_facts *out, struct facts_reader *r,
    const char *project, mirror_error *err);

/* facts_read_project through a plain reader of its own: one project. */
int facts_load(struct project_facts *out, mirror_store *st,
    const char *project, time_t now, mirror_error *err);

void facts_free(struct project_facts *f);

/*
 * Read every row facts_projects and facts_read_project would read
 * (projects, the three layers, the relationships with an end in a
 * project) and check it as they do, keeping nothing unless p->keep: so
 * a build can refuse a bad store before its sweep writes to it. With a
 * scope (p->ids) the projects table and the scope's projects alone: a
 * build whose other projects are unchanged since a build that checked
 * them (their digests, facts_digest, are those it recorded) need not
 * read them again. Returns 0, or the first bad row's -MIRROR_EINPUT
 * naming table, row id and column, or the store's error.
 */
int facts_check(mirror_store *st, const struct facts_plan *p,
    mirror_error *err);

/* 1 when k holds each of the projects ids[0..n) (any order), else 0. */
int facts_kept_covers(const struct facts_kept *k, const char *const *ids,
    size_t n);

void facts_kept_free(struct facts_kept *k);   /* NULL is fine */

/*
 * Set *out to the part_of parents of entity id as the store gives them
 * (sweep/factrow.h's FACTROW_PARENT_ROWS): the names of the active
 * entities its part_of edges point to, sorted (strcmp, which is
 * SQLite's BINARY), one per edge, joined by ", "; NULL when it has
 * none. From the project of k (NULL: none) that holds the entity: its
 * rows hold every edge of the entity and each edge's far end. Returns
 * 1, or 0 (*out NULL) when no project of k holds it.
 */
int facts_kept_parents(char **out, const struct facts_kept *k,
    const char *id);

/*
 * A new set holding a deep copy of each project of k whose id is one of
 * ids[0..n) (any order, no duplicates): for a second reader of the same
 * rows (facts_plan's kept) beside the one that moves them out of k. k
 * must not change meanwhile (copy before that reader starts). Returns
 * the set (never NULL); the caller frees it with facts_kept_free.
 */
struct facts_kept *facts_kept_copy(const struct facts_kept *k,
    const char *const *ids, size_t n);

/*
 * Set *out to the store snapshot checksum: a hash of every column of
 * every row of the tables mirror reads (projects, project_state,
 * entities, relationships, memories, conflicts, conflict_members,
 * memory_audit), each
 * table taken as a multiset of rows (their order does not matter), so
 * it changes whenever any fact, conflict or membership does, and only
 * then. Returns 0 or < 0 with err set.
 */
int facts_checksum(uint64_t *out, mirror_store *st, mirror_error *err);

/*
 * Which of a digest's tables[] (digest.h) holds column of table of
 * main in its sum: 0 for the projects' id, name, aliases and
 * description, 1 + enum facts_rows for a column of a fact table that
 * its digest query hashes (every column mirror reads of it, and
 * relationships.created_at, which only rules read), -1 for any other (a
 * column mirror does not know, a table it does not digest). A column
 * of "" (SQLite's name when a statement reads none, as count(*) does)
 * is the table's. Names compare as SQL's do, without case.
 */
int facts_digest_column(const char *table, const char *column);

/* How facts_digest takes its pass: the plain plan, { .now = T }, and
 * what more it may keep or do; the digest is the plain one's, sum for
 * sum, whatever the plan (test_digest compares them). */
struct facts_digest_plan {
	time_t now;             /* memories are expired against it */
	int rowids;             /* also list each project's row ids of the
	                           three layers and the relationships
	                           (digest.h, keep_rowids), for a scoped
	                           plan's check or read (facts_plan's d) in
	                           the same read, at 8 bytes a row until
	                           digest_drop_rowids; and keep what
	                           facts_digest_swept needs (keep_refold)
	                           until digest_refold_drop */
	void (*then)(void *);   /* with rowids, or NULL: called with arg
	                           once, on the second connection's thread,
	                           as soon as that connection's share of the
	                           pass is folded: its core is free while
	                           this thread folds the rest (a build starts
	                           its rules there); then must not use st,
	                           and is never called when the pass runs on
	                           one connection */
	void *arg;
	int whole;              /* 1: fold every table, taking no fold an
	                           earlier run kept (the ones folded are
	                           kept all the same: facts.c's part_ctx) */
};

/*
 * In one pass, as p plans: into out->snapshot facts_checksum's value,
 * and into out's projects the digest of what each canonical project
 * holds (store/digest.h): its projects row, its rows of the three
 * layers (with each memory's expiry at p->now), the relationships with
 * an end in its entities, its conflicts, their members and the facts'
 * audit rows. Rows that belong to no project go into out->loose.
 * Returns 0 or < 0 with err set; the caller digest_frees out in both
 * cases.
 */
int facts_digest(struct store_digest *out, mirror_store *st,
    const struct facts_digest_plan *p, mirror_error *err);

/* The lists of struct digest_rowids that a digest with rowids fills: each
 * project's rows of a table, by the row's canonical project (a
 * relationship under the projects of both its ends). A row whose
 * project is NULL is listed under none. */
enum facts_rows {
	FACTS_ROWS_STATE, FACTS_ROWS_ENTITIES, FACTS_ROWS_RELATIONSHIPS,
	FACTS_ROWS_MEMORIES
};



struct store_undo;

/*
 * After a sweep, in a read that sees its writes: fold again into d, a
 * facts_digest with rowids of an earlier read, what the sweep wrote (the
 * conflicts and their members, the rules' violations, their facts and
 * latest runs) over the sums of every other table d kept from that
 * read, which must hold the same rows now (the sweep writes no other
 * digested table; no other connection committed since). undo holds the
 * sweep's changes (store/undo.h): the conflicts and violations they
 * touched are folded again alone, each by its id, and the rules'
 * latest runs; when undo cannot tell them, they are too many or the
 * runs' labels changed, every row of the swept tables is. d's snapshot,
 * loose rows and projects' digests are then what a facts_digest with rowids
 * would give now, at the cost of the rows the sweep changed. Returns 0;
 * 1 when d kept nothing to fold over (digest_refold_drop was called, or
 * d is not a digest with rowids): take the digest whole; or < 0 with
 * err set.
 */
int facts_digest_swept(struct store_digest *d, mirror_store *st,
    const struct store_undo *undo, mirror_error *err);

/*
 * One value for what d folded of the conflicts, their members, the
 * violations and their facts (each query's sum and rows, as taken or
 * folded again last) and of the projects table, into *out: equal values
 * of two reads, and those tables held the same rows in both (up to
 * 64-bit collisions), whatever the facts did. Returns 0, or -1 when d
 * did not fold them all (no value).
 */
int facts_findings_sum(uint64_t *out, const struct store_digest *d);

/* What, besides the snapshot checksum, the clock decides in a read. */
struct facts_clock {
	long long expired;      /* memories (any status) with valid_until
	                           before now: the rows fixed, the count only
	                           grows, so it names the expired set */
	int any_conflicts;      /* 1 when conflicts holds any row */
	/* The same rows give the same expired at any time t with after < t
	 * <= until: after is the latest valid_until before now (LLONG_MIN
	 * when none), until the earliest at or after now (LLONG_MAX). So a
	 * store file known to be untouched need not be read again for it
	 * (core/store/memo.h). */
	long long after, until;
};

/*
 * Fill *out for now (expired is 0, the window unbounded, when the store
 * has no valid_until). Returns 0 or < 0 with err set.
 */
int facts_clock_read(struct facts_clock *out, mirror_store *st, time_t now,
    mirror_error *err);

/*
 * Fill *out as facts_clock_read would, from the clock d took in parallel with
 * its pass (digest.h's clocked) and the conflicts table read in st's read:
 * only for a d taken at the read's time from rows the read still sees. Returns
 * 1, 0 (d holds no clock; *out untouched), or < 0 with err set.
 */
int facts_clock_of(struct facts_clock *out, const struct store_digest *d,
    mirror_store *st, mirror_error *err);

/* 1 when c, read at some time from rows still unchanged, holds at t
 * too (t lies in its window); else 0. */
int facts_clock_holds(const struct facts_clock *c, time_t t);

/* A state key or an entity name, as the A-Z index lists it: the
 * reader's current row, valid until its next facts_names_next. */
struct fact_name {
	const char *name;       /* project_state.key or entities.name */
	const char *project;    /* canonical project ("" for none) */
	const char *layer;      /* "state" or "entity" (static) */
	const char *id, *kind;  /* the row's id; its category or entity_type */
	const char *status;
	const char *value;      /* a state row's value; NULL for an entity */
	const char *properties; /* an entity's properties (JSON text, as
	                           stored, unchecked); NULL for a state row */
	const char *description;  /* an entity's; "" for a state row */
};

struct names_reader;

/*
 * What facts_names_open reads. ids: the rows of the canonical projects
 * ids[0..n) alone (any order; none: no rows), what an update of the A-Z
 * index reads of the projects that changed; NULL: every row. rows, with
 * ids: facts_kept_names of a set that holds each of ids, of rows this
 * read still sees (the store unchanged since they were kept): those rows
 * are then found by their ids, a lookup each; NULL: the tables, which
 * have no index on project, are scanned (every row stepped, the steps
 * counted in work_scope_scans).
 */
struct names_plan {
	const char *const *ids;
	size_t n;
	const char *rows;
};

/*
 * Open a reader of every project_state key and entities name of the
 * store that p names, whatever its status, with its canonical project,
 * in the order of key (the blob key makes of the name; store.h), then
 * project, layer ("entity" first) and id, all as bytes: SQLite sorts
 * (in temporary files past its cache), so the reader holds one row.
 * Inside the caller's consistent read. Returns 0 (*nr to close with
 * facts_names_close) or < 0 with err set (*nr NULL).
 */
int facts_names_open(struct names_reader **nr, mirror_store *st,
    const struct store_key *key, const struct names_plan *p,
    mirror_error *err);

/*
 * The ids of every project_state and entities row k holds of the
 * projects ids[0..n), as names_plan's rows takes them (a text the
 * caller frees); NULL when k is NULL or does not hold each of them.
 * For a reader that runs while another moves the projects out of k:
 * taken before it starts.
 */
char *facts_kept_names(const struct facts_kept *k, const char *const *ids,
    size_t n);

/*
 * The next row into *v: 1, or 0 after the last, or < 0 with err set
 * (text checked as facts_read_project checks it, the bad row named).
 */
int facts_names_next(struct names_reader *nr, struct fact_name *v,
    mirror_error *err);

void facts_names_close(struct names_reader *nr);   /* NULL: no-op */

/*
 * Call each once for every distinct project_state key and entities name
 * of the store (as text, exactly as facts_names_next gives it: rows of
 * one name are the rows facts_names_next gives one after another) with
 * how many rows have it, in no order; NULL names are left out (the
 * reader names them). Cheaper than a pass of the reader when only the
 * counts are wanted: nothing but the names is sorted. Inside the
 * caller's consistent read. Returns 0 or < 0 with err set.
 */
int facts_names_count(mirror_store *st, void (*each)(void *arg,
    const char *name, long long rows), void *arg, mirror_error *err);

#ifdef MIRROR_TEST_HOOKS
/* A test hook (the unit tests' build alone, doc/development.md): 1 makes
 * a digest's entities' connection fail once it has folded everything
 * it folds, after the caller folded the extra digests beside it
 * (digest_store), as a read failing there would. */
extern int facts_test_fail_entities;
#endif

#endif
