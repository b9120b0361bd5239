/*
 * facts.c: reading projects and their facts for the site.
 *
 * Every query canonicalises projects through TEMP project_alias and
 * orders by a total order of store columns (ids last), so the arrays are
 * deterministic. Rows are checked as they are read: a NULL in a required
 * column, invalid UTF-8 or invalid JSON is an error naming table, row id
 * and column, because a page silently missing a fact is worse than a
 * build that stops and says why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "conflict.h"
#include "facts.h"
#include "hash.h"
#include "storerow.h"
#include "xalloc.h"

/* The canonical project of table alias t (joined to project_alias a). */
#define CANON(t) "coalesce(a.canonical, " t ".project)"
#define JOIN_ALIAS(t) " LEFT JOIN temp.project_alias a ON a.name = " \
	t ".project "

/* Prepare sql; what names the failure. Returns 0 or < 0 with err set. */
static int
prepare(sqlite3_stmt **stmt, mirror_store *st, const char *sql,
    const char *what, mirror_error *err)
{
	int rc = sqlite3_prepare_v2(store_db(st), sql, -1, stmt, NULL);

	if (rc != SQLITE_OK) {
		rc = store_fail(st, err, rc, what);
		sqlite3_finalize(*stmt);
		*stmt = NULL;
		return rc;
	}
	return 0;
}

/*
 * Append one zeroed element of size to arr, which holds *n. The capacity
 * follows from *n (16, doubled whenever *n reaches a power of two), so
 * no count of it is kept. Returns the (possibly moved) array; the new
 * element is its last.
 */
static void *
push(void *arr, size_t *n, size_t size)
{
	if (*n == 0 || (*n >= 16 && (*n & (*n - 1)) == 0))
		arr = xreallocarray(arr, *n == 0 ? 16 : *n * 2, size);
	memset((char *)arr + *n * size, 0, size);
	(*n)++;
	return arr;
}

/* ---- projects ---------------------------------------------------------- */

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
project_aliases(struct fact_project *p, struct store_row *r, int i)
{
	json_t *arr, *v;
	size_t k;
	int rc;

	rc = storerow_json(&arr, r, i, "aliases", 0);
	if (rc < 0)
		return rc;
	p->aliases = xcalloc(json_array_size(arr) + 1, sizeof(char *));
	json_array_foreach(arr, k, v) {
		if (!json_is_string(v)) {
			json_decref(arr);
			return storerow_fail(r, "aliases", "holds a non-string");
		}
		if (strcmp(json_string_value(v), p->id) == 0)
			continue;
		p->aliases[p->n_aliases++] = xstrdup(json_string_value(v));
	}
	json_decref(arr);
	qsort(p->aliases, p->n_aliases, sizeof(char *), cmp_str);
	return 0;
}

/* Fail when any layer has a row whose project is NULL. */
static int
check_null_projects(mirror_store *st, mirror_error *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;

	rc = prepare(&stmt, st, "SELECT 'project_state', id FROM "
	    "main.project_state WHERE project IS NULL UNION ALL "
	    "SELECT 'entities', id FROM main.entities WHERE project IS NULL "
	    "UNION ALL SELECT 'memories', id FROM main.memories WHERE "
	    "project IS NULL LIMIT 1", "cannot read projects", err);
	if (rc < 0)
		return rc;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(stmt, 1);

		rc = mirror_fail(err, MIRROR_EINPUT, "store %s: %s row '%s': "
		    "project is NULL", store_path(st),
		    (const char *)sqlite3_column_text(stmt, 0), id ? id : "?");
	} else if (rc == SQLITE_DONE) {
		rc = 0;
	} else {
		rc = store_fail(st, err, rc, "cannot read projects");
	}
	sqlite3_finalize(stmt);
	return rc;
}

