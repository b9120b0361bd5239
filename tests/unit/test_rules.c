/*
 * test_rules.c: declarative rules (core/rules/rules.h): reading rule
 * files with every header error and its line, hostile rules refused by
 * the guard, the budget and the row cap while the other rules still run
 * and the store stays as it was, the shape of a result, the life of a
 * violation, parameters, the store's own mirror_rules, the digest,
 * every function a rule may call kept short with long arguments, and
 * the keys that keep a rule whose tables did not change, also those
 * written after a sweep with no digest before it.
 * The promises of doc/rules.md, "What a rule returns".
 * The promises of doc/rules.md, "Violations over time".
 * The promises of doc/rules.md, "Speed: rules run beside the sweep".
 */
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <dirent.h>

#include "rules/rules.h"
#include "rules/rules_int.h"
#include "store/digest.h"
#include "store/facts.h"
#include "store/store.h"
#include "sweep/sweep.h"
#include "sys/clock.h"
#include "util/strbuf.h"

#define NOW ((time_t)1700000000)

struct fixture {
	char dir[64];
	char path[96];
	mirror_store *st;
	FILE *diag;
};

static const char rows[] =
	"INSERT INTO projects(id, name, aliases) VALUES"
	" ('p05-interferometer', 'P05', '[\"p05\"]'), ('p06', 'P06', '[]');"
	"INSERT INTO entities(id, entity_type, name, project, properties)"
	" VALUES ('e1', 'component', 'Mount', 'p05', '{}'),"
	" ('e2', 'component', 'Lens', 'p05-interferometer',"
	" '{\"material\":\"BK7\"}'),"
	" ('e3', 'component', 'Arm', 'p06', '{}');"
	"INSERT INTO memories(id, memory_type, content, project) VALUES"
	" ('m1', 'preference', 'prefers rebase', 'p06');";

/* The rule most tests run: components with no material property. */
#define NO_MATERIAL \
	"-- rule: no-material\n" \
	"-- severity: warn\n" \
	"-- label: no material\n" \
	"-- description: A component with no material.\n" \
	"SELECT project, json_array('entity:' || id) AS facts,\n" \
	"       'component ' || name || ' has no material' AS message\n" \
	"FROM entities WHERE entity_type = 'component'\n" \
	"  AND json_extract(properties, '$.material') IS NULL;\n"

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	mirror_error err;

	if (f == NULL)
		return -1;
	strcpy(f->dir, "/tmp/mirror-test-rules.XXXXXX");
	if (mkdtemp(f->dir) == NULL)
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/s.db", f->dir);
	if (store_create(f->path, &err) < 0 ||
	    store_open(&f->st, f->path, STORE_WRITE, &err) < 0 ||
	    sqlite3_exec(store_db(f->st), rows, NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	store_close(f->st);
	if (store_open(&f->st, f->path, STORE_WRITE, &err) < 0)
		return -1;
	f->diag = tmpfile();
	*state = f;
	return f->diag != NULL ? 0 : -1;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	store_close(f->st);
	fclose(f->diag);
	unsetenv("MIRROR_RULE_STEPS");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd) != 0)
		return -1;
	free(f);
	return 0;
}

static void
run_sql(struct fixture *f, const char *sql)
{
	assert_int_equal(sqlite3_exec(store_db(f->st), sql, NULL, NULL, NULL),
	    SQLITE_OK);
}

/* The one value sql returns, as text ("" for none), in a static buffer. */
static const char *
q(struct fixture *f, const char *sql)
{
	static char buf[4096];
	sqlite3_stmt *s;

	buf[0] = '\0';
	assert_int_equal(sqlite3_prepare_v2(store_db(f->st), sql, -1, &s,
	    NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		snprintf(buf, sizeof(buf), "%s", sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return buf;
}

/* Every row of the store-owned tables and the schema, as one text. */
static char *
dump(struct fixture *f)
{
	static const char *const tables[] = { "projects", "project_state",
	    "entities", "relationships", "memories", "memory_audit" };
	strbuf sb;

	strbuf_init(&sb);
	for (size_t t = 0; t < sizeof(tables) / sizeof(*tables); t++) {
		char sql[128];
		sqlite3_stmt *s;

		snprintf(sql, sizeof(sql), "SELECT * FROM %s ORDER BY rowid",
		    tables[t]);
		assert_int_equal(sqlite3_prepare_v2(store_db(f->st), sql, -1,
		    &s, NULL), SQLITE_OK);
		while (sqlite3_step(s) == SQLITE_ROW)
			for (int i = 0; i < sqlite3_column_count(s); i++)
				strbuf_printf(&sb, "%s|", sqlite3_column_text(s,
				    i) ? (const char *)sqlite3_column_text(s,
				    i) : "NULL");
		sqlite3_finalize(s);
	}
	strbuf_puts(&sb, q(f, "SELECT group_concat(type || name || "
	    "coalesce(sql, ''), ';') FROM (SELECT * FROM sqlite_schema "
	    "ORDER BY name)"));
	return strbuf_detach(&sb);
}

/* Everything written to the fixture's diag since the last call. */
static char *
diag_text(struct fixture *f)
{
	strbuf sb;
	char buf[512];

	strbuf_init(&sb);
	rewind(f->diag);
	while (fgets(buf, sizeof(buf), f->diag) != NULL)
		strbuf_puts(&sb, buf);
	rewind(f->diag);
	assert_int_equal(ftruncate(fileno(f->diag), 0), 0);
	return strbuf_detach(&sb);
}

/* Load text as file name, tier user, into rs with the fixture's diag. */
static void
load(struct fixture *f, struct rule_set *rs, const char *text)
{
	rules_init(rs);
	rs->diag = f != NULL ? f->diag : NULL;
	assert_int_equal(rules_load_text(rs, text, strlen(text), "t/x.sql",
	    RULE_USER, NULL), 0);
}

/* One sweep with rs at NOW + days. */
static void
sweep(struct fixture *f, struct sweep_run *run, const struct rule_set *rs,
    int days)
{
	const struct sweep_plan plan = { .set = rs };
	mirror_error err;

	err.msg[0] = '\0';
	assert_int_equal(sweep_run_rules(run, f->st, NOW + days * 86400,
	    &plan, &err), 0);
}

/* ---- reading rule files ------------------------------------------------ */

/* 1: two rules with a free comment before them, continuations, params. */
static void
test_parse_ok(void **state)
{
	struct rule_set rs;
	const char *text =
	    "-- The rules of a team. Free words.\n"
	    "\n"
	    NO_MATERIAL
	    "\n"
	    "-- Above the header: the author's.\n"
	    "-- rule: stale-state\n"
	    "-- severity: error\n"
	    "-- description: A trusted value not touched for a long time\n"
	    "--   while its project moved on.\n"
	    "-- param: days = 90\n"
	    "-- param: kind = decision\n"
	    "SELECT '' AS project, '[\"project_state:s1\"]' AS facts,\n"
	    "  'x' AS message WHERE :days > 0 AND :kind <> ''; -- trailing\n";

	(void)state;
	load(NULL, &rs, text);
	assert_int_equal(rs.n, 2);
	assert_null(rs.v[0].error);
	assert_string_equal(rs.v[0].id, "no-material");
	assert_int_equal(rs.v[0].severity, RULE_WARN);
	assert_string_equal(rs.v[0].label, "no material");
	assert_string_equal(rs.v[0].origin, "t/x.sql:3");
	assert_int_equal(rs.v[0].sql_line, 7);
	assert_non_null(strstr(rs.v[0].query, "IS NULL;"));
	assert_null(rs.v[1].error);
	assert_string_equal(rs.v[1].id, "stale-state");
	assert_int_equal(rs.v[1].severity, RULE_ERROR);
	assert_string_equal(rs.v[1].origin, "t/x.sql:13");
	assert_string_equal(rs.v[1].description, "A trusted value not touched "
	    "for a long time while its project moved on.");
	assert_int_equal(rs.v[1].nparams, 2);
	assert_string_equal(rs.v[1].params[0].name, "days");
	assert_string_equal(rs.v[1].params[0].value, "90");
	assert_string_equal(rs.v[1].params[1].value, "decision");
	rules_free(&rs);
}

/* 2: every header error, each with its line. */
static void
test_parse_errors(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "-- rule: a\n-- description: d\nSELECT 1;\n",
		  "line 1: no '-- severity:' line" },
		{ "-- rule: a\n-- severity: fatal\n-- description: d\n"
		  "SELECT 1;\n", "line 2: severity: 'fatal' is not error" },
		{ "-- rule: a\n-- severty: warn\n-- description: d\nSELECT 1;\n",
		  "line 2: unknown header key 'severty' (did you mean "
		  "'severity'?)" },
		{ "-- rule: a\n-- severity: warn\n-- severity: off\n"
		  "-- description: d\nSELECT 1;\n",
		  "line 3: a second 'severity' (the first is at line 2)" },
		{ "-- rule: Bad_Id\n-- severity: warn\n-- description: d\n"
		  "SELECT 1;\n", "line 1: rule: bad id 'Bad_Id'" },
		{ "-- rule: a\n-- severity: warn\nSELECT 1;\n",
		  "line 1: no '-- description:' line" },
		{ "\n\n-- rule: a\n-- severity: warn\n-- description: d\n",
		  "line 3: a header with no SQL statement after it" },
		{ "\nSELECT 1;\n", "line 2: an SQL statement with no '-- rule:' "
		  "header above it" },
		{ "-- rule: a\n-- severity: warn\n-- description: d\n"
		  "SELECT 1\nFROM entities\n",
		  "line 4: the statement is not ended by ';' (the file ends at "
		  "line 5)" },
		{ "-- rule: a\n-- severity: warn\n-- description: d\n"
		  "-- param: x\nSELECT 1;\n", "line 4: param: want 'NAME = "
		  "VALUE'" },
		{ "-- rule: a\n-- severity: warn\n-- description: d\n"
		  "-- param: now = 1\nSELECT 1;\n", "line 4: param: bad name "
		  "'now'" },
		{ "-- rule: a\n-- severity: warn\n-- description: d\n"
		  "-- param: today = 1\nSELECT 1;\n", "line 4: param: bad "
		  "name 'today'" },
		{ "-- rule: a\n--   more\n-- severity: warn\n"
		  "-- description: d\nSELECT 1;\n", "line 2: a continuation "
		  "line" },
		{ "-- rule: a\n-- severity: warn\n-- description: d\n"
		  "-- just words here\nSELECT 1;\n", "line 4: not a header "
		  "line" },
		{ "-- rule: a\n-- severity: warn\n-- label:\n"
		  "-- description: d\nSELECT 1;\n", "line 3: label: empty" },
		{ "-- rule: a\n-- severity: warn\n-- description: d\n"
		  "-- param: v = 9223372036854775808\nSELECT :v;\n",
		  "line 4: param: v = 9223372036854775808 is an integer outside "
		  "the 64-bit range" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct rule_set rs;

		load(NULL, &rs, cases[i].text);
		assert_int_equal(rs.n, 1);
		if (rs.v[0].error == NULL ||
		    strstr(rs.v[0].error, cases[i].want) == NULL)
			fail_msg("case %zu: want '%s', got '%s'", i,
			    cases[i].want, rs.v[0].error ? rs.v[0].error :
			    "(none)");
		rules_free(&rs);
	}
	{
		/* Text that is not rule text: refused, nothing added. */
		static const struct {
			const char *text, *want;
		} bad[] = {
			{ "-- rule: a\0\n", "rules t/n.sql:1: column 11 "
			  "contains a NUL byte (byte 0x00)" },
			{ "-- rule: a\n-- description: caf\xe9\n",
			  "rules t/n.sql:2: column 20 is not valid UTF-8 text "
			  "(byte 0xe9)" },
			{ "SELECT 1;\r\nSELECT '\x7f';", "rules t/n.sql:2: "
			  "column 9 holds a control character (byte 0x7f)" },
			{ "SELECT '\xc2\x85';", "rules t/n.sql:1: column 9 "
			  "holds a control character (byte 0xc2)" },
			{ "SELECT '\xed\xa0\x80';", "rules t/n.sql:1: column 9 "
			  "is not valid UTF-8 text" },
		};
		mirror_error err;

		for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
			struct rule_set rs;
			size_t len = strlen(bad[i].text);

			if (i == 0)
				len = 12;
			rules_init(&rs);
			assert_int_equal(rules_load_text(&rs, bad[i].text, len,
			    "t/n.sql", RULE_USER, &err), -MIRROR_EINPUT);
			assert_int_equal(rs.n, 0);
			if (strstr(err.msg, bad[i].want) == NULL)
				fail_msg("case %zu: want '%s', got '%s'", i,
				    bad[i].want, err.msg);
			rules_free(&rs);
		}
	}
	{
		/* A byte order mark is skipped; tab and CRLF are text. */
		struct rule_set rs;
		const char *t = "\xef\xbb\xbf-- rule: a\r\n-- severity: warn\r\n"
		    "-- description: d\r\nSELECT\t1;\r\n";

		load(NULL, &rs, t);
		assert_int_equal(rs.n, 1);
		assert_null(rs.v[0].error);
		assert_string_equal(rs.v[0].origin, "t/x.sql:1");
		rules_free(&rs);
	}
}

/* 3: a user rule replaces the starter rule of its id; off turns off. */
static void
test_override(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;
	const char *off = "-- rule: no-material\n-- severity: off\n"
	    "-- description: not for us\nSELECT 1;\n";
	char *d;

	rules_init(&rs);
	rs.diag = f->diag;
	rules_load_text(&rs, NO_MATERIAL, strlen(NO_MATERIAL), "rules/a.sql",
	    RULE_STARTER, NULL);
	rules_load_text(&rs, off, strlen(off), "mine/b.sql", RULE_USER, NULL);
	assert_int_equal(rs.v[0].replaced, 1);
	assert_int_equal(rs.v[1].replaced, 0);
	sweep(f, &run, &rs, 0);
	assert_int_equal(run.violations_opened, 0);
	assert_string_equal(q(f, "SELECT count(*) FROM rule_runs"), "0");
	rules_free(&rs);
	/* Two of one tier: the second is told, the first runs. */
	rules_init(&rs);
	rs.diag = f->diag;
	rules_load_text(&rs, NO_MATERIAL, strlen(NO_MATERIAL), "mine/a.sql",
	    RULE_USER, NULL);
	rules_load_text(&rs, NO_MATERIAL, strlen(NO_MATERIAL), "mine/b.sql",
	    RULE_USER, NULL);
	sweep(f, &run, &rs, 0);
	assert_int_equal(run.violations_opened, 2);
	assert_int_equal(run.rules_failed, 1);
	d = diag_text(f);
	assert_string_equal(d, "mirror: rule no-material (mine/b.sql:1): the "
	    "id no-material is taken by another rule, which runs instead\n");
	free(d);
	rules_free(&rs);
}

/* ---- hostile rules ------------------------------------------------------ */

/* A hostile rule and the words its failure must hold. */
static const struct {
	const char *sql, *want;
} hostile[] = {
	{ "INSERT INTO entities(id, entity_type, name) VALUES('x', 'c', 'x');",
	  "refused: a rule may only read (INSERT into entities)" },
	{ "UPDATE entities SET name = 'x';", "(UPDATE of entities)" },
	{ "DELETE FROM memories;", "(DELETE from memories)" },
	{ "CREATE TABLE evil(x);", "(CREATE of a table, index, view" },
	{ "CREATE TEMP VIEW v AS SELECT 1;", "(CREATE of a table" },
	{ "DROP TABLE memories;", "(DROP of a table, index" },
	{ "ATTACH DATABASE ':memory:' AS x;", "(ATTACH of :memory:)" },
	{ "PRAGMA journal_mode = OFF;", "(PRAGMA journal_mode)" },
	{ "SELECT name AS project, '[\"entity:e1\"]' AS facts, '' AS message "
	  "FROM pragma_table_info('entities');", "a table-valued function" },
	{ "SELECT load_extension('/nonexistent.so') AS project, "
	  "'[\"entity:e1\"]' AS facts, '' AS message;",
	  "(the function load_extension())" },
	{ "SELECT '' AS project, json_array('entity:' || hex(randomblob(4))) "
	  "AS facts, '' AS message;", "(the function randomblob())" },
	{ "BEGIN;", "(transaction control" },
	{ "SAVEPOINT s;", "(SAVEPOINT BEGIN)" },
	{ "SELECT 1 AS project, '[\"entity:e1\"]' AS facts, '' AS message; "
	  "DELETE FROM entities;", "more than one statement" },
	{ "VACUUM;", "" },
	{ "ANALYZE;", "(ANALYZE" },
};

/* 4: every hostile rule is refused and told; the good rule between
 * them records its violations; the store is as it was. */
static void
test_hostile(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;
	strbuf text;
	char *before, *after, *d;
	size_t n = sizeof(hostile) / sizeof(*hostile);

	strbuf_init(&text);
	for (size_t i = 0; i < n; i++) {
		strbuf_printf(&text, "-- rule: hostile-%zu\n-- severity: error\n"
		    "-- description: hostile\n%s\n\n", i, hostile[i].sql);
		if (i == n / 2)
			strbuf_printf(&text, "%s\n", NO_MATERIAL);
	}
	load(f, &rs, text.data);
	strbuf_free(&text);
	before = dump(f);
	sweep(f, &run, &rs, 0);
	after = dump(f);
	assert_string_equal(before, after);
	assert_string_equal(q(f, "PRAGMA integrity_check"), "ok");
	assert_int_equal(run.rules_failed, (long long)n);
	assert_int_equal(run.violations_opened, 2);
	assert_string_equal(q(f, "SELECT group_concat(facts, ' ') FROM (SELECT "
	    "facts FROM rule_violations WHERE status = 'open' ORDER BY facts)"),
	    "[\"entity:e1\"] [\"entity:e3\"]");
	d = diag_text(f);
	for (size_t i = 0; i < n; i++) {
		char want[512], sql[128];

		snprintf(want, sizeof(want), "mirror: rule hostile-%zu (t/x.sql:",
		    i);
		if (strstr(d, want) == NULL)
			fail_msg("no line for hostile-%zu in:\n%s", i, d);
		snprintf(sql, sizeof(sql), "SELECT error FROM rule_runs WHERE "
		    "rule_id = 'hostile-%zu' AND status = 'failed'", i);
		if (strstr(q(f, sql), hostile[i].want) == NULL ||
		    q(f, sql)[0] == '\0')
			fail_msg("hostile-%zu: want '%s', got '%s'", i,
			    hostile[i].want, q(f, sql));
	}
	assert_string_equal(q(f, "SELECT status FROM rule_runs WHERE rule_id = "
	    "'no-material'"), "ok");
	free(d);
	free(before);
	free(after);
	rules_free(&rs);
}

/* 5: a recursive CTE that never ends runs out of its budget, and 10^6
 * rows hit the cap (with the default budget: a loaded machine must not
 * make it a budget failure); the good rule still runs and the store is
 * as it was. */
static void
test_budget_and_cap(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;
	char *before, *after, *d;

	load(f, &rs, "-- rule: forever\n-- severity: error\n"
	    "-- description: never ends\n"
	    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)\n"
	    "SELECT '' AS project, json_array('entity:e' || max(i)) AS facts,\n"
	    "  '' AS message FROM n;\n\n" NO_MATERIAL);
	setenv("MIRROR_RULE_STEPS", "1", 1);
	before = dump(f);
	sweep(f, &run, &rs, 0);
	unsetenv("MIRROR_RULE_STEPS");
	assert_int_equal(run.rules_failed, 1);
	assert_int_equal(run.violations_opened, 2);
	d = diag_text(f);
	assert_string_equal(d, "mirror: rule forever (t/x.sql:1): ran past "
	    "its budget of 1 million SQLite steps (MIRROR_RULE_STEPS sets it)\n");
	free(d);
	rules_free(&rs);
	load(f, &rs, "-- rule: million\n-- severity: warn\n"
	    "-- description: too many\n"
	    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n\n"
	    "  WHERE i < 1000000)\n"
	    "SELECT '' AS project, json_array('memory:m' || i) AS facts,\n"
	    "  'm' AS message FROM n;\n\n" NO_MATERIAL);
	sweep(f, &run, &rs, 0);
	after = dump(f);
	assert_string_equal(before, after);
	assert_int_equal(run.rules_failed, 1);
	assert_int_equal(run.violations_open_after, 2);
	d = diag_text(f);
	assert_string_equal(d, "mirror: rule million (t/x.sql:1): returned "
	    "more than 100000 rows (the cap; narrow the query)\n");
	assert_string_equal(q(f, "SELECT hits FROM rule_runs WHERE rule_id = "
	    "'million'"), "100001");
	assert_string_equal(q(f, "SELECT count(*) FROM rule_violations"), "2");
	free(d);
	free(before);
	free(after);
	rules_free(&rs);
}

