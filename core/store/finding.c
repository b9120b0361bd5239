/*
 * finding.c: a finding and the facts it flags (see finding.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/finding.h"
#include "util/array.h"
#include "util/byid.h"
#include "util/xalloc.h"

/* store_fail with "cannot read WHAT". Returns store_fail's. */
static int
read_fail(mirror_store *st, mirror_error *err, int rc, const char *what)
{
	char msg[96];
	int n = snprintf(msg, sizeof(msg), "cannot read %s", what);

	return store_fail(st, err, rc, n < 0 || (size_t)n >= sizeof(msg) ?
	    "cannot read rows" : msg);
}

int
finding_rows_open(struct finding_rows *c, const struct finding_table *t,
    char **ids, mirror_store *st, mirror_error *err)
{
	int rc;

	memset(c, 0, sizeof(*c));
	c->t = t;
	c->st = st;
	c->ids = ids;
	while (ids[c->n] != NULL)
		c->n++;
	c->at = c->next = c->n;
	c->held = c->n == 0;    /* none: nothing to read */
	c->row = (struct store_row){ .st = st, .table = t->table,
	    .err = err };
	if (c->n == 0)
		return 0;
	rc = sqlite3_prepare_v2(store_db(st), c->n == 1 ? t->one_sql :
	    t->all_sql, -1, &c->stmt, NULL);
	if (rc != SQLITE_OK)
		return read_fail(st, err, rc, t->what);
	c->row.stmt = c->stmt;
	if (c->n == 1)
		sqlite3_bind_text(c->stmt, 1, ids[0], -1, SQLITE_TRANSIENT);
	c->by = (char **)byid_index(ids, c->n, sizeof(*ids), 0);
	return 0;
}

/* The position in c->ids of the finding of c's current row, or c->n
 * when it is none of them. */
static size_t
row_finding(const struct finding_rows *c)
{
	sqlite3_stmt *s = c->stmt;
	const char *id = (const char *)sqlite3_column_text(s,
	    c->t->owner_col);
	char **at;

	/* An id with a NUL byte is no finding's (whose ids are store
	 * text): its part before the NUL must not find one. */
	if (id == NULL || strlen(id) != (size_t)sqlite3_column_bytes(s,
	    c->t->owner_col))
		return c->n;
	/* A finding's rows come together: look it up when the id changes. */
	if (c->at < c->n && strcmp(c->ids[c->at], id) == 0)
		return c->at;
	at = byid_find((void *const *)c->by, c->n, 0, id);
	return at != NULL ? (size_t)(at - c->ids) : c->n;
}

/* Step c->stmt to the next row of a listed finding, held for the next
 * hand: c->next its finding, or c->n at the end. Returns 0 or < 0. */
static int
hold_next(struct finding_rows *c)
{
	int rc;

	for (;;) {
		rc = store_step(c->st, c->stmt);
		if (rc == SQLITE_DONE) {
			c->next = c->n;
			break;
		}
		if (rc != SQLITE_ROW)
			return read_fail(c->st, c->row.err, rc, c->t->what);
		if ((c->next = row_finding(c)) < c->n)
			break;
	}
	c->held = 1;
	return 0;
}

int
finding_rows_next(struct finding_rows *c, size_t *at)
{
	int rc;

	if (!c->held && (rc = hold_next(c)) < 0)
		return rc;
	*at = c->at;
	if (c->at < c->n && c->next != c->at) {
		c->at = c->n;
		return FINDING_END;
	}
	*at = c->next;
	if (c->next == c->n)
		return FINDING_DONE;
	if (c->at != c->next)
		c->cap = 0;     /* a new finding's first row */
	c->at = c->next;
	c->held = 0;
	c->row.id = c->ids[c->at];
	c->row.member = NULL;
	return FINDING_ROW;
}

void
finding_rows_close(struct finding_rows *c)
{
	sqlite3_finalize(c->stmt);
	free(c->by);
	memset(c, 0, sizeof(*c));
}

