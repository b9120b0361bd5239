/*
 * test_boundaries.c: every comparison in core/ that decides membership,
 * trust, time or validity, tested at its boundary: the value itself and
 * the values on either side. Each test names the mutants it answers
 * (tests/mutants/NN-*.patch: apply one, and the named test must fail).
 *
 * The stores are real files in one scratch directory; "now" is NOW
 * ("2023-11-14 22:13:20") unless a test says otherwise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>


#include "scratch.h"
#include "store/digest.h"
#include "store/facts.h"
#include "store/store.h"
#include "store/storerow.h"
#include "sweep/conflict.h"
#include "sweep/health.h"
#include "sweep/normalize.h"
#include "sweep/sweep.h"
#include "sys/clock.h"
#include "sys/env.h"

#define NOW ((time_t)1700000000)
#define NOW_TS "2023-11-14 22:13:20"
#define NOW_M1 "2023-11-14 22:13:19"         /* one second before */
#define NOW_P1 "2023-11-14 22:13:21"         /* one second after */

static const char store_path_[] = "b.db";

/* ---- helpers ----------------------------------------------------------- */

SCRATCH_FIXTURES(group_setup, group_teardown, "boundaries")

/* Run sql on the store file with a plain connection (as the store's
 * owner would), or fail the test. */
static void
raw_sql(const char *sql)
{
	sqlite3 *db;
	char *msg = NULL;
	int rc;

	assert_int_equal(sqlite3_open(store_path_, &db), SQLITE_OK);
	rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK)
		fail_msg("sql: %s: %s", sql, msg ? msg : "?");
	sqlite3_close(db);
}

/* A new store b.db with sql applied. */
static void
fresh(const char *sql)
{
	mirror_error err;

	unlink(store_path_);
	assert_int_equal(store_create(store_path_, &err), 0);
	if (sql != NULL)
		raw_sql(sql);
}

static mirror_store *
open_write(void)
{
	mirror_store *st;
	mirror_error err;

	if (store_open(&st, store_path_, STORE_WRITE, &err) < 0)
		fail_msg("store_open: %s", err.msg);
	return st;
}

static void
sweep_at(mirror_store *st, time_t now)
{
	struct sweep_run run;
	mirror_error err;

	if (sweep_run(&run, st, now, &err) < 0)
		fail_msg("sweep: %s", err.msg);
}

/* The first column of sql's rows joined by ' ' ("" for none). The
 * result lives until the next call. */
static const char *
q(mirror_store *st, const char *sql)
{
	static char buf[4096];
	sqlite3_stmt *s = NULL;
	size_t n = 0;

	buf[0] = '\0';
	if (sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("prepare: %s: %s", sql, sqlite3_errmsg(store_db(st)));
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);
		int w = snprintf(buf + n, sizeof(buf) - n, "%s%s",
		    n ? " " : "", t ? t : "NULL");

		assert_true(w >= 0 && (size_t)w < sizeof(buf) - n);
		n += (size_t)w;
	}
	sqlite3_finalize(s);
	return buf;
}

/* "slot_kind|slot_key|members,sorted" of every open conflict, sorted. */
#define OPEN_CONFLICTS \
	"SELECT c.slot_kind || '|' || c.slot_key || '|' || (SELECT " \
	"group_concat(mid, ',') FROM (SELECT member_id AS mid FROM " \
	"conflict_members WHERE conflict_id = c.id ORDER BY 1)) FROM " \
	"conflicts c WHERE c.status = 'open' ORDER BY 1"

/* A decision entity row (id, target, field, value, extra JSON members). */
#define DECISION(id, proj, target, value, extra) \
	"('" id "', 'decision', 'd', '" proj "', '{\"target\":\"" target \
	"\",\"field\":\"type\",\"value\":\"" value "\"" extra "}')"

#define ENT_INSERT \
	"INSERT INTO entities(id, entity_type, name, project, properties) " \
	"VALUES "

/* ---- 01: candidates (and other inactive rows) take no part ------------- */

/*
 * SPEC 3.1: a row takes part when its status is active; candidates,
 * superseded, invalid and graduated rows never make a conflict. One slot
 * per layer, each holding an active row and inactive rows that disagree
 * with it; then one inactive row per slot is made active, and only then
 * does that slot conflict (so the slot itself is a conflicting one).
 *
 * Catches: 01-sweep-entity-candidates (sweep.c entity scan takes
 * 'candidate' rows too), 08-sweep-state-status ('invalid' state rows),
 * 09-sweep-memory-status ('graduated' memories); also the edge scan
 * without its material or component status, and the memory scan of
 * stores without valid_until taking inactive rows.
 */
