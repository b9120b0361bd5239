/*
 * digest.c: the snapshot checksum and the projects' digests in one pass
 * (see digest.h).
 */
#include <stdlib.h>
#include <string.h>

#include "store/digest.h"
#include "util/hash.h"
#include "util/hashtab.h"
#include "util/xalloc.h"

/* A project while folding: keyed by the hash of its id. */
struct acc_entry {
	uint64_t key;
	char *project;
	uint64_t sum, rows;
	long long counts[DIGEST_COUNTS], active;
	long long latest;       /* -1 until a counted row has a time */
	int seen;               /* latest is set */
};

/* A 64-bit finalizer (splitmix64): spreads a row hash over all bits
 * before rows are summed, so near-equal rows do not cancel out. */
static uint64_t
mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

void
digest_init(struct store_digest *d)
{
	memset(d, 0, sizeof(*d));
	d->snapshot = MIRROR_HASH_INIT;
	d->acc = xcalloc(1, sizeof(*d->acc));
	hashtab_init(d->acc, sizeof(struct acc_entry));
}

/* Fold column i of stmt (its type, then its bytes) into h. */
static uint64_t
hash_col(uint64_t h, sqlite3_stmt *stmt, int i)
{
	unsigned char type = (unsigned char)sqlite3_column_type(stmt, i);
	const void *p;

	h = hash_add(h, &type, 1);
	if (type == SQLITE_NULL)
		return h;
	p = sqlite3_column_text(stmt, i);
	h = hash_add(h, p, (size_t)sqlite3_column_bytes(stmt, i));
	return hash_add_str(h, NULL);
}

/* The entry of project (len bytes) in d, made on first sight. */
static struct acc_entry *
project_entry(struct store_digest *d, const char *project, size_t len)
{
	uint64_t k = hash_add(MIRROR_HASH_INIT, project, len);
	struct acc_entry *e;

	k = k != 0 ? k : 1;
	for (e = hashtab_get(d->acc, k); e != NULL;
	    e = hashtab_next(d->acc, e))
		if (strlen(e->project) == len &&
		    memcmp(e->project, project, len) == 0)
			return e;
	e = hashtab_add(d->acc, k);
	e->project = xstrndup(project, len);
	return e;
}

/* How a row is counted besides its hash (digest_fold's count). */
struct row_count {
	int count;              /* -1: not counted */
	int active;             /* its flag */
	int has_time;           /* 1 when time is a time */
	long long time;         /* its time column (seconds) */
};

/* Add one row's hash rh to each distinct owner in columns [from, ncol)
 * of stmt, counted as rc says, or to the loose rows when it has none. */
static void
add_owners(struct store_digest *d, sqlite3_stmt *stmt, int from, int ncol,
    uint64_t rh, const struct row_count *rc)
{
	int owned = 0;

	for (int i = from; i < ncol; i++) {
		const char *p = (const char *)sqlite3_column_text(stmt, i);
		size_t len = (size_t)sqlite3_column_bytes(stmt, i);
		int seen = 0;
		struct acc_entry *e;

		if (p == NULL)
			continue;
		/* Both ends of an edge in one project count once. */
		for (int j = from; j < i && !seen; j++) {
			const char *q = (const char *)sqlite3_column_text(
			    stmt, j);

			seen = q != NULL && (size_t)sqlite3_column_bytes(stmt,
			    j) == len && memcmp(p, q, len) == 0;
		}
		if (seen)
			continue;
		e = project_entry(d, p, len);
		e->sum += rh;
		e->rows++;
		if (rc->count >= 0) {
			e->counts[rc->count]++;
			e->active += rc->active;
			if (rc->has_time && (!e->seen || rc->time > e->latest))
				e->latest = rc->time;
			e->seen |= rc->has_time;
		}
		owned = 1;
	}
	if (!owned) {
		d->loose_sum += rh;
		d->loose_rows++;
	}
}

