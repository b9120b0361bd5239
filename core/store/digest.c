/*
 * digest.c: the snapshot checksum and the projects' digests in one pass
 * (see digest.h).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "store/digest.h"
#include "store/storerow.h"
#include "util/array.h"
#include "util/byid.h"
#include "util/hash.h"
#include "util/hashtab.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A project while folding (allocated alone, so the alias and entity
 * tables can point at it while the tables grow). */
struct proj {
	char *project;
	size_t len;
	uint64_t sum, rows;
	long long counts[DIGEST_COUNTS], active;
	long long latest;       /* -1 until a counted row has a time */
	struct digest_rowids *rowids;   /* keep_rowids: made on first row */
	uint64_t swept_sum, swept_rows; /* of swept queries' rows */
	int swept_born;         /* 1: named by swept queries alone (it goes
	                           when none of their rows is its), 0: by
	                           another too */
	struct proj *moved;     /* digest_merge: its entry in into */
	size_t part_index;      /* digest_part_save: its place */
};

/* The projects by the hash of their id. */
struct acc_entry {
	uint64_t key;
	struct proj *p;
};

/* An alias (or a project's own id) and the project it names. */
struct alias_entry {
	uint64_t key;
	char *name;
	size_t len;
	struct proj *canon;
};

/* An entity, by the hash of its id, its project and its row's hash.
 * The 64-bit hash stands for the id: two ids sharing one are a 2^-64
 * chance. */
struct ent_entry {
	uint64_t key;
	struct proj *owner;
	uint64_t row;
};

/* A project that shows the entity of key as the far end of an edge
 * (one entry per pair). */
struct far_entry {
	uint64_t key;
	struct proj *p;
};

/* What a group's rows added to project p, or to the loose rows (p
 * NULL). */
struct group_part {
	struct proj *p;
	uint64_t sum, rows;
};

/* A group of swept rows (digest_query's group_kind): what they added to
 * their queries' sums, and to each project. */
struct group {
	struct digest_sum slot[DIGEST_GROUP_SLOTS];
	struct group_part *v;
	size_t n, cap;
};

/* A group by the hash of its kind and name. */
struct group_entry {
	uint64_t key;
	struct group *g;
};

/* Tells a far end's row in a project's digest from the row itself. */
#define FAR_TAG 0xfe

void
digest_init(struct store_digest *d)
{
	memset(d, 0, sizeof(*d));
	d->snapshot = MIRROR_HASH_INIT;
	d->acc = xcalloc(1, sizeof(*d->acc));
	hashtab_init(d->acc, sizeof(struct acc_entry));
	d->alias = xcalloc(1, sizeof(*d->alias));
	hashtab_init(d->alias, sizeof(struct alias_entry));
	d->ent = xcalloc(1, sizeof(*d->ent));
	hashtab_init(d->ent, sizeof(struct ent_entry));
	d->far = xcalloc(1, sizeof(*d->far));
	hashtab_init(d->far, sizeof(struct far_entry));
}

void
digest_expect_entities(struct store_digest *d, size_t n)
{
	hashtab_reserve(d->ent, n);
}

/*
 * Fold column i of stmt into h (a chain of hash_step that a hash_mix
 * ends): its type, then its value: an integer's 64 bits, a real's, a
 * text's or blob's length (in the type's word) and bytes. Numbers are
 * not turned into text: that printf was a tenth of the pass. One step
 * a word, not a hash_mix: the digest folds every column of every row.
 */
static uint64_t
hash_col(uint64_t h, sqlite3_stmt *stmt, int i)
{
	sqlite3_value *v = sqlite3_column_value(stmt, i);
	int type = sqlite3_value_type(v);
	const void *p;
	uint64_t bits;
	double r;
	size_t n;

	switch (type) {
	case SQLITE_NULL:
		return hash_step(h, (uint64_t)type);
	case SQLITE_INTEGER:
		return hash_step(hash_step(h, (uint64_t)type),
		    (uint64_t)sqlite3_value_int64(v));
	case SQLITE_FLOAT:
		r = sqlite3_value_double(v);
		memcpy(&bits, &r, sizeof(bits));
		return hash_step(hash_step(h, (uint64_t)type), bits);
	default:
		/* The blob first: value_bytes then counts its bytes as
		 * they are, never a text converted. */
		p = sqlite3_value_blob(v);
		n = (size_t)sqlite3_value_bytes(v);
		return hash_steps(hash_step(h, (uint64_t)type |
		    (uint64_t)n << 8), p, n);
	}
}

/* The hash of len bytes at p as a table key (never 0). */
static uint64_t
key_of(const void *p, size_t len)
{
	uint64_t k = hash_words(MIRROR_HASH_INIT, p, len);

	return k != 0 ? k : 1;
}

/* A value of a tally by the hash of its bytes: its index. */
struct tally_entry {
	uint64_t key;
	size_t i;
};

/* The status of value (len bytes, hash k) in t, or NULL. */
static struct digest_status *
tally_find(const struct digest_tally *t, const char *value, size_t len,
    uint64_t k)
{
	struct tally_entry *e;

	for (e = t->seen != NULL ? hashtab_get(t->seen, k) : NULL; e != NULL;
	    e = hashtab_next(t->seen, e))
		if (t->v[e->i].len == len &&
		    memcmp(t->v[e->i].value, value, len) == 0)
			return &t->v[e->i];
	return NULL;
}

/* The status of value (len bytes) in t, made with first_bad and no
 * rows on first sight. */
static struct digest_status *
tally_entry(struct digest_tally *t, const char *value, size_t len,
    int first_bad)
{
	uint64_t k = key_of(value, len);
	struct tally_entry *e;
	struct digest_status *v = tally_find(t, value, len, k);

	if (v != NULL)
		return v;
	if (t->seen == NULL) {
		t->seen = xcalloc(1, sizeof(*t->seen));
		hashtab_init(t->seen, sizeof(struct tally_entry));
	}
	v = &ARRAY_PUSH(t->v, t->n, t->cap);
	v->value = xmalloc(len + 1);
	memcpy(v->value, value, len);
	v->value[len] = '\0';
	v->len = len;
	v->first_bad = first_bad;
	v->rows = 0;
	e = hashtab_add(t->seen, k);
	e->i = t->n - 1;
	return v;
}

/* Count stmt's row under the text of its column i (NULL: "") in t; read
 * after the row's hashes, which need the columns' own types. */