static void
test_inactive_rows_take_no_part(void **state)
{
	mirror_store *st;

	(void)state;
	fresh("INSERT INTO project_state(id, project, category, key, value, "
	    "status) VALUES ('s-act', 'p', 'fact', 'colour', 'red', 'active'),"
	    " ('s-sup', 'p', 'fact', 'colour', 'blue', 'superseded'),"
	    " ('s-inv', 'p', 'fact', 'colour', 'green', 'invalid');"
	    "INSERT INTO entities(id, entity_type, name, project, properties, "
	    "status) VALUES"
	    " ('e-act', 'decision', 'g', 'p', '{\"target\":\"gasket\","
	    "\"field\":\"type\",\"value\":\"viton\"}', 'active'),"
	    " ('e-cand', 'decision', 'g', 'p', '{\"target\":\"gasket\","
	    "\"field\":\"type\",\"value\":\"nitrile\"}', 'candidate'),"
	    " ('e-sup', 'decision', 'g', 'p', '{\"target\":\"gasket\","
	    "\"field\":\"type\",\"value\":\"epdm\"}', 'superseded'),"
	    " ('e-inv', 'decision', 'g', 'p', '{\"target\":\"gasket\","
	    "\"field\":\"type\",\"value\":\"fkm\"}', 'invalid'),"
	    /* A component's uses_material edges: one to a candidate
	     * material; another component, a candidate, with two. */
	    " ('c-cell', 'component', 'Cell', 'p', '{}', 'active'),"
	    " ('c-arm', 'component', 'Arm', 'p', '{}', 'candidate'),"
	    " ('mat-a', 'material', 'Invar', 'p', '{}', 'active'),"
	    " ('mat-b', 'material', 'Steel', 'p', '{}', 'candidate'),"
	    " ('mat-c', 'material', 'Brass', 'p', '{}', 'active');"
	    "INSERT INTO relationships(id, source_entity_id, target_entity_id, "
	    "relationship_type) VALUES ('r1', 'c-cell', 'mat-a', "
	    "'uses_material'), ('r2', 'c-cell', 'mat-b', 'uses_material'),"
	    " ('r3', 'c-arm', 'mat-a', 'uses_material'),"
	    " ('r4', 'c-arm', 'mat-c', 'uses_material');"
	    "INSERT INTO memories(id, memory_type, content, project, status) "
	    "VALUES ('m-act', 'preference', 'prefers rebase workflow', 'p', "
	    "'active'),"
	    " ('m-cand', 'preference', 'prefers merge workflow', 'p', "
	    "'candidate'),"
	    " ('m-sup', 'preference', 'prefers squash workflow', 'p', "
	    "'superseded'),"
	    " ('m-inv', 'preference', 'prefers patch workflow', 'p', "
	    "'invalid'),"
	    " ('m-grad', 'preference', 'prefers stacked workflow', 'p', "
	    "'graduated');");
	st = open_write();
	sweep_at(st, NOW);
	assert_string_equal(q(st, OPEN_CONFLICTS), "");

	/* Each slot does conflict once a second row is active. */
	assert_int_equal(sqlite3_exec(store_db(st), "UPDATE entities SET "
	    "status = 'active' WHERE id = 'e-cand'", NULL, NULL, NULL),
	    SQLITE_OK);
	sweep_at(st, NOW);
	assert_string_equal(q(st, OPEN_CONFLICTS),
	    "entity_slot|[\"p\",\"decision\",\"gasket\",\"type\"]|e-act,e-cand");
	assert_int_equal(sqlite3_exec(store_db(st), "UPDATE project_state SET "
	    "status = 'active' WHERE id = 's-sup'; UPDATE memories SET "
	    "status = 'active' WHERE id = 'm-grad'; UPDATE entities SET "
	    "status = 'active' WHERE id = 'mat-b'", NULL, NULL, NULL),
	    SQLITE_OK);
	sweep_at(st, NOW);
	assert_string_equal(q(st, OPEN_CONFLICTS),
	    "cross_layer|[\"p\",\"colour\"]|s-act,s-sup "
	    "entity_slot|[\"p\",\"decision\",\"gasket\",\"type\"]|e-act,e-cand "
	    "entity_slot|[\"p\",\"material\",\"cell\"]|mat-a,mat-b "
	    "memory_slot|[\"p\",\"preference\",\"workflow\"]|m-act,m-grad");
	store_close(st);

	/* A store without the optional memories.valid_until is read by
	 * another query: the same filter. */
	fresh("ALTER TABLE memories DROP COLUMN valid_until;"
	    "INSERT INTO memories(id, memory_type, content, project, status) "
	    "VALUES ('m-act', 'preference', 'prefers rebase workflow', 'p', "
	    "'active'),"
	    " ('m-cand', 'preference', 'prefers merge workflow', 'p', "
	    "'candidate');");
	st = open_write();
	sweep_at(st, NOW);
	assert_string_equal(q(st, OPEN_CONFLICTS), "");
	store_close(st);
}

/* ---- 02: conflicts_with points up the trust order only ---------------- */

/*
 * SPEC 3.4: every lower-trust member records conflicts_with = the
 * highest-trust member whose value it contradicts. Members of the same
 * trust (an entity_slot or memory_slot conflict) have no lower-trust
 * member, so none records one, and the trust order favours nobody.
 *
 * Catches: 02-sweep-conflicts-with-same-trust (mark_members '>' ->
 * '>='), 11-conflict-favoured-trust (mark_favoured 'trust < top' ->
 * '<=').
 */
static void
test_conflicts_with_same_trust(void **state)
{
	mirror_store *st;
	struct conflict c;
	mirror_error err;
	char id[32];

	(void)state;
	fresh(ENT_INSERT DECISION("e-a", "p", "valve", "ball", "") ","
	    DECISION("e-b", "p", "valve", "gate", "") ";"
	    "INSERT INTO memories(id, memory_type, content, project) VALUES"
	    " ('m-a', 'preference', 'prefers rebase workflow', 'p'),"
	    " ('m-b', 'preference', 'prefers merge workflow', 'p');"
	    /* Cross-layer: state over two entities over a memory. */
	    "INSERT INTO project_state(id, project, category, key, value) "
	    "VALUES ('s-g', 'p', 'decision', 'gasket_type', 'EPDM');"
	    ENT_INSERT DECISION("e-g1", "p", "gasket", "viton", "") ","
	    DECISION("e-g2", "p", "gasket", "EPDM", "") ";"
	    "INSERT INTO memories(id, memory_type, content, project) VALUES"
	    " ('m-g', 'knowledge', 'gasket type is nitrile', 'p');");
	st = open_write();
	sweep_at(st, NOW);
	assert_string_equal(q(st, "SELECT member_id || '>' || "
	    "coalesce(conflicts_with, '-') FROM conflict_members ORDER BY 1"),
	    "e-a>- e-b>- e-g1>s-g e-g2>- m-a>- m-b>- m-g>s-g s-g>-");

	/* The favoured member: nobody among equals, the state row above. */
	snprintf(id, sizeof(id), "%s", q(st, "SELECT id FROM conflicts WHERE "
	    "slot_kind = 'entity_slot'"));
	assert_int_equal(conflict_get(&c, st, id, NULL, &err), 0);
	assert_int_equal(c.n_members, 2);
	assert_false(c.members[0].favoured);
	assert_false(c.members[1].favoured);
	conflict_free(&c);
	snprintf(id, sizeof(id), "%s", q(st, "SELECT id FROM conflicts WHERE "
	    "slot_kind = 'cross_layer'"));
	assert_int_equal(conflict_get(&c, st, id, NULL, &err), 0);
	assert_int_equal(c.n_members, 4);
	assert_string_equal(c.members[0].id, "s-g");
	assert_true(c.members[0].favoured);
	for (size_t i = 1; i < c.n_members; i++)
		assert_false(c.members[i].favoured);
	conflict_free(&c);
	store_close(st);
}

/* ---- 03: validity windows are half open [from, until) ---------------- */

