/*
 * violation.c: reading the violations, their facts and the latest run
 * of each rule (see violation.h).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/violation.h"
#include "store/finding.h"
#include "store/storerow.h"
#include "util/array.h"
#include "util/byid.h"
#include "util/layer.h"
#include "util/xalloc.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const char *const layers[] = { LAYER_KIND_ENTITY, LAYER_KIND_MEMORY,
    LAYER_KIND_STATE, "relationship", NULL };
static const char *const severities[] = { "error", "warn", NULL };
static const char *const vstatus[] = { "open", "closed", NULL };
static const char *const rstatus[] = { "ok", "failed", NULL };

/* The canonical project of column c of x, through the alias table. */
#define VCANON(c) "coalesce((SELECT canonical FROM temp.project_alias " \
	"WHERE name = " c "), " c ")"

/* An end of a relationship in words: the entity's name, else its id. */
#define REL_END(c) "coalesce((SELECT n.name FROM main.entities n " \
	"WHERE n.id = " c "), " c ")"

/* Each layer's row now: label, project, source, status; ?1 the id. A
 * memory's type is not where it came from: it has no source. */
static const char *const fact_sql[] = {
	"SELECT name, " VCANON("project") ", source_refs, status "
	    "FROM main.entities WHERE id = ?1",
	"SELECT content, " VCANON("project") ", '', status "
	    "FROM main.memories WHERE id = ?1",
	"SELECT key, " VCANON("project") ", source, status "
	    "FROM main.project_state WHERE id = ?1",
	"SELECT " REL_END("r.source_entity_id") " || ' ' || "
	    "replace(r.relationship_type, '_', ' ') || ' ' || "
	    REL_END("r.target_entity_id") ", coalesce((SELECT "
	    VCANON("e.project")
	    " FROM main.entities e WHERE e.id = r.source_entity_id), ''), "
	    "'', 'active' FROM main.relationships r "
	    "WHERE r.id = ?1",
};

#define VIOLATION_COLS "id, rule_id, severity, project, facts, message, " \
	"status, detected_at, opened_run, closed_at, closed_run"

#define RUN_COLS "sweep_run, rule_id, origin, severity, label, " \
	"description, query, status, error, hits, duration_ms, " \
	"sweep_run = " LATEST_RUN

/* The newest sweep run that ran rules: the run of the last row. */
#define LATEST_RUN "(SELECT l.sweep_run FROM main.rule_runs l " \
	"ORDER BY l.rowid DESC LIMIT 1)"

/* Statements shared by the reads of one call. */
struct vreader {
	mirror_store *st;
	sqlite3_stmt *rows[NELEM(fact_sql)];
};

/* Every violation's (rule, facts, id), sorted so that the earlier
 * violations of one are found by binary search. */
static const struct finding_keys rule_keys = {
	.sql = "SELECT rule_id, facts, id FROM main.rule_violations "
	    "ORDER BY rule_id, facts, detected_at DESC, rowid DESC",
	.table = "rule_violations",
	.a = "rule_id",
	.b = "facts",
	.what = "violations",
};

static void fact_free(struct violation_fact *f);

void
violation_free(struct violation *v)
{
	if (v == NULL)
		return;
	free(v->id);
	free(v->rule_id);
	free(v->severity);
	free(v->project);
	free(v->facts);
	for (size_t i = 0; i < v->n_facts; i++)  /* the facts the text names */
		fact_free(&v->fact[i]);
	free(v->fact);
	free(v->message);
	free(v->status);
	free(v->detected_at);
	free(v->opened_run);
	free(v->closed_at);
	free(v->closed_run);
	finding_ids_free(v->earlier, v->n_earlier);
	memset(v, 0, sizeof(*v));
}

/*
 * Fill v from the rule_violations row of s (VIOLATION_COLS), every
 * column checked. Returns 0 or -MIRROR_EINPUT naming the row.
 */
