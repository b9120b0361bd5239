/*
 * test_digest.c: core/store/digest and the scoped reads of facts.h: the
 * snapshot checksum with a digest per canonical project beside it,
 * which rows belong to which project, and reading or checking only the
 * projects whose digest changed; the store file's print, and the memo
 * of what it vouched for, that spare the read of an untouched store.
 */
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "store/parallel.h"
#include "store/digest.h"
#include "store/facts.h"
#include "store/memo.h"
#include "store/store.h"
#include "store/undo.h"
#include "sys/clock.h"
#include "sys/work.h"


/* facts_check of the one project ids[0] (d: row ids of the same read,
 * or NULL), keeping nothing. Returns as facts_check. */
static int
check_scope(mirror_store *st, const char *const *ids,
    const struct store_digest *d, mirror_error *err)
{
	return facts_check(st, &(const struct facts_plan){ .ids = ids,
	    .n = 1, .d = d }, err);
}

/* check_scope, keeping what it read into *k. */
static int
keep_scope(struct facts_kept **k, mirror_store *st, const char *const *ids,
    const struct store_digest *d, mirror_error *err)
{
	return facts_check(st, &(const struct facts_plan){ .ids = ids,
	    .n = 1, .d = d, .keep = k }, err);
}

/* A reader of what k kept (never fails). */
static struct facts_reader *
reader_of(struct facts_kept *k)
{
	struct facts_reader *r = NULL;
	mirror_error err;

	assert_int_equal(facts_reader_open(&r, NULL, &(const struct
	    facts_plan){ .kept = k }, &err), 0);
	return r;
}

static char path[64];

static void
exec_sql(const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* A fresh store at path with sql applied. */
static void
make_store(const char *sql)
{
	mirror_error err;

	snprintf(path, sizeof(path), "/tmp/test_digest.%ld.db",
	    (long)getpid());
	unlink(path);
	assert_int_equal(store_create(path, &err), 0);
	exec_sql(sql);
}

/* Two projects, an alias, rows of no project, an edge across projects
 * and one to nowhere, a conflict, audit rows. */
static const char base_sql[] =
    "INSERT INTO projects(id, name, aliases, description) VALUES"
    " ('p05', 'P05', '[\"interf\",\"p5\"]', 'bench'),"
    " ('p06', 'P06', '[]', 'polisher');"
    "INSERT INTO project_state(id, project, category, key, value, status,"
    " created_at) VALUES"
    " ('s1', 'p5', 'fact', 'b', 'x', 'active', '2024-01-02'),"
    " ('s2', 'p06', 'fact', 'k', 'v', 'active', '2024-01-01'),"
    " ('s3', 'ghost', 'fact', 'k', 'v', 'active', '2024-01-01');"
    "INSERT INTO entities(id, entity_type, name, project, properties) VALUES"
    " ('e1', 'component', 'Arm', 'interf', '{}'),"
    " ('e2', 'component', 'Pad', 'p05', '{}'),"
    " ('e6', 'component', 'Head', 'p06', '{}');"
    "INSERT INTO relationships(id, source_entity_id, target_entity_id,"
    " relationship_type) VALUES ('r1', 'e2', 'e1', 'part_of'),"
    " ('r2', 'e6', 'e2', 'interfaces_with'),"
    " ('r3', 'x1', 'x2', 'part_of');"
    "INSERT INTO memories(id, memory_type, content, project, valid_until)"
    " VALUES ('m1', 'knowledge', 'k', '', NULL),"
    " ('m2', 'knowledge', 'soon', 'p05', '2030-01-01 00:00:00');"
    "INSERT INTO conflicts(id, slot_kind, slot_key, project) VALUES"
    " ('c1', 'cross_layer', '[\"p05\",\"k\"]', 'p05');"
    "INSERT INTO conflict_members(conflict_id, member_kind, member_id,"
    " member_layer_trust, value_snapshot) VALUES"
    " ('c1', 'project_state', 's1', 3, 'x'),"
    " ('c1', 'project_state', 's2', 3, 'v');"
    "INSERT INTO memory_audit(id, memory_id, entity_kind, action, actor)"
    " VALUES ('a1', 's2', 'project_state', 'update', 'ada'),"
    " ('a2', 'gone', 'memory', 'update', 'ada');";

/* The digests of the store at path, at now. */
static void
digest_at(struct store_digest *d, time_t now)
{
	mirror_error err;
	mirror_store *st;

	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(facts_digest(d, st, &(const struct facts_digest_plan){ .now = now }, &err), 0);
	store_read_end(st);
	store_close(st);
}

/* What one edit changed: the projects whose digest differs, as
 * "a,b," (the loose rows as "*,"), and whether the snapshot did. */
struct diff {
	char changed[256];
	int snapshot;
	int names;              /* the A-Z names digest differs */
};

static void
edit_diff(struct diff *out, const char *sql, time_t before, time_t after)
{
	struct store_digest a, b;
	size_t i = 0, j = 0;

	memset(out, 0, sizeof(*out));
	digest_at(&a, before);
	if (sql != NULL)
		exec_sql(sql);
	digest_at(&b, after);
	out->snapshot = a.snapshot != b.snapshot;
	out->names = a.names != b.names;
	if (a.loose != b.loose)
		strcat(out->changed, "*,");
	while (i < a.n || j < b.n) {
		int c = i == a.n ? 1 : j == b.n ? -1 :
		    strcmp(a.p[i].project, b.p[j].project);
		const char *id = c <= 0 ? a.p[i].project : b.p[j].project;

		if (c != 0 || a.p[i].sum != b.p[j].sum) {
			strcat(out->changed, id[0] ? id : "\"\"");
			strcat(out->changed, ",");
		}
		i += c <= 0;
		j += c >= 0;
	}
	digest_free(&a);
	digest_free(&b);
}

/* The snapshot is facts_checksum's; one digest per canonical project. */
static void
test_snapshot_and_projects(void **state)
{
	struct store_digest d;
	mirror_error err;
	mirror_store *st;
	uint64_t sum;

	(void)state;
	make_store(base_sql);
	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	assert_int_equal(facts_checksum(&sum, st, &err), 0);
	store_close(st);
	digest_at(&d, 0);
	assert_true(d.snapshot == sum);
	assert_int_equal(d.n, 4);
	assert_string_equal(d.p[0].project, "");
	assert_string_equal(d.p[1].project, "ghost");
	assert_string_equal(d.p[2].project, "p05");
	assert_string_equal(d.p[3].project, "p06");
	assert_true(digest_of(&d, "p05") == d.p[2].sum);
	assert_true(digest_of(&d, "interf") == 0);
	digest_free(&d);
	unlink(path);
}

/* A row changes its own project's digest and no other. */
static void
test_rows_belong(void **state)
{
	struct diff df;

	(void)state;
	make_store(base_sql);
	edit_diff(&df, "UPDATE project_state SET value = 'y' WHERE id = 's3'",
	    0, 0);
	assert_string_equal(df.changed, "ghost,");
	assert_true(df.snapshot);
	/* Filed under an alias: the canonical project's. */
	edit_diff(&df, "UPDATE entities SET name = 'Arm2' WHERE id = 'e1'", 0,
	    0);
	assert_string_equal(df.changed, "p05,");
	edit_diff(&df, "UPDATE memories SET content = 'q' WHERE id = 'm1'", 0,
	    0);
	assert_string_equal(df.changed, "\"\",");
	edit_diff(&df, "UPDATE projects SET description = 'd' WHERE id = "
	    "'p06'", 0, 0);
	assert_string_equal(df.changed, "p06,");
	/* Nothing changed, nothing differs. */
	edit_diff(&df, NULL, 0, 0);
	assert_string_equal(df.changed, "");
	assert_false(df.snapshot);
	unlink(path);
}

/* A column's type and length are part of its hash: the same bytes as
 * text or blob, a trailing NUL, a byte moved across a column's end,
 * two columns' values swapped, a word's last byte moved to the next
 * column: each changes the row's project (the hash steps a word at a time and folds no
 * length of its own). */
static void
test_column_bounds(void **state)
{
	/* Each from the state the one before left. */
	static const char *const edits[] = {
	    "UPDATE project_state SET value = CAST('x' AS BLOB) WHERE id = "
	    "'s1'",
	    "UPDATE project_state SET value = CAST('x' || char(0) AS BLOB) "
	    "WHERE id = 's1'",
	    "UPDATE project_state SET value = 'x' || char(0) WHERE id = 's1'",
	    "UPDATE project_state SET value = 'x' WHERE id = 's1'",
	    "UPDATE project_state SET key = 'x', value = 'b' WHERE id = 's1'",
	    "UPDATE project_state SET key = 'b', value = 'x' WHERE id = 's1'",
	    "UPDATE project_state SET key = 'bx', value = '' WHERE id = 's1'",
	    "UPDATE project_state SET key = 'b', value = 'x12345678' WHERE "
	    "id = 's1'",
	    "UPDATE project_state SET value = 'x1234567', source = '8' WHERE "
	    "id = 's1'",
	};
	struct diff df;

	(void)state;
	make_store(base_sql);
	for (size_t i = 0; i < sizeof(edits) / sizeof(*edits); i++) {
		edit_diff(&df, edits[i], 0, 0);
		if (strcmp(df.changed, "p05,") != 0 || !df.snapshot)
			fail_msg("%s: changed %s, snapshot %d", edits[i],
			    df.changed, df.snapshot);
	}
	unlink(path);
}

/* The names digest (what the A-Z pages show) changes with a key, a
 * state value (also one swapped with its source), an entity's name, status, type, project, description or
 * properties, a project's name or aliases; not with a project's
 * description, a memory or an edge. */
static void
test_names_digest(void **state)
{
	static const struct {
		const char *sql;
		int names;
	} e[] = {
		{ "UPDATE project_state SET value = 'y' WHERE id = 's1'", 1 },
		{ "UPDATE entities SET description = 'd' WHERE id = 'e1'", 1 },
		{ "UPDATE project_state SET source = 'x' WHERE id = 's1'", 0 },
		/* A value swapped with a column the A-Z does not show. */
		{ "UPDATE project_state SET value = 'x', source = 'y' WHERE "
		  "id = 's1'", 1 },
		{ "UPDATE projects SET description = 'd' WHERE id = 'p06'", 0 },
		{ "UPDATE memories SET content = 'q' WHERE id = 'm1'", 0 },
		{ "DELETE FROM relationships WHERE id = 'r2'", 0 },
		{ "UPDATE project_state SET key = 'b2' WHERE id = 's1'", 1 },
		{ "UPDATE project_state SET status = 'superseded' WHERE "
		  "id = 's2'", 1 },
		{ "UPDATE entities SET name = 'Arm2' WHERE id = 'e1'", 1 },
		{ "UPDATE entities SET entity_type = 'material' WHERE "
		  "id = 'e2'", 1 },
		{ "UPDATE entities SET project = 'p06' WHERE id = 'e2'", 1 },
		{ "UPDATE projects SET name = 'P6' WHERE id = 'p06'", 1 },
		{ "UPDATE projects SET aliases = '[\"interf\"]' WHERE "
		  "id = 'p05'", 1 },
	};
	struct diff df;

	(void)state;
	make_store(base_sql);
	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
		edit_diff(&df, e[i].sql, 0, 0);
		if (df.names != e[i].names)
			fail_msg("%s: names digest %s", e[i].sql, df.names ?
			    "changed" : "did not change");
	}
	edit_diff(&df, NULL, 0, 0);
	assert_false(df.names);
	unlink(path);
}

