/*
 * store.c: open, check and create fact stores.
 */
#include <errno.h>
#include <libgen.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "store/place.h"
#include "store/store.h"
#include "sys/clock.h"
#include "sys/env.h"
#include "sys/work.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"

/* The contract's DDL, generated at build time from core/store/store-schema.sql. */
extern const char store_schema_sql[];

struct mirror_store {
	sqlite3 *db;
	char *path;
	enum store_mode mode;
	struct store_features feat;
	/* The query budget: VM time the running statement has used. */
	long long budget_ns;        /* 0: none (store_create) */
	long long used_ns;
	long long steps_budget;     /* > 0: a budget of VM steps instead
	                               (store_steps_set) */
	long long used_steps;       /* since the statement began */
	struct timespec deadline;   /* with steps_budget: the wall-clock
	                               end (tv_sec 0: none) */
	int every;                  /* VM steps between progress calls */
	struct timespec last;       /* the last progress call or start */
	int resumed;                /* store_step since: last is the
	                               caller's time, not the statement's */
	int tripped;                /* the budget stopped the statement:
	                               STORE_TRIPPED_* */
	/* Connections store_parallel's works left reading what this one
	 * reads (store_spare_put), each with the read_gen it began in. */
	pthread_mutex_t spare_mu;   /* spare, spare_gen, n_spare, read_gen */
	mirror_store *spare[STORE_SPARES];
	unsigned long spare_gen[STORE_SPARES];
	int n_spare;
	unsigned long read_gen;     /* store_read_begin's count */
	/* The TEMP database as load_aliases left it (project_alias
	 * alone), a page image: a connection opened beside this one
	 * (store_open_beside, store_open_shared) attaches it instead of
	 * reading every project again. NULL when it could not be taken (they read them). Never
	 * written once made, so other threads read it; it lives while a
	 * connection does. */
	struct alias_image *aliases;
};

/* A TEMP database's image (sqlite3_serialize) shared by a store and
 * the connections opened beside it, each holding a reference. */
struct alias_image {
	atomic_int refs;
	unsigned char *data;
	sqlite3_int64 size;
};

/* The calling thread's armed bound of SQLite's memory, or NULL (see
 * the counting allocator below). */
static _Thread_local struct store_memcap *mem_cap;

/* The VM steps between two progress-handler calls. */
#define PROGRESS_STEPS 1000

/* The same under a budget of steps and time (store_steps_set): a rule's
 * single step may take milliseconds (a 16 MiB value copied, a sorter's
 * run written), so its deadline is looked at ten times as often; the
 * clock costs some 20 ns a look, under 1% of 100 steps. */
#define PROGRESS_STEPS_TIMED 100

/* Progress-handler calls further apart than this are time the caller
 * spent between steps of a cursor, not time inside SQLite. */
#define BUDGET_GAP_NS 100000000LL

/*
 * How many bytes of a statement journal, and of TEMP's rollback journal,
 * SQLite keeps in memory before it spills them to a temporary file (its
 * default: 64 KiB): -1, all of them, never spilled. A statement that
 * writes several rows in a transaction that already wrote (a sweep's
 * batched INSERTs of violations and their facts, 32 rows each) journals
 * every page it touches that the transaction had before it began; with
 * the default, recording a first sweep's violations on a bench store
 * wrote thousands of pages to a temporary file, on the sweep's thread,
 * after the slot sweep. A threshold of 256 KiB or more is worse: Debian's
 * SQLite 3.40.1 answers the write that spills such a journal with
 * SQLITE_FULL ("database or disk is full", with no file system error),
 * which every build of a 1M-fact store met once its sweep's scope listed
 * 681,756 row ids (dropping that TEMP table journals some 1,700 pages;
 * 4 MiB was the threshold then). Kept in memory, a journal is at most
 * the pages one statement or one transaction of TEMP changed, which a
 * build's cache holds already (the sweep turns spilling off).
 */
#define STORE_STMT_JOURNAL_MEM (-1)

/* The pages a sort holds before it writes a run out (library_config):
 * 256 KiB of 4 KiB pages, a reader's page cache. */
#define STORE_SORT_PAGES 64

/* Tables mirror writes in a sweep: no trigger may sit on them. */
static const char *const mirror_written[] = { "conflicts",
    "conflict_members", "sweep_runs", "mirror_meta", "rule_violations",
    "violation_facts", "rule_runs" };

/* Columns every store must have; NULL ends each list. */
struct table_contract {
	const char *table;
	int optional_table;
	const char *required[12];
};

static const struct table_contract store_owned[] = {
	{ "projects", 0, { "id", "name", "aliases", "description", NULL } },
	{ "project_state", 0, { "id", "project", "category", "key", "value",
	    "source", "confidence", "status", "created_at", "updated_at",
	    NULL } },
	{ "entities", 0, { "id", "entity_type", "name", "project",
	    "description", "properties", "status", "confidence",
	    "source_refs", "created_at", "updated_at", NULL } },
	{ "relationships", 0, { "id", "source_entity_id", "target_entity_id",
	    "relationship_type", "confidence", NULL } },
	{ "memories", 0, { "id", "memory_type", "content", "project",
	    "confidence", "status", "created_at", "updated_at", NULL } },
	{ "memory_audit", 1, { "id", "memory_id", "entity_kind", "action",
	    "actor", "before_json", "after_json", "note", "timestamp",
	    NULL } },
};

static const struct table_contract mirror_owned[] = {
	{ "conflicts", 0, { "id", "detected_at", "slot_kind", "slot_key",
	    "project", "status", "resolved_at", "resolution", "resolved_by",
	    NULL } },
	{ "conflict_members", 0, { "conflict_id", "member_kind", "member_id",
	    "member_layer_trust", "value_snapshot", "conflicts_with", NULL } },
	{ "sweep_runs", 0, { "id", "started_at", "finished_at", "duration_ms",
	    "rules_version", "facts_scanned", "conflicts_opened",
	    "members_added", "conflicts_closed", "open_after", NULL } },
};

/* Schema version 2: the rules' tables. A version 1 store read-only has
 * none (no violations yet); opened for writing it gains them. */
static const struct table_contract rule_owned[] = {
	{ "rule_violations", 0, { "id", "rule_id", "severity", "project",
	    "facts", "message", "status", "detected_at", "opened_run",
	    "closed_at", "closed_run", NULL } },
	{ "violation_facts", 0, { "violation_id", "layer", "fact_id", NULL } },
	{ "rule_runs", 0, { "sweep_run", "rule_id", "origin", "severity",
	    "label", "description", "query", "status", "error", "hits",
	    "duration_ms", NULL } },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

int
store_fail(mirror_store *st, mirror_error *err, int rc, const char *what)
{
	int status = MIRROR_EINPUT;
	int prim = rc & 0xff;

	if (st->db != NULL && rc == (sqlite3_extended_errcode(st->db) & 0xff))
		rc = sqlite3_extended_errcode(st->db);
	if (rc == SQLITE_READONLY_ROLLBACK || rc == SQLITE_READONLY_RECOVERY)
		return mirror_fail(err, MIRROR_EIO, "store %s: %s: a crashed "
		    "writer left %s%s behind, which a read-only open cannot "
		    "roll back; run mirror once with write access to the "
		    "store and its directory, or run sqlite3 %s "
		    "'PRAGMA integrity_check' as its owner", st->path, what,
		    st->path, rc == SQLITE_READONLY_ROLLBACK ? "-journal" :
		    "-wal", st->path);
	if (prim == SQLITE_INTERRUPT && st->tripped)
		return mirror_fail(err, MIRROR_EINPUT, "store %s: %s: a query "
		    "ran past its budget of %lld ms (a hostile view, trigger "
		    "or a store too large? MIRROR_QUERY_TIMEOUT_MS sets it)",
		    st->path, what, st->budget_ns / 1000000);
	if (prim == SQLITE_NOTADB)
		return mirror_fail(err, MIRROR_EINPUT, "store %s: not an "
		    "SQLite database", st->path);
	if (prim == SQLITE_IOERR || prim == SQLITE_FULL ||
	    prim == SQLITE_BUSY || prim == SQLITE_LOCKED ||
	    prim == SQLITE_NOMEM || prim == SQLITE_CANTOPEN)
		status = MIRROR_EIO;
	return mirror_fail(err, status, "store %s: %s: %s", st->path, what,
	    st->db != NULL ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc));
}

/* Nanoseconds from a to b. */
static long long
ns_between(const struct timespec *a, const struct timespec *b)
{
	return (long long)(b->tv_sec - a->tv_sec) * 1000000000LL +
	    (b->tv_nsec - a->tv_nsec);
}

