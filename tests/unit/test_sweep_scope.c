/*
 * test_sweep_scope.c: a sweep limited to a set of projects
 * (sweep_run_scoped) leaves the store exactly as a full sweep would,
 * when the projects outside the scope did not change since the last
 * sweep.
 *
 * Each round edits a store, computes the changed projects the way an
 * incremental build does (a digest of everything attributable to each
 * canonical project, compared with the one taken after the last sweep),
 * copies the store, sweeps the store scoped and the copy in full, and
 * compares every table but sweep_runs row by row, and the numbers of
 * the two sweep_runs rows. A third copy is swept scoped through the row
 * ids of a digest (sweep_scope's rows, as mirror build does) and
 * compared too. The store then goes on from the scoped result, so a
 * scoped sweep also follows a scoped sweep.
 * The promises of doc/sweep.md, "Scoped sweeps".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "scratch.h"
#include "store/digest.h"
#include "store/facts.h"
#include "store/store.h"
#include "sweep/conflict.h"
#include "sweep/factrow.h"
#include "sweep/scope.h"
#include "sweep/sweep.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define NOW0 ((time_t)1700000000)

/* Stored project names rows are filed under, and the aliases that may
 * move between projects (x1 is also a project of its own when no
 * project lists it). */
static const char *const names[] = { "pa", "a1", "a2", "pb", "b1", "pc",
    "pd", "d1", "x1", "" };
#define NNAMES (sizeof(names) / sizeof(names[0]))
static const char *const projects[] = { "pa", "pb", "pc", "pd" };
#define NPROJ 4
static const char *const aliases[] = { "a1", "a2", "b1", "d1", "x1" };
#define NALIAS 5

struct fixture {
	mirror_store *st;
	time_t now;
	uint64_t rng;
	int owner[NALIAS];          /* index in projects[], or -1 */
	long long serial;           /* for new ids */
	char **digest;              /* "project\tlines" per project, sorted */
	size_t ndigest;
	int opened, closed;         /* what the full sweeps did, in total */
	int rounds, by_rows;        /* round_checks, and of those the sweeps
	                               by row ids that used them */
};

/* ---- helpers ------------------------------------------------------------ */

static uint64_t
rnd(struct fixture *f)
{
	f->rng ^= f->rng << 13;
	f->rng ^= f->rng >> 7;
	f->rng ^= f->rng << 17;
	return f->rng;
}

static size_t
pick(struct fixture *f, size_t n)
{
	return (size_t)(rnd(f) % n);
}

static void
sql(struct fixture *f, const char *fmt, ...)
{
	char *q;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	q = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	rc = sqlite3_exec(store_db(f->st), q, NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		fail_msg("%s: %s", q, sqlite3_errmsg(store_db(f->st)));
	sqlite3_free(q);
}

/* No fsync: the tests never crash the machine. */
static void
fast(mirror_store *st)
{
	assert_int_equal(sqlite3_exec(store_db(st), "PRAGMA synchronous = OFF",
	    NULL, NULL, NULL), SQLITE_OK);
}

static void
reopen(struct fixture *f)
{
	mirror_error err;

	store_close(f->st);
	if (store_open(&f->st, "s.db", STORE_WRITE, &err) < 0)
		fail_msg("%s", err.msg);
	fast(f->st);
}

/* Write the aliases of every project from f->owner. */
static void
write_aliases(struct fixture *f)
{
	for (int p = 0; p < NPROJ; p++) {
		strbuf sb;

		strbuf_init(&sb);
		strbuf_putc(&sb, '[');
		for (int a = 0; a < NALIAS; a++)
			if (f->owner[a] == p)
				strbuf_printf(&sb, "%s\"%s\"", sb.len > 1 ? "," :
				    "", aliases[a]);
		strbuf_putc(&sb, ']');
		sql(f, "UPDATE projects SET aliases = %Q WHERE id = %Q",
		    sb.data, projects[p]);
		strbuf_free(&sb);
	}
}

/* One row's text, every column quoted. Returns a new string. */
static char *
row_text(sqlite3_stmt *s)
{
	strbuf sb;

	strbuf_init(&sb);
	for (int i = 0; i < sqlite3_column_count(s); i++) {
		const char *t = (const char *)sqlite3_column_text(s, i);

		strbuf_printf(&sb, "%s%s", i ? "|" : "", t ? t : "NULL");
	}
	return strbuf_detach(&sb);
}

/*
 * Every row of every table but sweep_runs, one line each, tables by
 * name and rows by all their columns. Returns a new string.
 */
static char *
dump(mirror_store *st)
{
	sqlite3 *db = store_db(st);
	sqlite3_stmt *t = NULL;
	strbuf sb;

	strbuf_init(&sb);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT name FROM "
	    "main.sqlite_master WHERE type = 'table' AND name <> 'sweep_runs' "
	    "ORDER BY name", -1, &t, NULL), SQLITE_OK);
	while (sqlite3_step(t) == SQLITE_ROW) {
		char *q = sqlite3_mprintf("SELECT * FROM main.\"%w\"",
		    (const char *)sqlite3_column_text(t, 0));
		sqlite3_stmt *s = NULL;
		strbuf ord;

		assert_int_equal(sqlite3_prepare_v2(db, q, -1, &s, NULL),
		    SQLITE_OK);
		strbuf_init(&ord);
		strbuf_puts(&ord, q);
		for (int i = 0; i < sqlite3_column_count(s); i++)
			strbuf_printf(&ord, "%s%d", i ? ", " : " ORDER BY ",
			    i + 1);
		sqlite3_finalize(s);
		assert_int_equal(sqlite3_prepare_v2(db, ord.data, -1, &s,
		    NULL), SQLITE_OK);
		strbuf_printf(&sb, "## %s\n", sqlite3_column_text(t, 0));
		while (sqlite3_step(s) == SQLITE_ROW) {
			char *line = row_text(s);

			strbuf_printf(&sb, "%s\n", line);
			free(line);
		}
		sqlite3_finalize(s);
		strbuf_free(&ord);
		sqlite3_free(q);
	}
	sqlite3_finalize(t);
	return strbuf_detach(&sb);
}

