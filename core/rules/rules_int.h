/*
 * rules_int.h: what the files of core/rules share and nothing outside
 * may use: the guard a rule runs under (rules_guard.c) and the
 * recording of a rule's hits (rules_record.c).
 */
#ifndef MIRROR_RULES_INT_H
#define MIRROR_RULES_INT_H

#include <sqlite3.h>

#include "rules/rules.h"
#include "util/hashtab.h"

/* The longest value a rule's result may hold, in bytes, while it runs
 * (SQLITE_LIMIT_LENGTH): a rule cannot make a gigabyte string. */
#define RULE_MAX_LENGTH (16 * 1024 * 1024)

/*
 * The guard: an SQLite authorizer that allows a rule to read the tables
 * and views of main and temp, sqlite_schema and json_each/json_tree,
 * through a list of pure functions, and nothing else (no write, DDL,
 * ATTACH, PRAGMA, pragma_* table, transaction, load_extension(),
 * random()); the first refusal is kept to explain the failure.
 */
struct rule_guard {
	struct hashtab tables;      /* hashes of lowercased readable names */
	char denied[256];           /* the first refusal, "" when none */
	int weak;                   /* 1: it was of sqlite_master, which
	                               a later refusal explains better */
	int old_length;             /* SQLITE_LIMIT_LENGTH before arming */
};

/*
 * Learn the tables and views of main and temp on db (outside any
 * authorizer). Returns 0, or an SQLite error code.
 */
int guard_init(struct rule_guard *g, sqlite3 *db);

/* Forget what guard_init learned. */
void guard_free(struct rule_guard *g);

/* Install the authorizer and the length limit on db; returns nothing. */
void guard_arm(struct rule_guard *g, sqlite3 *db);

/* Remove them again; returns nothing. */
void guard_disarm(struct rule_guard *g, sqlite3 *db);

/* One violation a rule returned, its facts made canonical. */
struct rule_hit {
	char *facts;                /* JSON array of "layer:id", sorted,
	                               no repeats */
	char *project;              /* canonical, "" for none */
	char *message;              /* one line, cleaned */
};

/* What recording needs: the connection, the run, the statements. */
struct rule_rec {
	mirror_store *st;
	sqlite3 *db;
	const char *run_id, *now;
	struct rule_counts *out;
	sqlite3_stmt *open_get, *ins, *fact_ins, *upd, *close1, *id_exists;
	sqlite3_stmt *close_rule, *run_ins;
};

/* Prepare rec's statements. Returns 0, or < 0 with err set. */
int rec_prepare(struct rule_rec *rec, mirror_error *err);

/* Finalize them. */
void rec_finalize(struct rule_rec *rec);

/*
 * Make rule_id's open violations those of hits[0..n) (sorted by facts,
 * no two with the same facts): open the new ones with severity, keep
 * the others (message and project updated), close the ones not hit.
 * Returns 0, or < 0 with err set.
 */
int rec_violations(struct rule_rec *rec, const char *rule_id,
    const char *severity, const struct rule_hit *hits, size_t n,
    mirror_error *err);

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
