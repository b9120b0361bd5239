/*
 * flagrows.c: reading the facts a finding flags (see flagrows.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/flagrows.h"
#include "util/array.h"
#include "util/byid.h"
#include "util/xalloc.h"

/* The id of owner: its char * at k->owner_id. */
static const char *
owner_id(const struct flagrows *k, void *owner)
{
	return *(char *const *)((char *)owner + k->owner_id);
}

/* store_fail with "cannot read WHAT". Returns store_fail's. */
static int
read_fail(mirror_store *st, mirror_error *err, int rc, const char *what)
{
	char msg[96];
	int n = snprintf(msg, sizeof(msg), "cannot read %s", what);

	return store_fail(st, err, rc, n < 0 || (size_t)n >= sizeof(msg) ?
	    "cannot read rows" : msg);
}

/* The new last row of owner, zeroed; *cap the array's room. The owner
 * holds the array at every step, so it frees what a failure leaves. */
static void *
push(const struct flagrows *k, void *owner, size_t *cap)
{
	size_t n;
	char *v = k->rows(owner, &n);

	v = array_reserve(v, cap, n + 1, k->size);
	k->keep(owner, v, n + 1);
	memset(v + n * k->size, 0, k->size);
	return v + n * k->size;
}

/* Give back the room of owner's rows beyond their number. */
static void
fit(const struct flagrows *k, void *owner, size_t *cap)
{
	size_t n;
	void *v = k->rows(owner, &n);

	v = array_fit(v, cap, n, k->size);
	k->keep(owner, v, n);
}

void
flagrows_free(const struct flagrows *k, void *owner)
{
	size_t n;
	char *v = k->rows(owner, &n);

	for (size_t i = 0; i < n; i++)
		k->free(v + i * k->size);
	free(v);
	k->keep(owner, NULL, 0);
}

int
flagrows_of(const struct flagrows *k, void *owner, sqlite3_stmt *s,
    mirror_store *st, mirror_error *err)
{
	const char *id = owner_id(k, owner);
	struct store_row row = { .st = st, .stmt = s, .table = k->table,
	    .id = id, .err = err };
	size_t cap = 0;
	int rc;

	sqlite3_reset(s);
	sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
	while ((rc = store_step(st, s)) == SQLITE_ROW)
		if ((rc = k->row(push(k, owner, &cap), &row)) < 0)
			break;
	fit(k, owner, &cap);
	sqlite3_reset(s);
	if (rc < 0)
		return rc;
	return rc == SQLITE_DONE ? 0 : read_fail(st, err, rc, k->what);
}

/* flagrows_all's state: the rows' statement and the room of the owner
 * being filled. */
struct fill {
	const struct flagrows *k;
	mirror_store *st;
	sqlite3_stmt *stmt;
	size_t cap;
	mirror_error *err;
};

/* Add the current row to owner's rows (storerow_group). */
static int
fill_add(void *owner, void *arg)
{
	struct fill *f = arg;
	struct store_row row = { .st = f->st, .stmt = f->stmt,
	    .table = f->k->table, .id = owner_id(f->k, owner),
	    .err = f->err };

	return f->k->row(push(f->k, owner, &f->cap), &row);
}

/* Owner's rows are all read (storerow_group). */
static void
fill_done(void *owner, void *arg)
{
	struct fill *f = arg;

	fit(f->k, owner, &f->cap);
	f->cap = 0;
}

int
flagrows_all(const struct flagrows *k, void *owners, size_t n,
    mirror_store *st, mirror_error *err)
{
	struct fill f = { .k = k, .st = st, .err = err };
	struct storerow_group g = { .col = k->owner_col, .n = n,
	    .off = k->owner_id, .add = fill_add, .done = fill_done,
	    .arg = &f };
	void **by = byid_index(owners, n, k->owner_size, k->owner_id);
	int rc;

	rc = sqlite3_prepare_v2(store_db(st), k->all_sql, -1, &f.stmt, NULL);
	g.stmt = f.stmt;
	g.by = by;
	rc = rc != SQLITE_OK ? read_fail(st, err, rc, k->what) :
	    storerow_grouped(&g, st, k->what, err);
	sqlite3_finalize(f.stmt);
	free(by);
	return rc;
}

/* A row to look up, by its layer and id. */
struct lookup {
	const char *kind, *id;
	void *row;
};

/* qsort order of lookups: by layer, then id. */
static int
cmp_lookup(const void *a, const void *b)
{
	const struct lookup *x = a, *y = b;
	int c = strcmp(x->kind, y->kind);

	return c != 0 ? c : strcmp(x->id, y->id);
}

int
flagrows_now(const struct flagrows *k, void *owners, size_t n,
    void *arg, mirror_error *err)
{
	struct lookup *all;
	size_t total = 0, at = 0, m;
	char *v;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		k->rows((char *)owners + i * k->owner_size, &m);
		total += m;
	}
	all = xcalloc(total + 1, sizeof(*all));
	for (size_t i = 0; i < n; i++) {
		v = k->rows((char *)owners + i * k->owner_size, &m);
		for (size_t j = 0; j < m; j++, at++) {
			all[at].row = v + j * k->size;
			all[at].kind = *(char **)(v + j * k->size + k->key_kind);
			all[at].id = *(char **)(v + j * k->size + k->key_id);
		}
	}
	qsort(all, total, sizeof(*all), cmp_lookup);
	for (size_t i = 0; i < total && rc == 0; i++)
		rc = k->now(all[i].row, arg, err);
	free(all);
	return rc;
}

int
flagrows_check(const struct flagrows *k, mirror_store *st,
    mirror_error *err)
{
	struct store_row row = { .st = st, .table = k->table, .err = err };
	sqlite3_stmt *s = NULL;
	void *one = xcalloc(1, k->size);
	int rc;

	rc = sqlite3_prepare_v2(store_db(st), k->check_sql, -1, &s, NULL);
	row.stmt = s;
	while (rc == SQLITE_OK && (rc = store_step(st, s)) == SQLITE_ROW) {
		char *owner = NULL;

		row.id = NULL;
		row.member = NULL;
		rc = storerow_text(&owner, &row, k->owner_col, k->owner_name,
		    0);
		row.id = owner;
		memset(one, 0, k->size);
		if (rc == 0)
			rc = k->row(one, &row);
		k->free(one);
		free(owner);
		if (rc < 0)
			break;
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	free(one);
	if (rc < 0)
		return rc;
	return rc == SQLITE_DONE ? 0 : read_fail(st, err, rc, k->check_what);
}