/* Fail, showing the first line where a and b differ. */
static void
same_text(const char *a, const char *b, const char *what)
{
	size_t i = 0, line = 0;

	while (a[i] != '\0' && a[i] == b[i])
		if (a[i++] == '\n')
			line = i;
	if (a[i] == '\0' && b[i] == '\0')
		return;
	fail_msg("%s differ at:\n  scoped: %.200s\n  full:   %.200s", what,
	    a + line, b + line);
}

/* ---- the digest of an incremental build --------------------------------- */

#define CANON(col) FACTROW_CANON(col)

/* The rows of a fact table of kind k (memory_audit's entity_kind). */
#define FACT_OF(k, table) \
	"SELECT '" k "' AS k, id, project FROM main." table

/* (project, line) for everything attributable to a canonical project. */
static const char digest_sql[] =
	"SELECT p, line FROM ("
	"SELECT " CANON("project") " AS p, 'S' || quote(id) || quote(project) "
	"|| quote(category) || quote(key) || quote(value) || quote(status) "
	"AS line FROM main.project_state "
	"UNION ALL SELECT " CANON("project") ", 'E' || quote(id) || "
	"quote(entity_type) || quote(name) || quote(project) || "
	"quote(description) || quote(properties) || quote(status) "
	"FROM main.entities "
	"UNION ALL SELECT " CANON("project") ", 'M' || quote(id) || "
	"quote(memory_type) || quote(content) || quote(project) || "
	"quote(status) || quote(valid_until) || "
	"quote(valid_until IS NOT NULL AND valid_until < ?1) FROM main.memories "
	"UNION ALL SELECT DISTINCT " CANON("e.project") ", 'R' || quote(r.id) "
	"|| quote(r.source_entity_id) || quote(r.target_entity_id) || "
	"quote(r.relationship_type) FROM main.relationships r JOIN "
	"main.entities e ON e.id IN (r.source_entity_id, r.target_entity_id) "
	"UNION ALL SELECT project, 'C' || quote(id) || quote(status) || "
	"quote(slot_key) || quote(resolution) || quote(resolved_by) "
	"FROM main.conflicts "
	"UNION ALL SELECT c.project, 'CM' || quote(m.conflict_id) || "
	"quote(m.member_kind) || quote(m.member_id) || quote(m.value_snapshot) "
	"|| quote(m.conflicts_with) FROM main.conflict_members m JOIN "
	"main.conflicts c ON c.id = m.conflict_id "
	"UNION ALL SELECT id, 'P' || quote(name) || quote(aliases) "
	"FROM main.projects "
	"UNION ALL SELECT " CANON("f.project") ", 'A' || quote(a.id) || "
	"quote(a.action) || quote(a.note) FROM main.memory_audit a JOIN ("
	FACT_OF("project_state", "project_state") " UNION ALL "
	FACT_OF("entity", "entities") " UNION ALL "
	FACT_OF("memory", "memories") ") f ON f.k = a.entity_kind AND "
	"f.id = a.memory_id"
	") ORDER BY p, line";

static void
lines_free(char **d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(d[i]);
	free(d);
}

/* The digests ("project\tlines") of the store now, sorted by project. */
static void
digest_take(struct fixture *f, char ***out, size_t *n)
{
	sqlite3_stmt *s = NULL;
	char ts[MIRROR_TS_LEN];
	size_t cap = 0;
	strbuf cur;
	char *p = NULL;

	*out = NULL;
	*n = 0;
	mirror_format_ts(ts, f->now);
	assert_int_equal(sqlite3_prepare_v2(store_db(f->st), digest_sql, -1,
	    &s, NULL), SQLITE_OK);
	sqlite3_bind_text(s, 1, ts, -1, SQLITE_TRANSIENT);
	strbuf_init(&cur);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *rp = (const char *)sqlite3_column_text(s, 0);

		rp = rp ? rp : "";
		if (p == NULL || strcmp(p, rp) != 0) {
			if (p != NULL) {
				ARRAY_PUSH(*out, *n, cap) = strbuf_detach(&cur);
				strbuf_init(&cur);
			}
			free(p);
			p = xstrdup(rp);
			strbuf_printf(&cur, "%s\t", p);
		}
		strbuf_printf(&cur, "%s\n", sqlite3_column_text(s, 1));
	}
	if (p != NULL)
		ARRAY_PUSH(*out, *n, cap) = strbuf_detach(&cur);
	strbuf_free(&cur);
	free(p);
	sqlite3_finalize(s);
}

/* The project of digest line d (up to the tab), into buf. */
static const char *
dproj(const char *d, char *buf, size_t len)
{
	size_t k = strcspn(d, "\t");

	k = k < len ? k : len - 1;
	memcpy(buf, d, k);
	buf[k] = '\0';
	return buf;
}

/* Add to *v the projects whose digest differs between a and b (or
 * that only one has): what an incremental build would sweep. */