int
facts_projects(struct fact_project **out, size_t *n, mirror_store *st,
    mirror_error *err)
{
	static const char sql[] =
	    "WITH c(p, layer, active) AS ("
	    " SELECT " CANON("s") ", 3, s.status = 'active' FROM "
	    "  main.project_state s" JOIN_ALIAS("s")
	    " UNION ALL SELECT " CANON("e") ", 2, e.status = 'active' FROM "
	    "  main.entities e" JOIN_ALIAS("e")
	    " UNION ALL SELECT " CANON("m") ", 1, m.status = 'active' FROM "
	    "  main.memories m" JOIN_ALIAS("m")
	    "), g AS (SELECT p, sum(layer = 3) n3, sum(layer = 2) n2, "
	    " sum(layer = 1) n1, sum(active) na FROM c GROUP BY p),"
	    " ids(p) AS (SELECT id FROM main.projects WHERE id IS NOT NULL "
	    " UNION SELECT p FROM g)"
	    " SELECT ids.p, pr.id IS NOT NULL, pr.name, pr.aliases, "
	    " pr.description, coalesce(g.n3, 0), coalesce(g.n2, 0), "
	    " coalesce(g.n1, 0), coalesce(g.na, 0) FROM ids"
	    " LEFT JOIN main.projects pr ON pr.id = ids.p"
	    " LEFT JOIN g ON g.p = ids.p ORDER BY ids.p";
	struct store_row r = { .st = st, .table = "projects", .err = err };
	int rc;

	*out = NULL;
	*n = 0;
	rc = check_null_projects(st, err);
	if (rc < 0)
		return rc;
	rc = prepare(&r.stmt, st, sql, "cannot list projects", err);
	if (rc < 0)
		return rc;
	while ((rc = sqlite3_step(r.stmt)) == SQLITE_ROW) {
		struct fact_project *p;

		*out = push(*out, n, sizeof(**out));
		p = &(*out)[*n - 1];

		if ((rc = storerow_text(&p->id, &r, 0, "id", 0)) < 0)
			goto out;
		r.id = p->id;
		p->listed = sqlite3_column_int(r.stmt, 1);
		p->n_state = sqlite3_column_int64(r.stmt, 5);
		p->n_entities = sqlite3_column_int64(r.stmt, 6);
		p->n_memories = sqlite3_column_int64(r.stmt, 7);
		p->n_active = sqlite3_column_int64(r.stmt, 8);
		if (!p->listed) {
			p->name = xstrdup(p->id);
			p->description = xstrdup("");
			p->aliases = xcalloc(1, sizeof(char *));
			continue;
		}
		if ((rc = storerow_text(&p->name, &r, 2, "name", 0)) < 0 ||
		    (rc = project_aliases(p, &r, 3)) < 0 ||
		    (rc = storerow_text(&p->description, &r, 4, "description",
		    0)) < 0)
			goto out;
	}
	rc = rc == SQLITE_DONE ? 0 : store_fail(st, err, rc,
	    "cannot list projects");
out:
	sqlite3_finalize(r.stmt);
	return rc;
}

void
facts_projects_free(struct fact_project *p, size_t n)
{
	for (size_t i = 0; p != NULL && i < n; i++) {
		free(p[i].id);
		free(p[i].name);
		free(p[i].description);
		for (size_t k = 0; k < p[i].n_aliases; k++)
			free(p[i].aliases[k]);
		free(p[i].aliases);
	}
	free(p);
}

/* ---- one project at a time --------------------------------------------- */

/*
 * Each table is read once per build, ordered by canonical project first
 * (its last column), so the reader walks the four cursors forward as the
 * pages ask for projects in id order. Filtering per project instead made
 * a build projects x rows: no index can serve coalesce(alias, project).
 */
enum { T_STATE, T_ENT, T_REL, T_MEM, T_N };

static const char *const table_name[T_N] = { "project_state", "entities",
    "relationships", "memories" };
static const char *const read_what[T_N] = { "cannot read project_state",
    "cannot read entities", "cannot read relationships",
    "cannot read memories" };

/* The columns each row reader takes, in its order. */
#define STATE_COLS "s.id, s.project, s.category, s.key, s.value, " \
    "s.source, s.confidence, s.status, s.created_at, s.updated_at"
