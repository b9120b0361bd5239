/*
 * undo.c: a write transaction's changes to mirror's tables, kept to be
 * taken back (undo.h), through SQLite's session extension (Debian's
 * libsqlite3 is built with it; sqlite3.h declares it under this macro).
 */
#define SQLITE_ENABLE_SESSION 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/undo.h"
#include "util/array.h"
#include "util/byid.h"
#include "util/xalloc.h"

struct store_undo {
	sqlite3_session *rec;       /* the recording, or NULL */
	void *taken;                /* store_undo_take's, until committed */
	int n_taken;
	void *kept;                 /* the committed changes, or NULL */
	int n_kept;
	FILE *stowed;               /* kept's bytes, once store_undo_stow
	                               moved them out of memory (kept is
	                               then NULL, n_kept their count) */
};

static int undo_unstow(struct store_undo *u, mirror_error *err);

/* The tables recorded: mirror's own, which its writes alone change. */
static const char *const undo_tables[] = { "conflicts", "conflict_members",
    "sweep_runs", "rule_violations", "violation_facts", "rule_runs",
    "mirror_meta" };

/* The session's table filter: 1 for a table of undo_tables, else 0. */
static int
undo_filter(void *arg, const char *table)
{
	(void)arg;
	for (size_t i = 0; i < sizeof(undo_tables) / sizeof(*undo_tables);
	    i++)
		if (strcmp(table, undo_tables[i]) == 0)
			return 1;
	return 0;
}

struct store_undo *
store_undo_new(void)
{
	return xcalloc(1, sizeof(struct store_undo));
}

void
store_undo_drop(struct store_undo *u)
{
	if (u == NULL)
		return;
	if (u->rec != NULL)
		sqlite3session_delete(u->rec);
	u->rec = NULL;
	sqlite3_free(u->taken);
	u->taken = NULL;
	u->n_taken = 0;
}

void
store_undo_free(struct store_undo *u)
{
	if (u == NULL)
		return;
	store_undo_drop(u);
	sqlite3_free(u->kept);
	if (u->stowed != NULL)
		fclose(u->stowed);
	free(u);
}

int
store_undo_record(struct store_undo *u, mirror_store *st, mirror_error *err)
{
	int rc;

	if (u == NULL)
		return 0;
	store_undo_drop(u);
	rc = sqlite3session_create(store_db(st), "main", &u->rec);
	if (rc == SQLITE_OK) {
		sqlite3session_table_filter(u->rec, undo_filter, NULL);
		rc = sqlite3session_attach(u->rec, NULL);
	}
	if (rc == SQLITE_OK)
		return 0;
	store_undo_drop(u);
	return store_fail(st, err, rc, "cannot record the sweep's changes");
}

int
store_undo_take(struct store_undo *u, mirror_error *err)
{
	int rc;

	if (u == NULL || u->rec == NULL)
		return 0;
	sqlite3_free(u->taken);
	u->taken = NULL;
	u->n_taken = 0;
	rc = sqlite3session_changeset(u->rec, &u->n_taken, &u->taken);
	sqlite3session_delete(u->rec);
	u->rec = NULL;
	if (rc == SQLITE_OK)
		return 0;
	u->taken = NULL;
	u->n_taken = 0;
	return mirror_fail(err, MIRROR_EIO, "cannot keep the sweep's changes: "
	    "%s", sqlite3_errstr(rc));
}

void
store_undo_committed(struct store_undo *u)
{
	void *both = NULL;
	int n = 0;

	mirror_error ignored;

	if (u == NULL || u->taken == NULL)
		return;
	if (u->stowed != NULL && undo_unstow(u, &ignored) < 0) {
		sqlite3_free(u->taken); /* as when they cannot be joined */
		u->taken = NULL;
		u->n_taken = 0;
		u->n_kept = -1;
		return;
	}
	if (u->kept == NULL) {
		u->kept = u->taken;
		u->n_kept = u->n_taken;
	} else if (sqlite3changeset_concat(u->n_kept, u->kept, u->n_taken,
	    u->taken, &n, &both) == SQLITE_OK) {
		sqlite3_free(u->kept);
		sqlite3_free(u->taken);
		u->kept = both;
		u->n_kept = n;
	} else {
		/* Cannot be joined (out of memory): nothing can be undone
		 * whole, so nothing is (store_undo_apply says so). */
		sqlite3_free(u->taken);
		u->n_kept = -1;
	}
	u->taken = NULL;
	u->n_taken = 0;
}