static int
violation_row(struct violation *v, mirror_store *st, sqlite3_stmt *s,
    mirror_error *err)
{
	struct store_row r = { .st = st, .stmt = s,
	    .table = "rule_violations", .err = err };
	json_t *facts = NULL;
	int rc;

	memset(v, 0, sizeof(*v));
	if ((rc = storerow_text(&v->id, &r, 0, "id", 0)) < 0)
		return rc;
	r.id = v->id;
	if ((rc = storerow_text(&v->rule_id, &r, 1, "rule_id", 0)) < 0 ||
	    (rc = storerow_enum(&v->severity, &r, 2, "severity",
	    severities)) < 0 ||
	    (rc = storerow_text(&v->project, &r, 3, "project", 0)) < 0 ||
	    (rc = storerow_json(&facts, &r, 4, "facts", 0)) < 0 ||
	    (rc = storerow_text(&v->facts, &r, 4, "facts", 0)) < 0 ||
	    (rc = storerow_text(&v->message, &r, 5, "message", 0)) < 0 ||
	    (rc = storerow_enum(&v->status, &r, 6, "status", vstatus)) < 0 ||
	    (rc = storerow_text(&v->detected_at, &r, 7, "detected_at",
	    0)) < 0 ||
	    (rc = storerow_text(&v->opened_run, &r, 8, "opened_run", 0)) < 0 ||
	    (rc = storerow_text(&v->closed_at, &r, 9, "closed_at", 1)) < 0 ||
	    (rc = storerow_text(&v->closed_run, &r, 10, "closed_run", 1)) < 0)
		goto out;
out:
	json_decref(facts);
	return rc;
}

/*
 * Fill f from the violation_facts row of s (layer, fact_id,
 * violation_id), checked. Returns 0 or -MIRROR_EINPUT naming the row.
 */
static int
vfact_row(struct violation_fact *f, struct store_row *r)
{
	int rc;

	memset(f, 0, sizeof(*f));
	r->member = NULL;
	if ((rc = storerow_text(&f->id, r, 1, "fact_id", 0)) < 0)
		return rc;
	r->member = f->id;
	return storerow_enum(&f->layer, r, 0, "layer", layers);
}

/* Check the violation_facts row of r (finding_check). Returns 0 or
 * -MIRROR_EINPUT. */
static int
fact_check_row(struct store_row *r)
{
	struct violation_fact f;
	int rc = vfact_row(&f, r);

	fact_free(&f);
	return rc;
}

static int
vreader_open(struct vreader *r, mirror_store *st, mirror_error *err)
{
	int rc = SQLITE_OK;

	memset(r, 0, sizeof(*r));
	r->st = st;
	for (size_t i = 0; rc == SQLITE_OK && i < NELEM(fact_sql); i++)
		rc = sqlite3_prepare_v2(store_db(st), fact_sql[i], -1,
		    &r->rows[i], NULL);
	return rc == SQLITE_OK ? 0 : store_fail(st, err, rc,
	    "cannot read violations");
}

static void
vreader_close(struct vreader *r)
{
	for (size_t i = 0; i < NELEM(fact_sql); i++)
		sqlite3_finalize(r->rows[i]);
}

/* Fill the row-now half of fact f (with r's statements); a gone row
 * leaves it NULL. Returns 0 or < 0 with err set. */