#define ENTITY_COLS "e.id, e.entity_type, e.name, e.project, " \
    "e.description, e.properties, e.status, e.confidence, " \
    "e.source_refs, e.created_at, e.updated_at"
#define REL_COLS "r.id, r.source_entity_id, r.target_entity_id, " \
    "r.relationship_type, r.confidence"

static const char state_sql[] = "SELECT " STATE_COLS ", " CANON("s")
    " FROM main.project_state s" JOIN_ALIAS("s") "ORDER BY " CANON("s")
    ", s.category, s.key, s.created_at, s.id";

static const char entity_sql[] = "SELECT " ENTITY_COLS ", " CANON("e")
    " FROM main.entities e" JOIN_ALIAS("e") "ORDER BY " CANON("e") ", "
    "e.entity_type, e.name, e.id";

/* A relationship is listed under the project of each of its ends. */
static const char rel_sql[] = "WITH ent(id, p) AS (SELECT e.id, "
    CANON("e") " FROM main.entities e" JOIN_ALIAS("e") ") "
    "SELECT " REL_COLS ", x.p FROM main.relationships r "
    "JOIN ent x ON x.id = r.source_entity_id UNION "
    "SELECT " REL_COLS ", x.p FROM main.relationships r "
    "JOIN ent x ON x.id = r.target_entity_id "
    "ORDER BY 6, 4, 2, 3, 1";

struct facts_reader {
	mirror_store *st;
	time_t now;
	sqlite3_stmt *stmt[T_N];
	int pending[T_N];       /* the current row is not consumed yet */
	int done[T_N];          /* stepped past the last row */
	char *last;             /* the project read last; NULL before */
};

/* SQLite's BINARY order of a (n bytes) against NUL-terminated b. */
static int
binary_cmp(const unsigned char *a, size_t n, const char *b)
{
	size_t m = strlen(b);
	int c = memcmp(a, b, n < m ? n : m);

	return c != 0 ? c : (n > m) - (n < m);
}

/*
 * Move cursor t to the first row of project (skipping rows of projects
 * before it). Returns 1 when that row belongs to project, 0 when the
 * table has no (more) rows of it, or < 0 with err set.
 */
static int
cursor_seek(struct facts_reader *r, int t, const char *project,
    mirror_error *err)
{
	sqlite3_stmt *stmt = r->stmt[t];
	int last = sqlite3_column_count(stmt) - 1;

	for (;;) {
		const unsigned char *p;
		int c, rc;

		if (r->done[t])
			return 0;
		if (!r->pending[t]) {
			rc = sqlite3_step(stmt);
			if (rc == SQLITE_DONE) {
				r->done[t] = 1;
				return 0;
			}
			if (rc != SQLITE_ROW)
				return store_fail(r->st, err, rc,
				    read_what[t]);
			r->pending[t] = 1;
		}
		p = sqlite3_column_text(stmt, last);
		c = p == NULL ? -1 : binary_cmp(p, (size_t)sqlite3_column_bytes(
		    stmt, last), project);
		if (c == 0)
			return 1;
		if (c > 0)
			return 0;
		r->pending[t] = 0;  /* a project before this one */
	}
}

/* Read the current row of r into a new element of f. Each returns 0 or
 * -MIRROR_EINPUT naming the row. */
static int
state_row(struct project_facts *f, struct store_row *r, time_t now)
{
	struct fact_state *s;
	int rc;

	(void)now;
	f->state = push(f->state, &f->n_state, sizeof(*s));
	s = &f->state[f->n_state - 1];
	if ((rc = storerow_text(&s->id, r, 0, "id", 0)) < 0)
		return rc;
	r->id = s->id;
	if ((rc = storerow_text(&s->project, r, 1, "project", 0)) < 0 ||
	    (rc = storerow_text(&s->category, r, 2, "category", 0)) < 0 ||
	    (rc = storerow_text(&s->key, r, 3, "key", 0)) < 0 ||
	    (rc = storerow_text(&s->value, r, 4, "value", 0)) < 0 ||
	    (rc = storerow_text(&s->source, r, 5, "source", 0)) < 0 ||
	    (rc = storerow_real(&s->confidence, r, 6, "confidence")) < 0 ||
	    (rc = storerow_text(&s->status, r, 7, "status", 0)) < 0 ||
	    (rc = storerow_text(&s->created_at, r, 8, "created_at", 0)) < 0 ||
	    (rc = storerow_text(&s->updated_at, r, 9, "updated_at", 0)) < 0)
		return rc;
	return 0;
}