static void
tally_row(struct digest_tally *t, sqlite3_stmt *stmt, int i)
{
	const char *v = (const char *)sqlite3_column_text(stmt, i);
	size_t len = v != NULL ? (size_t)sqlite3_column_bytes(stmt, i) : 0;
	struct digest_status *s;
	const unsigned char *id;

	if (v == NULL)
		v = "";
	/* The usual case, a value seen before: no look at the id. */
	if ((s = tally_find(t, v, len, key_of(v, len))) == NULL) {
		id = sqlite3_column_text(stmt, 0);
		s = tally_entry(t, v, len, id != NULL &&
		    storerow_text_problem(id, (size_t)sqlite3_column_bytes(
		    stmt, 0)) != NULL);
	}
	s->rows++;
}

/* Add from's values and rows to into's; from is left empty. */
static void
tally_merge(struct digest_tally *into, struct digest_tally *from)
{
	for (size_t i = 0; i < from->n; i++) {
		struct digest_status *f = &from->v[i];

		tally_entry(into, f->value, f->len, f->first_bad)->rows +=
		    f->rows;
		free(f->value);
	}
	free(from->v);
	if (from->seen != NULL)
		hashtab_free(from->seen);
	free(from->seen);
	memset(from, 0, sizeof(*from));
}

/* Free t's values and table. */
static void
tally_free(struct digest_tally *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].value);
	free(t->v);
	if (t->seen != NULL)
		hashtab_free(t->seen);
	free(t->seen);
	memset(t, 0, sizeof(*t));
}

/* The project (len bytes) in d, made on first sight. */
static struct proj *
project_entry(struct store_digest *d, const char *project, size_t len)
{
	uint64_t k = key_of(project, len);
	struct acc_entry *e;
	struct proj *p;

	for (e = hashtab_get(d->acc, k); e != NULL;
	    e = hashtab_next(d->acc, e))
		if (e->p->len == len && memcmp(e->p->project, project,
		    len) == 0) {
			/* Named by a query that is not swept: it stays. */
			if (!d->in_swept)
				e->p->swept_born = 0;
			return e->p;
		}
	p = xcalloc(1, sizeof(*p));
	p->project = xstrndup(project, len);
	p->len = len;
	p->latest = -1;
	p->swept_born = d->in_swept;
	e = hashtab_add(d->acc, k);
	e->p = p;
	return p;
}

int
digest_aliases(struct store_digest *d, mirror_store *st, mirror_error *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;

	rc = sqlite3_prepare_v2(store_db(st), "SELECT name, canonical FROM "
	    "temp.project_alias", -1, &stmt, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(stmt, 0);
		const char *canon = (const char *)sqlite3_column_text(stmt, 1);
		size_t nl = (size_t)sqlite3_column_bytes(stmt, 0);
		struct alias_entry *a;

		if (name == NULL || canon == NULL)
			continue;
		a = hashtab_add(d->alias, key_of(name, nl));
		a->name = xstrndup(name, nl);
		a->len = nl;
		a->canon = project_entry(d, canon,
		    (size_t)sqlite3_column_bytes(stmt, 1));
		rc = SQLITE_OK;
	}
	if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
	sqlite3_finalize(stmt);
	return rc == SQLITE_OK ? 0 : store_fail(st, err, rc,
	    "cannot read the project aliases");
}

uint64_t
digest_aliases_hash(const struct store_digest *d)
{
	const struct alias_entry *a = NULL;
	uint64_t h = 0;

	if (d->aliases_lender != NULL)
		d = d->aliases_lender;

	/* A sum: the table's order is not the aliases'. */
	while ((a = hashtab_each(d->alias, a)) != NULL)
		h += hash_mix(hash_words(key_of(a->name, a->len),
		    a->canon->project, a->canon->len));
	return hash_mix(h ^ (uint64_t)d->alias->n);
}

void
digest_aliases_borrow(struct store_digest *into,
    const struct store_digest *from)
{
	into->aliases_lender = from->aliases_lender != NULL ?
	    from->aliases_lender : from;
}

/* The project the alias (or project id) p, len bytes, whose key_of is
 * key, names in d: its entry in d, taken by its id when d borrows its
 * aliases; NULL when no alias names it. */
static struct proj *
alias_canon(struct store_digest *d, uint64_t key, const char *p, size_t len)
{
	const struct store_digest *src = d->aliases_lender != NULL ?
	    d->aliases_lender : d;

	for (struct alias_entry *a = hashtab_get(src->alias, key);
	    a != NULL; a = hashtab_next(src->alias, a))
		if (a->len == len && memcmp(a->name, p, len) == 0)
			return src == d ? a->canon : project_entry(d,
			    a->canon->project, a->canon->len);
	return NULL;
}

/* The project entry that owner column i of stmt (of kind k) names, or
 * NULL when it names none. */
static struct proj *
owner_of(struct store_digest *d, sqlite3_stmt *stmt, int i, char k)
{
	const char *p = (const char *)sqlite3_column_text(stmt, i);
	size_t len = (size_t)sqlite3_column_bytes(stmt, i);
	uint64_t key;

	if (p == NULL)
		return NULL;
	key = key_of(p, len);
	if (k == 'e' && d->lender != NULL) {
		const struct ent_entry *x = hashtab_get(d->lender->ent, key);

		/* The lender's project, by its id, here: its entry is its
		 * own, and it goes on folding into it. */
		return x != NULL ? project_entry(d, x->owner->project,
		    x->owner->len) : NULL;
	}
	if (k == 'e') {
		struct ent_entry *x = hashtab_get(d->ent, key);

		return x != NULL ? x->owner : NULL;
	}
	if (k == 'p') {
		struct proj *canon = alias_canon(d, key, p, len);

		if (canon != NULL)
			return canon;
	}
	return project_entry(d, p, len);
}

/* How a row is counted besides its hash (digest_query's count). */
struct row_count {
	int count;              /* -1: not counted */
	int active;             /* its flag */
	long long time;         /* its time column (seconds), -1: none */
	int swept;              /* of a swept query (digest_query's) */
	struct group *group;    /* its group's, kept, or NULL */
};

/* Add one row's hash rh to what group g added to p (NULL: the loose
 * rows). */
static void
group_add(struct group *g, struct proj *p, uint64_t rh)
{
	size_t i = 0;

	while (i < g->n && g->v[i].p != p)
		i++;
	if (i == g->n) {
		ARRAY_PUSH(g->v, g->n, g->cap) = (struct group_part){ p, 0,
		    0 };
	}
	g->v[i].sum += rh;
	g->v[i].rows++;
}

