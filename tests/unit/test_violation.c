/*
 * test_violation.c: core/rules/violation, the read half of the rule
 * tables: the list in its order and with its filters, one violation with
 * its facts as they are now and its earlier ones, the flagged lookup,
 * the latest run of each rule, the counts, the check of every row, and
 * a store without the tables (no violations).
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

#include "rules/violation.h"
#include "store/store.h"

static char path[64];

static void
exec_sql(const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* Two projects (one with an alias), facts of every layer, two sweep
 * runs of three rules, violations open and closed, one reopened. */
static const char base_sql[] =
    "INSERT INTO projects(id, name, aliases) VALUES"
    " ('p05', 'P05', '[\"interf\"]'), ('p06', 'P06', '[]');"
    "INSERT INTO project_state(id, project, category, key, value) VALUES"
    " ('s1', 'interf', 'fact', 'aperture', '50 mm');"
    "INSERT INTO entities(id, entity_type, name, project, source_refs)"
    " VALUES ('e1', 'component', 'Arm', 'interf', '[\"doc 1\"]'),"
    " ('e6', 'component', 'Head', 'p06', '[]');"
    "INSERT INTO relationships(id, source_entity_id, target_entity_id,"
    " relationship_type) VALUES ('r1', 'e1', 'e6', 'part_of');"
    "INSERT INTO memories(id, memory_type, content, project) VALUES"
    " ('m1', 'knowledge', 'the arm', 'p05');"
    "INSERT INTO rule_runs VALUES"
    " ('run1', 'no-material', 'a.sql:1', 'warn', '', 'd1', 'q1', 'ok', '',"
    "  2, 1),"
    " ('run1', 'dropped', 'a.sql:9', 'warn', 'gone', 'd', 'q', 'failed',"
    "  'x', 0, 0),"
    " ('run2', 'no-material', 'a.sql:1', 'warn', 'no material', 'd2',"
    "  'q2', 'ok', '', 2, 1),"
    " ('run2', 'stale', 'b.sql:1', 'error', 'stale', 'd', 'q', 'failed',"
    "  'too slow', 0, 9);"
    "INSERT INTO rule_violations(id, rule_id, severity, project, facts,"
    " message, status, detected_at, opened_run, closed_at, closed_run)"
    " VALUES"
    " ('chk-a', 'no-material', 'warn', 'p05', '[\"entity:e1\"]', 'Arm',"
    "  'closed', '2024-01-01 00:00:00', 'run1', '2024-01-02 00:00:00',"
    "  'run2'),"
    " ('chk-b', 'no-material', 'warn', 'p05', '[\"entity:e1\"]', 'Arm',"
    "  'open', '2024-01-03 00:00:00', 'run2', NULL, NULL),"
    " ('chk-c', 'stale', 'error', 'p06', '[\"entity:e6\",\"memory:gone\","
    "  \"relationship:r1\"]', 'Head', 'open', '2024-01-03 00:00:00',"
    "  'run2', NULL, NULL),"
    " ('chk-d', 'no-material', 'warn', 'p05', '[\"project_state:s1\"]',"
    "  'ap', 'open', '2024-01-03 00:00:00', 'run2', NULL, NULL);"
    "INSERT INTO violation_facts VALUES ('chk-a', 'entity', 'e1'),"
    " ('chk-b', 'entity', 'e1'), ('chk-c', 'entity', 'e6'),"
    " ('chk-c', 'memory', 'gone'), ('chk-c', 'relationship', 'r1'),"
    " ('chk-d', 'project_state', 's1'), ('chk-d', 'entity', 'e1');";

static mirror_store *
open_store(const char *sql)
{
	mirror_error err;
	mirror_store *st;

	snprintf(path, sizeof(path), "/tmp/test_violation.%ld.db",
	    (long)getpid());
	unlink(path);
	assert_int_equal(store_create(path, &err), 0);
	exec_sql(sql);
	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	return st;
}

static void
close_store(mirror_store *st)
{
	store_close(st);
	unlink(path);
}

