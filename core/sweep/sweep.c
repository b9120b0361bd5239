/*
 * sweep.c: find contradicting facts and record them (SPEC 3.1-3.5).
 *
 * The sweep never compares rows pairwise across the store. It streams
 * every taking-part row once, asks slot.c what the row claims, and keeps
 * only a 40-byte record per claim: 64-bit hashes of its slot, its
 * cross-layer key and its normalised value, plus the row's rowid. One
 * pass through a hash table keyed by slot (O(n)) finds the slots holding
 * more than one value; only their records are sorted, and only their
 * rows are read again, in full, to decide members, time windows and
 * conflicts_with, and to be reconciled with the conflicts already
 * recorded. No row text is held beyond the slot being looked at. All of
 * it is one BEGIN IMMEDIATE transaction, retried whole on SQLITE_BUSY.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/parallel.h"
#include "store/facts.h"
#include "store/storerow.h"
#include "store/undo.h"
#include "sweep/conflict.h"
#include "sweep/factrow.h"
#include "sweep/normalize.h"
#include "sweep/scope.h"
#include "sweep/slot.h"
#include "sweep/sweep.h"
#include "sys/jobs.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/hashtab.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Give up after this many whole-transaction retries on SQLITE_BUSY. */
#define SWEEP_MAX_ATTEMPTS 8

/* Where a claim comes from; each source has a scan and a one-row query. */
enum source { SRC_STATE, SRC_ENTITY, SRC_EDGE, SRC_MEMORY, SRC_N };

/* One claim, compactly: what the grouping needs, and where to find the
 * row again. A hash of 0 means "none". */
struct rec {
	uint64_t slot_h;      /* slot; 0 for state (its slot is its x key) */
	uint64_t x_h;         /* cross-layer (project, key); 0 when none */
	uint64_t norm_h;      /* normalised value */
	sqlite3_int64 rowid;  /* in the source's table */
	unsigned char src;    /* enum source */
	unsigned char layer;  /* enum fact_layer */
};

/* One line of temp.project_alias. */
struct alias {
	char *name, *canonical;
};

/* An entry of the alias table: a hash of name, and where it is. */
struct alias_ent {
	uint64_t key;
	size_t i;                    /* in sweep_ctx.alias */
};

/* One claim of a disagreeing slot, read again in full. */
struct grow {
	enum fact_layer layer;
	char *id, *slot_kind, *slot, *xkey, *project, *value, *norm;
	uint64_t x_h;
	int has_from, has_until;
	long long from, until;
	int member;                  /* disagrees with an overlapping row */
	const char *conflicts_with;  /* id of the higher-trust row, or NULL */
};

struct group {
	struct grow *r;
	size_t n, cap;
};

struct sweep_ctx {
	mirror_store *st;
	sqlite3 *db;
	time_t now;
	char ts[MIRROR_TS_LEN];
	struct sweep_run *run;
	const struct sweep_scope *scope;  /* NULL: every project */
	int by_rows;                 /* the scope's rows are in sweep_rows */
	const struct rule_set *rules;     /* NULL: none run */
	struct rule_counts rk;            /* what they did this attempt */
	struct rules_job *job;             /* rules_start .. rules_finish */
	struct rules_job *early;           /* the caller's, not yet taken */
	struct store_undo *undo;           /* the caller's record, or NULL */
	int busy;                    /* the last failure was a lock */
	int known_later;             /* 1: a memory claims any key, and
	                                scan_split drops the claims whose
	                                key state and entities lack */
	struct rec *recs;
	size_t nrecs, caprecs;
	/* Sets of hashes (hashtab entries of the key alone). */
	struct hashtab known;        /* x keys of state and entities */
	struct hashtab xdone;        /* x keys that made a cross conflict */
	struct hashtab decided;      /* slots with a conflict a reviewer
	                                closed, so most slots skip a lookup */
	struct alias *alias;         /* temp.project_alias */
	size_t nalias;
	struct hashtab alias_tab;    /* of alias_ent, by hash of name */
	sqlite3_stmt *one[SRC_N];    /* read one row again, by rowid */
	sqlite3_stmt *seen_ins;
	sqlite3_stmt *open_get, *closed_get, *cmembers_get, *conf_ins;
	sqlite3_stmt *mem_ins, *cw_upd, *id_exists;
};

static int
sfail(struct sweep_ctx *c, mirror_error *err, int rc, const char *what)
{
	int prim = rc & 0xff;

	c->busy = prim == SQLITE_BUSY || prim == SQLITE_LOCKED;
	return store_fail(c->st, err, rc, what);
}

static int
exec(struct sweep_ctx *c, const char *sql, mirror_error *err)
{
	int rc = sqlite3_exec(c->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : sfail(c, err, rc, "sweep");
}

static int
prep(struct sweep_ctx *c, sqlite3_stmt **s, const char *sql,
    mirror_error *err)
{
	int rc = sqlite3_prepare_v2(c->db, sql, -1, s, NULL);

	return rc == SQLITE_OK ? 0 : sfail(c, err, rc, "sweep: prepare");
}

/* Step a statement that returns no row, then reset it. */
static int
step_done(struct sweep_ctx *c, sqlite3_stmt *s, mirror_error *err)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return 0;
	return sfail(c, err, rc, "sweep: write");
}

static void
bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v != NULL)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

static const char *
ctext(sqlite3_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(s, i);
}

/* Hashes as the records keep them; 0 is kept for "none". */
static uint64_t
nonzero(uint64_t h)
{
	return h != 0 ? h : 1;
}

static uint64_t
h2(const char *a, const char *b)
{
	return nonzero(hash_add_str(hash_add_str(MIRROR_HASH_INIT, a), b));
}

static uint64_t
h1(const char *a)
{
	return nonzero(hash_add_str(MIRROR_HASH_INIT, a));
}

/* Whether set s holds hash h. */
static int
has(const struct hashtab *s, uint64_t h)
{
	return hashtab_get(s, h) != NULL;
}

/* ---- the rows ---------------------------------------------------------- */

/*
 * Every query yields: 0 id, 1 type, 2 project (as stored: row_claim
 * canonicalises it through the alias map, cheaper than a subquery per
 * row), 3 name, 4 text, 5 properties, 6 parent, 7 component,
 * 8 valid_until, 9 rowid.
 */

#define STATE_SELECT \
	"SELECT s.id, s.category, s.project, s.key, s.value, " \
	"NULL, NULL, NULL, NULL, s.rowid FROM main.project_state s "

#define ENTITY_SELECT \
	"SELECT e.id, e.entity_type, e.project, e.name, " \
	"e.description, e.properties, CASE WHEN e.entity_type IN " \
	"('subsystem', 'component') THEN (SELECT group_concat(parent, ', ') " \
	"FROM (SELECT parent FROM temp.sweep_parent WHERE child = e.id " \
	"ORDER BY parent)) END, NULL, NULL, e.rowid FROM main.entities e "

/* A component's uses_material edges: each claims its material. */
#define EDGE_SELECT \
	"SELECT m.id, m.entity_type, c.project, m.name, " \
	"m.description, m.properties, NULL, c.name, NULL, r.rowid " \
	"FROM main.relationships r " \
	"JOIN main.entities c ON c.id = r.source_entity_id " \
	"JOIN main.entities m ON m.id = r.target_entity_id "

#define EDGE_WHERE \
	"r.relationship_type = 'uses_material' AND c.status = 'active' " \
	"AND m.status = 'active' AND m.entity_type = 'material'"

#define MEMORY_SELECT(vu) \
	"SELECT m.id, m.memory_type, m.project, NULL, " \
	"m.content, NULL, NULL, NULL, " vu ", m.rowid FROM main.memories m "

/* The scans of every row, each followed by st, en, ed, me (a scope). */
#define SCANS(st, en, ed, me) { \
	[SRC_STATE] = STATE_SELECT "WHERE s.status = 'active'" st, \
	[SRC_ENTITY] = ENTITY_SELECT "WHERE e.status = 'active'" en, \
	[SRC_EDGE] = EDGE_SELECT "WHERE " EDGE_WHERE ed, \
	[SRC_MEMORY] = MEMORY_SELECT("m.valid_until") \
	    "WHERE m.status = 'active'" me, \
}

/* [0] every row, [1] the rows of a scoped sweep (scope.h), [2] the
 * same looked up by their row ids (SCOPE_ROWS); an edge's claim belongs
 * to its component's project. */
#define MEM_SCOPE SCOPE_HAS("m.project")
#define MEM_ROWS MEM_SCOPE SCOPE_ROWS("m.rowid", 3)
static const char *const scan_sql[3][SRC_N] = {
	SCANS("", "", "", ""),
	SCANS(SCOPE_HAS("s.project"), SCOPE_HAS("e.project"),
	    SCOPE_HAS("c.project"), MEM_SCOPE),
	SCANS(SCOPE_HAS("s.project") SCOPE_ROWS("s.rowid", 0),
	    SCOPE_HAS("e.project") SCOPE_ROWS("e.rowid", 1),
	    SCOPE_HAS("c.project") SCOPE_ROWS("r.rowid", 2), MEM_ROWS),
};