/* 6: the wrong shape, each told with its row; a rule that fails keeps
 * the violations it had open. */
static void
test_shape(void **state)
{
	static const struct {
		const char *select, *want;
	} cases[] = {
		{ "SELECT '' AS project, '[\"entity:e1\"]' AS fact, '' AS "
		  "message", "the result has no column 'facts'" },
		{ "SELECT '' AS project, 'entity:e1' AS facts, '' AS message",
		  "row 1: facts is not a JSON array" },
		{ "SELECT '' AS project, '[\"thing:e1\"]' AS facts, '' AS "
		  "message", "row 1: fact 1 is not \"LAYER:ID\"" },
		{ "SELECT '' AS project, '[]' AS facts, '' AS message",
		  "row 1: facts is not a JSON array of 1" },
		{ "SELECT '' AS project, '[\"entity:e1\", 3]' AS facts, '' AS "
		  "message", "row 1: fact 2 is not" },
		{ "SELECT '' AS project, '[\"entity:\"]' AS facts, '' AS "
		  "message", "row 1: fact 1 is not" },
		{ "SELECT '' AS project, '[\"entity:e1\",]' AS facts, '' AS "
		  "message", "row 1: facts is not a JSON array" },
		{ "SELECT '' AS project, '[\"entity:e1\"]]' AS facts, '' AS "
		  "message", "row 1: facts is not a JSON array" },
		{ "SELECT '' AS project, '[\"entity:e1\",\"memory\"]' AS facts, "
		  "'' AS message", "row 1: fact 2 is not" },
		{ "SELECT * FROM nosuchtable", "line 4: no such table: "
		  "nosuchtable" },
		{ "SELECT '' AS project, ? AS facts, '' AS message",
		  "a positional parameter ?" },
		{ "SELECT '' AS project, :x AS facts, '' AS message",
		  "parameter :x has no value" },
	};
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;

	load(f, &rs, NO_MATERIAL);
	sweep(f, &run, &rs, 0);
	rules_free(&rs);
	assert_int_equal(run.violations_open_after, 2);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char text[1024], *d;

		snprintf(text, sizeof(text), "-- rule: no-material\n"
		    "-- severity: warn\n-- description: d\n%s;\n",
		    cases[i].select);
		load(f, &rs, text);
		sweep(f, &run, &rs, 0);
		d = diag_text(f);
		if (strstr(d, cases[i].want) == NULL)
			fail_msg("case %zu: want '%s' in '%s'", i,
			    cases[i].want, d);
		assert_int_equal(run.rules_failed, 1);
		assert_int_equal(run.violations_closed, 0);
		assert_int_equal(run.violations_open_after, 2);
		free(d);
		rules_free(&rs);
	}
}

/* ---- the life of a violation -------------------------------------------- */

/* 7: open, kept (same id, nothing written), message updated, closed by
 * itself, reopened as a new row with another id. */