/* Open first, errors before warnings, then by rule and id; filters. */
static void
test_list_order_and_filters(void **state)
{
	struct violation_filter f = { NULL, "interf" };
	struct violation_list l;
	mirror_error err;
	mirror_store *st = open_store(base_sql);

	(void)state;
	assert_int_equal(violation_list(&l, st, NULL, &err), 0);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.items[0].id, "chk-c");
	assert_string_equal(l.items[1].id, "chk-b");
	assert_string_equal(l.items[2].id, "chk-d");
	assert_string_equal(l.items[3].id, "chk-a");
	assert_null(l.items[1].closed_at);
	assert_string_equal(l.items[3].closed_run, "run2");
	violation_list_free(&l);
	/* An alias names its project; a status filters. */
	assert_int_equal(violation_list(&l, st, &f, &err), 0);
	assert_int_equal(l.n, 3);
	violation_list_free(&l);
	f.status = "closed";
	assert_int_equal(violation_list(&l, st, &f, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.items[0].id, "chk-a");
	violation_list_free(&l);
	f.project = "nowhere";
	assert_int_equal(violation_list(&l, st, &f, &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "no project 'nowhere'"));
	violation_list_free(&l);
	close_store(st);
}

/* a and b, both NULL or the same text. */
static void
same_text(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		assert_true(a == NULL && b == NULL);
	else
		assert_string_equal(a, b);
}

/* A list reads the facts of all its violations in one pass, merged by
 * id: each has the facts violation_get reads for it alone, also when a
 * filter leaves other violations (and their facts) out. */
static void
test_list_facts_as_get(void **state)
{
	static const struct violation_filter filters[] = {
		{ NULL, NULL }, { "open", NULL }, { NULL, "p06" },
		{ "closed", NULL } };
	static const size_t want[] = { 7, 6, 3, 1 };
	mirror_error err;
	mirror_store *st = open_store(base_sql);

	(void)state;
	for (size_t k = 0; k < sizeof(filters) / sizeof(*filters); k++) {
		struct violation_list l;
		size_t facts = 0;

		assert_int_equal(violation_list(&l, st, &filters[k], &err), 0);
		for (size_t i = 0; i < l.n; i++) {
			struct violation v;

			assert_int_equal(violation_get(&v, st, l.items[i].id,
			    &err), 0);
			assert_int_equal(l.items[i].n_facts, v.n_facts);
			for (size_t j = 0; j < v.n_facts; j++) {
				const struct violation_fact *a =
				    &l.items[i].fact[j], *b = &v.fact[j];

				same_text(a->layer, b->layer);
				same_text(a->id, b->id);
				same_text(a->label, b->label);
				same_text(a->project, b->project);
				same_text(a->source, b->source);
				same_text(a->status_now, b->status_now);
			}
			facts += v.n_facts;
			violation_free(&v);
		}
		assert_int_equal(facts, want[k]);
		violation_list_free(&l);
	}
	close_store(st);
}

/* One violation: facts in layer order with their rows now; a gone row
 * has no label; the earlier violation of the same rule and facts. */
static void
test_get_facts_and_earlier(void **state)
{
	struct violation v;
	mirror_error err;
	mirror_store *st = open_store(base_sql);

	(void)state;
	assert_int_equal(violation_get(&v, st, "chk-c", &err), 0);
	assert_int_equal(v.n_facts, 3);
	assert_string_equal(v.fact[0].layer, "entity");
	assert_string_equal(v.fact[0].label, "Head");
	assert_string_equal(v.fact[0].project, "p06");
	assert_string_equal(v.fact[0].status_now, "active");
	assert_string_equal(v.fact[1].layer, "memory");
	assert_null(v.fact[1].label);
	assert_null(v.fact[1].status_now);
	assert_string_equal(v.fact[2].label, "Arm part of Head");
	assert_string_equal(v.fact[2].project, "p05");
	assert_int_equal(v.n_earlier, 0);
	violation_free(&v);
	assert_int_equal(violation_get(&v, st, "chk-b", &err), 0);
	assert_int_equal(v.n_earlier, 1);
	assert_string_equal(v.earlier[0], "chk-a");
	assert_string_equal(v.fact[0].source, "[\"doc 1\"]");
	violation_free(&v);
	assert_int_equal(violation_get(&v, st, "chk-d", &err), 0);
	/* The state row's alias project comes back canonical. */
	assert_string_equal(v.fact[1].layer, "project_state");
	assert_string_equal(v.fact[1].project, "p05");
	violation_free(&v);
	assert_int_equal(violation_get(&v, st, "chk-x", &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "no violation 'chk-x'"));
	violation_free(&v);
	close_store(st);
}