static const char *const one_sql[SRC_N] = {
	[SRC_STATE] = STATE_SELECT "WHERE s.rowid = ?1",
	[SRC_ENTITY] = ENTITY_SELECT "WHERE e.rowid = ?1",
	[SRC_EDGE] = EDGE_SELECT "WHERE r.rowid = ?1",
	[SRC_MEMORY] = MEMORY_SELECT("NULL") "WHERE m.rowid = ?1",
};

/* For stores without the optional memories.valid_until. */
#define MEM_NO_EXPIRY MEMORY_SELECT("NULL") "WHERE m.status = 'active'"
static const char *const memory_scan_no_expiry[3] = {
	MEM_NO_EXPIRY, MEM_NO_EXPIRY MEM_SCOPE, MEM_NO_EXPIRY MEM_ROWS,
};

static const enum fact_layer src_layer[SRC_N] = {
	[SRC_STATE] = LAYER_STATE, [SRC_ENTITY] = LAYER_ENTITY,
	[SRC_EDGE] = LAYER_ENTITY, [SRC_MEMORY] = LAYER_MEMORY,
};

/* Column names of 0..4 in each layer's table, for error messages. */
static const char *const colname[4][5] = {
	[LAYER_MEMORY] = { "id", "memory_type", "project", "-", "content" },
	[LAYER_ENTITY] = { "id", "entity_type", "project", "name",
	    "description" },
	[LAYER_STATE] = { "id", "category", "project", "key", "value" },
};

/* Columns that must not be NULL, per layer (-1 ends). */
static const int required[4][4] = {
	[LAYER_MEMORY] = { 0, 1, 4, -1 },
	[LAYER_ENTITY] = { 0, 1, 3, -1 },
	[LAYER_STATE] = { 0, 3, 4, -1 },
};

static const char temp_ddl[] =
	"DROP TABLE IF EXISTS temp.sweep_parent;"
	"DROP TABLE IF EXISTS temp.sweep_seen;"
	"CREATE TEMP TABLE sweep_parent (child TEXT, parent TEXT);"
	"CREATE TEMP TABLE sweep_seen (id TEXT PRIMARY KEY) WITHOUT ROWID;";

/* The part_of parents the entity scan reads (ENTITY_SELECT): [0] every
 * edge's; [1] a scope's by its row ids (SCOPE_ROWS), whose edges are
 * listed under the projects of both ends, so under a scanned child's. */
#define PARENT_INDEX \
	"CREATE INDEX temp.sweep_parent_child ON sweep_parent(child, parent);"
static const char *const parent_fill[2] = {
	"INSERT INTO temp.sweep_parent " FACTROW_PARENT_ROWS ";" PARENT_INDEX,
	"INSERT INTO temp.sweep_parent " FACTROW_PARENT_ROWS
	    SCOPE_ROWS("r.rowid", 2) ";" PARENT_INDEX,
};

static const char temp_drop[] =
	"DROP TABLE IF EXISTS temp.sweep_parent;"
	"DROP TABLE IF EXISTS temp.sweep_seen;"
	SCOPE_DROP;

static int
prepare_all(struct sweep_ctx *c, mirror_error *err)
{
	int rc;

	for (int i = 0; i < SRC_N; i++) {
		const char *sql = one_sql[i];

		if (i == SRC_MEMORY && !store_features(c->st)->mem_valid_until)
			sql = MEMORY_SELECT("NULL") "WHERE m.rowid = ?1";
		if ((rc = prep(c, &c->one[i], sql, err)) < 0)
			return rc;
	}
	if ((rc = prep(c, &c->seen_ins, "INSERT OR IGNORE INTO "
	    "temp.sweep_seen VALUES(?1)", err)) < 0 ||
	    (rc = prep(c, &c->open_get, "SELECT id FROM main.conflicts "
	    "WHERE slot_kind = ?1 AND slot_key = ?2 AND status = 'open'",
	    err)) < 0 ||
	    (rc = prep(c, &c->closed_get, "SELECT id FROM main.conflicts "
	    "WHERE slot_kind = ?1 AND slot_key = ?2 AND status IN "
	    "('resolved', 'dismissed') AND resolved_by <> 'sweep' "
	    "ORDER BY detected_at DESC, id DESC", err)) < 0 ||
	    (rc = prep(c, &c->cmembers_get, "SELECT member_kind, member_id, "
	    "value_snapshot FROM main.conflict_members WHERE conflict_id = ?1",
	    err)) < 0 ||
	    (rc = prep(c, &c->conf_ins, "INSERT INTO main.conflicts(id, "
	    "detected_at, slot_kind, slot_key, project, status, resolution, "
	    "resolved_by) VALUES(?1, ?2, ?3, ?4, ?5, 'open', '', '')",
	    err)) < 0 ||
	    (rc = prep(c, &c->mem_ins, "INSERT OR IGNORE INTO "
	    "main.conflict_members(conflict_id, member_kind, member_id, "
	    "member_layer_trust, value_snapshot, conflicts_with) "
	    "VALUES(?1, ?2, ?3, ?4, ?5, ?6)", err)) < 0 ||
	    (rc = prep(c, &c->cw_upd, "UPDATE main.conflict_members SET "
	    "conflicts_with = ?4 WHERE conflict_id = ?1 AND member_kind = ?2 "
	    "AND member_id = ?3 AND conflicts_with IS NOT ?4", err)) < 0 ||
	    (rc = prep(c, &c->id_exists, "SELECT 1 FROM main.conflicts "
	    "WHERE id = ?1", err)) < 0)
		return rc;
	return 0;
}

static void
finalize_all(struct sweep_ctx *c)
{
	sqlite3_stmt **all[] = { &c->seen_ins, &c->open_get, &c->closed_get,
	    &c->cmembers_get, &c->conf_ins, &c->mem_ins, &c->cw_upd,
	    &c->id_exists };

	for (int i = 0; i < SRC_N; i++) {
		sqlite3_finalize(c->one[i]);
		c->one[i] = NULL;
	}
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		sqlite3_finalize(*all[i]);
		*all[i] = NULL;
	}
}

/* Parse a window bound; unparsable or empty bounds are open. */
static int
bound(long long *out, const char *s)
{
	time_t t;

	if (s == NULL || mirror_parse_ts(&t, s) != 0)
		return 0;
	*out = (long long)t;
	return 1;
}

/* Read temp.project_alias (built by store_open) into a hash table:
 * every name, or with scoped 1 those of the projects of the scope
 * (temp.sweep_scope), the only ones whose rows a scoped sweep reads.
 * Returns 0 or < 0 with err set. */
static int
load_aliases(struct sweep_ctx *c, int scoped, mirror_error *err)
{
	sqlite3_stmt *s = NULL;
	size_t cap = 0;
	int rc;

	if ((rc = prep(c, &s, scoped ? "SELECT name, canonical FROM ("
	    SCOPE_ALIAS_ROWS ") WHERE name IS NOT NULL" : "SELECT name, canonical "
	    "FROM temp.project_alias WHERE name IS NOT NULL AND canonical IS "
	    "NOT NULL", err)) < 0)
		return rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct alias *a = &ARRAY_PUSH(c->alias, c->nalias, cap);
		struct alias_ent *e;

		a->name = xstrdup(ctext(s, 0));
		a->canonical = xstrdup(ctext(s, 1));
		/* Two names may share a hash: each gets its entry. */
		e = hashtab_add(&c->alias_tab, h1(a->name));
		e->i = c->nalias - 1;
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : sfail(c, err, rc, "sweep: aliases");
}

/* The canonical project of a stored project name (SPEC 3.1): an alias
 * maps to its project, an unlisted name stays, NULL is ''. */
static const char *
canonical(const struct sweep_ctx *c, const char *project)
{
	const struct alias_ent *e;

	if (project == NULL)
		return "";
	if (c->nalias == 0)
		return project;
	for (e = hashtab_get(&c->alias_tab, h1(project)); e != NULL;
	    e = hashtab_next(&c->alias_tab, e)) {
		const struct alias *a = &c->alias[e->i];

		if (strcmp(a->name, project) == 0)
			return a->canonical;
	}
	return project;
}

/* slot_known_fn over the state and entity claims scanned before. */
static int
known_key(void *arg, const char *project, const char *key, mirror_error *err)
{
	struct sweep_ctx *c = arg;

	(void)err;
	return c->known_later || has(&c->known, h2(project, key));
}

/* A row read for the sweep: the fact it states and the claim it makes
 * (release it with claim_free). */
struct claimed_row {
	struct fact f;
	struct claim cl;
};

/* Columns of a scan's row that row_claim reads: 0..7 the fact's text,
 * 8 a memory's valid_until. */
#define ROW_COLS 9

/*
 * Read each of the columns 0..8 of the current row of s once, as text,
 * into t (NULL for an SQL NULL), and check them as every reader checks
 * them: layer's required columns not NULL, 0..7 valid UTF-8 without a
 * NUL. Returns 0, or < 0 with err naming the store, table and row.
 */