/* The key of group id (len bytes) of kind (never 0). */
static uint64_t
group_key(char kind, const void *id, size_t len)
{
	uint64_t k = hash_mix(key_of(id, len) ^ (unsigned char)kind);

	return k != 0 ? k : 1;
}

/* Group id (len bytes) of kind in d, made on first sight. */
static struct group *
group_get(struct store_digest *d, char kind, const void *id, size_t len)
{
	struct group_entry *e;
	int added;

	if (d->groups == NULL) {
		d->groups = xcalloc(1, sizeof(*d->groups));
		hashtab_init(d->groups, sizeof(struct group_entry));
	}
	e = hashtab_put(d->groups, group_key(kind, id, len), &added);
	if (added)
		e->g = xcalloc(1, sizeof(*e->g));
	return e->g;
}

/* Free d's groups. */
static void
groups_free(struct store_digest *d)
{
	struct group_entry *e = NULL;

	if (d->groups == NULL)
		return;
	while ((e = hashtab_each(d->groups, e)) != NULL) {
		free(e->g->v);
		free(e->g);
	}
	hashtab_free(d->groups);
	free(d->groups);
	d->groups = NULL;
}

/* The group of the current row of stmt, of query q, kept in d (NULL
 * when none is kept). */
static struct group *
row_group(struct store_digest *d, sqlite3_stmt *stmt, int ncol,
    const struct digest_query *q)
{
	const void *id = "";
	size_t len = 0;

	if (!d->keep_refold || !q->swept || q->group_kind == '\0' ||
	    q->group > ncol || q->group_slot < 0 ||
	    q->group_slot >= DIGEST_GROUP_SLOTS)
		return NULL;
	if (q->group > 0 && (id = sqlite3_column_text(stmt, q->group - 1)) !=
	    NULL)
		len = (size_t)sqlite3_column_bytes(stmt, q->group - 1);
	else
		id = "";
	return group_get(d, q->group_kind, id, len);
}

/* Add one row's hash rh to p, counted as rc says. */
static void
add_to(struct proj *p, uint64_t rh, const struct row_count *rc)
{
	if (rc->swept) {
		p->swept_sum += rh;
		p->swept_rows++;
		if (rc->group != NULL)
			group_add(rc->group, p, rh);
		return;
	}
	p->sum += rh;
	p->rows++;
	if (rc->count >= 0) {
		p->counts[rc->count]++;
		p->active += rc->active;
		if (rc->time > p->latest)
			p->latest = rc->time;
	}
}

/* List rowid under list k of p's row ids. */
static void
add_rowid(struct proj *p, int k, long long rowid)
{
	struct digest_rowids *r = p->rowids;

	if (r == NULL)
		r = p->rowids = xcalloc(1, sizeof(*r));
	ARRAY_PUSH(r->v[k], r->n[k], r->cap[k]) = rowid;
}

/* With d->keep_rowids, list the rowid of the row at stmt (its last
 * column) in d->unlisted when column i names a project (mapped through
 * the aliases) other than first, the row's first owner (NULL: none);
 * one without a project (NULL) is not listed. */
static void
list_other(struct store_digest *d, sqlite3_stmt *stmt, int i,
    const struct proj *first)
{
	const char *p = (const char *)sqlite3_column_text(stmt, i);
	size_t len = (size_t)sqlite3_column_bytes(stmt, i);
	const struct proj *e = NULL;

	if (!d->keep_rowids || d->refold_kept || p == NULL)
		return;
	e = alias_canon(d, key_of(p, len), p, len);
	if (e == NULL && first != NULL && first->len == len &&
	    memcmp(first->project, p, len) == 0)
		e = first;
	if (e != first || first == NULL)
		ARRAY_PUSH(d->unlisted, d->n_unlisted, d->cap_unlisted) =
		    sqlite3_column_int64(stmt, sqlite3_column_count(stmt) - 1);
}

/* One row being added to its owners: the digest, the statement at the
 * row, the row's hash for the projects and how it is counted. */
struct row_add {
	struct store_digest *d;
	sqlite3_stmt *stmt;
	uint64_t rh;
	const struct row_count *rc;
};

/*
 * Add ra's hash to each project that shows the entity of column i of
 * ra->stmt as a far end (owner kind 'x'), but those in seen[0..n).
 * Returns how many it added to.
 */
static int
add_far_owners(const struct row_add *ra, int i, struct proj *const *seen,
    int n)
{
	struct store_digest *d = ra->d;
	sqlite3_stmt *stmt = ra->stmt;
	const void *id = sqlite3_column_text(stmt, i);
	int added = 0;

	if (id == NULL)
		return 0;
	for (struct far_entry *f = hashtab_get(d->far, key_of(id,
	    (size_t)sqlite3_column_bytes(stmt, i))); f != NULL;
	    f = hashtab_next(d->far, f)) {
		int dup = 0;

		for (int j = 0; j < n; j++)
			dup |= seen[j] == f->p;
		if (!dup) {
			add_to(f->p, ra->rh, ra->rc);
			added++;
		}
	}
	return added;
}

/*
 * Add one row's hash ra->rh to each distinct owner in columns
 * [from, ncol) of ra->stmt (kinds in q->owners), counted as ra->rc says,
 * or to the loose rows when it has none. Returns the first owner, or NULL.
 */
static struct proj *
add_owners(const struct row_add *ra, int from, int ncol,
    const struct digest_query *q)
{
	struct store_digest *d = ra->d;
	sqlite3_stmt *stmt = ra->stmt;
	uint64_t rh = ra->rh;
	const struct row_count *rc = ra->rc;
	struct proj *seen[4], *first = NULL;
	int n = 0, far = 0;

	for (int i = from; i < ncol && q->owners[i - from] != '\0'; i++) {
		struct proj *e;
		int dup = 0;

		if (q->owners[i - from] == 'x')
			continue;       /* after the others: add_far_owners */
		if (q->owners[i - from] == 'l') {
			list_other(d, stmt, i, n > 0 ? seen[0] : NULL);
			continue;
		}
		e = owner_of(d, stmt, i, q->owners[i - from]);

		/* Both ends of an edge in one project count once. */
		for (int j = 0; j < n; j++)
			dup |= seen[j] == e;
		if (e == NULL || dup || n == (int)(sizeof(seen) /
		    sizeof(*seen)))
			continue;
		seen[n++] = e;
		first = first != NULL ? first : e;
		add_to(e, rh, rc);
		if (d->keep_rowids && q->rowid_list > 0 && !d->refold_kept)
			add_rowid(e, q->rowid_list - 1,
			    sqlite3_column_int64(stmt, ncol - 1));
	}
	for (int i = from; i < ncol && q->owners[i - from] != '\0'; i++)
		if (q->owners[i - from] == 'x')
			far += add_far_owners(ra, i, seen, n);
	if (n == 0 && far == 0 && rc->swept) {
		d->loose_swept_sum += rh;
		d->loose_swept_rows++;
		if (rc->group != NULL)
			group_add(rc->group, NULL, rh);
	} else if (n == 0 && far == 0) {
		d->loose_sum += rh;
		d->loose_rows++;
		if (rc->count >= 0)
			d->loose_active += rc->active;
	}
	return first;
}

