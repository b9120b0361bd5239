/*
 * rules_record.c: a rule's hits into rule_violations and
 * violation_facts, and its rule_runs row (see rules_int.h and the
 * tables' comments in core/store/store-schema.sql).
 *
 * A violation is its rule and its set of facts. The rule's open
 * violations (one per set: a unique index) are read sorted by facts and
 * walked beside the hits, sorted the same way: a set in both stays open
 * with its id (its message and project brought up to date), a hit alone
 * opens a violation, an open violation alone is closed. A closed row is
 * never opened again: a later hit on the same set opens a new row, whose
 * id moves on from the one the closed row holds.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules_int.h"
#include "store/storerow.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/text.h"
#include "util/xalloc.h"

/* A failed SQLite call on the store: store_fail's -MIRROR_* status. */
static int
rfail(struct rule_rec *rec, mirror_error *err, int rc, const char *what)
{
	return store_fail(rec->st, err, rc, what);
}

/* Step a statement that returns no row, then reset it and clear its
 * parameters (bound SQLITE_STATIC: they may not outlive the step). */
static int
step_done(struct rule_rec *rec, sqlite3_stmt *s, mirror_error *err)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return 0;
	return rfail(rec, err, rc, "rules: write");
}

/* Bind v (NULL as '') to parameter i of s, not copied: v must live
 * until step_done (or load_open's reset) clears it. */
static void
bind(sqlite3_stmt *s, int i, const char *v)
{
	sqlite3_bind_text(s, i, v != NULL ? v : "", -1, SQLITE_STATIC);
}

/* 1 when v (NULL: empty) passes storerow_text_problem, else 0. */
static int
is_store_text(const char *v)
{
	return v == NULL || storerow_text_problem((const unsigned char *)v,
	    strlen(v)) == NULL;
}

/*
 * v as text the store's readers accept (storerow_text_problem): v
 * itself, or v cleaned (text_clean: invalid UTF-8 as U+FFFD, controls
 * dropped) into sb: what mirror writes must pass the checks its
 * readers apply, or every later build stops on it (issue 55). Loading
 * refuses a rule that is not such text (rules_text_problem), but an
 * error message may quote a cut of it, and a rule's rows may hold any
 * bytes.
 */
static const char *
store_text(strbuf *sb, const char *v)
{
	if (is_store_text(v))
		return v;
	text_clean(sb, v, strlen(v), SIZE_MAX, 0);
	return sb->data;
}