static int
row_texts(const char **t, struct sweep_ctx *c, sqlite3_stmt *s,
    enum fact_layer layer, mirror_error *err)
{
	static const char *const more[3] = { "properties", "part_of parent",
	    "component" };
	const char *table = layer_table(layer), *id, *bad;
	int oom = -1;

	/* A NULL text is an SQL NULL, or a conversion out of memory that
	 * leaves its mark in the connection's error code. */
	for (int i = 0; i < ROW_COLS; i++) {
		t[i] = (const char *)sqlite3_column_text(s, i);
		if (t[i] == NULL && oom < 0 &&
		    sqlite3_errcode(sqlite3_db_handle(s)) == SQLITE_NOMEM)
			oom = i;
	}
	id = t[0] != NULL ? t[0] : "(NULL id)";
	for (const int *r = required[layer]; *r >= 0; r++)
		if (t[*r] == NULL && *r != oom)
			return mirror_fail(err, MIRROR_EINPUT, "store %s: %s row "
			    "'%s': %s is NULL", store_path(c->st), table, id,
			    colname[layer][*r]);
	for (int i = 0; i < 8; i++) {
		if (i == oom)
			return mirror_fail(err, MIRROR_EIO, "store %s: out of "
			    "memory reading %s", store_path(c->st), table);
		if (t[i] == NULL)
			continue;
		bad = storerow_text_problem((const unsigned char *)t[i],
		    (size_t)sqlite3_column_bytes(s, i));
		if (bad != NULL)
			return mirror_fail(err, MIRROR_EINPUT, "store %s: %s row "
			    "'%s': %s %s", store_path(c->st), table,
			    i == 0 || t[0] == NULL ? "?" : t[0],
			    i < 5 ? colname[layer][i] : more[i - 5], bad);
	}
	return 0;
}

/*
 * Fill out->f from the current row of s (of source src) and compute
 * its claim. Returns 1 with out->cl filled, 0 when the row claims
 * nothing (or, in a scan, is an expired memory), < 0 with err naming
 * the store and the row.
 */
static int
row_claim(struct claimed_row *out, struct sweep_ctx *c, sqlite3_stmt *s,
    enum source src, mirror_error *err)
{
	struct fact *f = &out->f;
	struct claim *cl = &out->cl;
	enum fact_layer layer = src_layer[src];
	const char *t[ROW_COLS];
	char msg[sizeof(err->msg)];
	long long vu;
	int rc;

	memset(cl, 0, sizeof(*cl));
	if ((rc = row_texts(t, c, s, layer, err)) < 0)
		return rc;
	/* An expired memory takes no part (SPEC 3.1). */
	if (layer == LAYER_MEMORY && bound(&vu, t[8]) &&
	    vu < (long long)c->now)
		return 0;
	memset(f, 0, sizeof(*f));
	f->layer = layer;
	f->id = t[0];
	f->type = t[1];
	f->project = canonical(c, t[2]);
	f->name = t[3];
	f->text = t[4];
	f->properties = t[5];
	f->parent = t[6];
	f->component = t[7];
	rc = slot_claim(cl, f, known_key, c, err);
	if (rc < 0) {
		/* slot.c names the row; add the store. */
		memcpy(msg, err->msg, sizeof(msg));
		rc = mirror_fail(err, -rc, "store %s: %s", store_path(c->st),
		    msg);
	}
	return rc;
}

static void
rec_add(struct sweep_ctx *c, const struct claimed_row *row, enum source src,
    sqlite3_int64 rowid)
{
	const struct fact *f = &row->f;
	const struct claim *cl = &row->cl;
	struct rec *r = &ARRAY_PUSH(c->recs, c->nrecs, c->caprecs);

	r->slot_h = strcmp(cl->slot_kind, "cross_layer") == 0 ? 0 :
	    h2(cl->slot_kind, cl->slot);
	r->x_h = cl->xkey != NULL ? h2(f->project, cl->xkey) : 0;
	r->norm_h = h1(cl->norm);
	r->rowid = rowid;
	r->src = (unsigned char)src;
	r->layer = (unsigned char)f->layer;
}

/* Stream one source, keeping a record per claim. */
static int
scan(struct sweep_ctx *c, enum source src, mirror_error *err)
{
	int scoped = c->scope == NULL ? 0 : c->by_rows ? 2 : 1;
	const char *sql = scan_sql[scoped][src];
	sqlite3_stmt *s = NULL;
	int rc;

	_Static_assert(FACTS_ROWS_STATE == 0 && FACTS_ROWS_ENTITIES == 1 &&
	    FACTS_ROWS_RELATIONSHIPS == 2 && FACTS_ROWS_MEMORIES == 3,
	    "scan_sql's table numbers");
	if (src == SRC_MEMORY && !store_features(c->st)->mem_valid_until)
		sql = memory_scan_no_expiry[scoped];
	if ((rc = prep(c, &s, sql, err)) < 0)
		return rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct claimed_row row;

		if (src != SRC_EDGE)
			c->run->facts_scanned++;
		if ((rc = row_claim(&row, c, s, src, err)) < 0)
			goto out;
		if (rc == 1) {
			rec_add(c, &row, src, sqlite3_column_int64(s, 9));
			claim_free(&row.cl);
		}
	}
	rc = rc == SQLITE_DONE ? 0 : sfail(c, err, rc, "sweep: read");
out:
	sqlite3_finalize(s);
	return rc;
}

/* 1 when the caller read the scope (sweep_scope: its count, its row
 * ids) from the store as it is: counted, and no other connection
 * committed since (under the sweep's write lock, none can now); else 0. */
static int
scope_current(struct sweep_ctx *c)
{
	mirror_error ignored;
	long long v;

	return c->scope->counted && store_data_version(&v, c->st,
	    &ignored) == 0 && v == c->scope->version;
}

/* 1 when the caller's read checked the conflicts' rows (sweep_scope's
 * checked) and is current (scope_current); else 0. */
static int
scope_checked(struct sweep_ctx *c)
{
	return c->scope != NULL && c->scope->checked && scope_current(c);
}

/* Each cross-layer key of recs[0..n) into c->known: the keys a
 * memory may claim. */
static void
known_from(struct sweep_ctx *c, const struct rec *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (recs[i].x_h != 0)
			(void)hashtab_put(&c->known, recs[i].x_h, NULL);
}

/* The scans of a full sweep but the entities', with a context of its
 * own: the sweep's (its aliases, clock and features, only read), but
 * its own records, count and (when it runs in parallel) connection. */
struct side_scan {
	struct sweep_ctx c;
	struct sweep_run run;
	size_t n_state, n_edge;      /* records of the first two sources */
	int state_failed;            /* the first source's scan failed */
	int beside;                  /* on a thread of its own: it holds
	                                a core (jobs_side_begin) */
};

/* store_parallel_fn: scan state, relationships and memories on st, a
 * memory claiming any key (known_later). */
static int
side_scan_on(void *arg, mirror_store *st, mirror_error *err)
{
	struct side_scan *o = arg;
	int rc;

	if (o->beside)
		jobs_side_begin();
	o->c.st = st;
	o->c.db = store_db(st);
	rc = scan(&o->c, SRC_STATE, err);
	o->n_state = o->c.nrecs;
	if (rc < 0)
		o->state_failed = 1;
	else {
		rc = scan(&o->c, SRC_EDGE, err);
		o->n_edge = o->c.nrecs - o->n_state;
	}
	if (rc == 0) {
		o->c.known_later = 1;
		rc = scan(&o->c, SRC_MEMORY, err);
	}
	if (o->beside)
		jobs_side_end();
	return rc;
}

/*
 * scan_all's full sweep on two cores: the entities (two fifths of the
 * rows, the costliest to claim, and the only scan that reads the
 * sweep's temporary table) here, the rest on a second connection at
 * once; a memory claims any key there, and the claims of keys that no
 * state or entity claims are dropped once both are in. c->recs ends as
 * sequential scans leave it (the sources in their order, each in its
 * rows' order), and a failure is the one they would report: the first
 * source's. Under the write lock, before the sweep changes anything
 * (store_parallel_start_locked); with one core or no second connection,
 * the rest is scanned here after the entities. Returns 0 or < 0 with
 * err set.
 */
