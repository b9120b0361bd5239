/*
 * store.h: opening a fact store (SQLite, laid out as in store-schema.sql).
 *
 * core/ is the only part of mirror that speaks SQL. A mirror_store is
 * one connection with busy_timeout set, whose schema has been checked
 * against the store contract:
 *   - the store-owned tables and their required columns must exist
 *     (extra tables and columns are ignored, optional columns noted);
 *   - the mirror-owned tables (conflicts, conflict_members, sweep_runs;
 *     from version 2 also rule_violations, violation_facts, rule_runs)
 *     are versioned in a table of mirror's own, mirror_meta, and never
 *     through PRAGMA user_version, which belongs to the store's owner.
 *     STORE_WRITE creates them when missing; STORE_READ treats missing
 *     mirror tables as "no conflicts yet".
 *   - TEMP table project_alias(name, canonical) maps every project id
 *     and alias to its canonical id, for joins in core's queries.
 */
#ifndef MIRROR_STORE_H
#define MIRROR_STORE_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "util/error.h"
#include "util/strbuf.h"

/* Version of the mirror-owned tables this build reads and writes. */
#define MIRROR_SCHEMA_VERSION 2

/* How long a connection waits for another writer's lock, in ms
 * (the environment variable of the same name overrides it). */
#define MIRROR_BUSY_TIMEOUT_MS 10000

/*
 * How long one statement may run inside SQLite, in ms (the environment
 * variable of the same name overrides it): time spent in SQLite's VM
 * from the statement's first step, the caller's time between steps not
 * counted. A statement past it fails, -MIRROR_EINPUT, naming what was
 * being read: a view or trigger that never ends cannot hang mirror.
 */
#define MIRROR_QUERY_TIMEOUT_MS 30000

enum store_mode {
	STORE_READ,   /* read-only connection: never changes the file but
	                 to roll back a hot journal a crashed writer left,
	                 when the store and its directory are writable */
	STORE_WRITE,  /* read-write: the sweep and the review commands */
	STORE_READ_NOWAIT /* as STORE_READ, but a lock held elsewhere fails
	                 at once (SQLITE_BUSY), never waited for: a second
	                 connection opened while this process holds a read
	                 (store/parallel.h) must not wait for a writer that
	                 waits for that read */
};

typedef struct mirror_store mirror_store;

/* The rowids of the latest run of each rule, the last rule_runs row
 * written for it: one pass, where a lookup per rule or per row scanned
 * rule_runs, which has no index on rule_id and gains a row per rule
 * every sweep. For "rowid IN (" STORE_LATEST_RULE_RUNS ")". */
#define STORE_LATEST_RULE_RUNS \
	"SELECT max(rowid) FROM main.rule_runs GROUP BY rule_id"

/* Optional parts of the contract that this store has. */
struct store_features {
	int has_mirror_tables;      /* conflicts, conflict_members, sweep_runs */
	int has_rule_tables;        /* rule_violations, violation_facts,
	                               rule_runs (schema version 2) */
	int has_audit;              /* memory_audit */
	int mem_reference_count;    /* memories.reference_count */
	int mem_domain_tags;        /* memories.domain_tags */
	int mem_valid_until;        /* memories.valid_until */
	int mem_graduated;          /* memories.graduated_to_entity_id */
	int rel_created_at;         /* relationships.created_at (no page
	                               shows it; rules read it) */
};

/*
 * Open the store at path. On success *out holds a store the caller must
 * release with store_close. On failure returns -MIRROR_EINPUT (missing,
 * not SQLite, corrupt, wrong schema, read-only when STORE_WRITE) or
 * -MIRROR_EIO, with err naming the file and the reason; nothing in the
 * file has been changed.
 */
int store_open(mirror_store **out, const char *path, enum store_mode mode,
    mirror_error *err);

/*
 * store_open on parent's file for work beside parent (the rules'
 * reader): its TEMP project_alias is a copy of parent's, made from the
 * image of it parent's opening kept, where store_open reads every
 * project again and checks their aliases (a connection of a one-fact
 * build then reads none: doc/performance.md, "Work counters"). parent
 * is only read, and may be used by another thread meanwhile; it may be
 * closed first. Returns as store_open.
 */
