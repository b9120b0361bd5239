/*
 * test_model.c: gen/site/model, the site's model as the pages read it:
 * each project's open conflicts and its violations (open first) come
 * from the indexes by project, with nothing of another project, of no
 * project or of a project the store does not have.
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

#include "site/model.h"
#include "store/facts.h"
#include "store/store.h"

static char path[64];

/* Three projects; conflicts and violations of two of them (open and
 * closed, interleaved by detection), of none and of a project that is
 * not there; p3 has neither. */
static const char base_sql[] =
    "INSERT INTO projects(id, name) VALUES ('p1', 'P1'), ('p2', 'P2'),"
    " ('p3', 'P3');"
    "INSERT INTO conflicts(id, detected_at, slot_kind, slot_key, project,"
    " status) VALUES"
    " ('c1', '2026-01-05', 'cross_layer', '[\"a\"]', 'p2', 'open'),"
    " ('c2', '2026-01-04', 'cross_layer', '[\"b\"]', 'p2', 'resolved'),"
    " ('c3', '2026-01-03', 'cross_layer', '[\"c\"]', 'p1', 'open'),"
    " ('c4', '2026-01-02', 'cross_layer', '[\"d\"]', '', 'open'),"
    " ('c5', '2026-01-01', 'cross_layer', '[\"e\"]', 'gone', 'open'),"
    " ('c6', '2025-12-31', 'cross_layer', '[\"f\"]', 'p2', 'open'),"
    " ('c7', '2025-12-30', 'cross_layer', '[\"g\"]', 'p1', 'dismissed');"
    "INSERT INTO rule_violations(id, rule_id, severity, project, facts,"
    " status, detected_at) VALUES"
    " ('chk-1', 'r', 'warn', 'p2', '[\"entity:e1\"]', 'open', '2026'),"
    " ('chk-2', 'r', 'warn', 'p2', '[\"entity:e2\"]', 'closed', '2026'),"
    " ('chk-3', 'r', 'error', 'p2', '[\"entity:e3\"]', 'open', '2026'),"
    " ('chk-4', 'r', 'warn', 'p1', '[\"entity:e4\"]', 'closed', '2026'),"
    " ('chk-5', 'r', 'warn', '', '[\"entity:e5\"]', 'open', '2026'),"
    " ('chk-6', 'r', 'warn', 'gone', '[\"entity:e6\"]', 'open', '2026');";

static struct site_model m;

static int
setup(void **state)
{
	mirror_error err;
	sqlite3 *db;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/test_model.%ld.db", (long)getpid());
	unlink(path);
	if (store_create(path, &err) != 0 ||
	    sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	if (sqlite3_exec(db, base_sql, NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return -1;
	}
	sqlite3_close(db);
	memset(&m, 0, sizeof(m));
	m.now = 1700000000;
	if (store_open(&m.st, path, STORE_READ, &err) != 0 ||
	    store_read_begin(m.st, &err) != 0 ||
	    facts_digest(&m.digest, m.st, &(const struct facts_digest_plan){ .now = m.now }, &err) != 0 ||
	    site_model_read(&m, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	store_read_end(m.st);
	site_model_free(&m);
	store_close(m.st);
	unlink(path);
	return 0;
}

/* The ids of project id's entries of ix in a list of conflicts (kind
 * 'c') or violations ('v'), joined by spaces. */
static const char *
ids_of(const struct model_index *ix, char kind, const char *id)
{
	static char buf[128];
	long p = model_project_index(&m, id);

	assert_true(p >= 0);
	buf[0] = '\0';
	for (size_t k = ix->start[p]; k < ix->start[p + 1]; k++) {
		const char *e = kind == 'c' ?
		    m.conflicts.items[ix->ord[k]].id :
		    m.violations.items[ix->ord[k]].id;

		if (buf[0] != '\0')
			strcat(buf, " ");
		strcat(buf, e);
	}
	return buf;
}

/* Each project's open conflicts, in the review queue's order (newest
 * first); the closed ones, those of no project and of a missing
 * project are in none. */
static void
test_open_conflicts(void **state)
{
	(void)state;
	assert_int_equal(m.n_projects, 3);
	assert_string_equal(ids_of(&m.open_of, 'c', "p1"), "c3");
	assert_string_equal(ids_of(&m.open_of, 'c', "p2"), "c1 c6");
	assert_string_equal(ids_of(&m.open_of, 'c', "p3"), "");
	assert_int_equal(m.open_of.start[3], 3);
}

/* Each project's violations, open first and errors before warnings,
 * closed ones after; none of no project or of a missing project. */
static void
test_checks(void **state)
{
	(void)state;
	assert_string_equal(ids_of(&m.checks_of, 'v', "p1"), "chk-4");
	assert_string_equal(ids_of(&m.checks_of, 'v', "p2"),
	    "chk-3 chk-1 chk-2");
	assert_string_equal(ids_of(&m.checks_of, 'v', "p3"), "");
	assert_int_equal(m.checks_of.start[3], 4);
}

/* The model of the store at path read with MIRROR_JOBS jobs into *x
 * (its connection open in a read until model_close). */
static void
model_jobs(struct site_model *x, const char *jobs)
{
	mirror_error err;

	memset(x, 0, sizeof(*x));
	x->now = m.now;
	assert_int_equal(setenv("MIRROR_JOBS", jobs, 1), 0);
	assert_int_equal(store_open(&x->st, path, STORE_READ, &err), 0);
	assert_int_equal(store_read_begin(x->st, &err), 0);
	assert_int_equal(facts_digest(&x->digest, x->st, &(const struct facts_digest_plan){ .now = x->now }, &err), 0);
	assert_int_equal(site_model_read(x, &err), 0);
	unsetenv("MIRROR_JOBS");
}

static void
model_close(struct site_model *x)
{
	store_read_end(x->st);
	site_model_free(x);
	store_close(x->st);
}

/* Read on one connection or with the conflicts and the rules' tables
 * on connections of their own, the model is the same. */
static void
test_model_jobs(void **state)
{
	struct site_model one, two;

	(void)state;
	model_jobs(&one, "1");
	model_jobs(&two, "2");
	assert_int_equal(one.n_projects, two.n_projects);
	assert_int_equal(one.conflicts.n, 7);
	assert_int_equal(two.conflicts.n, one.conflicts.n);
	for (size_t i = 0; i < one.conflicts.n; i++)
		assert_string_equal(one.conflicts.items[i].id,
		    two.conflicts.items[i].id);
	assert_int_equal(one.open_conflicts, 5);
	assert_int_equal(two.open_conflicts, one.open_conflicts);
	assert_int_equal(one.violations.n, 6);
	assert_int_equal(two.violations.n, one.violations.n);
	for (size_t i = 0; i < one.violations.n; i++)
		assert_string_equal(one.violations.items[i].id,
		    two.violations.items[i].id);
	for (size_t p = 0; p <= one.n_projects; p++) {
		assert_int_equal(one.open_of.start[p], two.open_of.start[p]);
		assert_int_equal(one.checks_of.start[p],
		    two.checks_of.start[p]);
	}
	model_close(&one);
	model_close(&two);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_conflicts),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_model_jobs),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