static int
scan_split(struct sweep_ctx *c, mirror_error *err)
{
	struct side_scan o = { .c = *c };
	struct store_parallel *b;
	mirror_error side_err;
	size_t n_ent, k;
	struct rec *all;
	int rc, side_rc = 0;

	o.c.recs = NULL;
	o.c.nrecs = o.c.caprecs = 0;
	o.c.busy = 0;
	o.c.run = &o.run;
	mirror_error_clear(&side_err);
	/* The rules beside the sweep wait while it runs (jobs.h). */
	o.beside = 1;
	b = store_parallel_start_locked(c->st, side_scan_on, &o);
	rc = scan(c, SRC_ENTITY, err);
	c->run->scan_parallel = store_parallel_join(b, &side_rc, &side_err);
	o.beside = 0;
	if (!c->run->scan_parallel)
		side_rc = side_scan_on(&o, c->st, &side_err);
	/* State comes before the entities, relationships and memories
	 * after them. */
	if (side_rc < 0 && (o.state_failed || rc == 0)) {
		*err = side_err;
		c->busy = o.c.busy;
		rc = side_rc;
	}
	if (rc < 0) {
		free(o.c.recs);
		return rc;
	}
	c->run->facts_scanned += o.run.facts_scanned;
	/* State, entities, relationships, then the memories whose keys
	 * those claim. */
	n_ent = c->nrecs;
	all = xcalloc(o.c.nrecs + n_ent + 1, sizeof(*all));
	k = 0;
	for (size_t i = 0; i < o.n_state; i++)
		all[k++] = o.c.recs[i];
	for (size_t i = 0; i < n_ent; i++)
		all[k++] = c->recs[i];
	for (size_t i = o.n_state; i < o.n_state + o.n_edge; i++)
		all[k++] = o.c.recs[i];
	known_from(c, all, k);
	/* group_load claims each row again, so a memory of a key nobody
	 * claims would come to nothing there too; dropped here, it is not
	 * read again. */
	for (size_t i = o.n_state + o.n_edge; i < o.c.nrecs; i++)
		if (o.c.recs[i].x_h == 0 || has(&c->known, o.c.recs[i].x_h))
			all[k++] = o.c.recs[i];
	free(o.c.recs);
	free(c->recs);
	c->recs = all;
	c->caprecs = o.c.nrecs + n_ent + 1;
	c->nrecs = k;
	return 0;
}

/*
 * Scan every source into c->recs: a full sweep on two cores
 * (scan_split); a scoped sweep, whose scope is a temporary table of this
 * connection, here, after building its scope (scope.c), and it reports
 * the active rows of the whole store, as a full sweep does. Returns 0 or
 * < 0 with err set.
 */
static int
scan_all(struct sweep_ctx *c, mirror_error *err)
{
	int rc, current = c->scope != NULL && scope_current(c);

	c->by_rows = 0;
	if (c->scope != NULL &&
	    (rc = scope_build(c->db, c->scope->projects, c->scope->n,
	    current ? c->scope->rows : NULL, &c->by_rows)) != SQLITE_OK)
		return sfail(c, err, rc, "sweep: scope");
	c->run->scope_by_rows = c->by_rows;
	if ((rc = exec(c, parent_fill[c->by_rows != 0], err)) < 0 ||
	    (rc = load_aliases(c, c->scope != NULL, err)) < 0)
		return rc;
	if (c->scope == NULL)
		return scan_split(c, err);
	if ((rc = scan(c, SRC_STATE, err)) < 0 ||
	    (rc = scan(c, SRC_ENTITY, err)) < 0 ||
	    (rc = scan(c, SRC_EDGE, err)) < 0)
		return rc;
	/* Memories only join keys that state or entities have. */
	known_from(c, c->recs, c->nrecs);
	if ((rc = scan(c, SRC_MEMORY, err)) < 0)
		return rc;
	/* The caller's count of the active rows stands while its read is
	 * current; else the sweep counts them. */
	if (current)
		c->run->facts_scanned = c->scope->active_facts;
	else if ((rc = scope_count_facts(c->db, &c->run->facts_scanned)) !=
	    SQLITE_OK)
		return sfail(c, err, rc, "sweep: count facts");
	return 0;
}

/* ---- groups ------------------------------------------------------------ */

static void
group_clear(struct group *g)
{
	for (size_t i = 0; i < g->n; i++) {
		struct grow *r = &g->r[i];

		free(r->id);
		free(r->slot_kind);
		free(r->slot);
		free(r->xkey);
		free(r->project);
		free(r->value);
		free(r->norm);
	}
	g->n = 0;
}

static char *
dup_col(sqlite3_stmt *s, int i)
{
	const char *t = ctext(s, i);

	return xstrdup(t != NULL ? t : "");
}

/* A column of a row mirror wrote, as a message names it: table, row
 * id and member (either may be NULL), column, and where the statement
 * that reads it back has it; its values are checked against valid when
 * not NULL. */
struct written_col {
	const char *table;
	const char *id;
	const char *member;
	const char *col;
	int at;                         /* its index in the statement */
	const char *const *valid;
};

/*
 * Copy column w of s's current row into *out through the one column
 * checker. Returns 0 or -MIRROR_EINPUT naming store, table, row, column.
 */
static int
checked_col(char **out, struct sweep_ctx *c, sqlite3_stmt *s,
    const struct written_col *w, mirror_error *err)
{
	struct store_row r = { .st = c->st, .stmt = s, .table = w->table,
	    .id = w->id, .member = w->member, .err = err };

	return w->valid != NULL ? storerow_enum(out, &r, w->at, w->col,
	    w->valid) : storerow_text(out, &r, w->at, w->col, 0);
}

/* Read the rows of recs[0..n) again and add their claims to g. */
static int
group_load(struct sweep_ctx *c, struct group *g, const struct rec *recs,
    size_t n, mirror_error *err)
{
	int rc = 0;

	group_clear(g);
	for (size_t i = 0; i < n && rc == 0; i++) {
		sqlite3_stmt *s = c->one[recs[i].src];
		struct claimed_row row;
		const struct fact *f = &row.f;
		struct claim *cl = &row.cl;
		struct grow *r;

		sqlite3_bind_int64(s, 1, recs[i].rowid);
		rc = sqlite3_step(s);
		if (rc != SQLITE_ROW) {
			sqlite3_reset(s);
			return rc == SQLITE_DONE ? mirror_fail(err, MIRROR_EIO,
			    "store %s: a row vanished during the sweep",
			    store_path(c->st)) : sfail(c, err, rc,
			    "sweep: read a row");
		}
		rc = row_claim(&row, c, s, (enum source)recs[i].src, err);
		if (rc == 1) {
			r = &ARRAY_PUSH(g->r, g->n, g->cap);
			memset(r, 0, sizeof(*r));
			r->layer = f->layer;
			r->id = xstrdup(f->id);
			r->slot_kind = xstrdup(cl->slot_kind);
			r->slot = xstrdup(cl->slot);
			r->xkey = xstrdup(cl->xkey != NULL ? cl->xkey : "");
			r->project = xstrdup(f->project != NULL ? f->project :
			    "");
			r->value = cl->value;
			r->norm = cl->norm;
			cl->value = cl->norm = NULL;
			r->x_h = cl->xkey != NULL ? h2(r->project, cl->xkey) :
			    0;
			r->has_from = bound(&r->from, cl->valid_from);
			r->has_until = bound(&r->until, cl->valid_until);
			claim_free(cl);
			rc = 0;
		}
		sqlite3_reset(s);
	}
	return rc < 0 ? rc : 0;
}

/* The order within one group: highest trust (the layer) first, then
 * id. */
static int
cmp_trust_id(const struct grow *x, const struct grow *y)
{
	if (x->layer != y->layer)
		return (int)y->layer - (int)x->layer;
	return strcmp(x->id, y->id);
}

/* Claims of a cross-layer key in order: key, then trust, id. */
static int
cmp_cross(const void *a, const void *b)
{
	const struct grow *x = a, *y = b;
	int d;

	if ((d = strcmp(x->project, y->project)) != 0 ||
	    (d = strcmp(x->xkey, y->xkey)) != 0)
		return d;
	return cmp_trust_id(x, y);
}

/* Claims of a slot in order: slot, then trust, id. */
static int
cmp_own(const void *a, const void *b)
{
	const struct grow *x = a, *y = b;
	int d;

	if ((d = strcmp(x->slot_kind, y->slot_kind)) != 0 ||
	    (d = strcmp(x->slot, y->slot)) != 0)
		return d;
	return cmp_trust_id(x, y);
}

/* Two validity windows [from, until) overlap; open bounds are infinite. */
static int
overlap(const struct grow *a, const struct grow *b)
{
	return (!a->has_from || !b->has_until || a->from < b->until) &&
	    (!b->has_from || !a->has_until || b->from < a->until);
}

/*
 * Mark the members of rows r[0..n) (sorted trust first): a row is a
 * member when it disagrees with a row whose window overlaps its own. Its
 * conflicts_with is the first (highest-trust) such row of higher trust.
 * Returns the number of members.
 */
static size_t
mark_members(struct grow *r, size_t n)
{
	size_t members = 0;

	for (size_t i = 0; i < n; i++) {
		r[i].member = 0;
		r[i].conflicts_with = NULL;
		for (size_t j = 0; j < n; j++) {
			if (j == i || strcmp(r[i].norm, r[j].norm) == 0 ||
			    !overlap(&r[i], &r[j]))
				continue;
			r[i].member = 1;
			if (r[j].layer > r[i].layer &&
			    r[i].conflicts_with == NULL)
				r[i].conflicts_with = r[j].id;
		}
		members += (size_t)r[i].member;
	}
	return members;
}

/* Drop rows repeating the (layer, id) of the row before (a material seen
 * through its properties and through an edge). */