int
rec_prepare(struct rule_rec *rec, mirror_error *err)
{
	static const struct {
		size_t off;
		const char *sql;
	} stmts[] = {
		{ offsetof(struct rule_rec, open_get), "SELECT id, facts, "
		  "message, project FROM main.rule_violations WHERE rule_id = "
		  "?1 AND status = 'open' ORDER BY facts" },
		{ offsetof(struct rule_rec, ins), "INSERT INTO "
		  "main.rule_violations(id, rule_id, severity, project, facts, "
		  "message, status, detected_at, opened_run) VALUES(?1, ?2, "
		  "?3, ?4, ?5, ?6, 'open', ?7, ?8)" },
		{ offsetof(struct rule_rec, fact_ins), "INSERT OR IGNORE INTO "
		  "main.violation_facts(violation_id, layer, fact_id) "
		  "VALUES(?1, ?2, ?3)" },
		{ offsetof(struct rule_rec, upd), "UPDATE main.rule_violations "
		  "SET message = ?2, project = ?3 WHERE id = ?1" },
		{ offsetof(struct rule_rec, close1), "UPDATE "
		  "main.rule_violations SET status = 'closed', closed_at = ?2, "
		  "closed_run = ?3 WHERE id = ?1 AND status = 'open'" },
		{ offsetof(struct rule_rec, close_rule), "UPDATE "
		  "main.rule_violations SET status = 'closed', closed_at = ?2, "
		  "closed_run = ?3 WHERE rule_id = ?1 AND status = 'open'" },
		{ offsetof(struct rule_rec, id_exists), "SELECT 1 FROM "
		  "main.rule_violations WHERE id = ?1" },
		{ offsetof(struct rule_rec, run_ins), "INSERT INTO "
		  "main.rule_runs(sweep_run, rule_id, origin, severity, label, "
		  "description, query, status, error, hits, duration_ms) "
		  "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)" },
	};

	strbuf ins, facts;
	int rc = SQLITE_OK;

	for (size_t i = 0; i < sizeof(stmts) / sizeof(*stmts); i++) {
		sqlite3_stmt **s = (sqlite3_stmt **)(void *)
		    ((char *)rec + stmts[i].off);

		rc = sqlite3_prepare_v2(rec->db, stmts[i].sql, -1, s, NULL);
		if (rc != SQLITE_OK)
			return rfail(rec, err, rc, "rules: prepare");
	}
	strbuf_init(&ins);
	strbuf_init(&facts);
	strbuf_puts(&ins, "INSERT INTO main.rule_violations(id, rule_id, "
	    "severity, project, facts, message, status, detected_at, "
	    "opened_run) VALUES");
	strbuf_puts(&facts, "INSERT OR IGNORE INTO main.violation_facts("
	    "violation_id, layer, fact_id) VALUES");
	for (int k = 0; k < REC_BATCH; k++) {
		strbuf_puts(&ins, k > 0 ? ",(?,?,?,?,?,?,'open',?,?)" :
		    "(?,?,?,?,?,?,'open',?,?)");
		strbuf_puts(&facts, k > 0 ? ",(?,?,?)" : "(?,?,?)");
	}
	rc = sqlite3_prepare_v2(rec->db, ins.data, -1, &rec->ins_batch, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(rec->db, facts.data, -1,
		    &rec->fact_batch, NULL);
	strbuf_free(&ins);
	strbuf_free(&facts);
	return rc == SQLITE_OK ? 0 : rfail(rec, err, rc, "rules: prepare");
}

void
rec_finalize(struct rule_rec *rec)
{
	sqlite3_stmt **all[] = { &rec->open_get, &rec->ins, &rec->fact_ins,
	    &rec->upd, &rec->close1, &rec->id_exists, &rec->close_rule,
	    &rec->run_ins, &rec->ins_batch, &rec->fact_batch };

	for (size_t i = 0; i < sizeof(all) / sizeof(*all); i++) {
		sqlite3_finalize(*all[i]);
		*all[i] = NULL;
	}
}

const char *
severity_word(enum rule_severity s)
{
	return s == RULE_WARN ? "warn" : "error";
}

/* The hash the ids of a violation of rule_id on facts are made from. */
static uint64_t
id_base(const char *rule_id, const char *facts)
{
	return hash_add_str(hash_add_str(MIRROR_HASH_INIT, rule_id), facts);
}

/*
 * The first candidate id of a violation of rule_id on facts, into out:
 * "chk-" and 12 hex digits of a hash of both, untested (open_one
 * inserts it and asks next_id only when it is taken, which is rare).
 */
static void
first_id(char out[17], const char *rule_id, const char *facts)
{
	char hex[17];

	hash_hex(hex, hash_nth(id_base(rule_id, facts), 0));
	memcpy(out, "chk-", 4);
	memcpy(out + 4, hex, 12);
	out[16] = '\0';
}

/*
 * The id of a new violation of rule_id on facts when first_id's is
 * taken (by a closed violation of the same set, or a collision): the
 * same hash, moved on deterministically while taken. Returns 0, or < 0
 * with err set.
 */
static int
next_id(char out[17], struct rule_rec *rec, const char *rule_id,
    const char *facts, mirror_error *err)
{
	return store_free_id(out, 17, &(struct store_id_space){
	    .st = rec->st, .taken = rec->id_exists, .prefix = "chk-",
	    .hexlen = 12 }, id_base(rule_id, facts), err);
}

/* The violation_facts rows of id: one per "layer:id" of h. */
static int
insert_facts(struct rule_rec *rec, const char *id, const struct rule_hit *h,
    mirror_error *err)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < h->nf; i++) {
		const char *s = h->fv[i], *colon = strchr(s, ':');

		if (colon == NULL)
			continue;       /* made canonical: never */
		bind(rec->fact_ins, 1, id);
		sqlite3_bind_text(rec->fact_ins, 2, s, (int)(colon - s),
		    SQLITE_STATIC);
		bind(rec->fact_ins, 3, colon + 1);
		if ((rc = step_done(rec, rec->fact_ins, err)) == 0)
			rec->out->rows_written++;
	}
	return rc;
}