static int
fact_now(struct violation_fact *f, struct vreader *r, mirror_error *err)
{
	static const char *const tables[] = { "entities", "memories",
	    "project_state", "relationships" };
	struct store_row row = { .st = r->st, .err = err, .id = f->id };
	sqlite3_stmt *s = NULL;
	size_t t;
	int rc;

	for (t = 0; t < NELEM(fact_sql); t++)
		if (strcmp(f->layer, layers[t]) == 0)
			break;
	if (t == NELEM(fact_sql))
		return 0;
	s = r->rows[t];
	row.stmt = s;
	row.table = tables[t];
	sqlite3_reset(s);
	sqlite3_bind_text(s, 1, f->id, -1, SQLITE_TRANSIENT);
	rc = store_step(r->st, s);
	if (rc == SQLITE_ROW) {
		if ((rc = storerow_text(&f->label, &row, 0, "label", 0)) < 0 ||
		    (rc = storerow_text(&f->project, &row, 1, "project",
		    0)) < 0 ||
		    (rc = storerow_text(&f->source, &row, 2, "source", 0)) < 0 ||
		    (rc = storerow_text(&f->status_now, &row, 3, "status",
		    0)) < 0) {
			sqlite3_reset(s);
			return rc;
		}
		rc = SQLITE_DONE;
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : store_fail(r->st, err, rc,
	    "cannot read a violation's fact");
}

/* Release what a fact holds, not the struct itself. */
static void
fact_free(struct violation_fact *f)
{
	free(f->layer);
	free(f->id);
	free(f->label);
	free(f->project);
	free(f->source);
	free(f->status_now);
}

#define VFACT_COLS "layer, fact_id, violation_id"

/* The facts' table: the facts a violation flags, by layer, then id
 * (finding.h). */
static const struct finding_table fact_table = {
	.table = "violation_facts",
	.what = "violation facts",
	.owner = "violation_id",
	.owner_col = 2,
	.all_sql = "SELECT " VFACT_COLS " FROM main.violation_facts "
	    "ORDER BY violation_id, layer, fact_id",
	.one_sql = "SELECT " VFACT_COLS " FROM main.violation_facts "
	    "WHERE violation_id = ?1 ORDER BY layer, fact_id",
	.check_sql = "SELECT " VFACT_COLS " FROM main.violation_facts",
};

/* Read the facts of the violations of l and each one's row now (with
 * r's statements). Returns 0 or < 0 with err set. */
static int
facts_read(struct violation_list *l, struct vreader *r, mirror_error *err)
{
	char **ids = xcalloc(l->n + 1, sizeof(*ids));
	struct finding_order o = { 0 };
	struct finding_rows cur;
	size_t at;
	int rc;

	for (size_t i = 0; i < l->n; i++)
		ids[i] = l->items[i].id;
	rc = finding_rows_open(&cur, &fact_table, ids, r->st, err);
	while (rc == 0 && (rc = finding_rows_next(&cur, &at)) > 0) {
		struct violation *v = &l->items[at];

		if (rc == FINDING_ROW)
			rc = vfact_row(&ARRAY_PUSH(v->fact, v->n_facts, cur.cap),
			    &cur.row);
		else {
			ARRAY_FIT(v->fact, v->n_facts, cur.cap);
			for (size_t j = 0; j < v->n_facts; j++)
				finding_order_add(&o, v->fact[j].layer,
				    v->fact[j].id, at, j);
			rc = 0;
		}
	}
	finding_rows_close(&cur);
	free(ids);
	finding_order_sort(&o);
	for (size_t k = 0; k < o.n && rc == 0; k++)
		rc = fact_now(&l->items[o.v[k].finding].fact[o.v[k].at], r, err);
	finding_order_free(&o);
	return rc;
}

/* The earlier ids of v (finding_earlier's, of rule_keys) by a query of
 * its own: the violations of its rule and facts detected before it, or
 * in the same second and inserted before. Returns 0 or < 0 with err
 * set. */
static int
earlier_read(struct violation *v, mirror_store *st, mirror_error *err)
{
	struct store_row row = { .st = st, .table = "rule_violations",
	    .err = err };
	size_t cap = 0;
	int rc;

	rc = sqlite3_prepare_v2(store_db(st), "SELECT id FROM "
	    "main.rule_violations WHERE rule_id = ?1 AND facts = ?2 AND "
	    "id <> ?3 AND (detected_at < ?4 OR (detected_at = ?4 AND rowid < "
	    "(SELECT rowid FROM main.rule_violations WHERE id = ?3))) "
	    "ORDER BY detected_at DESC, rowid DESC", -1, &row.stmt, NULL);
	if (rc != SQLITE_OK)
		return store_fail(st, err, rc, "cannot read violations");
	sqlite3_bind_text(row.stmt, 1, v->rule_id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(row.stmt, 2, v->facts, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(row.stmt, 3, v->id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(row.stmt, 4, v->detected_at, -1, SQLITE_TRANSIENT);
	while ((rc = store_step(st, row.stmt)) == SQLITE_ROW) {
		ARRAY_RESERVE(v->earlier, cap, v->n_earlier + 1);
		if ((rc = storerow_text(&v->earlier[v->n_earlier], &row, 0,
		    "id", 0)) < 0)
			break;
		v->n_earlier++;
	}
	sqlite3_finalize(row.stmt);
	if (rc < 0)
		return rc;
	return rc == SQLITE_DONE ? 0 : store_fail(st, err, rc,
	    "cannot read violations");
}

/* Read the rows of stmt into out, then each one's facts (in one query
 * for them all) and earlier ids: from every violation's keys when
 * whole, else by a query each. Returns 0 or < 0 with err set. */
static int
list_rows(struct violation_list *out, mirror_store *st, sqlite3_stmt *stmt,
    int whole, mirror_error *err)
{
	struct finding_earlier ix = { 0 };
	struct vreader r;
	size_t cap = 0;
	int rc;

	if ((rc = vreader_open(&r, st, err)) < 0)
		goto out;
	while ((rc = store_step(st, stmt)) == SQLITE_ROW)
		if ((rc = violation_row(&ARRAY_PUSH(out->items, out->n, cap),
		    st, stmt, err)) < 0)
			goto out;
	if (rc != SQLITE_DONE) {
		rc = store_fail(st, err, rc, "cannot read violations");
		goto out;
	}
	if ((rc = facts_read(out, &r, err)) < 0)
		goto out;
	for (size_t i = 0; !whole && i < out->n && rc == 0; i++)
		rc = earlier_read(&out->items[i], st, err);
	if (rc < 0 || !whole ||
	    (rc = finding_earlier_load(&ix, &rule_keys, st, err)) < 0)
		goto out;
	for (size_t i = 0; i < out->n; i++)
		finding_earlier(&out->items[i].earlier,
		    &out->items[i].n_earlier, &ix, out->items[i].rule_id,
		    out->items[i].facts, out->items[i].id);
out:
	finding_earlier_free(&ix);
	vreader_close(&r);
	return rc;
}

int
violation_list(struct violation_list *out, mirror_store *st,
    const struct violation_filter *filter, mirror_error *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if (filter != NULL && filter->project != NULL &&
	    (rc = store_project_known(st, filter->project,
	    store_features(st)->has_rule_tables ? "rule_violations" : NULL,
	    err)) < 0)
		return rc;
	if (!store_features(st)->has_rule_tables)
		return 0;
	rc = sqlite3_prepare_v2(store_db(st), "SELECT " VIOLATION_COLS
	    " FROM main.rule_violations WHERE (?1 IS NULL OR status = ?1) "
	    "AND (?2 IS NULL OR project = " VCANON("?2") ") ORDER BY "
	    "status <> 'open', severity <> 'error', rule_id, id",
	    -1, &stmt, NULL);
	if (rc != SQLITE_OK)
		return store_fail(st, err, rc, "cannot read violations");
	if (filter != NULL && filter->status != NULL)
		sqlite3_bind_text(stmt, 1, filter->status, -1, SQLITE_TRANSIENT);
	if (filter != NULL && filter->project != NULL)
		sqlite3_bind_text(stmt, 2, filter->project, -1, SQLITE_TRANSIENT);
	rc = list_rows(out, st, stmt, 1, err);
	sqlite3_finalize(stmt);
	return rc;
}

void
violation_list_free(struct violation_list *l)
{
	if (l == NULL)
		return;
	for (size_t i = 0; i < l->n; i++)
		violation_free(&l->items[i]);
	free(l->items);
	l->items = NULL;
	l->n = 0;
}

int
violation_list_refresh(struct violation_list *l, const size_t *which,
    size_t n, mirror_store *st, mirror_error *err)
{
	struct vreader r;
	int rc;

	if (n == 0)
		return 0;
	rc = vreader_open(&r, st, err);
	for (size_t k = 0; k < n && rc == 0; k++) {
		struct violation *v = &l->items[which[k]];

		for (size_t j = 0; j < v->n_facts && rc == 0; j++) {
			struct violation_fact *f = &v->fact[j];

			free(f->label);
			free(f->project);
			free(f->source);
			free(f->status_now);
			f->label = f->project = f->source = f->status_now =
			    NULL;
			rc = fact_now(f, &r, err);
		}
	}
	vreader_close(&r);
	return rc;
}

int
violation_get(struct violation *out, mirror_store *st, const char *id,
    mirror_error *err)
{
	struct violation_list l = { NULL, 0 };
	sqlite3_stmt *stmt = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!store_features(st)->has_rule_tables)
		return mirror_fail(err, MIRROR_EINPUT, "store %s: no violation "
		    "'%s' (no rule has run on this store)", store_path(st), id);
	rc = sqlite3_prepare_v2(store_db(st), "SELECT " VIOLATION_COLS
	    " FROM main.rule_violations WHERE id = ?1", -1, &stmt, NULL);
	if (rc != SQLITE_OK)
		return store_fail(st, err, rc, "cannot read a violation");
	sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
	rc = list_rows(&l, st, stmt, 0, err);
	sqlite3_finalize(stmt);
	if (rc == 0 && l.n == 0)
		rc = mirror_fail(err, MIRROR_EINPUT, "store %s: no violation "
		    "'%s'", store_path(st), id);
	if (l.n > 0) {
		*out = l.items[0];
		memset(&l.items[0], 0, sizeof(l.items[0]));
	}
	violation_list_free(&l);
	return rc;
}

int
violation_counts(struct violation_counts *out, mirror_store *st,
    mirror_error *err)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if (!store_features(st)->has_rule_tables)
		return 0;
	rc = store_count(&out->open_error, st, "SELECT count(*) FROM "
	    "main.rule_violations WHERE status = 'open' AND severity = "
	    "'error'", NULL, err);
	if (rc == 0)
		rc = store_count(&out->open_warn, st, "SELECT count(*) FROM "
		    "main.rule_violations WHERE status = 'open' AND severity "
		    "<> 'error'", NULL, err);
	if (rc == 0)
		rc = store_count(&out->closed, st, "SELECT count(*) FROM "
		    "main.rule_violations WHERE status <> 'open'", NULL, err);
	return rc == 0 ? violation_rule_counts(out, st, err) : rc;
}

int
violation_rule_counts(struct violation_counts *out, mirror_store *st,
    mirror_error *err)
{
	int rc;

	out->rules = out->rules_failed = 0;
	if (!store_features(st)->has_rule_tables)
		return 0;
	rc = store_count(&out->rules, st, "SELECT count(*) FROM "
	    "main.rule_runs WHERE sweep_run = " LATEST_RUN, NULL, err);
	if (rc == 0)
		rc = store_count(&out->rules_failed, st, "SELECT count(*) "
		    "FROM main.rule_runs WHERE status <> 'ok' AND sweep_run = "
		    LATEST_RUN, NULL, err);
	return rc;
}

static void
run_free(struct rule_run *r)
{
	free(r->sweep_run);
	free(r->rule_id);
	free(r->origin);
	free(r->severity);
	free(r->label);
	free(r->description);
	free(r->query);
	free(r->status);
	free(r->error);
}

void
rule_run_list_free(struct rule_run_list *l)
{
	if (l == NULL)
		return;
	for (size_t i = 0; i < l->n; i++)
		run_free(&l->items[i]);
	free(l->items);
	l->items = NULL;
	l->n = 0;
}

/* An integer column of a rule_runs row. */
static int
run_int(long long *out, struct store_row *r, int i, const char *col)
{
	if (sqlite3_column_type(r->stmt, i) != SQLITE_INTEGER)
		return storerow_fail(r, col, "is not an integer");
	*out = sqlite3_column_int64(r->stmt, i);
	return 0;
}

/* Fill u from the rule_runs row of s (RUN_COLS), checked. */
static int
run_row(struct rule_run *u, mirror_store *st, sqlite3_stmt *s,
    mirror_error *err)
{
	struct store_row r = { .st = st, .stmt = s, .table = "rule_runs",
	    .err = err };
	int rc;

	memset(u, 0, sizeof(*u));
	if ((rc = storerow_text(&u->rule_id, &r, 1, "rule_id", 0)) < 0)
		return rc;
	r.id = u->rule_id;
	if ((rc = storerow_text(&u->sweep_run, &r, 0, "sweep_run", 0)) < 0 ||
	    (rc = storerow_text(&u->origin, &r, 2, "origin", 0)) < 0 ||
	    (rc = storerow_enum(&u->severity, &r, 3, "severity",
	    severities)) < 0 ||
	    (rc = storerow_text(&u->label, &r, 4, "label", 0)) < 0 ||
	    (rc = storerow_text(&u->description, &r, 5, "description",
	    0)) < 0 ||
	    (rc = storerow_text(&u->query, &r, 6, "query", 0)) < 0 ||
	    (rc = storerow_enum(&u->status, &r, 7, "status", rstatus)) < 0 ||
	    (rc = storerow_text(&u->error, &r, 8, "error", 0)) < 0 ||
	    (rc = run_int(&u->hits, &r, 9, "hits")) < 0 ||
	    (rc = run_int(&u->duration_ms, &r, 10, "duration_ms")) < 0)
		return rc;
	u->current = sqlite3_column_int(s, 11) == 1;
	if (u->label[0] == '\0') {
		free(u->label);
		u->label = xstrdup(u->rule_id);
	}
	return 0;
}

/*
 * Read every row of sql (RUN_COLS) into out. A row that fails its
 * checks is left out with a warning on stderr: rule_runs is mirror's
 * own log, which an older mirror wrote with a rule's text unchecked
 * (issue 55), and no page needs any one row of it; a store holding such
 * a row must not stop every build.
 */
static int
runs_read(struct rule_run_list *out, mirror_store *st, const char *sql,
    mirror_error *err)
{
	sqlite3_stmt *s = NULL;
	size_t cap = 0;
	int rc;

	rc = sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL);
	while (rc == SQLITE_OK && (rc = store_step(st, s)) == SQLITE_ROW) {
		struct rule_run *u = &ARRAY_PUSH(out->items, out->n, cap);

		rc = run_row(u, st, s, err);
		if (rc == -MIRROR_EINPUT) {
			fprintf(stderr, "mirror: warning: %s; the row is "
			    "skipped\n", err->msg);
			mirror_error_clear(err);
			run_free(u);
			out->n--;
		} else if (rc < 0)
			break;
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	if (rc < 0)
		return rc;
	return rc == SQLITE_DONE ? 0 : store_fail(st, err, rc,
	    "cannot read rule runs");
}

int
rule_runs_latest(struct rule_run_list *out, mirror_store *st,
    mirror_error *err)
{
	memset(out, 0, sizeof(*out));
	if (!store_features(st)->has_rule_tables)
		return 0;
	return runs_read(out, st, "SELECT " RUN_COLS " FROM main.rule_runs r "
	    "WHERE r.rowid IN (" STORE_LATEST_RULE_RUNS ") ORDER BY r.rule_id",
	    err);
}

const struct rule_run *
violation_rule_run_find(const struct rule_run_list *l, const char *rule_id)
{
	size_t at = byid_sorted(l->items, l->n, sizeof(*l->items),
	    offsetof(struct rule_run, rule_id), rule_id);

	return at != BYID_NONE ? &l->items[at] : NULL;
}

/* qsort order of struct flagged: layer, fact id, violation id. */
static int
cmp_flagged(const void *a, const void *b)
{
	const struct flagged *x = a, *y = b;
	int c = strcmp(x->layer, y->layer);

	if (c == 0)
		c = strcmp(x->id, y->id);
	return c != 0 ? c : strcmp(x->violation_id, y->violation_id);
}

void
violation_flagged(struct flagged_list *out, const struct violation_list *all)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < all->n; i++)
		if (strcmp(all->items[i].status, "open") == 0)
			n += all->items[i].n_facts;
	out->items = xcalloc(n + 1, sizeof(*out->items));
	for (size_t i = 0; i < all->n; i++) {
		const struct violation *v = &all->items[i];

		if (strcmp(v->status, "open") != 0)
			continue;
		for (size_t j = 0; j < v->n_facts; j++)
			out->items[k++] = (struct flagged){
			    .layer = v->fact[j].layer, .id = v->fact[j].id,
			    .violation_id = v->id, .rule_id = v->rule_id,
			    .project = v->project };
	}
	out->n = k;
	qsort(out->items, out->n, sizeof(*out->items), cmp_flagged);
	byid_pairs_index(&out->by, out->items, out->n, sizeof(*out->items),
	    offsetof(struct flagged, layer), offsetof(struct flagged, id));
}