/*
 * sqlite3_trace_v2 callback: a statement starts running (not a trigger's
 * sub-statement, whose text begins with "--"), so its budget starts
 * afresh; or it stepped a row, counted (sys/work.h); or it finished
 * (p, the statement), and its VM steps since it last finished are
 * counted. Always returns 0.
 */
static int
budget_trace(unsigned type, void *ctx, void *p, void *x)
{
	mirror_store *st = ctx;
	const char *sql = x;

	if (type == SQLITE_TRACE_ROW) {
		work_row();
		return 0;
	}
	if (type == SQLITE_TRACE_PROFILE) {
		work_vm_step((unsigned long long)sqlite3_stmt_status(p,
		    SQLITE_STMTSTATUS_VM_STEP, 1));
		return 0;
	}
	if (type == SQLITE_TRACE_STMT &&
	    (sql == NULL || strncmp(sql, "--", 2) != 0)) {
		st->used_ns = 0;
		st->used_steps = 0;
		st->tripped = 0;
		st->resumed = 0;
		clock_gettime(CLOCK_MONOTONIC, &st->last);
	}
	return 0;
}

/*
 * sqlite3_progress_handler callback, every PROGRESS_STEPS VM steps: add
 * them to the running statement's use under a budget of steps, else the
 * time since the last call (a long gap is the caller's time between
 * steps, not the statement's). Returns 1, which interrupts the
 * statement, once the budget is spent; else 0.
 */