/* An alias dropped moves its rows: both projects change. */
static void
test_alias_moves_rows(void **state)
{
	struct diff df;

	(void)state;
	make_store(base_sql);
	edit_diff(&df, "UPDATE projects SET aliases = '[\"interf\"]' WHERE "
	    "id = 'p05'", 0, 0);
	/* p5 is a project of its own now, holding s1. */
	assert_string_equal(df.changed, "p05,p5,");
	unlink(path);
}

/* An edge belongs to the projects of both ends; one to no entity, and
 * an audit row of no fact, to no project. */
static void
test_edges_and_audit(void **state)
{
	struct diff df;

	(void)state;
	make_store(base_sql);
	edit_diff(&df, "UPDATE relationships SET confidence = 0.5 WHERE "
	    "id = 'r2'", 0, 0);
	assert_string_equal(df.changed, "p05,p06,");
	edit_diff(&df, "UPDATE relationships SET confidence = 0.5 WHERE "
	    "id = 'r1'", 0, 0);
	assert_string_equal(df.changed, "p05,");
	edit_diff(&df, "UPDATE relationships SET confidence = 0.5 WHERE "
	    "id = 'r3'", 0, 0);
	assert_string_equal(df.changed, "*,");
	edit_diff(&df, "UPDATE memory_audit SET actor = 'bo' WHERE id = 'a1'",
	    0, 0);
	assert_string_equal(df.changed, "p06,");
	edit_diff(&df, "UPDATE memory_audit SET actor = 'bo' WHERE id = 'a2'",
	    0, 0);
	assert_string_equal(df.changed, "*,");
	unlink(path);
}

/* A conflict is its project's; a member is also its fact's project's,
 * with its conflict's status (which decides the fact's marker there). */
static void
test_conflicts_belong(void **state)
{
	struct diff df;

	(void)state;
	make_store(base_sql);
	edit_diff(&df, "UPDATE conflicts SET status = 'dismissed' WHERE "
	    "id = 'c1'", 0, 0);
	assert_string_equal(df.changed, "p05,p06,");
	edit_diff(&df, "UPDATE conflicts SET resolution = 'n' WHERE "
	    "id = 'c1'", 0, 0);
	assert_string_equal(df.changed, "p05,");
	edit_diff(&df, "UPDATE conflict_members SET value_snapshot = 'w' "
	    "WHERE member_id = 's2'", 0, 0);
	assert_string_equal(df.changed, "p05,p06,");
	/* An entity member belongs to its entity's project (e6's, p06),
	 * not only to the conflict's. */
	edit_diff(&df, "INSERT INTO conflict_members(conflict_id, "
	    "member_kind, member_id, member_layer_trust, value_snapshot) "
	    "VALUES ('c1', 'entity', 'e6', 2, 'Head')", 0, 0);
	assert_string_equal(df.changed, "p05,p06,");
	edit_diff(&df, "UPDATE conflict_members SET value_snapshot = 'H' "
	    "WHERE member_id = 'e6'", 0, 0);
	assert_string_equal(df.changed, "p05,p06,");
	unlink(path);
}

/*
 * A violation belongs to its project and to each of its facts' (a
 * relationship's: both ends'); its rule's label belongs to them too; a
 * rule's description is of no project; a new sweep's run of the same
 * rules changes nothing.
 */
static void
test_violations_belong(void **state)
{
	struct diff df;

	(void)state;
	make_store(base_sql);
	exec_sql("INSERT INTO rule_runs VALUES ('run1', 'r', 'a.sql:1', "
	    "'warn', 'lbl', 'desc', 'q', 'ok', '', 1, 1);");
	edit_diff(&df, "INSERT INTO rule_violations(id, rule_id, severity, "
	    "project, facts, message, detected_at) VALUES ('chk-1', 'r', "
	    "'warn', 'p05', '[\"entity:e6\"]', 'm', '2024-01-01');", 0, 0);
	assert_string_equal(df.changed, "p05,");
	edit_diff(&df, "INSERT INTO violation_facts VALUES ('chk-1', "
	    "'entity', 'e6');", 0, 0);
	assert_string_equal(df.changed, "p05,p06,");
	edit_diff(&df, "INSERT INTO violation_facts VALUES ('chk-1', "
	    "'relationship', 'r2');", 0, 0);
	assert_string_equal(df.changed, "p05,p06,");
	edit_diff(&df, "UPDATE rule_violations SET status = 'closed'", 0, 0);
	assert_string_equal(df.changed, "p05,p06,");
	edit_diff(&df, "UPDATE rule_runs SET label = 'new'", 0, 0);
	assert_string_equal(df.changed, "*,p05,p06,");
	edit_diff(&df, "UPDATE rule_runs SET description = 'new'", 0, 0);
	assert_string_equal(df.changed, "*,");
	edit_diff(&df, "INSERT INTO rule_runs VALUES ('run2', 'r', 'a.sql:1', "
	    "'warn', 'new', 'new', 'q', 'ok', '', 7, 9);", 0, 0);
	assert_string_equal(df.changed, "");
	assert_false(df.snapshot);
	unlink(path);
}

/* An edge across projects (r2: e6 of p06 to e2 of p05): each project
 * shows the other end, so its name, and its conflicts, are both's. */
static void
test_far_ends(void **state)
{
	struct diff df;

	(void)state;
	make_store(base_sql);
	edit_diff(&df, "UPDATE entities SET name = 'Pad 2' WHERE id = 'e2'",
	    0, 0);
	assert_string_equal(df.changed, "p05,p06,");
	edit_diff(&df, "UPDATE entities SET name = 'Arm 2' WHERE id = 'e1'",
	    0, 0);
	assert_string_equal(df.changed, "p05,");
	/* A conflict of p06 alone on e6: p05 shows its marker too. */
	edit_diff(&df, "INSERT INTO conflicts(id, slot_kind, slot_key, "
	    "project) VALUES ('c2', 'entity_slot', '[\"p06\",\"h\"]', 'p06');"
	    "INSERT INTO conflict_members(conflict_id, member_kind, "
	    "member_id, member_layer_trust, value_snapshot) VALUES ('c2', "
	    "'entity', 'e6', 2, 'x')", 0, 0);
	assert_string_equal(df.changed, "p05,p06,");
	edit_diff(&df, "UPDATE conflicts SET status = 'dismissed' WHERE "
	    "id = 'c2'", 0, 0);
	assert_string_equal(df.changed, "p05,p06,");
	unlink(path);
}

/* A memory expiring changes its project's digest, not the snapshot:
 * the row is the same, what the pages and the sweep make of it is not. */
static void
test_expiry_is_a_salt(void **state)
{
	time_t before, after;
	struct diff df;

	(void)state;
	make_store(base_sql);
	assert_int_equal(mirror_parse_ts(&before, "2029-12-31 23:59:59"), 0);
	assert_int_equal(mirror_parse_ts(&after, "2030-01-01 00:00:01"), 0);
	edit_diff(&df, NULL, before, after);
	assert_string_equal(df.changed, "p05,");
	assert_false(df.snapshot);
	/* A clock that moves without crossing it changes nothing. */
	edit_diff(&df, NULL, 0, before);
	assert_string_equal(df.changed, "");
	unlink(path);
}

