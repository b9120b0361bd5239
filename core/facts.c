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
#include "facts.h"
#include "hash.h"
#include "xalloc.h"

/* The canonical project of table alias t (joined to project_alias a). */
#define CANON(t) "coalesce(a.canonical, " t ".project)"
#define JOIN_ALIAS(t) " LEFT JOIN temp.project_alias a ON a.name = " \
	t ".project "

/* One row being read: what the error messages name. */
struct row {
	mirror_store *st;
	sqlite3_stmt *stmt;
	const char *table;
	const char *id;         /* the row's id once read */
	mirror_error *err;
};

/* 1 when s[0..n) is well-formed UTF-8 (no overlongs, no surrogates). */
static int
utf8_valid(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i];
		size_t len;
		unsigned cp;

		if (c < 0x80) {
			i++;
			continue;
		} else if (c >= 0xc2 && c <= 0xdf) {
			len = 2;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			len = 3;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			len = 4;
			cp = c & 0x07;
		} else {
			return 0;
		}
		if (n - i < len)
			return 0;
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if ((len == 3 && (cp < 0x800 ||
		    (cp >= 0xd800 && cp <= 0xdfff))) ||
		    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
			return 0;
		i += len;
	}
	return 1;
}

static int
row_fail(struct row *r, const char *col, const char *what)
{
	return mirror_fail(r->err, MIRROR_EINPUT, "store %s: %s row '%s': "
	    "%s %s", store_path(r->st), r->table, r->id ? r->id : "?",
	    col, what);
}

/*
 * Copy text column i into *out. NULL is an error unless nullable (then
 * *out stays NULL). Returns 0 or -MIRROR_EINPUT.
 */
static int
col_text(char **out, struct row *r, int i, const char *col, int nullable)
{
	const unsigned char *s;
	int n;

	*out = NULL;
	if (sqlite3_column_type(r->stmt, i) == SQLITE_NULL)
		return nullable ? 0 : row_fail(r, col, "is NULL");
	s = sqlite3_column_text(r->stmt, i);
	n = sqlite3_column_bytes(r->stmt, i);
	if (s == NULL)
		return mirror_fail(r->err, MIRROR_EIO, "store %s: out of "
		    "memory reading %s", store_path(r->st), r->table);
	if (!utf8_valid(s, (size_t)n) || strlen((const char *)s) != (size_t)n)
		return row_fail(r, col, "is not valid UTF-8 text");
	*out = xstrndup((const char *)s, (size_t)n);
	return 0;
}

static int
col_real(double *out, struct row *r, int i, const char *col)
{
	*out = 0;
	if (sqlite3_column_type(r->stmt, i) == SQLITE_NULL)
		return row_fail(r, col, "is NULL");
	*out = sqlite3_column_double(r->stmt, i);
	return 0;
}

/*
 * Parse JSON column i into *out, which must be an object (want_object)
 * or an array. Returns 0 or -MIRROR_EINPUT naming the row.
 */
static int
col_json(json_t **out, struct row *r, int i, const char *col,
    int want_object)
{
	json_error_t jerr;
	char *text, msg[256];
	int rc, n;

	*out = NULL;
	rc = col_text(&text, r, i, col, 0);
	if (rc < 0)
		return rc;
	*out = json_loads(text, JSON_DECODE_ANY, &jerr);
	free(text);
	if (*out == NULL) {
		n = snprintf(msg, sizeof(msg), "is not valid JSON (line %d, "
		    "column %d: %s)", jerr.line, jerr.column, jerr.text);
		if (n < 0 || (size_t)n >= sizeof(msg))
			return row_fail(r, col, "is not valid JSON");
		return row_fail(r, col, msg);
	}
	if (want_object ? !json_is_object(*out) : !json_is_array(*out)) {
		json_decref(*out);
		*out = NULL;
		return row_fail(r, col, want_object ? "is not a JSON object" :
		    "is not a JSON array");
	}
	return 0;
}