static int
budget_progress(void *ctx)
{
	mirror_store *st = ctx;
	struct timespec now;
	long long d;

	if (mem_cap != NULL && mem_cap->over != 0) {
		st->tripped = STORE_TRIPPED_MEMORY;
		return 1;
	}
	if (st->steps_budget > 0) {
		st->used_steps += st->every;
		if (st->used_steps > st->steps_budget) {
			st->tripped = STORE_TRIPPED_STEPS;
			return 1;
		}
		if (st->deadline.tv_sec != 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (ns_between(&st->deadline, &now) > 0) {
				st->tripped = STORE_TRIPPED_TIME;
				return 1;
			}
		}
		return 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	d = st->resumed ? 0 : ns_between(&st->last, &now);
	st->resumed = 0;
	st->last = now;
	if (d > 0 && d < BUDGET_GAP_NS)
		st->used_ns += d;
	if (st->used_ns > st->budget_ns) {
		st->tripped = STORE_TRIPPED_TIME;
		return 1;
	}
	return 0;
}

int
store_free_id(char *out, size_t size, const struct store_id_space *sp,
    uint64_t base, mirror_error *err)
{
	const char *prefix = sp->prefix;
	size_t plen = strlen(prefix), hexlen = sp->hexlen;
	sqlite3_stmt *taken = sp->taken;

	if (hexlen > 16 || plen + hexlen + 1 > size)
		return mirror_fail(err, MIRROR_EIO, "internal: id too long");
	for (unsigned k = 0;; k++) {
		char hex[17];
		int rc;

		hash_hex(hex, hash_nth(base, k));
		memcpy(out, prefix, plen);
		memcpy(out + plen, hex, hexlen);
		out[plen + hexlen] = '\0';
		sqlite3_bind_text(taken, 1, out, -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(taken);
		sqlite3_reset(taken);
		if (rc == SQLITE_DONE)
			return 0;
		if (rc != SQLITE_ROW)
			return store_fail(sp->st, err, rc, "new ids");
	}
}

void
store_budget_set(mirror_store *st, long long ms)
{
	if (ms <= 0)
		ms = env_long("MIRROR_QUERY_TIMEOUT_MS",
		    MIRROR_QUERY_TIMEOUT_MS);
	st->budget_ns = ms * 1000000LL;
}

void
store_steps_set(mirror_store *st, long long ksteps, long long ms)
{
	int every = ksteps > 0 && ms > 0 ? PROGRESS_STEPS_TIMED :
	    PROGRESS_STEPS;

	st->steps_budget = ksteps > 0 ? ksteps * 1000 : 0;
	st->deadline.tv_sec = 0;
	if (ksteps > 0 && ms > 0) {
		clock_gettime(CLOCK_MONOTONIC, &st->deadline);
		st->deadline.tv_sec += (time_t)(ms / 1000);
		st->deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
		if (st->deadline.tv_nsec >= 1000000000L) {
			st->deadline.tv_sec++;
			st->deadline.tv_nsec -= 1000000000L;
		}
	}
	if (every != st->every) {
		st->every = every;
		sqlite3_progress_handler(st->db, every, budget_progress, st);
	}
}

int
store_budget_tripped(const mirror_store *st)
{
	return st->tripped;
}

int
store_past_deadline(mirror_store *st)
{
	struct timespec now;

	if (st->steps_budget <= 0 || st->deadline.tv_sec == 0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (ns_between(&st->deadline, &now) <= 0)
		return 0;
	st->tripped = STORE_TRIPPED_TIME;
	return 1;
}

/* Put every statement on st->db under the query budget. */
static void
budget_install(mirror_store *st)
{
	store_budget_set(st, 0);
	clock_gettime(CLOCK_MONOTONIC, &st->last);
	(void)sqlite3_trace_v2(st->db, SQLITE_TRACE_STMT, budget_trace, st);
	st->every = PROGRESS_STEPS;
	sqlite3_progress_handler(st->db, PROGRESS_STEPS, budget_progress,
	    st);
}

/*
 * Set *type to what name is in st's main schema: "table", "view",
 * "virtual table", or "" when absent. Returns 0 or < 0 with err set.
 */
static int
schema_kind(mirror_store *st, const char *name, const char **type,
    mirror_error *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;

	*type = "";
	rc = sqlite3_prepare_v2(st->db, "SELECT type, sql LIKE 'CREATE "
	    "VIRTUAL%' FROM main.sqlite_schema WHERE type IN ('table', "
	    "'view') AND name = ?1 COLLATE NOCASE", -1, &stmt, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(stmt, 0);

		if (t != NULL && strcmp(t, "view") == 0)
			*type = "view";
		else if (sqlite3_column_int(stmt, 1))
			*type = "virtual table";
		else
			*type = "table";
		rc = SQLITE_DONE;
	}
	if (rc != SQLITE_DONE)
		rc = store_fail(st, err, rc, "cannot read the schema");
	else
		rc = 0;
	sqlite3_finalize(stmt);
	return rc;
}

/*
 * A contract table must be a plain table: a view (or a virtual table)
 * of that name is bad input naming it. Returns 0 or < 0.
 */
static int
check_is_table(mirror_store *st, const char *table, mirror_error *err)
{
	const char *type;
	int rc;

	rc = schema_kind(st, table, &type, err);
	if (rc < 0)
		return rc;
	if (strcmp(type, "view") == 0 || strcmp(type, "virtual table") == 0)
		return mirror_fail(err, MIRROR_EINPUT, "store %s: %s is a %s, "
		    "not a table (mirror reads its contract tables only as "
		    "tables)", st->path, table, type);
	return 0;
}

int
store_check_triggers(mirror_store *st, mirror_error *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;

	rc = sqlite3_prepare_v2(st->db, "SELECT name, tbl_name FROM "
	    "main.sqlite_schema WHERE type = 'trigger' AND lower(tbl_name) "
	    "IN (?1, ?2, ?3, ?4, ?5, ?6, ?7) ORDER BY name LIMIT 1", -1, &stmt,
	    NULL);
	for (int i = 0; rc == SQLITE_OK && i < (int)(sizeof(mirror_written) /
	    sizeof(*mirror_written)); i++)
		rc = sqlite3_bind_text(stmt, i + 1, mirror_written[i], -1,
		    SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(stmt, 0);
		const char *tbl = (const char *)sqlite3_column_text(stmt, 1);

		rc = mirror_fail(err, MIRROR_EINPUT, "store %s: table %s "
		    "carries trigger '%s', which mirror did not create; "
		    "mirror does not write to a store with triggers on its "
		    "own tables (see doc/reliability.md, drop the trigger)",
		    st->path, tbl ? tbl : "?", name ? name : "?");
	} else if (rc == SQLITE_DONE) {
		rc = 0;
	} else {
		rc = store_fail(st, err, rc, "cannot read the schema");
	}
	sqlite3_finalize(stmt);
	return rc;
}

/*
 * Fill cols (a NULL-terminated list) into *found as a bitmask of the
 * columns table has. Returns 1 when table exists, 0 when it does not
 * (*found 0), or < 0 with err set.
 */
static int
table_columns(unsigned *found, mirror_store *st, const char *table,
    const char *const *cols, mirror_error *err)
{
	sqlite3_stmt *stmt = NULL;
	char sql[128];
	int rc, n, has = 0;

	*found = 0;
	n = snprintf(sql, sizeof(sql), "PRAGMA main.table_info(\"%s\")", table);
	if (n < 0 || (size_t)n >= sizeof(sql))
		return mirror_fail(err, MIRROR_EIO, "table name too long");
	rc = sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL);
	if (rc != SQLITE_OK)
		goto fail;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(stmt, 1);

		has = 1;
		for (unsigned i = 0; cols[i] != NULL; i++)
			if (name != NULL && strcmp(name, cols[i]) == 0)
				*found |= 1u << i;
	}
	if (rc != SQLITE_DONE)
		goto fail;
	sqlite3_finalize(stmt);
	return has;
fail:
	rc = store_fail(st, err, rc, "cannot read the schema");
	sqlite3_finalize(stmt);
	return rc;
}

/*
 * Check one table against its contract. *present tells whether it
 * exists. A missing table is an error unless optional or allow_missing.
 */
static int
check_table(mirror_store *st, const struct table_contract *tc,
    int allow_missing, int *present, mirror_error *err)
{
	unsigned found;
	int rc;

	rc = check_is_table(st, tc->table, err);
	if (rc < 0)
		return rc;
	rc = table_columns(&found, st, tc->table, tc->required, err);
	*present = rc == 1;
	if (rc < 0)
		return rc;
	if (!*present) {
		if (tc->optional_table || allow_missing)
			return 0;
		return mirror_fail(err, MIRROR_EINPUT,
		    "store %s: missing required table '%s' "
		    "(not a mirror fact store?)", st->path, tc->table);
	}
	for (unsigned i = 0; tc->required[i] != NULL; i++)
		if (!(found & (1u << i)))
			return mirror_fail(err, MIRROR_EINPUT,
			    "store %s: table '%s' lacks required column '%s'",
			    st->path, tc->table, tc->required[i]);
	return 0;
}

/* The contract's optional columns, each with its flag in struct
 * store_features: memories' four, and relationships.created_at, which
 * no page shows and the digest hashes when there (a rule may read it). */
static const struct optional_cols {
	const char *table;
	const char *cols[5];            /* NULL-terminated */
	size_t flag[4];                 /* offsetof(struct store_features) */
} optional_cols[] = {
	{ "memories", { "reference_count", "domain_tags", "valid_until",
	    "graduated_to_entity_id", NULL }, {
	    offsetof(struct store_features, mem_reference_count),
	    offsetof(struct store_features, mem_domain_tags),
	    offsetof(struct store_features, mem_valid_until),
	    offsetof(struct store_features, mem_graduated) } },
	{ "relationships", { "created_at", NULL }, {
	    offsetof(struct store_features, rel_created_at) } },
};

/* Set st's flags of the optional columns it has. Returns 0 or < 0 with
 * err set. */
static int
check_optional_cols(mirror_store *st, mirror_error *err)
{
	for (size_t t = 0; t < NELEM(optional_cols); t++) {
		const struct optional_cols *o = &optional_cols[t];
		unsigned found;
		int rc;

		rc = table_columns(&found, st, o->table, o->cols, err);
		if (rc < 0)
			return rc;
		for (size_t i = 0; o->cols[i] != NULL; i++)
			*(int *)((char *)&st->feat + o->flag[i]) =
			    (found & (1u << i)) != 0;
	}
	return 0;
}

/* Run sql (no result rows) on st. */
static int
exec(mirror_store *st, const char *sql, const char *what, mirror_error *err)
{
	int rc = sqlite3_exec(st->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : store_fail(st, err, rc, what);
}

/*
 * Read mirror_meta.schema_version into *version (0 when mirror_meta is
 * absent). Returns 0 or < 0.
 */
static int
read_mirror_version(mirror_store *st, int *version, mirror_error *err)
{
	static const char *const cols[] = { "key", "value", NULL };
	sqlite3_stmt *stmt = NULL;
	unsigned found;
	int rc;

	*version = 0;
	rc = check_is_table(st, "mirror_meta", err);
	if (rc < 0)
		return rc;
	rc = table_columns(&found, st, "mirror_meta", cols, err);
	if (rc <= 0)
		return rc;
	if (found != 3u)
		return mirror_fail(err, MIRROR_EINPUT,
		    "store %s: table 'mirror_meta' is not mirror's "
		    "(needs columns key, value)", st->path);
	rc = sqlite3_prepare_v2(st->db, "SELECT value FROM mirror_meta "
	    "WHERE key = 'schema_version'", -1, &stmt, NULL);
	if (rc != SQLITE_OK)
		goto fail;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(stmt, 0);
		char *end;
		long n;

		errno = 0;
		n = v != NULL ? strtol(v, &end, 10) : 0;
		if (v == NULL || *v == '\0' || *end != '\0' || errno != 0 ||
		    n < 1 || n > 1000000) {
			/* v lives in stmt: say so before finalizing it. */
			rc = mirror_fail(err, MIRROR_EINPUT,
			    "store %s: mirror_meta.schema_version '%s' is not "
			    "a version number", st->path, v ? v : "NULL");
			sqlite3_finalize(stmt);
			return rc;
		}
		*version = (int)n;
	} else if (rc != SQLITE_DONE)
		goto fail;
	sqlite3_finalize(stmt);
	return 0;
fail:
	rc = store_fail(st, err, rc, "cannot read mirror_meta");
	sqlite3_finalize(stmt);
	return rc;
}

/*
 * Create whatever of the contract is missing (optional memory_audit and
 * the mirror-owned tables) and stamp mirror_meta, in one transaction.
 * Every statement of the contract is CREATE ... IF NOT EXISTS, and the
 * required store-owned tables were checked to exist before, so this
 * never touches the store's own data.
 */
static int
create_mirror_tables(mirror_store *st, mirror_error *err)
{
	char sql[256];
	int rc, n;

	rc = exec(st, "BEGIN IMMEDIATE", "cannot lock the store to add "
	    "mirror's tables", err);
	if (rc < 0)
		return rc;
	rc = exec(st, store_schema_sql, "cannot create mirror's tables", err);
	if (rc == 0)
		rc = exec(st, "CREATE TABLE IF NOT EXISTS mirror_meta ("
		    "key TEXT PRIMARY KEY, value TEXT NOT NULL)",
		    "cannot create mirror_meta", err);
	if (rc == 0) {
		n = snprintf(sql, sizeof(sql), "INSERT OR REPLACE INTO "
		    "mirror_meta(key, value) VALUES('schema_version', '%d')",
		    MIRROR_SCHEMA_VERSION);
		if (n < 0 || (size_t)n >= sizeof(sql))
			rc = mirror_fail(err, MIRROR_EIO, "internal: sql");
		else
			rc = exec(st, sql, "cannot write mirror_meta", err);
	}
	if (rc == 0)
		return exec(st, "COMMIT", "cannot commit mirror's tables", err);
	(void)sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/*
 * The alias name is in TEMP project_alias already: 0 when project id
 * holds it (it lists it twice), else -MIRROR_EINPUT naming both (or
 * the store's error).
 */
static int
alias_owner(mirror_store *st, const char *alias, const char *id,
    mirror_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(st->db, "SELECT canonical FROM "
	    "temp.project_alias WHERE name = ?1", -1, &s, NULL);

	if (rc == SQLITE_OK) {
		sqlite3_bind_text(s, 1, alias, -1, SQLITE_STATIC);
		rc = sqlite3_step(s);
	}
	if (rc == SQLITE_ROW && sqlite3_column_text(s, 0) != NULL &&
	    strcmp((const char *)sqlite3_column_text(s, 0), id) == 0)
		rc = 0;
	else if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		rc = mirror_fail(err, MIRROR_EINPUT, "store %s: alias '%s' of "
		    "project '%s' also names another project", st->path, alias,
		    id);
	else
		rc = store_fail(st, err, rc, "cannot load aliases");
	sqlite3_finalize(s);
	return rc;
}

/* TEMP project_alias, and the statement that adds one row to it. */
#define ALIAS_TABLE "CREATE TEMP TABLE project_alias (" \
	"name TEXT PRIMARY KEY, canonical TEXT NOT NULL) WITHOUT ROWID"
#define ALIAS_INSERT "INSERT OR IGNORE INTO " \
	"temp.project_alias(name, canonical) VALUES(?1, ?2)"

/*
 * Add to TEMP project_alias, through ins, the aliases of project id
 * (text: its aliases column, NULL for none). Returns 0, -MIRROR_EINPUT
 * when they are not a JSON array of strings or one names another
 * project, or the store's error.
 */
static int
add_aliases(mirror_store *st, sqlite3_stmt *ins, const char *id,
    const char *text, mirror_error *err)
{
	json_error_t jerr;
	json_t *arr, *v;
	size_t i;
	int rc = 0;

	arr = json_loads(text ? text : "[]", JSON_REJECT_DUPLICATES, &jerr);
	if (arr == NULL || !json_is_array(arr)) {
		json_decref(arr);
		return mirror_fail(err, MIRROR_EINPUT, "store %s: projects row "
		    "'%s': aliases is not a JSON array of strings", st->path,
		    id);
	}
	json_array_foreach(arr, i, v) {
		const char *alias = json_string_value(v);

		if (alias == NULL) {
			rc = mirror_fail(err, MIRROR_EINPUT, "store %s: "
			    "projects row '%s': alias %zu is not a string",
			    st->path, id, i);
			break;
		}
		if (strcmp(alias, id) == 0)
			continue;
		sqlite3_bind_text(ins, 1, alias, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 2, id, -1, SQLITE_STATIC);
		rc = sqlite3_step(ins);
		sqlite3_reset(ins);
		sqlite3_clear_bindings(ins);
		if (rc != SQLITE_DONE) {
			rc = store_fail(st, err, rc, "cannot load aliases");
			break;
		}
		rc = 0;
		if (sqlite3_changes(st->db) != 1 &&
		    (rc = alias_owner(st, alias, id, err)) < 0)
			break;
	}
	json_decref(arr);
	return rc;
}

/*
 * Add to TEMP project_alias, through ins, the aliases of each project
 * sel reads (id, aliases; by id).
 * Returns 0, or < 0 as add_aliases, or the store's error.
 */
static int
projects_aliases(mirror_store *st, sqlite3_stmt *sel, sqlite3_stmt *ins,
    mirror_error *err)
{
	int rc;

	while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(sel, 0);

		if ((rc = add_aliases(st, ins, id,
		    (const char *)sqlite3_column_text(sel, 1), err)) < 0)
			break;
	}
	if (rc >= 0)
		rc = rc == SQLITE_DONE ? 0 : store_fail(st, err, rc,
		    "cannot read projects");
	sqlite3_reset(sel);
	return rc;
}

/*
 * Build TEMP project_alias from projects.aliases. An alias that names
 * another project, or that two projects claim, is ambiguous and an
 * error naming both projects. Returns 0 or < 0 with err set.
 */
static int
load_aliases(mirror_store *st, mirror_error *err)
{
	sqlite3_stmt *sel = NULL, *ins = NULL;
	int rc;

	rc = exec(st, ALIAS_TABLE, "cannot create the alias table", err);
	if (rc < 0)
		return rc;
	rc = exec(st, "INSERT OR IGNORE INTO temp.project_alias "
	    "SELECT id, id FROM main.projects WHERE id IS NOT NULL",
	    "cannot read projects", err);
	if (rc < 0)
		return rc;
	rc = sqlite3_prepare_v2(st->db, "SELECT id, aliases FROM main.projects "
	    "WHERE id IS NOT NULL ORDER BY id", -1, &sel, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(st->db, ALIAS_INSERT, -1, &ins, NULL);
	if (rc != SQLITE_OK) {
		rc = store_fail(st, err, rc, "cannot read projects");
		goto out;
	}
	/* One transaction for every insert: in autocommit, each would be
	 * a transaction of the TEMP database of its own (about 35,000
	 * instructions an alias, 1,000 aliases per 500 projects). */
	if ((rc = exec(st, "SAVEPOINT mirror_aliases", "cannot load aliases",
	    err)) < 0)
		goto out;
	rc = projects_aliases(st, sel, ins, err);
	if (rc < 0)
		(void)sqlite3_exec(st->db, "ROLLBACK TO mirror_aliases; "
		    "RELEASE mirror_aliases", NULL, NULL, NULL);
	else
		rc = exec(st, "RELEASE mirror_aliases", "cannot load aliases",
		    err);
out:
	sqlite3_finalize(sel);
	sqlite3_finalize(ins);
	return rc;
}

/*
 * Keep st's TEMP database, project_alias alone as load_aliases made it,
 * as an image for the connections opened beside st (st->aliases; left
 * NULL when SQLite cannot make it: they then read the projects).
 * Returns nothing.
 */
static void
alias_image_take(mirror_store *st)
{
	struct alias_image *im = xcalloc(1, sizeof(*im));

	im->data = sqlite3_serialize(st->db, "temp", &im->size, 0);
	if (im->data == NULL || im->size <= 0) {
		sqlite3_free(im->data);
		free(im);
		return;
	}
	atomic_init(&im->refs, 1);
	st->aliases = im;
}

/* Drop a reference to im (NULL: none), freeing it with the last.
 * Returns nothing. */
static void
alias_image_drop(struct alias_image *im)
{
	if (im == NULL || atomic_fetch_sub(&im->refs, 1) != 1)
		return;
	sqlite3_free(im->data);
	free(im);
}

/* The attached image of the parent's TEMP database (attach_aliases). */
#define ALIAS_SCHEMA "mirror_alias"

/*
 * Give st parent's alias table, reading no project: parent's image
 * (parent->aliases), attached read-only as ALIAS_SCHEMA, under TEMP
 * VIEW project_alias when shared (nothing copied: a statement looks a
 * name up in the image's b-tree as in a table of its own), else copied
 * into TEMP project_alias and detached (a rule's SQL may read temp and
 * main alone). st holds a reference to the image while it is open.
 * Outside a transaction (ATTACH is refused in one). Returns 0 or < 0
 * with err set.
 */
static int
attach_aliases(mirror_store *st, const mirror_store *parent, int shared,
    mirror_error *err)
{
	struct alias_image *im = parent->aliases;
	int rc;

	rc = exec(st, "ATTACH ':memory:' AS " ALIAS_SCHEMA,
	    "cannot load aliases", err);
	if (rc < 0)
		return rc;
	atomic_fetch_add(&im->refs, 1);
	st->aliases = im;
	rc = sqlite3_deserialize(st->db, ALIAS_SCHEMA, im->data, im->size,
	    im->size, SQLITE_DESERIALIZE_READONLY);
	if (rc != SQLITE_OK)
		return store_fail(st, err, rc, "cannot load aliases");
	if (shared)
		return exec(st, "CREATE TEMP VIEW project_alias AS SELECT "
		    "name, canonical FROM " ALIAS_SCHEMA ".project_alias",
		    "cannot create the alias table", err);
	rc = exec(st, ALIAS_TABLE, "cannot create the alias table", err);
	if (rc == 0)
		rc = exec(st, "INSERT INTO temp.project_alias SELECT name, "
		    "canonical FROM " ALIAS_SCHEMA ".project_alias",
		    "cannot load aliases", err);
	if (rc == 0)
		rc = exec(st, "DETACH " ALIAS_SCHEMA, "cannot load aliases",
		    err);
	return rc;
}

/*
 * How long to wait for another writer's lock: MIRROR_BUSY_TIMEOUT_MS
 * when it is a sane number of milliseconds (tests shorten it, a busy
 * installation may lengthen it), else MIRROR_BUSY_TIMEOUT_MS the macro.
 */
static int
busy_timeout_ms(void)
{
	return (int)env_long("MIRROR_BUSY_TIMEOUT_MS",
	    MIRROR_BUSY_TIMEOUT_MS);
}

/*
 * Tell a missing file, a directory and an empty file apart, by stat(2)
 * alone. The store is never open(2)ed here: closing any descriptor of
 * a file drops every POSIX lock this process holds on it, so a header
 * read in parallel with a connection (the sweep's second one, serve's
 * rebuilds) let another process's writer in while mirror wrote (SQLite's "How
 * To Corrupt", 2.2). A file that is not SQLite is told by SQLite's own first
 * read (SQLITE_NOTADB, see store_fail). Returns 0, or MIRROR_EINPUT naming the
 * path.
 */
static int
check_path(const char *path, mirror_error *err)
{
	struct stat sb;

	if (stat(path, &sb) != 0)
		return mirror_fail(err, MIRROR_EINPUT, "store %s: %s", path,
		    errno == ENOENT ? "no such file (create one with "
		    "'mirror init')" : strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return mirror_fail(err, MIRROR_EINPUT,
		    "store %s: not a regular file", path);
	if (sb.st_size == 0)
		return mirror_fail(err, MIRROR_EINPUT,
		    "store %s: empty file, not a fact store", path);
	return 0;
}

/* ---- the fact tables' versions (store.h) ---------------------------- */
/* The versioned tables, in enum order. */
static const char *const versioned[VERSION_TABLES] = { "projects",
    "project_state", "entities", "relationships", "memories" };

/* A trigger's event, and the word in its name. */
static const struct {
	const char *event, *word;
} events[] = { { "INSERT", "insert" }, { "UPDATE", "update" },
    { "DELETE", "delete" } };

#define TRIGGERS (VERSION_TABLES * NELEM(events))

/*
 * The index mirror adds beside the versions: the entities whose
 * properties name a window ("valid_from", "valid_until"), the only rows
 * the starter anachronism rules look at. Without it each of the two
 * reads every entity's properties to find none (doc/store.md, "The
 * windows index"). A rule's WHERE that holds the same term word for
 * word is served by it.
 */
#define WINDOWS_INDEX "mirror_entity_windows"
#define WINDOWS_SQL "CREATE INDEX IF NOT EXISTS " WINDOWS_INDEX \
    " ON entities(id) WHERE instr(properties, '\"valid_') > 0"

/* Trigger k's name (table k / 3, event k % 3) into sb. */
static void
trigger_name(strbuf *sb, size_t k)
{
	strbuf_printf(sb, "mirror_version_%s_%s", versioned[k / NELEM(events)],
	    events[k % NELEM(events)].word);
}

/* Trigger k's statement into sb, as sqlite_schema keeps it (without
 * IF NOT EXISTS), or as mirror runs it (with). */
static void
trigger_sql(strbuf *sb, size_t k, int if_not_exists)
{
	const char *t = versioned[k / NELEM(events)];

	strbuf_puts(sb, "CREATE TRIGGER ");
	if (if_not_exists)
		strbuf_puts(sb, "IF NOT EXISTS ");
	trigger_name(sb, k);
	strbuf_printf(sb, " AFTER %s ON %s BEGIN UPDATE mirror_table_versions "
	    "SET v = random() WHERE tbl = '%s'; END", events[k %
	    NELEM(events)].event, t, t);
}

/* 1 when st has mirror_table_versions, every trigger and the windows
 * index by name, 0 when not, < 0 on a store error (err set). */
static int
installed(mirror_store *st, mirror_error *err)
{
	sqlite3_stmt *s = NULL;
	strbuf sql;
	int rc, n = -1;

	strbuf_init(&sql);
	strbuf_puts(&sql, "SELECT count(*) FROM main.sqlite_schema WHERE "
	    "(type = 'table' AND name = 'mirror_table_versions') OR "
	    "(type = 'index' AND name = '" WINDOWS_INDEX "') OR "
	    "(type = 'trigger' AND name IN (");
	for (size_t k = 0; k < TRIGGERS; k++) {
		strbuf_puts(&sql, k > 0 ? ", '" : "'");
		trigger_name(&sql, k);
		strbuf_putc(&sql, '\'');
	}
	strbuf_puts(&sql, "))");
	rc = sqlite3_prepare_v2(store_db(st), sql.data, -1, &s, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		n = sqlite3_column_int(s, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	strbuf_free(&sql);
	if (rc != SQLITE_OK)
		return store_fail(st, err, rc, "cannot read the schema");
	return n == (int)TRIGGERS + 2;
}

int
store_versions_install(mirror_store *st, mirror_error *err)
{
	sqlite3 *db = store_db(st);
	strbuf sql;
	int rc;

	if ((rc = installed(st, err)) != 0)
		return rc < 0 ? rc : 0;
	strbuf_init(&sql);
	strbuf_puts(&sql, "CREATE TABLE IF NOT EXISTS mirror_table_versions ("
	    "tbl TEXT PRIMARY KEY, v INTEGER NOT NULL);\n"
	    "INSERT OR IGNORE INTO mirror_table_versions(tbl, v) VALUES ");
	for (size_t t = 0; t < VERSION_TABLES; t++)
		strbuf_printf(&sql, "%s('%s', random())", t > 0 ? ", " : "",
		    versioned[t]);
	strbuf_puts(&sql, ";\n");
	for (size_t k = 0; k < TRIGGERS; k++) {
		trigger_sql(&sql, k, 1);
		strbuf_puts(&sql, ";\n");
	}
	strbuf_puts(&sql, WINDOWS_SQL ";\n");
	rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, sql.data, NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	strbuf_free(&sql);
	if (rc == SQLITE_OK)
		return 0;
	rc = store_fail(st, err, rc, "cannot add mirror's table versions");
	if (!sqlite3_get_autocommit(db))
		(void)sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

void
store_versions_add(mirror_store *st)
{
	mirror_error ignored;

	if (st == NULL || st->mode != STORE_WRITE)
		return;
	/* Never waits: a writer holding the store gets it back at once. */
	sqlite3_busy_timeout(st->db, 0);
	(void)store_versions_install(st, &ignored);
	sqlite3_busy_timeout(st->db, busy_timeout_ms());
}

/* 1 when every trigger of st is mirror's word for word (and no other
 * of that name pattern is there), else 0. */
static int
triggers_ours(mirror_store *st)
{
	sqlite3_stmt *s = NULL;
	strbuf want;
	size_t k = 0;
	int rc, ok = 1;

	/* In name order, as the list is (table order is not). */
	rc = sqlite3_prepare_v2(store_db(st), "SELECT name, sql FROM "
	    "main.sqlite_schema WHERE type = 'trigger' AND name GLOB "
	    "'mirror_version_*' ORDER BY name", -1, &s, NULL);
	strbuf_init(&want);
	while (ok && rc == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 0);
		const char *sql = (const char *)sqlite3_column_text(s, 1);
		size_t j;

		ok = 0;
		for (j = 0; name != NULL && sql != NULL && j < TRIGGERS; j++) {
			strbuf_reset(&want);
			trigger_name(&want, j);
			if (strcmp(want.data, name) != 0)
				continue;
			strbuf_reset(&want);
			trigger_sql(&want, j, 0);
			ok = strcmp(want.data, sql) == 0;
			break;
		}
		k += ok;
	}
	sqlite3_finalize(s);
	strbuf_free(&want);
	return rc == SQLITE_OK && ok && k == TRIGGERS;
}

/* The one integer sql gives on st into *out. Returns 1, or 0 when it
 * gives none. */
static int
one_int(long long *out, mirror_store *st, const char *sql)
{
	sqlite3_stmt *s = NULL;
	int ok = 0;

	if (sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW) {
		*out = sqlite3_column_int64(s, 0);
		ok = 1;
	}
	sqlite3_finalize(s);
	return ok;
}

void
store_versions_read(struct store_versions *out, mirror_store *st)
{
	sqlite3_stmt *s = NULL;
	int seen = 0;
	char sql[96];

	memset(out, 0, sizeof(*out));
	if (!triggers_ours(st) || !one_int(&out->schema, st,
	    "PRAGMA main.schema_version"))
		return;
	if (sqlite3_prepare_v2(store_db(st), "SELECT tbl, v FROM "
	    "main.mirror_table_versions", -1, &s, NULL) != SQLITE_OK) {
		sqlite3_finalize(s);
		return;
	}
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *tbl = (const char *)sqlite3_column_text(s, 0);

		for (int t = 0; tbl != NULL && t < VERSION_TABLES; t++)
			if (strcmp(tbl, versioned[t]) == 0 &&
			    sqlite3_column_type(s, 1) == SQLITE_INTEGER) {
				out->v[t] = sqlite3_column_int64(s, 1);
				seen |= 1 << t;
			}
	}
	sqlite3_finalize(s);
	for (int t = 0; t < VERSION_TABLES; t++) {
		int n = snprintf(sql, sizeof(sql), "SELECT "
		    "coalesce(max(rowid), 0) FROM main.%s", versioned[t]);

		if (n < 0 || (size_t)n >= sizeof(sql) ||
		    !one_int(&out->max_rowid[t], st, sql))
			return;
	}
	out->ok = seen == (1 << VERSION_TABLES) - 1;
}

static int
check_schema(mirror_store *st, mirror_error *err)
{
	int rc, present, version, mirror_present = 0, rule_present = 0;

	/* Touch the header first: corruption shows here, with its name. */
	rc = exec(st, "SELECT count(*) FROM sqlite_schema",
	    "cannot read the database", err);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < NELEM(store_owned); i++) {
		rc = check_table(st, &store_owned[i], 0, &present, err);
		if (rc < 0)
			return rc;
		if (strcmp(store_owned[i].table, "memory_audit") == 0)
			st->feat.has_audit = present;
	}
	rc = check_optional_cols(st, err);
	if (rc < 0)
		return rc;
	rc = read_mirror_version(st, &version, err);
	if (rc < 0)
		return rc;
	if (version > MIRROR_SCHEMA_VERSION)
		return mirror_fail(err, MIRROR_EINPUT, "store %s: mirror "
		    "schema version %d is newer than this mirror understands "
		    "(%d); upgrade mirror", st->path, version,
		    MIRROR_SCHEMA_VERSION);
	for (size_t i = 0; i < NELEM(mirror_owned); i++) {
		rc = check_table(st, &mirror_owned[i], 1, &present, err);
		if (rc < 0)
			return rc;
		mirror_present += present;
	}
	if (version != 0 && mirror_present != (int)NELEM(mirror_owned))
		return mirror_fail(err, MIRROR_EINPUT, "store %s: mirror_meta "
		    "is present but mirror's conflict tables are not",
		    st->path);
	for (size_t i = 0; i < NELEM(rule_owned); i++) {
		rc = check_table(st, &rule_owned[i], 1, &present, err);
		if (rc < 0)
			return rc;
		rule_present += present;
	}
	if (version >= 2 && rule_present != (int)NELEM(rule_owned))
		return mirror_fail(err, MIRROR_EINPUT, "store %s: mirror_meta "
		    "says schema version %d but mirror's rule tables are not "
		    "all there", st->path, version);
	/* Decided in doc/reliability.md: a trigger on a table mirror
	 * writes could change facts inside the sweep's transaction, after
	 * they were checked; mirror creates none, so any is refused. */
	if (st->mode == STORE_WRITE &&
	    (rc = store_check_triggers(st, err)) < 0)
		return rc;
	if (st->mode == STORE_WRITE &&
	    (version < MIRROR_SCHEMA_VERSION ||
	    mirror_present != (int)NELEM(mirror_owned) ||
	    rule_present != (int)NELEM(rule_owned) || !st->feat.has_audit)) {
		/* Also the migration from version 1: every statement of
		 * the contract is CREATE ... IF NOT EXISTS. */
		rc = create_mirror_tables(st, err);
		if (rc < 0)
			return rc;
		st->feat.has_audit = 1;
		mirror_present = NELEM(mirror_owned);
		rule_present = NELEM(rule_owned);
	}
	st->feat.has_mirror_tables = mirror_present == (int)NELEM(mirror_owned);
	st->feat.has_rule_tables = rule_present == (int)NELEM(rule_owned);
	return 0;
}

/* 1 when this process may write path and create files beside it
 * (what rolling back a journal needs), else 0. */
static int
writable(const char *path)
{
	char *copy = xstrdup(path);
	int ok;

	ok = access(path, W_OK) == 0 &&
	    access(dirname(copy), W_OK | X_OK) == 0;
	free(copy);
	return ok;
}

/* 1 when path exists (lstat: a link counts), else 0. */
static int
exists(const char *path)
{
	struct stat sb;

	return lstat(path, &sb) == 0;
}

/*
 * The open of st failed with SQLite code rc. When that is a WAL-mode
 * store that cannot create its -wal and -shm files beside it (SQLite
 * says SQLITE_READONLY_DIRECTORY, "attempt to write a readonly
 * database", for a directory this user cannot write, and
 * SQLITE_CANTOPEN, "unable to open database file", on a read-only file
 * system), say so and what to do, and return -MIRROR_EIO. Else return
 * 0 and leave err alone, for store_fail.
 * The store's header (its journal mode) is not read: the store is
 * opened by SQLite alone (doc/reliability.md). Told by the code, by
 * access(2) and statvfs(3) of the directory, and by no -shm beside the
 * store; a store that is not readable is left to store_fail.
 */
static int
wal_parallel(mirror_store *st, int rc, mirror_error *err)
{
	char *copy, *dir;
	struct statvfs vfs;
	strbuf side;
	int rofs, prim = rc & 0xff, out = 0;

	if (st->db != NULL && prim == (sqlite3_extended_errcode(st->db) & 0xff))
		rc = sqlite3_extended_errcode(st->db);
	if (rc != SQLITE_READONLY_DIRECTORY && rc != SQLITE_READONLY_CANTINIT &&
	    prim != SQLITE_CANTOPEN)
		return 0;
	if (access(st->path, R_OK) != 0)
		return 0;
	strbuf_init(&side);
	strbuf_printf(&side, "%s-shm", st->path);
	copy = xstrdup(st->path);
	dir = dirname(copy);
	rofs = statvfs(dir, &vfs) == 0 && (vfs.f_flag & ST_RDONLY) != 0;
	if (exists(side.data) || (!rofs && access(dir, W_OK | X_OK) == 0))
		goto done;
	if (rofs)
		out = mirror_fail(err, MIRROR_EIO, "store %s: a WAL-mode store "
		    "needs to create %s-wal and %s-shm beside it, and %s is on "
		    "a read-only file system; convert it once with sqlite3 %s "
		    "'PRAGMA journal_mode=DELETE' where it is writable, or "
		    "copy it to a writable directory", st->path, st->path,
		    st->path, dir, st->path);
	else
		out = mirror_fail(err, MIRROR_EIO, "store %s: a WAL-mode store "
		    "needs to create %s-wal and %s-shm beside it, and %s is "
		    "not writable by this user; give this user write access "
		    "to %s%s%s%s", st->path, st->path, st->path, dir, dir,
		    st->mode == STORE_WRITE ? "" : ", or convert it once with "
		    "sqlite3 ", st->mode == STORE_WRITE ? "" : st->path,
		    st->mode == STORE_WRITE ? "" : " 'PRAGMA journal_mode="
		    "DELETE' as its owner");
done:
	free(copy);
	strbuf_free(&side);
	return out;
}

/*
 * SQL function mirror_ts(text): the seconds since 1970 of a store
 * timestamp as mirror_parse_ts reads it (the sweep's and the pages'
 * reading), NULL when it is not one. Comparing the text instead would
 * put '2023-11-14T01:00:00Z' after '2023-11-14 22:00:00'.
 */
static void
sql_mirror_ts(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *s = (const char *)sqlite3_value_text(argv[0]);
	time_t t;

	(void)argc;
	if (s != NULL && mirror_parse_ts(&t, s) == 0)
		sqlite3_result_int64(ctx, (sqlite3_int64)t);
	else
		sqlite3_result_null(ctx);
}

/*
 * SQL mirror_key(text, key): the bytes the caller's struct store_key
 * (bound as a pointer of type STORE_KEY_TYPE) makes of text, as a blob,
 * so a query sorts by the caller's order; NULL for a NULL text or no
 * key.
 */
static void
sql_mirror_key(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const struct store_key *k = sqlite3_value_pointer(argv[1],
	    STORE_KEY_TYPE);
	const char *s = (const char *)sqlite3_value_text(argv[0]);
	strbuf sb;

	(void)argc;
	if (s == NULL || k == NULL) {
		sqlite3_result_null(ctx);
		return;
	}
	strbuf_init(&sb);
	k->make(&sb, s, (size_t)sqlite3_value_bytes(argv[0]), k->arg);
	sqlite3_result_blob(ctx, sb.data != NULL ? sb.data : "", (int)sb.len,
	    SQLITE_TRANSIENT);
	strbuf_free(&sb);
}

/* SQL collation mirror_natural: text_natural_cmp's order (util/text.h),
 * numbers as numbers, so a query sorts project ids as the pages list
 * them ("p2" before "p10"). */
static int
sql_natural(void *arg, int na, const void *a, int nb, const void *b)
{
	(void)arg;
	return text_natural_cmp(a, (size_t)na, b, (size_t)nb);
}

/*
 * Open st->db on st->path with flags and configure it (extended codes,
 * busy timeout, the query budget, mirror_ts, mirror_key,
 * mirror_natural), then read the header.
 * Returns the SQLite code of the first failure, or SQLITE_OK.
 */
static int
store_connect(mirror_store *st, int flags)
{
	int rc;

	rc = sqlite3_open_v2(st->path, &st->db, flags, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_extended_result_codes(st->db, 1);
	sqlite3_busy_timeout(st->db, st->mode == STORE_READ_NOWAIT ? 0 :
	    busy_timeout_ms());
	budget_install(st);
	rc = sqlite3_create_function(st->db, "mirror_ts", 1, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL, sql_mirror_ts,
	    NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(st->db, "mirror_key", 2,
		    SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY,
		    NULL, sql_mirror_key, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_collation_v2(st->db, "mirror_natural",
		    SQLITE_UTF8, NULL, sql_natural, NULL);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_exec(st->db, "SELECT count(*) FROM main.sqlite_schema",
	    NULL, NULL, NULL);
	/* From here each row and VM step is counted (not the opening's
	 * read above). */
	if (rc == SQLITE_OK)
		(void)sqlite3_trace_v2(st->db, SQLITE_TRACE_STMT |
		    SQLITE_TRACE_ROW | SQLITE_TRACE_PROFILE, budget_trace, st);
	return rc;
}

/*
 * A read-only connection cannot roll back a hot journal (or recover a
 * WAL) that a crashed writer left. When this process may write the store
 * and its directory, do what SQLite's own shell does: open it read-write
 * once, read, close (SQLite rolls the journal back, restoring the last
 * committed state), then connect read-only again. Returns the SQLite
 * code of the read-only connection's first read.
 */
static int
connect_read(mirror_store *st, int flags)
{
	int rc = store_connect(st, flags);

	if ((rc == SQLITE_READONLY_ROLLBACK || rc == SQLITE_READONLY_RECOVERY) &&
	    writable(st->path)) {
		sqlite3_close(st->db);
		st->db = NULL;
		rc = store_connect(st, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX);
		sqlite3_close(st->db);
		st->db = NULL;
		if (rc != SQLITE_OK)
			return store_connect(st, flags);
		rc = store_connect(st, flags);
	}
	return rc;
}

/*
 * The counting allocator (struct store_memcap): SQLite's own allocator
 * (mem_base), with what an armed thread allocates and frees counted
 * on that thread's bound. A thread-local pointer costs a load per
 * call, where SQLite's memory statistics cost a process-wide mutex.
 */
static sqlite3_mem_methods mem_base;
static int mem_counting;            /* installed before initialization */

/* Count d bytes more (or fewer) on c. Returns nothing. */
static void
mem_count(struct store_memcap *c, long long d)
{
	c->used += d;
	if (c->used > c->peak)
		c->peak = c->used;
	if (c->used > c->soft && c->over == 0)
		c->over = 1;
}

/* xMalloc: NULL past the armed thread's hard bound. */
static void *
mem_malloc(int n)
{
	struct store_memcap *c = mem_cap;
	void *p;

	if (c != NULL && c->used + n > c->hard) {
		c->over = 2;
		return NULL;
	}
	p = mem_base.xMalloc(n);
	if (p != NULL && c != NULL)
		mem_count(c, mem_base.xSize(p));
	return p;
}

/* xFree. */
static void
mem_free(void *p)
{
	struct store_memcap *c = mem_cap;

	if (p != NULL && c != NULL)
		mem_count(c, -(long long)mem_base.xSize(p));
	mem_base.xFree(p);
}

/* xRealloc: NULL (p kept) past the armed thread's hard bound. */
static void *
mem_realloc(void *p, int n)
{
	struct store_memcap *c = mem_cap;
	long long old = c != NULL && p != NULL ? mem_base.xSize(p) : 0;
	void *q;

	if (c != NULL && c->used - old + n > c->hard) {
		c->over = 2;
		return NULL;
	}
	q = mem_base.xRealloc(p, n);
	if (q != NULL && c != NULL)
		mem_count(c, mem_base.xSize(q) - old);
	return q;
}

/* Install the counting allocator over SQLite's (before initialization). */
static void
mem_install(void)
{
	sqlite3_mem_methods m;

	if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &mem_base) != SQLITE_OK)
		return;
	m = mem_base;
	m.xMalloc = mem_malloc;
	m.xFree = mem_free;
	m.xRealloc = mem_realloc;
	mem_counting = sqlite3_config(SQLITE_CONFIG_MALLOC, &m) == SQLITE_OK;
}

int
store_memcap_arm(struct store_memcap *cap)
{
	cap->used = 0;
	cap->peak = 0;
	cap->over = 0;
	if (!mem_counting)
		return -1;
	mem_cap = cap;
	return 0;
}

void
store_memcap_disarm(void)
{
	mem_cap = NULL;
}

/*
 * Configure the SQLite library for the process, once, before its first
 * connection: the counting allocator, statement journals and TEMP's in
 * memory (STORE_STMT_JOURNAL_MEM), and no memory statistics (nothing here reads them, and keeping them
 * takes one process-wide mutex on every allocation: with the rules'
 * thread in parallel with the sweep, that lock slowed the sweep measurably).
 * A sort holds at least STORE_SORT_PAGES pages in memory before it
 * writes a run to a temporary file (SQLite's least is 250, 1 MiB; a
 * reader's sort holds the most of that and its page cache): the build's
 * reader sorts each fact table whole on a connection of its own, and
 * four such sorts held 12.7 MB at the peak of an M build.
 * SQLite takes this only before it is initialized; when something
 * initialized it already, the default stays (slower, not wrong).
 */
static void
library_config(void)
{
	mem_install();
	(void)sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL,
	    STORE_STMT_JOURNAL_MEM);
	(void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	(void)sqlite3_config(SQLITE_CONFIG_PMASZ, STORE_SORT_PAGES);
}

/* library_config, once a process, before its first connection. */
static void
library_once(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	(void)pthread_once(&once, library_config);
}

/*
 * store_open, with the alias table of parent's image when parent is
 * not NULL and it has one (attach_aliases, shared or copied): see
 * store_open_beside. Returns as store_open.
 */
static int
open_store(mirror_store **out, const char *path, enum store_mode mode,
    const mirror_store *parent, int shared, mirror_error *err)
{
	mirror_store *st;
	int flags, rc;

	*out = NULL;
	library_once();
	rc = check_path(path, err);
	if (rc < 0)
		return rc;
	/* Its companions as they are now: no user file may be one. */
	store_place_guard(path);
	st = xcalloc(1, sizeof(*st));
	pthread_mutex_init(&st->spare_mu, NULL);
	st->path = xstrdup(path);
	st->mode = mode;
	flags = (mode == STORE_WRITE ? SQLITE_OPEN_READWRITE :
	    SQLITE_OPEN_READONLY) | SQLITE_OPEN_NOMUTEX;
	rc = mode == STORE_WRITE ? store_connect(st, flags) : connect_read(st, flags);
	if (rc != SQLITE_OK) {
		int wal = wal_parallel(st, rc, err);

		rc = wal < 0 ? wal : store_fail(st, err, rc, st->db != NULL ?
		    "cannot read the database" : "cannot open");
		goto fail;
	}
	if (mode == STORE_WRITE && sqlite3_db_readonly(st->db, "main") == 1) {
		rc = mirror_fail(err, MIRROR_EINPUT, "store %s: read-only, "
		    "but this command writes conflicts to it", path);
		goto fail;
	}
	/* Foreign keys matter for ON DELETE CASCADE of conflict members. */
	rc = exec(st, "PRAGMA foreign_keys = ON", "cannot configure", err);
	/* A reader's page cache (and its sorts' memory, which SQLite sizes
	 * by it and STORE_SORT_PAGES) at 256 KiB, not 2 MiB: a build opens
	 * up to ten connections, each reading its part of the store once;
	 * the kernel caches the file for all of them. */
	if (rc == 0 && mode != STORE_WRITE)
		rc = exec(st, "PRAGMA cache_size = -256", "cannot configure",
		    err);
	/* A reader's checks and aliases in one read: in autocommit each of
	 * their 35 statements was a transaction of its own (the lock, the
	 * file's size and change counter, the journal and the WAL looked
	 * up: about four system calls each, on each of the up to ten
	 * connections a build opens). A writer's check may add mirror's
	 * tables in a transaction of its own. */
	if (rc == 0 && mode != STORE_WRITE)
		rc = exec(st, "BEGIN", "cannot read the database", err);
	if (rc == 0)
		rc = check_schema(st, err);
	if (parent != NULL && parent->aliases == NULL)
		parent = NULL;
	if (rc == 0 && parent == NULL)
		rc = load_aliases(st, err);
	if (rc == 0 && mode != STORE_WRITE)
		rc = exec(st, "COMMIT", "cannot read the database", err);
	if (rc == 0 && parent != NULL)
		rc = attach_aliases(st, parent, shared, err);
	else if (rc == 0)
		alias_image_take(st);
	if (rc < 0 && !sqlite3_get_autocommit(st->db))
		(void)sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	if (rc < 0)
		goto fail;
	*out = st;
	return 0;
fail:
	store_close(st);
	return rc;
}

int
store_open(mirror_store **out, const char *path, enum store_mode mode,
    mirror_error *err)
{
	return open_store(out, path, mode, NULL, 0, err);
}

int
store_open_beside(mirror_store **out, const mirror_store *parent,
    enum store_mode mode, mirror_error *err)
{
	return open_store(out, parent->path, mode, parent, 0, err);
}

int
store_open_shared(mirror_store **out, const mirror_store *parent,
    enum store_mode mode, mirror_error *err)
{
	return open_store(out, parent->path, mode, parent, 1, err);
}

int
store_create(const char *path, mirror_error *err)
{
	mirror_store st = { 0 };
	char *pathcopy;
	int fd, rc;

	/* O_EXCL: an existing file, or a link to one, is never touched. */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return mirror_fail(err, MIRROR_EINPUT, "store %s: %s", path,
		    errno == EEXIST ? "already exists; init refuses to touch "
		    "an existing file" : strerror(errno));
	close(fd);
	st.path = pathcopy = xstrdup(path);
	library_once();
	rc = sqlite3_open_v2(path, &st.db, SQLITE_OPEN_READWRITE, NULL);
	if (rc != SQLITE_OK) {
		rc = store_fail(&st, err, rc, "cannot create");
		goto out;
	}
	sqlite3_busy_timeout(st.db, MIRROR_BUSY_TIMEOUT_MS);
	rc = create_mirror_tables(&st, err);
	if (rc == 0)
		rc = store_versions_install(&st, err);
out:
	sqlite3_close(st.db);
	free(pathcopy);
	if (rc < 0)
		(void)unlink(path);
	return rc;
}

/* Close every spare of st (store_spare_put), their reads ended. */
static void
spares_drop(mirror_store *st)
{
	mirror_store *drop[STORE_SPARES];
	int n;

	pthread_mutex_lock(&st->spare_mu);
	n = st->n_spare;
	memcpy(drop, st->spare, sizeof(drop));
	st->n_spare = 0;
	pthread_mutex_unlock(&st->spare_mu);
	while (n > 0) {
		store_read_end(drop[--n]);
		store_close(drop[n]);
	}
}

mirror_store *
store_spare_take(mirror_store *st)
{
	mirror_store *c = NULL;

	if (sqlite3_txn_state(st->db, "main") != SQLITE_TXN_READ) {
		spares_drop(st);
		return NULL;
	}
	pthread_mutex_lock(&st->spare_mu);
	while (c == NULL && st->n_spare > 0) {
		int k = --st->n_spare;

		if (st->spare_gen[k] == st->read_gen)
			c = st->spare[k];
		else {
			/* Of an earlier read: not this snapshot. */
			pthread_mutex_unlock(&st->spare_mu);
			store_read_end(st->spare[k]);
			store_close(st->spare[k]);
			pthread_mutex_lock(&st->spare_mu);
		}
	}
	pthread_mutex_unlock(&st->spare_mu);
	return c;
}

void
store_spare_put(mirror_store *st, mirror_store *conn, unsigned long gen)
{
	pthread_mutex_lock(&st->spare_mu);
	if (gen == st->read_gen && st->n_spare < STORE_SPARES) {
		st->spare_gen[st->n_spare] = gen;
		st->spare[st->n_spare++] = conn;
		conn = NULL;
	}
	pthread_mutex_unlock(&st->spare_mu);
	if (conn != NULL) {
		store_read_end(conn);
		store_close(conn);
	}
}

unsigned long
store_read_gen(mirror_store *st)
{
	unsigned long gen;

	pthread_mutex_lock(&st->spare_mu);
	gen = st->read_gen;
	pthread_mutex_unlock(&st->spare_mu);
	return gen;
}

void
store_close(mirror_store *st)
{
	if (st == NULL)
		return;
	spares_drop(st);
	pthread_mutex_destroy(&st->spare_mu);
	sqlite3_close(st->db);
	alias_image_drop(st->aliases);
	free(st->path);
	free(st);
}

sqlite3 *
store_db(const mirror_store *st)
{
	return st->db;
}

const char *
store_path(const mirror_store *st)
{
	return st->path;
}

const struct store_features *
store_features(const mirror_store *st)
{
	return &st->feat;
}

int
store_read_begin(mirror_store *st, mirror_error *err)
{
	int rc;

	/* The spares of the read before read another snapshot. */
	spares_drop(st);
	pthread_mutex_lock(&st->spare_mu);
	st->read_gen++;
	pthread_mutex_unlock(&st->spare_mu);
	rc = exec(st, "BEGIN", "cannot begin a read", err);

	/* A deferred transaction takes its snapshot at the first read. */
	if (rc == 0)
		rc = exec(st, "SELECT count(*) FROM main.sqlite_schema",
		    "cannot begin a read", err);
	return rc;
}

void
store_read_end(mirror_store *st)
{
	spares_drop(st);
	(void)sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
}

int
store_step(mirror_store *st, sqlite3_stmt *stmt)
{
	/* Not the clock read (a digest's 128,000 steps at 100,000 facts
	 * read it as often): the next progress call restarts it, leaving
	 * the statement's first thousand steps since uncharged. */
	st->resumed = 1;
	return sqlite3_step(stmt);
}

int
store_project_known(mirror_store *st, const char *name, const char *table,
    mirror_error *err)
{
	char sql[128];
	long long n;
	int rc, w;

	rc = store_count(&n, st, "SELECT count(*) FROM temp.project_alias "
	    "WHERE name = ?1", name, err);
	if (rc == 0 && n == 0 && table != NULL) {
		w = snprintf(sql, sizeof(sql), "SELECT count(*) FROM main.%s "
		    "WHERE project = ?1", table);
		if (w < 0 || (size_t)w >= sizeof(sql))
			return mirror_fail(err, MIRROR_EIO, "internal: sql");
		rc = store_count(&n, st, sql, name, err);
	}
	if (rc == 0 && n == 0)
		rc = mirror_fail(err, MIRROR_EINPUT, "no project '%s' in %s",
		    name, store_path(st));
	return rc;
}

int
store_data_version(long long *out, mirror_store *st, mirror_error *err)
{
	return store_count(out, st, "PRAGMA main.data_version", NULL, err);
}

/* A big-endian 32-bit number of the header at off. */
static unsigned long
header_u32(const unsigned char *h, int off)
{
	return (unsigned long)h[off] << 24 | (unsigned long)h[off + 1] << 16 |
	    (unsigned long)h[off + 2] << 8 | (unsigned long)h[off + 3];
}

int
store_shares_snapshot(mirror_store *st)
{
	sqlite3_stmt *s = NULL;
	int wal = 1;

	if (sqlite3_txn_state(st->db, "main") != SQLITE_TXN_READ)
		return 0;
	if (sqlite3_prepare_v2(st->db, "PRAGMA main.journal_mode", -1, &s,
	    NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW &&
	    sqlite3_column_text(s, 0) != NULL)
		wal = strcasecmp((const char *)sqlite3_column_text(s, 0),
		    "wal") == 0;
	sqlite3_finalize(s);
	return !wal;
}

int
store_print(char out[STORE_PRINT_SIZE], mirror_store *st)
{
	sqlite3_file *f = NULL;
	sqlite3_int64 size = -1;
	unsigned char h[100];
	char text[160];
	struct stat sb;
	int n;

	out[0] = '\0';
	if (sqlite3_file_control(st->db, "main", SQLITE_FCNTL_FILE_POINTER,
	    &f) != SQLITE_OK || f == NULL || f->pMethods == NULL ||
	    f->pMethods->xRead(f, h, (int)sizeof(h), 0) != SQLITE_OK ||
	    f->pMethods->xFileSize(f, &size) != SQLITE_OK)
		return 0;
	/* Bytes 18 and 19 are 2 in WAL mode; 24 is the change counter,
	 * 92 the version it is valid for (equal when a rollback-mode
	 * writer last wrote). */
	if (memcmp(h, "SQLite format 3", 16) != 0 || h[18] != 1 ||
	    h[19] != 1 || header_u32(h, 24) != header_u32(h, 92))
		return 0;
	if (stat(st->path, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    (sqlite3_int64)sb.st_size != size)
		return 0;
	/* What the print is made of, as text, then hashed: the print is
	 * kept in a file (core/store/memo.h) that need not tell the
	 * store's inode and times. */
	n = snprintf(text, sizeof(text), "%llx.%llx.%llx.%lld.%ld.%lld.%ld."
	    "%lx", (unsigned long long)sb.st_dev,
	    (unsigned long long)sb.st_ino, (unsigned long long)sb.st_size,
	    (long long)sb.st_ctim.tv_sec, (long)sb.st_ctim.tv_nsec,
	    (long long)sb.st_mtim.tv_sec, (long)sb.st_mtim.tv_nsec,
	    header_u32(h, 24));
	if (n < 0 || (size_t)n >= sizeof(text))
		return 0;
	hash_hex(out, hash_mix(hash_add(MIRROR_HASH_INIT, text, (size_t)n)));
	return 1;
}

int
store_count(long long *out, mirror_store *st, const char *sql, const char *p1,
    mirror_error *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;

	*out = 0;
	rc = sqlite3_prepare_v2(store_db(st), sql, -1, &stmt, NULL);
	if (rc == SQLITE_OK && p1 != NULL)
		rc = sqlite3_bind_text(stmt, 1, p1, -1, SQLITE_TRANSIENT);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(stmt);
		if (rc == SQLITE_ROW) {
			*out = sqlite3_column_int64(stmt, 0);
			rc = SQLITE_OK;
		}
	}
	if (rc != SQLITE_OK)
		rc = store_fail(st, err, rc, "cannot count rows");
	sqlite3_finalize(stmt);
	return rc;
}