/* Note that the entity of column 0 of stmt belongs to owner and that
 * its row hashes (for its project) as row. */
static void
register_entity(struct store_digest *d, sqlite3_stmt *stmt,
    struct proj *owner, uint64_t row)
{
	const void *id = sqlite3_column_text(stmt, 0);
	struct ent_entry *x;
	int added;

	if (id == NULL || owner == NULL)
		return;
	x = hashtab_put(d->ent, key_of(id, (size_t)sqlite3_column_bytes(stmt,
	    0)), &added);
	if (added) {
		x->owner = owner;
		x->row = row;
	}
}

/* The entity that column i of stmt names, as registered, or NULL. */
static const struct ent_entry *
entity_of(const struct store_digest *d, sqlite3_stmt *stmt, int i)
{
	const void *id = sqlite3_column_text(stmt, i);

	if (id == NULL)
		return NULL;
	return hashtab_get(d->ent, key_of(id, (size_t)sqlite3_column_bytes(
	    stmt, i)));
}

/* Project p shows entity e as a far end: e's row and project go into
 * p's digest, and p is noted as showing e (once). */
static void
show_far(struct store_digest *d, struct proj *p, const struct ent_entry *e)
{
	unsigned char tag = FAR_TAG;
	uint64_t h = hash_mix(MIRROR_HASH_INIT ^ tag);
	struct far_entry *f;

	h = hash_mix(h ^ e->row);
	h = hash_words(h, e->owner->project, e->owner->len);
	p->sum += hash_mix(h);
	p->rows++;
	for (f = hashtab_get(d->far, e->key); f != NULL;
	    f = hashtab_next(d->far, f))
		if (f->p == p)
			return;
	f = hashtab_add(d->far, e->key);
	f->p = p;
}

/* An edge's ends in columns i (source) and i + 1 (target) of stmt: when
 * both are entities of different projects, each project shows the other
 * end (digest_query's edges); with d->keep_rowids and q's rowid_list, an
 * edge whose target is no registered entity is listed in d->dangling. */
static void
fold_edge(struct store_digest *d, sqlite3_stmt *stmt, int i,
    const struct digest_query *q)
{
	const struct ent_entry *s = entity_of(d, stmt, i);
	const struct ent_entry *t = entity_of(d, stmt, i + 1);

	if (t == NULL && d->keep_rowids && q->rowid_list > 0)
		ARRAY_PUSH(d->dangling, d->n_dangling, d->cap_dangling) =
		    sqlite3_column_int64(stmt, sqlite3_column_count(stmt) - 1);
	if (s == NULL || t == NULL || s->owner == t->owner)
		return;
	show_far(d, s->owner, t);
	show_far(d, t->owner, s);
}

/* The columns a digest_query's names may name: a bit each. */
#define NAMES_COLS_MAX 32

/* Fold the names columns of a row, whose columns' hashes are col[0..n)
 * (digest_fold_part's), into d->names. */
static void
fold_names(struct store_digest *d, const uint64_t *col, int n,
    const struct digest_query *q)
{
	unsigned char tag = (unsigned char)q->table;
	uint64_t h = hash_mix(MIRROR_HASH_INIT ^ tag);

	for (int i = 0; i < n && i < NAMES_COLS_MAX; i++)
		if (q->names & (1u << i))
			h = hash_step(h, col[i]);
	d->names_sum += hash_mix(h);
	d->names_rows++;
}

int
digest_fold_part(struct digest_sum *out, struct store_digest *d,
    mirror_store *st, const struct digest_query *q, mirror_error *err)
{
	static const char what[] = "cannot compute the snapshot checksum";
	sqlite3_stmt *stmt = NULL;
	uint64_t sum = 0, rows = 0, col[NAMES_COLS_MAX];
	unsigned char tag = (unsigned char)q->table;
	int rc, ncol, nh;

	rc = sqlite3_prepare_v2(store_db(st), q->sql, -1, &stmt, NULL);
	if (rc == SQLITE_OK && q->param != NULL &&
	    sqlite3_bind_parameter_count(stmt) > 0)
		rc = sqlite3_bind_text(stmt, 1, q->param, -1,
		    SQLITE_TRANSIENT);
	out->sum = out->rows = 0;
	if (rc != SQLITE_OK) {
		rc = store_fail(st, err, rc, what);
		sqlite3_finalize(stmt);
		return rc;
	}
	ncol = sqlite3_column_count(stmt);
	nh = q->nhash < ncol ? q->nhash : ncol;
	d->in_swept = q->swept != 0;
	while ((rc = store_step(st, stmt)) == SQLITE_ROW) {
		uint64_t rh = MIRROR_HASH_INIT, ph;
		struct row_count cnt = { .count = q->count, .time = -1,
		    .swept = q->swept != 0 };
		struct proj *owner;
		int i;

		/* Each column hashed alone, then chained: the names take
		 * the same hashes (and the chains of the columns' words
		 * do not wait on each other). */
		for (i = 0; i < nh; i++) {
			uint64_t c = hash_col(MIRROR_HASH_INIT, stmt, i);

			if (i < NAMES_COLS_MAX)
				col[i] = c;
			rh = hash_step(rh, c);
		}
		sum += hash_mix(rh);
		rows++;
		if ((cnt.group = row_group(d, stmt, ncol, q)) != NULL) {
			cnt.group->slot[q->group_slot].sum += hash_mix(rh);
			cnt.group->slot[q->group_slot].rows++;
		}
		if (q->tally > 0 && q->tally <= q->nhash && q->tally <= ncol &&
		    q->table >= 0 && q->table < DIGEST_TABLES)
			tally_row(&d->tally[q->table], stmt, q->tally - 1);
		/* The projects see the table and the salt too. */
		ph = hash_mix(rh ^ tag);
		for (; i < q->nhash + q->nsalt && i < ncol; i++)
			ph = hash_col(ph, stmt, i);
		if (q->count >= 0 && i + 1 < ncol) {
			cnt.active = sqlite3_column_int(stmt, i++) != 0;
			if (sqlite3_column_type(stmt, i) == SQLITE_INTEGER)
				cnt.time = sqlite3_column_int64(stmt, i);
			i++;
			if (q->expiry && q->nsalt > 0 && cnt.active &&
			    sqlite3_column_int(stmt, q->nhash) != 0)
				d->expired_active++;
		}
		owner = add_owners(&(struct row_add){ .d = d, .stmt = stmt,
		    .rh = hash_mix(ph), .rc = &cnt }, i, ncol, q);
		if (q->names != 0)
			fold_names(d, col, nh, q);
		if (q->entities)
			register_entity(d, stmt, owner, ph);
		if (q->edges && i + 1 < ncol)
			fold_edge(d, stmt, i, q);
	}
	d->in_swept = 0;
	rc = rc == SQLITE_DONE ? 0 : store_fail(st, err, rc, what);
	sqlite3_finalize(stmt);
	out->sum = sum;
	out->rows = rows;
	return rc;
}