/*
 * SPEC 3.1: entities whose windows do not overlap are history. A window
 * ending exactly where another starts does not overlap it, on either
 * side: two agreeing successors of one row (or two agreeing predecessors
 * of one row) are no conflict. One second of overlap is a conflict, and
 * so is an open end reaching past the other's start.
 *
 * Catches: 03-sweep-overlap-successors (overlap: 'a->from < b->until'
 * -> '<=': the two successors become members), 10-sweep-overlap-
 * predecessors ('b->from < a->until' -> '<=': the two predecessors do).
 */
static void
test_window_edges(void **state)
{
	mirror_store *st;

	(void)state;
	fresh(ENT_INSERT
	    /* slot 'succ': one old row, two agreeing successors */
	    DECISION("s-old", "p", "succ", "ball",
	    ",\"valid_from\":\"2020-01-01\",\"valid_until\":\"2022-01-01\"") ","
	    DECISION("s-new1", "p", "succ", "gate",
	    ",\"valid_from\":\"2022-01-01 00:00:00\"") ","
	    DECISION("s-new2", "p", "succ", "gate",
	    ",\"valid_from\":\"2022-01-01T00:00:00Z\"") ","
	    /* slot 'pred': two agreeing predecessors, one new row */
	    DECISION("p-old1", "p", "pred", "ball",
	    ",\"valid_until\":\"2022-01-01\"") ","
	    DECISION("p-old2", "p", "pred", "ball",
	    ",\"valid_from\":\"2019-01-01\",\"valid_until\":\"2022-01-01\"") ","
	    DECISION("p-new", "p", "pred", "gate",
	    ",\"valid_from\":\"2022-01-01\"") ","
	    /* slot 'one': one second of overlap */
	    DECISION("o-old", "p", "one", "ball",
	    ",\"valid_until\":\"2022-01-01 00:00:01\"") ","
	    DECISION("o-new", "p", "one", "gate",
	    ",\"valid_from\":\"2022-01-01\"") ","
	    /* slot 'gap': a second apart, both ways round */
	    DECISION("g-old", "p", "gap", "ball",
	    ",\"valid_until\":\"2021-12-31 23:59:59\"") ","
	    DECISION("g-new", "p", "gap", "gate",
	    ",\"valid_from\":\"2022-01-01\",\"valid_until\":\"2023-01-01\"") ","
	    DECISION("g-newer", "p", "gap", "plug",
	    ",\"valid_from\":\"2023-01-01 00:00:00\"") ","
	    /* slot 'open': an open end against a bounded window */
	    DECISION("x-open", "p", "open", "ball", "") ","
	    DECISION("x-late", "p", "open", "gate",
	    ",\"valid_from\":\"2030-01-01\",\"valid_until\":\"2030-01-02\"") ";");
	st = open_write();
	sweep_at(st, NOW);
	assert_string_equal(q(st, OPEN_CONFLICTS),
	    "entity_slot|[\"p\",\"decision\",\"one\",\"type\"]|o-new,o-old "
	    "entity_slot|[\"p\",\"decision\",\"open\",\"type\"]|x-late,x-open");
	store_close(st);
}

/* ---- 04: earlier conflicts opened in the same second ----------------- */

/* The ids of the earlier conflicts of c, joined by ' '. */
static const char *
earlier_of(const struct conflict *c)
{
	static char buf[256];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->n_earlier; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
		    i ? " " : "", c->earlier[i]);
	return buf;
}

static const struct conflict *
find_in(const struct conflict_list *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->items[i].id, id) == 0)
			return &l->items[i];
	fail_msg("no conflict %s in the list", id);
	return NULL;
}

/*
 * SPEC 5: a conflict page lists the earlier conflicts on its slot. Two
 * conflicts opened in the same second are ordered by when they were
 * recorded: the later one lists the first, the first lists nothing (not
 * its successor). conflict_get and conflict_list agree.
 *
 * Catches: 04-conflict-earlier-same-second (conflict.c "earlier
 * conflicts": 'detected_at < ?4' -> '<='); also conflict_list's slot
 * index sorted 'rowid ASC' instead of DESC, and its binary search
 * 'd < 0' -> '<='.
 */
static void
test_earlier_same_second(void **state)
{
	mirror_store *st;
	struct conflict c;
	struct conflict_list l;
	mirror_error err;
	char c1[32], c2[32], c3[32];

	(void)state;
	fresh(ENT_INSERT DECISION("e-a", "p", "valve", "ball", "") ","
	    DECISION("e-b", "p", "valve", "gate", "") ";");
	st = open_write();
	sweep_at(st, NOW);
	snprintf(c1, sizeof(c1), "%s", q(st, "SELECT id FROM conflicts"));
	assert_int_equal(conflict_dismiss(st, &(struct conflict_resolution){
	    .id = c1, .notes = "fine", .actor = "t", .now = NOW_TS }, &err),
	    0);
	/* A changed value opens a new conflict, in the same second. */
	assert_int_equal(sqlite3_exec(store_db(st), "UPDATE entities SET "
	    "properties = json_set(properties, '$.value', 'plug') WHERE "
	    "id = 'e-b'", NULL, NULL, NULL), SQLITE_OK);
	sweep_at(st, NOW);
	snprintf(c2, sizeof(c2), "%s", q(st, "SELECT id FROM conflicts WHERE "
	    "status = 'open'"));
	assert_string_not_equal(c1, c2);
	assert_string_equal(q(st, "SELECT count(DISTINCT detected_at) FROM "
	    "conflicts"), "1");

	assert_int_equal(conflict_get(&c, st, c1, NULL, &err), 0);
	assert_int_equal(c.n_earlier, 0);
	conflict_free(&c);
	assert_int_equal(conflict_get(&c, st, c2, NULL, &err), 0);
	assert_string_equal(earlier_of(&c), c1);
	conflict_free(&c);
	assert_int_equal(conflict_list(&l, st, NULL, &err), 0);
	assert_int_equal(find_in(&l, c1)->n_earlier, 0);
	assert_string_equal(earlier_of(find_in(&l, c2)), c1);
	conflict_list_free(&l);

	/* A third, a second later: both earlier ones, newest first. */
	assert_int_equal(conflict_dismiss(st, &(struct conflict_resolution){
	    .id = c2, .notes = "fine", .actor = "t", .now = NOW_TS }, &err),
	    0);
	assert_int_equal(sqlite3_exec(store_db(st), "UPDATE entities SET "
	    "properties = json_set(properties, '$.value', 'cock') WHERE "
	    "id = 'e-b'", NULL, NULL, NULL), SQLITE_OK);
	sweep_at(st, NOW + 1);
	snprintf(c3, sizeof(c3), "%s", q(st, "SELECT id FROM conflicts WHERE "
	    "status = 'open'"));
	{
		char want[80];

		snprintf(want, sizeof(want), "%s %s", c2, c1);
		assert_int_equal(conflict_get(&c, st, c3, NULL, &err), 0);
		assert_string_equal(earlier_of(&c), want);
		conflict_free(&c);
		assert_int_equal(conflict_list(&l, st, NULL, &err), 0);
		assert_string_equal(earlier_of(find_in(&l, c3)), want);
		assert_string_equal(earlier_of(find_in(&l, c2)), c1);
		assert_int_equal(find_in(&l, c1)->n_earlier, 0);
		conflict_list_free(&l);
	}
	store_close(st);
}

