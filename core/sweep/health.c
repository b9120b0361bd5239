#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/digest.h"
#include "store/facts.h"
#include "store/storerow.h"
#include "sweep/conflict.h"
#include "sweep/health.h"
#include "sys/clock.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/hashtab.h"
#include "util/xalloc.h"

/* A status seen in a layer: its index in the layer's by_status. */
struct seen_status {
	uint64_t key;           /* hash of its bytes (never 0) */
	size_t i;
};

static int
cmp_status(const void *a, const void *b)
{
	return strcmp(((const struct status_count *)a)->status,
	    ((const struct status_count *)b)->status);
}

/*
 * Count l's rows by status (NULL counts as ""), sorted by status. One
 * scan, counted here: SQLite's GROUP BY would sort every row first
 * (a third of health's time). Each status is checked as text when it is
 * first seen, naming that row. Returns 0 or < 0 with err set.
 */
static int
layer_counts(struct health_layer *l, mirror_store *st, mirror_error *err)
{
	struct store_row row = { .st = st, .table = l->name, .err = err };
	struct hashtab seen;
	char sql[160];
	size_t cap = 0;
	int rc, n;

	n = snprintf(sql, sizeof(sql), "SELECT coalesce(status, ''), id "
	    "FROM main.%s", l->name);
	if (n < 0 || (size_t)n >= sizeof(sql))
		return mirror_fail(err, MIRROR_EIO, "internal: sql too long");
	hashtab_init(&seen, sizeof(struct seen_status));
	rc = sqlite3_prepare_v2(store_db(st), sql, -1, &row.stmt, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(row.stmt)) ==
	    SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(row.stmt, 0);
		size_t len = (size_t)sqlite3_column_bytes(row.stmt, 0);
		uint64_t key = hash_add(MIRROR_HASH_INIT, s != NULL ? s : "",
		    len);
		struct seen_status *e;
		struct status_count *b = NULL;
		char *id = NULL;

		key += key == 0;
		for (e = hashtab_get(&seen, key); e != NULL && b == NULL;
		    e = hashtab_next(&seen, e))
			if (strlen(l->by_status[e->i].status) == len &&
			    memcmp(l->by_status[e->i].status, s, len) == 0)
				b = &l->by_status[e->i];
		if (b == NULL) {
			/* New: checked as text, with its row named. */
			rc = storerow_text(&id, &row, 1, "id", 1);
			row.id = id;
			b = &ARRAY_PUSH(l->by_status, l->n_status, cap);
			memset(b, 0, sizeof(*b));
			if (rc == 0)
				rc = storerow_text(&b->status, &row, 0,
				    "status", 0);
			free(id);
			row.id = NULL;
			if (rc < 0)
				break;
			e = hashtab_add(&seen, key);
			e->i = l->n_status - 1;
		}
		b->n++;
		l->total++;
		rc = SQLITE_OK;
	}
	hashtab_free(&seen);
	if (rc >= 0 && rc != SQLITE_DONE) {
		n = snprintf(sql, sizeof(sql), "cannot count %s", l->name);
		rc = store_fail(st, err, rc, n < 0 || (size_t)n >= sizeof(sql) ?
		    "cannot count a layer" : sql);
	}
	sqlite3_finalize(row.stmt);
	if (rc < 0)
		return rc;
	if (l->n_status > 1)
		qsort(l->by_status, l->n_status, sizeof(*l->by_status),
		    cmp_status);
	return 0;
}

/* The layers in trust order: their rows in a digest (1 + enum
 * facts_rows: store/digest.h's tables). */
static const int layer_tables[3] = { 1 + FACTS_ROWS_STATE,
    1 + FACTS_ROWS_ENTITIES, 1 + FACTS_ROWS_MEMORIES };

/* h emptied, its layers named. */
static void
health_init(struct health *h)
{
	memset(h, 0, sizeof(*h));
	for (int i = 0; i < 3; i++) {
		h->layers[i].name = layer_table((enum fact_layer)(3 - i));
		h->layers[i].trust = 3 - i;
	}
}

/* The counts of the tables mirror writes (conflicts, sweeps, rules),
 * read on st; lists: not the conflicts and violations by status
 * (health_count_lists's). Returns 0 or < 0 with err set. */
static int
health_mirror_tables(struct health *h, mirror_store *st, int lists,
    mirror_error *err)
{
	int rc = 0;

	if (store_features(st)->has_mirror_tables) {
		struct conflict_counts cc = { 0, 0, 0 };

		if (!lists)
			rc = conflict_counts(&cc, st, err);
		h->open_conflicts_count = cc.open;
		h->resolved_conflicts = cc.resolved;
		h->dismissed_conflicts = cc.dismissed;
		if (rc == 0)
			rc = store_count(&h->sweep_runs, st, "SELECT count(*) "
			    "FROM main.sweep_runs", NULL, err);
	}
	if (rc == 0)
		rc = lists ? violation_rule_counts(&h->checks, st, err) :
		    violation_counts(&h->checks, st, err);
	return rc;
}