/* f is project p05 of base_sql as facts_load reads it from st. */
static void
assert_same_p05(const struct project_facts *f, mirror_store *st)
{
	struct project_facts g;
	mirror_error err;

	assert_int_equal(facts_load(&g, st, "p05", 0, &err), 0);
	assert_int_equal(f->n_state, g.n_state);
	assert_int_equal(f->n_ent, g.n_ent);
	assert_int_equal(f->n_rel, g.n_rel);
	assert_int_equal(f->n_mem, g.n_mem);
	assert_int_equal(f->n_far, g.n_far);
	assert_int_equal(f->n_state, 1);          /* s1, filed under p5 */
	assert_string_equal(f->state[0].id, "s1");
	assert_int_equal(f->n_ent, 2);            /* e1 under interf, e2 */
	assert_int_equal(f->n_rel, 2);            /* r1, and r2 from p06 */
	for (size_t i = 0; i < f->n_rel; i++)
		assert_string_equal(f->rel[i].id, g.rel[i].id);
	facts_free(&g);
}

/* A scoped reader reads what the full one does for its projects. */
static void
test_scoped_reader(void **state)
{
	static const char *const scope[] = { "", "p05" };
	struct project_facts f;
	struct facts_reader *r;
	mirror_error err;
	mirror_store *st;

	(void)state;
	make_store(base_sql);
	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(facts_reader_open(&r, st, &(const struct facts_plan){
	    .ids = scope, .n = 2 }, &err), 0);
	assert_int_equal(facts_read_project(&f, r, "", &err), 0);
	assert_int_equal(f.n_mem, 1);
	facts_free(&f);
	assert_int_equal(facts_read_project(&f, r, "p05", &err), 0);
	assert_same_p05(&f, st);
	facts_free(&f);
	/* Out of scope: read as empty. */
	assert_int_equal(facts_read_project(&f, r, "p06", &err), 0);
	assert_int_equal(f.n_state + f.n_ent + f.n_rel + f.n_mem, 0);
	facts_free(&f);
	facts_reader_close(r);
	store_read_end(st);
	store_close(st);
	unlink(path);
}

/* A scoped check reads the scope's rows, and its projects rows. */
static void
test_check_scoped(void **state)
{
	static const char *const p05[] = { "p05" }, *const ghost[] = {
	    "ghost" }, *const p06[] = { "p06" };
	mirror_error err;
	mirror_store *st;

	(void)state;
	make_store(base_sql);
	exec_sql("INSERT INTO memories(id, memory_type, content, project) "
	    "VALUES ('m7', 'k', CAST(x'41ff' AS TEXT), 'ghost');"
	    "UPDATE projects SET name = CAST(x'ff' AS TEXT) WHERE id = 'p06'");
	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(check_scope(st, p05, NULL, &err), 0);
	assert_int_equal(check_scope(st, ghost, NULL, &err),
	    -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "memories row 'm7': content is not "
	    "valid UTF-8"));
	assert_int_equal(check_scope(st, p06, NULL, &err),
	    -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "projects row 'p06': name"));
	/* The whole check finds both. */
	assert_int_equal(facts_check(st, &(const struct facts_plan){ 0 }, &err),
	    -MIRROR_EINPUT);
	store_read_end(st);
	store_close(st);
	unlink(path);
}

/*
 * A check that keeps (facts_plan's keep) keeps what it read, the
 * no-project group too, and a reader of them hands each out as
 * facts_load reads it, once, any other project as empty; a bad row
 * keeps nothing.
 */
static void
test_check_kept(void **state)
{
	static const char *const p05[] = { "p05" }, *const ghost[] = {
	    "ghost" }, *const both[] = { "", "p05" }, *const p06[] = {
	    "p06" };
	struct facts_kept *k = NULL;
	struct project_facts f;
	struct facts_reader *r;
	mirror_error err;
	mirror_store *st;

	(void)state;
	make_store(base_sql);
	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(keep_scope(&k, st, p05, NULL, &err), 0);
	assert_non_null(k);
	assert_true(facts_kept_covers(k, both, 2));
	assert_false(facts_kept_covers(k, p06, 1));
	r = reader_of(k);
	assert_int_equal(facts_read_project(&f, r, "", &err), 0);
	assert_int_equal(f.n_mem, 1);                /* m1, of no project */
	assert_string_equal(f.mem[0].id, "m1");
	facts_free(&f);
	assert_int_equal(facts_read_project(&f, r, "p05", &err), 0);
	assert_same_p05(&f, st);
	facts_free(&f);
	/* Not kept: empty, as from a scoped reader; asked again: refused. */
	assert_int_equal(facts_read_project(&f, r, "p06", &err), 0);
	assert_int_equal(f.n_state + f.n_ent + f.n_rel + f.n_mem, 0);
	facts_free(&f);
	assert_int_equal(facts_read_project(&f, r, "p05", &err),
	    -MIRROR_EIO);
	facts_free(&f);
	facts_reader_close(r);
	/* Handed out once: what stays in the set is empty. */
	r = reader_of(k);
	assert_int_equal(facts_read_project(&f, r, "p05", &err), 0);
	assert_int_equal(f.n_state + f.n_ent + f.n_rel + f.n_mem, 0);
	facts_free(&f);
	facts_reader_close(r);
	facts_kept_free(k);
	store_read_end(st);
	/* A bad row of the scope: the check fails, nothing is kept. */
	exec_sql("INSERT INTO memories(id, memory_type, content, project) "
	    "VALUES ('m7', 'k', CAST(x'41ff' AS TEXT), 'ghost')");
	assert_int_equal(store_read_begin(st, &err), 0);
	k = (struct facts_kept *)&err;     /* any non-NULL value */
	assert_int_equal(keep_scope(&k, st, ghost, NULL, &err),
	    -MIRROR_EINPUT);
	assert_null(k);
	assert_non_null(strstr(err.msg, "memories row 'm7'"));
	store_read_end(st);
	store_close(st);
	unlink(path);
}

/*
 * With a digest that listed row ids in the same read, a keeping check
 * finds each project's rows by them: the same rows as by the project
 * column (through an alias, the edge from another project, the
 * no-project group), a bad row of the scope still refused; a digest
 * without row ids reads by the column.
 */
static void
test_check_kept_by_rowid(void **state)
{
	static const char *const p05[] = { "p05" }, *const ghost[] = {
	    "ghost" };
	struct store_digest d;
	struct facts_kept *k = NULL;
	struct project_facts f;
	struct facts_reader *r;
	mirror_error err;
	mirror_store *st;

	(void)state;
	make_store(base_sql);
	/* No table's row ids stand for another's. */
	exec_sql("UPDATE relationships SET rowid = rowid + 100;"
	    "UPDATE memories SET rowid = rowid + 200;"
	    "UPDATE project_state SET rowid = rowid + 300");
	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	for (int rows = 1; rows >= 0; rows--) {
		assert_int_equal(store_read_begin(st, &err), 0);
		assert_int_equal(facts_digest(&d, st, &(const struct
		    facts_digest_plan){ .rowids = rows }, &err), 0);
		assert_int_equal(d.keep_rowids, rows);
		assert_int_equal(keep_scope(&k, st, p05, &d, &err), 0);
		digest_drop_rowids(&d);
		r = reader_of(k);
		assert_int_equal(facts_read_project(&f, r, "", &err), 0);
		assert_int_equal(f.n_mem, 1);
		assert_string_equal(f.mem[0].id, "m1");
		facts_free(&f);
		assert_int_equal(facts_read_project(&f, r, "p05", &err), 0);
		assert_same_p05(&f, st);
		assert_int_equal(f.n_mem, 1);             /* m2 */
		assert_string_equal(f.mem[0].id, "m2");
		facts_free(&f);
		facts_reader_close(r);
		facts_kept_free(k);
		digest_free(&d);
		store_read_end(st);
	}
	/* Only the digest's rows are read: p05's rows, not p06's. */
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(facts_digest(&d, st, &(const struct facts_digest_plan){ .now = 0, .rowids = 1 }, &err), 0);
	{
		const struct project_digest *p = digest_find(&d, "p05");

		assert_non_null(p);
		assert_non_null(p->rowids);
		assert_int_equal(p->rowids->n[0], 1);     /* s1 */
		assert_int_equal(p->rowids->n[1], 2);     /* e1, e2 */
		assert_int_equal(p->rowids->n[2], 2);     /* r1, r2 */
		assert_int_equal(p->rowids->n[3], 1);     /* m2 */
	}
	digest_free(&d);
	store_read_end(st);
	exec_sql("INSERT INTO memories(id, memory_type, content, project) "
	    "VALUES ('m7', 'k', CAST(x'41ff' AS TEXT), 'ghost')");
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(facts_digest(&d, st, &(const struct facts_digest_plan){ .now = 0, .rowids = 1 }, &err), 0);
	assert_int_equal(keep_scope(&k, st, ghost, &d, &err),
	    -MIRROR_EINPUT);
	assert_null(k);
	assert_non_null(strstr(err.msg, "memories row 'm7'"));
	digest_free(&d);
	store_read_end(st);
	store_close(st);
	unlink(path);
}