int store_open_beside(mirror_store **out, const mirror_store *parent,
    enum store_mode mode, mirror_error *err);

/*
 * store_open_beside with nothing copied (store/parallel.h): TEMP
 * project_alias is a view of parent's image, attached read-only as
 * schema mirror_alias, so opening costs the same whatever the number of
 * projects. SQL reads temp.project_alias as a table; a rule, which may
 * read temp and main alone, needs store_open_beside's copy.
 */
int store_open_shared(mirror_store **out, const mirror_store *parent,
    enum store_mode mode, mirror_error *err);

/*
 * Create a new, empty store at path with the whole contract schema and
 * the mirror-owned tables. Refuses (-MIRROR_EINPUT) when anything exists
 * at path; on any failure removes what it created.
 */
int store_create(const char *path, mirror_error *err);

/* Close the connection and free st (NULL is a no-op). */
void store_close(mirror_store *st);

/*
 * A sort key a query can order by: SQL mirror_key(text, ?) with the
 * parameter bound by sqlite3_bind_pointer(stmt, i, key, STORE_KEY_TYPE,
 * NULL) is the blob make appends to out for the len bytes of text (valid
 * UTF-8, no NUL: what storerow_text accepts), and arg.
 */
#define STORE_KEY_TYPE "mirror_key"
struct store_key {
	void (*make)(strbuf *out, const char *text, size_t len, void *arg);
	void *arg;
};

/* The connection, for core's own modules. Owned by st. */
sqlite3 *store_db(const mirror_store *st);

/* The path given to store_open. Owned by st. */
const char *store_path(const mirror_store *st);

const struct store_features *store_features(const mirror_store *st);

/*
 * Begin and end one consistent read (a deferred transaction with its
 * snapshot taken at once), so that everything read between the two calls
 * comes from the same state of the store. Return 0 or -MIRROR_EINPUT.
 */
int store_read_begin(mirror_store *st, mirror_error *err);
void store_read_end(mirror_store *st);

/*
 * Set *out to the one integer sql returns, with text parameter ?1 bound
 * to p1 when not NULL. Returns 0 or < 0 with err set ("cannot count
 * rows").
 */
int store_count(long long *out, mirror_store *st, const char *sql,
    const char *p1, mirror_error *err);

/*
 * sqlite3_step(stmt), stmt prepared on st, with the query budget's clock
 * restarted at the step's first progress call: the caller's time since
 * the statement's last step is not the statement's (nor are the up to
 * 1,000 VM steps before that call). A plain sqlite3_step tells the
 * caller's time from SQLite's by the gap between progress calls alone,
 * so a cursor stepped between many short pieces of work (a page a
 * project) would be charged for them all. Returns what sqlite3_step
 * returns.
 */
int store_step(mirror_store *st, sqlite3_stmt *stmt);

/* The ids store_free_id makes: prefix, then hexlen hex digits, free
 * while the statement taken (prepared on st, its one parameter ?1 the
 * id) finds no row for one. */
struct store_id_space {
	mirror_store *st;
	sqlite3_stmt *taken;
	const char *prefix;
	size_t hexlen;
};

/*
 * A new id of sp into out[0..size): sp->prefix, then the first
 * sp->hexlen hex digits of hash_nth(base, k) (util/hash.h) for the first
 * k = 0, 1, ... whose id is free: ids made from the data alone, moved on
 * deterministically while taken. Returns 0, or < 0 with err set (also
 * -MIRROR_EIO when out is too small).
 */
int store_free_id(char *out, size_t size, const struct store_id_space *sp,
    uint64_t base, mirror_error *err);

/*
 * Set the query budget of the statements st starts from now on to ms
 * milliseconds of SQLite time (ms <= 0: back to MIRROR_QUERY_TIMEOUT_MS
 * or its variable), so a caller can hold one statement to a budget of
 * its own (core/rules: each rule). Returns nothing.
 */
void store_budget_set(mirror_store *st, long long ms);