void
digest_seal(struct store_digest *d, const struct digest_sum *s)
{
	d->snapshot = hash_mix(hash_mix(d->snapshot ^ s->sum) ^ s->rows);
}

void
digest_table_sum(struct store_digest *d, int i, const struct digest_sum *s)
{
	d->tables[i] = hash_mix(hash_mix(MIRROR_HASH_INIT ^ s->sum) ^ s->rows);
	d->table_rows[i] = (long long)s->rows;
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
	return hash_mix(hash_mix(MIRROR_HASH_INIT ^ sum) ^ rows);
}

/* Free the alias and entity tables (the projects stay in d->acc). */
static void
drop_maps(struct store_digest *d)
{
	struct alias_entry *a = NULL;

	while (d->alias != NULL && (a = hashtab_each(d->alias, a)) != NULL)
		free(a->name);
	if (d->alias != NULL)
		hashtab_free(d->alias);
	if (d->ent != NULL)
		hashtab_free(d->ent);
	if (d->far != NULL)
		hashtab_free(d->far);
	free(d->alias);
	free(d->ent);
	free(d->far);
	d->alias = d->ent = d->far = NULL;
}

/* Append list k of from's row ids to p's (from's list is then
 * empty). */
static void
rowids_take(struct proj *p, struct digest_rowids *from, int k)
{
	if (from->n[k] > 0) {
		if (p->rowids == NULL)
			p->rowids = xcalloc(1, sizeof(*p->rowids));
		ARRAY_APPEND(p->rowids->v[k], p->rowids->n[k],
		    p->rowids->cap[k], from->v[k], from->n[k]);
	}
	free(from->v[k]);
	from->v[k] = NULL;
	from->n[k] = from->cap[k] = 0;
}

/* Free the row ids r lists. */
static void
rowids_free(struct digest_rowids *r)
{
	if (r == NULL)
		return;
	for (int k = 0; k < DIGEST_ROW_LISTS; k++)
		free(r->v[k]);
	free(r);
}

/* Move from's entities and far ends into into's tables, their projects
 * those from's moved to (struct proj's moved): from's tables are taken
 * whole when into's are empty (the usual case), else copied. */
static void
maps_take(struct store_digest *into, struct store_digest *from)
{
	struct ent_entry *x = NULL;
	struct far_entry *f = NULL;
	struct hashtab *t;

	if (into->ent->n == 0) {
		t = into->ent, into->ent = from->ent, from->ent = t;
		while ((x = hashtab_each(into->ent, x)) != NULL)
			x->owner = x->owner->moved;
	} else
		while ((x = hashtab_each(from->ent, x)) != NULL) {
			int added;
			struct ent_entry *y = hashtab_put(into->ent, x->key,
			    &added);

			if (added) {
				y->owner = x->owner->moved;
				y->row = x->row;
			}
		}
	if (into->far->n == 0) {
		t = into->far, into->far = from->far, from->far = t;
		while ((f = hashtab_each(into->far, f)) != NULL)
			f->p = f->p->moved;
	} else
		while ((f = hashtab_each(from->far, f)) != NULL)
			((struct far_entry *)hashtab_add(into->far,
			    f->key))->p = f->p->moved;
}

/* Move from's groups into into's, their projects those from's moved
 * to (struct proj's moved). */
static void
groups_take(struct store_digest *into, struct store_digest *from)
{
	struct group_entry *e = NULL;

	while (from->groups != NULL &&
	    (e = hashtab_each(from->groups, e)) != NULL) {
		struct group_entry *t;
		struct group *g = e->g;
		int added;

		for (size_t i = 0; i < g->n; i++)
			if (g->v[i].p != NULL)
				g->v[i].p = g->v[i].p->moved;
		if (into->groups == NULL) {
			into->groups = xcalloc(1, sizeof(*into->groups));
			hashtab_init(into->groups, sizeof(struct group_entry));
		}
		t = hashtab_put(into->groups, e->key, &added);
		if (added) {
			t->g = g;
			e->g = xcalloc(1, sizeof(*e->g));  /* freed empty */
			continue;
		}
		for (int k = 0; k < DIGEST_GROUP_SLOTS; k++) {
			t->g->slot[k].sum += g->slot[k].sum;
			t->g->slot[k].rows += g->slot[k].rows;
		}
		ARRAY_APPEND(t->g->v, t->g->n, t->g->cap, g->v, g->n);
	}
}

/* A list of row ids of a digest: its array, length and room. */
struct id_list {
	long long **v;
	size_t *n, *cap;
};

/* Append from's row ids to into's, and empty from. */
static void
ids_take(struct id_list into, struct id_list from)
{
	ARRAY_APPEND(*into.v, *into.n, *into.cap, *from.v, *from.n);
	free(*from.v);
	*from.v = NULL;
	*from.n = *from.cap = 0;
}