static size_t
dedupe(struct grow *r, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (k > 0 && r[k - 1].layer == r[i].layer &&
		    strcmp(r[k - 1].id, r[i].id) == 0 &&
		    strcmp(r[k - 1].norm, r[i].norm) == 0)
			continue;
		if (k != i) {
			struct grow t = r[k];

			r[k] = r[i];
			r[i] = t;
		}
		k++;
	}
	return k;
}

/* ---- recording --------------------------------------------------------- */

static int
member_insert(struct sweep_ctx *c, const char *cid, const struct grow *r,
    int *added, mirror_error *err)
{
	int rc;

	bind_text(c->mem_ins, 1, cid);
	bind_text(c->mem_ins, 2, layer_kind(r->layer));
	bind_text(c->mem_ins, 3, r->id);
	sqlite3_bind_int(c->mem_ins, 4, r->layer);
	bind_text(c->mem_ins, 5, r->value);
	bind_text(c->mem_ins, 6, r->conflicts_with);
	if ((rc = step_done(c, c->mem_ins, err)) < 0)
		return rc;
	*added = sqlite3_changes(c->db) > 0;
	if (*added) {
		c->run->rows_written++;
		return 0;
	}
	/* Already a member: keep conflicts_with current. */
	bind_text(c->cw_upd, 1, cid);
	bind_text(c->cw_upd, 2, layer_kind(r->layer));
	bind_text(c->cw_upd, 3, r->id);
	bind_text(c->cw_upd, 4, r->conflicts_with);
	if ((rc = step_done(c, c->cw_upd, err)) < 0)
		return rc;
	c->run->rows_written += sqlite3_changes(c->db);
	return 0;
}

/* A slot found disagreeing: its kind, key and project, its members
 * marked in r[0..n). */
struct found_slot {
	const char *kind;
	const char *key;
	const char *project;
	const struct grow *r;
	size_t n;
};

/*
 * Is every member of slot f covered, with the same value, by closed
 * conflict cid? Then a reviewer already decided this disagreement
 * (SPEC 3.5). Returns 1 when so, 0 when not, or < 0 with err set.
 */
static int
covered_by(struct sweep_ctx *c, const struct found_slot *f, const char *cid,
    mirror_error *err)
{
	const struct grow *r = f->r;
	size_t n = f->n, found = 0, members = 0;
	int rc;

	for (size_t i = 0; i < n; i++)
		members += (size_t)r[i].member;
	bind_text(c->cmembers_get, 1, cid);
	while ((rc = sqlite3_step(c->cmembers_get)) == SQLITE_ROW) {
		const char *k = ctext(c->cmembers_get, 0);
		const char *id = ctext(c->cmembers_get, 1);
		char *nv = norm_value(ctext(c->cmembers_get, 2));

		for (size_t i = 0; i < n; i++)
			if (r[i].member && k != NULL && id != NULL &&
			    layer_of_kind(k) == (int)r[i].layer &&
			    strcmp(r[i].id, id) == 0 &&
			    strcmp(r[i].norm, nv) == 0)
				found++;
		free(nv);
	}
	sqlite3_reset(c->cmembers_get);
	if (rc != SQLITE_DONE)
		return sfail(c, err, rc, "sweep: read conflict members");
	return found == members;
}

/*
 * The id of a new conflict on slot f (kind, key) whose members are
 * marked in f->r[0..n): 'c' and 10 hex digits of a hash of the slot and
 * of every member's (table, id, normalised value) as first detected. It
 * depends on the data alone, never on the clock or the order of rows,
 * so the same store swept at any time gets the same ids; a later
 * conflict on a slot that was decided differs in its members or their
 * values (an identical one is covered by the decision and never
 * opened), so it gets another id. A taken id (a hash collision, or an
 * id that another tool wrote) moves on deterministically. Returns 0, or
 * a negative mirror_status.
 */
static int
new_conflict_id(struct sweep_ctx *c, const struct found_slot *f,
    char out[16], mirror_error *err)
{
	const char *kind = f->kind, *key = f->key;
	const struct grow *r = f->r;
	size_t n = f->n;
	uint64_t members = 0, base;
	char mhex[17];

	for (size_t i = 0; i < n; i++)
		if (r[i].member)
			members += hash_mix(hash_add_str(hash_add_str(hash_add_str(
			    MIRROR_HASH_INIT, layer_kind(r[i].layer)), r[i].id),
			    r[i].norm));
	/* As text, so the id is the same on every byte order. */
	hash_hex(mhex, members);
	base = hash_add_str(hash_add_str(hash_add_str(MIRROR_HASH_INIT, kind),
	    key), mhex);
	return store_free_id(out, 16, &(struct store_id_space){ .st = c->st,
	    .taken = c->id_exists, .prefix = "c", .hexlen = 10 }, base, err);
}

/* Record the disagreeing slot f. Returns 0 or < 0 with err set. */
static int
record(struct sweep_ctx *c, const struct found_slot *f, mirror_error *err)
{
	const char *kind = f->kind, *key = f->key, *project = f->project;
	const struct grow *r = f->r;
	size_t n = f->n;
	char cid[16], **closed = NULL;
	size_t nclosed = 0, cap = 0;
	int rc, added, covered = 0;

	bind_text(c->open_get, 1, kind);
	bind_text(c->open_get, 2, key);
	rc = sqlite3_step(c->open_get);
	if (rc == SQLITE_ROW) {
		/* Ids written by other tools may be of any length. */
		char *open_id = dup_col(c->open_get, 0);

		sqlite3_reset(c->open_get);
		bind_text(c->seen_ins, 1, open_id);
		rc = step_done(c, c->seen_ins, err);
		for (size_t i = 0; i < n && rc == 0; i++) {
			if (!r[i].member)
				continue;
			rc = member_insert(c, open_id, &r[i], &added, err);
			c->run->members_added += rc == 0 && added;
		}
		free(open_id);
		return rc;
	}
	sqlite3_reset(c->open_get);
	if (rc != SQLITE_DONE)
		return sfail(c, err, rc, "sweep: read conflicts");
	if (!has(&c->decided, h2(kind, key)))
		goto open;

	bind_text(c->closed_get, 1, kind);
	bind_text(c->closed_get, 2, key);
	while ((rc = sqlite3_step(c->closed_get)) == SQLITE_ROW)
		ARRAY_PUSH(closed, nclosed, cap) = dup_col(c->closed_get, 0);
	sqlite3_reset(c->closed_get);
	rc = rc == SQLITE_DONE ? 0 : sfail(c, err, rc, "sweep: read conflicts");
	for (size_t i = 0; rc == 0 && i < nclosed && !covered; i++)
		if ((rc = covered_by(c, f, closed[i], err)) == 1) {
			covered = 1;
			rc = 0;
		}
	for (size_t i = 0; i < nclosed; i++)
		free(closed[i]);
	free(closed);
	if (rc < 0 || covered)
		return rc;
open:
	if ((rc = new_conflict_id(c, f, cid, err)) < 0)
		return rc;
	bind_text(c->conf_ins, 1, cid);
	bind_text(c->conf_ins, 2, c->ts);
	bind_text(c->conf_ins, 3, kind);
	bind_text(c->conf_ins, 4, key);
	bind_text(c->conf_ins, 5, project);
	if ((rc = step_done(c, c->conf_ins, err)) < 0)
		return rc;
	bind_text(c->seen_ins, 1, cid);
	if ((rc = step_done(c, c->seen_ins, err)) < 0)
		return rc;
	for (size_t i = 0; i < n; i++)
		if (r[i].member &&
		    (rc = member_insert(c, cid, &r[i], &added, err)) < 0)
			return rc;
	c->run->conflicts_opened++;
	c->run->rows_written++;
	return 0;
}

static int
cmp_rec_x(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->x_h != y->x_h)
		return x->x_h < y->x_h ? -1 : 1;
	if (x->norm_h != y->norm_h)
		return x->norm_h < y->norm_h ? -1 : 1;
	return x->rowid < y->rowid ? -1 : x->rowid > y->rowid;
}

static int
cmp_rec_slot(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->slot_h != y->slot_h)
		return x->slot_h < y->slot_h ? -1 : 1;
	if (x->norm_h != y->norm_h)
		return x->norm_h < y->norm_h ? -1 : 1;
	return x->rowid < y->rowid ? -1 : x->rowid > y->rowid;
}

/* One key in the grouping table of pick(): a hashtab entry. */
struct gslot {
	uint64_t key;
	uint64_t norm;          /* the first value seen */
	unsigned char multi;    /* a second, different value was seen */
	unsigned char layers;   /* a bit per layer seen */
};

static uint64_t
rkey(const struct rec *r, int cross)
{
	return cross ? r->x_h : r->slot_h;
}

/* Whether the records of g take part: more than one value, and for a
 * cross key more than one layer or a state row. */
static int
picked(const struct gslot *g, int cross)
{
	return g->multi && (!cross || (g->layers & (1u << LAYER_STATE)) ||
	    (g->layers & (g->layers - 1)) != 0);
}