const struct flagged *
violation_flagged_find(const struct flagged_list *l, const char *layer,
    const char *id, size_t *n)
{
	size_t lo = byid_pairs_find(&l->by, l->items, layer, id), k;

	if (n != NULL)
		*n = 0;
	if (lo == BYID_NONE)
		return NULL;
	/* The pair's entries follow its first: sorted by it. */
	for (k = lo; k < l->n && strcmp(l->items[k].layer, layer) == 0 &&
	    strcmp(l->items[k].id, id) == 0; k++)
		;
	if (n != NULL)
		*n = k - lo;
	return &l->items[lo];
}

void
flagged_list_free(struct flagged_list *l)
{
	if (l == NULL)
		return;
	free(l->items);
	byid_pairs_free(&l->by);
	l->items = NULL;
	l->n = 0;
}

int
violation_check(mirror_store *st, mirror_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	if (!store_features(st)->has_rule_tables)
		return 0;
	rc = sqlite3_prepare_v2(store_db(st), "SELECT " VIOLATION_COLS
	    " FROM main.rule_violations", -1, &s, NULL);
	while (rc == SQLITE_OK && (rc = store_step(st, s)) == SQLITE_ROW) {
		struct violation v;

		rc = violation_row(&v, st, s, err);
		violation_free(&v);
		if (rc < 0)
			break;
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	if (rc < 0)
		return rc;
	if (rc != SQLITE_DONE)
		return store_fail(st, err, rc, "cannot read violations");
	/* rule_runs: its readers skip a bad row (runs_read). */
	return finding_check(&fact_table, fact_check_row, st, err);
}