/* Add q's sums, counts and row ids to p (q's row ids are then p's). */
static void
proj_add(struct proj *p, struct proj *q)
{
	p->sum += q->sum;
	p->rows += q->rows;
	p->swept_sum += q->swept_sum;
	p->swept_rows += q->swept_rows;
	for (int c = 0; c < DIGEST_COUNTS; c++)
		p->counts[c] += q->counts[c];
	p->active += q->active;
	if (q->latest > p->latest)
		p->latest = q->latest;
	if (q->rowids != NULL && p->rowids == NULL)
		p->rowids = q->rowids;      /* the usual case: taken */
	else if (q->rowids != NULL) {
		for (int k = 0; k < DIGEST_ROW_LISTS; k++)
			rowids_take(p, q->rowids, k);
		free(q->rowids);
	}
	q->rowids = NULL;
}

void
digest_merge(struct store_digest *into, struct store_digest *from)
{
	struct acc_entry *e = NULL;

	while ((e = hashtab_each(from->acc, e)) != NULL) {
		struct proj *q = e->p;

		/* Made here as q was there: by a swept query or not. */
		into->in_swept = q->swept_born;
		q->moved = project_entry(into, q->project, q->len);
		into->in_swept = 0;
		proj_add(q->moved, q);
	}
	if (into->keep_refold) {
		maps_take(into, from);
		groups_take(into, from);
	}
	groups_free(from);
	while ((e = hashtab_each(from->acc, e)) != NULL) {
		free(e->p->project);
		free(e->p);
	}
	ids_take((struct id_list){ &into->dangling, &into->n_dangling,
	    &into->cap_dangling }, (struct id_list){ &from->dangling,
	    &from->n_dangling, &from->cap_dangling });
	ids_take((struct id_list){ &into->unlisted, &into->n_unlisted,
	    &into->cap_unlisted }, (struct id_list){ &from->unlisted,
	    &from->n_unlisted, &from->cap_unlisted });
	into->loose_sum += from->loose_sum;
	into->loose_rows += from->loose_rows;
	into->loose_swept_sum += from->loose_swept_sum;
	into->loose_swept_rows += from->loose_swept_rows;
	into->names_sum += from->names_sum;
	into->names_rows += from->names_rows;
	into->loose_active += from->loose_active;
	into->expired_active += from->expired_active;
	for (int i = 0; i < DIGEST_TABLES; i++)
		tally_merge(&into->tally[i], &from->tally[i]);
	drop_maps(from);
	hashtab_free(from->acc);
	free(from->acc);
	from->acc = NULL;
}

/*
 * d->p made from d's projects, sorted, and d->loose sealed: each
 * project's row ids move into d->p; a project only swept queries named
 * and none of whose rows is left (after a refold) is left out. With
 * keep, the projects stay (d->p holds copies of their ids); else each
 * is freed, its id d->p's.
 */
static void
projects_out(struct store_digest *d, int keep)
{
	struct acc_entry *e = NULL;

	d->p = xcalloc(d->acc->n + 1, sizeof(*d->p));
	d->n = 0;
	while ((e = hashtab_each(d->acc, e)) != NULL) {
		struct proj *p = e->p;
		struct project_digest *o = &d->p[d->n];

		if (p->swept_born && p->swept_rows == 0) {
			if (!keep) {
				free(p->project);
				free(p);
			}
			continue;
		}
		o->project = keep ? xstrdup(p->project) : p->project;
		memcpy(o->rows, p->counts, sizeof(p->counts));
		o->active = p->active;
		o->latest = p->latest;
		o->rowids = p->rowids;
		p->rowids = NULL;
		o->sum = seal(p->sum + p->swept_sum, p->rows + p->swept_rows);
		d->n++;
		if (!keep)
			free(p);
	}
	qsort(d->p, d->n, sizeof(*d->p), cmp_project);
	d->loose = seal(d->loose_sum + d->loose_swept_sum, d->loose_rows +
	    d->loose_swept_rows);
}

void
digest_finish(struct store_digest *d)
{
	if (d->acc == NULL || d->refold_kept)
		return;
	projects_out(d, d->keep_refold);
	d->names = seal(d->names_sum, d->names_rows);
	/* The tallies' values stay; their lookup was the fold's. */
	for (int i = 0; i < DIGEST_TABLES; i++)
		if (d->tally[i].seen != NULL) {
			hashtab_free(d->tally[i].seen);
			free(d->tally[i].seen);
			d->tally[i].seen = NULL;
		}
	if (d->keep_refold) {
		d->refold_kept = 1;
		return;
	}
	drop_maps(d);
	hashtab_free(d->acc);
	free(d->acc);
	d->acc = NULL;
}

/* Empty the row ids d lists of the tables the sweep writes (those of
 * DIGEST_ROWS_CONFLICTS on, and d->unlisted): a refold lists none. */
static void
drop_swept_rowids(struct store_digest *d)
{
	for (size_t i = 0; i < d->n; i++)
		for (int k = DIGEST_ROWS_CONFLICTS; d->p[i].rowids != NULL &&
		    k < DIGEST_ROW_LISTS; k++)
			d->p[i].rowids->n[k] = 0;
	d->n_unlisted = 0;
}

int
digest_refold_begin(struct store_digest *d, int whole)
{
	struct acc_entry *e = NULL;

	if (!d->refold_kept)
		return 1;
	drop_swept_rowids(d);
	if (!whole)
		return 0;
	while ((e = hashtab_each(d->acc, e)) != NULL)
		e->p->swept_sum = e->p->swept_rows = 0;
	d->loose_swept_sum = d->loose_swept_rows = 0;
	groups_free(d);
	return 0;
}

void
digest_group_out(struct store_digest *d, char kind, const char *id,
    size_t len, struct digest_sum out[DIGEST_GROUP_SLOTS])
{
	struct group_entry *e = d->groups == NULL ? NULL :
	    hashtab_get(d->groups, group_key(kind, id, len));
	struct group *g = e != NULL ? e->g : NULL;

	memset(out, 0, DIGEST_GROUP_SLOTS * sizeof(*out));
	if (g == NULL)
		return;
	for (size_t i = 0; i < g->n; i++) {
		struct group_part *x = &g->v[i];

		if (x->p != NULL) {
			x->p->swept_sum -= x->sum;
			x->p->swept_rows -= x->rows;
		} else {
			d->loose_swept_sum -= x->sum;
			d->loose_swept_rows -= x->rows;
		}
	}
	memcpy(out, g->slot, sizeof(g->slot));
	memset(g->slot, 0, sizeof(g->slot));
	g->n = 0;
}

/* Free the ids of d->p and the array (their row ids are freed or moved
 * by the caller). */