/*
 * Copy into *out (caller frees) the records whose key (x_h when cross,
 * else slot_h) holds more than one value, and for cross keys more than
 * one layer or a state row, sorted by key, value and rowid; returns
 * their number. One pass through a hash table, then a sort of the few
 * records that qualify: O(n) time, O(n) transient memory of 24 bytes
 * per key.
 */
static size_t
pick(struct rec **out, const struct rec *v, size_t n, int cross)
{
	struct hashtab t;
	size_t k = 0, cap = 0;

	hashtab_init(&t, sizeof(struct gslot));
	hashtab_reserve(&t, n);
	for (size_t i = 0; i < n; i++) {
		uint64_t key = rkey(&v[i], cross);
		struct gslot *g;
		int added;

		if (key == 0)
			continue;
		g = hashtab_put(&t, key, &added);
		if (added)
			g->norm = v[i].norm_h;
		else if (g->norm != v[i].norm_h)
			g->multi = 1;
		g->layers |= (unsigned char)(1u << v[i].layer);
	}
	for (size_t i = 0; i < n; i++) {
		const struct gslot *g = hashtab_get(&t, rkey(&v[i], cross));

		if (g != NULL && picked(g, cross))
			ARRAY_PUSH(*out, k, cap) = v[i];
	}
	hashtab_free(&t);
	if (k > 1)
		qsort(*out, k, sizeof(**out), cross ? cmp_rec_x : cmp_rec_slot);
	return k;
}

/*
 * Cross-layer keys: rows of two or more layers (or several state rows)
 * sharing (project, key) with more than one value.
 */
static int
find_cross(struct sweep_ctx *c, struct group *g, mirror_error *err)
{
	struct rec *v = NULL;
	size_t n = pick(&v, c->recs, c->nrecs, 1);
	int rc = 0;

	for (size_t a = 0, b; a < n; a = b) {
		int lo = 3, hi = 0;

		for (b = a; b < n && v[b].x_h == v[a].x_h; b++) {
			lo = v[b].layer < lo ? v[b].layer : lo;
			hi = v[b].layer > hi ? v[b].layer : hi;
		}
		/* Sorted by value within the key: first and last differ. */
		if (v[a].x_h == 0 || v[a].norm_h == v[b - 1].norm_h ||
		    (hi != LAYER_STATE && lo == hi))
			continue;
		if ((rc = group_load(c, g, v + a, b - a, err)) < 0)
			goto out;
		qsort(g->r, g->n, sizeof(*g->r), cmp_cross);
		/* Split by the real (project, key) in case of a collision. */
		for (size_t ga = 0, gb; ga < g->n; ga = gb) {
			struct grow *r = &g->r[ga];
			int layers = 0, state = 0;
			size_t m;

			for (gb = ga; gb < g->n &&
			    strcmp(g->r[gb].project, r->project) == 0 &&
			    strcmp(g->r[gb].xkey, r->xkey) == 0; gb++) {
				layers |= 1 << g->r[gb].layer;
				state |= g->r[gb].layer == LAYER_STATE;
			}
			m = dedupe(r, gb - ga);
			if ((!state && (layers & (layers - 1)) == 0) ||
			    mark_members(r, m) < 2)
				continue;
			{
				const char *parts[2] = { r->project, r->xkey };
				char *slot = slot_key_json(parts, 2);

				(void)hashtab_put(&c->xdone, r->x_h, NULL);
				rc = record(c, &(struct found_slot){
				    .kind = "cross_layer", .key = slot,
				    .project = r->project, .r = r, .n = m },
				    err);
				free(slot);
				if (rc < 0)
					goto out;
			}
		}
	}
out:
	free(v);
	return rc;
}

/* Same-layer slots (entity_slot, memory_slot) holding several values,
 * unless their cross-layer key already made a cross_layer conflict. */
static int
find_own(struct sweep_ctx *c, struct group *g, mirror_error *err)
{
	struct rec *v = NULL;
	size_t n = pick(&v, c->recs, c->nrecs, 0);
	int rc = 0;

	for (size_t a = 0, b; a < n; a = b) {
		for (b = a; b < n && v[b].slot_h == v[a].slot_h; b++)
			;
		if (v[a].slot_h == 0 || v[a].norm_h == v[b - 1].norm_h)
			continue;
		if ((rc = group_load(c, g, v + a, b - a, err)) < 0)
			goto out;
		qsort(g->r, g->n, sizeof(*g->r), cmp_own);
		for (size_t ga = 0, gb; ga < g->n; ga = gb) {
			struct grow *r = &g->r[ga];
			int joined = 0;
			size_t m;

			for (gb = ga; gb < g->n &&
			    strcmp(g->r[gb].slot_kind, r->slot_kind) == 0 &&
			    strcmp(g->r[gb].slot, r->slot) == 0; gb++)
				;
			m = dedupe(r, gb - ga);
			for (size_t i = 0; i < m && !joined; i++)
				joined = r[i].x_h != 0 &&
				    has(&c->xdone, r[i].x_h);
			if (joined || mark_members(r, m) < 2)
				continue;
			if ((rc = record(c, &(struct found_slot){
			    .kind = r->slot_kind, .key = r->slot,
			    .project = r->project, .r = r, .n = m }, err)) < 0)
				goto out;
		}
	}
out:
	free(v);
	return rc;
}

/* A member of a conflict as the conflict recorded it: its layer, id and
 * the value it claimed then. */
struct recorded_member {
	enum fact_layer layer;
	const char *id;
	const char *snapshot;
};

/* The row of the fact of layer and id into *out (factrow_read's
 * contract, through a reader of its own): an entity's part_of parents
 * from the scope's edges when the scope lists its rows (c->by_rows),
 * which hold every edge of an entity of a touching conflict (scope.c,
 * rule 2: its members' projects are in the scope), else from every
 * edge. */
static int
member_row(struct factrow *out, struct sweep_ctx *c, enum fact_layer layer,
    const char *id, mirror_error *err)
{
	struct factrow_reader *r;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = factrow_reader_open(&r, c->st, NULL, err)) < 0)
		return rc;
	if (c->by_rows)
		factrow_reader_edges(r, "SELECT rid FROM temp.sweep_rows "
		    "WHERE t = 2");
	rc = factrow_read(out, r, layer, id, err);
	factrow_reader_close(r);
	return rc;
}

/* Why member m no longer disagrees, appended to sb ("" when it still
 * claims what it claimed), the conflict it moved to found through
 * moved. Returns 0 or < 0 with err set. */
static int
member_reason(struct sweep_ctx *c, strbuf *sb, sqlite3_stmt *moved,
    const struct recorded_member *m, mirror_error *err)
{
	/* The member kind, as the resolution's words and SQL name it. */
	const char *kind = layer_kind(m->layer);
	const char *id = m->id, *snapshot = m->snapshot;
	struct factrow row;
	struct claim cl;
	const char *what = NULL;
	char *ns = NULL;
	long long vu;
	int rc;

	rc = member_row(&row, c, m->layer, id, err);
	if (rc < 0)
		goto out;
	if (rc == 0)
		what = "deleted";
	else if (row.status == NULL || strcmp(row.status, "active") != 0)
		what = row.status != NULL ? row.status : "without status";
	else if (row.f.layer == LAYER_MEMORY && bound(&vu, row.valid_until) &&
	    vu < (long long)c->now)
		what = "expired";
	if (what != NULL) {
		strbuf_printf(sb, "%s%s %s %s", sb->len ? "; " : "", kind, id,
		    what);
		rc = 0;
		goto out;
	}
	ns = norm_value(snapshot);
	if (factrow_claim(&cl, &row) == 0) {
		strbuf_printf(sb, "%s%s %s claims nothing now",
		    sb->len ? "; " : "", kind, id);
		rc = 0;
		goto out;
	}
	if (strcmp(cl.norm, ns) != 0)
		strbuf_printf(sb, "%s%s %s now says '%s'", sb->len ? "; " : "",
		    kind, id, cl.value);
	else {
		/* Unchanged, but counted in another conflict now (a slot
		 * that joined a cross-layer conflict). */
		bind_text(moved, 1, kind);
		bind_text(moved, 2, id);
		if (sqlite3_step(moved) == SQLITE_ROW)
			strbuf_printf(sb, "%s%s %s is now in conflict %s",
			    sb->len ? "; " : "", kind, id, ctext(moved, 0));
		sqlite3_reset(moved);
	}
	claim_free(&cl);
	rc = 0;
out:
	free(ns);
	factrow_free(&row);
	return rc;
}

/* The statements of close_vanished: the open conflicts not found
 * again (sel), a conflict's members (mem), the conflict found again
 * that holds a member now (moved), and the close (upd). */
struct closing {
	sqlite3_stmt *sel;
	sqlite3_stmt *mem;
	sqlite3_stmt *moved;
	sqlite3_stmt *upd;
};

/*
 * Why conflict cid, open but not found again, is gone, into why: each
 * member's reason (member_reason), its rows read through cl->mem
 * (checked column by column) and cl->moved. Returns 0 or < 0 with err
 * set.
 */