size_t
store_undo_size(const struct store_undo *u)
{
	return u == NULL || u->n_kept <= 0 ? 0 : (size_t)u->n_kept;
}

/* each(arg, ...) with value v as text, when it is set. */
static void
key_call(void (*each)(void *, const char *, size_t), void *arg,
    sqlite3_value *v)
{
	const char *text;

	if (v != NULL && (text = (const char *)sqlite3_value_text(v)) != NULL)
		each(arg, text, (size_t)sqlite3_value_bytes(v));
}

int
store_undo_keys(const struct store_undo *u, const char *table,
    void (*each)(void *arg, const char *key, size_t len), void *arg)
{
	sqlite3_changeset_iter *it = NULL;
	int rc, fin;

	if (u == NULL || u->n_kept <= 0 || u->kept == NULL ||
	    sqlite3changeset_start(&it,
	    u->n_kept, u->kept) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3changeset_next(it)) == SQLITE_ROW) {
		const char *tab;
		sqlite3_value *v = NULL;
		int ncol, op, indirect;

		if (sqlite3changeset_op(it, &tab, &ncol, &op, &indirect) !=
		    SQLITE_OK || strcmp(tab, table) != 0 || ncol < 1)
			continue;
		if (op != SQLITE_INSERT && sqlite3changeset_old(it, 0, &v) ==
		    SQLITE_OK)
			key_call(each, arg, v);
		v = NULL;
		if (op != SQLITE_DELETE && sqlite3changeset_new(it, 0, &v) ==
		    SQLITE_OK)
			key_call(each, arg, v);
	}
	fin = sqlite3changeset_finalize(it);
	return rc == SQLITE_DONE && fin == SQLITE_OK ? 0 : -1;
}

/* store_undo_ids's filling: the keys so far, their most, whether they
 * were more. */
struct ids_fill {
	struct store_undo_ids *ids;
	size_t max;
	int over;
};

/* strcmp of two strings' pointers (qsort). */
static int
ids_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sort ids and drop the repeated ones. */
static void
ids_unique(struct store_undo_ids *ids)
{
	size_t k = 0;

	if (ids->n > 1)
		qsort(ids->v, ids->n, sizeof(*ids->v), ids_cmp);
	for (size_t i = 0; i < ids->n; i++)
		if (k > 0 && strcmp(ids->v[k - 1], ids->v[i]) == 0)
			free(ids->v[i]);
		else
			ids->v[k++] = ids->v[i];
	ids->n = k;
}

/* store_undo_keys's each: key[0..len) into the ids_fill at arg; past
 * twice its most, the repeated ones dropped, and none kept once they
 * are more than it. */
static void
ids_add(void *arg, const char *key, size_t len)
{
	struct ids_fill *f = arg;

	if (f->over)
		return;
	ARRAY_PUSH(f->ids->v, f->ids->n, f->ids->cap) = xstrndup(key, len);
	if (f->max > 0 && f->ids->n > 2 * f->max) {
		ids_unique(f->ids);
		f->over = f->ids->n > f->max;
	}
}

int
store_undo_ids(struct store_undo_ids *out, const struct store_undo *u,
    const char *a, const char *b, size_t max)
{
	struct ids_fill f = { out, max, 0 };

	if (store_undo_keys(u, a, ids_add, &f) < 0 ||
	    store_undo_keys(u, b, ids_add, &f) < 0)
		return -1;
	ids_unique(out);
	return f.over || (max > 0 && out->n > max) ? -1 : 0;
}

int
store_undo_ids_has(const struct store_undo_ids *ids, const char *key)
{
	return byid_sorted(ids->v, ids->n, sizeof(*ids->v), 0, key) !=
	    BYID_NONE;
}

void
store_undo_ids_free(struct store_undo_ids *ids)
{
	for (size_t i = 0; i < ids->n; i++)
		free(ids->v[i]);
	free(ids->v);
	memset(ids, 0, sizeof(*ids));
}

/* The conflict handler of the undo: any row changed since by another
 * connection (or gone, or in the way) stops it whole. */
static int
undo_conflict(void *arg, int why, sqlite3_changeset_iter *it)
{
	(void)arg;
	(void)why;
	(void)it;
	return SQLITE_CHANGESET_ABORT;
}