/* The facts of open violations, sorted; closed ones are not flagged.
 * Taken from the list, they are the store's rows of violation_facts
 * joined to open violations, in that query's order. */
static void
test_flagged_lookup(void **state)
{
	struct violation_list all;
	struct flagged_list l;
	const struct flagged *f;
	sqlite3_stmt *q;
	mirror_error err;
	mirror_store *st = open_store(base_sql);
	size_t n, k = 0;

	(void)state;
	assert_int_equal(violation_list(&all, st, NULL, &err), 0);
	violation_flagged(&l, &all);
	assert_int_equal(l.n, 6);
	assert_int_equal(sqlite3_prepare_v2(store_db(st), "SELECT f.layer, "
	    "f.fact_id, f.violation_id, v.rule_id FROM violation_facts f "
	    "JOIN rule_violations v ON v.id = f.violation_id WHERE "
	    "v.status = 'open' ORDER BY 1, 2, 3", -1, &q, NULL), SQLITE_OK);
	while (sqlite3_step(q) == SQLITE_ROW) {
		assert_true(k < l.n);
		assert_string_equal(l.items[k].layer, sqlite3_column_text(q, 0));
		assert_string_equal(l.items[k].id, sqlite3_column_text(q, 1));
		assert_string_equal(l.items[k].violation_id,
		    sqlite3_column_text(q, 2));
		assert_string_equal(l.items[k].rule_id,
		    sqlite3_column_text(q, 3));
		k++;
	}
	sqlite3_finalize(q);
	assert_int_equal(k, l.n);
	for (size_t i = 1; i < l.n; i++) {
		int c = strcmp(l.items[i - 1].layer, l.items[i].layer);

		if (c == 0)
			c = strcmp(l.items[i - 1].id, l.items[i].id);
		if (c == 0)
			c = strcmp(l.items[i - 1].violation_id,
			    l.items[i].violation_id);
		assert_true(c < 0);
	}
	f = violation_flagged_find(&l, "entity", "e1", &n);
	assert_non_null(f);
	assert_int_equal(n, 2);
	assert_string_equal(f->violation_id, "chk-b");
	assert_string_equal(f->rule_id, "no-material");
	f = violation_flagged_find(&l, "relationship", "r1", &n);
	assert_non_null(f);
	assert_int_equal(n, 1);
	assert_null(violation_flagged_find(&l, "entity", "e2", &n));
	assert_int_equal(n, 0);
	assert_null(violation_flagged_find(&l, "memory", "e1", NULL));
	flagged_list_free(&l);
	violation_list_free(&all);
	close_store(st);
}

/* The latest run of each rule, its label defaulting to its id; the
 * counts of the latest sweep run alone. */
static void
test_runs_and_counts(void **state)
{
	struct rule_run_list l;
	const struct rule_run *r;
	struct violation_counts c;
	mirror_error err;
	mirror_store *st = open_store(base_sql);

	(void)state;
	assert_int_equal(rule_runs_latest(&l, st, &err), 0);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.items[0].rule_id, "dropped");
	assert_false(l.items[0].current);
	r = violation_rule_run_find(&l, "no-material");
	assert_non_null(r);
	assert_string_equal(r->label, "no material");
	assert_string_equal(r->description, "d2");
	assert_true(r->current);
	assert_null(violation_rule_run_find(&l, "nope"));
	rule_run_list_free(&l);
	exec_sql("UPDATE rule_runs SET label = '' WHERE rule_id = 'stale'");
	assert_int_equal(rule_runs_latest(&l, st, &err), 0);
	assert_string_equal(violation_rule_run_find(&l, "stale")->label, "stale");
	assert_string_equal(violation_rule_run_find(&l, "stale")->error, "too slow");
	rule_run_list_free(&l);
	assert_int_equal(violation_counts(&c, st, &err), 0);
	assert_int_equal(c.open_error, 1);
	assert_int_equal(c.open_warn, 2);
	assert_int_equal(c.closed, 1);
	assert_int_equal(c.rules, 2);
	assert_int_equal(c.rules_failed, 1);
	close_store(st);
}

