/*
 * test_finding.c: core/store/finding, the model a conflict and a
 * violation share: the cursor that hands each flagged row with its
 * finding (a finding's end, unlisted and NUL-byte ids skipped, the one
 * finding's query, no query for none), the lookup order of the facts,
 * the earlier findings on a key, and the check of every row.
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

#include "store/finding.h"
#include "store/store.h"

static char path[64];

/* Three violations of two rules, the facts of two of them, and a fact
 * row whose violation id holds a NUL byte ("chk-b" and more). */
static const char base_sql[] =
    "INSERT INTO rule_violations(id, rule_id, severity, project, facts,"
    " message, status, detected_at, opened_run) VALUES"
    " ('chk-a', 'r1', 'warn', '', '[1]', 'a', 'closed',"
    "  '2024-01-01 00:00:00', ''),"
    " ('chk-b', 'r1', 'warn', '', '[1]', 'b', 'open',"
    "  '2024-01-02 00:00:00', ''),"
    " ('chk-c', 'r2', 'warn', '', '[1]', 'c', 'open',"
    "  '2024-01-02 00:00:00', '');"
    "INSERT INTO violation_facts VALUES ('chk-a', 'entity', 'e0'),"
    " ('chk-b', 'memory', 'm1'), ('chk-c', 'entity', 'e2'),"
    " ('chk-c', 'memory', 'm2'),"
    " (CAST(x'63686b2d6200ff' AS TEXT), 'entity', 'nul');";

#define COLS "layer, fact_id, violation_id"

static const struct finding_table facts = {
	.table = "violation_facts",
	.what = "violation facts",
	.owner = "violation_id",
	.owner_col = 2,
	.all_sql = "SELECT " COLS " FROM main.violation_facts "
	    "ORDER BY violation_id, layer, fact_id",
	/* Not all_sql's rows: the test sees which one ran. */
	.one_sql = "SELECT " COLS " FROM main.violation_facts "
	    "WHERE violation_id = ?1 AND layer = 'entity'",
	.check_sql = "SELECT " COLS " FROM main.violation_facts",
};

static mirror_store *
open_store(const char *more)
{
	mirror_error err;
	mirror_store *st;
	sqlite3 *db;

	snprintf(path, sizeof(path), "/tmp/test_finding.%ld.db",
	    (long)getpid());
	unlink(path);
	assert_int_equal(store_create(path, &err), 0);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, base_sql, NULL, NULL, NULL),
	    SQLITE_OK);
	if (more != NULL)
		assert_int_equal(sqlite3_exec(db, more, NULL, NULL, NULL),
		    SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	return st;
}

static void
close_store(mirror_store *st)
{
	store_close(st);
	unlink(path);
}

/* The next step of c is want, of finding at (for a row: fact id). */
static void
step(struct finding_rows *c, int want, size_t at, const char *fact)
{
	size_t got = 99;

	assert_int_equal(finding_rows_next(c, &got), want);
	if (want == FINDING_DONE)
		return;
	assert_int_equal(got, at);
	if (want == FINDING_ROW) {
		assert_string_equal(c->row.id, c->ids[at]);
		assert_string_equal(sqlite3_column_text(c->stmt, 1), fact);
	}
}

/* Each listed finding's rows, then its end; an unlisted finding's rows
 * and the NUL-byte id's are skipped; the list's order is the caller's. */
static void
test_rows_grouped(void **state)
{
	char c3[] = "chk-c", b2[] = "chk-b";
	char *ids[] = { c3, b2, NULL };
	struct finding_rows c;
	mirror_error err;
	mirror_store *st = open_store(NULL);

	(void)state;
	assert_int_equal(finding_rows_open(&c, &facts, ids, st, &err), 0);
	step(&c, FINDING_ROW, 1, "m1");
	step(&c, FINDING_END, 1, NULL);
	step(&c, FINDING_ROW, 0, "e2");
	c.cap = 8;      /* a finding's room stays its own */
	step(&c, FINDING_ROW, 0, "m2");
	assert_int_equal(c.cap, 8);
	step(&c, FINDING_END, 0, NULL);
	step(&c, FINDING_DONE, 0, NULL);
	step(&c, FINDING_DONE, 0, NULL);
	finding_rows_close(&c);
	close_store(st);
}

/* One finding reads with one_sql; none reads nothing (its SQL would
 * fail); a finding's first row starts its room at 0. */