/* Open a violation of rule r for hit h. Returns 0, or < 0 with err
 * set. */
static int
open_one(struct rule_rec *rec, const struct rule *r, const struct rule_hit *h,
    mirror_error *err)
{
	char id[17];
	int rc = 0;

	for (int first = 1; rc == 0; first--) {
		if (first)
			first_id(id, r->id, h->facts);
		else if ((rc = next_id(id, rec, r->id, h->facts, err)) < 0)
			return rc;
		bind(rec->ins, 1, id);
		bind(rec->ins, 2, r->id);
		bind(rec->ins, 3, severity_word(r->severity));
		bind(rec->ins, 4, h->project);
		bind(rec->ins, 5, h->facts);
		bind(rec->ins, 6, h->message);
		bind(rec->ins, 7, rec->now);
		bind(rec->ins, 8, rec->run_id);
		rc = sqlite3_step(rec->ins);
		sqlite3_reset(rec->ins);
		sqlite3_clear_bindings(rec->ins);
		if (rc == SQLITE_DONE)
			break;
		/* Taken: new_id again, testing each candidate. */
		rc = first && rc == SQLITE_CONSTRAINT_PRIMARYKEY ? 0 :
		    rfail(rec, err, rc, "rules: write");
	}
	if (rc < 0)
		return rc;
	rec->out->opened++;
	rec->out->rows_written++;
	return insert_facts(rec, id, h, err);
}

/* One violation_facts row, its texts not copied. */
struct fact_row {
	const char *id, *layer, *fact;
	int layer_len;
};

/* Bind r to parameters at+1 .. at+3 of s. */
static void
bind_fact(sqlite3_stmt *s, int at, const struct fact_row *r)
{
	bind(s, at + 1, r->id);
	sqlite3_bind_text(s, at + 2, r->layer, r->layer_len, SQLITE_STATIC);
	bind(s, at + 3, r->fact);
}

/* Insert r[0..n): REC_BATCH rows a statement, the rest one by one.
 * Returns 0, or < 0 with err set. */
static int
put_facts(struct rule_rec *rec, const struct fact_row *r, size_t n,
    mirror_error *err)
{
	size_t i = 0;
	int rc = 0;

	for (; rc == 0 && i + REC_BATCH <= n; i += REC_BATCH) {
		for (int k = 0; k < REC_BATCH; k++)
			bind_fact(rec->fact_batch, 3 * k, &r[i + k]);
		if ((rc = step_done(rec, rec->fact_batch, err)) == 0)
			rec->out->rows_written += REC_BATCH;
	}
	for (; rc == 0 && i < n; i++) {
		bind_fact(rec->fact_ins, 0, &r[i]);
		if ((rc = step_done(rec, rec->fact_ins, err)) == 0)
			rec->out->rows_written++;
	}
	return rc;
}

/*
 * Insert the REC_BATCH violations h[0..REC_BATCH) with their first ids
 * into ids, then their facts. Returns 0, 1 when an id was taken
 * (nothing inserted: the caller opens them one by one), or < 0 with
 * err set.
 */