void
health_count_lists(struct health *h, const struct conflict_list *c,
    const struct violation_list *v)
{
	struct violation_counts *k = &h->checks;

	h->open_conflicts_count = h->resolved_conflicts =
	    h->dismissed_conflicts = 0;
	for (size_t i = 0; i < c->n; i++) {
		const char *s = c->items[i].status;

		h->open_conflicts_count += strcmp(s, "open") == 0;
		h->resolved_conflicts += strcmp(s, "resolved") == 0;
		h->dismissed_conflicts += strcmp(s, "dismissed") == 0;
	}
	k->open_error = k->open_warn = k->closed = 0;
	for (size_t i = 0; i < v->n; i++) {
		const struct violation *x = &v->items[i];

		if (strcmp(x->status, "open") != 0)
			k->closed++;
		else if (strcmp(x->severity, "error") == 0)
			k->open_error++;
		else
			k->open_warn++;
	}
}

static int health_read_as(struct health *h, mirror_store *st, time_t now,
    int lists, mirror_error *err);

int
health_digested(struct health *h, mirror_store *st,
    const struct store_digest *d, time_t now, int lists, mirror_error *err)
{
	if (!d->tallied || d->now != now)
		return health_read_as(h, st, now, lists, err);
	/* What layer_counts would refuse, it reports, naming the row. */
	for (int i = 0; i < 3; i++) {
		const struct digest_tally *t = &d->tally[layer_tables[i]];

		for (size_t k = 0; k < t->n; k++)
			if (t->v[k].first_bad || storerow_text_problem(
			    (const unsigned char *)t->v[k].value, t->v[k].len) !=
			    NULL)
				return health_read_as(h, st, now, lists, err);
	}
	health_init(h);
	for (int i = 0; i < 3; i++) {
		const struct digest_tally *t = &d->tally[layer_tables[i]];
		struct health_layer *l = &h->layers[i];

		l->total = d->table_rows[layer_tables[i]];
		l->by_status = xcalloc(t->n + 1, sizeof(*l->by_status));
		for (size_t k = 0; k < t->n; k++)
			l->by_status[l->n_status++] = (struct status_count){
			    xstrdup(t->v[k].value), t->v[k].rows };
		if (l->n_status > 1)
			qsort(l->by_status, l->n_status, sizeof(*l->by_status),
			    cmp_status);
	}
	h->projects = d->table_rows[0];
	h->relationships = d->table_rows[1 + FACTS_ROWS_RELATIONSHIPS];
	h->expired_memories = store_features(st)->mem_valid_until ?
	    d->expired_active : 0;
	return health_mirror_tables(h, st, lists, err);
}

int
health_read(struct health *h, mirror_store *st, time_t now,
    mirror_error *err)
{
	return health_read_as(h, st, now, 0, err);
}

/* health_read; lists: as health_digested's. Returns 0 or < 0 with err
 * set. */
static int
health_read_as(struct health *h, mirror_store *st, time_t now, int lists,
    mirror_error *err)
{
	const struct store_features *f = store_features(st);
	char ts[MIRROR_TS_LEN];
	int rc;

	health_init(h);
	rc = store_count(&h->projects, st, "SELECT count(*) FROM "
	    "main.projects", NULL, err);
	for (int i = 0; rc == 0 && i < 3; i++)
		rc = layer_counts(&h->layers[i], st, err);
	if (rc == 0)
		rc = store_count(&h->relationships, st,
		    "SELECT count(*) FROM main.relationships", NULL, err);
	if (rc == 0 && f->mem_valid_until) {
		mirror_format_ts(ts, now);
		rc = store_count(&h->expired_memories, st, "SELECT count(*) "
		    "FROM main.memories WHERE status = 'active' AND "
		    "mirror_ts(valid_until) < mirror_ts(?1)", ts, err);
	}
	return rc < 0 ? rc : health_mirror_tables(h, st, lists, err);
}

json_t *
health_checks_json(const struct violation_counts *c)
{
	return json_pack("{s:I, s:I, s:I, s:I}", "open_error",
	    (json_int_t)c->open_error, "open_warn", (json_int_t)c->open_warn,
	    "closed", (json_int_t)c->closed, "rules_failed",
	    (json_int_t)c->rules_failed);
}

void
health_free(struct health *h)
{
	for (int i = 0; i < 3; i++) {
		for (size_t j = 0; j < h->layers[i].n_status; j++)
			free(h->layers[i].by_status[j].status);
		free(h->layers[i].by_status);
		h->layers[i].by_status = NULL;
		h->layers[i].n_status = 0;
	}
}