static void
test_one_and_none(void **state)
{
	struct finding_table bad = facts;
	char c3[] = "chk-c";
	char *one[] = { c3, NULL }, *none[] = { NULL };
	struct finding_rows c;
	mirror_error err;
	mirror_store *st = open_store(NULL);

	(void)state;
	assert_int_equal(finding_rows_open(&c, &facts, one, st, &err), 0);
	c.cap = 5;
	step(&c, FINDING_ROW, 0, "e2");
	assert_int_equal(c.cap, 0);
	step(&c, FINDING_END, 0, NULL);
	step(&c, FINDING_DONE, 0, NULL);
	finding_rows_close(&c);
	bad.all_sql = bad.one_sql = "SELECT no_such_column FROM nowhere";
	assert_int_equal(finding_rows_open(&c, &bad, none, st, &err), 0);
	step(&c, FINDING_DONE, 0, NULL);
	finding_rows_close(&c);
	assert_int_equal(finding_rows_open(&c, &bad, one, st, &err),
	    -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "cannot read violation facts"));
	finding_rows_close(&c);
	close_store(st);
}

/* Facts sorted by layer, then id; equal ones keep their order. */
static void
test_order(void **state)
{
	struct finding_order o = { 0 };

	(void)state;
	finding_order_add(&o, "memory", "m1", 0, 0);
	finding_order_add(&o, "entity", "e2", 0, 1);
	finding_order_add(&o, "memory", "m1", 1, 0);
	finding_order_add(&o, "entity", "e10", 2, 0);
	finding_order_sort(&o);
	assert_int_equal(o.n, 4);
	assert_string_equal(o.v[0].id, "e10");
	assert_string_equal(o.v[1].id, "e2");
	assert_int_equal(o.v[1].at, 1);
	assert_int_equal(o.v[2].finding, 0);
	assert_int_equal(o.v[3].finding, 1);
	finding_order_free(&o);
	assert_null(o.v);
}

/* The earlier findings of a key: those after the finding, newest
 * first; none for the oldest or a key of one. */
static void
test_earlier(void **state)
{
	static const struct finding_keys keys = {
		.sql = "SELECT rule_id, facts, id FROM main.rule_violations "
		    "ORDER BY rule_id, facts, detected_at DESC, rowid DESC",
		.table = "rule_violations", .a = "rule_id", .b = "facts",
		.what = "violations",
	};
	struct finding_earlier x;
	mirror_error err;
	char **ids = NULL;
	size_t n = 0;
	mirror_store *st = open_store(NULL);

	(void)state;
	assert_int_equal(finding_earlier_load(&x, &keys, st, &err), 0);
	assert_int_equal(x.n, 3);
	finding_earlier(&ids, &n, &x, "r1", "[1]", "chk-b");
	assert_int_equal(n, 1);
	assert_string_equal(ids[0], "chk-a");
	finding_ids_free(ids, n);
	ids = NULL;
	n = 0;
	finding_earlier(&ids, &n, &x, "r1", "[1]", "chk-a");
	finding_earlier(&ids, &n, &x, "r2", "[1]", "chk-c");
	finding_earlier(&ids, &n, &x, "r3", "[1]", "chk-z");
	assert_int_equal(n, 0);
	finding_ids_free(ids, n);
	finding_earlier_free(&x);
	close_store(st);
}

static int rows_seen;

/* finding_check's row reader: counts, and refuses fact id "bad". */
static int
count_row(struct store_row *r)
{
	rows_seen++;
	if (strcmp((const char *)sqlite3_column_text(r->stmt, 1), "bad") == 0)
		return storerow_fail(r, "fact_id", "is bad");
	return 0;
}

/* Every row through the reader, the finding id checked first: a NUL
 * byte in it is the row's error before the reader sees the row. */
static void
test_check(void **state)
{
	mirror_error err;
	mirror_store *st = open_store("DELETE FROM violation_facts "
	    "WHERE fact_id = 'nul'");

	(void)state;
	rows_seen = 0;
	assert_int_equal(finding_check(&facts, count_row, st, &err), 0);
	assert_int_equal(rows_seen, 4);
	close_store(st);
	st = open_store(NULL);
	rows_seen = 0;
	assert_int_equal(finding_check(&facts, count_row, st, &err),
	    -MIRROR_EINPUT);
	assert_int_equal(rows_seen, 4);
	assert_non_null(strstr(err.msg, "violation_facts row"));
	assert_non_null(strstr(err.msg, "violation_id"));
	close_store(st);
	st = open_store("DELETE FROM violation_facts WHERE fact_id = 'nul';"
	    "INSERT INTO violation_facts VALUES ('chk-c', 'entity', 'bad')");
	rows_seen = 0;
	assert_int_equal(finding_check(&facts, count_row, st, &err),
	    -MIRROR_EINPUT);
	assert_int_equal(rows_seen, 5);
	assert_non_null(strstr(err.msg, "violation_facts row 'chk-c': "
	    "fact_id is bad"));
	close_store(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_grouped),
		cmocka_unit_test(test_one_and_none),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_earlier),
		cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