/*
 * Hold the statements st starts from now on to ksteps thousand SQLite VM
 * steps instead of the query budget of time (ksteps <= 0: back to
 * time), and, ms > 0, all of them together to ms milliseconds of wall
 * clock from now. The same store and SQLite take the same steps on any
 * machine under any load, so what such a budget stops, it stops
 * everywhere: the budget of a rule, whose failure shows on the pages;
 * the deadline, far above what the steps take, stops what one step
 * does at length (a sorter writing gigabytes). Returns nothing.
 */
void store_steps_set(mirror_store *st, long long ksteps, long long ms);

/* What stopped a statement (store_budget_tripped). */
#define STORE_TRIPPED_STEPS 1       /* its budget of steps */
#define STORE_TRIPPED_TIME 2        /* its budget of time or deadline */
#define STORE_TRIPPED_MEMORY 3      /* its thread's bound of memory */

/*
 * A bound on the memory SQLite allocates for one thread while the
 * bound is armed there (a rule's evaluation). Every allocation SQLite
 * makes passes through mirror's counting allocator (set up before the
 * first connection): on the armed thread, used counts what it
 * allocated less what it freed; past soft, the statements running on
 * that thread are stopped at their next progress call
 * (STORE_TRIPPED_MEMORY); an allocation that would pass hard is
 * refused (SQLITE_NOMEM, which ends the connection's transaction: the
 * caller sees it by sqlite3_get_autocommit). The caller owns it.
 */
struct store_memcap {
	long long used;             /* bytes, since armed */
	long long peak;             /* the most used held */
	long long soft, hard;
	int over;                   /* 0; 1 past soft; 2 refused past hard */
};

/* Arm cap (soft and hard set by the caller, the rest zeroed here) on
 * the calling thread until store_memcap_disarm. Returns 0, or -1 when
 * the counting allocator is not installed (SQLite was set up by
 * someone else first): the bound then does not hold. */
int store_memcap_arm(struct store_memcap *cap);

/* Disarm the calling thread's bound. Returns nothing. */
void store_memcap_disarm(void);

/* STORE_TRIPPED_* when the budget stopped the statement that ran last
 * on st, else 0. */
int store_budget_tripped(const mirror_store *st);

/*
 * 1 when the deadline store_steps_set gave st has passed (the running
 * statement is then tripped by time, as the progress handler would
 * trip it), else 0: for a function that may run long inside one step.
 */
int store_past_deadline(mirror_store *st);

/*
 * 0 when name is a project id or alias of st (TEMP project_alias) or,
 * table not NULL, the project column of one of table's rows (a table
 * of mirror's own, named by the caller, never user text); else
 * -MIRROR_EINPUT "no project 'NAME' in STORE", or the store's error.
 * The filters of the conflict and violation lists take such names.
 */
int store_project_known(mirror_store *st, const char *name,
    const char *table, mirror_error *err);

/*
 * PRAGMA data_version of st's connection into *out: two reads of it
 * give the same number unless another connection committed a change
 * in between (this connection's own writes do not count). Returns 0 or
 * < 0 with err set.
 */
int store_data_version(long long *out, mirror_store *st, mirror_error *err);

/*
 * 1 when a second connection that opens st's file now and begins a read
 * (store_open, store_read_begin: work for another thread) reads exactly
 * the rows st reads: st is inside a read transaction, so it holds the
 * file's shared lock and no writer can commit until its read ends, and
 * the store is not in WAL mode, where a new reader may see a later
 * commit. The caller keeps st's read open until the other connection
 * has read. Else 0: st reads alone.
 */
int store_shares_snapshot(mirror_store *st);

/*
 * Spares (for store/parallel.c): a second connection whose work is done
 * goes back to the store it reads beside, its read still open, and the
 * next work beside that store in the same read takes it instead of
 * opening one (its schema checked, its aliases loaded and its page
 * cache warm). store_spare_take on st's thread returns one (the
 * caller's from then on) or NULL; store_spare_put, from any thread,
 * keeps conn, which began its read while st's read of generation gen
 * (store_read_gen) was open, or closes it when st has begun another
 * read since or holds STORE_SPARES already. st's spares are closed when
 * its read ends or begins, and when it closes.
 */
#define STORE_SPARES 8
mirror_store *store_spare_take(mirror_store *st);
void store_spare_put(mirror_store *st, mirror_store *conn, unsigned long gen);
unsigned long store_read_gen(mirror_store *st);