int
finding_check(const struct finding_table *t,
    int (*row)(struct store_row *r), mirror_store *st, mirror_error *err)
{
	struct store_row r = { .st = st, .table = t->table, .err = err };
	sqlite3_stmt *s = NULL;
	int rc;

	rc = sqlite3_prepare_v2(store_db(st), t->check_sql, -1, &s, NULL);
	r.stmt = s;
	while (rc == SQLITE_OK && (rc = store_step(st, s)) == SQLITE_ROW) {
		char *owner = NULL;

		r.id = NULL;
		r.member = NULL;
		rc = storerow_text(&owner, &r, t->owner_col, t->owner, 0);
		r.id = owner;
		if (rc == 0)
			rc = row(&r);
		free(owner);
		if (rc < 0)
			break;
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	if (rc < 0)
		return rc;
	return rc == SQLITE_DONE ? 0 : read_fail(st, err, rc, t->what);
}

void
finding_order_add(struct finding_order *o, const char *layer,
    const char *id, size_t finding, size_t at)
{
	ARRAY_PUSH(o->v, o->n, o->cap) = (struct finding_ref){ .layer = layer,
	    .id = id, .finding = finding, .at = at };
}

/* array_sort order of finding refs: by layer, then id. */
static int
cmp_ref(const void *a, const void *b, const void *ctx)
{
	const struct finding_ref *x = a, *y = b;
	int c = strcmp(x->layer, y->layer);

	(void)ctx;
	return c != 0 ? c : strcmp(x->id, y->id);
}

void
finding_order_sort(struct finding_order *o)
{
	array_sort(o->v, o->n, sizeof(*o->v), cmp_ref, NULL);
}

void
finding_order_free(struct finding_order *o)
{
	free(o->v);
	memset(o, 0, sizeof(*o));
}

void
finding_ids_free(char **ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

void
finding_earlier_free(struct finding_earlier *x)
{
	for (size_t i = 0; i < x->n; i++) {
		free(x->v[i].a);
		free(x->v[i].b);
		free(x->v[i].id);
	}
	free(x->v);
	x->v = NULL;
	x->n = 0;
}

int
finding_earlier_load(struct finding_earlier *out,
    const struct finding_keys *k, mirror_store *st, mirror_error *err)
{
	struct store_row row = { .st = st, .table = k->table, .err = err };
	sqlite3_stmt *s = NULL;
	size_t cap = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = sqlite3_prepare_v2(store_db(st), k->sql, -1, &s, NULL);
	row.stmt = s;
	while (rc == SQLITE_OK && (rc = store_step(st, s)) == SQLITE_ROW) {
		struct finding_key *e = &ARRAY_PUSH(out->v, out->n, cap);

		memset(e, 0, sizeof(*e));
		row.id = NULL;
		if ((rc = storerow_text(&e->id, &row, 2, "id", 0)) < 0)
			break;
		row.id = e->id;
		if ((rc = storerow_text(&e->a, &row, 0, k->a, 0)) < 0 ||
		    (rc = storerow_text(&e->b, &row, 1, k->b, 0)) < 0)
			break;
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	if (rc < 0)
		return rc;
	return rc == SQLITE_DONE ? 0 : read_fail(st, err, rc, k->what);
}

/* A key to look up. */
struct key_ab {
	const char *a, *b;
};

/* array_lower order of a key (a struct key_ab) and an entry (a struct
 * finding_key): by a, then b. */
static int
cmp_key(const void *key, const void *e, const void *ctx)
{
	const struct key_ab *k = key;
	const struct finding_key *x = e;
	int d = strcmp(k->a, x->a);

	(void)ctx;
	return d != 0 ? d : strcmp(k->b, x->b);
}

void
finding_earlier(char ***ids, size_t *n, const struct finding_earlier *x,
    const char *a, const char *b, const char *id)
{
	struct key_ab key = { a, b };
	size_t cap = 0;
	int mine = 0;

	for (size_t i = array_lower(&key, x->v, x->n, sizeof(*x->v), cmp_key,
	    NULL); i < x->n && cmp_key(&key, &x->v[i], NULL) == 0; i++) {
		if (!mine) {
			mine = strcmp(x->v[i].id, id) == 0;
			continue;
		}
		ARRAY_PUSH(*ids, *n, cap) = xstrdup(x->v[i].id);
	}
	ARRAY_FIT(*ids, *n, cap);
}