int
digest_fold(struct store_digest *d, mirror_store *st, const char *sql,
    int table, int nhash, int nsalt, int count, const char *param,
    mirror_error *err)
{
	static const char what[] = "cannot compute the snapshot checksum";
	sqlite3_stmt *stmt = NULL;
	uint64_t sum = 0, rows = 0;
	unsigned char tag = (unsigned char)table;
	int rc, ncol;

	rc = sqlite3_prepare_v2(store_db(st), sql, -1, &stmt, NULL);
	if (rc == SQLITE_OK && param != NULL &&
	    sqlite3_bind_parameter_count(stmt) > 0)
		rc = sqlite3_bind_text(stmt, 1, param, -1, SQLITE_TRANSIENT);
	if (rc != SQLITE_OK) {
		rc = store_fail(st, err, rc, what);
		sqlite3_finalize(stmt);
		return rc;
	}
	ncol = sqlite3_column_count(stmt);
	while ((rc = store_step(st, stmt)) == SQLITE_ROW) {
		uint64_t rh = MIRROR_HASH_INIT, ph;
		struct row_count cnt = { count, 0, 0, 0 };
		int i;

		for (i = 0; i < nhash && i < ncol; i++)
			rh = hash_col(rh, stmt, i);
		sum += mix64(rh);
		rows++;
		/* The projects see the table and the salt too. */
		ph = hash_add(rh, &tag, 1);
		for (; i < nhash + nsalt && i < ncol; i++)
			ph = hash_col(ph, stmt, i);
		if (count >= 0 && i + 1 < ncol) {
			cnt.active = sqlite3_column_int(stmt, i++) != 0;
			cnt.has_time = sqlite3_column_type(stmt, i) ==
			    SQLITE_INTEGER;
			cnt.time = sqlite3_column_int64(stmt, i++);
		}
		add_owners(d, stmt, i, ncol, mix64(ph), &cnt);
	}
	rc = rc == SQLITE_DONE ? 0 : store_fail(st, err, rc, what);
	sqlite3_finalize(stmt);
	d->snapshot = hash_add(d->snapshot, &sum, sizeof(sum));
	d->snapshot = hash_add(d->snapshot, &rows, sizeof(rows));
	return rc;
}

static int
cmp_project(const void *a, const void *b)
{
	return strcmp(((const struct project_digest *)a)->project,
	    ((const struct project_digest *)b)->project);
}

/* A sum and a count as one digest. */
static uint64_t
seal(uint64_t sum, uint64_t rows)
{
	uint64_t h = hash_add(MIRROR_HASH_INIT, &sum, sizeof(sum));

	return hash_add(h, &rows, sizeof(rows));
}

void
digest_finish(struct store_digest *d)
{
	const struct hashtab *t = d->acc;

	if (t == NULL)
		return;
	d->p = xcalloc(t->n + 1, sizeof(*d->p));
	d->n = 0;
	for (size_t i = 0; i < t->cap; i++) {
		struct acc_entry *e = (struct acc_entry *)(void *)(t->slots +
		    i * t->size);

		if (e->key == 0)
			continue;
		d->p[d->n].project = e->project;
		memcpy(d->p[d->n].rows, e->counts, sizeof(e->counts));
		d->p[d->n].active = e->active;
		d->p[d->n].latest = e->seen ? e->latest : -1;
		d->p[d->n++].sum = seal(e->sum, e->rows);
	}
	qsort(d->p, d->n, sizeof(*d->p), cmp_project);
	d->loose = seal(d->loose_sum, d->loose_rows);
	hashtab_free(d->acc);
	free(d->acc);
	d->acc = NULL;
}

uint64_t
digest_of(const struct store_digest *d, const char *id)
{
	size_t lo = 0, hi = d->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(d->p[mid].project, id);

		if (c == 0)
			return d->p[mid].sum;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

void
digest_free(struct store_digest *d)
{
	if (d->acc != NULL) {
		digest_finish(d);
	}
	for (size_t i = 0; i < d->n; i++)
		free(d->p[i].project);
	free(d->p);
	d->p = NULL;
	d->n = 0;
}