/* The size of a store's file print (16 hex digits), with its NUL. */
#define STORE_PRINT_SIZE 17

/*
 * The file print of st's main database, inside a read (store_read_begin
 * took the shared lock, so no writer can change the file until it ends):
 * a 64-bit hash, as hex, of its device, inode, size, change and modify
 * times, and the header's change counter, which SQLite raises on every
 * transaction that changes a file in rollback-journal mode. Two equal
 * prints mean no write reached the file in between, so the rows are
 * those a digest took when the first print was. Returns 1 with out filled; 0 with out empty when
 * the file cannot vouch for itself: a WAL store (its writes wait in the
 * -wal file), or a file SQLite does not read through the unix VFS.
 */
int store_print(char out[STORE_PRINT_SIZE], mirror_store *st);

/*
 * Record a failed SQLite call on st in err: "store PATH: WHAT: sqlite's
 * message". Returns -MIRROR_EINPUT, or -MIRROR_EIO for I/O, full-disk
 * and lock failures and for a hot journal a read-only connection cannot
 * roll back (the message names the journal and how to recover); a
 * statement stopped by the query budget is -MIRROR_EINPUT saying so.
 */
int store_fail(mirror_store *st, mirror_error *err, int rc, const char *what);

/*
 * Refuse triggers on the tables mirror writes (conflicts,
 * conflict_members, sweep_runs, mirror_meta): mirror creates none, and
 * one could change facts inside the sweep's transaction after they were
 * checked. Returns 0, or -MIRROR_EINPUT naming the table and trigger.
 */
int store_check_triggers(mirror_store *st, mirror_error *err);

/*
 * The fact tables' versions: a random version per table, set anew by
 * triggers mirror adds to the store on every row a writer inserts,
 * updates or deletes (doc/store.md, "Table versions"), so a build can
 * tell the tables nobody wrote since it last read them without reading
 * them.
 *
 * mirror_table_versions holds one row per versioned table; each table
 * carries three triggers (mirror_version_<table>_insert, _update,
 * _delete) whose one statement sets its row's v to random(). A version
 * is not a count: two stores never share one unless one is a copy of
 * the other, and a store restored from a backup carries the version its
 * rows had then. What a version promises holds only while the triggers
 * are mirror's, word for word, and the schema is unchanged: a reader
 * checks both (store_versions_read).
 */

/* The versioned tables, in this order (struct store_versions' v). */
enum { VERSION_PROJECTS, VERSION_STATE, VERSION_ENTITIES,
    VERSION_RELATIONSHIPS, VERSION_MEMORIES, VERSION_TABLES };

/* What a read of the versions found. */
struct store_versions {
	int ok;                         /* 1: every trigger is mirror's and
	                                   every table has its version */
	long long v[VERSION_TABLES];    /* each table's version */
	long long max_rowid[VERSION_TABLES]; /* its greatest rowid (0:
	                                   none): a VACUUM that renumbers
	                                   rows, which no trigger sees,
	                                   moves it */
	long long schema;               /* PRAGMA schema_version */
};

/*
 * Add mirror_table_versions and its triggers to st (opened to write)
 * where any of them is missing, with the index of the entities that
 * carry a window (mirror_entity_windows, which the starter anachronism
 * rules read through), in a transaction of its own; a trigger of that
 * name that is not mirror's is left alone (the versions are then never
 * trusted), and so is an index of that name. Returns 0 or < 0 with err
 * set.
 */
int store_versions_install(mirror_store *st, mirror_error *err);

/*
 * store_versions_install on st when it is opened to write, after a
 * command's writes succeeded (a build's, a sweep's): never waiting for
 * a lock, never failing (a store that cannot take them now gets them at
 * a later command). Returns nothing.
 */
void store_versions_add(mirror_store *st);

/*
 * Read st's versions, schema cookie and greatest rowids, in st's
 * current read. Never fails: a store without the table, with a trigger
 * missing or not mirror's, or one that cannot be read gives out->ok 0.
 */
void store_versions_read(struct store_versions *out, mirror_store *st);

#endif