static void
projects_free(struct project_digest *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i].project);
	free(p);
}

void
digest_refold_end(struct store_digest *d)
{
	struct project_digest *was = d->p;
	size_t n = d->n;
	struct acc_entry *e = NULL;

	/* The row ids are d->p's: back to their projects, then out. */
	for (size_t i = 0; i < n; i++) {
		const char *id = was[i].project;

		e = hashtab_get(d->acc, key_of(id, strlen(id)));
		while (e != NULL && strcmp(e->p->project, id) != 0)
			e = hashtab_next(d->acc, e);
		if (e != NULL)
			e->p->rowids = was[i].rowids;
		else
			rowids_free(was[i].rowids);
	}
	projects_free(was, n);
	projects_out(d, 1);
}

void
digest_refold_drop(struct store_digest *d)
{
	struct acc_entry *e = NULL;

	d->keep_refold = 0;
	if (!d->refold_kept)
		return;
	d->refold_kept = 0;
	groups_free(d);
	drop_maps(d);
	while ((e = hashtab_each(d->acc, e)) != NULL) {
		free(e->p->project);
		rowids_free(e->p->rowids);
		free(e->p);
	}
	hashtab_free(d->acc);
	free(d->acc);
	d->acc = NULL;
}

const struct project_digest *
digest_find(const struct store_digest *d, const char *id)
{
	size_t at = byid_sorted(d->p, d->n, sizeof(*d->p),
	    offsetof(struct project_digest, project), id);

	return at != BYID_NONE ? &d->p[at] : NULL;
}

long long
digest_active(const struct store_digest *d)
{
	long long n = d->loose_active;

	for (size_t i = 0; i < d->n; i++)
		n += d->p[i].active;
	return n;
}

uint64_t
digest_of(const struct store_digest *d, const char *id)
{
	const struct project_digest *p = digest_find(d, id);

	return p != NULL ? p->sum : 0;
}

void
digest_drop_rowids(struct store_digest *d)
{
	d->keep_rowids = 0;
	free(d->dangling);
	d->dangling = NULL;
	d->n_dangling = d->cap_dangling = 0;
	free(d->unlisted);
	d->unlisted = NULL;
	d->n_unlisted = d->cap_unlisted = 0;
	for (size_t i = 0; i < d->n; i++) {
		rowids_free(d->p[i].rowids);
		d->p[i].rowids = NULL;
	}
}

void
digest_free(struct store_digest *d)
{
	digest_refold_drop(d);
	groups_free(d);
	if (d->acc != NULL) {
		digest_finish(d);
	}
	digest_drop_rowids(d);
	for (int i = 0; i < DIGEST_TABLES; i++)
		tally_free(&d->tally[i]);
	for (size_t i = 0; i < d->n; i++)
		free(d->p[i].project);
	free(d->p);
	d->p = NULL;
	d->n = 0;
}

void
digest_unlist(struct store_digest *d)
{
	struct acc_entry *e = NULL;

	while ((e = hashtab_each(d->acc, e)) != NULL) {
		rowids_free(e->p->rowids);
		e->p->rowids = NULL;
	}
	free(d->dangling);
	d->dangling = NULL;
	d->n_dangling = d->cap_dangling = 0;
	d->keep_rowids = 0;
}

/* What digest_part_save writes first: the format, and a word that
 * tells the byte order it wrote in. */
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define PART_MAGIC "mirror-digest-part/1\n"
#define PART_ORDER UINT64_C(0x0102030405060708)

/* Append v to out as 8 bytes (this machine's order: PART_ORDER). */
static void
put_u64(strbuf *out, uint64_t v)
{
	strbuf_add(out, &v, sizeof(v));
}

void
digest_part_save(strbuf *out, const struct store_digest *d)
{
	const struct acc_entry *e = NULL;
	const struct ent_entry *x = NULL;
	const struct far_entry *f = NULL;
	size_t n = 0;

	/* The projects rows were folded into: those only the aliases
	 * named, every project's, the reader's digest has of its own. */
	while ((e = hashtab_each(d->acc, e)) != NULL)
		n += e->p->rows > 0;
	strbuf_puts(out, PART_MAGIC);
	put_u64(out, PART_ORDER);
	put_u64(out, n);
	n = 0;
	while ((e = hashtab_each(d->acc, e)) != NULL) {
		struct proj *p = e->p;

		if (p->rows == 0)
			continue;
		p->part_index = n++;
		put_u64(out, p->len);
		strbuf_add(out, p->project, p->len);
		put_u64(out, p->sum);
		put_u64(out, p->rows);
		for (int c = 0; c < DIGEST_COUNTS; c++)
			put_u64(out, (uint64_t)p->counts[c]);
		put_u64(out, (uint64_t)p->active);
		put_u64(out, (uint64_t)p->latest);
		for (int k = 0; k < DIGEST_ROW_LISTS; k++) {
			size_t m = p->rowids != NULL ? p->rowids->n[k] : 0;

			put_u64(out, m);
			if (m > 0)
				strbuf_add(out, p->rowids->v[k],
				    m * sizeof(*p->rowids->v[k]));
		}
	}
	put_u64(out, d->ent->n);
	while ((x = hashtab_each(d->ent, x)) != NULL) {
		put_u64(out, x->key);
		put_u64(out, x->owner->part_index);
		put_u64(out, x->row);
	}
	put_u64(out, d->far->n);
	while ((f = hashtab_each(d->far, f)) != NULL) {
		put_u64(out, f->key);
		put_u64(out, f->p->part_index);
	}
	for (int i = 0; i < DIGEST_TABLES; i++) {
		put_u64(out, d->tally[i].n);
		for (size_t j = 0; j < d->tally[i].n; j++) {
			const struct digest_status *v = &d->tally[i].v[j];

			put_u64(out, v->len);
			strbuf_add(out, v->value, v->len);
			put_u64(out, (uint64_t)v->first_bad);
			put_u64(out, (uint64_t)v->rows);
		}
	}
	put_u64(out, d->n_dangling);
	if (d->n_dangling > 0)
		strbuf_add(out, d->dangling, d->n_dangling *
		    sizeof(*d->dangling));
	put_u64(out, d->loose_sum);
	put_u64(out, d->loose_rows);
	put_u64(out, (uint64_t)d->loose_active);
	put_u64(out, d->names_sum);
	put_u64(out, d->names_rows);
	put_u64(out, (uint64_t)d->expired_active);
}