static void
digest_changed(char **a, size_t na, char **b, size_t nb, char ***v,
    size_t *n, size_t *cap)
{
	size_t i = 0, j = 0;
	char pa[64], pb[64];

	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 :
		    strcmp(dproj(a[i], pa, sizeof(pa)),
		    dproj(b[j], pb, sizeof(pb)));

		if (c == 0 && strcmp(a[i], b[j]) == 0) {
			i++, j++;
			continue;
		}
		ARRAY_PUSH(*v, *n, *cap) = xstrdup(c <= 0 ?
		    dproj(a[i], pa, sizeof(pa)) : dproj(b[j], pb, sizeof(pb)));
		i += c <= 0;
		j += c >= 0;
	}
}

/* ---- edits -------------------------------------------------------------- */

static const char *const values[] = { "1 kg", "2 kg", "3 kg" };
static const char *const keys[] = { "t1_f", "t2_f", "s_n1" };
static const char *const subjects[] = { "t1 f", "t2 f", "s n1" };
static const char *const mats[] = { "PEEK", "GF-PTFE" };
static const char *const subs[] = { "sub A", "sub B" };
static const char *const comps[] = { "pad", "arm" };

static const char *
rname(struct fixture *f)
{
	return names[pick(f, NNAMES - 1)];     /* facts not in "" */
}

#define PICK(f, a) ((a)[pick(f, sizeof(a) / sizeof((a)[0]))])

/* A new row of a random kind that claims something. */
static void
edit_insert(struct fixture *f)
{
	long long id = ++f->serial;
	const char *v = PICK(f, values);

	switch (pick(f, 8)) {
	case 0:
		sql(f, "INSERT INTO project_state(id, project, category, key, "
		    "value) VALUES('s%lld', %Q, 'decision', %Q, %Q)", id,
		    rname(f), PICK(f, keys), v);
		break;
	case 1:
		sql(f, "INSERT INTO entities(id, entity_type, name, project, "
		    "properties) VALUES('e%lld', 'decision', 'd', %Q, "
		    "json_object('target', %Q, 'field', 'f', 'value', %Q))", id,
		    rname(f), pick(f, 2) ? "t1" : "t2", v);
		break;
	case 2:
		sql(f, "INSERT INTO entities(id, entity_type, name, project, "
		    "properties) VALUES('e%lld', 'parameter', 'n1', %Q, "
		    "json_object('scope', 's', 'value', %Q))", id, rname(f), v);
		break;
	case 3:
		sql(f, "INSERT INTO entities(id, entity_type, name, project, "
		    "properties) VALUES('e%lld', 'material', %Q, %Q, %Q)", id,
		    PICK(f, mats), rname(f), pick(f, 2) ? "{}" :
		    "{\"component\":\"pad\"}");
		break;
	case 4:
		sql(f, "INSERT INTO entities(id, entity_type, name, project) "
		    "VALUES('e%lld', %Q, %Q, %Q)", id, pick(f, 2) ? "component" :
		    "subsystem", pick(f, 2) ? PICK(f, comps) : PICK(f, subs),
		    rname(f));
		break;
	case 5:
		sql(f, "INSERT INTO memories(id, memory_type, content, project, "
		    "valid_until) VALUES('m%lld', 'project', 'The %s is %s', %Q, "
		    "%s)", id, PICK(f, subjects), v, names[pick(f, NNAMES)],
		    pick(f, 3) ? "NULL" : "datetime(1700000000 + "
		    "abs(random() % 400000), 'unixepoch')");
		break;
	default:
		sql(f, "INSERT INTO memories(id, memory_type, content, project, "
		    "valid_until) VALUES('m%lld', 'preference', 'prefers %s "
		    "workflow', %Q, datetime(%lld, 'unixepoch'))", id,
		    pick(f, 2) ? "rebase" : "merge", names[pick(f, NNAMES)],
		    (long long)f->now + (long long)pick(f, 400000));
		break;
	}
}

/* The tables of facts, and what an edit may change in each. */
static const char *const fact_tables[] = { "project_state", "entities",
    "memories" };
static const char *const statuses[] = { "active", "active", "superseded",
    "candidate", "invalid" };

/* Change one existing row: value, status, project, name, or delete. */
static void
edit_row(struct fixture *f)
{
	const char *t = PICK(f, fact_tables);
	char where[160];

	snprintf(where, sizeof(where), "rowid = (SELECT rowid FROM %s "
	    "ORDER BY rowid LIMIT 1 OFFSET abs(%lld) %% max(1, (SELECT "
	    "count(*) FROM %s)))", t, (long long)(rnd(f) >> 2), t);
	switch (pick(f, 5)) {
	case 0:
		sql(f, "DELETE FROM %s WHERE %s", t, where);
		break;
	case 1:
		sql(f, "UPDATE %s SET status = %Q WHERE %s", t,
		    PICK(f, statuses), where);
		break;
	case 2:
		sql(f, "UPDATE %s SET project = %Q WHERE %s", t,
		    names[pick(f, NNAMES)], where);
		break;
	case 3:
		if (strcmp(t, "entities") == 0)
			sql(f, "UPDATE entities SET name = %Q WHERE %s",
			    pick(f, 2) ? PICK(f, mats) : PICK(f, subs), where);
		else if (strcmp(t, "memories") == 0)
			sql(f, "UPDATE memories SET valid_until = "
			    "datetime(%lld, 'unixepoch') WHERE %s",
			    (long long)f->now + (long long)pick(f, 200000) -
			    100000, where);
		break;
	default:
		if (strcmp(t, "project_state") == 0)
			sql(f, "UPDATE project_state SET value = %Q WHERE %s",
			    PICK(f, values), where);
		else if (strcmp(t, "entities") == 0)
			sql(f, "UPDATE entities SET properties = json_set("
			    "properties, '$.value', %Q) WHERE %s AND "
			    "json_valid(properties)", PICK(f, values), where);
		else
			sql(f, "UPDATE memories SET content = 'The t1 f is ' "
			    "|| %Q WHERE %s", PICK(f, values), where);
		break;
	}
}