static int
open_batch(struct rule_rec *rec, const struct rule *r,
    const struct rule_hit *const *h, char ids[][17], mirror_error *err)
{
	sqlite3_stmt *s = rec->ins_batch;
	struct fact_row *fr = NULL;
	size_t nfr = 0, capfr = 0;
	int rc;

	for (int k = 0; k < REC_BATCH; k++) {
		int at = 8 * k;

		first_id(ids[k], r->id, h[k]->facts);
		bind(s, at + 1, ids[k]);
		bind(s, at + 2, r->id);
		bind(s, at + 3, severity_word(r->severity));
		bind(s, at + 4, h[k]->project);
		bind(s, at + 5, h[k]->facts);
		bind(s, at + 6, h[k]->message);
		bind(s, at + 7, rec->now);
		bind(s, at + 8, rec->run_id);
	}
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	if (rc == SQLITE_CONSTRAINT_PRIMARYKEY)
		return 1;
	if (rc != SQLITE_DONE)
		return rfail(rec, err, rc, "rules: write");
	rec->out->opened += REC_BATCH;
	rec->out->rows_written += REC_BATCH;
	for (int k = 0; k < REC_BATCH; k++)
		for (size_t i = 0; i < h[k]->nf; i++) {
			const char *f = h[k]->fv[i], *colon = strchr(f, ':');

			if (colon != NULL)      /* made canonical: always */
				ARRAY_PUSH(fr, nfr, capfr) = (struct fact_row){
				    ids[k], f, colon + 1, (int)(colon - f) };
		}
	rc = put_facts(rec, fr, nfr, err);
	free(fr);
	return rc;
}

/*
 * Open the violations of h[0..n), in order: REC_BATCH a statement, one
 * by one (open_one) where a batch's first id is taken and for the rest;
 * the ids are those open_one alone would give. Returns 0, or < 0 with
 * err set.
 */
static int
open_all(struct rule_rec *rec, const struct rule *r,
    const struct rule_hit *const *h, size_t n, mirror_error *err)
{
	char ids[REC_BATCH][17];
	size_t i = 0;
	int rc = 0;

	for (; rc == 0 && i + REC_BATCH <= n; i += REC_BATCH)
		if ((rc = open_batch(rec, r, h + i, ids, err)) == 1) {
			rc = 0;
			for (int k = 0; rc == 0 && k < REC_BATCH; k++)
				rc = open_one(rec, r, h[i + k], err);
		}
	for (; rc == 0 && i < n; i++)
		rc = open_one(rec, r, h[i], err);
	return rc;
}

/* An open violation as the store holds it. */
struct open_v {
	char *id, *facts, *message, *project;
};

/* The open violation v is hit again by h: bring it up to date. Returns
 * 0, or < 0 with err set. */
static int
keep_one(struct rule_rec *rec, const struct open_v *v,
    const struct rule_hit *h, mirror_error *err)
{
	int rc;

	if (strcmp(v->message, h->message) == 0 &&
	    strcmp(v->project, h->project) == 0)
		return 0;
	bind(rec->upd, 1, v->id);
	bind(rec->upd, 2, h->message);
	bind(rec->upd, 3, h->project);
	if ((rc = step_done(rec, rec->upd, err)) == 0)
		rec->out->rows_written++;
	return rc;
}

/* Close the open violation id. */
static int
close_one(struct rule_rec *rec, const char *id, mirror_error *err)
{
	int rc;

	bind(rec->close1, 1, id);
	bind(rec->close1, 2, rec->now);
	bind(rec->close1, 3, rec->run_id);
	if ((rc = step_done(rec, rec->close1, err)) == 0) {
		rec->out->closed++;
		rec->out->rows_written++;
	}
	return rc;
}

/* A column as text, "" for NULL. */
static const char *
col(sqlite3_stmt *s, int i)
{
	const char *v = (const char *)sqlite3_column_text(s, i);

	return v != NULL ? v : "";
}

/*
 * rule_id's open violations, sorted by facts, into out[0..n) (the
 * caller frees them). Returns 0, or < 0 with err set.
 */
static int
load_open(struct rule_rec *rec, const char *rule_id, struct open_v **out,
    size_t *n, mirror_error *err)
{
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	bind(rec->open_get, 1, rule_id);
	while ((rc = sqlite3_step(rec->open_get)) == SQLITE_ROW) {
		struct open_v *v = &ARRAY_PUSH(*out, *n, cap);

		v->id = xstrdup(col(rec->open_get, 0));
		v->facts = xstrdup(col(rec->open_get, 1));
		v->message = xstrdup(col(rec->open_get, 2));
		v->project = xstrdup(col(rec->open_get, 3));
	}
	sqlite3_reset(rec->open_get);
	sqlite3_clear_bindings(rec->open_get);
	return rc == SQLITE_DONE ? 0 : rfail(rec, err, rc,
	    "rules: read violations");
}