/* How many row ids p lists in its list k (none without a list). */
static size_t
listed(const struct project_digest *p, int k)
{
	return p->rowids != NULL ? p->rowids->n[k] : 0;
}

/* a and b are the same digest: snapshot, loose rows, names, the health
 * counts (each table's rows, statuses in order of first sight, expired
 * memories), and every project's sum, counts, latest time and row ids
 * in order. */
static void
assert_same_digest(const struct store_digest *a, const struct store_digest *b)
{
	assert_true(a->snapshot == b->snapshot);
	assert_true(a->loose == b->loose);
	assert_true(a->names == b->names);
	assert_int_equal(a->tallied, b->tallied);
	assert_int_equal(a->expired_active, b->expired_active);
	for (int t = 0; t < DIGEST_TABLES; t++) {
		assert_int_equal(a->table_rows[t], b->table_rows[t]);
		assert_int_equal(a->tally[t].n, b->tally[t].n);
		for (size_t k = 0; k < a->tally[t].n; k++) {
			assert_string_equal(a->tally[t].v[k].value,
			    b->tally[t].v[k].value);
			assert_int_equal(a->tally[t].v[k].rows,
			    b->tally[t].v[k].rows);
		}
	}
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct project_digest *x = &a->p[i], *y = &b->p[i];

		assert_string_equal(x->project, y->project);
		assert_true(x->sum == y->sum);
		for (int c = 0; c < DIGEST_COUNTS; c++)
			assert_int_equal(x->rows[c], y->rows[c]);
		assert_int_equal(x->active, y->active);
		assert_int_equal(x->latest, y->latest);
		for (int k = 0; k < DIGEST_ROW_LISTS; k++) {
			assert_int_equal(listed(x, k), listed(y, k));
			for (size_t j = 0; j < listed(x, k); j++)
				assert_int_equal(x->rowids->v[k][j],
				    y->rowids->v[k][j]);
		}
	}
}

/* facts_digest with rowids of st at now with MIRROR_JOBS jobs, in a read of
 * its own when read (else outside any transaction) into d. */
static void
digest_jobs(struct store_digest *d, mirror_store *st, const char *jobs,
    int read)
{
	mirror_error err;

	assert_int_equal(setenv("MIRROR_JOBS", jobs, 1), 0);
	if (read)
		assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(facts_digest(d, st, &(const struct facts_digest_plan){ .now = 1700000000, .rowids = 1 }, &err), 0);
	if (read)
		store_read_end(st);
	unsetenv("MIRROR_JOBS");
}

/* The clock a digest took in parallel with its pass is facts_clock_read's at
 * the digest's time, before, between and after the memories' expiries (with
 * any_conflicts read in the caller's read); a pass on one connection takes
 * none, and facts_clock_of then leaves *out alone. */
static void
test_clock_parallel(void **state)
{
	static const char *const at[] = { "2020-01-01 00:00:00",
	    "2030-01-01 00:00:00", "2030-06-01 12:00:00",
	    "2040-01-01 00:00:00" };
	struct facts_clock want, got;
	struct store_digest d;
	mirror_error err;
	mirror_store *st;

	(void)state;
	make_store(base_sql);
	exec_sql("INSERT INTO memories(id, memory_type, content, project,"
	    " valid_until) VALUES ('m7', 'knowledge', 'later', 'p06',"
	    " '2031-01-01 00:00:00'), ('m8', 'knowledge', 'gone', 'p06',"
	    " '2001-01-01 00:00:00')");
	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	for (size_t i = 0; i < sizeof(at) / sizeof(*at); i++) {
		time_t now;

		assert_int_equal(mirror_parse_ts(&now, at[i]), 0);
		assert_int_equal(setenv("MIRROR_JOBS", "2", 1), 0);
		assert_int_equal(store_read_begin(st, &err), 0);
		assert_int_equal(facts_digest(&d, st, &(const struct facts_digest_plan){ .now = now, .rowids = 1 }, &err), 0);
		assert_int_equal(d.parallel, 4);
		assert_int_equal(facts_clock_read(&want, st, now, &err), 0);
		memset(&got, 0xa5, sizeof(got));
		assert_int_equal(facts_clock_of(&got, &d, st, &err), 1);
		store_read_end(st);
		unsetenv("MIRROR_JOBS");
		assert_int_equal(got.expired, want.expired);
		assert_true(got.after == want.after);
		assert_true(got.until == want.until);
		assert_int_equal(got.any_conflicts, want.any_conflicts);
		assert_true(got.any_conflicts);
		digest_free(&d);
	}
	/* The last but one: m8 and m2 expired, m7 not yet. */
	{
		time_t m2, m7;

		assert_int_equal(mirror_parse_ts(&m2, at[1]), 0);
		assert_int_equal(mirror_parse_ts(&m7, "2031-01-01 00:00:00"),
		    0);
		assert_int_equal(facts_clock_read(&want, st,
		    m2 + 86400 * 150, &err), 0);
		assert_int_equal(want.expired, 2);
		assert_true(want.after == (long long)m2);
		assert_true(want.until == (long long)m7);
	}
	digest_jobs(&d, st, "1", 1);
	assert_int_equal(d.parallel, 0);
	memset(&got, 0xa5, sizeof(got));
	assert_int_equal(facts_clock_of(&got, &d, st, &err), 0);
	assert_int_equal(got.expired, (long long)0xa5a5a5a5a5a5a5a5ULL);
	digest_free(&d);
	store_close(st);
	unlink(path);
}

/* What a digest's then saw: how often it ran, and on which thread. */
struct then_seen {
	int calls;
	pthread_t thread;
};

static void
then_note(void *arg)
{
	struct then_seen *seen = arg;

	seen->calls++;
	seen->thread = pthread_self();
}

/*
 * A digest with rowids and a then gives the digest with rowids alone,
 * and calls then once, on the second connection's thread, when one
 * folds in parallel (two jobs, in a read), never on one connection (one
 * job).
 */
static void
test_digest_then(void **state)
{
	struct store_digest one, two;
	struct then_seen seen = { 0 };
	const struct facts_digest_plan then_plan = { .now = 1700000000,
	    .rowids = 1, .then = then_note, .arg = &seen };
	mirror_error err;
	mirror_store *st;

	(void)state;
	make_store(base_sql);
	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	digest_jobs(&one, st, "1", 1);
	assert_int_equal(setenv("MIRROR_JOBS", "2", 1), 0);
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(facts_digest(&two, st, &then_plan, &err), 0);
	store_read_end(st);
	assert_int_equal(two.parallel, 4);
	assert_int_equal(seen.calls, 1);
	assert_false(pthread_equal(seen.thread, pthread_self()));
	assert_same_digest(&one, &two);
	digest_free(&two);
	assert_int_equal(setenv("MIRROR_JOBS", "1", 1), 0);
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(facts_digest(&two, st, &then_plan, &err), 0);
	store_read_end(st);
	unsetenv("MIRROR_JOBS");
	assert_int_equal(two.parallel, 0);
	assert_int_equal(seen.calls, 1);
	assert_same_digest(&one, &two);
	digest_free(&two);
	digest_free(&one);
	store_close(st);
	unlink(path);
}

/*
 * The fact tables a second connection folds in parallel with the others give
 * the digest one connection gives, row ids and snapshot included; it is used
 * only where its rows are sure to be the same (a read transaction of a store
 * not in WAL mode), and when it cannot open the store the first connection
 * folds everything.
 */