/* Add or remove a uses_material or part_of edge between any projects. */
static void
edit_edge(struct fixture *f)
{
	static const char rand_entity[] = "(SELECT id FROM entities WHERE "
	    "entity_type IN (%s) ORDER BY id LIMIT 1 OFFSET abs(%lld) %% "
	    "max(1, (SELECT count(*) FROM entities WHERE entity_type IN "
	    "(%s))))";
	long long a = (long long)(rnd(f) >> 2), b = (long long)(rnd(f) >> 2);
	int mat = pick(f, 2);
	const char *src = "'component'", *dst = mat ? "'material'" :
	    "'subsystem'";
	char *s, *d;

	if (pick(f, 3) == 0) {
		sql(f, "DELETE FROM relationships WHERE rowid = (SELECT rowid "
		    "FROM relationships ORDER BY rowid LIMIT 1 OFFSET %lld %% "
		    "max(1, (SELECT count(*) FROM relationships)))", a);
		return;
	}
	s = sqlite3_mprintf(rand_entity, src, a, src);
	d = sqlite3_mprintf(rand_entity, dst, b, dst);
	sql(f, "INSERT INTO relationships(id, source_entity_id, "
	    "target_entity_id, relationship_type) SELECT 'r%lld', %s, %s, %Q "
	    "WHERE %s IS NOT NULL AND %s IS NOT NULL", ++f->serial, s, d,
	    mat ? "uses_material" : "part_of", s, d);
	sqlite3_free(s);
	sqlite3_free(d);
}

/* Resolve (with a random winner, or none) or dismiss an open conflict. */
static void
edit_review(struct fixture *f)
{
	sqlite3_stmt *s = NULL;
	char ts[MIRROR_TS_LEN], cid[64] = "", win[64] = "";
	mirror_error err;
	int sup, how = (int)pick(f, 3);

	assert_int_equal(sqlite3_prepare_v2(store_db(f->st), "SELECT c.id, "
	    "m.member_kind || ':' || m.member_id FROM conflicts c JOIN "
	    "conflict_members m ON m.conflict_id = c.id WHERE c.status = "
	    "'open' ORDER BY c.id, m.member_kind, m.member_id LIMIT 1 "
	    "OFFSET ?1 % max(1, (SELECT count(*) FROM conflict_members m JOIN "
	    "conflicts c ON c.id = m.conflict_id WHERE c.status = 'open'))",
	    -1, &s, NULL), SQLITE_OK);
	sqlite3_bind_int64(s, 1, (sqlite3_int64)(rnd(f) >> 2));
	if (sqlite3_step(s) == SQLITE_ROW) {
		snprintf(cid, sizeof(cid), "%s", sqlite3_column_text(s, 0));
		snprintf(win, sizeof(win), "%s", sqlite3_column_text(s, 1));
	}
	sqlite3_finalize(s);
	if (cid[0] == '\0')
		return;
	mirror_format_ts(ts, f->now);
	if (how == 0)
		assert_int_equal(conflict_dismiss(f->st,
		    &(struct conflict_resolution){ .id = cid,
		    .notes = "fine", .actor = "t", .now = ts }, &err), 0);
	else
		assert_int_equal(conflict_resolve(f->st,
		    &(struct conflict_resolution){ .id = cid,
		    .notes = "decided", .winner = how == 1 ? win : NULL,
		    .actor = "t", .now = ts }, &sup, &err), 0);
}

/* Move an alias to another project, or to none. */
static void
edit_alias(struct fixture *f)
{
	f->owner[pick(f, NALIAS)] = (int)pick(f, NPROJ + 1) - 1;
	write_aliases(f);
}

static void
edit_random(struct fixture *f)
{
	switch (pick(f, 12)) {
	case 0: case 1: case 2:
		edit_insert(f);
		break;
	case 3: case 4: case 5:
		edit_row(f);
		break;
	case 6: case 7:
		edit_edge(f);
		break;
	case 8: case 9:
		edit_review(f);
		break;
	case 10:
		edit_alias(f);
		break;
	default:
		f->now += (time_t)pick(f, 150000);     /* memories expire */
		break;
	}
}

/* ---- rounds ------------------------------------------------------------- */

/* Copy the store to f.db, as it is now. */
/* A copy of the store at path, opened into *out. */
static void
copy_store(struct fixture *f, const char *path, mirror_store **out)
{
	sqlite3 *dst = NULL;
	sqlite3_backup *b;
	mirror_error err;

	(void)remove(path);
	assert_int_equal(sqlite3_open(path, &dst), SQLITE_OK);
	assert_int_equal(sqlite3_exec(dst, "PRAGMA synchronous = OFF", NULL,
	    NULL, NULL), SQLITE_OK);
	b = sqlite3_backup_init(dst, "main", store_db(f->st), "main");
	assert_non_null(b);
	assert_int_equal(sqlite3_backup_step(b, -1), SQLITE_DONE);
	assert_int_equal(sqlite3_backup_finish(b), SQLITE_OK);
	assert_int_equal(sqlite3_close(dst), SQLITE_OK);
	assert_int_equal(store_open(out, path, STORE_WRITE, &err), 0);
	fast(*out);
}

