/*
 * rules_int.h: what the files of core/rules share and nothing outside
 * may use: the guard a rule runs under (rules_guard.c) and the
 * recording of a rule's hits (rules_record.c).
 */
#ifndef MIRROR_RULES_INT_H
#define MIRROR_RULES_INT_H

#include <stdint.h>

#include <sqlite3.h>

#include "rules/rules.h"
#include "util/hashtab.h"

/* The longest value a rule's result may hold, in bytes, while it runs
 * (SQLITE_LIMIT_LENGTH): a rule cannot make a gigabyte string. */
#define RULE_MAX_LENGTH (16 * 1024 * 1024)

/* A rule's bound of memory: what SQLite allocates on the rule's thread
 * while it runs (store_memcap). Past RULE_MAX_MEMORY the rule is
 * stopped at its next progress call (every 100 steps: an aggregate's
 * rows of 16 MiB overshoot it by a few hundred MB at most); an
 * allocation that would pass RULE_HARD_MEMORY is refused, which ends
 * the connection's transaction (SQLite rolls back on SQLITE_NOMEM), so
 * that a rule whose one step allocates gigabytes ends the sweep rather
 * than the machine. */
#define RULE_MAX_MEMORY (128LL * 1024 * 1024)
#define RULE_HARD_MEMORY (512LL * 1024 * 1024)

/* A rule's budget of wall-clock time, in ms per million steps of its
 * budget: 60 s for the default 50 million, several times what they take
 * on one core. The steps are the budget a rule meets (the same everywhere); the
 * time stops what the steps do not count (one step copying or sorting
 * megabytes) and holds only on a machine four times slower than that. */
#define RULE_MS_PER_MSTEP 1200

/* The most work one call of a function whose time grows with the
 * product of its arguments' lengths (instr, replace, trim, like, glob,
 * json_patch) may do on a rule's connection, in byte comparisons
 * (instr's, replace's and json_patch's counted a 32nd): see
 * rules_guard.c's bounded[]. */
#define RULE_MAX_WORK (1LL << 27)

/*
 * The guard: an SQLite authorizer that allows a rule to read the tables
 * and views of main and temp, sqlite_schema and json_each/json_tree,
 * through a list of pure functions, and nothing else (no write, DDL,
 * ATTACH, PRAGMA, pragma_* table, transaction, load_extension(),
 * random()); the first refusal is kept to explain the failure.
 */
/* The bounded functions of a connection (rules_guard.c): installed by
 * guard_init, they stay the connection's until it closes, which frees
 * this (SQLite may not take a function away while a statement that
 * uses it may be prepared again). */
struct guard_bounded;

struct rule_guard {
	struct guard_bounded *fns;  /* the connection's bounded functions */
	struct hashtab tables;      /* hashes of lowercased readable names */
	char denied[256];           /* the first refusal, "" when none */
	int weak;                   /* 1: it was of sqlite_master, which
	                               a later refusal explains better */
	int old_length;             /* SQLITE_LIMIT_LENGTH before arming */
	int reads_sweep;            /* 1: the statement armed last reads a
	                               table the sweep writes (conflicts,
	                               the rule tables, ...) */
	unsigned reads;             /* of it: a bit per digest table
	                               (facts_digest_column) a column of
	                               which it reads */
	int unkeyed;                /* 1: it reads something no digest
	                               sum holds (rules_keep) */
};

/*
 * Learn the tables and views of main and temp on db (outside any
 * authorizer) and install the bounded functions on it, whose deadline
 * is st's. Returns 0, or an SQLite error code.
 */
int guard_init(struct rule_guard *g, sqlite3 *db, mirror_store *st);

/* Forget what guard_init learned. */
void guard_free(struct rule_guard *g);

/* Install the authorizer and the length limit on db and bound the
 * functions; returns nothing. */
void guard_arm(struct rule_guard *g, sqlite3 *db);

/* Remove them again (the bounded functions then do what SQLite's do,
 * unbounded); returns nothing. */
void guard_disarm(struct rule_guard *g, sqlite3 *db);

/* One violation a rule returned, its facts made canonical. */
struct rule_hit {
	char *facts;                /* JSON array of "layer:id", sorted,
	                               no repeats */
	char **fv;                  /* the same strings, "layer:id" each */
	size_t nf;
	char *project;              /* canonical, "" for none */
	char *message;              /* one line, cleaned */
};

/*
 * A connection rules are evaluated on: the sweep's own, or a second,
 * read-only one in parallel with it, whose snapshot is the sweep's (opened
 * under the sweep's write lock, before it wrote) and which is used by one
 * thread at a time. Owns its guard and statement, not st.
 */
struct rule_conn {
	mirror_store *st;
	sqlite3 *db;
	const struct rule_set *rs;  /* the parameters' overrides */
	const char *now;            /* :now */
	long long budget_msteps;    /* MIRROR_RULE_STEPS */
	int parallel;                 /* 1: not the sweep's connection */
	struct rule_guard guard;
	sqlite3_stmt *alias;        /* canonical project of a name */
};

/*
 * Make c ready to evaluate rules on st (the guard learns its tables).
 * Returns 0, or < 0 with err set; c needs rconn_free either way.
 */
int rconn_init(struct rule_conn *c, mirror_store *st,
    const struct rule_set *rs, const char *now, int parallel,
    mirror_error *err);

/* Release what rconn_init made (not st). */
void rconn_free(struct rule_conn *c);