static void
test_digest_parallel(void **state)
{
	struct store_digest one, two;
	char moved[80];
	mirror_error err;
	mirror_store *st;

	(void)state;
	make_store(base_sql);
	exec_sql("UPDATE memories SET rowid = rowid + 200;"
	    "UPDATE project_state SET rowid = rowid + 300;"
	    "INSERT INTO project_state(id, project, category, key, value,"
	    " status, created_at, updated_at) VALUES ('s4', 'p06', 'fact',"
	    " 'k', 'w', 'superseded', '2024-01-01', '2024-03-01 10:00:00');"
	    "INSERT INTO memories(id, memory_type, content, project) VALUES"
	    " ('m3', 'knowledge', 'n', 'nowhere');"
	    /* Rows whose owners are entities (folded where the entities
	     * are, or beside them looked up there): an entity member shown
	     * as a far end, a check's entity and edge; the check's project
	     * by an alias of p05 (the aliases the first connection read). */
	    "INSERT INTO conflict_members(conflict_id, member_kind,"
	    " member_id, member_layer_trust, value_snapshot) VALUES"
	    " ('c1', 'entity', 'e6', 2, 'Head');"
	    "INSERT INTO rule_runs VALUES ('run1', 'r', 'a.sql:1', 'warn',"
	    " 'lbl', 'desc', 'q', 'ok', '', 1, 1);"
	    "INSERT INTO rule_violations(id, rule_id, severity, project,"
	    " facts, message, detected_at) VALUES ('chk-1', 'r', 'warn',"
	    " 'p5', '[\"entity:e6\"]', 'm', '2024-01-01');"
	    "INSERT INTO violation_facts VALUES ('chk-1', 'entity', 'e6'),"
	    " ('chk-1', 'relationship', 'r2')");
	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	digest_jobs(&one, st, "1", 1);
	assert_int_equal(one.parallel, 0);
	digest_jobs(&two, st, "2", 1);
	assert_int_equal(two.parallel, 4);
	assert_same_digest(&one, &two);
	/* Its count of active rows is the store's (the sweep takes it). */
	{
		long long active = 0;

		assert_int_equal(store_count(&active, st, "SELECT (SELECT "
		    "count(*) FROM project_state WHERE status = 'active') + "
		    "(SELECT count(*) FROM entities WHERE status = 'active') + "
		    "(SELECT count(*) FROM memories WHERE status = 'active')",
		    NULL, &err), 0);
		assert_int_equal(active, 9);
		assert_int_equal(digest_active(&one), active);
		assert_int_equal(digest_active(&two), active);
		/* Beside or not, the layers' statuses are counted. */
		assert_true(two.tallied);
		assert_true(two.tally[1 + FACTS_ROWS_STATE].n > 0);
		assert_true(two.tally[1 + FACTS_ROWS_MEMORIES].n > 0);
	}
	assert_int_equal(digest_find(&two, "p06")->rowids->n[0], 2);
	/* s4's time, or s2's (its default, the time of the insert). */
	assert_true(digest_find(&two, "p06")->latest >= 1709287200);
	assert_non_null(digest_find(&two, "nowhere"));
	digest_free(&two);
	/* Outside a transaction another connection may see a later commit:
	 * one connection folds all. */
	digest_jobs(&two, st, "2", 0);
	assert_int_equal(two.parallel, 0);
	assert_same_digest(&one, &two);
	digest_free(&two);
	/* The second connection cannot open the store (its file moved):
	 * the first folds its tables too. */
	snprintf(moved, sizeof(moved), "%s.moved", path);
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(rename(path, moved), 0);
	assert_int_equal(setenv("MIRROR_JOBS", "2", 1), 0);
	assert_int_equal(facts_digest(&two, st, &(const struct facts_digest_plan){ .now = 1700000000, .rowids = 1 }, &err), 0);
	unsetenv("MIRROR_JOBS");
	assert_int_equal(rename(moved, path), 0);
	store_read_end(st);
	assert_int_equal(two.parallel, 0);
	assert_same_digest(&one, &two);
	digest_free(&two);
	/* The entities' connection fails after the first folded the extra
	 * digests beside it (the conflicts', the checks' and, looked up in
	 * its entities, their facts'): those are dropped, and the first
	 * folds the entities and every extra digest itself, once. */
	facts_test_fail_entities = 1;
	digest_jobs(&two, st, "2", 1);
	facts_test_fail_entities = 0;
	assert_int_equal(two.parallel, 2);
	assert_same_digest(&one, &two);
	digest_free(&two);
	store_close(st);
	/* In WAL mode a new reader may see a later commit: one folds all. */
	exec_sql("PRAGMA journal_mode = WAL");
	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	digest_jobs(&two, st, "2", 1);
	assert_int_equal(two.parallel, 0);
	assert_same_digest(&one, &two);
	digest_free(&two);
	digest_free(&one);
	store_close(st);
	unlink(path);
}

/*
 * What the sweep would do, as a sweep does it: a digest of st as
 * facts_digest with rowids takes it before the sweep (MIRROR_JOBS jobs), then
 * sql in a write transaction on st (recorded in an undo when record),
 * then facts_digest_swept of it in a read seeing that write, which must
 * return want and give the digest taken whole in that read.
 */
static void
swept_is_whole(mirror_store *st, const char *jobs, const char *sql,
    int record, int want)
{
	struct store_undo *undo = record ? store_undo_new() : NULL;
	struct store_digest inc, whole;
	mirror_error err;

	digest_jobs(&inc, st, jobs, 1);
	assert_int_equal(sqlite3_exec(store_db(st), "BEGIN IMMEDIATE", NULL,
	    NULL, NULL), SQLITE_OK);
	assert_int_equal(store_undo_record(undo, st, &err), 0);
	assert_int_equal(sqlite3_exec(store_db(st), sql, NULL, NULL, NULL),
	    SQLITE_OK);
	assert_int_equal(store_undo_take(undo, &err), 0);
	assert_int_equal(sqlite3_exec(store_db(st), "COMMIT", NULL, NULL,
	    NULL), SQLITE_OK);
	store_undo_committed(undo);
	assert_int_equal(setenv("MIRROR_JOBS", jobs, 1), 0);
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(facts_digest_swept(&inc, st, undo, &err), want);
	unsetenv("MIRROR_JOBS");
	store_read_end(st);
	digest_jobs(&whole, st, jobs, 1);
	/* A refold lists no row of the tables the sweep writes (the
	 * scope built before it read them); the whole digest's go. */
	for (size_t i = 0; i < whole.n; i++)
		for (int k = DIGEST_ROWS_CONFLICTS; whole.p[i].rowids != NULL &&
		    k < DIGEST_ROW_LISTS; k++)
			whole.p[i].rowids->n[k] = 0;
	whole.n_unlisted = 0;
	assert_same_digest(&inc, &whole);
	assert_int_equal(inc.n_unlisted, 0);
	/* Once what it kept is dropped, there is nothing to fold over. */
	digest_refold_drop(&inc);
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(facts_digest_swept(&inc, st, undo, &err), 1);
	store_read_end(st);
	digest_free(&whole);
	digest_free(&inc);
	store_undo_free(undo);
}

/* The sweep's writes, in the order a store goes through them: a
 * conflict opened on an entity another project shows as a far end, of
 * a project no other row names; a violation of an entity and an edge
 * across projects; both closed; the new project's conflict gone; a
 * rule's label changed (in every violation's rows: all are folded
 * again); 200 conflicts of two members opened, then every member
 * changed (400 rows of 200 conflicts: fewer than the most folded one
 * by one); a write no undo recorded (all are). */
static const char *const sweep_writes[] = {
	"INSERT INTO conflicts(id, slot_kind, slot_key, project) VALUES"
	" ('c2', 'entity_slot', '[\"p06\",\"h\"]', 'p06'),"
	" ('c3', 'memory_slot', '[\"newp\",\"k\"]', 'newp');"
	"INSERT INTO conflict_members(conflict_id, member_kind, member_id,"
	" member_layer_trust, value_snapshot) VALUES"
	" ('c2', 'entity', 'e6', 2, 'x'), ('c2', 'memory', 'm2', 1, 'y'),"
	" ('c3', 'memory', 'm1', 1, 'z')",
	"INSERT INTO rule_violations(id, rule_id, severity, project, facts,"
	" message, detected_at) VALUES ('chk-2', 'r', 'warn', 'p06',"
	" '[\"entity:e6\"]', 'm', '2024-01-01');"
	"INSERT INTO violation_facts VALUES ('chk-2', 'entity', 'e6'),"
	" ('chk-2', 'relationship', 'r2')",
	"UPDATE conflicts SET status = 'dismissed' WHERE id = 'c2';"
	"UPDATE rule_violations SET status = 'closed' WHERE id = 'chk-2'",
	"DELETE FROM conflict_members WHERE conflict_id = 'c3';"
	"DELETE FROM conflicts WHERE id = 'c3'",
	"INSERT INTO rule_runs VALUES ('run2', 'r', 'a.sql:1', 'warn',"
	" 'new', 'desc', 'q', 'ok', '', 1, 1);"
	"UPDATE conflicts SET status = 'open' WHERE id = 'c2'",
	"CREATE TEMP TABLE n AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL"
	" SELECT i + 1 FROM n WHERE i < 200) SELECT i FROM n;"
	"INSERT INTO conflicts(id, slot_kind, slot_key, project) SELECT"
	" 'm' || i, 'memory_slot', '[\"p06\",\"k' || i || '\"]', 'p06'"
	" FROM temp.n;"
	"INSERT INTO conflict_members(conflict_id, member_kind, member_id,"
	" member_layer_trust, value_snapshot) SELECT 'm' || i, 'memory',"
	" m.id, 1, 'a' FROM temp.n, (SELECT 'm1' AS id UNION ALL"
	" SELECT 'm2') AS m;"
	"DROP TABLE temp.n",
	"UPDATE conflict_members SET value_snapshot = 'b' WHERE"
	" conflict_id LIKE 'm%'",
};

/* Every row of mirror's conflicts and members in st, as one text
 * (the caller frees it). */