/* The scope's tables scope_build leaves on st for ids[0..n) (with
 * rows: through them, which *by_rows says it did), one line a row;
 * nothing is written to the store. Returns a new string. */
static char *
scope_text(mirror_store *st, char **ids, size_t n,
    const struct store_digest *rows, int *by_rows)
{
	static const char *const q[] = {
	    "SELECT 's', project FROM temp.sweep_scope ORDER BY 2",
	    "SELECT 'n', name FROM temp.sweep_names ORDER BY 2",
	    "SELECT 't', id FROM temp.sweep_touched ORDER BY 2",
	    "SELECT 'x', id FROM temp.sweep_seen ORDER BY 2" };
	sqlite3 *db = store_db(st);
	strbuf sb;

	strbuf_init(&sb);
	assert_int_equal(sqlite3_exec(db, "BEGIN; CREATE TEMP TABLE "
	    "sweep_seen (id TEXT PRIMARY KEY) WITHOUT ROWID", NULL, NULL,
	    NULL), SQLITE_OK);
	assert_int_equal(scope_build(db, (const char *const *)ids, n,
	    rows, by_rows), SQLITE_OK);
	for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		sqlite3_stmt *s = NULL;

		assert_int_equal(sqlite3_prepare_v2(db, q[i], -1, &s, NULL),
		    SQLITE_OK);
		while (sqlite3_step(s) == SQLITE_ROW) {
			char *line = row_text(s);

			strbuf_printf(&sb, "%s\n", line);
			free(line);
		}
		sqlite3_finalize(s);
	}
	assert_int_equal(sqlite3_exec(db, "ROLLBACK; " SCOPE_DROP
	    "DROP TABLE IF EXISTS temp.sweep_seen", NULL, NULL, NULL),
	    SQLITE_OK);
	return strbuf_detach(&sb);
}

/* Make sc a scope counted and listed by a digest of st (into *d, which
 * the caller frees), as mirror build's check takes it. */
static void
rows_scope(struct sweep_scope *sc, struct store_digest *d, mirror_store *st,
    time_t now)
{
	mirror_error err;

	assert_int_equal(store_read_begin(st, &err), 0);
	if (facts_digest(d, st, &(const struct facts_digest_plan){ .now = now, .rowids = 1 }, &err) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(store_data_version(&sc->version, st, &err), 0);
	store_read_end(st);
	sc->counted = 1;
	sc->active_facts = digest_active(d);
	sc->rows = d;
}

/* The two sweeps reported the same numbers. */
static void
same_run(const struct sweep_run *s, const struct sweep_run *full)
{
	assert_string_equal(s->id, full->id);
	assert_int_equal(s->facts_scanned, full->facts_scanned);
	assert_int_equal(s->conflicts_opened, full->conflicts_opened);
	assert_int_equal(s->members_added, full->members_added);
	assert_int_equal(s->conflicts_closed, full->conflicts_closed);
	assert_int_equal(s->open_after, full->open_after);
}

/*
 * The projects changed since the last sweep (by digest) and extra:
 * sweep the store scoped to them and a copy in full, and compare. The
 * store goes on from the scoped sweep. Returns how many conflicts the
 * full sweep opened or closed.
 */
static long long
round_check(struct fixture *f, const char *extra)
{
	struct sweep_run rs, rf, rr;
	struct sweep_scope sc = { NULL, 0, 0, 0, 0, NULL, 0 };  /* not counted */
	struct sweep_scope sr = { NULL, 0, 0, 0, 0, NULL, 0 };
	struct store_digest d;
	mirror_store *g = NULL, *h = NULL;
	mirror_error err;
	char **cur, **scope = NULL, *a, *b, *c;
	size_t ncur, n = 0, cap = 0;
	int by;

	reopen(f);                  /* the alias map of now */
	digest_take(f, &cur, &ncur);
	digest_changed(f->digest, f->ndigest, cur, ncur, &scope, &n, &cap);
	lines_free(cur, ncur);
	if (extra != NULL)
		ARRAY_PUSH(scope, n, cap) = xstrdup(extra);
	copy_store(f, "f.db", &g);
	copy_store(f, "r.db", &h);
	sc.projects = sr.projects = (const char *const *)scope;
	sc.n = sr.n = n;
	rows_scope(&sr, &d, h, f->now);
	/* The same scope either way. */
	a = scope_text(h, scope, n, NULL, &by);
	assert_int_equal(by, 0);
	b = scope_text(h, scope, n, &d, &by);
	same_text(b, a, "the scope through row ids and through projects");
	free(a);
	free(b);
	if (sweep_run_scoped(&rs, f->st, f->now, &sc, &err) < 0 ||
	    sweep_run(&rf, g, f->now, &err) < 0 ||
	    sweep_run_scoped(&rr, h, f->now, &sr, &err) < 0)
		fail_msg("%s", err.msg);
	a = dump(f->st);
	b = dump(g);
	c = dump(h);
	same_text(a, b, "tables after a scoped and a full sweep");
	same_text(c, b, "tables after a scoped sweep by row ids and a full "
	    "sweep");
	same_run(&rs, &rf);
	same_run(&rr, &rf);
	assert_int_equal(rs.scope_by_rows, 0);
	f->rounds++;
	f->by_rows += rr.scope_by_rows;
	free(a);
	free(b);
	free(c);
	digest_free(&d);
	store_close(g);
	store_close(h);
	lines_free(scope, n);
	lines_free(f->digest, f->ndigest);
	digest_take(f, &f->digest, &f->ndigest);
	f->opened += (int)rf.conflicts_opened;
	f->closed += (int)rf.conflicts_closed;
	return rf.conflicts_opened + rf.conflicts_closed + rf.members_added;
}

/* A store of four projects with aliases (a1, a2 of pa; b1 of pb; d1 of
 * pd; x1 of none), swept once, its digests taken. */
static void
fixture_init(struct fixture *f, uint64_t seed, int rows)
{
	static const int owner0[NALIAS] = { 0, 0, 1, 3, -1 };
	mirror_error err;
	struct sweep_run run;

	memset(f, 0, sizeof(*f));
	f->rng = seed * UINT64_C(0x9e3779b97f4a7c15) + 1;
	f->now = NOW0;
	memcpy(f->owner, owner0, sizeof(owner0));
	(void)remove("s.db");
	assert_int_equal(store_create("s.db", &err), 0);
	assert_int_equal(store_open(&f->st, "s.db", STORE_WRITE, &err), 0);
	fast(f->st);
	sql(f, "INSERT INTO projects(id, name) VALUES ('pa', 'A'), "
	    "('pb', 'B'), ('pc', 'C'), ('pd', 'D')");
	write_aliases(f);
	reopen(f);
	for (int i = 0; i < rows; i++)
		edit_insert(f);
	for (int i = 0; i < rows / 4; i++)
		edit_edge(f);
	assert_int_equal(sweep_run(&run, f->st, f->now, &err), 0);
	digest_take(f, &f->digest, &f->ndigest);
}

static void
fixture_free(struct fixture *f)
{
	store_close(f->st);
	lines_free(f->digest, f->ndigest);
}

SCRATCH_FIXTURES(group_setup, group_teardown, "sweep-scope")

/* ---- tests -------------------------------------------------------------- */

/* 1: many rounds of random edits of every kind: the scoped sweep of the
 * changed projects leaves what the full sweep leaves. */
static void
test_random_edits(void **state)
{
	int opened = 0, closed = 0, rounds = 0, by_rows = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 8; seed++) {
		struct fixture f;

		fixture_init(&f, seed, 40);
		for (int round = 0; round < 40; round++) {
			size_t edits = 1 + pick(&f, 3);

			for (size_t e = 0; e < edits; e++)
				edit_random(&f);
			/* Now and then a project that did not change, or
			 * none at all: a wider scope is as good. */
			(void)round_check(&f, pick(&f, 6) == 0 ?
			    names[pick(&f, NNAMES)] : NULL);
		}
		opened += f.opened;
		closed += f.closed;
		rounds += f.rounds;
		by_rows += f.by_rows;
		fixture_free(&f);
	}
	/* The rounds did open and close conflicts. */
	assert_true(opened > 20);
	assert_true(closed > 10);
	/* Most sweeps by row ids used them; the others had '' in their
	 * scope (memories of no project), which the digest lists under
	 * none. */
	assert_int_equal(rounds, 8 * 40);
	if (by_rows < rounds / 2 || by_rows == rounds)
		fail_msg("%d of %d sweeps by row ids used them", by_rows,
		    rounds);
}