/* ---- 05: supersedes relationships only between entities --------------- */

static const char gasket_sql[] =
    "INSERT INTO project_state(id, project, category, key, value) "
    "VALUES ('s-g', 'p', 'decision', 'gasket_type', 'EPDM');"
    ENT_INSERT DECISION("e-g1", "p", "gasket", "viton", "") ","
    DECISION("e-g2", "p", "gasket", "nitrile", "") ";"
    "INSERT INTO memories(id, memory_type, content, project) VALUES"
    " ('m-g', 'knowledge', 'gasket type is PTFE', 'p');";

/* Resolve the one conflict of a fresh gasket store with winner; return
 * the supersedes relationships as "source>target" (sorted). */
static const char *
resolve_gasket(const char *winner, int want_superseded)
{
	static char rels[256];
	mirror_store *st;
	mirror_error err;
	char id[32];
	int sup = -1;

	fresh(gasket_sql);
	st = open_write();
	sweep_at(st, NOW);
	assert_string_equal(q(st, OPEN_CONFLICTS), "cross_layer|[\"p\","
	    "\"gasket_type\"]|e-g1,e-g2,m-g,s-g");
	snprintf(id, sizeof(id), "%s", q(st, "SELECT id FROM conflicts"));
	if (conflict_resolve(st, &(struct conflict_resolution){ .id = id,
	    .notes = "decided", .winner = winner, .actor = "t",
	    .now = NOW_TS }, &sup, &err) < 0)
		fail_msg("resolve: %s", err.msg);
	assert_int_equal(sup, want_superseded);
	snprintf(rels, sizeof(rels), "%s", q(st, "SELECT source_entity_id || "
	    "'>' || target_entity_id FROM relationships WHERE "
	    "relationship_type = 'supersedes' ORDER BY 1"));
	store_close(st);
	return rels;
}

/*
 * SPEC 4: with a winner every other member is superseded, and entities
 * also get a supersedes relationship from the winner: an entity winner
 * gets one to its entity loser and none to a state row or a memory; a
 * state or memory winner gets none (relationships join entities).
 *
 * Catches: 05-review-supersedes-non-entity (review.c: the loser's layer
 * no longer checked); also the winner's layer no longer checked.
 */
static void
test_supersedes_entities_only(void **state)
{
	(void)state;
	assert_string_equal(resolve_gasket("e-g1", 3), "e-g1>e-g2");
	assert_string_equal(resolve_gasket("s-g", 3), "");
	assert_string_equal(resolve_gasket("m-g", 3), "");
}

/* ---- 06: the schema version ------------------------------------------- */

static void
set_version(const char *v)
{
	char sql[128];

	snprintf(sql, sizeof(sql), "UPDATE mirror_meta SET value = '%s' "
	    "WHERE key = 'schema_version'", v);
	raw_sql(sql);
}

/* Open b.db in both modes; expect rc and, on failure, want in the
 * message. */
static void
open_expect(int rc, const char *want)
{
	static const enum store_mode modes[2] = { STORE_READ, STORE_WRITE };

	for (int i = 0; i < 2; i++) {
		mirror_store *st = NULL;
		mirror_error err;
		int got = store_open(&st, store_path_, modes[i], &err);

		if (got != rc)
			fail_msg("store_open mode %d: %d, want %d (%s)", i, got,
			    rc, got < 0 ? err.msg : "");
		if (rc < 0)
			assert_non_null(strstr(err.msg, want));
		store_close(st);
	}
}

/*
 * SPEC 7: a store of an unknown schema version is refused with a clear
 * message. This build's version opens; the next one is refused as newer;
 * a store without mirror_meta (any store mirror has not touched, the
 * "version before 1") opens, and writing stamps it with this version. 0
 * and anything past 1000000 are not version numbers.
 *
 * Catches: 06-store-schema-version (store.c 'version > V' ->
 * 'version > V + 1'), 16-store-version-zero ('n < 1' -> 'n < 0'); also
 * 'version > V' -> '>=' and 'n > 1000000' -> '>='. And the bug where
 * the message printed the value from a finalized statement.
 */
static void
test_schema_version(void **state)
{
	char v[32];
	mirror_store *st;

	(void)state;
	fresh(NULL);
	open_expect(0, NULL);
	snprintf(v, sizeof(v), "%d", MIRROR_SCHEMA_VERSION + 1);
	set_version(v);
	{
		char want[96];

		snprintf(want, sizeof(want), "mirror schema version %d is newer "
		    "than this mirror understands (%d)",
		    MIRROR_SCHEMA_VERSION + 1, MIRROR_SCHEMA_VERSION);
		open_expect(-MIRROR_EINPUT, want);
	}
	set_version("1000000");
	open_expect(-MIRROR_EINPUT, "schema version 1000000 is newer");
	set_version("1000001");
	open_expect(-MIRROR_EINPUT, "schema_version '1000001' is not a "
	    "version number");
	set_version("0");
	open_expect(-MIRROR_EINPUT, "schema_version '0' is not a version "
	    "number");
	set_version("-1");
	open_expect(-MIRROR_EINPUT, "schema_version '-1' is not a version "
	    "number");
	snprintf(v, sizeof(v), "%d", MIRROR_SCHEMA_VERSION);
	set_version(v);
	open_expect(0, NULL);

	/* No mirror_meta at all: opens, and a write stamps it. */
	raw_sql("DROP TABLE mirror_meta");
	st = open_write();
	assert_string_equal(q(st, "SELECT value FROM mirror_meta WHERE key = "
	    "'schema_version'"), v);
	store_close(st);
}