static int
entity_row(struct project_facts *f, struct store_row *r, time_t now)
{
	struct fact_entity *e;
	int rc;

	(void)now;
	f->ent = push(f->ent, &f->n_ent, sizeof(*e));
	e = &f->ent[f->n_ent - 1];
	if ((rc = storerow_text(&e->id, r, 0, "id", 0)) < 0)
		return rc;
	r->id = e->id;
	if ((rc = storerow_text(&e->type, r, 1, "entity_type", 0)) < 0 ||
	    (rc = storerow_text(&e->name, r, 2, "name", 0)) < 0 ||
	    (rc = storerow_text(&e->project, r, 3, "project", 0)) < 0 ||
	    (rc = storerow_text(&e->description, r, 4, "description", 0)) < 0 ||
	    (rc = storerow_json(&e->properties, r, 5, "properties", 1)) < 0 ||
	    (rc = storerow_text(&e->status, r, 6, "status", 0)) < 0 ||
	    (rc = storerow_real(&e->confidence, r, 7, "confidence")) < 0 ||
	    (rc = storerow_json(&e->source_refs, r, 8, "source_refs", 0)) < 0 ||
	    (rc = storerow_text(&e->created_at, r, 9, "created_at", 0)) < 0 ||
	    (rc = storerow_text(&e->updated_at, r, 10, "updated_at", 0)) < 0)
		return rc;
	return 0;
}

static int
rel_row(struct project_facts *f, struct store_row *r, time_t now)
{
	struct fact_rel *x;
	int rc;

	(void)now;
	f->rel = push(f->rel, &f->n_rel, sizeof(*x));
	x = &f->rel[f->n_rel - 1];
	if ((rc = storerow_text(&x->id, r, 0, "id", 0)) < 0)
		return rc;
	r->id = x->id;
	if ((rc = storerow_text(&x->source, r, 1, "source_entity_id", 0)) < 0 ||
	    (rc = storerow_text(&x->target, r, 2, "target_entity_id", 0)) < 0 ||
	    (rc = storerow_text(&x->type, r, 3, "relationship_type", 0)) < 0 ||
	    (rc = storerow_real(&x->confidence, r, 4, "confidence")) < 0)
		return rc;
	return 0;
}

static int
memory_row(struct project_facts *f, struct store_row *r, time_t now)
{
	struct fact_memory *m;
	time_t until;
	int rc;

	f->mem = push(f->mem, &f->n_mem, sizeof(*m));
	m = &f->mem[f->n_mem - 1];
	if ((rc = storerow_text(&m->id, r, 0, "id", 0)) < 0)
		return rc;
	r->id = m->id;
	if ((rc = storerow_text(&m->type, r, 1, "memory_type", 0)) < 0 ||
	    (rc = storerow_text(&m->content, r, 2, "content", 0)) < 0 ||
	    (rc = storerow_text(&m->project, r, 3, "project", 0)) < 0 ||
	    (rc = storerow_real(&m->confidence, r, 4, "confidence")) < 0 ||
	    (rc = storerow_text(&m->status, r, 5, "status", 0)) < 0 ||
	    (rc = storerow_json(&m->domain_tags, r, 7, "domain_tags", 0)) < 0 ||
	    (rc = storerow_text(&m->valid_until, r, 8, "valid_until", 1)) < 0 ||
	    (rc = storerow_text(&m->graduated_to, r, 9, "graduated_to_entity_id",
	    1)) < 0 ||
	    (rc = storerow_text(&m->created_at, r, 10, "created_at", 0)) < 0 ||
	    (rc = storerow_text(&m->updated_at, r, 11, "updated_at", 0)) < 0)
		return rc;
	m->reference_count = sqlite3_column_int64(r->stmt, 6);
	if (m->valid_until != NULL && m->valid_until[0] == '\0') {
		free(m->valid_until);
		m->valid_until = NULL;
	}
	if (m->valid_until != NULL) {
		if (mirror_parse_ts(&until, m->valid_until) < 0)
			return storerow_fail(r, "valid_until",
			    "is not a timestamp (YYYY-MM-DD HH:MM:SS)");
		m->expired = until < now;
	}
	return 0;
}