/* A saved part being read: what is left of it, and whether it ran
 * out or named what it has not. */
struct part_in {
	const unsigned char *p;
	size_t left;
	int bad;
};

/* The next 8 bytes of in as a word (0, and in->bad, past its end). */
static uint64_t
get_u64(struct part_in *in)
{
	uint64_t v = 0;

	if (in->left < sizeof(v)) {
		in->bad = 1;
		return 0;
	}
	memcpy(&v, in->p, sizeof(v));
	in->p += sizeof(v);
	in->left -= sizeof(v);
	return v;
}

/* The next n bytes of in (NULL, and in->bad, past its end). */
static const void *
get_bytes(struct part_in *in, uint64_t n)
{
	const void *at = in->p;

	if (in->bad || n > in->left) {
		in->bad = 1;
		return NULL;
	}
	in->p += n;
	in->left -= n;
	return at;
}

/* Add one saved project of in to d (NULL: only read it). Returns it,
 * or NULL. */
static struct proj *
part_project(struct store_digest *d, struct part_in *in)
{
	uint64_t len = get_u64(in), w[4 + DIGEST_COUNTS];
	const char *id = get_bytes(in, len);
	struct proj *p = NULL;

	for (size_t i = 0; i < NELEM(w); i++)
		w[i] = get_u64(in);
	if (d != NULL && !in->bad) {
		p = project_entry(d, id, len);
		p->sum += w[0];
		p->rows += w[1];
		for (int c = 0; c < DIGEST_COUNTS; c++)
			p->counts[c] += (long long)w[2 + c];
		p->active += (long long)w[2 + DIGEST_COUNTS];
		if ((long long)w[3 + DIGEST_COUNTS] > p->latest)
			p->latest = (long long)w[3 + DIGEST_COUNTS];
	}
	for (int k = 0; k < DIGEST_ROW_LISTS; k++) {
		uint64_t m = get_u64(in);
		const void *ids = m <= in->left / sizeof(long long) ?
		    get_bytes(in, m * sizeof(long long)) : NULL;

		if (ids == NULL && m > 0)
			in->bad = 1;
		if (p == NULL || in->bad || m == 0 || !d->keep_rowids)
			continue;
		if (p->rowids == NULL)
			p->rowids = xcalloc(1, sizeof(*p->rowids));
		ARRAY_APPEND(p->rowids->v[k], p->rowids->n[k],
		    p->rowids->cap[k], (const long long *)ids, (size_t)m);
	}
	return p;
}

/* Read (d NULL) or add to d what in holds after its projects' count
 * nproj; projs[i] is saved project i in d. Returns 0, or -1 when in is
 * no such text. */
static int
part_rest(struct store_digest *d, struct part_in *in, struct proj **projs,
    uint64_t nproj)
{
	uint64_t n = get_u64(in);

	if (d != NULL)
		hashtab_reserve(d->ent, d->ent->n + n);
	for (uint64_t i = 0; i < n && !in->bad; i++) {
		uint64_t key = get_u64(in), owner = get_u64(in),
		    row = get_u64(in);
		struct ent_entry *x;
		int added;

		if (owner >= nproj || key == 0)
			in->bad = 1;
		if (d == NULL || in->bad)
			continue;
		x = hashtab_put(d->ent, key, &added);
		if (added) {
			x->owner = projs[owner];
			x->row = row;
		}
	}
	n = get_u64(in);
	for (uint64_t i = 0; i < n && !in->bad; i++) {
		uint64_t key = get_u64(in), p = get_u64(in);

		if (p >= nproj || key == 0)
			in->bad = 1;
		else if (d != NULL)
			((struct far_entry *)hashtab_add(d->far, key))->p =
			    projs[p];
	}
	for (int t = 0; t < DIGEST_TABLES && !in->bad; t++) {
		n = get_u64(in);
		for (uint64_t i = 0; i < n && !in->bad; i++) {
			uint64_t len = get_u64(in);
			const char *v = get_bytes(in, len);
			uint64_t bad = get_u64(in), rows = get_u64(in);

			if (d != NULL && !in->bad)
				tally_entry(&d->tally[t], v, len,
				    bad != 0)->rows += (long long)rows;
		}
	}
	n = get_u64(in);
	{
		const void *ids = n <= in->left / sizeof(long long) ?
		    get_bytes(in, n * sizeof(long long)) : NULL;

		if (ids == NULL && n > 0)
			in->bad = 1;
		if (d != NULL && !in->bad && n > 0 && d->keep_rowids)
			ARRAY_APPEND(d->dangling, d->n_dangling,
			    d->cap_dangling, (const long long *)ids,
			    (size_t)n);
	}
	{
		uint64_t w[6];

		for (size_t i = 0; i < NELEM(w); i++)
			w[i] = get_u64(in);
		if (d != NULL && !in->bad) {
			d->loose_sum += w[0];
			d->loose_rows += w[1];
			d->loose_active += (long long)w[2];
			d->names_sum += w[3];
			d->names_rows += w[4];
			d->expired_active += (long long)w[5];
		}
	}
	return in->bad || in->left != 0 ? -1 : 0;
}

/* Read (d NULL) or add to d the part buf[0..len). Returns 0, or -1
 * when it is no such text. */
static int
part_walk(struct store_digest *d, const void *buf, size_t len)
{
	struct part_in in = { buf, len, 0 };
	const void *magic = get_bytes(&in, sizeof(PART_MAGIC) - 1);
	uint64_t order, nproj;
	struct proj **projs = NULL;
	int rc;

	if (magic == NULL || memcmp(magic, PART_MAGIC,
	    sizeof(PART_MAGIC) - 1) != 0)
		return -1;
	order = get_u64(&in);
	nproj = get_u64(&in);
	if (in.bad || order != PART_ORDER || nproj > in.left / 8)
		return -1;
	if (d != NULL)
		projs = xcalloc(nproj > 0 ? (size_t)nproj : 1, sizeof(*projs));
	for (uint64_t i = 0; i < nproj && !in.bad; i++) {
		struct proj *p = part_project(d, &in);

		if (projs != NULL)
			projs[i] = p;
	}
	rc = in.bad ? -1 : part_rest(d, &in, projs, nproj);
	free(projs);
	return rc;
}

int
digest_part_load(struct store_digest *d, const void *buf, size_t len)
{
	/* Read whole first: a part that is not whole changes nothing. */
	if (part_walk(NULL, buf, len) < 0)
		return -1;
	return part_walk(d, buf, len);
}