/*
 * Schema version 1 had no rule tables. Such a store opens read-only
 * with has_rule_tables 0 (no violations yet), and opened for writing
 * it gains them and is stamped with this version; a store stamped 2 or
 * later without them is refused, naming them.
 */
static void
test_schema_migration_v1(void **state)
{
	mirror_store *st = NULL;
	mirror_error err;
	char v[32];

	(void)state;
	fresh(NULL);
	raw_sql("DROP TABLE rule_runs");
	raw_sql("DROP TABLE violation_facts");
	raw_sql("DROP TABLE rule_violations");
	set_version("1");
	assert_int_equal(store_open(&st, store_path_, STORE_READ, &err), 0);
	assert_int_equal(store_features(st)->has_rule_tables, 0);
	assert_int_equal(store_features(st)->has_mirror_tables, 1);
	store_close(st);
	st = open_write();
	assert_int_equal(store_features(st)->has_rule_tables, 1);
	snprintf(v, sizeof(v), "%d", MIRROR_SCHEMA_VERSION);
	assert_string_equal(q(st, "SELECT value FROM mirror_meta WHERE key = "
	    "'schema_version'"), v);
	assert_string_equal(q(st, "SELECT count(*) FROM sqlite_schema WHERE "
	    "name IN ('rule_violations', 'violation_facts', 'rule_runs', "
	    "'rule_violations_one_open')"), "4");
	store_close(st);
	raw_sql("DROP TABLE rule_runs");
	open_expect(-MIRROR_EINPUT, "rule tables are not all there");
}

/* ---- 07: UTF-8 ---------------------------------------------------------- */

static void
text_ok(const char *s, size_t n)
{
	const char *bad = storerow_text_problem((const unsigned char *)s, n);

	if (bad != NULL)
		fail_msg("refused a valid sequence (%zu bytes, first 0x%02x): "
		    "%s", n, (unsigned char)s[0], bad);
}

static void
text_bad(const char *s, size_t n)
{
	const char *bad = storerow_text_problem((const unsigned char *)s, n);

	if (bad == NULL || strcmp(bad, "is not valid UTF-8 text") != 0)
		fail_msg("accepted an invalid sequence (%zu bytes, first "
		    "0x%02x)", n, (unsigned char)s[0]);
}

#define OK(lit) text_ok(lit, sizeof(lit) - 1)
#define BAD(lit) text_bad(lit, sizeof(lit) - 1)

/*
 * SPEC 7: invalid UTF-8 in a row is bad input. storerow_text_problem
 * holds the one definition (RFC 3629): each sequence length's smallest
 * and largest code point pass and the overlong encodings just below them
 * fail; surrogates D800..DFFF and code points past 10FFFF fail. Every
 * accepted sequence ends its buffer, so a length check off by one shows.
 *
 * Catches: 07-storerow-utf8-overlong (the 3-byte 'cp < 0x800' check
 * weakened to 0x80); also every lead-byte and code-point comparison of
 * the function flipped ('<' <-> '<=', '>' <-> '>='), the length check
 * 'n - i < len' -> '<=', and the surrogate or 4-byte overlong checks
 * dropped.
 */
static void
test_utf8_boundaries(void **state)
{
	(void)state;
	/* One byte: 00..7F; 80..BF only continue a sequence. */
	OK("\x7f");
	OK("a\x7f");
	BAD("\x80");
	BAD("\xbf");
	BAD("a\x80");
	/* Two bytes: C2 80 = U+0080 .. DF BF = U+07FF; C0, C1 overlong. */
	BAD("\xc0\x80");
	BAD("\xc0\xaf");
	BAD("\xc1\xbf");
	OK("\xc2\x80");
	OK("\xdf\xbf");
	BAD("\xc2");                       /* truncated */
	BAD("\xc2\x7f");                   /* not a continuation */
	BAD("\xc2\xc0");
	/* Three bytes: U+0800 .. U+FFFF less the surrogates. */
	BAD("\xe0\x80\x80");               /* overlong U+0000 */
	BAD("\xe0\x83\xa9");               /* overlong U+00E9 */
	BAD("\xe0\x9f\xbf");               /* overlong U+07FF */
	OK("\xe0\xa0\x80");                /* U+0800 */
	OK("\xed\x9f\xbf");                /* U+D7FF */
	BAD("\xed\xa0\x80");               /* U+D800 */
	BAD("\xed\xbf\xbf");               /* U+DFFF */
	OK("\xee\x80\x80");                /* U+E000 */
	OK("\xef\xbf\xbf");                /* U+FFFF */
	BAD("\xe0\xa0");                   /* truncated */
	BAD("\xef\xbf");
	/* Four bytes: U+10000 .. U+10FFFF. */
	BAD("\xf0\x80\x80\x80");           /* overlong U+0000 */
	BAD("\xf0\x8f\xbf\xbf");           /* overlong U+FFFF */
	OK("\xf0\x90\x80\x80");            /* U+10000 */
	OK("\xf4\x8f\xbf\xbf");            /* U+10FFFF */
	BAD("\xf4\x90\x80\x80");           /* U+110000 */
	BAD("\xf5\x80\x80\x80");
	BAD("\xf7\xbf\xbf\xbf");
	BAD("\xf8\x88\x80\x80\x80");       /* five bytes */
	BAD("\xff");
	BAD("\xf0\x90\x80");               /* truncated */
	/* Past eight bytes, read a word of ASCII at a time: a sequence
	 * at or after a word's end is checked as alone. */
	OK("abcdefgh\xc2\x80");
	OK("abcdefg\xc2\x80ijklmnop");
	BAD("abcdefgh\x80");
	BAD("abcdefg\x80ijklmnop");
	BAD("abcdefghijklmno\xe0\x80\x80");
	/* Valid text with a NUL in it says so, in a word or alone; an
	 * invalid sequence after the NUL is told first. */
	{
		static const struct {
			const char *s;
			size_t n;
			const char *why;
		} nul[] = {
			{ "a\0b", 3, "contains a NUL byte" },
			{ "abc\0efghij", 11, "contains a NUL byte" },
			{ "abcdefghij\0", 11, "contains a NUL byte" },
			{ "abc\0efgh\x80", 9, "is not valid UTF-8 text" },
		};

		for (size_t i = 0; i < sizeof(nul) / sizeof(nul[0]); i++) {
			const char *why = storerow_text_problem(
			    (const unsigned char *)nul[i].s, nul[i].n);

			assert_non_null(why);
			assert_string_equal(why, nul[i].why);
		}
	}
}