static int
vanished_reason(strbuf *why, struct sweep_ctx *c, const struct closing *cl,
    const char *cid, mirror_error *err)
{
	sqlite3_stmt *mem = cl->mem, *moved = cl->moved;
	int rc;

	bind_text(mem, 1, cid);
	while ((rc = sqlite3_step(mem)) == SQLITE_ROW) {
		char *k = NULL, *id = NULL, *snap = NULL;

		rc = checked_col(&id, c, mem, &(struct written_col){
		    .table = "conflict_members", .id = cid,
		    .col = "member_id", .at = 1 }, err);
		if (rc == 0)
			rc = checked_col(&k, c, mem, &(struct written_col){
			    .table = "conflict_members", .id = cid,
			    .member = id, .col = "member_kind", .at = 0,
			    .valid = storerow_member_kinds }, err);
		if (rc == 0)
			rc = checked_col(&snap, c, mem, &(struct written_col){
			    .table = "conflict_members", .id = cid,
			    .member = id, .col = "value_snapshot", .at = 2 },
			    err);
		if (rc == 0)
			rc = member_reason(c, why, moved, &(struct
			    recorded_member){ .layer = (enum fact_layer)
			    layer_of_kind(k), .id = id,
			    .snapshot = snap }, err);
		free(k);
		free(id);
		free(snap);
		if (rc < 0)
			break;
	}
	sqlite3_reset(mem);
	if (rc < 0)
		return rc;
	return rc == SQLITE_DONE ? 0 : sfail(c, err, rc, "sweep: read "
	    "members");
}

/* The open conflicts not found again (close_vanished's sel): [0] of a
 * full sweep; [1] of a scoped one, which may close only the touching
 * ones (scope.h: the others stand as found, but are not listed in
 * sweep_seen). */
static const char *const vanished_sql[2] = {
	"SELECT id FROM main.conflicts WHERE status = 'open' AND id NOT IN "
	"(SELECT id FROM temp.sweep_seen) ORDER BY id",
	"SELECT id FROM main.conflicts WHERE status = 'open' AND id IN "
	"(SELECT id FROM temp.sweep_touched) AND id NOT IN "
	"(SELECT id FROM temp.sweep_seen) ORDER BY id",
};

/* The conflict found again that holds member (?1, ?2) now
 * (close_vanished's moved): one listed in sweep_seen. A scoped sweep
 * lists only what it touched, and that is enough: member_reason asks
 * only for a member whose row still holds its value, so its project is
 * in the scope, and with it every open conflict holding the member is
 * touched (scope.c, rule 2), so found again or closed here
 * (test_sweep_scope, test_moved_member). */
/* Each conflict of sweep_seen looks its member up by its key (the
 * CROSS JOIN keeps that order: the members have no index on member_id,
 * and a scoped sweep's sweep_seen holds the few it touched). */
static const char moved_sql[] =
	"SELECT m.conflict_id FROM temp.sweep_seen s CROSS JOIN "
	"main.conflict_members m ON m.conflict_id = s.id WHERE "
	"m.member_kind = ?1 AND m.member_id = ?2 ORDER BY 1 LIMIT 1";

/* Close every open conflict this sweep did not find again. */
static int
close_vanished(struct sweep_ctx *c, mirror_error *err)
{
	struct closing cl = { NULL, NULL, NULL, NULL };
	char **ids = NULL;
	size_t n = 0, cap = 0;
	int rc;

	if ((rc = prep(c, &cl.sel, vanished_sql[c->scope != NULL], err)) < 0 ||
	    (rc = prep(c, &cl.mem, "SELECT member_kind, member_id, "
	    "value_snapshot FROM main.conflict_members WHERE conflict_id = "
	    "?1 ORDER BY member_layer_trust DESC, member_kind, member_id",
	    err)) < 0 ||
	    (rc = prep(c, &cl.moved, moved_sql, err)) < 0 ||
	    (rc = prep(c, &cl.upd, "UPDATE main.conflicts SET status = "
	    "'resolved', resolved_by = 'sweep', resolved_at = ?2, "
	    "resolution = ?3 WHERE id = ?1", err)) < 0)
		goto out;
	while ((rc = sqlite3_step(cl.sel)) == SQLITE_ROW) {
		ARRAY_RESERVE(ids, cap, n + 1);
		if ((rc = checked_col(&ids[n], c, cl.sel, &(struct written_col){
		    .table = "conflicts", .col = "id", .at = 0 }, err)) < 0)
			goto out;
		n++;
	}
	if (rc != SQLITE_DONE) {
		rc = sfail(c, err, rc, "sweep: read open conflicts");
		goto out;
	}
	rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		strbuf why, text;

		strbuf_init(&why);
		if ((rc = vanished_reason(&why, c, &cl, ids[i], err)) < 0) {
			strbuf_free(&why);
			break;
		}
		strbuf_init(&text);
		strbuf_printf(&text, "disagreement gone: %s", why.len ?
		    why.data : "the rows no longer disagree (or now belong "
		    "to another conflict)");
		strbuf_free(&why);
		bind_text(cl.upd, 1, ids[i]);
		bind_text(cl.upd, 2, c->ts);
		bind_text(cl.upd, 3, text.data);
		rc = step_done(c, cl.upd, err);
		strbuf_free(&text);
		c->run->conflicts_closed++;
		c->run->rows_written++;
	}
out:
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	sqlite3_finalize(cl.sel);
	sqlite3_finalize(cl.mem);
	sqlite3_finalize(cl.upd);
	sqlite3_finalize(cl.moved);
	return rc;
}

static int
count_open(struct sweep_ctx *c, long long *out, mirror_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	if ((rc = prep(c, &s, "SELECT count(*) FROM main.conflicts WHERE "
	    "status = 'open'", err)) < 0)
		return rc;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int64(s, 0);
		rc = 0;
	} else
		rc = sfail(c, err, rc, "sweep: count");
	sqlite3_finalize(s);
	return rc;
}