/*
 * When the project or message of a hit of hits[0..n) is not store text
 * (a rule's row may hold any bytes: store_text), a copy of the hits
 * into *out with every project and message made store text (the caller
 * frees those two and *out), and 1; else 0, *out NULL.
 */
static int
store_hits(struct rule_hit **out, const struct rule_hit *hits, size_t n)
{
	size_t k = 0;

	*out = NULL;
	while (k < n && is_store_text(hits[k].project) &&
	    is_store_text(hits[k].message))
		k++;
	if (k == n)
		return 0;
	*out = xreallocarray(NULL, n, sizeof(**out));
	for (k = 0; k < n; k++) {
		strbuf p, m;

		strbuf_init(&p);
		strbuf_init(&m);
		(*out)[k] = hits[k];
		(*out)[k].project = xstrdup(store_text(&p, hits[k].project));
		(*out)[k].message = xstrdup(store_text(&m, hits[k].message));
		strbuf_free(&p);
		strbuf_free(&m);
	}
	return 1;
}

int
rec_violations(struct rule_rec *rec, const struct rule *r,
    const struct rule_eval *ev, mirror_error *err)
{
	const struct rule_hit *hits = ev->v;
	size_t n = ev->n;
	struct open_v *ov = NULL;
	const struct rule_hit **opens = NULL;
	struct rule_hit *clean = NULL;
	size_t nov = 0, i = 0, j = 0, nopen = 0, capopen = 0;
	int rc;

	if (store_hits(&clean, hits, n))
		hits = clean;
	if ((rc = load_open(rec, r->id, &ov, &nov, err)) < 0)
		goto out;
	/* Opens last, batched: the id a new violation gets does not
	 * depend on the closes and keeps of this walk. */
	while (rc == 0 && (i < n || j < nov)) {
		int c = i == n ? 1 : j == nov ? -1 :
		    strcmp(hits[i].facts, ov[j].facts);

		if (c < 0)
			ARRAY_PUSH(opens, nopen, capopen) = &hits[i++];
		else if (c > 0)
			rc = close_one(rec, ov[j++].id, err);
		else {
			rc = keep_one(rec, &ov[j], &hits[i], err);
			i++;
			j++;
		}
	}
	if (rc == 0)
		rc = open_all(rec, r, opens, nopen, err);
out:
	free(opens);
	for (size_t k = 0; clean != NULL && k < n; k++) {
		free(clean[k].project);
		free(clean[k].message);
	}
	free(clean);
	for (size_t k = 0; k < nov; k++) {
		free(ov[k].id);
		free(ov[k].facts);
		free(ov[k].message);
		free(ov[k].project);
	}
	free(ov);
	return rc;
}

int
rec_close_rule(struct rule_rec *rec, const char *rule_id, mirror_error *err)
{
	int rc;

	bind(rec->close_rule, 1, rule_id);
	bind(rec->close_rule, 2, rec->now);
	bind(rec->close_rule, 3, rec->run_id);
	if ((rc = step_done(rec, rec->close_rule, err)) == 0) {
		long long k = sqlite3_changes(rec->db);

		rec->out->closed += k;
		rec->out->rows_written += k;
	}
	return rc;
}

int
rec_run_row(struct rule_rec *rec, const struct rule_run_row *row,
    mirror_error *err)
{
	sqlite3_stmt *s = rec->run_ins;
	const char *v[6] = { row->rule_id, row->origin, row->label,
	    row->description, row->query, row->error };
	static const int at[6] = { 2, 3, 5, 6, 7, 9 };
	strbuf sb[6];
	int rc;

	bind(s, 1, rec->run_id);
	for (int i = 0; i < 6; i++) {
		strbuf_init(&sb[i]);
		bind(s, at[i], store_text(&sb[i], v[i]));
	}
	bind(s, 4, row->severity);
	bind(s, 8, row->error == NULL ? "ok" : "failed");
	sqlite3_bind_int64(s, 10, row->hits);
	sqlite3_bind_int64(s, 11, row->duration_ms);
	rc = step_done(rec, s, err);
	for (int i = 0; i < 6; i++)
		strbuf_free(&sb[i]);
	return rc;
}