/* ---- boundaries: expiry against the run's clock ------------------------ */

/*
 * SPEC 3.1: a memory whose valid_until lies in the past (before the
 * run's clock) is expired and takes no part; one whose valid_until is
 * now has not expired yet. Three slots, one per side of now.
 *
 * Catches: 12-sweep-expiry-now (row_claim 'vu < now' -> '<='),
 * 13-sweep-vanished-expired (member_reason 'vu < now' -> '<=').
 */
static void
test_expiry_at_now(void **state)
{
	mirror_store *st;

	(void)state;
	fresh("INSERT INTO memories(id, memory_type, content, project, "
	    "valid_until) VALUES"
	    " ('b-a', 'preference', 'prefers rebase workflow', 'before', NULL),"
	    " ('b-b', 'preference', 'prefers merge workflow', 'before', '"
	    NOW_M1 "'),"
	    " ('n-a', 'preference', 'prefers rebase workflow', 'now', NULL),"
	    " ('n-b', 'preference', 'prefers merge workflow', 'now', '"
	    NOW_TS "'),"
	    " ('a-a', 'preference', 'prefers rebase workflow', 'after', NULL),"
	    " ('a-b', 'preference', 'prefers merge workflow', 'after', '"
	    NOW_P1 "');");
	st = open_write();
	sweep_at(st, NOW);
	assert_string_equal(q(st, OPEN_CONFLICTS),
	    "memory_slot|[\"after\",\"preference\",\"workflow\"]|a-a,a-b "
	    "memory_slot|[\"now\",\"preference\",\"workflow\"]|n-a,n-b");

	/* n-b changes its mind at now: the conflict closes because of
	 * the new value; n-b has not expired. */
	assert_int_equal(sqlite3_exec(store_db(st), "UPDATE memories SET "
	    "content = 'prefers rebase workflow' WHERE id = 'n-b'", NULL,
	    NULL, NULL), SQLITE_OK);
	sweep_at(st, NOW);
	assert_string_equal(q(st, "SELECT resolution FROM conflicts WHERE "
	    "project = 'now'"), "disagreement gone: memory n-b now says "
	    "'rebase workflow'");
	/* One second later a-b expires, and that is the reason given. */
	sweep_at(st, NOW + 1);
	assert_string_equal(q(st, "SELECT status || '|' || resolution FROM "
	    "conflicts WHERE project = 'after'"), "open|");
	sweep_at(st, NOW + 2);
	assert_string_equal(q(st, "SELECT status || '|' || resolution FROM "
	    "conflicts WHERE project = 'after'"),
	    "resolved|disagreement gone: memory a-b expired");
	store_close(st);
}

static const char expiry_rows[] =
    "INSERT INTO memories(id, memory_type, content, project, valid_until, "
    "status) VALUES"
    " ('m0', 'episodic', 'x', 'p', NULL, 'active'),"
    " ('m1', 'episodic', 'x', 'p', '" NOW_M1 "', 'active'),"
    " ('m2', 'episodic', 'x', 'p', '" NOW_TS "', 'active'),"
    " ('m3', 'episodic', 'x', 'p', '" NOW_P1 "', 'active'),"
    /* the same instants in the other forms the store accepts */
    " ('m4', 'episodic', 'x', 'p', '2023-11-14T22:13:19Z', 'active'),"
    " ('m5', 'episodic', 'x', 'p', '2023-11-14T22:13:20', 'active'),"
    " ('m6', 'episodic', 'x', 'p', '2023-11-14 22:13:20.900', 'active'),"
    " ('m7', 'episodic', 'x', 'p', '2023-11-14T01:00:00Z', 'active'),"
    " ('m8', 'episodic', 'x', 'p', '" NOW_M1 "', 'superseded');";

/*
 * The page's "expired", the health count and the build's clock input
 * all say the same as the sweep: before now is expired, now is not, in
 * every timestamp form the store may hold (the parser's, mirror_parse_ts:
 * 'T' or ' ', 'Z', fractions ignored).
 *
 * Catches: 14-facts-expired-now (facts.c memory_row 'until < now' ->
 * '<='), 15-health-expired-now (health.c '<' -> '<='), the same in
 * facts_clock_read, health counting inactive memories; and the bug
 * where health and the build clock compared valid_until as text.
 */
static void
test_expiry_everywhere(void **state)
{
	struct project_facts f;
	struct facts_clock fc;
	struct health h;
	mirror_store *st;
	mirror_error err;
	char got[16];

	(void)state;
	fresh(expiry_rows);
	assert_int_equal(store_open(&st, store_path_, STORE_READ, &err), 0);
	assert_int_equal(facts_load(&f, st, "p", NOW, &err), 0);
	assert_int_equal(f.n_mem, 9);
	for (size_t i = 0; i < f.n_mem; i++)
		got[i] = f.mem[i].expired ? 'x' : '.';
	got[f.n_mem] = '\0';
	/* memories sorted by type, created_at, id: m0..m8 */
	assert_string_equal(got, ".x..x..xx");
	facts_free(&f);
	assert_int_equal(health_read(&h, st, NOW, &err), 0);
	assert_int_equal(h.expired_memories, 3);     /* m1, m4, m7 */
	health_free(&h);
	assert_int_equal(facts_clock_read(&fc, st, NOW, &err), 0);
	assert_int_equal(fc.expired, 4);             /* and m8 */
	store_close(st);
}

/* a and b hold the same counts, layer by layer and status by status. */
static void
same_health(const struct health *a, const struct health *b)
{
	assert_int_equal(a->projects, b->projects);
	assert_int_equal(a->relationships, b->relationships);
	assert_int_equal(a->expired_memories, b->expired_memories);
	assert_int_equal(a->open_conflicts_count, b->open_conflicts_count);
	assert_int_equal(a->resolved_conflicts, b->resolved_conflicts);
	assert_int_equal(a->dismissed_conflicts, b->dismissed_conflicts);
	assert_int_equal(a->sweep_runs, b->sweep_runs);
	assert_int_equal(a->checks.open_error, b->checks.open_error);
	assert_int_equal(a->checks.open_warn, b->checks.open_warn);
	assert_int_equal(a->checks.closed, b->checks.closed);
	for (int i = 0; i < 3; i++) {
		const struct health_layer *x = &a->layers[i], *y = &b->layers[i];

		assert_string_equal(x->name, y->name);
		assert_int_equal(x->total, y->total);
		assert_int_equal(x->n_status, y->n_status);
		for (size_t k = 0; k < x->n_status; k++) {
			assert_string_equal(x->by_status[k].status,
			    y->by_status[k].status);
			assert_int_equal(x->by_status[k].n, y->by_status[k].n);
		}
	}
}