static void
test_lifecycle(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;
	char id1[64], id2[64];

	load(f, &rs, NO_MATERIAL);
	sweep(f, &run, &rs, 0);
	assert_int_equal(run.violations_opened, 2);
	assert_true(run.rows_written > 0);
	snprintf(id1, sizeof(id1), "%s", q(f, "SELECT id FROM rule_violations "
	    "WHERE facts = '[\"entity:e1\"]'"));
	assert_int_equal(strlen(id1), 16);
	assert_memory_equal(id1, "chk-", 4);
	/* The project is canonical: e1's is the alias p05. */
	assert_string_equal(q(f, "SELECT project FROM rule_violations WHERE "
	    "id = (SELECT id FROM rule_violations WHERE facts = "
	    "'[\"entity:e1\"]')"), "p05-interferometer");
	assert_string_equal(q(f, "SELECT layer || ':' || fact_id FROM "
	    "violation_facts WHERE violation_id = (SELECT id FROM "
	    "rule_violations WHERE facts = '[\"entity:e1\"]')"), "entity:e1");
	sweep(f, &run, &rs, 1);
	assert_int_equal(run.violations_opened, 0);
	assert_int_equal(run.rows_written, 0);
	assert_string_equal(q(f, "SELECT id FROM rule_violations WHERE facts = "
	    "'[\"entity:e1\"]'"), id1);
	run_sql(f, "UPDATE entities SET name = 'Base' WHERE id = 'e1'");
	sweep(f, &run, &rs, 2);
	assert_int_equal(run.rows_written, 1);
	assert_string_equal(q(f, "SELECT message FROM rule_violations WHERE "
	    "id = (SELECT id FROM rule_violations WHERE facts = "
	    "'[\"entity:e1\"]')"), "component Base has no material");
	run_sql(f, "UPDATE entities SET properties = '{\"material\":\"Al\"}' "
	    "WHERE id = 'e1'");
	sweep(f, &run, &rs, 3);
	assert_int_equal(run.violations_closed, 1);
	assert_int_equal(run.violations_open_after, 1);
	assert_string_equal(q(f, "SELECT status || ' ' || closed_at || ' ' || "
	    "(closed_run = (SELECT max(id) FROM sweep_runs)) FROM "
	    "rule_violations WHERE facts = '[\"entity:e1\"]'"),
	    "closed 2023-11-17 22:13:20 1");
	run_sql(f, "UPDATE entities SET properties = '{}' WHERE id = 'e1'");
	sweep(f, &run, &rs, 4);
	assert_int_equal(run.violations_opened, 1);
	snprintf(id2, sizeof(id2), "%s", q(f, "SELECT id FROM rule_violations "
	    "WHERE facts = '[\"entity:e1\"]' AND status = 'open'"));
	assert_string_not_equal(id1, id2);
	assert_string_equal(q(f, "SELECT count(*) FROM rule_violations WHERE "
	    "facts = '[\"entity:e1\"]'"), "2");
	assert_string_equal(q(f, "SELECT count(*) FROM rule_runs"), "5");
	rules_free(&rs);
}

/* 8: facts in any order, with repeats, with blanks or without (read by
 * jansson or by hand), are one violation; the ids are the same on
 * another store and in a scoped sweep; gone rules close. */
static void
test_identity_and_scope(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;
	mirror_error err;
	const char *p = "p06";
	const struct sweep_scope scope = { &p, 1, 0, 0, 0, NULL, 0 };
	const struct sweep_plan plan = { .scope = &scope, .set = &rs };
	char id[64];

	load(f, &rs, "-- rule: pair\n-- severity: error\n-- description: d\n"
	    "SELECT 'p05' AS project, '[\"memory:m1\", \"entity:e2\", "
	    "\"memory:m1\"]' AS facts, 'one' AS message UNION ALL\n"
	    "SELECT 'p05', '[\"entity:e2\", \"memory:m1\"]', 'two' UNION ALL\n"
	    "SELECT 'p05', '[\"memory:m1\",\"entity:e2\",\"entity:e2\"]', "
	    "'three';\n");
	assert_int_equal(sweep_run_rules(&run, f->st, NOW, &plan, &err), 0);
	assert_int_equal(run.violations_opened, 1);
	assert_string_equal(q(f, "SELECT facts || ' ' || message || ' ' || "
	    "project FROM rule_violations"), "[\"entity:e2\",\"memory:m1\"] "
	    "one p05-interferometer");
	snprintf(id, sizeof(id), "%s", q(f, "SELECT id FROM rule_violations"));
	sweep(f, &run, &rs, 1);
	assert_string_equal(q(f, "SELECT id FROM rule_violations"), id);
	assert_int_equal(run.rows_written, 0);
	rules_free(&rs);
	/* The rule is gone: its violation closes. */
	load(f, &rs, "");
	sweep(f, &run, &rs, 2);
	assert_int_equal(run.violations_closed, 1);
	rules_free(&rs);
	/* A rule that cannot be named fails: nothing else closes. */
	load(f, &rs, NO_MATERIAL "SELECT 1;\n");
	sweep(f, &run, &rs, 3);
	assert_int_equal(run.violations_open_after, 2);
	rules_free(&rs);
	load(f, &rs, "-- rule: broken\n-- description: d\nSELECT 1;\n");
	sweep(f, &run, &rs, 4);
	assert_int_equal(run.violations_closed, 2);
	free(diag_text(f));
	rules_free(&rs);
}

/* 9: parameters: the default, an override, :now, integers bound as
 * integers. */
static void
test_params(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;
	mirror_error err;

	load(f, &rs, "-- rule: p\n-- severity: warn\n-- description: d\n"
	    "-- param: n = 2\n-- param: word = two\n"
	    "SELECT '' AS project, '[\"entity:e1\"]' AS facts,\n"
	    "  typeof(:n) || ' ' || (:n + 1) || ' ' || :word || ' ' || :now\n"
	    "  AS message;\n");
	sweep(f, &run, &rs, 0);
	assert_string_equal(q(f, "SELECT message FROM rule_violations"),
	    "integer 3 two 2023-11-14 22:13:20");
	assert_int_equal(rules_override(&rs, "p", "word", "three", &err), 0);
	assert_int_equal(rules_override(&rs, "p", "n", "x1", &err), 0);
	sweep(f, &run, &rs, 0);
	assert_string_equal(q(f, "SELECT message FROM rule_violations"),
	    "text 1 three 2023-11-14 22:13:20");
	assert_int_equal(rules_override(&rs, "P!", "n", "1", &err),
	    -MIRROR_EINPUT);
	assert_int_equal(rules_override(&rs, "p", "now", "1", &err),
	    -MIRROR_EINPUT);
	/* Integers are 64 bits, never clamped. */
	assert_int_equal(rules_override(&rs, "p", "n", "-9223372036854775809",
	    &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "param.p.n: -9223372036854775809 is "
	    "an integer outside the 64-bit range"));
	{
		long long v;

		assert_int_equal(rules_param_int("-5", &v), 1);
		assert_true(v == -5);
		assert_int_equal(rules_param_int("9223372036854775807", &v), 1);
		assert_true(v == LLONG_MAX);
		assert_int_equal(rules_param_int("-9223372036854775808", &v),
		    1);
		assert_true(v == LLONG_MIN);
		assert_int_equal(rules_param_int("9223372036854775808", &v),
		    -1);
		assert_int_equal(rules_param_int("-", &v), 0);
		assert_int_equal(rules_param_int("+5", &v), 0);
		assert_int_equal(rules_param_int("1e3", &v), 0);
		assert_int_equal(rules_param_int("0.5", &v), 0);
	}
	rules_free(&rs);
}

/* 9b: the description a sweep records has each :NAME of a parameter
 * replaced by the value it bound (the override over the default); a
 * ':' after a name character, :now, a name with no value and a value
 * with a control character stay as written. */
static void
test_fill_params(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;
	mirror_error err;
	strbuf sb;

	load(f, &rs, "-- rule: p\n-- severity: warn\n-- description: in "
	    ":days days (:days), a:days, 12:30, ::days, :now, :nope, :d\n"
	    "--   and :ctl\n-- param: days = 30\n-- param: d = x\n"
	    "SELECT '' AS project, '[\"entity:e1\"]' AS facts, "
	    ":days AS message;\n");
	sweep(f, &run, &rs, 0);
	assert_string_equal(q(f, "SELECT description FROM rule_runs"),
	    "in 30 days (30), a:days, 12:30, ::days, :now, :nope, x and :ctl");
	assert_int_equal(rules_override(&rs, "p", "days", "7", &err), 0);
	assert_int_equal(rules_override(&rs, "p", "ctl", "a\tb", &err), 0);
	strbuf_init(&sb);
	rules_fill_params(&sb, &rs, &rs.v[0], rs.v[0].description);
	assert_string_equal(sb.data,
	    "in 7 days (7), a:days, 12:30, ::days, :now, :nope, x and :ctl");
	strbuf_free(&sb);
	rules_free(&rs);
}

/* 10: the store's mirror_rules run after the files; an id a file rule
 * holds is refused; a table of the wrong shape is told. */
static void
test_store_rules(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;
	char *d;

	run_sql(f, "CREATE TABLE mirror_rules(id TEXT, severity TEXT, label "
	    "TEXT, description TEXT, query TEXT);"
	    "INSERT INTO mirror_rules VALUES ('memo', 'warn', 'memo', "
	    "'a memory', 'SELECT project, json_array(''memory:'' || id) AS "
	    "facts, content AS message FROM memories'),"
	    "('no-material', 'error', '', 'dup', 'SELECT 1'),"
	    "('quiet', 'off', '', 'off', 'SELECT 1');");
	load(f, &rs, NO_MATERIAL);
	sweep(f, &run, &rs, 0);
	assert_int_equal(run.violations_opened, 3);
	assert_int_equal(run.rules_failed, 1);
	assert_string_equal(q(f, "SELECT origin || ' ' || label FROM rule_runs "
	    "WHERE rule_id = 'memo'"), "store:mirror_rules memo");
	d = diag_text(f);
	assert_string_equal(d, "mirror: rule no-material (store:mirror_rules): "
	    "the id no-material is taken by another rule, which runs "
	    "instead\n");
	free(d);
	run_sql(f, "DROP TABLE mirror_rules; CREATE TABLE mirror_rules(id "
	    "TEXT, sql TEXT)");
	sweep(f, &run, &rs, 1);
	d = diag_text(f);
	assert_non_null(strstr(d, "mirror: rule ? (store:mirror_rules): no "
	    "such column"));
	/* Its rules' violations stay: their rules could not be read. */
	assert_int_equal(run.violations_open_after, 3);
	free(d);
	rules_free(&rs);
}

/* 11: the digest follows the rules, and the day only with :now. */
static void
test_digest(void **state)
{
	struct rule_set a, b;
	char h1[17], h2[17], h3[17];
	mirror_error err;

	(void)state;
	load(NULL, &a, NO_MATERIAL);
	rules_digest(&a, 1, h1);
	rules_digest(&a, 2, h2);
	assert_string_equal(h1, h2);
	assert_int_equal(rules_override(&a, "no-material", "x", "1", &err), 0);
	rules_digest(&a, 1, h3);
	assert_string_not_equal(h1, h3);
	load(NULL, &b, "-- rule: t\n-- severity: warn\n-- description: d\n"
	    "SELECT :now;\n");
	rules_digest(&b, 1, h1);
	rules_digest(&b, 2, h2);
	assert_string_not_equal(h1, h2);
	rules_free(&a);
	rules_free(&b);
}

/* 12: a rules directory: *.sql in name order, others skipped, a missing
 * directory is none when allowed. */
static void
test_load_dir(void **state)
{
	struct fixture *f = *state;
	struct rule_set rs;
	mirror_error err;
	char dir[128], path[192];
	FILE *fp;

	snprintf(dir, sizeof(dir), "%s/rules", f->dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/b.sql", dir);
	fp = fopen(path, "w");
	fputs(NO_MATERIAL, fp);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/a.sql", dir);
	fp = fopen(path, "w");
	fputs("SELECT 1;\n", fp);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/c.txt", dir);
	fp = fopen(path, "w");
	fputs("SELECT 1;\n", fp);
	fclose(fp);
	rules_init(&rs);
	assert_int_equal(rules_load_dir(&rs, dir, "mine", RULE_USER, &err), 0);
	assert_int_equal(rs.n, 2);
	assert_string_equal(rs.v[0].origin, "mine/a.sql:1");
	assert_non_null(rs.v[0].error);
	assert_string_equal(rs.v[1].origin, "mine/b.sql:1");
	assert_null(rs.v[1].error);
	rules_free(&rs);
	snprintf(path, sizeof(path), "%s/none", f->dir);
	assert_int_equal(rules_load_dir(&rs, path, "x", RULE_STARTER, &err),
	    1);
	assert_int_equal(rules_load_dir(&rs, path, "x", RULE_USER, &err),
	    -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "cannot read the directory"));
	rules_free(&rs);
}