/*
 * Check the row of mirror_rules at s (id, severity, label, description,
 * query; NULL is empty) as a rule file's text is checked: each column
 * store text (storerow_text) and rule text (rules_text_problem).
 * Returns 0, or -MIRROR_EINPUT "store S: mirror_rules row 'ID': COL
 * WHAT", or -MIRROR_EIO when SQLite runs out of memory.
 */
int rules_row_check(mirror_store *st, sqlite3_stmt *s, mirror_error *err);

/* Fold everything of r that decides what it records (id, origin,
 * severity, whether replaced, texts, error, parameters) into h, and
 * return the new value: rules_digest's part for r, and a rule's key's
 * (rules_keep). */
uint64_t rule_fold(uint64_t h, const struct rule *r);

/* Fold every param. override of rs into h; returns the new value. */
uint64_t rules_overrides_fold(uint64_t h, const struct rule_set *rs);

/* What of the sweep's clock a rule reads (rule_reads' clock): the time,
 * which moves every second, or its day alone, which a key can hold. */
#define RULE_CLOCK_TIME 1
#define RULE_CLOCK_DAY 2

/* The bytes of :now that :today binds ("YYYY-MM-DD"). */
#define RULES_TODAY_LEN 10

/* What a rule reads, for its key (rules_keep). */
struct rule_reads {
	int keyable;                /* 1: every column it reads is in a
	                               digest sum, none the sweep writes */
	unsigned tables;            /* the digest tables it reads */
	int clock;                  /* RULE_CLOCK_TIME: its text says
	                               "now" (:now, or 'now' to a date
	                               function); RULE_CLOCK_DAY: it
	                               reads :today and not that; else 0 */
};

/*
 * Learn what r (readable) reads by preparing it under c's guard,
 * nothing stepped, into *out (keyable 0 when it cannot be prepared).
 * Returns 0, or < 0 with err set when the store failed.
 */
int rule_reads(struct rule_reads *out, struct rule_conn *c,
    const struct rule *r, mirror_error *err);

/*
 * What each rule of todo[0..n) reads into out[0..n) (rule_reads; all
 * zero for a rule with an error or no id), prepared under c's guard,
 * or as a run kept it in the user's cache for the same rules, the same
 * overrides and the same schemas (rules_learn.c). Returns 0, or < 0
 * with err set when the store failed.
 */
int rules_learn(struct rule_reads *out, struct rule_conn *c,
    const struct rule *const *todo, size_t n, mirror_error *err);

/* What evaluating one rule gave. */
enum rule_eval_state {
	EVAL_TODO,                  /* not evaluated yet */
	EVAL_RAN,                   /* ran: its hits are in v */
	EVAL_FAILED,                /* failed: why says how */
	EVAL_DEFERRED               /* parallel to the sweep, it reads a table
	                               the sweep writes: evaluate it on the
	                               sweep's connection, later */
};

struct rule_eval {
	enum rule_eval_state state;
	struct rule_hit *v;         /* canonical project, sorted by facts,
	                               one per set of facts */
	size_t n, cap;
	long long rows;             /* rows the rule returned */
	long long ms;               /* how long it took */
	strbuf why;                 /* EVAL_FAILED: the reason */
};

/*
 * Evaluate r (not off, readable) on c into ev (EVAL_TODO, its why
 * initialized): its rows read under the guard and its budget, checked
 * and made canonical. Returns 0 with ev->state set, or < 0 with err set
 * when the store itself failed.
 */
int rule_eval(struct rule_conn *c, const struct rule *r,
    struct rule_eval *ev, mirror_error *err);

/* Free ev's hits and why; ev is EVAL_TODO and empty again. */
void rule_eval_free(struct rule_eval *ev);

/* What recording needs: the connection, the run, the statements. */
struct rule_rec {
	mirror_store *st;
	sqlite3 *db;
	const char *run_id, *now;
	struct rule_counts *out;
	sqlite3_stmt *open_get, *ins, *fact_ins, *upd, *close1, *id_exists;
	sqlite3_stmt *close_rule, *run_ins;
	sqlite3_stmt *ins_batch;    /* REC_BATCH violations at once */
	sqlite3_stmt *fact_batch;   /* REC_BATCH violation_facts rows */
};

/* Rows of one batched INSERT: a first sweep opens thousands of
 * violations, and one statement per row doubled what they cost. */
#define REC_BATCH 32

/* Prepare rec's statements. Returns 0, or < 0 with err set. */
int rec_prepare(struct rule_rec *rec, mirror_error *err);

/* Finalize them. */
void rec_finalize(struct rule_rec *rec);

/* "warn" or "error" for s (never called with RULE_OFF), as the store
 * records a rule's severity. */
const char *severity_word(enum rule_severity s);

/*
 * Make r's open violations the hits of ev (EVAL_RAN: sorted by facts,
 * no two with the same facts): open the new ones with r's severity,
 * keep the others (message and project updated), close the ones not
 * hit. Returns 0, or < 0 with err set.
 */
int rec_violations(struct rule_rec *rec, const struct rule *r,
    const struct rule_eval *ev, mirror_error *err);

/*
 * Close every open violation of rule_id (its rule is gone or off).
 * Returns 0, or < 0 with err set.
 */
int rec_close_rule(struct rule_rec *rec, const char *rule_id,
    mirror_error *err);

/* The rule_runs row of one rule. */
struct rule_run_row {
	const char *rule_id, *origin, *severity, *label, *description;
	const char *query, *error;  /* error NULL: status ok */
	long long hits, duration_ms;
};

/* Insert it. Returns 0, or < 0 with err set. */
int rec_run_row(struct rule_rec *rec, const struct rule_run_row *row,
    mirror_error *err);

#endif