/* 2: an empty scope writes its sweep_runs row and nothing else, with the
 * numbers of the whole store. */
static void
test_empty_scope(void **state)
{
	struct sweep_scope none = { NULL, 0, 0, 0, 0, NULL, 0 };
	struct sweep_run run;
	mirror_error err;
	struct fixture f;
	char *before, *after;
	long long runs = -1, open = -1, facts = -1;

	(void)state;
	fixture_init(&f, 99, 30);
	sql(&f, "INSERT INTO project_state(id, project, category, key, value) "
	    "VALUES ('s-x1', 'pa', 'decision', 't1_f', '7 kg'), "
	    "('s-x2', 'pa', 'decision', 't1_f', '8 kg');"
	    "DELETE FROM entities WHERE rowid IN (SELECT rowid FROM entities "
	    "LIMIT 5)");
	before = dump(f.st);
	assert_int_equal(sweep_run_scoped(&run, f.st, f.now, &none, &err), 0);
	after = dump(f.st);
	same_text(after, before, "tables before and after");
	assert_int_equal(store_count(&runs, f.st, "SELECT count(*) FROM "
	    "sweep_runs", NULL, &err), 0);
	assert_int_equal(store_count(&open, f.st, "SELECT count(*) FROM "
	    "conflicts WHERE status = 'open'", NULL, &err), 0);
	assert_int_equal(store_count(&facts, f.st, "SELECT (SELECT count(*) "
	    "FROM project_state WHERE status = 'active') + (SELECT count(*) "
	    "FROM entities WHERE status = 'active') + (SELECT count(*) FROM "
	    "memories WHERE status = 'active')", NULL, &err), 0);
	assert_int_equal(runs, 2);
	assert_int_equal(run.conflicts_opened + run.conflicts_closed +
	    run.members_added, 0);
	assert_int_equal(run.open_after, open);
	assert_int_equal(run.facts_scanned, facts);
	free(before);
	free(after);
	/* A count the caller took (a digest's) stands while no other
	 * connection committed; after such a commit the sweep counts. */
	{
		struct sweep_scope counted = { NULL, 0, 1, 424242, 0, NULL, 0 };
		sqlite3 *other;

		assert_int_equal(store_data_version(&counted.version, f.st,
		    &err), 0);
		assert_int_equal(sweep_run_scoped(&run, f.st, f.now, &counted,
		    &err), 0);
		assert_int_equal(run.facts_scanned, 424242);
		assert_int_equal(sqlite3_open("s.db", &other), SQLITE_OK);
		/* (An UPDATE to the same value writes nothing.) */
		assert_int_equal(sqlite3_exec(other, "INSERT INTO "
		    "project_state(id, project, category, key, value, status) "
		    "VALUES ('s-x9', 'pa', 'fact', 'z', 'v', 'superseded')",
		    NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(other);
		assert_int_equal(sweep_run_scoped(&run, f.st, f.now, &counted,
		    &err), 0);
		assert_int_equal(run.facts_scanned, facts);
	}
	/* The edit did matter: a full sweep opens a conflict. */
	assert_int_equal(sweep_run(&run, f.st, f.now, &err), 0);
	assert_true(run.conflicts_opened > 0);
	fixture_free(&f);
}

/* A fixture with no random rows: each test writes its own. */
static void
fixture_plain(struct fixture *f, const char *rows)
{
	fixture_init(f, 1, 0);
	sql(f, "%s", rows);
	assert_true(round_check(f, NULL) > 0);
}

/* 3: aliases move rows between projects: an alias moved to another
 * project, dropped (its rows become a project of their own), given to
 * a project again. Each step changes the conflicts. */
static void
test_alias_change(void **state)
{
	struct fixture f;

	(void)state;
	fixture_plain(&f, "INSERT INTO project_state(id, project, category, "
	    "key, value) VALUES ('s1', 'a1', 'decision', 't1_f', '1 kg'), "
	    "('s2', 'x1', 'decision', 't2_f', '1 kg');"
	    "INSERT INTO entities(id, entity_type, name, project, properties) "
	    "VALUES ('e1', 'decision', 'd', 'pa', '{\"target\":\"t1\","
	    "\"field\":\"f\",\"value\":\"2 kg\"}'), ('e2', 'decision', 'd', "
	    "'b1', '{\"target\":\"t1\",\"field\":\"f\",\"value\":\"3 kg\"}'),"
	    "('e3', 'decision', 'd', 'pc', '{\"target\":\"t2\","
	    "\"field\":\"f\",\"value\":\"2 kg\"}');"
	    "INSERT INTO memories(id, memory_type, content, project) VALUES "
	    "('m1', 'preference', 'prefers rebase workflow', 'a1'),"
	    "('m2', 'preference', 'prefers merge workflow', 'pb')");
	f.owner[0] = 1;             /* a1: from pa to pb */
	write_aliases(&f);
	assert_true(round_check(&f, NULL) > 0);
	f.owner[0] = -1;            /* a1: a project of its own */
	write_aliases(&f);
	assert_true(round_check(&f, NULL) > 0);
	f.owner[4] = 2;             /* x1: given to pc */
	write_aliases(&f);
	assert_true(round_check(&f, NULL) > 0);
	f.owner[4] = -1;            /* and taken back */
	f.owner[0] = 0;
	write_aliases(&f);
	assert_true(round_check(&f, NULL) > 0);
	fixture_free(&f);
}

/* 4: a row of one project read by another's claim: a material named
 * through a uses_material edge, a part_of parent. Only the project of
 * the material or parent changes; the conflict is in the other. */
static void
test_cross_project(void **state)
{
	struct fixture f;

	(void)state;
	fixture_plain(&f, "INSERT INTO project_state(id, project, category, "
	    "key, value) VALUES ('s1', 'pa', 'decision', 'pad_material', "
	    "'GF-PTFE');"
	    "INSERT INTO entities(id, entity_type, name, project, properties) "
	    "VALUES ('c1', 'component', 'pad', 'a2', '{}'),"
	    "('c2', 'component', 'arm', 'pa', '{\"part_of\":\"sub B\"}'),"
	    "('c3', 'component', 'arm', 'pa', '{}'),"
	    "('mat', 'material', 'PEEK', 'b1', '{}'),"
	    "('sub', 'subsystem', 'sub A', 'pc', '{}');"
	    "INSERT INTO relationships(id, source_entity_id, target_entity_id, "
	    "relationship_type) VALUES ('r1', 'c1', 'mat', 'uses_material'),"
	    "('r2', 'c3', 'sub', 'part_of')");
	sql(&f, "UPDATE entities SET name = 'GF-PTFE' WHERE id = 'mat';"
	    "UPDATE entities SET name = 'sub B' WHERE id = 'sub'");
	assert_true(round_check(&f, NULL) > 0);     /* both close */
	sql(&f, "UPDATE entities SET name = 'PEEK 2' WHERE id = 'mat';"
	    "UPDATE entities SET status = 'invalid' WHERE id = 'sub'");
	assert_true(round_check(&f, NULL) > 0);     /* both open again */
	sql(&f, "DELETE FROM entities WHERE id = 'mat'");
	assert_true(round_check(&f, NULL) > 0);     /* the edge dangles */
	sql(&f, "INSERT INTO entities(id, entity_type, name, project) "
	    "VALUES ('mat', 'material', 'PEEK', 'pd')");
	assert_true(round_check(&f, NULL) > 0);     /* back, elsewhere */
	fixture_free(&f);
}

/* 5: a scope naming a NULL project is refused; nothing is written. */
static void
test_null_project(void **state)
{
	const char *const bad[] = { "pa", NULL };
	struct sweep_scope sc = { bad, 2, 0, 0, 0, NULL, 0 };
	struct sweep_run run;
	mirror_error err;
	struct fixture f;
	long long runs = -1;

	(void)state;
	fixture_init(&f, 5, 10);
	assert_int_equal(sweep_run_scoped(&run, f.st, f.now, &sc, &err),
	    -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "project 1 of the scope is NULL"));
	assert_int_equal(store_count(&runs, f.st, "SELECT count(*) FROM "
	    "sweep_runs", NULL, &err), 0);
	assert_int_equal(runs, 1);
	fixture_free(&f);
}

/* 6: row ids are taken only while they are the store's: after another
 * connection's commit, or with '' in the scope, the sweep finds its
 * rows by their projects, and leaves what a full sweep leaves. */
static void
test_rows_not_taken(void **state)
{
	const char *const pa[] = { "pa" }, *const blank[] = { "" };
	struct sweep_scope sc = { pa, 1, 0, 0, 0, NULL, 0 };
	struct store_digest d;
	struct sweep_run run, full;
	mirror_store *g = NULL;
	mirror_error err;
	struct fixture f;
	sqlite3 *other;
	char *a, *b;

	(void)state;
	fixture_init(&f, 7, 30);
	rows_scope(&sc, &d, f.st, f.now);
	/* Another connection adds a row of pa that disagrees, after the
	 * digest: its row id is in no list. */
	assert_int_equal(sqlite3_open("s.db", &other), SQLITE_OK);
	assert_int_equal(sqlite3_exec(other, "INSERT INTO project_state(id, "
	    "project, category, key, value) VALUES ('s-y1', 'pa', "
	    "'decision', 't1_f', '7 kg'), ('s-y2', 'a1', 'decision', "
	    "'t1_f', '8 kg')", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(other);
	copy_store(&f, "f.db", &g);
	if (sweep_run_scoped(&run, f.st, f.now, &sc, &err) < 0 ||
	    sweep_run(&full, g, f.now, &err) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(run.scope_by_rows, 0);
	assert_true(full.conflicts_opened + full.members_added > 0);
	a = dump(f.st);
	b = dump(g);
	same_text(a, b, "tables after a sweep past its row ids and a full "
	    "sweep");
	free(a);
	free(b);
	store_close(g);
	digest_free(&d);
	/* The same store, unchanged since its digest: the ids are used;
	 * with '' in the scope they are not. */
	rows_scope(&sc, &d, f.st, f.now);
	assert_int_equal(sweep_run_scoped(&run, f.st, f.now, &sc, &err), 0);
	assert_int_equal(run.scope_by_rows, 1);
	digest_free(&d);
	rows_scope(&sc, &d, f.st, f.now);
	sc.projects = blank;
	assert_int_equal(sweep_run_scoped(&run, f.st, f.now, &sc, &err), 0);
	assert_int_equal(run.scope_by_rows, 0);
	digest_free(&d);
	fixture_free(&f);
}

/*
 * 7: a scoped sweep closes a conflict one of whose members, unchanged,
 * is also a member of an open conflict of another project (a material
 * named through the uses_material edges of two projects' components):
 * its closing reason names that conflict, as a full sweep's does.
 * Only pa changed; pc's conflict is reached through the material's
 * project (scope.c, rule 2), so it is touched and found again. (An
 * open conflict that shares a member with a touching one always
 * touches the scope: moved_sql[1]'s "not touched" arm finds nothing
 * that sweep_seen does not.)
 */
static void
test_moved_member(void **state)
{
	char p0[] = "pa", *pa[] = { p0 };
	struct fixture f;
	sqlite3_stmt *s = NULL;
	long long n = -1;
	mirror_error err;
	char *pc, *text;
	int by;

	(void)state;
	fixture_plain(&f, "INSERT INTO project_state(id, project, category, "
	    "key, value) VALUES ('s1', 'pa', 'decision', 'pad_material', "
	    "'GF-PTFE'), ('s2', 'pc', 'decision', 'pad_material', "
	    "'GF-PTFE');"
	    "INSERT INTO entities(id, entity_type, name, project, properties) "
	    "VALUES ('c1', 'component', 'pad', 'a2', '{}'),"
	    "('c4', 'component', 'pad', 'pc', '{}'),"
	    "('mat', 'material', 'PEEK', 'b1', '{}');"
	    "INSERT INTO relationships(id, source_entity_id, target_entity_id, "
	    "relationship_type) VALUES ('r1', 'c1', 'mat', 'uses_material'),"
	    "('r4', 'c4', 'mat', 'uses_material')");
	sql(&f, "UPDATE project_state SET value = 'PEEK' WHERE id = 's1'");
	/* A scope of pa alone touches pc's conflict. */
	assert_int_equal(sqlite3_prepare_v2(store_db(f.st), "SELECT 't|' || "
	    "id || char(10) FROM conflicts WHERE project = 'pc' AND status = "
	    "'open'", -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	pc = xstrdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	text = scope_text(f.st, pa, 1, NULL, &by);
	if (strstr(text, pc) == NULL)
		fail_msg("pc's conflict %s not touched:\n%s", pc, text);
	free(text);
	free(pc);
	assert_true(round_check(&f, NULL) > 0);
	/* pa's conflict closed, naming pc's, which stays open. */
	assert_int_equal(store_count(&n, f.st, "SELECT count(*) FROM "
	    "conflicts a JOIN conflicts b ON b.project = 'pc' AND "
	    "b.status = 'open' WHERE a.project = 'pa' AND a.status = "
	    "'resolved' AND a.resolution = 'disagreement gone: project_state "
	    "s1 now says ''PEEK''; entity mat is now in conflict ' || b.id",
	    NULL, &err), 0);
	assert_int_equal(n, 1);
	fixture_free(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_edits),
		cmocka_unit_test(test_empty_scope),
		cmocka_unit_test(test_alias_change),
		cmocka_unit_test(test_cross_project),
		cmocka_unit_test(test_null_project),
		cmocka_unit_test(test_rows_not_taken),
		cmocka_unit_test(test_moved_member),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