/* The rules a sweep records, without what depends on the run. */
static char *
recorded(sqlite3 *db)
{
	static const char *const sql[] = { "SELECT rule_id, status, project, "
	    "facts, message FROM rule_violations ORDER BY id",
	    "SELECT rule_id, origin, status, error, hits FROM rule_runs "
	    "ORDER BY sweep_run, rule_id",
	    "SELECT violation_id, layer, fact_id FROM violation_facts "
	    "ORDER BY 1, 2, 3" };
	strbuf sb;

	strbuf_init(&sb);
	for (size_t k = 0; k < sizeof(sql) / sizeof(*sql); k++) {
		sqlite3_stmt *s;

		assert_int_equal(sqlite3_prepare_v2(db, sql[k], -1, &s, NULL),
		    SQLITE_OK);
		while (sqlite3_step(s) == SQLITE_ROW)
			for (int i = 0; i < sqlite3_column_count(s); i++)
				strbuf_printf(&sb, "%s%c", sqlite3_column_text(s,
				    i) ? (const char *)sqlite3_column_text(s,
				    i) : "NULL", i + 1 < sqlite3_column_count(s) ?
				    '|' : '\n');
		sqlite3_finalize(s);
	}
	return strbuf_detach(&sb);
}

/* A rule that reads this run's open conflicts (directly, or through
 * a view), and one that reads facts alone. */
#define READS_SWEEP NO_MATERIAL "\n" \
	"-- rule: conflicted\n" \
	"-- severity: warn\n" \
	"-- description: The open conflicts, counted.\n" \
	"SELECT 'p05-interferometer' AS project,\n" \
	"  json_array('entity:e1') AS facts,\n" \
	"  'open conflicts: ' || count(*) AS message\n" \
	"FROM conflicts WHERE status = 'open' HAVING count(*) > 0;\n" \
	"\n" \
	"-- rule: conflicted-view\n" \
	"-- severity: warn\n" \
	"-- description: The same through a view.\n" \
	"SELECT 'p06' AS project, json_array('entity:e3') AS facts,\n" \
	"  'seen: ' || count(*) AS message FROM open_conflicts\n" \
	"HAVING count(*) > 0;\n"

/*
 * 13: in parallel with the sweep (a second core), rules are evaluated on a
 * second connection and give what the sweep's own connection gives; a rule
 * reading a table the sweep writes, even through a view, is left to the
 * sweep's connection and sees this run's conflicts.
 */