/* Statuses of every layer in several spellings (one a number, one
 * empty), relationships, a project, a sweep's conflict. */
static const char health_rows[] =
    "INSERT INTO projects(id, name) VALUES ('p', 'P'), ('q', 'Q');"
    "INSERT INTO project_state(id, project, category, key, value, status)"
    " VALUES ('s1', 'p', 'decision', 'k', 'a', 'active'),"
    " ('s2', 'p', 'decision', 'k', 'b', 'superseded'),"
    " ('s3', 'q', 'fact', 'j', 'c', ''), ('s4', 'q', 'fact', 'i', 'd', 5);"
    "INSERT INTO entities(id, entity_type, name, project, status) VALUES"
    " ('e1', 'part', 'E1', 'p', 'candidate'),"
    " ('e2', 'part', 'E2', 'p', 'active'), ('e3', 'part', 'E3', 'q',"
    " 'Active');"
    "INSERT INTO relationships(id, source_entity_id, target_entity_id,"
    " relationship_type) VALUES ('r1', 'e1', 'e2', 'part_of');";

/*
 * The health counts a build takes from its digest (health_digested) are
 * health_read's: per layer and status (a number and '' among them),
 * projects, relationships, memories expired at the digest's clock; on a
 * store without valid_until (none expire); and health_read itself, with
 * its error, when a status is not text or the clock is not the digest's.
 */
static void
test_health_digested(void **state)
{
	static const char *const stores[] = { expiry_rows, health_rows,
	    "ALTER TABLE memories DROP COLUMN valid_until;"
	    "INSERT INTO memories(id, memory_type, content, project, status)"
	    " VALUES ('m0', 'episodic', 'x', 'p', 'active'),"
	    " ('m1', 'episodic', 'x', 'p', 'superseded');" };
	struct store_digest d;
	struct health a, b;
	struct conflict_list cl;
	struct violation_list vl;
	struct sweep_run run;
	mirror_store *st;
	mirror_error err, err2;

	(void)state;
	for (size_t i = 0; i < sizeof(stores) / sizeof(*stores); i++) {
		fresh(stores[i]);
		assert_int_equal(store_open(&st, store_path_, STORE_WRITE,
		    &err), 0);
		assert_int_equal(sweep_run(&run, st, NOW, &err), 0);
		assert_int_equal(facts_digest(&d, st, &(const struct facts_digest_plan){ .now = NOW }, &err), 0);
		assert_int_equal(health_read(&a, st, NOW, &err), 0);
		assert_int_equal(health_digested(&b, st, &d, NOW, 0, &err),
		    0);
		same_health(&a, &b);
		health_free(&b);
		/* The findings' counts from their lists: the same. */
		assert_int_equal(conflict_list(&cl, st, NULL, &err), 0);
		assert_int_equal(violation_list(&vl, st, NULL, &err), 0);
		assert_int_equal(health_digested(&b, st, &d, NOW, 1, &err),
		    0);
		health_count_lists(&b, &cl, &vl);
		same_health(&a, &b);
		conflict_list_free(&cl);
		violation_list_free(&vl);
		assert_int_equal(b.expired_memories, i == 0 ? 3 : 0);
		assert_true(b.layers[0].total + b.layers[1].total +
		    b.layers[2].total > 0);
		health_free(&b);
		health_free(&a);
		/* Another clock: health_read's count at it. */
		assert_int_equal(health_read(&a, st, NOW + 86400 * 365,
		    &err), 0);
		assert_int_equal(health_digested(&b, st, &d,
		    NOW + 86400 * 365, 0, &err), 0);
		same_health(&a, &b);
		health_free(&b);
		health_free(&a);
		digest_free(&d);
		store_close(st);
	}
	/* A status that is not text: the same refusal, naming the row. */
	fresh(health_rows);
	raw_sql("UPDATE entities SET status = CAST(X'C328' AS TEXT) "
	    "WHERE id = 'e2'");
	assert_int_equal(store_open(&st, store_path_, STORE_READ, &err), 0);
	assert_int_equal(facts_digest(&d, st, &(const struct facts_digest_plan){ .now = NOW }, &err), 0);
	assert_int_equal(health_read(&a, st, NOW, &err), -MIRROR_EINPUT);
	assert_int_equal(health_digested(&b, st, &d, NOW, 0, &err2),
	    -MIRROR_EINPUT);
	assert_string_equal(err.msg, err2.msg);
	assert_non_null(strstr(err2.msg, "'e2'"));
	health_free(&b);
	health_free(&a);
	digest_free(&d);
	store_close(st);
}

/* ---- boundaries: the clock, timestamps, tunables ----------------------- */

/*
 * SOURCE_DATE_EPOCH is a number of seconds from 0 to 9999-12-31
 * 23:59:59 (253402300799); one past either end is refused.
 *
 * Catches: clock.c 'v < 0' -> '<=' and 'v > 253402300799' -> '>='.
 */
static void
test_source_date_epoch_range(void **state)
{
	static const struct {
		const char *v;
		int ok;
	} cases[] = {
		{ "-1", 0 }, { "0", 1 }, { "1", 1 },
		{ "253402300798", 1 }, { "253402300799", 1 },
		{ "253402300800", 0 },
	};
	mirror_error err;
	time_t t;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		setenv("SOURCE_DATE_EPOCH", cases[i].v, 1);
		if ((mirror_clock(&t, &err) == 0) != cases[i].ok)
			fail_msg("SOURCE_DATE_EPOCH=%s: want %s", cases[i].v,
			    cases[i].ok ? "accepted" : "refused");
		if (cases[i].ok)
			assert_int_equal((long long)t,
			    strtoll(cases[i].v, NULL, 10));
	}
	unsetenv("SOURCE_DATE_EPOCH");
}