/*
 * Inside the undo's transaction: 0 when the store's latest sweep_runs
 * row is run_id, else -MIRROR_EIO saying a later sweep ran.
 */
static int
undo_latest(mirror_store *st, const char *run_id, mirror_error *err)
{
	long long latest = 0;
	int rc;

	if ((rc = store_count(&latest, st, "SELECT (SELECT id FROM "
	    "main.sweep_runs ORDER BY rowid DESC LIMIT 1) IS ?1", run_id,
	    err)) < 0)
		return rc;
	return latest ? 0 : mirror_fail(err, MIRROR_EIO, "a later sweep "
	    "ran on it since");
}

void
store_undo_stow(struct store_undo *u)
{
	FILE *fp;

	if (u == NULL || u->kept == NULL || u->n_kept <= 0 ||
	    u->stowed != NULL || (fp = tmpfile()) == NULL)
		return;
	if (fwrite(u->kept, 1, (size_t)u->n_kept, fp) != (size_t)u->n_kept ||
	    fflush(fp) != 0) {
		fclose(fp);             /* kept in memory, as before */
		return;
	}
	u->stowed = fp;
	sqlite3_free(u->kept);
	u->kept = NULL;
}

/* u's changes back in memory from where store_undo_stow put them.
 * Returns 0, or < 0 with err set (u keeps them stowed). */
static int
undo_unstow(struct store_undo *u, mirror_error *err)
{
	void *back;

	if (u->stowed == NULL)
		return 0;
	if ((back = sqlite3_malloc(u->n_kept)) == NULL)
		return mirror_fail(err, MIRROR_EIO, "its changes cannot be "
		    "read back (out of memory)");
	if (fseek(u->stowed, 0, SEEK_SET) != 0 || fread(back, 1,
	    (size_t)u->n_kept, u->stowed) != (size_t)u->n_kept) {
		sqlite3_free(back);
		return mirror_fail(err, MIRROR_EIO, "its changes cannot be "
		    "read back from their temporary file");
	}
	fclose(u->stowed);
	u->stowed = NULL;
	u->kept = back;
	return 0;
}

int
store_undo_apply(struct store_undo *u, mirror_store *st, const char *run_id,
    mirror_error *err)
{
	sqlite3 *db = store_db(st);
	void *inv = NULL;
	int n = 0, rc;

	if (u == NULL || u->n_kept == 0)
		return 0;
	if (u->n_kept < 0)
		return mirror_fail(err, MIRROR_EIO, "its changes could not be "
		    "kept (out of memory)");
	if ((rc = undo_unstow(u, err)) < 0)
		return rc;
	if ((rc = sqlite3changeset_invert(u->n_kept, u->kept, &n, &inv)) !=
	    SQLITE_OK)
		return mirror_fail(err, MIRROR_EIO, "cannot invert its changes: "
		    "%s", sqlite3_errstr(rc));
	/* The changes hold every row the sweep's deletes cascaded to:
	 * with the cascades on, taking back its inserts would delete those
	 * rows twice. (The pragma holds outside a transaction only.) */
	(void)sqlite3_exec(db, "PRAGMA foreign_keys = OFF", NULL, NULL, NULL);
	if ((rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL)) !=
	    SQLITE_OK) {
		(void)sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL,
		    NULL);
		sqlite3_free(inv);
		return store_fail(st, err, rc, "cannot lock it");
	}
	if ((rc = undo_latest(st, run_id, err)) == 0) {
		int w = sqlite3changeset_apply(db, n, inv, NULL, undo_conflict,
		    NULL);

		if (w == SQLITE_ABORT || (w & 0xff) == SQLITE_CONSTRAINT)
			rc = mirror_fail(err, MIRROR_EIO, "another connection "
			    "changed its rows since");
		else if (w != SQLITE_OK)
			rc = store_fail(st, err, w, "cannot undo");
	}
	if (rc == 0 && (rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL)) !=
	    SQLITE_OK)
		rc = store_fail(st, err, rc, "cannot commit the undo");
	sqlite3_free(inv);
	if (rc < 0)
		(void)sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	(void)sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	if (rc < 0)
		return rc;
	sqlite3_free(u->kept);
	u->kept = NULL;
	u->n_kept = 0;
	return 1;
}