static int (*const row_reader[T_N])(struct project_facts *, struct store_row *,
    time_t) = { state_row, entity_row, rel_row, memory_row };

/* The memories query, with absent optional columns replaced by defaults
 * and tail (a column list starting with ", ", or "") appended. */
static int
memories_sql(char *buf, size_t size, mirror_store *st, const char *tail,
    const char *rest)
{
	const struct store_features *ft = store_features(st);
	int n;

	n = snprintf(buf, size, "SELECT m.id, m.memory_type, m.content, "
	    "m.project, m.confidence, m.status, %s, %s, %s, %s, "
	    "m.created_at, m.updated_at%s FROM main.memories m%s",
	    ft->mem_reference_count ? "m.reference_count" : "0",
	    ft->mem_domain_tags ? "m.domain_tags" : "'[]'",
	    ft->mem_valid_until ? "m.valid_until" : "NULL",
	    ft->mem_graduated ? "m.graduated_to_entity_id" : "NULL", tail,
	    rest);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

int
facts_reader_open(struct facts_reader **out, mirror_store *st, time_t now,
    mirror_error *err)
{
	struct facts_reader *r = xcalloc(1, sizeof(*r));
	char mem_sql[1024];
	int rc;

	*out = r;
	r->st = st;
	r->now = now;
	if (memories_sql(mem_sql, sizeof(mem_sql), st, ", " CANON("m"),
	    JOIN_ALIAS("m") "ORDER BY " CANON("m") ", m.memory_type, "
	    "m.created_at, m.id") < 0)
		return mirror_fail(err, MIRROR_EIO, "internal: memories sql");
	{
		const char *const sql[T_N] = { state_sql, entity_sql, rel_sql,
		    mem_sql };

		for (int t = 0; t < T_N; t++)
			if ((rc = prepare(&r->stmt[t], st, sql[t], read_what[t],
			    err)) < 0)
				return rc;
	}
	return 0;
}

void
facts_reader_close(struct facts_reader *r)
{
	if (r == NULL)
		return;
	for (int t = 0; t < T_N; t++)
		sqlite3_finalize(r->stmt[t]);
	free(r->last);
	free(r);
}

int
facts_read_project(struct project_facts *out, struct facts_reader *r,
    const char *project, mirror_error *err)
{
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (r->last != NULL && strcmp(project, r->last) <= 0)
		return mirror_fail(err, MIRROR_EIO, "internal: project '%s' "
		    "read after '%s'", project, r->last);
	free(r->last);
	r->last = xstrdup(project);
	for (int t = 0; rc == 0 && t < T_N; t++) {
		struct store_row row = { .st = r->st, .stmt = r->stmt[t],
		    .table = table_name[t], .err = err };

		while ((rc = cursor_seek(r, t, project, err)) == 1) {
			row.id = NULL;
			r->pending[t] = 0;
			if ((rc = row_reader[t](out, &row, r->now)) < 0)
				break;
		}
	}
	return rc;
}

int
facts_load(struct project_facts *out, mirror_store *st, const char *project,
    time_t now, mirror_error *err)
{
	struct facts_reader *r;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = facts_reader_open(&r, st, now, err);
	if (rc == 0)
		rc = facts_read_project(out, r, project, err);
	facts_reader_close(r);
	return rc;
}

/*
 * Read sql's rows through the row reader of table t, keeping none.
 * Returns 0 or the first row's error.
 */
static int
check_rows(mirror_store *st, int t, const char *sql, time_t now,
    mirror_error *err)
{
	struct store_row r = { .st = st, .table = table_name[t], .err = err };
	struct project_facts f;
	int rc;

	memset(&f, 0, sizeof(f));
	if ((rc = prepare(&r.stmt, st, sql, read_what[t], err)) < 0)
		return rc;
	while ((rc = sqlite3_step(r.stmt)) == SQLITE_ROW) {
		r.id = NULL;
		if ((rc = row_reader[t](&f, &r, now)) < 0)
			break;
		/* Keep memory flat: drop what was read every 1024 rows. */
		if (f.n_state + f.n_ent + f.n_rel + f.n_mem >= 1024)
			facts_free(&f);
	}
	if (rc == SQLITE_DONE)
		rc = 0;
	else if (rc > 0)
		rc = store_fail(st, err, rc, read_what[t]);
	facts_free(&f);
	sqlite3_finalize(r.stmt);
	return rc;
}

int
facts_check(mirror_store *st, time_t now, mirror_error *err)
{
	struct fact_project *p = NULL;
	char mem_sql[1024];
	size_t n = 0;
	int rc;

	rc = facts_projects(&p, &n, st, err);
	facts_projects_free(p, n);
	if (rc == 0)
		rc = check_rows(st, T_STATE, "SELECT " STATE_COLS " FROM "
		    "main.project_state s", now, err);
	if (rc == 0)
		rc = check_rows(st, T_ENT, "SELECT " ENTITY_COLS " FROM "
		    "main.entities e", now, err);
	/* Only what the reader returns: an edge with an end in some
	 * project. */
	if (rc == 0)
		rc = check_rows(st, T_REL, "SELECT " REL_COLS " FROM "
		    "main.relationships r WHERE r.source_entity_id IN (SELECT "
		    "id FROM main.entities) OR r.target_entity_id IN (SELECT "
		    "id FROM main.entities)", now, err);
	if (rc == 0 && memories_sql(mem_sql, sizeof(mem_sql), st, "",
	    " ") < 0)
		rc = mirror_fail(err, MIRROR_EIO, "internal: memories sql");
	if (rc == 0)
		rc = check_rows(st, T_MEM, mem_sql, now, err);
	/* The pages read conflicts too. */
	if (rc == 0)
		rc = conflict_check(st, err);
	return rc;
}

void
facts_free(struct project_facts *f)
{
	for (size_t i = 0; i < f->n_state; i++) {
		struct fact_state *s = &f->state[i];

		free(s->id); free(s->project); free(s->category);
		free(s->key); free(s->value); free(s->source);
		free(s->status); free(s->created_at); free(s->updated_at);
	}
	for (size_t i = 0; i < f->n_ent; i++) {
		struct fact_entity *e = &f->ent[i];

		free(e->id); free(e->type); free(e->name); free(e->project);
		free(e->description); free(e->status); free(e->created_at);
		free(e->updated_at);
		json_decref(e->properties);
		json_decref(e->source_refs);
	}
	for (size_t i = 0; i < f->n_rel; i++) {
		free(f->rel[i].id); free(f->rel[i].source);
		free(f->rel[i].target); free(f->rel[i].type);
	}
	for (size_t i = 0; i < f->n_mem; i++) {
		struct fact_memory *m = &f->mem[i];

		free(m->id); free(m->type); free(m->content); free(m->project);
		free(m->status); free(m->created_at); free(m->updated_at);
		free(m->valid_until); free(m->graduated_to);
		json_decref(m->domain_tags);
	}
	free(f->state);
	free(f->ent);
	free(f->rel);
	free(f->mem);
	memset(f, 0, sizeof(*f));
}

/* ---- snapshot checksum ------------------------------------------------- */

/* A 64-bit finalizer (splitmix64): spreads a row hash over all bits
 * before rows are summed, so near-equal rows do not cancel out. */
static uint64_t
mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

/*
 * Fold sql's result into *h as a multiset of rows: each row hashed on
 * its own (every column with a type tag, so NULL, '' and 0 differ),
 * the row hashes summed, and the sum and row count folded in. The sum
 * does not depend on row order, so no table is sorted: a table scan
 * per table is the whole cost. Returns 0 or < 0 with err set.
 */
static int
hash_query(uint64_t *h, mirror_store *st, const char *sql, mirror_error *err)
{
	sqlite3_stmt *stmt = NULL;
	uint64_t sum = 0, rows = 0;
	int rc, ncol;

	rc = prepare(&stmt, st, sql, "cannot compute the snapshot checksum",
	    err);
	if (rc < 0)
		return rc;
	ncol = sqlite3_column_count(stmt);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		uint64_t rh = MIRROR_HASH_INIT;

		for (int i = 0; i < ncol; i++) {
			unsigned char type = (unsigned char)
			    sqlite3_column_type(stmt, i);
			const void *p;
			int n;

			rh = hash_add(rh, &type, 1);
			if (type == SQLITE_NULL)
				continue;
			p = sqlite3_column_text(stmt, i);
			n = sqlite3_column_bytes(stmt, i);
			rh = hash_add(rh, p, (size_t)n);
			rh = hash_add_str(rh, NULL);
		}
		sum += mix64(rh);
		rows++;
	}
	rc = rc == SQLITE_DONE ? 0 : store_fail(st, err, rc,
	    "cannot compute the snapshot checksum");
	sqlite3_finalize(stmt);
	*h = hash_add(*h, &sum, sizeof(sum));
	*h = hash_add(*h, &rows, sizeof(rows));
	return rc;
}