static long long
elapsed_ms(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (long long)(t1.tv_sec - t0->tv_sec) * 1000 +
	    (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * The run's id into run->id: "sweep-<compact started_at>-<n>", n one
 * more than the rows of sweep_runs, moved on while a run or rule_runs
 * rows hold it (a run someone deleted may have left those). Run inside
 * the write transaction, before anything records the id. Returns 0, or
 * < 0 with err set.
 */
static int
pick_run_id(struct sweep_ctx *c, mirror_error *err)
{
	struct sweep_run *run = c->run;
	sqlite3_stmt *cnt = NULL, *taken = NULL;
	char compact[MIRROR_TS_LEN];
	long long n = 0;
	size_t k = 0;
	int rc;

	for (const char *p = run->started_at; *p != '\0'; p++)
		if (*p != '-' && *p != ':')
			compact[k++] = *p == ' ' ? 'T' : *p;
	compact[k] = '\0';
	if ((rc = prep(c, &cnt, "SELECT count(*) FROM main.sweep_runs",
	    err)) < 0 ||
	    (rc = prep(c, &taken, "SELECT 1 FROM main.sweep_runs WHERE id = "
	    "?1 UNION ALL SELECT 1 FROM main.rule_runs WHERE sweep_run = ?1",
	    err)) < 0)
		goto out;
	if (sqlite3_step(cnt) == SQLITE_ROW)
		n = sqlite3_column_int64(cnt, 0);
	for (;;) {
		int w = snprintf(run->id, sizeof(run->id), "sweep-%s-%lld",
		    compact, ++n);

		if (w < 0 || (size_t)w >= sizeof(run->id)) {
			rc = mirror_fail(err, MIRROR_EIO, "internal: run id");
			goto out;
		}
		bind_text(taken, 1, run->id);
		rc = sqlite3_step(taken);
		sqlite3_reset(taken);
		if (rc == SQLITE_DONE) {
			rc = 0;
			break;
		}
		if (rc != SQLITE_ROW) {
			rc = sfail(c, err, rc, "sweep: run id");
			break;
		}
	}
out:
	sqlite3_finalize(cnt);
	sqlite3_finalize(taken);
	return rc;
}

/* The sweep_runs row, under the id pick_run_id chose. Returns 0 or < 0. */
static int
write_run(struct sweep_ctx *c, const struct timespec *t0, mirror_error *err)
{
	struct sweep_run *run = c->run;
	sqlite3_stmt *ins = NULL;
	time_t fin;
	int rc;

	if ((rc = prep(c, &ins, "INSERT INTO main.sweep_runs(id, started_at, "
	    "finished_at, duration_ms, rules_version, facts_scanned, "
	    "conflicts_opened, members_added, conflicts_closed, open_after) "
	    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", err)) < 0)
		return rc;
	if (mirror_clock(&fin, err) < 0)
		fin = c->now;
	mirror_error_clear(err);
	mirror_format_ts(run->finished_at, fin < c->now ? c->now : fin);
	run->duration_ms = elapsed_ms(t0);
	bind_text(ins, 1, run->id);
	bind_text(ins, 2, run->started_at);
	bind_text(ins, 3, run->finished_at);
	sqlite3_bind_int64(ins, 4, run->duration_ms);
	bind_text(ins, 5, run->rules_version);
	sqlite3_bind_int64(ins, 6, run->facts_scanned);
	sqlite3_bind_int64(ins, 7, run->conflicts_opened);
	sqlite3_bind_int64(ins, 8, run->members_added);
	sqlite3_bind_int64(ins, 9, run->conflicts_closed);
	sqlite3_bind_int64(ins, 10, run->open_after);
	rc = step_done(c, ins, err);
	sqlite3_finalize(ins);
	return rc;
}

/*
 * Start the rules, when the caller gave a set: before the sweep writes,
 * so that they may be evaluated in parallel with it (rules.h). The caller's
 * early job stands for the start when it read the snapshot this transaction
 * reads (rules_job_current); else it is abandoned. Returns 0 or < 0.
 */
static int
start_rules(struct sweep_ctx *c, mirror_error *err)
{
	struct rules_job *early = c->early;
	int rc;

	c->early = NULL;
	if (c->rules == NULL) {
		rules_abandon(early);
		return 0;
	}
	if (early != NULL) {
		rc = rules_job_current(early, c->st, c->rules, c->ts, err);
		if (rc == 1) {
			c->job = early;
			return 0;
		}
		rules_abandon(early);
		if (rc < 0)
			return rc;
	}
	return rules_start(&c->job, c->st, c->rules, c->ts, err);
}

/*
 * The rules, when the caller gave a set, as this run (pick_run_id has
 * chosen its id); their counts into the run. Returns 0 or < 0.
 */
static int
run_rules(struct sweep_ctx *c, mirror_error *err)
{
	struct rule_counts *k = &c->rk;
	int rc;

	if (c->rules == NULL)
		return 0;
	rc = rules_finish(k, c->job, c->run->id, err);
	c->job = NULL;
	if (rc < 0) {
		int prim = sqlite3_errcode(c->db) & 0xff;

		c->busy = prim == SQLITE_BUSY || prim == SQLITE_LOCKED;
		return rc;
	}
	c->run->violations_opened = k->opened;
	c->run->violations_closed = k->closed;
	c->run->violations_open_after = k->open_after;
	c->run->rules_failed = k->failed;
	c->run->rules_parallel = k->parallel;
	c->run->rules_kept = k->kept;
	c->run->rows_written += k->rows_written;
	return 0;
}

/* Release what one attempt gathered. */
static void
ctx_reset(struct sweep_ctx *c)
{
	free(c->recs);
	c->recs = NULL;
	c->nrecs = c->caprecs = 0;
	hashtab_free(&c->known);
	hashtab_free(&c->xdone);
	hashtab_free(&c->decided);
	hashtab_free(&c->alias_tab);
	for (size_t i = 0; i < c->nalias; i++) {
		free(c->alias[i].name);
		free(c->alias[i].canonical);
	}
	free(c->alias);
	c->alias = NULL;
	c->nalias = 0;
}

/* Remember which slots have a conflict closed by a reviewer: of a
 * scope whose rows are listed (c->by_rows), those of the conflicts
 * listed with them, which hold every slot of the scope's rows. */
static int
load_decided(struct sweep_ctx *c, mirror_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	if ((rc = prep(c, &s, c->by_rows ? "SELECT slot_kind, slot_key FROM "
	    "main.conflicts WHERE rowid IN (" SCOPE_CONFLICT_ROWIDS ") AND "
	    "status IN ('resolved', 'dismissed') AND resolved_by <> 'sweep'" :
	    "SELECT slot_kind, slot_key FROM main.conflicts "
	    "WHERE status IN ('resolved', 'dismissed') AND "
	    "resolved_by <> 'sweep'", err)) < 0)
		return rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		(void)hashtab_put(&c->decided, h2(ctext(s, 0), ctext(s, 1)),
		    NULL);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : sfail(c, err, rc,
	    "sweep: read conflicts");
}

/*
 * With rules, the sweep's connection keeps its dirty pages in memory
 * while the rules' connection reads in parallel with it (rules.h): cache_spill
 * off (on false) before BEGIN and on again after the transaction ends,
 * since SQLite applies the pragma to the pager only outside one. Without
 * rules it stays as it is. Returns nothing: a pragma that fails leaves
 * the default, spilling.
 */
static void
set_spill(struct sweep_ctx *c, int on)
{
	if (c->rules != NULL)
		(void)sqlite3_exec(c->db, on ? "PRAGMA main.cache_spill = 1" :
		    "PRAGMA main.cache_spill = 0", NULL, NULL, NULL);
}

/* One attempt: the whole sweep in one write transaction. */
static int
sweep_once(struct sweep_ctx *c, mirror_error *err)
{
	struct timespec t0;
	struct group g = { 0 };
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	c->busy = 0;
	set_spill(c, 0);
	if ((rc = exec(c, "BEGIN IMMEDIATE", err)) < 0) {
		set_spill(c, 1);
		return rc;
	}
	/* Checked at open, and again under the write lock, unless the
	 * caller's read checked them and no other connection committed
	 * since (sweep_scope). */
	if ((rc = store_undo_record(c->undo, c->st, err)) < 0 ||
	    (rc = store_check_triggers(c->st, err)) < 0 ||
	    (!scope_checked(c) && (rc = conflict_check(c->st, err)) < 0) ||
	    (rc = start_rules(c, err)) < 0 ||
	    (rc = exec(c, temp_ddl, err)) < 0 ||
	    (rc = prepare_all(c, err)) < 0 ||
	    (rc = scan_all(c, err)) < 0 ||
	    (rc = load_decided(c, err)) < 0 ||
	    (rc = find_cross(c, &g, err)) < 0 ||
	    (rc = find_own(c, &g, err)) < 0 ||
	    (rc = close_vanished(c, err)) < 0 ||
	    (rc = count_open(c, &c->run->open_after, err)) < 0)
		goto fail;
	finalize_all(c);
	if ((rc = exec(c, temp_drop, err)) < 0 ||
	    (rc = pick_run_id(c, err)) < 0 ||
	    (rc = run_rules(c, err)) < 0 ||
	    (rc = write_run(c, &t0, err)) < 0 ||
	    (rc = store_undo_take(c->undo, err)) < 0 ||
	    (rc = exec(c, "COMMIT", err)) < 0)
		goto fail;
	store_undo_committed(c->undo);
	set_spill(c, 1);
	group_clear(&g);
	free(g.r);
	ctx_reset(c);
	/* Committed: the rules' failures are told, once; the keys to
	 * write after the run are the caller's. */
	c->run->keys_later = c->rk.later;
	c->rk.later = NULL;
	if (c->rules != NULL)
		rules_tell(c->rules, &c->rk);
	return 0;
fail:
	rules_abandon(c->job);
	c->job = NULL;
	rules_counts_free(&c->rk);
	group_clear(&g);
	free(g.r);
	ctx_reset(c);
	finalize_all(c);
	(void)sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
	store_undo_drop(c->undo);
	set_spill(c, 1);
	return rc;
}

int
sweep_run(struct sweep_run *out, mirror_store *st, time_t now,
    mirror_error *err)
{
	return sweep_run_scoped(out, st, now, NULL, err);
}

int
sweep_run_scoped(struct sweep_run *out, mirror_store *st, time_t now,
    const struct sweep_scope *scope, mirror_error *err)
{
	const struct sweep_plan plan = { .scope = scope };

	return sweep_run_rules(out, st, now, &plan, err);
}

int
sweep_run_rules(struct sweep_run *out, mirror_store *st, time_t now,
    const struct sweep_plan *plan, mirror_error *err)
{
	const struct sweep_scope *scope = plan->scope;
	struct rules_job *early = plan->early;
	struct sweep_ctx c;
	int rc;

	for (size_t i = 0; scope != NULL && i < scope->n; i++)
		if (scope->projects == NULL || scope->projects[i] == NULL) {
			rules_abandon(early);
			return mirror_fail(err, MIRROR_EINPUT, "sweep: project "
			    "%zu of the scope is NULL", i);
		}
	memset(&c, 0, sizeof(c));
	c.scope = scope;
	c.rules = plan->set;
	c.early = early;
	c.undo = plan->undo;
	hashtab_init(&c.known, sizeof(uint64_t));
	hashtab_init(&c.xdone, sizeof(uint64_t));
	hashtab_init(&c.decided, sizeof(uint64_t));
	hashtab_init(&c.alias_tab, sizeof(struct alias_ent));
	c.st = st;
	c.db = store_db(st);
	c.now = now;
	mirror_format_ts(c.ts, now);
	c.run = out;
	for (int attempt = 1;; attempt++) {
		memset(out, 0, sizeof(*out));
		out->rules_version = SWEEP_RULES_VERSION;
		memcpy(out->started_at, c.ts, sizeof(c.ts));
		out->attempts = attempt;
		rc = sweep_once(&c, err);
		if (rc == 0 || !c.busy || attempt == SWEEP_MAX_ATTEMPTS)
			break;
		mirror_error_clear(err);
	}
	rules_abandon(c.early);         /* when no attempt took it */
	return rc;
}