/* Every bad column is bad input naming table, row and column. */
static void
test_check_refuses_bad_rows(void **state)
{
	static const struct {
		const char *sql, *want;
	} bad[] = {
	    { "UPDATE rule_violations SET severity = 'fatal' WHERE id = "
	      "'chk-b'", "rule_violations row 'chk-b': severity" },
	    { "UPDATE rule_violations SET facts = 'not json' WHERE id = "
	      "'chk-b'", "rule_violations row 'chk-b': facts" },
	    { "UPDATE rule_violations SET message = CAST(x'6100ff' AS TEXT) "
	      "WHERE id = 'chk-b'", "rule_violations row 'chk-b': message" },
	    { "UPDATE violation_facts SET layer = 'slot' WHERE violation_id "
	      "= 'chk-b'", "violation_facts row 'chk-b'" },
	};
	mirror_error err;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		mirror_store *st = open_store(base_sql);

		assert_int_equal(violation_check(st, &err), 0);
		exec_sql(bad[i].sql);
		assert_int_equal(violation_check(st, &err), -MIRROR_EINPUT);
		if (strstr(err.msg, bad[i].want) == NULL)
			fail_msg("%s: got '%s'", bad[i].want, err.msg);
		close_store(st);
	}
}

/*
 * A bad rule_runs row (an older mirror wrote rules' text unchecked) is
 * left out of the latest runs, never an error; violation_check does
 * not stop on it either (issue 55).
 */
static void
test_bad_runs_skipped(void **state)
{
	static const char *const bad[] = {
	    "UPDATE rule_runs SET description = CAST(x'636166ff' AS TEXT) "
	    "WHERE rule_id = 'stale'",
	    "UPDATE rule_runs SET label = CAST(x'6100' AS TEXT) WHERE "
	    "rule_id = 'stale'",
	    "UPDATE rule_runs SET hits = 'many' WHERE rule_id = 'stale'",
	    "UPDATE rule_runs SET status = 'maybe' WHERE rule_id = 'stale'",
	};
	mirror_error err;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct rule_run_list l;
		mirror_store *st = open_store(base_sql);

		exec_sql(bad[i]);
		assert_int_equal(violation_check(st, &err), 0);
		assert_int_equal(rule_runs_latest(&l, st, &err), 0);
		assert_int_equal(l.n, 2);
		assert_null(violation_rule_run_find(&l, "stale"));
		assert_non_null(violation_rule_run_find(&l, "no-material"));
		rule_run_list_free(&l);
		close_store(st);
	}
}

/* A store without the rule tables (version 1, read-only): none. */
static void
test_store_without_tables(void **state)
{
	struct violation_list l;
	struct flagged_list fl;
	struct rule_run_list rl;
	struct violation_counts c;
	struct violation v;
	mirror_error err;
	mirror_store *st = open_store("DROP TABLE violation_facts;"
	    "DROP TABLE rule_violations; DROP TABLE rule_runs;"
	    "UPDATE mirror_meta SET value = '1' WHERE key = "
	    "'schema_version';");

	(void)state;
	assert_false(store_features(st)->has_rule_tables);
	assert_int_equal(violation_list(&l, st, NULL, &err), 0);
	assert_int_equal(l.n, 0);
	violation_flagged(&fl, &l);
	assert_int_equal(fl.n, 0);
	flagged_list_free(&fl);
	assert_int_equal(rule_runs_latest(&rl, st, &err), 0);
	assert_int_equal(rl.n, 0);
	assert_int_equal(violation_counts(&c, st, &err), 0);
	assert_int_equal(c.open_error + c.open_warn + c.rules, 0);
	assert_int_equal(violation_check(st, &err), 0);
	assert_int_equal(violation_get(&v, st, "chk-a", &err), -MIRROR_EINPUT);
	violation_free(&v);
	close_store(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_order_and_filters),
		cmocka_unit_test(test_get_facts_and_earlier),
		cmocka_unit_test(test_list_facts_as_get),
		cmocka_unit_test(test_flagged_lookup),
		cmocka_unit_test(test_runs_and_counts),
		cmocka_unit_test(test_check_refuses_bad_rows),
		cmocka_unit_test(test_bad_runs_skipped),
		cmocka_unit_test(test_store_without_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