/*
 * Timestamps: every field at its smallest and largest value parses, one
 * past either end does not (a second may be 60, a leap second); the
 * days around the ends of February count right.
 *
 * Catches: every field check of mirror_parse_ts flipped, and
 * days_from_civil's 'm <= 2' -> '<' and 'm > 2' -> '>='.
 */
static void
test_timestamp_fields(void **state)
{
	static const struct {
		const char *s;
		int ok;
	} cases[] = {
		{ "2024-00-10", 0 }, { "2024-01-10", 1 }, { "2024-12-10", 1 },
		{ "2024-13-10", 0 },
		{ "2024-05-00", 0 }, { "2024-05-01", 1 }, { "2024-05-31", 1 },
		{ "2024-05-32", 0 },
		{ "2024-05-10 00:00:00", 1 }, { "2024-05-10 23:59:59", 1 },
		{ "2024-05-10 24:00:00", 0 }, { "2024-05-10 23:60:00", 0 },
		{ "2024-05-10 23:59:60", 1 }, { "2024-05-10 23:59:61", 0 },
	};
	static const struct {
		const char *s;
		long long t;
	} days[] = {
		{ "1970-01-01 00:00:00", 0 },
		{ "2000-02-29 00:00:00", 951782400LL },
		{ "2000-03-01 00:00:00", 951868800LL },
		{ "2023-02-28 23:59:59", 1677628799LL },
		{ "2023-03-01 00:00:00", 1677628800LL },
		{ "2024-01-31 00:00:00", 1706659200LL },
		{ "2024-02-01 00:00:00", 1706745600LL },
		{ "2024-02-29 00:00:00", 1709164800LL },
		{ "2024-03-01 00:00:00", 1709251200LL },
		{ "2024-12-31 23:59:59", 1735689599LL },
	};
	time_t t;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if ((mirror_parse_ts(&t, cases[i].s) == 0) != cases[i].ok)
			fail_msg("'%s': want %s", cases[i].s, cases[i].ok ?
			    "parsed" : "refused");
	/* Days: the year turns over on March 1 in the arithmetic. */
	for (size_t i = 0; i < sizeof(days) / sizeof(days[0]); i++) {
		assert_int_equal(mirror_parse_ts(&t, days[i].s), 0);
		if ((long long)t != days[i].t)
			fail_msg("'%s': %lld, want %lld", days[i].s,
			    (long long)t, days[i].t);
	}
}

/*
 * Every tunable at min - 1, min, max and max + 1: the ends are taken,
 * one past them refused (env_check) and ignored (env_long's default).
 *
 * Catches: env.c '*v < t->min' -> '<=', '*v > t->max' -> '>=', and the
 * first-digit checks '*s < '0'' / '*s > '9'' flipped.
 */
static void
test_tunable_ranges(void **state)
{
	static const struct {
		const char *name;
		long min, max;
	} t[] = {
		{ "MIRROR_BUSY_TIMEOUT_MS", 1, 3600000 },
		{ "MIRROR_CACHE_MAX_MB", 1, 1048576 },
		{ "MIRROR_LOCK_TIMEOUT_MS", 0, 86400000L },
		{ "MIRROR_JOBS", 1, 64 },
		{ "MIRROR_QUERY_TIMEOUT_MS", 1, 86400000L },
		{ "MIRROR_RULE_STEPS", 1, 1000000L },
	};
	mirror_error err;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const long v[4] = { t[i].min - 1, t[i].min, t[i].max,
		    t[i].max + 1 };

		for (int k = 0; k < 4; k++) {
			char s[32];
			int ok = k == 1 || k == 2;

			if (v[k] < 0)
				continue;    /* a sign is refused anyway */
			snprintf(s, sizeof(s), "%ld", v[k]);
			setenv(t[i].name, s, 1);
			if ((env_check(&err) == 0) != ok)
				fail_msg("%s=%s: want %s", t[i].name, s,
				    ok ? "accepted" : "refused");
			assert_int_equal(env_long(t[i].name, -7),
			    ok ? v[k] : -7);
		}
		unsetenv(t[i].name);
	}
	/* Only digits: the first and last digit start a number. */
	setenv("MIRROR_JOBS", "9", 1);
	assert_int_equal(env_check(&err), 0);
	assert_int_equal(env_long("MIRROR_JOBS", -7), 9);
	setenv("MIRROR_JOBS", "09", 1);
	assert_int_equal(env_long("MIRROR_JOBS", -7), 9);
	setenv("MIRROR_JOBS", "+9", 1);
	assert_int_equal(env_check(&err), -MIRROR_EUSAGE);
	unsetenv("MIRROR_JOBS");
	assert_int_equal(env_check(&err), 0);
}

/*
 * Preference topics are singular: a word of three letters or fewer is
 * kept, "-ies" becomes "-y" only past four letters ("pies" is "pie").
 *
 * Catches: normalize.c 'n > 4' -> '>=', 'n <= 3' -> '<' or '<= 4'.
 */
static void
test_singular_lengths(void **state)
{
	static const char *const cases[][2] = {
		{ "bus", "bus" }, { "gas", "gas" }, { "ads", "ads" },
		{ "bugs", "bug" }, { "pies", "pie" }, { "ties", "tie" },
		{ "flies", "fly" }, { "ies", "ies" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char w[16];

		snprintf(w, sizeof(w), "%s", cases[i][0]);
		norm_singular(w);
		if (strcmp(w, cases[i][1]) != 0)
			fail_msg("%s: '%s', want '%s'", cases[i][0], w,
			    cases[i][1]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inactive_rows_take_no_part),
		cmocka_unit_test(test_conflicts_with_same_trust),
		cmocka_unit_test(test_window_edges),
		cmocka_unit_test(test_earlier_same_second),
		cmocka_unit_test(test_supersedes_entities_only),
		cmocka_unit_test(test_schema_version),
		cmocka_unit_test(test_schema_migration_v1),
		cmocka_unit_test(test_utf8_boundaries),
		cmocka_unit_test(test_expiry_at_now),
		cmocka_unit_test(test_expiry_everywhere),
		cmocka_unit_test(test_health_digested),
		cmocka_unit_test(test_source_date_epoch_range),
		cmocka_unit_test(test_timestamp_fields),
		cmocka_unit_test(test_tunable_ranges),
		cmocka_unit_test(test_singular_lengths),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