/* Prepare sql with ?1 bound to p1 (when not NULL). */
static int
prepare(sqlite3_stmt **stmt, mirror_store *st, const char *sql,
    const char *p1, const char *what, mirror_error *err)
{
	int rc = sqlite3_prepare_v2(store_db(st), sql, -1, stmt, NULL);

	if (rc == SQLITE_OK && p1 != NULL)
		rc = sqlite3_bind_text(*stmt, 1, p1, -1, SQLITE_TRANSIENT);
	if (rc != SQLITE_OK) {
		rc = store_fail(st, err, rc, what);
		sqlite3_finalize(*stmt);
		*stmt = NULL;
		return rc;
	}
	return 0;
}

/*
 * Make room for one more element of size in arr (holding *n of *cap),
 * zero it and count it. Returns the (possibly moved) array; the new
 * element is its last.
 */
static void *
grow(void *arr, size_t *n, size_t *cap, size_t size)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		arr = xreallocarray(arr, *cap, size);
	}
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
project_aliases(struct fact_project *p, struct row *r, int i)
{
	json_t *arr, *v;
	size_t k;
	int rc;

	rc = col_json(&arr, r, i, "aliases", 0);
	if (rc < 0)
		return rc;
	p->aliases = xcalloc(json_array_size(arr) + 1, sizeof(char *));
	json_array_foreach(arr, k, v) {
		if (!json_is_string(v)) {
			json_decref(arr);
			return row_fail(r, "aliases", "holds a non-string");
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
	    "project IS NULL LIMIT 1", NULL, "cannot read projects", err);
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
	struct row r = { st, NULL, "projects", NULL, err };
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	rc = check_null_projects(st, err);
	if (rc < 0)
		return rc;
	rc = prepare(&r.stmt, st, sql, NULL, "cannot list projects", err);
	if (rc < 0)
		return rc;
	while ((rc = sqlite3_step(r.stmt)) == SQLITE_ROW) {
		struct fact_project *p;

		*out = grow(*out, n, &cap, sizeof(**out));
		p = &(*out)[*n - 1];

		if ((rc = col_text(&p->id, &r, 0, "id", 0)) < 0)
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
		if ((rc = col_text(&p->name, &r, 2, "name", 0)) < 0 ||
		    (rc = project_aliases(p, &r, 3)) < 0 ||
		    (rc = col_text(&p->description, &r, 4, "description",
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

/* ---- one project ------------------------------------------------------- */

static int
load_state(struct project_facts *f, mirror_store *st, const char *project,
    mirror_error *err)
{
	static const char sql[] = "SELECT s.id, s.project, s.category, "
	    "s.key, s.value, s.source, s.confidence, s.status, s.created_at, "
	    "s.updated_at FROM main.project_state s" JOIN_ALIAS("s")
	    "WHERE " CANON("s") " = ?1 ORDER BY s.category, s.key, "
	    "s.created_at, s.id";
	struct row r = { st, NULL, "project_state", NULL, err };
	size_t cap = 0;
	int rc;

	rc = prepare(&r.stmt, st, sql, project, "cannot read project_state",
	    err);
	if (rc < 0)
		return rc;
	while ((rc = sqlite3_step(r.stmt)) == SQLITE_ROW) {
		struct fact_state *s;

		f->state = grow(f->state, &f->n_state, &cap, sizeof(*s));
		s = &f->state[f->n_state - 1];
		r.id = NULL;
		if ((rc = col_text(&s->id, &r, 0, "id", 0)) < 0)
			goto out;
		r.id = s->id;
		if ((rc = col_text(&s->project, &r, 1, "project", 0)) < 0 ||
		    (rc = col_text(&s->category, &r, 2, "category", 0)) < 0 ||
		    (rc = col_text(&s->key, &r, 3, "key", 0)) < 0 ||
		    (rc = col_text(&s->value, &r, 4, "value", 0)) < 0 ||
		    (rc = col_text(&s->source, &r, 5, "source", 0)) < 0 ||
		    (rc = col_real(&s->confidence, &r, 6, "confidence")) < 0 ||
		    (rc = col_text(&s->status, &r, 7, "status", 0)) < 0 ||
		    (rc = col_text(&s->created_at, &r, 8, "created_at",
		    0)) < 0 ||
		    (rc = col_text(&s->updated_at, &r, 9, "updated_at", 0)) < 0)
			goto out;
	}
	rc = rc == SQLITE_DONE ? 0 : store_fail(st, err, rc,
	    "cannot read project_state");
out:
	sqlite3_finalize(r.stmt);
	return rc;
}

static int
load_entities(struct project_facts *f, mirror_store *st,
    const char *project, mirror_error *err)
{
	static const char sql[] = "SELECT e.id, e.entity_type, e.name, "
	    "e.project, e.description, e.properties, e.status, e.confidence, "
	    "e.source_refs, e.created_at, e.updated_at FROM main.entities e"
	    JOIN_ALIAS("e") "WHERE " CANON("e") " = ?1 ORDER BY "
	    "e.entity_type, e.name, e.id";
	struct row r = { st, NULL, "entities", NULL, err };
	size_t cap = 0;
	int rc;

	rc = prepare(&r.stmt, st, sql, project, "cannot read entities", err);
	if (rc < 0)
		return rc;
	while ((rc = sqlite3_step(r.stmt)) == SQLITE_ROW) {
		struct fact_entity *e;

		f->ent = grow(f->ent, &f->n_ent, &cap, sizeof(*e));
		e = &f->ent[f->n_ent - 1];
		r.id = NULL;
		if ((rc = col_text(&e->id, &r, 0, "id", 0)) < 0)
			goto out;
		r.id = e->id;
		if ((rc = col_text(&e->type, &r, 1, "entity_type", 0)) < 0 ||
		    (rc = col_text(&e->name, &r, 2, "name", 0)) < 0 ||
		    (rc = col_text(&e->project, &r, 3, "project", 0)) < 0 ||
		    (rc = col_text(&e->description, &r, 4, "description",
		    0)) < 0 ||
		    (rc = col_json(&e->properties, &r, 5, "properties",
		    1)) < 0 ||
		    (rc = col_text(&e->status, &r, 6, "status", 0)) < 0 ||
		    (rc = col_real(&e->confidence, &r, 7, "confidence")) < 0 ||
		    (rc = col_json(&e->source_refs, &r, 8, "source_refs",
		    0)) < 0 ||
		    (rc = col_text(&e->created_at, &r, 9, "created_at",
		    0)) < 0 ||
		    (rc = col_text(&e->updated_at, &r, 10, "updated_at",
		    0)) < 0)
			goto out;
	}
	rc = rc == SQLITE_DONE ? 0 : store_fail(st, err, rc,
	    "cannot read entities");
out:
	sqlite3_finalize(r.stmt);
	return rc;
}

static int
load_rels(struct project_facts *f, mirror_store *st, const char *project,
    mirror_error *err)
{
	static const char sql[] = "WITH mine(id) AS (SELECT e.id FROM "
	    "main.entities e" JOIN_ALIAS("e") "WHERE " CANON("e") " = ?1) "
	    "SELECT r.id, r.source_entity_id, r.target_entity_id, "
	    "r.relationship_type, r.confidence FROM main.relationships r "
	    "WHERE r.source_entity_id IN mine OR r.target_entity_id IN mine "
	    "ORDER BY r.relationship_type, r.source_entity_id, "
	    "r.target_entity_id, r.id";
	struct row r = { st, NULL, "relationships", NULL, err };
	size_t cap = 0;
	int rc;

	rc = prepare(&r.stmt, st, sql, project, "cannot read relationships",
	    err);
	if (rc < 0)
		return rc;
	while ((rc = sqlite3_step(r.stmt)) == SQLITE_ROW) {
		struct fact_rel *x;

		f->rel = grow(f->rel, &f->n_rel, &cap, sizeof(*x));
		x = &f->rel[f->n_rel - 1];
		r.id = NULL;
		if ((rc = col_text(&x->id, &r, 0, "id", 0)) < 0)
			goto out;
		r.id = x->id;
		if ((rc = col_text(&x->source, &r, 1, "source_entity_id",
		    0)) < 0 ||
		    (rc = col_text(&x->target, &r, 2, "target_entity_id",
		    0)) < 0 ||
		    (rc = col_text(&x->type, &r, 3, "relationship_type",
		    0)) < 0 ||
		    (rc = col_real(&x->confidence, &r, 4, "confidence")) < 0)
			goto out;
	}
	rc = rc == SQLITE_DONE ? 0 : store_fail(st, err, rc,
	    "cannot read relationships");
out:
	sqlite3_finalize(r.stmt);
	return rc;
}

/* The memories query, with absent optional columns replaced by defaults. */
static int
memories_sql(char *buf, size_t size, mirror_store *st, const char *where)
{
	const struct store_features *ft = store_features(st);
	int n;

	n = snprintf(buf, size, "SELECT m.id, m.memory_type, m.content, "
	    "m.project, m.confidence, m.status, %s, %s, %s, %s, "
	    "m.created_at, m.updated_at FROM main.memories m%s",
	    ft->mem_reference_count ? "m.reference_count" : "0",
	    ft->mem_domain_tags ? "m.domain_tags" : "'[]'",
	    ft->mem_valid_until ? "m.valid_until" : "NULL",
	    ft->mem_graduated ? "m.graduated_to_entity_id" : "NULL", where);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

static int
load_memories(struct project_facts *f, mirror_store *st,
    const char *project, time_t now, mirror_error *err)
{
	struct row r = { st, NULL, "memories", NULL, err };
	char sql[1024];
	size_t cap = 0;
	int rc;

	if (memories_sql(sql, sizeof(sql), st, JOIN_ALIAS("m") "WHERE "
	    CANON("m") " = ?1 ORDER BY m.memory_type, m.created_at, m.id") < 0)
		return mirror_fail(err, MIRROR_EIO, "internal: memories sql");
	rc = prepare(&r.stmt, st, sql, project, "cannot read memories", err);
	if (rc < 0)
		return rc;
	while ((rc = sqlite3_step(r.stmt)) == SQLITE_ROW) {
		struct fact_memory *m;
		time_t until;

		f->mem = grow(f->mem, &f->n_mem, &cap, sizeof(*m));
		m = &f->mem[f->n_mem - 1];
		r.id = NULL;
		if ((rc = col_text(&m->id, &r, 0, "id", 0)) < 0)
			goto out;
		r.id = m->id;
		if ((rc = col_text(&m->type, &r, 1, "memory_type", 0)) < 0 ||
		    (rc = col_text(&m->content, &r, 2, "content", 0)) < 0 ||
		    (rc = col_text(&m->project, &r, 3, "project", 0)) < 0 ||
		    (rc = col_real(&m->confidence, &r, 4, "confidence")) < 0 ||
		    (rc = col_text(&m->status, &r, 5, "status", 0)) < 0 ||
		    (rc = col_json(&m->domain_tags, &r, 7, "domain_tags",
		    0)) < 0 ||
		    (rc = col_text(&m->valid_until, &r, 8, "valid_until",
		    1)) < 0 ||
		    (rc = col_text(&m->graduated_to, &r, 9,
		    "graduated_to_entity_id", 1)) < 0 ||
		    (rc = col_text(&m->created_at, &r, 10, "created_at",
		    0)) < 0 ||
		    (rc = col_text(&m->updated_at, &r, 11, "updated_at",
		    0)) < 0)
			goto out;
		m->reference_count = sqlite3_column_int64(r.stmt, 6);
		if (m->valid_until != NULL && m->valid_until[0] == '\0') {
			free(m->valid_until);
			m->valid_until = NULL;
		}
		if (m->valid_until != NULL) {
			if (mirror_parse_ts(&until, m->valid_until) < 0) {
				rc = row_fail(&r, "valid_until",
				    "is not a timestamp (YYYY-MM-DD HH:MM:SS)");
				goto out;
			}
			m->expired = until < now;
		}
	}
	rc = rc == SQLITE_DONE ? 0 : store_fail(st, err, rc,
	    "cannot read memories");
out:
	sqlite3_finalize(r.stmt);
	return rc;
}

int
facts_load(struct project_facts *out, mirror_store *st, const char *project,
    time_t now, mirror_error *err)
{
	int rc;

	memset(out, 0, sizeof(*out));
	rc = load_state(out, st, project, err);
	if (rc == 0)
		rc = load_entities(out, st, project, err);
	if (rc == 0)
		rc = load_rels(out, st, project, err);
	if (rc == 0)
		rc = load_memories(out, st, project, now, err);
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

int
facts_locate(char **project, mirror_store *st, const char *kind,
    const char *id, mirror_error *err)
{
	const char *sql;
	sqlite3_stmt *stmt = NULL;
	int rc;

	*project = NULL;
	if (strcmp(kind, "project_state") == 0)
		sql = "SELECT " CANON("t") " FROM main.project_state t"
		    JOIN_ALIAS("t") "WHERE t.id = ?1 LIMIT 1";
	else if (strcmp(kind, "entity") == 0)
		sql = "SELECT " CANON("t") " FROM main.entities t"
		    JOIN_ALIAS("t") "WHERE t.id = ?1 LIMIT 1";
	else if (strcmp(kind, "memory") == 0)
		sql = "SELECT " CANON("t") " FROM main.memories t"
		    JOIN_ALIAS("t") "WHERE t.id = ?1 LIMIT 1";
	else
		return 0;
	rc = prepare(&stmt, st, sql, id, "cannot locate a fact", err);
	if (rc < 0)
		return rc;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(stmt, 0);

		*project = xstrdup(p != NULL ? p : "");
		rc = 0;
	} else if (rc == SQLITE_DONE) {
		rc = 0;
	} else {
		rc = store_fail(st, err, rc, "cannot locate a fact");
	}
	sqlite3_finalize(stmt);
	return rc;
}

/* ---- snapshot checksum ------------------------------------------------- */

/* Fold every column of every row of sql's result into *h. */
static int
hash_query(uint64_t *h, mirror_store *st, const char *sql, mirror_error *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc, ncol;

	rc = prepare(&stmt, st, sql, NULL, "cannot compute the snapshot "
	    "checksum", err);
	if (rc < 0)
		return rc;
	ncol = sqlite3_column_count(stmt);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		for (int i = 0; i < ncol; i++) {
			unsigned char type = (unsigned char)
			    sqlite3_column_type(stmt, i);
			const void *p;
			int n;

			/* Type tag: NULL, '' and 0 must hash differently. */
			*h = hash_add(*h, &type, 1);
			if (type == SQLITE_NULL)
				continue;
			p = sqlite3_column_text(stmt, i);
			n = sqlite3_column_bytes(stmt, i);
			*h = hash_add(*h, p, (size_t)n);
			*h = hash_add_str(*h, NULL);
		}
		*h = hash_add_str(*h, NULL);
	}
	rc = rc == SQLITE_DONE ? 0 : store_fail(st, err, rc,
	    "cannot compute the snapshot checksum");
	sqlite3_finalize(stmt);
	return rc;
}

int
facts_checksum(uint64_t *out, mirror_store *st, mirror_error *err)
{
	/* Ordered by every column: ties between duplicate ids (a store
	 * without its PRIMARY KEYs) still have one order. */
	static const char *const fixed[] = {
	    "SELECT id, name, aliases, description FROM main.projects "
	    "ORDER BY 1, 2, 3, 4",
	    "SELECT id, project, category, key, value, source, confidence, "
	    "status, created_at, updated_at FROM main.project_state "
	    "ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10",
	    "SELECT id, entity_type, name, project, description, properties, "
	    "status, confidence, source_refs, created_at, updated_at FROM "
	    "main.entities ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11",
	    "SELECT id, source_entity_id, target_entity_id, "
	    "relationship_type, confidence FROM main.relationships "
	    "ORDER BY 1, 2, 3, 4, 5",
	};
	static const char *const conflicts[] = {
	    "SELECT id, detected_at, slot_kind, slot_key, project, status, "
	    "resolved_at, resolution, resolved_by FROM main.conflicts "
	    "ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9",
	    "SELECT conflict_id, member_kind, member_id, member_layer_trust, "
	    "value_snapshot, conflicts_with FROM main.conflict_members "
	    "ORDER BY 1, 2, 3, 4, 5, 6",
	};
	char sql[1024];
	uint64_t h = MIRROR_HASH_INIT;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < sizeof(fixed) / sizeof(*fixed); i++)
		rc = hash_query(&h, st, fixed[i], err);
	if (rc == 0 && memories_sql(sql, sizeof(sql), st,
	    " ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12") < 0)
		rc = mirror_fail(err, MIRROR_EIO, "internal: memories sql");
	if (rc == 0)
		rc = hash_query(&h, st, sql, err);
	for (size_t i = 0; rc == 0 && store_features(st)->has_mirror_tables &&
	    i < sizeof(conflicts) / sizeof(*conflicts); i++)
		rc = hash_query(&h, st, conflicts[i], err);
	*out = h;
	return rc;
}
