/*
 * test_store_journal.c: the SQLite library as mirror configures it
 * (core/store/store.c, library_config) writes transactions whose
 * journals outgrow memory. A binary of its own: SQLite takes the
 * configuration only before its first connection, which here is
 * store_create's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "scratch.h"
#include "store/store.h"

/* Runs sql on st's connection. Returns SQLite's code. */
static int
run(mirror_store *st, const char *sql)
{
	return sqlite3_exec(store_db(st), sql, NULL, NULL, NULL);
}

/*
 * Dropping, then emptying, a TEMP table of 400,000 row ids inside a
 * write transaction, as a sweep scoped to most of a 1M-fact store drops
 * its row ids (core/sweep/scope.c): every statement succeeds and the
 * store stays whole. With the spill threshold mirror set before (4 MiB),
 * Debian's SQLite 3.40.1 answered the drop with SQLITE_FULL, "database
 * or disk is full", and every such build failed.
 */
static void
test_large_temp_journal(void **state)
{
	mirror_store *st;
	mirror_error err;
	sqlite3_stmt *s;

	(void)state;
	assert_int_equal(store_create("journal.db", &err), 0);
	assert_int_equal(store_open(&st, "journal.db", STORE_WRITE, &err), 0);
	for (int round = 0; round < 2; round++) {
		assert_int_equal(run(st, "BEGIN IMMEDIATE"), SQLITE_OK);
		assert_int_equal(run(st, "CREATE TEMP TABLE rows_of (t INTEGER, "
		    "rid INTEGER, PRIMARY KEY (t, rid)) WITHOUT ROWID"),
		    SQLITE_OK);
		assert_int_equal(run(st, "WITH RECURSIVE n(i) AS (SELECT 1 "
		    "UNION ALL SELECT i + 1 FROM n WHERE i < 400000) "
		    "INSERT INTO temp.rows_of SELECT i % 6, "
		    "(i * 7919) % 1000003 FROM n"), SQLITE_OK);
		assert_int_equal(run(st, "INSERT INTO projects(id, name) "
		    "VALUES ('p-journal', 'P')"), SQLITE_OK);
		assert_int_equal(run(st, "COMMIT"), SQLITE_OK);
		/* The next transaction changes every page the last one made. */
		assert_int_equal(run(st, "BEGIN IMMEDIATE"), SQLITE_OK);
		assert_int_equal(run(st, round == 0 ? "DROP TABLE temp.rows_of" :
		    "DELETE FROM temp.rows_of"), SQLITE_OK);
		assert_int_equal(run(st, "DELETE FROM projects WHERE "
		    "id = 'p-journal'"), SQLITE_OK);
		assert_int_equal(run(st, "COMMIT"), SQLITE_OK);
		assert_int_equal(run(st, "DROP TABLE IF EXISTS temp.rows_of"),
		    SQLITE_OK);
	}
	assert_int_equal(sqlite3_prepare_v2(store_db(st),
	    "PRAGMA integrity_check", -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_string_equal(sqlite3_column_text(s, 0), "ok");
	sqlite3_finalize(s);
	store_close(st);
}

SCRATCH_FIXTURES(setup, teardown, "journal")

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_large_temp_journal),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