int
facts_checksum(uint64_t *out, mirror_store *st, mirror_error *err)
{
	static const char *const fixed[] = {
	    "SELECT id, name, aliases, description FROM main.projects",
	    "SELECT id, project, category, key, value, source, confidence, "
	    "status, created_at, updated_at FROM main.project_state",
	    "SELECT id, entity_type, name, project, description, properties, "
	    "status, confidence, source_refs, created_at, updated_at FROM "
	    "main.entities",
	    "SELECT id, source_entity_id, target_entity_id, "
	    "relationship_type, confidence FROM main.relationships",
	};
	static const char *const conflicts[] = {
	    "SELECT id, detected_at, slot_kind, slot_key, project, status, "
	    "resolved_at, resolution, resolved_by FROM main.conflicts",
	    "SELECT conflict_id, member_kind, member_id, member_layer_trust, "
	    "value_snapshot, conflicts_with FROM main.conflict_members",
	};
	char sql[1024];
	uint64_t h = MIRROR_HASH_INIT;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < sizeof(fixed) / sizeof(*fixed); i++)
		rc = hash_query(&h, st, fixed[i], err);
	if (rc == 0 && memories_sql(sql, sizeof(sql), st, "", "") < 0)
		rc = mirror_fail(err, MIRROR_EIO, "internal: memories sql");
	if (rc == 0)
		rc = hash_query(&h, st, sql, err);
	for (size_t i = 0; rc == 0 && store_features(st)->has_mirror_tables &&
	    i < sizeof(conflicts) / sizeof(*conflicts); i++)
		rc = hash_query(&h, st, conflicts[i], err);
	/* Pages and messages name who last changed a fact. */
	if (rc == 0 && store_features(st)->has_audit)
		rc = hash_query(&h, st, "SELECT id, memory_id, entity_kind, "
		    "action, actor, note, timestamp FROM main.memory_audit",
		    err);
	*out = h;
	return rc;
}

int
facts_clock_read(struct facts_clock *out, mirror_store *st, time_t now,
    mirror_error *err)
{
	char ts[MIRROR_TS_LEN];
	long long any = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	mirror_format_ts(ts, now);
	if (store_features(st)->mem_valid_until)
		rc = store_count(&out->expired, st, "SELECT count(*) FROM "
		    "main.memories WHERE mirror_ts(valid_until) < "
		    "mirror_ts(?1)", ts, err);
	if (rc == 0 && store_features(st)->has_mirror_tables)
		rc = store_count(&any, st, "SELECT EXISTS (SELECT 1 FROM "
		    "main.conflicts)", NULL, err);
	out->any_conflicts = any != 0;
	return rc;
}