static char *
findings_text(mirror_store *st)
{
	sqlite3_stmt *q;
	char *text;

	assert_int_equal(sqlite3_prepare_v2(store_db(st), "SELECT "
	    "coalesce((SELECT group_concat(id || status, ',') FROM conflicts),"
	    " '') || '|' || coalesce((SELECT group_concat(conflict_id || "
	    "member_id || value_snapshot, ',') FROM conflict_members), '') "
	    "|| '|' || (SELECT count(*) FROM sweep_runs)", -1, &q, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	text = strdup((const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	return text;
}

/*
 * A sweep's changes moved out of memory (store_undo_stow, as a build
 * does once its model is read) are still taken back whole by
 * store_undo_apply, and their size still tells there is something to
 * undo; which rows they touched can no longer be asked (-1: the
 * callers read everything). Stowing nothing, or NULL, is harmless.
 */
static void
test_undo_stow(void **state)
{
	struct store_undo *undo = store_undo_new();
	struct store_undo_ids ids = { 0 };
	mirror_store *st;
	mirror_error err;
	char *before, *after;
	size_t size;

	(void)state;
	store_undo_stow(NULL);
	store_undo_stow(undo);
	assert_int_equal(store_undo_size(undo), 0);
	make_store(base_sql);
	assert_int_equal(store_open(&st, path, STORE_WRITE, &err), 0);
	before = findings_text(st);
	assert_int_equal(sqlite3_exec(store_db(st), "BEGIN IMMEDIATE", NULL,
	    NULL, NULL), SQLITE_OK);
	assert_int_equal(store_undo_record(undo, st, &err), 0);
	assert_int_equal(sqlite3_exec(store_db(st), "INSERT INTO sweep_runs"
	    "(id, started_at, rules_version) VALUES ('run-s', '2024-01-01', "
	    "'1')", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(store_db(st), sweep_writes[0], NULL,
	    NULL, NULL), SQLITE_OK);
	assert_int_equal(store_undo_take(undo, &err), 0);
	assert_int_equal(sqlite3_exec(store_db(st), "COMMIT", NULL, NULL,
	    NULL), SQLITE_OK);
	store_undo_committed(undo);
	after = findings_text(st);
	assert_string_not_equal(after, before);
	assert_int_equal(store_undo_ids(&ids, undo, "conflicts",
	    "conflict_members", 0), 0);
	assert_int_equal(ids.n, 2);     /* c2 and c3 */
	store_undo_ids_free(&ids);
	size = store_undo_size(undo);
	assert_true(size > 0);

	store_undo_stow(undo);
	store_undo_stow(undo);          /* once stowed, nothing more */
	assert_int_equal(store_undo_size(undo), size);
	assert_int_equal(store_undo_ids(&ids, undo, "conflicts",
	    "conflict_members", 0), -1);
	store_undo_ids_free(&ids);
	free(after);
	after = findings_text(st);      /* stowing changes no row */
	assert_string_not_equal(after, before);
	assert_int_equal(store_undo_apply(undo, st, "run-s", &err), 1);
	assert_int_equal(store_undo_size(undo), 0);
	free(after);
	after = findings_text(st);
	assert_string_equal(after, before);
	free(after);
	free(before);
	store_undo_free(undo);
	store_close(st);
	unlink(path);
}

/*
 * A sweep's writes folded again over the digest taken before them
 * (facts_digest_swept) give the digest taken whole after them: every
 * project's sum, the loose rows and the snapshot, on one connection or
 * two, for a conflict opened and closed, a violation opened and
 * closed, a project only a conflict named that goes with it, a rule's
 * label changed; and when no undo tells what changed.
 */
static void
test_digest_swept(void **state)
{
	static const char *const jobs[] = { "1", "2" };
	mirror_store *st;
	mirror_error err;

	(void)state;
	for (size_t j = 0; j < sizeof(jobs) / sizeof(*jobs); j++) {
		make_store(base_sql);
		exec_sql("INSERT INTO rule_runs VALUES ('run1', 'r', "
		    "'a.sql:1', 'warn', 'lbl', 'desc', 'q', 'ok', '', 1, 1);"
		    "INSERT INTO rule_violations(id, rule_id, severity, "
		    "project, facts, message, detected_at) VALUES ('chk-1', "
		    "'r', 'warn', 'p05', '[\"entity:e1\"]', 'm', "
		    "'2024-01-01');"
		    "INSERT INTO violation_facts VALUES ('chk-1', 'entity', "
		    "'e1')");
		assert_int_equal(store_open(&st, path, STORE_WRITE, &err), 0);
		for (size_t i = 0; i < sizeof(sweep_writes) /
		    sizeof(*sweep_writes); i++)
			swept_is_whole(st, jobs[j], sweep_writes[i], 1, 0);
		swept_is_whole(st, jobs[j], "UPDATE conflicts SET status = "
		    "'resolved' WHERE id = 'c1'", 0, 0);
		store_close(st);
		unlink(path);
	}
}

/* What a parallel work saw: its connection, its count of state rows. */
struct parallel_seen {
	mirror_store *st;
	long long rows;
	int fail;               /* 1: fail as a bad row would */
};

/* A store_parallel_fn: count project_state on st, or fail. */
static int
count_parallel(void *arg, mirror_store *st, mirror_error *err)
{
	struct parallel_seen *b = arg;

	b->st = st;
	if (b->fail)
		return mirror_fail(err, MIRROR_EINPUT, "store %s: a bad row",
		    store_path(st));
	return store_count(&b->rows, st, "SELECT count(*) FROM "
	    "main.project_state", NULL, err);
}

/* A read of st begun, then a writer that has added state row id in a
 * transaction it has not committed. Returns the writer's connection. */
static sqlite3 *
writer_during_read(mirror_store *st, const char *id)
{
	mirror_error err;
	char sql[200];
	sqlite3 *w;

	snprintf(sql, sizeof(sql), "BEGIN IMMEDIATE; INSERT INTO "
	    "project_state(id, project, category, key, value) VALUES "
	    "('%s', 'p06', 'fact', '%s', 'v')", id, id);
	assert_int_equal(sqlite3_open(path, &w), SQLITE_OK);
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(sqlite3_exec(w, sql, NULL, NULL, NULL), SQLITE_OK);
	return w;
}

/* SIGALRM: the parallel connection waited on a lock (test_store_parallel). */
static void
waited(int sig)
{
	static const char msg[] = "test_store_parallel: the parallel "
	    "connection waited for a writer's lock\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

/* store_parallel_start with MIRROR_JOBS jobs on st, in a read of st when
 * read; then a commit of another connection, which the work must not
 * see; then the join: its answer, *rc and what the work saw. */
static int
parallel_run(struct parallel_seen *seen, int *rc, mirror_error *err,
    mirror_store *st, const char *jobs, int read)
{
	struct store_parallel *b;
	int ran;

	assert_int_equal(setenv("MIRROR_JOBS", jobs, 1), 0);
	if (read)
		assert_int_equal(store_read_begin(st, err), 0);
	b = store_parallel_start(st, count_parallel, seen);
	unsetenv("MIRROR_JOBS");
	ran = store_parallel_join(b, rc, err);
	if (read)
		store_read_end(st);
	return ran;
}

/* A store_parallel_fn: count project_state on st as count_parallel,
 * and whether st was used before (a temp table this work leaves on its
 * connection) into fail's place: seen->fail 1 fails after marking. */
static int
mark_parallel(void *arg, mirror_store *st, mirror_error *err)
{
	struct parallel_seen *b = arg;
	long long marked = 0;
	int rc;

	rc = store_count(&marked, st, "SELECT count(*) FROM "
	    "temp.sqlite_schema WHERE name = 'spare_mark'", NULL, err);
	if (rc == 0 && marked == 0)
		rc = sqlite3_exec(store_db(st), "CREATE TEMP TABLE spare_mark(x)",
		    NULL, NULL, NULL) == SQLITE_OK ? 0 : -MIRROR_EIO;
	if (rc < 0)
		return rc;
	if (b->fail)
		return mirror_fail(err, MIRROR_EINPUT, "a bad row");
	b->fail = marked ? 2 : 0;
	return store_count(&b->rows, st, "SELECT count(*) FROM "
	    "main.project_state", NULL, err);
}

/* mark_parallel on a second connection beside st's read: its rows into
 * *rows; returns 1 when its connection had done a work before, 0 when
 * new, -1 when the work failed (fail). */
static int
spare_run(mirror_store *st, long long *rows, int fail)
{
	struct parallel_seen seen = { .fail = fail };
	struct store_parallel *b;
	mirror_error err;
	int rc;

	assert_int_equal(setenv("MIRROR_JOBS", "2", 1), 0);
	b = store_parallel_start(st, mark_parallel, &seen);
	unsetenv("MIRROR_JOBS");
	assert_non_null(b);
	assert_int_equal(store_parallel_join(b, &rc, &err), 1);
	*rows = seen.rows;
	return rc < 0 ? -1 : seen.fail == 2;
}

/* A second connection whose work ended well is the next work's in the
 * same read (reading the read's rows); one whose work failed is not
 * kept; a new read drops them, and its work reads a commit made in
 * between. */
static void
test_store_spares(void **state)
{
	mirror_error err;
	mirror_store *st;
	long long rows;
	sqlite3 *w;

	(void)state;
	make_store(base_sql);
	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	w = writer_during_read(st, "s9");
	assert_int_equal(spare_run(st, &rows, 0), 0);
	assert_int_equal(rows, 3);
	assert_int_equal(spare_run(st, &rows, 0), 1);
	assert_int_equal(rows, 3);
	assert_int_equal(spare_run(st, &rows, 1), -1);
	assert_int_equal(spare_run(st, &rows, 0), 0);
	assert_int_equal(sqlite3_exec(w, "COMMIT", NULL, NULL, NULL),
	    SQLITE_BUSY);
	store_read_end(st);
	assert_int_equal(sqlite3_exec(w, "COMMIT", NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(w);
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(spare_run(st, &rows, 0), 0);
	assert_int_equal(rows, 4);
	assert_int_equal(spare_run(st, &rows, 0), 1);
	store_read_end(st);
	store_close(st);
	unlink(path);
}

/*
 * Work in parallel with a read runs on a connection of its own and reads that
 * read's rows, its error comes back; it does not start outside a read,
 * on one core or in WAL mode, and says it did not run when its
 * connection cannot open: the caller then does the work itself.
 */
static void
test_store_parallel(void **state)
{
	struct parallel_seen seen;
	char moved[80];
	mirror_error err;
	mirror_store *st;
	int rc;

	(void)state;
	make_store(base_sql);
	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(parallel_run(&seen, &rc, &err, st, "2", 1), 1);
	assert_int_equal(rc, 0);
	assert_non_null(seen.st);
	assert_true(seen.st != st);
	assert_int_equal(seen.rows, 3);
	seen.fail = 1;
	assert_int_equal(parallel_run(&seen, &rc, &err, st, "2", 1), 1);
	assert_int_equal(rc, -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "a bad row"));
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(parallel_run(&seen, &rc, &err, st, "2", 0), 0);
	assert_int_equal(parallel_run(&seen, &rc, &err, st, "1", 1), 0);
	assert_null(seen.st);
	assert_int_equal(store_parallel_join(NULL, &rc, &err), 0);
	/* A writer with a row to add cannot commit while the read lasts:
	 * the work reads the read's rows, the row comes after. */
	{
		sqlite3 *w = writer_during_read(st, "s9");
		struct store_parallel *b;

		assert_int_equal(setenv("MIRROR_JOBS", "2", 1), 0);
		b = store_parallel_start(st, count_parallel, &seen);
		unsetenv("MIRROR_JOBS");
		assert_non_null(b);
		assert_int_equal(store_parallel_join(b, &rc, &err), 1);
		assert_int_equal(seen.rows, 3);
		assert_int_equal(sqlite3_exec(w, "COMMIT", NULL, NULL, NULL),
		    SQLITE_BUSY);
		store_read_end(st);
		assert_int_equal(sqlite3_exec(w, "COMMIT", NULL, NULL, NULL),
		    SQLITE_OK);
		sqlite3_close(w);
		assert_int_equal(parallel_run(&seen, &rc, &err, st, "2", 1),
		    1);
		assert_int_equal(seen.rows, 4);
	}
	/* A writer waiting to commit holds SQLite's PENDING lock and waits
	 * for the read, which waits for the work: the parallel connection
	 * must not wait for the writer, however long the busy timeout, and
	 * the caller does the work. (The alarm turns a wait into a
	 * failure.) */
	{
		struct store_parallel *b;
		sqlite3 *w;

		assert_int_equal(setenv("MIRROR_BUSY_TIMEOUT_MS", "600000", 1),
		    0);
		w = writer_during_read(st, "s10");
		assert_int_equal(sqlite3_exec(w, "COMMIT", NULL, NULL, NULL),
		    SQLITE_BUSY);
		memset(&seen, 0, sizeof(seen));
		signal(SIGALRM, waited);
		alarm(60);
		assert_int_equal(setenv("MIRROR_JOBS", "2", 1), 0);
		b = store_parallel_start(st, count_parallel, &seen);
		unsetenv("MIRROR_JOBS");
		assert_non_null(b);
		assert_int_equal(store_parallel_join(b, &rc, &err), 0);
		alarm(0);
		assert_null(seen.st);
		store_read_end(st);
		assert_int_equal(sqlite3_exec(w, "COMMIT", NULL, NULL, NULL),
		    SQLITE_OK);
		sqlite3_close(w);
		unsetenv("MIRROR_BUSY_TIMEOUT_MS");
	}
	/* The file moved away: the parallel connection cannot open. */
	snprintf(moved, sizeof(moved), "%s.moved", path);
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(rename(path, moved), 0);
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(setenv("MIRROR_JOBS", "2", 1), 0);
	{
		struct store_parallel *b = store_parallel_start(st,
		    count_parallel, &seen);

		unsetenv("MIRROR_JOBS");
		assert_int_equal(store_parallel_join(b, &rc, &err), 0);
	}
	assert_int_equal(rename(moved, path), 0);
	store_read_end(st);
	assert_null(seen.st);
	store_close(st);
	exec_sql("PRAGMA journal_mode = WAL");
	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	assert_int_equal(parallel_run(&seen, &rc, &err, st, "2", 1), 0);
	assert_null(seen.st);
	store_close(st);
	unlink(path);
}

/* The store's print in a read of its own into out; returns store_print's
 * answer. */
static int
print_of(char out[STORE_PRINT_SIZE])
{
	mirror_error err;
	mirror_store *st;
	int rc;

	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	assert_int_equal(store_read_begin(st, &err), 0);
	rc = store_print(out, st);
	store_read_end(st);
	store_close(st);
	return rc;
}

/* 13: the file print: the same while nothing writes; another after any
 * commit (a value set back to what it was too) or a copy put in the
 * file's place; none for a WAL store, whose file cannot vouch. */
static void
test_store_print(void **state)
{
	char a[STORE_PRINT_SIZE], b[STORE_PRINT_SIZE], cmd[512];
	int n;

	(void)state;
	make_store(base_sql);
	assert_int_equal(print_of(a), 1);
	assert_int_equal(strlen(a), 16);
	assert_int_equal(print_of(b), 1);
	assert_string_equal(a, b);
	/* At once, in the same second and size: the counter tells. */
	exec_sql("UPDATE project_state SET value = 'y' WHERE id = 's1'");
	assert_int_equal(print_of(b), 1);
	assert_string_not_equal(a, b);
	exec_sql("UPDATE project_state SET value = 'x' WHERE id = 's1'");
	assert_int_equal(print_of(a), 1);
	assert_string_not_equal(a, b);
	/* A copy in its place, times kept (cp -p): another file. */
	n = snprintf(cmd, sizeof(cmd), "cp -p %s %s.copy && mv %s.copy %s",
	    path, path, path, path);
	assert_true(n > 0 && (size_t)n < sizeof(cmd));
	assert_int_equal(system(cmd), 0);
	assert_int_equal(print_of(b), 1);
	assert_string_not_equal(a, b);
	exec_sql("PRAGMA journal_mode = WAL");
	assert_int_equal(print_of(a), 0);
	assert_string_equal(a, "");
	unlink(path);
}

/* A memo of snapshot snap and a clock made of the numbers given. */
static struct store_memo
memo_of(const char *snap, long long expired, int any, long long after,
    long long until)
{
	struct store_memo m;

	memset(&m, 0, sizeof(m));
	snprintf(m.snapshot, sizeof(m.snapshot), "%s", snap);
	m.clock.expired = expired;
	m.clock.any_conflicts = any;
	m.clock.after = after;
	m.clock.until = until;
	return m;
}

/* Replace the one memo file under dir with the bytes of text. */
static void
memo_overwrite(const char *dir, const char *text)
{
	char cmd[512];
	int n;

	n = snprintf(cmd, sizeof(cmd), "f=$(find %s -type f) && "
	    "printf '%s' > $f", dir, text);
	assert_true(n > 0 && (size_t)n < sizeof(cmd));
	assert_int_equal(system(cmd), 0);
}

/* 14: the memo of what a print vouched for, in the cache the
 * environment names: kept and found for the same store and print only,
 * with its clock as it was put (the unbounded ends too), replaced by
 * the next, never read through a link or when damaged, and no memo at
 * all when no cache can be written. */
static void
test_memo(void **state)
{
	/* Not memos: a short snapshot, the old form without a clock, no
	 * newline, a flag of 2, a negative count, an empty window, a
	 * number with a tail, a second line, a number past long long. */
	static const char *const damaged[] = {
		"1111111111111111 22222222222222\\n",
		"1111111111111111 2222222222222222\\n",
		"1111111111111111 2222222222222222 0 0 1 2",
		"1111111111111111 2222222222222222 0 2 1 2\\n",
		"1111111111111111 2222222222222222 -1 0 1 2\\n",
		"1111111111111111 2222222222222222 0 0 2 2\\n",
		"1111111111111111 2222222222222222 0 0 1 2x\\n",
		"1111111111111111 2222222222222222 0 0 1 2\\n0\\n",
		"1111111111111111 2222222222222222 0 0 1 "
		    "99999999999999999999\\n",
	};
	struct store_memo m, got;
	char dir[64], file[256], cmd[512];
	FILE *f;
	int n;

	(void)state;
	make_store(base_sql);
	n = snprintf(dir, sizeof(dir), "/tmp/test_memo.%ld", (long)getpid());
	assert_true(n > 0 && (size_t)n < sizeof(dir));
	setenv("MIRROR_CACHE_DIR", dir, 1);
	assert_int_equal(memo_get(&got, path, "0123456789abcdef"), 0);
	assert_string_equal(got.snapshot, "");
	m = memo_of("fedcba9876543210", 7, 1, -5, 1700000000);
	memo_put(path, "0123456789abcdef", &m);
	assert_int_equal(memo_get(&got, path, "0123456789abcdef"), 1);
	assert_string_equal(got.snapshot, "fedcba9876543210");
	assert_int_equal(got.clock.expired, 7);
	assert_int_equal(got.clock.any_conflicts, 1);
	assert_true(got.clock.after == -5);
	assert_true(got.clock.until == 1700000000);
	/* Another print, another store: no memo. */
	assert_int_equal(memo_get(&got, path, "0123456789abcdee"), 0);
	assert_int_equal(memo_get(&got, "/etc/hostname", "0123456789abcdef"),
	    0);
	/* The store's real path names it: another way to it finds it. */
	n = snprintf(file, sizeof(file), "/tmp/../tmp/%s", path + 5);
	assert_true(n > 0 && (size_t)n < sizeof(file));
	assert_int_equal(memo_get(&got, file, "0123456789abcdef"), 1);
	/* The next memo replaces it, its unbounded clock whole; a bad one
	 * is not kept. */
	m = memo_of("2222222222222222", 0, 0, LLONG_MIN, LLONG_MAX);
	memo_put(path, "1111111111111111", &m);
	assert_int_equal(memo_get(&got, path, "0123456789abcdef"), 0);
	assert_int_equal(memo_get(&got, path, "1111111111111111"), 1);
	assert_true(got.clock.after == LLONG_MIN);
	assert_true(got.clock.until == LLONG_MAX);
	assert_int_equal(got.clock.any_conflicts, 0);
	m = memo_of("not a snapshot!!", 0, 0, 1, 2);
	memo_put(path, "1111111111111111", &m);
	assert_int_equal(memo_get(&got, path, "1111111111111111"), 1);
	assert_string_equal(got.snapshot, "2222222222222222");
	/* One file, 0700 directories, no temporary left. */
	n = snprintf(cmd, sizeof(cmd), "test $(find %s -type f | wc -l) = 1 && "
	    "test $(stat -c %%a %s/stores) = 700", dir, dir);
	assert_true(n > 0 && (size_t)n < sizeof(cmd));
	assert_int_equal(system(cmd), 0);
	/* Written by hand it is read; damaged, or a link in its place: no
	 * memo. */
	memo_overwrite(dir, "1111111111111111 2222222222222222 0 0 1 2\\n");
	assert_int_equal(memo_get(&got, path, "1111111111111111"), 1);
	for (size_t i = 0; i < sizeof(damaged) / sizeof(damaged[0]); i++) {
		memo_overwrite(dir, damaged[i]);
		assert_int_equal(memo_get(&got, path, "1111111111111111"), 0);
	}
	assert_string_equal(got.snapshot, "");
	n = snprintf(cmd, sizeof(cmd), "f=$(find %s -type f) && "
	    "printf '1111111111111111 2222222222222222 0 0 1 2\\n' > "
	    "%s/elsewhere && ln -sf %s/elsewhere $f", dir, dir, dir);
	assert_true(n > 0 && (size_t)n < sizeof(cmd));
	assert_int_equal(system(cmd), 0);
	assert_int_equal(memo_get(&got, path, "1111111111111111"), 0);
	/* XDG_CACHE_HOME when MIRROR_CACHE_DIR is unset or empty. */
	setenv("MIRROR_CACHE_DIR", "", 1);
	setenv("XDG_CACHE_HOME", dir, 1);
	m = memo_of("4444444444444444", 0, 0, 1, 2);
	memo_put(path, "3333333333333333", &m);
	n = snprintf(file, sizeof(file), "%s/mirror/stores", dir);
	assert_true(n > 0 && (size_t)n < sizeof(file));
	f = fopen(file, "r");
	assert_non_null(f);         /* a directory opens for reading */
	fclose(f);
	assert_int_equal(memo_get(&got, path, "3333333333333333"), 1);
	/* No cache that can be written: nothing kept, nothing found. */
	unsetenv("XDG_CACHE_HOME");
	setenv("MIRROR_CACHE_DIR", "/proc/no-cache-here", 1);
	m = memo_of("6666666666666666", 0, 0, 1, 2);
	memo_put(path, "5555555555555555", &m);
	assert_int_equal(memo_get(&got, path, "5555555555555555"), 0);
	unsetenv("MIRROR_CACHE_DIR");
	n = snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_true(n > 0 && (size_t)n < sizeof(cmd));
	assert_int_equal(system(cmd), 0);
	unlink(path);
}

/* facts_digest of st at now on two connections, in a read, listing row
 * ids when rowids: whole, or taking what earlier digests kept (facts.c's
 * kept folds); the fact tables it took into *took. */
static void
digest_kept_at(struct store_digest *d, mirror_store *st, time_t now,
    int whole, int rowids, unsigned long long *took)
{
	unsigned long long before = work_get(&work_tables_kept);
	mirror_error err;

	assert_int_equal(setenv("MIRROR_JOBS", "2", 1), 0);
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(facts_digest(d, st, &(const struct facts_digest_plan){
	    .now = now, .rowids = rowids, .whole = whole }, &err), 0);
	store_read_end(st);
	unsetenv("MIRROR_JOBS");
	*took = work_get(&work_tables_kept) - before;
}

/* sql on the store at path, then a digest taking kept folds at now and
 * a whole one, listing row ids when rowids: the same digest, and the
 * first took want tables. */
static void
kept_listed(const char *sql, time_t now, int rowids, unsigned long long want)
{
	struct store_digest kept, whole;
	unsigned long long took, none;
	mirror_error err;
	mirror_store *st;

	if (sql != NULL)
		exec_sql(sql);
	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	digest_kept_at(&kept, st, now, 0, rowids, &took);
	digest_kept_at(&whole, st, now, 1, rowids, &none);
	assert_int_equal(none, 0);
	assert_same_digest(&kept, &whole);
	assert_int_equal(kept.parallel, whole.parallel);
	assert_int_equal(took, want);
	digest_free(&kept);
	digest_free(&whole);
	store_close(st);
}

/* kept_listed, listing row ids. */
static void
kept_after(const char *sql, time_t now, unsigned long long want)
{
	kept_listed(sql, now, 1, want);
}

/*
 * A digest that takes the folds of the fact tables an earlier digest of
 * the same store kept (their versions unchanged: store.h) is
 * the digest that reads them: after a write to each table (it alone is
 * read again; the entities and their edges go together), an alias
 * changed (all read), a memory's expiry passed (the memories read), and
 * when the versions cannot be trusted (a trigger missing, or not
 * mirror's: all read).
 */
static void
test_digest_kept(void **state)
{
	char dir[] = "/tmp/test_digest_kept.XXXXXX", cmd[64];
	const time_t now = 1700000000, later = 1900000000;
	int n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(setenv("MIRROR_CACHE_DIR", dir, 1), 0);
	make_store(base_sql);
	kept_after(NULL, now, 0);       /* none kept yet */
	kept_after(NULL, now, 4);       /* all kept, none changed */
	/* Kept with row ids or not, a fold serves a digest either way. */
	kept_listed("UPDATE entities SET name = 'Arm1' WHERE id = 'e1'", now,
	    0, 2);
	kept_listed(NULL, now, 0, 4);
	kept_after(NULL, now, 4);
	kept_after("UPDATE project_state SET value = 'y' WHERE id = 's1'",
	    now, 3);
	kept_after("UPDATE entities SET name = 'Arm2' WHERE id = 'e1'", now, 2);
	kept_after("INSERT INTO relationships(id, source_entity_id,"
	    " target_entity_id, relationship_type) VALUES ('r4', 'e1', 'e6',"
	    " 'part_of')", now, 2);
	kept_after("DELETE FROM memories WHERE id = 'm1'", now, 3);
	kept_after("UPDATE projects SET aliases = '[\"p5\"]' WHERE id = 'p05'",
	    now, 0);
	kept_after(NULL, now, 4);
	/* m2 expires in 2030: its fold at 2023 does not hold in 2030. */
	kept_after(NULL, later, 3);
	kept_after(NULL, later, 4);
	kept_after("DROP TRIGGER mirror_version_memories_update", now, 0);
	kept_after("UPDATE memories SET content = 'j' WHERE id = 'm2'", now, 0);
	kept_after("CREATE TRIGGER mirror_version_memories_update AFTER UPDATE"
	    " ON memories BEGIN SELECT 1; END", now, 0);
	unsetenv("MIRROR_CACHE_DIR");
	n = snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_true(n > 0 && (size_t)n < sizeof(cmd));
	assert_int_equal(system(cmd), 0);
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot_and_projects),
		cmocka_unit_test(test_rows_belong),
		cmocka_unit_test(test_column_bounds),
		cmocka_unit_test(test_alias_moves_rows),
		cmocka_unit_test(test_names_digest),
		cmocka_unit_test(test_edges_and_audit),
		cmocka_unit_test(test_conflicts_belong),
		cmocka_unit_test(test_violations_belong),
		cmocka_unit_test(test_far_ends),
		cmocka_unit_test(test_expiry_is_a_salt),
		cmocka_unit_test(test_scoped_reader),
		cmocka_unit_test(test_check_scoped),
		cmocka_unit_test(test_check_kept),
		cmocka_unit_test(test_check_kept_by_rowid),
		cmocka_unit_test(test_digest_parallel),
		cmocka_unit_test(test_digest_swept),
		cmocka_unit_test(test_undo_stow),
		cmocka_unit_test(test_clock_parallel),
		cmocka_unit_test(test_digest_then),
		cmocka_unit_test(test_store_parallel),
		cmocka_unit_test(test_store_spares),
		cmocka_unit_test(test_store_print),
		cmocka_unit_test(test_memo),
		cmocka_unit_test(test_digest_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