static void
test_parallel(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;
	const struct sweep_plan plan = { .set = &rs };
	mirror_store *other;
	mirror_error err;
	char path2[128], cmd[320], *a, *b, *d;

	run_sql(f, "CREATE VIEW open_conflicts AS SELECT id FROM conflicts "
	    "WHERE status = 'open';"
	    "INSERT INTO project_state(id, project, category, key, value) "
	    "VALUES ('s1', 'p05', 'decision', 'lateral_support_material', "
	    "'GF-PTFE');"
	    "INSERT INTO entities(id, entity_type, name, project, properties) "
	    "VALUES ('e9', 'decision', 'Lateral support material', 'p05', "
	    "'{\"target\":\"lateral support\",\"field\":\"material\","
	    "\"value\":\"PEEK\"}')");
	snprintf(path2, sizeof(path2), "%s/t.db", f->dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", f->path, path2);
	assert_int_equal(system(cmd), 0);
	load(f, &rs, READS_SWEEP);

	setenv("MIRROR_JOBS", "2", 1);
	sweep(f, &run, &rs, 0);
	assert_true(run.conflicts_opened >= 1);
	assert_int_equal(run.violations_opened, 4);
	assert_int_equal(run.rules_failed, 0);
	assert_int_equal(run.rules_parallel, 1);
	assert_string_equal(q(f, "SELECT message FROM rule_violations WHERE "
	    "rule_id = 'conflicted'"), "open conflicts: 1");
	assert_string_equal(q(f, "SELECT message FROM rule_violations WHERE "
	    "rule_id = 'conflicted-view'"), "seen: 1");

	setenv("MIRROR_JOBS", "1", 1);
	assert_int_equal(store_open(&other, path2, STORE_WRITE, &err), 0);
	assert_int_equal(sweep_run_rules(&run, other, NOW, &plan, &err), 0);
	assert_int_equal(run.rules_parallel, 0);
	a = recorded(store_db(f->st));
	b = recorded(store_db(other));
	assert_string_equal(a, b);
	store_close(other);
	unsetenv("MIRROR_JOBS");
	d = diag_text(f);
	assert_string_equal(d, "");
	free(d);
	free(a);
	free(b);
	rules_free(&rs);
}

/* A rule with :n hits, each naming one memory that need not exist. */
#define MANY \
	"-- rule: many\n" \
	"-- severity: warn\n" \
	"-- description: n hits.\n" \
	"-- param: n = 70\n" \
	"WITH RECURSIVE k(i) AS (SELECT 1 WHERE :n > 0 UNION ALL\n" \
	"  SELECT i + 1 FROM k WHERE i < :n)\n" \
	"SELECT 'p06' AS project, json_array('memory:x' || i) AS facts,\n" \
	"  'hit ' || i AS message FROM k;\n"

/*
 * 14: a rule with more hits than one batched INSERT takes: all opened
 * with their facts; closed; opened again while the first ids are
 * taken by the closed rows (a batch refused, opened one by one).
 */
static void
test_many(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;
	mirror_error err;

	load(f, &rs, MANY);
	sweep(f, &run, &rs, 0);
	assert_int_equal(run.violations_opened, 70);
	assert_string_equal(q(f, "SELECT count(*) || ' ' || count(DISTINCT "
	    "violation_id) FROM violation_facts"), "70 70");
	assert_string_equal(q(f, "SELECT count(*) FROM rule_violations v JOIN "
	    "violation_facts x ON x.violation_id = v.id AND x.layer = "
	    "'memory' AND v.facts = json_array('memory:' || x.fact_id) AND "
	    "v.message = 'hit ' || substr(x.fact_id, 2)"), "70");
	assert_int_equal(rules_override(&rs, "many", "n", "0", &err), 0);
	sweep(f, &run, &rs, 1);
	assert_int_equal(run.violations_closed, 70);
	assert_int_equal(rules_override(&rs, "many", "n", "70", &err), 0);
	sweep(f, &run, &rs, 2);
	assert_int_equal(run.violations_opened, 70);
	assert_string_equal(q(f, "SELECT count(*) || ' ' || count(DISTINCT id) "
	    "|| ' ' || sum(status = 'open') FROM rule_violations"),
	    "140 140 70");
	assert_string_equal(q(f, "SELECT count(*) FROM violation_facts"), "140");
	/* Each reopened id is the next free one of its set, as one by one. */
	assert_string_equal(q(f, "SELECT count(*) FROM rule_violations o JOIN "
	    "rule_violations c ON c.facts = o.facts AND c.status = 'closed' "
	    "WHERE o.status = 'open' AND o.id <> c.id"), "70");
	rules_free(&rs);
}

/* A busy handler that counts its calls (arg: an int) and waits for
 * nothing. Returns 0: give up at once. */
static int
count_busy(void *arg, int tries)
{
	(void)tries;
	(*(int *)arg)++;
	return 0;
}

/*
 * 15: while the rules' connection reads in parallel with the sweep, the
 * sweep's connection never waits on its lock, also when what it writes is far
 * more than its page cache holds (cache_spill must be off from before its
 * BEGIN: at a million facts each page over the cache waited the whole busy
 * timeout).
 */
static void
test_parallel_no_spill(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;
	mirror_error err;
	int busy = 0;

	load(f, &rs, MANY);
	assert_int_equal(rules_override(&rs, "many", "n", "3000", &err), 0);
	run_sql(f, "PRAGMA cache_size = 10");
	sqlite3_busy_handler(store_db(f->st), count_busy, &busy);
	setenv("MIRROR_JOBS", "2", 1);
	sweep(f, &run, &rs, 0);
	unsetenv("MIRROR_JOBS");
	assert_int_equal(run.rules_parallel, 1);
	assert_int_equal(run.violations_opened, 3000);
	assert_int_equal(busy, 0);
	assert_string_equal(q(f, "SELECT count(*) FROM violation_facts"),
	    "3000");
	/* Spilling again afterwards: the pragma is back on. */
	assert_string_not_equal(q(f, "PRAGMA main.cache_spill"), "0");
	sqlite3_busy_timeout(store_db(f->st), 10000);
	rules_free(&rs);
}

/* The sweep takes job, evaluated in parallel: the two violations of
 * NO_MATERIAL open (test_early, test_prepare_go). */
static void
sweep_took_parallel(struct fixture *f, const struct rule_set *rs,
    struct rules_job *job)
{
	struct sweep_run run;
	mirror_error err;

	assert_int_equal(sweep_run_rules(&run, f->st, NOW,
	    &(struct sweep_plan){ .set = rs, .early = job }, &err), 0);
	assert_int_equal(run.violations_opened, 2);
	assert_int_equal(run.rules_parallel, 1);
	assert_string_equal(q(f, "SELECT group_concat(facts, ' ') FROM (SELECT "
	    "facts FROM rule_violations WHERE status = 'open' ORDER BY facts)"),
	    "[\"entity:e1\"] [\"entity:e3\"]");
}

/*
 * 16: rules started early, in a read (a build's check): the sweep takes
 * the job when nothing was committed since, and the same rows are
 * recorded; rules_job_current refuses another clock, another set, and a
 * store another connection wrote to since; a sweep given such a job
 * drops it and sees the new row.
 */
static void
test_early(void **state)
{
	struct fixture *f = *state;
	struct rules_job *job;
	struct sweep_run run;
	struct rule_set rs, rs2;
	mirror_store *other;
	mirror_error err;
	char ts[MIRROR_TS_LEN], ts2[MIRROR_TS_LEN];

	load(f, &rs, NO_MATERIAL);
	load(NULL, &rs2, NO_MATERIAL);
	mirror_format_ts(ts, NOW);
	mirror_format_ts(ts2, NOW + 86400);
	setenv("MIRROR_JOBS", "2", 1);
	assert_int_equal(store_read_begin(f->st, &err), 0);
	assert_int_equal(rules_prepare_early(&job, f->st, &rs, ts, &err), 0);
	rules_go(job);
	store_read_end(f->st);
	sweep_took_parallel(f, &rs, job);

	assert_int_equal(store_read_begin(f->st, &err), 0);
	assert_int_equal(rules_prepare_early(&job, f->st, &rs, ts, &err), 0);
	rules_go(job);
	store_read_end(f->st);
	run_sql(f, "BEGIN IMMEDIATE; SELECT count(*) FROM entities;");
	assert_int_equal(rules_job_current(job, f->st, &rs, ts, &err), 1);
	assert_int_equal(rules_job_current(job, f->st, &rs, ts2, &err), 0);
	assert_int_equal(rules_job_current(job, f->st, &rs2, ts, &err), 0);
	run_sql(f, "COMMIT");
	assert_int_equal(store_open(&other, f->path, STORE_WRITE, &err), 0);
	assert_int_equal(sqlite3_exec(store_db(other), "INSERT INTO "
	    "entities(id, entity_type, name, project, properties) VALUES "
	    "('e4', 'component', 'Spider', 'p06', '{}')", NULL, NULL, NULL),
	    SQLITE_OK);
	store_close(other);
	run_sql(f, "BEGIN IMMEDIATE; SELECT count(*) FROM entities;");
	assert_int_equal(rules_job_current(job, f->st, &rs, ts, &err), 0);
	run_sql(f, "COMMIT");
	assert_int_equal(sweep_run_rules(&run, f->st, NOW,
	    &(struct sweep_plan){ .set = &rs, .early = job }, &err), 0);
	unsetenv("MIRROR_JOBS");
	assert_int_equal(run.violations_opened, 1);
	assert_string_equal(q(f, "SELECT facts FROM rule_violations WHERE "
	    "opened_run = (SELECT max(opened_run) FROM rule_violations)"),
	    "[\"entity:e4\"]");
	rules_free(&rs);
	rules_free(&rs2);
}

/* rules_go twice, on a thread of its own. */
static void *
go_twice(void *job)
{
	rules_go(job);
	rules_go(job);
	return NULL;
}

/*
 * 17: rules_prepare_early and rules_go apart. rules_go(NULL) does nothing;
 * rules_go from another thread, while the first connection reads on,
 * starts the parallel evaluation, and a second call does nothing more:
 * the sweep takes the job, evaluated in parallel, with test_early's rows. A
 * prepared job never given rules_go is evaluated on the sweep's
 * connection, with the same result.
 */
static void
test_prepare_go(void **state)
{
	struct fixture *f = *state;
	struct rules_job *job;
	struct sweep_run run;
	struct rule_set rs;
	mirror_error err;
	pthread_t t;
	char ts[MIRROR_TS_LEN];

	load(f, &rs, NO_MATERIAL);
	mirror_format_ts(ts, NOW);
	setenv("MIRROR_JOBS", "2", 1);
	rules_go(NULL);
	assert_int_equal(store_read_begin(f->st, &err), 0);
	assert_int_equal(rules_prepare_early(&job, f->st, &rs, ts, &err), 0);
	assert_int_equal(pthread_create(&t, NULL, go_twice, job), 0);
	assert_non_null(q(f, "SELECT count(*) FROM entities"));
	assert_int_equal(pthread_join(t, NULL), 0);
	store_read_end(f->st);
	sweep_took_parallel(f, &rs, job);

	assert_int_equal(store_read_begin(f->st, &err), 0);
	assert_int_equal(rules_prepare_early(&job, f->st, &rs, ts, &err), 0);
	store_read_end(f->st);
	assert_int_equal(sweep_run_rules(&run, f->st, NOW,
	    &(struct sweep_plan){ .set = &rs, .early = job }, &err), 0);
	unsetenv("MIRROR_JOBS");
	assert_int_equal(run.rules_parallel, 0);
	assert_int_equal(run.violations_opened, 0);
	assert_int_equal(run.violations_closed, 0);
	assert_int_equal(run.violations_open_after, 2);
	rules_free(&rs);
}

/* ---- keys: rules whose tables did not change are kept ------------------ */

/* A rule on memories and the clock. */
#define MEM_NOW \
	"-- rule: mem-now\n" \
	"-- severity: warn\n" \
	"-- description: A memory recorded before the sweep's day.\n" \
	"SELECT project, json_array('memory:' || id) AS facts,\n" \
	"       'memory ' || id || ' is old' AS message\n" \
	"FROM memories WHERE created_at < date(:now);\n"

/* A rule on relationships.created_at, which no page shows: the
 * relationships' sum holds it. */
#define EDGE_TIME \
	"-- rule: edge-time\n" \
	"-- severity: warn\n" \
	"-- description: A relationship recorded in 2020.\n" \
	"SELECT '' AS project, json_array('relationship:' || id) AS facts,\n" \
	"       'old edge' AS message\n" \
	"FROM relationships WHERE created_at LIKE '2020%';\n"

/* A rule on a column no digest sum holds. */
#define EDGE_ROWID \
	"-- rule: edge-rowid\n" \
	"-- severity: warn\n" \
	"-- description: A relationship among the first rows.\n" \
	"SELECT '' AS project, json_array('relationship:' || id) AS facts,\n" \
	"       'early edge' AS message\n" \
	"FROM relationships WHERE rowid <= 1;\n"

/* A rule on relationships and entities, whose project is an alias. */
#define PART_OF \
	"-- rule: part-of\n" \
	"-- severity: error\n" \
	"-- description: A part_of edge, named by its source's project.\n" \
	"SELECT e.project AS project, json_array('relationship:' || r.id,\n" \
	"       'entity:' || e.id) AS facts, r.id || ' ' || e.name AS message\n" \
	"FROM relationships r JOIN entities e ON e.id = r.source_entity_id\n" \
	"WHERE r.relationship_type = 'part_of';\n"

/*
 * A sweep as a build makes it: rules prepared early in a read, a digest
 * of that read given to rules_keep, then the sweep at when, on jobs
 * cores (MIRROR_JOBS). The parallel evaluation starts after rules_keep,
 * unless go_first (then the thread may have evaluated rules that are
 * kept: a build's race); with go_hold too, rules_keep comes while the
 * thread has begun rule go_hold and waits (hold_at), on any machine.
 */
static int go_first;
static const char *go_hold;
static pthread_mutex_t hold_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hold_cv = PTHREAD_COND_INITIALIZER;
static int hold_state;          /* 1: the thread waits, 2: released */

/* rules_test_begin: hold the thread at rule go_hold until released. */
static void
hold_at(const char *rule_id)
{
	if (go_hold == NULL || rule_id == NULL || strcmp(rule_id, go_hold))
		return;
	pthread_mutex_lock(&hold_mu);
	hold_state = 1;
	pthread_cond_broadcast(&hold_cv);
	while (hold_state != 2)
		pthread_cond_wait(&hold_cv, &hold_mu);
	pthread_mutex_unlock(&hold_mu);
}

/* Wait (10 s at most) until the thread is held at go_hold, or release
 * it (state 2). */
static int
hold_step(int state)
{
	struct timespec until;
	int held;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 10;
	pthread_mutex_lock(&hold_mu);
	if (state == 2) {
		hold_state = 2;
		pthread_cond_broadcast(&hold_cv);
	}
	while (state == 1 && hold_state != 1 && pthread_cond_timedwait(
	    &hold_cv, &hold_mu, &until) == 0)
		;
	held = hold_state;
	pthread_mutex_unlock(&hold_mu);
	return held;
}

static void
keyed_sweep(mirror_store *st, const struct rule_set *rs, time_t when,
    const char *jobs, struct sweep_run *run)
{
	struct store_digest d;
	struct rules_job *job;
	mirror_error err;
	char ts[MIRROR_TS_LEN];

	mirror_format_ts(ts, when);
	setenv("MIRROR_JOBS", jobs, 1);
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(rules_prepare_early(&job, st, rs, ts, &err), 0);
	hold_state = 0;
	rules_test_begin = go_hold != NULL ? hold_at : NULL;
	if (go_first)
		rules_go(job);
	if (go_first && go_hold != NULL)
		assert_int_equal(hold_step(1), 1);
	assert_int_equal(facts_digest(&d, st, &(const struct facts_digest_plan){ .now = when }, &err), 0);
	rules_keep(job, &d);
	if (go_first && go_hold != NULL)
		(void)hold_step(2);
	rules_go(job);
	digest_free(&d);
	store_read_end(st);
	assert_int_equal(sweep_run_rules(run, st, when,
	    &(struct sweep_plan){ .set = rs, .early = job }, &err),
	    0);
	rules_test_begin = NULL;
	unsetenv("MIRROR_JOBS");
}

/* rules_may_keep of an early job of rs on st at NOW, which is then
 * abandoned unstarted. */
static int
may_keep(mirror_store *st, const struct rule_set *rs)
{
	struct rules_job *job;
	mirror_error err;
	char ts[MIRROR_TS_LEN];
	int may;

	mirror_format_ts(ts, NOW);
	assert_int_equal(store_read_begin(st, &err), 0);
	assert_int_equal(rules_prepare_early(&job, st, rs, ts, &err), 0);
	may = rules_may_keep(job);
	rules_abandon(job);
	store_read_end(st);
	return may;
}

/* The open violations and the latest rule_runs rows, as one text. */
static char *
violations_text(mirror_store *st)
{
	static const char *const sql[] = {
		"SELECT rule_id, severity, project, facts, message, status "
		"FROM rule_violations WHERE status = 'open' ORDER BY rule_id, "
		"facts",
		"SELECT rule_id, status, error, hits FROM rule_runs WHERE "
		"sweep_run = (SELECT sweep_run FROM rule_runs ORDER BY rowid "
		"DESC LIMIT 1) ORDER BY rule_id" };
	strbuf sb;

	strbuf_init(&sb);
	for (size_t k = 0; k < sizeof(sql) / sizeof(*sql); k++) {
		sqlite3_stmt *s;

		assert_int_equal(sqlite3_prepare_v2(store_db(st), sql[k], -1,
		    &s, NULL), SQLITE_OK);
		while (sqlite3_step(s) == SQLITE_ROW) {
			for (int i = 0; i < sqlite3_column_count(s); i++)
				strbuf_printf(&sb, "%s|",
				    sqlite3_column_text(s, i) ? (const char *)
				    sqlite3_column_text(s, i) : "NULL");
			strbuf_putc(&sb, '\n');
		}
		sqlite3_finalize(s);
	}
	return strbuf_detach(&sb);
}

/* The ids of the rules mirror_meta holds a key for, with their hits. */
static const char *
keys_of(struct fixture *f)
{
	return q(f, "SELECT group_concat(k, ' ') FROM (SELECT substr(key, 12) "
	    "|| '=' || substr(value, 18, instr(substr(value, 18), ' ') - 1) "
	    "AS k FROM mirror_meta WHERE key LIKE 'rule_input:%' ORDER BY "
	    "key)");
}

/*
 * 18: a build's second sweep of the same store keeps every rule that
 * has a key (not the one reading a rowid), with its
 * violations and hits; a rule whose table changed is evaluated again,
 * and so is one reading :now at another time; another sweep (inside
 * the sweep, or another program's) leaves no key that holds. On one
 * core and on two. rules_may_keep says 1 once the store holds a key
 * (a build's rules then wait for its digest), 0 without one.
 */
static void
test_keep(void **state)
{
	static const char *const jobs[] = { "1", "2" };
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;
	char *before, *after;

	load(f, &rs, NO_MATERIAL MEM_NOW EDGE_ROWID);
	for (size_t k = 0; k < sizeof(jobs) / sizeof(*jobs); k++) {
		run_sql(f, "DELETE FROM mirror_meta WHERE key LIKE "
		    "'rule_input:%'");
		/* No key: a build starts the rules beside its digest. */
		assert_int_equal(may_keep(f->st, &rs), 0);
		keyed_sweep(f->st, &rs, NOW, jobs[k], &run);
		assert_int_equal(run.rules_kept, 0);
		assert_string_equal(keys_of(f), "mem-now=0 no-material=2");
		assert_int_equal(may_keep(f->st, &rs), 1);
		before = violations_text(f->st);
		keyed_sweep(f->st, &rs, NOW, jobs[k], &run);
		assert_int_equal(run.rules_kept, 2);
		assert_int_equal(run.violations_opened + run.violations_closed,
		    0);
		after = violations_text(f->st);
		assert_string_equal(after, before);
		assert_string_equal(q(f, "SELECT group_concat(rule_id || '=' || "
		    "duration_ms, ' ') FROM (SELECT * FROM rule_runs WHERE "
		    "sweep_run = (SELECT sweep_run FROM rule_runs ORDER BY rowid "
		    "DESC LIMIT 1) AND rule_id <> 'edge-rowid' ORDER BY "
		    "rule_id)"), "mem-now=0 no-material=0");
		free(before);
		free(after);
	}

	/* A memory: mem-now again, no-material kept. */
	run_sql(f, "INSERT INTO memories(id, memory_type, content, project, "
	    "created_at) VALUES ('m2', 'episodic', 'x', 'p06', "
	    "'2020-01-01 00:00:00')");
	keyed_sweep(f->st, &rs, NOW, "2", &run);
	assert_int_equal(run.rules_kept, 1);
	assert_int_equal(run.violations_opened, 1);
	assert_string_equal(keys_of(f), "mem-now=1 no-material=2");
	/* Another day: mem-now again, its hit kept open. */
	keyed_sweep(f->st, &rs, NOW + 86400, "2", &run);
	assert_int_equal(run.rules_kept, 1);
	assert_int_equal(run.violations_opened + run.violations_closed, 0);
	/* An entity: no-material again, e1's violation closed. */
	run_sql(f, "UPDATE entities SET properties = '{\"material\":\"Al\"}' "
	    "WHERE id = 'e1'");
	keyed_sweep(f->st, &rs, NOW + 86400, "2", &run);
	assert_int_equal(run.rules_kept, 1);
	assert_int_equal(run.violations_closed, 1);
	assert_string_equal(keys_of(f), "mem-now=1 no-material=1");

	/* A sweep without keys removes them; the next keeps nothing. */
	sweep(f, &run, &rs, 1);
	assert_string_equal(keys_of(f), "");
	assert_int_equal(may_keep(f->st, &rs), 0);
	assert_int_equal(rules_may_keep(NULL), 0);
	keyed_sweep(f->st, &rs, NOW + 86400, "2", &run);
	assert_int_equal(run.rules_kept, 0);
	assert_string_equal(keys_of(f), "mem-now=1 no-material=1");
	/* Another program's sweep since: the keys do not hold. */
	run_sql(f, "INSERT INTO sweep_runs(id, started_at, rules_version) "
	    "VALUES ('elsewhere', '2030-01-01 00:00:00', 'x')");
	keyed_sweep(f->st, &rs, NOW + 86400, "2", &run);
	assert_int_equal(run.rules_kept, 0);
	keyed_sweep(f->st, &rs, NOW + 86400, "2", &run);
	assert_int_equal(run.rules_kept, 2);
	rules_free(&rs);
}

/* A rule on memories and the sweep's day. */
#define MEM_TODAY \
	"-- rule: mem-today\n" \
	"-- severity: warn\n" \
	"-- description: A memory recorded before the sweep's day.\n" \
	"SELECT project, json_array('memory:' || id) AS facts,\n" \
	"       'memory ' || id || ' is older than ' || :today AS message\n" \
	"FROM memories WHERE created_at < :today;\n"

/*
 * 18b: :today binds the day of the sweep's clock; a rule reading it is
 * kept by a later sweep of the same day, when one reading :now is not,
 * and evaluated again on the next day.
 */
static void
test_keep_today(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;
	const time_t day0 = NOW - NOW % 86400;   /* 2023-11-14 00:00 UTC */

	load(f, &rs, MEM_TODAY MEM_NOW);
	run_sql(f, "INSERT INTO memories(id, memory_type, content, project, "
	    "created_at) VALUES ('m9', 'episodic', 'x', 'p06', "
	    "'2020-01-01 00:00:00')");
	keyed_sweep(f->st, &rs, day0 + 3600, "1", &run);
	assert_int_equal(run.rules_kept, 0);
	assert_string_equal(q(f, "SELECT message FROM rule_violations WHERE "
	    "rule_id = 'mem-today' AND status = 'open'"),
	    "memory m9 is older than 2023-11-14");
	/* Later that day: mem-today kept, mem-now evaluated again. */
	keyed_sweep(f->st, &rs, day0 + 7200, "1", &run);
	assert_int_equal(run.rules_kept, 1);
	assert_string_equal(q(f, "SELECT group_concat(rule_id, ' ') FROM "
	    "rule_runs WHERE sweep_run = (SELECT sweep_run FROM rule_runs "
	    "ORDER BY rowid DESC LIMIT 1) AND duration_ms = 0 AND rule_id = "
	    "'mem-today'"), "mem-today");
	/* The next day: evaluated again, its message of that day. */
	keyed_sweep(f->st, &rs, day0 + 86400 + 60, "1", &run);
	assert_int_equal(run.rules_kept, 0);
	assert_string_equal(q(f, "SELECT message FROM rule_violations WHERE "
	    "rule_id = 'mem-today' AND status = 'open'"),
	    "memory m9 is older than 2023-11-15");
	rules_free(&rs);
}

/* The ids of the rules of text that get a key in a keyed sweep. */
static const char *
keyed_ids(struct fixture *f, const char *text)
{
	struct sweep_run run;
	struct rule_set rs;

	load(f, &rs, text);
	keyed_sweep(f->st, &rs, NOW, "1", &run);
	rules_free(&rs);
	return q(f, "SELECT group_concat(substr(key, 12), ' ') FROM (SELECT "
	    "key FROM mirror_meta WHERE key LIKE 'rule_input:%' ORDER BY key)");
}

/* A rule "r" of severity warn reading body. */
#define R(id, body) \
	"-- rule: " id "\n-- severity: warn\n-- description: d.\n" body ";\n"

/*
 * 19: which rules get a key: those whose every read is a column a
 * digest sum holds (a count(*) of a fact table, temp.project_alias,
 * json_each, relationships.created_at, which only rules read), not one
 * reading a rowid, the schema, a table the sweep writes or a view, nor
 * one counting the rows of a table no sum holds (memory_audit); a rule
 * that fails has none. A changed rule, parameter or override is evaluated again.
 */
static void
test_keep_reads(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;

	run_sql(f, "CREATE VIEW comps AS SELECT * FROM entities");
	assert_string_equal(keyed_ids(f,
	    R("a-count", "SELECT '' AS project, '[]' AS facts, count(*) AS "
	    "message FROM entities HAVING count(*) < 0")
	    R("b-alias", "SELECT canonical AS project, '[]' AS facts, name "
	    "AS message FROM temp.project_alias WHERE 0")
	    R("c-json", "SELECT e.project, '[]' AS facts, j.value AS message "
	    "FROM entities e, json_each(e.properties) j WHERE 0")
	    R("d-created", "SELECT '' AS project, '[]' AS facts, created_at "
	    "AS message FROM relationships WHERE 0")
	    R("e-rowid", "SELECT '' AS project, '[]' AS facts, rowid AS "
	    "message FROM memories WHERE 0")
	    R("f-schema", "SELECT '' AS project, '[]' AS facts, name AS "
	    "message FROM sqlite_schema WHERE 0")
	    R("g-conflicts", "SELECT project, '[]' AS facts, id AS message "
	    "FROM conflicts WHERE 0")
	    R("h-view", "SELECT project, '[]' AS facts, id AS message FROM "
	    "comps WHERE 0")
	    R("i-fails", "SELECT project FROM entities")
	    R("j-state", "SELECT project, '[]' AS facts, value AS message "
	    "FROM project_state WHERE 0")
	    R("k-audit", "SELECT '' AS project, '[]' AS facts, count(*) AS "
	    "message FROM memory_audit HAVING count(*) < 0")),
	    "a-count b-alias c-json d-created j-state");

	load(f, &rs, NO_MATERIAL);
	keyed_sweep(f->st, &rs, NOW, "1", &run);
	keyed_sweep(f->st, &rs, NOW, "1", &run);
	assert_int_equal(run.rules_kept, 1);
	assert_int_equal(rules_override(&rs, "no-material", "x", "1", NULL),
	    0);
	keyed_sweep(f->st, &rs, NOW, "1", &run);
	assert_int_equal(run.rules_kept, 0);
	rules_free(&rs);
	load(f, &rs, R("no-material", "SELECT project, json_array('entity:' "
	    "|| id) AS facts, name AS message FROM entities WHERE properties "
	    "= '{}'"));
	keyed_sweep(f->st, &rs, NOW, "1", &run);
	assert_int_equal(run.rules_kept, 0);
	assert_int_equal(run.violations_open_after, 2);
	keyed_sweep(f->st, &rs, NOW, "1", &run);
	assert_int_equal(run.rules_kept, 1);
	rules_free(&rs);
	setenv("MIRROR_RULE_STEPS", "40", 1);
	load(f, &rs, R("no-material", "SELECT project, json_array('entity:' "
	    "|| id) AS facts, name AS message FROM entities WHERE properties "
	    "= '{}'"));
	keyed_sweep(f->st, &rs, NOW, "1", &run);
	assert_int_equal(run.rules_kept, 0);
	rules_free(&rs);
	unsetenv("MIRROR_RULE_STEPS");

	/* A table read without a column (count(*)) is in the key. */
	load(f, &rs, R("count", "SELECT 'p06' AS project, "
	    "json_array('entity:e3') AS facts, count(*) || ' entities' AS "
	    "message FROM entities"));
	keyed_sweep(f->st, &rs, NOW, "1", &run);
	keyed_sweep(f->st, &rs, NOW, "1", &run);
	assert_int_equal(run.rules_kept, 1);
	run_sql(f, "INSERT INTO entities(id, entity_type, name, project) "
	    "VALUES ('e9', 'material', 'Al', 'p06')");
	keyed_sweep(f->st, &rs, NOW, "1", &run);
	assert_int_equal(run.rules_kept, 0);
	assert_string_equal(q(f, "SELECT message FROM rule_violations WHERE "
	    "rule_id = 'count' AND status = 'open'"), "4 entities");
	rules_free(&rs);
}

/* A random edit of the fact tables, sometimes of none. */
static void
random_edit(mirror_store *a, mirror_store *b, unsigned *seed, int round)
{
	char sql[512];
	int e = 1 + (int)(rand_r(seed) % 6), p = (int)(rand_r(seed) % 4);

	switch (rand_r(seed) % 8) {
	case 0:
		snprintf(sql, sizeof(sql), "INSERT OR REPLACE INTO entities(id, "
		    "entity_type, name, project, properties) VALUES ('e%d', "
		    "'component', 'N%d', '%s', '%s')", e, round,
		    p == 0 ? "p05" : p == 1 ? "p06" : p == 2 ? "zz" :
		    "p05-interferometer", round % 3 ? "{}" :
		    "{\"material\":\"Al\"}");
		break;
	case 1:
		snprintf(sql, sizeof(sql), "DELETE FROM entities WHERE id = "
		    "'e%d'", e);
		break;
	case 2:
		snprintf(sql, sizeof(sql), "INSERT OR REPLACE INTO "
		    "relationships(id, source_entity_id, target_entity_id, "
		    "relationship_type, created_at) VALUES ('r%d', 'e%d', "
		    "'e%d', '%s', '%s')", p, e, 1 + (e % 6), round % 2 ?
		    "part_of" : "uses_material", round % 3 ? "2020-01-01" :
		    "2024-01-01");
		break;
	case 3:
		snprintf(sql, sizeof(sql), "UPDATE relationships SET created_at "
		    "= '20%d-01-01' WHERE id = 'r%d'", 19 + round % 3, p);
		break;
	case 4:
		snprintf(sql, sizeof(sql), "INSERT OR REPLACE INTO memories(id, "
		    "memory_type, content, project, created_at) VALUES ('m%d', "
		    "'episodic', 'x', 'p06', '%s')", e, round % 2 ?
		    "2020-01-01" : "2023-11-20");
		break;
	case 5:
		snprintf(sql, sizeof(sql), "UPDATE projects SET aliases = '%s' "
		    "WHERE id = 'p05-interferometer'", round % 2 ?
		    "[\"p05\"]" : "[\"p05\",\"zz\"]");
		break;
	default:
		sql[0] = '\0';     /* nothing: the rules are kept */
		break;
	}
	assert_int_equal(sqlite3_exec(store_db(a), sql, NULL, NULL, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_exec(store_db(b), sql, NULL, NULL, NULL),
	    SQLITE_OK);
}

/*
 * 20: 300 rounds of random edits of entities, relationships (their
 * created_at too), memories and aliases, and of the clock, on two
 * copies of a store: one swept as a build sweeps (keys, on one or two
 * cores), the other with every rule evaluated. Their open violations
 * and their latest rule_runs rows are the same after every round, and
 * some rounds keep rules.
 */
static void
test_keep_random(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run, full;
	struct rule_set rs;
	const struct sweep_plan plan = { .set = &rs };
	mirror_store *b;
	mirror_error err;
	char path[128], cmd[256];
	unsigned seed = 19;
	long long kept = 0;

	snprintf(path, sizeof(path), "%s/full.db", f->dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", f->path, path);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(store_open(&b, path, STORE_WRITE, &err), 0);
	load(f, &rs, NO_MATERIAL MEM_NOW EDGE_TIME PART_OF);
	for (int round = 0; round < 300; round++) {
		time_t when = NOW + (rand_r(&seed) % 3 == 0 ? round * 86400 :
		    0);
		char *x, *y;

		/* Each build opens the store: TEMP project_alias is made
		 * from the projects as they are. */
		random_edit(f->st, b, &seed, round);
		store_close(f->st);
		store_close(b);
		assert_int_equal(store_open(&f->st, f->path, STORE_WRITE, &err),
		    0);
		assert_int_equal(store_open(&b, path, STORE_WRITE, &err), 0);
		go_first = round % 4 == 3;
		keyed_sweep(f->st, &rs, when, round % 2 ? "2" : "1", &run);
		go_first = 0;
		assert_int_equal(sweep_run_rules(&full, b, when, &plan, &err),
		    0);
		kept += run.rules_kept;
		x = violations_text(f->st);
		y = violations_text(b);
		assert_string_equal(x, y);
		free(x);
		free(y);
	}
	assert_true(kept > 100);
	store_close(b);
	rules_free(&rs);
}

/* A build's sweep with no digest before it (rules_key_later). */
static void
later_sweep(struct fixture *f, const struct rule_set *rs, const char *jobs,
    struct sweep_run *run)
{
	struct rules_job *job;
	mirror_error err;
	char ts[MIRROR_TS_LEN];

	mirror_format_ts(ts, NOW);
	setenv("MIRROR_JOBS", jobs, 1);
	assert_int_equal(store_read_begin(f->st, &err), 0);
	assert_int_equal(rules_prepare_early(&job, f->st, rs, ts, &err), 0);
	rules_key_later(job);
	rules_go(job);
	store_read_end(f->st);
	assert_int_equal(sweep_run_rules(run, f->st, NOW,
	    &(struct sweep_plan){ .set = rs, .early = job }, &err), 0);
	unsetenv("MIRROR_JOBS");
	assert_non_null(run->keys_later);
}

/* rules_keys_write of run's keys with a digest taken now, in a read of
 * its own; returns what it returned. */
static int
write_later(struct fixture *f, const struct sweep_run *run)
{
	struct store_digest d;
	mirror_error err;
	int rc;

	assert_int_equal(store_read_begin(f->st, &err), 0);
	assert_int_equal(facts_digest(&d, f->st, &(const struct facts_digest_plan){ .now = NOW }, &err), 0);
	store_read_end(f->st);
	rc = rules_keys_write(run->keys_later, f->st, &d, &err);
	digest_free(&d);
	return rc;
}

/* The keys mirror_meta holds, their ids and values' keys. */
static char *
key_values(struct fixture *f)
{
	return strdup(q(f, "SELECT group_concat(k, ' ') FROM (SELECT "
	    "substr(key, 12) || '=' || substr(value, 1, 16) AS k FROM "
	    "mirror_meta WHERE key LIKE 'rule_input:%' ORDER BY key)"));
}

/*
 * 21: a sweep with no digest before it (a build into an empty DIR)
 * writes after it the keys a keyed sweep would have, so the next keyed
 * sweep keeps its rules; but none when another connection committed
 * since its job was prepared (the digest may hash rows the rules never
 * read), when another sweep came since, when keys are there already,
 * or when the store is busy (0, no error). On one core and on two.
 */
static void
test_keep_later(void **state)
{
	static const char *const jobs[] = { "1", "2" };
	struct fixture *f = *state;
	struct sweep_run run, other;
	struct rule_set rs;
	mirror_error err;
	sqlite3 *o;
	char *later, *keyed, *before, *after;

	load(f, &rs, NO_MATERIAL MEM_NOW EDGE_TIME);
	for (size_t k = 0; k < sizeof(jobs) / sizeof(*jobs); k++) {
		run_sql(f, "DELETE FROM mirror_meta WHERE key LIKE "
		    "'rule_input:%'");
		later_sweep(f, &rs, jobs[k], &run);
		assert_int_equal(run.rules_kept, 0);
		assert_string_equal(keys_of(f), "");
		assert_int_equal(write_later(f, &run), 1);
		assert_string_equal(keys_of(f), "edge-time=0 mem-now=0 no-material=2");
		assert_string_equal(q(f, "SELECT DISTINCT substr(value, 20) "
		    "FROM mirror_meta WHERE key LIKE 'rule_input:%'"), run.id);
		/* Written once: keys are there now. */
		assert_int_equal(write_later(f, &run), 0);
		rules_keys_free(run.keys_later);
		later = key_values(f);
		before = violations_text(f->st);
		keyed_sweep(f->st, &rs, NOW, jobs[k], &run);
		assert_int_equal(run.rules_kept, 3);
		assert_null(run.keys_later);
		keyed = key_values(f);
		assert_string_equal(later, keyed);
		after = violations_text(f->st);
		assert_string_equal(after, before);
		free(later);
		free(keyed);
		free(before);
		free(after);
	}

	assert_int_equal(sqlite3_open(f->path, &o), SQLITE_OK);
	/* Another connection commits a memory after the sweep, before the
	 * digest: mem-now read the old rows. */
	later_sweep(f, &rs, "2", &run);
	assert_int_equal(sqlite3_exec(o, "INSERT INTO memories(id, "
	    "memory_type, content, project, created_at) VALUES ('m2', "
	    "'episodic', 'x', 'p06', '2020-01-01 00:00:00')", NULL, NULL,
	    NULL), SQLITE_OK);
	assert_int_equal(write_later(f, &run), 0);
	assert_string_equal(keys_of(f), "");
	rules_keys_free(run.keys_later);
	keyed_sweep(f->st, &rs, NOW, "2", &run);
	assert_int_equal(run.rules_kept, 0);
	assert_int_equal(run.violations_opened, 1);

	/* Another sweep since. */
	later_sweep(f, &rs, "2", &run);
	sweep(f, &other, &rs, 1);
	assert_int_equal(write_later(f, &run), 0);
	assert_string_equal(keys_of(f), "");
	rules_keys_free(run.keys_later);

	/* Busy: 0 and no error; written once the lock is gone. */
	later_sweep(f, &rs, "2", &run);
	assert_int_equal(sqlite3_exec(o, "BEGIN IMMEDIATE", NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_busy_timeout(store_db(f->st), 20);
	mirror_error_clear(&err);
	assert_int_equal(write_later(f, &run), 0);
	assert_string_equal(keys_of(f), "");
	assert_int_equal(sqlite3_exec(o, "ROLLBACK", NULL, NULL, NULL),
	    SQLITE_OK);
	assert_int_equal(write_later(f, &run), 1);
	assert_string_equal(keys_of(f), "edge-time=0 mem-now=1 no-material=2");
	rules_keys_free(run.keys_later);
	sqlite3_close(o);

	/* No rules_key_later: nothing to write after the sweep. */
	keyed_sweep(f->st, &rs, NOW, "2", &run);
	assert_null(run.keys_later);
	assert_int_equal(rules_keys_write(NULL, f->st, NULL, &err), 0);
	rules_free(&rs);
}

/*
 * 22: a kept rule the thread began before rules_keep (it starts on the
 * core the digest's second connection frees) is not evaluated (its
 * query interrupted when it runs, its result dropped when it ran): its
 * violations and hits are the kept ones, its rule_runs row says 0 ms; a
 * rule not kept is evaluated as before. The thread is held at the rule
 * until rules_keep has come: a fixed pause lost the race on a machine
 * that ran the rule within it.
 */
static void
test_keep_begun(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;
	char *before, *after;

	load(f, &rs, R("a-slow", "SELECT '' AS project, '[\"entity:e1\"]' "
	    "AS facts, count(*) AS message FROM json_each('[' || replace(printf("
	    "'%.*c', 1000000, 'x'), 'x', '1,') || '1]')")
	    MEM_NOW);
	keyed_sweep(f->st, &rs, NOW, "2", &run);
	assert_string_equal(keys_of(f), "a-slow=1 mem-now=0");
	keyed_sweep(f->st, &rs, NOW, "2", &run);
	assert_int_equal(run.rules_kept, 2);
	before = violations_text(f->st);
	/* A memory: mem-now is evaluated again, a-slow is kept. */
	run_sql(f, "INSERT INTO memories(id, memory_type, content, project, "
	    "created_at) VALUES ('m2', 'episodic', 'x', 'p06', "
	    "'2020-01-01 00:00:00')");
	go_first = 1;               /* a-slow begun before rules_keep */
	go_hold = "a-slow";
	keyed_sweep(f->st, &rs, NOW, "2", &run);
	go_first = 0;
	go_hold = NULL;
	assert_int_equal(run.rules_kept, 1);
	assert_int_equal(run.rules_failed, 0);
	assert_int_equal(run.violations_opened, 1);
	assert_string_equal(q(f, "SELECT status || '/' || hits || '/' || "
	    "duration_ms FROM rule_runs WHERE rule_id = 'a-slow' ORDER BY "
	    "rowid DESC LIMIT 1"), "ok/1/0");
	after = violations_text(f->st);
	assert_string_not_equal(after, before);
	free(before);
	free(after);
	rules_free(&rs);
}

/* Where c-last began: 1 on the sweep's thread (steal_main), -1 on the
 * rules' thread, 0 not yet (under hold_mu). */
static pthread_t steal_main;
static int steal_state;

/* rules_test_begin: hold the rules' thread at a-first until c-last has
 * begun (10 s at most), and note which thread began c-last. */
static void
steal_at(const char *rule_id)
{
	struct timespec until;

	if (rule_id == NULL)
		return;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 10;
	pthread_mutex_lock(&hold_mu);
	if (strcmp(rule_id, "c-last") == 0) {
		steal_state = pthread_equal(pthread_self(), steal_main) ? 1 :
		    -1;
		pthread_cond_broadcast(&hold_cv);
	}
	while (strcmp(rule_id, "a-first") == 0 && steal_state == 0 &&
	    pthread_cond_timedwait(&hold_cv, &hold_mu, &until) == 0)
		;
	pthread_mutex_unlock(&hold_mu);
}

/*
 * 23: while the sweep waits for the rules' thread, its own connection
 * evaluates the last rule the thread has not begun (two cores on what
 * is left), never the one the thread begins next; the violations are
 * those of a sweep on one core.
 */
static void
test_sweep_takes_last(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run;
	struct rule_set rs;
	char *one, *two;

	load(f, &rs, R("a-first", "SELECT '' AS project, '[\"entity:e1\"]' "
	    "AS facts, 'a' AS message") R("b-middle", "SELECT '' AS project, "
	    "'[\"entity:e2\"]' AS facts, 'b' AS message") R("c-last",
	    "SELECT '' AS project, '[\"entity:e3\"]' AS facts, 'c' AS "
	    "message"));
	setenv("MIRROR_JOBS", "1", 1);
	sweep(f, &run, &rs, 0);
	one = violations_text(f->st);
	run_sql(f, "DELETE FROM violation_facts; DELETE FROM rule_violations; "
	    "DELETE FROM rule_runs");
	steal_main = pthread_self();
	steal_state = 0;
	rules_test_begin = steal_at;
	setenv("MIRROR_JOBS", "2", 1);
	sweep(f, &run, &rs, 1);
	unsetenv("MIRROR_JOBS");
	rules_test_begin = NULL;
	assert_int_equal(steal_state, 1);
	assert_in_range(run.rules_parallel, 1, 2);
	assert_int_equal(run.violations_opened, 3);
	two = violations_text(f->st);
	assert_string_equal(two, one);
	free(one);
	free(two);
	rules_free(&rs);
}

/* ---- every function of a rule's connection is short ------------------ */

/* The arguments test_every_function tries, by kind: long text, a needle
 * that matches all but its last byte, LIKE and GLOB patterns, objects
 * of 43,000 keys (disjoint), an array, a large number, a blob, a
 * printf format asking for widths. */
static const char hostile_args[] =
	"CREATE TABLE hostile_args(k TEXT, v);"
	"INSERT INTO hostile_args VALUES"
	" ('s', printf('%.*c', 524288, 'a')),"
	" ('n', printf('%.*c', 262144, 'a') || 'b'),"
	" ('p', replace(printf('%.*c', 131072, 'x'), 'x', '%a')),"
	" ('g', replace(printf('%.*c', 131072, 'x'), 'x', '*a')),"
	" ('i', 100000000), ('b', randomblob(524288)),"
	" ('f', '%*.*c%*.*s%!.*f');"
	"INSERT INTO hostile_args SELECT 'o', json_group_object('k' || value,"
	" 1) FROM json_each('[' || replace(printf('%.*c', 43000, 'x'), 'x',"
	" '0,') || '0]');"
	"INSERT INTO hostile_args SELECT 'o2', json_group_object('j' ||"
	" value, 1) FROM (SELECT key AS value FROM json_each('[' ||"
	" replace(printf('%.*c', 43000, 'x'), 'x', '0,') || '0]'));"
	"INSERT INTO hostile_args SELECT 'a', json_group_array(key) FROM"
	" json_each('[' || replace(printf('%.*c', 43000, 'x'), 'x', '0,') ||"
	" '0]');";

/* The kinds every argument takes in turn, and those the arguments after
 * the first take while the first keeps one. */
static const char *const arg_kinds[] = { "s", "n", "p", "g", "o", "o2",
    "a", "i", "b", "f" };
static const char *const rest_kinds[] = { "n", "p", "g", "o2", "i", "f" };

/* Seconds since t0. */
static double
since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	    (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/*
 * Call name with nargs arguments, the first of kind first and the rest
 * of kind rest, on db under g and a 1 s deadline (over, window: as an
 * aggregate, then as a window function). Appends the call to slow when
 * it took more than 2.5 s; counts a call the guard allowed in
 * calls_run. Returns nothing.
 */
static int calls_run;            /* the calls try_call ran */

static void
try_call(struct fixture *f, struct rule_guard *g, const char *name,
    int nargs, const char *first, const char *rest, strbuf *slow)
{
	sqlite3 *db = store_db(f->st);
	strbuf sql;
	struct timespec t0;
	double took;

	for (int over = 0; over < 2; over++) {
		sqlite3_stmt *s = NULL;

		strbuf_init(&sql);
		strbuf_puts(&sql, "SELECT typeof(");
		if (strcmp(name, "->") == 0 || strcmp(name, "->>") == 0)
			strbuf_printf(&sql, "x0.v %s x1.v", name);
		else {
			strbuf_printf(&sql, "\"%s\"(", name);
			for (int i = 0; i < nargs; i++)
				strbuf_printf(&sql, "%sx%d.v", i > 0 ? ", " : "",
				    i);
			strbuf_puts(&sql, ")");
		}
		strbuf_printf(&sql, "%s) FROM ", over ? " OVER ()" : "");
		for (int i = 0; i < nargs; i++)
			strbuf_printf(&sql, "%shostile_args x%d", i > 0 ? ", " :
			    "", i);
		strbuf_puts(&sql, " WHERE ");
		for (int i = 0; i < nargs; i++)
			strbuf_printf(&sql, "%sx%d.k = '%s'", i > 0 ? " AND " :
			    "", i, i == 0 ? first : rest);
		guard_arm(g, db);
		store_steps_set(f->st, 50000, 1000);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (sqlite3_prepare_v2(db, sql.data, -1, &s, NULL) == SQLITE_OK) {
			while (sqlite3_step(s) == SQLITE_ROW)
				;
			calls_run++;
			over = 2;
		}
		took = since(&t0);
		sqlite3_finalize(s);
		store_steps_set(f->st, 0, 0);
		guard_disarm(g, db);
		if (took > 2.5)
			strbuf_printf(slow, "%s(%s%s%s, %d args) %.1f s\n", name,
			    first, nargs > 1 ? "," : "", nargs > 1 ? rest : "",
			    nargs, took);
		strbuf_free(&sql);
	}
}

/*
 * Every function SQLite registers on a rule's connection, called
 * with long arguments of every kind, ends within its deadline (1 s) and
 * a margin: a function whose one call grows with the product of its
 * arguments (json_patch took 95 s) is refused past its bound or is
 * not allowed at all. A new SQLite with a new such function fails here.
 */
static void
test_every_function(void **state)
{
	struct fixture *f = *state;
	sqlite3 *db = store_db(f->st);
	struct rule_guard g;
	sqlite3_stmt *list = NULL;
	strbuf slow;
	int nfuncs = 0;

	run_sql(f, hostile_args);
	assert_int_equal(guard_init(&g, db, f->st), SQLITE_OK);
	strbuf_init(&slow);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT DISTINCT name, narg "
	    "FROM pragma_function_list WHERE narg <> 0 ORDER BY name, narg",
	    -1, &list, NULL), SQLITE_OK);
	while (sqlite3_step(list) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(list, 0);
		int narg = sqlite3_column_int(list, 1);

		nfuncs++;
		for (int n = narg > 0 ? narg : 1; n <= (narg > 0 ? narg : 3);
		    n++)
			for (size_t a = 0; a < sizeof(arg_kinds) /
			    sizeof(arg_kinds[0]); a++) {
				try_call(f, &g, name, n, arg_kinds[a],
				    arg_kinds[a], &slow);
				for (size_t r = 0; n > 1 && r < sizeof(rest_kinds) /
				    sizeof(rest_kinds[0]); r++)
					try_call(f, &g, name, n, arg_kinds[a],
					    rest_kinds[r], &slow);
			}
	}
	sqlite3_finalize(list);
	guard_free(&g);
	assert_true(nfuncs > 60);
	assert_true(calls_run > 2000);
	if (slow.len > 0)
		fail_msg("calls past their deadline:\n%s", slow.data);
	strbuf_free(&slow);
}

/* Haystacks and needles of instr: text (multibyte, bytes that are not
 * UTF-8, a NUL inside), empty, numbers, blobs and NULL. */
static const char instr_args[] =
	"CREATE TABLE instr_h(v); CREATE TABLE instr_n(v);"
	"INSERT INTO instr_h VALUES ('abcabc'), (''), ('\xc3\xa9\xc3\xa9" "a'),"
	" ('h\xc3\xa9llo w\xc3\xb6rld'), ('{\"valid_from\": \"2020-01-01\"}'),"
	" (CAST(x'6100626300' AS TEXT)), (CAST(x'c3' AS TEXT)),"
	" (CAST(x'8080e282ac61ff62' AS TEXT)), (123), (1.5), (x'616263'),"
	" (NULL);"
	"INSERT INTO instr_n VALUES ('b'), (''), ('a'), ('\xc3\xb6'), ('c'),"
	" ('\"valid_'), (CAST(x'00' AS TEXT)), (CAST(x'80' AS TEXT)),"
	" (CAST(x'ff62' AS TEXT)), ('\xc3\xa9'), ('zzzzzzzzzzzzzzzzzzzzzz'),"
	" ('3'), (x'62'), (NULL), (CAST(x'6300' AS TEXT));";

#define INSTR_ALL "SELECT group_concat(x, ',') FROM (SELECT " \
	"coalesce(instr(h.v, n.v), 'N') AS x FROM instr_h h, instr_n n " \
	"ORDER BY h.rowid, n.rowid)"

/*
 * instr on a rule's connection (the guard's own for two texts, SQLite's
 * through its private connection otherwise) gives what SQLite's gives
 * on a connection of its own, for every pair of arguments.
 */
static void
test_instr(void **state)
{
	struct fixture *f = *state;
	sqlite3 *db = store_db(f->st), *plain = NULL;
	struct rule_guard g;
	sqlite3_stmt *s = NULL;
	char *want, *got;

	run_sql(f, instr_args);
	assert_int_equal(sqlite3_open(":memory:", &plain), SQLITE_OK);
	assert_int_equal(sqlite3_exec(plain, instr_args, NULL, NULL, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(plain, INSTR_ALL, -1, &s, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	want = strdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	sqlite3_close(plain);
	assert_int_equal(guard_init(&g, db, f->st), SQLITE_OK);
	guard_arm(&g, db);
	got = strdup(q(f, INSTR_ALL));
	guard_disarm(&g, db);
	guard_free(&g);
	assert_non_null(want);
	assert_non_null(got);
	assert_true(strlen(want) > 300);
	assert_string_equal(got, want);
	free(want);
	free(got);
}

/* The entries of the user's cache of rule reads under f->dir/cache:
 * their number; the last one's path into path (when not NULL). */
static int
learn_entries(struct fixture *f, char path[160])
{
	char dir[96];
	struct dirent *e;
	DIR *d;
	int n = 0;

	assert_true(snprintf(dir, sizeof(dir), "%s/cache/rule-reads",
	    f->dir) < (int)sizeof(dir));
	if ((d = opendir(dir)) == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.') {
			n++;
			if (path != NULL)
				assert_true(snprintf(path, 160, "%s/%.40s",
				    dir, e->d_name) < 160);
		}
	closedir(d);
	return n;
}

/* rules_learn of rs's rules on f's store into out. */
static void
learn(struct fixture *f, const struct rule_set *rs, struct rule_reads *out)
{
	const struct rule *todo[4];
	struct rule_conn c;
	mirror_error err;

	assert_true(rs->n <= 4);
	for (size_t i = 0; i < rs->n; i++)
		todo[i] = &rs->v[i];
	assert_int_equal(rconn_init(&c, f->st, rs, "2023-11-14 22:13:20", 0,
	    &err), 0);
	assert_int_equal(rules_learn(out, &c, todo, rs->n, &err), 0);
	rconn_free(&c);
}

/* A rule that reads the memories and the clock. */
#define OLD_MEMORY \
	"-- rule: old-memory\n" \
	"-- severity: warn\n" \
	"-- label: old\n" \
	"-- description: A memory older than now.\n" \
	"SELECT project, json_array('memory:' || id) AS facts,\n" \
	"       content AS message FROM memories WHERE created_at < :now;\n"

/*
 * 27: what each rule reads (rules_learn, for the rules' keys) is learnt
 * once and kept in the user's cache under the rules and the store's
 * schema: read back the same, a damaged entry learnt again and written
 * anew, a sound one taken as it says; the schema changed (a view) or a
 * rule changed is another entry.
 */
static void
test_learn_cached(void **state)
{
	struct fixture *f = *state;
	struct rule_reads a[2], b[2];
	struct rule_set rs;
	char cache[96], entry[160], was[64];
	FILE *fp;

	snprintf(cache, sizeof(cache), "%s/cache", f->dir);
	setenv("MIRROR_CACHE_DIR", cache, 1);
	load(f, &rs, NO_MATERIAL "\n" OLD_MEMORY);
	assert_int_equal(rs.n, 2);
	learn(f, &rs, a);
	assert_int_equal(learn_entries(f, entry), 1);
	assert_int_equal(a[0].keyable, 1);
	assert_int_equal(a[0].tables, 1u << facts_digest_column("entities",
	    ""));
	assert_int_equal(a[0].clock, 0);
	assert_int_equal(a[1].keyable, 1);
	assert_int_equal(a[1].tables, 1u << facts_digest_column("memories",
	    ""));
	assert_int_equal(a[1].clock, 1);
	learn(f, &rs, b);
	assert_memory_equal(a, b, sizeof(a));
	assert_int_equal(learn_entries(f, NULL), 1);

	/* Damaged: learnt again, the entry as it was. */
	assert_non_null(fp = fopen(entry, "r"));
	memset(was, 0, sizeof(was));
	assert_true(fread(was, 1, sizeof(was) - 1, fp) > 0);
	fclose(fp);
	assert_non_null(fp = fopen(entry, "w"));
	fputs("1 99 7\n", fp);
	fclose(fp);
	learn(f, &rs, b);
	assert_memory_equal(a, b, sizeof(a));
	assert_non_null(fp = fopen(entry, "r"));
	memset(cache, 0, sizeof(cache));
	assert_true(fread(cache, 1, sizeof(cache) - 1, fp) > 0);
	fclose(fp);
	assert_string_equal(cache, was);
	/* Sound: taken as it says (the user's cache, as the model's). */
	assert_non_null(fp = fopen(entry, "w"));
	fputs("0 0 0\n1 1 1\n", fp);
	fclose(fp);
	learn(f, &rs, b);
	assert_int_equal(b[0].keyable, 0);
	assert_int_equal(b[1].tables, 1);

	run_sql(f, "CREATE VIEW comps AS SELECT * FROM entities");
	learn(f, &rs, b);
	assert_memory_equal(a, b, sizeof(a));
	assert_int_equal(learn_entries(f, NULL), 2);
	rules_free(&rs);
	load(f, &rs, NO_MATERIAL);
	learn(f, &rs, b);
	assert_memory_equal(a, b, sizeof(*b));
	assert_int_equal(learn_entries(f, NULL), 3);
	rules_free(&rs);
	unsetenv("MIRROR_CACHE_DIR");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test_setup_teardown(test_override, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hostile, setup, teardown),
		cmocka_unit_test_setup_teardown(test_budget_and_cap, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_instr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_every_function, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_shape, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lifecycle, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_identity_and_scope, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_fill_params, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_params, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_rules, setup,
		    teardown),
		cmocka_unit_test(test_digest),
		cmocka_unit_test_setup_teardown(test_load_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parallel, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_many, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parallel_no_spill, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_early, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prepare_go, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_keep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep_today, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_keep_reads, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_keep_random, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_keep_later, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_keep_begun, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_learn_cached, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_sweep_takes_last, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
