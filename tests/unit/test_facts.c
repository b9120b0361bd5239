/*
 * test_facts.c: core/facts, the read model of the site: canonical
 * projects, per-project loading and ordering, expiry, row checks and the
 * snapshot checksum.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "store/digest.h"
#include "store/facts.h"
#include "store/store.h"
#include "sys/clock.h"
#include "sys/work.h"
#include "util/array.h"
#include "util/strbuf.h"

/* The plain plan at time 0, and the wide one. */
static const struct facts_plan plain = { 0 };
static const struct facts_plan wide = { .wide = 1 };

static char path[64];

/* A fresh store at path with sql applied. */
static void
make_store(const char *sql)
{
	mirror_error err;
	sqlite3 *db;

	snprintf(path, sizeof(path), "/tmp/test_facts.%ld.db", (long)getpid());
	unlink(path);
	assert_int_equal(store_create(path, &err), 0);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static void
exec_sql(const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static mirror_store *
open_read(void)
{
	mirror_store *st;
	mirror_error err;

	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	assert_int_equal(store_read_begin(st, &err), 0);
	return st;
}

static void
close_read(mirror_store *st)
{
	store_read_end(st);
	store_close(st);
	unlink(path);
}

static const char base_sql[] =
    "INSERT INTO projects(id, name, aliases, description) VALUES"
    " ('p05', 'P05', '[\"interf\",\"p5\"]', 'bench');"
    "INSERT INTO project_state(id, project, category, key, value, status,"
    " created_at) VALUES"
    " ('s2', 'p5', 'fact', 'b', 'x', 'active', '2024-01-02'),"
    " ('s1', 'interf', 'decision', 'a', 'y', 'superseded', '2024-01-01'),"
    " ('s3', 'ghost', 'fact', 'k', 'v', 'active', '2024-01-01');"
    "INSERT INTO entities(id, entity_type, name, project, properties) VALUES"
    " ('e2', 'component', 'Pad', 'p05', '{\"material\":\"PEEK\"}'),"
    " ('e1', 'component', 'Arm', 'interf', '{}');"
    "INSERT INTO relationships(id, source_entity_id, target_entity_id,"
    " relationship_type) VALUES ('r1', 'e2', 'e1', 'part_of'),"
    " ('r2', 'x1', 'x2', 'part_of');"
    "INSERT INTO memories(id, memory_type, content, project, valid_until)"
    " VALUES ('m1', 'knowledge', 'k', '', NULL),"
    " ('m2', 'knowledge', 'old', 'p05', '2001-01-01 00:00:00'),"
    " ('m3', 'knowledge', 'new', 'p05', '2030-01-01 00:00:00');";

/* A project p06 of one entity with an edge into p05's, and a state
 * row of no project: base_sql's readers then read four groups. */
static const char hub_sql[] =
    "INSERT INTO entities(id, entity_type, name, project) VALUES"
    " ('e9', 'component', 'Hub', 'p06');"
    "INSERT INTO relationships(id, source_entity_id, target_entity_id,"
    " relationship_type) VALUES ('r9', 'e9', 'e2', 'uses');"
    "INSERT INTO project_state(id, project, category, key, value,"
    " status, created_at) VALUES ('s9', '', 'fact', 'k', 'v',"
    " 'active', '2024-01-01')";

/* Names and their rows, as facts_names_count or a reader's pass
 * gives them. */
struct name_counts {
	char name[16][16];
	long long rows[16];
	size_t n;
};

static void
count_into(void *arg, const char *name, long long rows)
{
	struct name_counts *c = arg;

	assert_true(c->n < 16);
	assert_true(strlen(name) < sizeof(c->name[0]));
	strcpy(c->name[c->n], name);
	c->rows[c->n++] = rows;
}

/* A reader's order for the test: the name's bytes, as is. */
static void
plain_key(strbuf *out, const char *text, size_t len, void *arg)
{
	(void)arg;
	strbuf_add(out, text, len);
}

/* The entry of name in c, or -1. */
static long
find_name(const struct name_counts *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->name[i], name) == 0)
			return (long)i;
	return -1;
}

/*
 * 1b: facts_names_count gives each name the reader lists, once, with as
 * many rows as the reader gives it one after another: keys and names
 * alike, every status, a name in both tables, a blob key read as its
 * text ("5" and X'35' are one name: a TEXT column keeps a blob as a
 * blob).
 */
static void
test_names_count(void **state)
{
	const struct store_key key = { plain_key, NULL };
	struct name_counts counted = { .n = 0 }, read = { .n = 0 };
	struct names_reader *nr;
	struct fact_name f;
	mirror_error err;
	mirror_store *st;
	int rc;

	(void)state;
	make_store(base_sql);
	exec_sql("INSERT INTO project_state(id, project, category, key, value,"
	    " status, created_at) VALUES ('s4', 'p05', 'fact', 'Pad', 'v',"
	    " 'active', '2024-01-01'), ('s5', 'p05', 'fact', '5', 'v',"
	    " 'active', '2024-01-01'), ('s6', 'p05', 'fact', X'35', 'v',"
	    " 'superseded', '2024-01-01'), ('s7', 'p05', 'fact', 'b', 'w',"
	    " 'active', '2024-01-03');");
	st = open_read();
	assert_int_equal(facts_names_count(st, count_into, &counted, &err), 0);
	assert_int_equal(facts_names_open(&nr, st, &key, &(const struct
	    names_plan){ NULL, 0, NULL }, &err), 0);
	while ((rc = facts_names_next(nr, &f, &err)) == 1) {
		if (read.n > 0 && strcmp(read.name[read.n - 1], f.name) == 0) {
			read.rows[read.n - 1]++;
			continue;
		}
		/* the reader gives a name's rows together */
		assert_int_equal(find_name(&read, f.name), -1);
		count_into(&read, f.name, 1);
	}
	assert_int_equal(rc, 0);
	facts_names_close(nr);
	/* a, b (2), k, Pad (2), Arm, 5 (2) */
	assert_int_equal(read.n, 6);
	assert_int_equal(counted.n, read.n);
	for (size_t i = 0; i < read.n; i++) {
		long j = find_name(&counted, read.name[i]);

		assert_true(j >= 0);
		assert_int_equal(counted.rows[j], read.rows[i]);
	}
	assert_int_equal(counted.rows[find_name(&counted, "5")], 2);
	assert_int_equal(counted.rows[find_name(&counted, "Pad")], 2);
	close_read(st);
}

/* How many times c is in s. */
static size_t
strcount(const char *s, char c)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += *s == c;
	return n;
}

/* The rows of the names reader of plan p into sb, a line each. */
static void
names_text(strbuf *sb, mirror_store *st, const struct names_plan *p)
{
	const struct store_key key = { plain_key, NULL };
	struct names_reader *nr;
	struct fact_name f;
	mirror_error err;
	int rc;

	strbuf_init(sb);
	assert_int_equal(facts_names_open(&nr, st, &key, p, &err), 0);
	while ((rc = facts_names_next(nr, &f, &err)) == 1)
		strbuf_printf(sb, "%s|%s|%s|%s|%s|%s|%s|%s|%s\n", f.name,
		    f.project, f.layer, f.id, f.kind, f.status,
		    f.value != NULL ? f.value : "-", f.properties != NULL ?
		    f.properties : "-", f.description);
	assert_int_equal(rc, 0);
	facts_names_close(nr);
}

/*
 * 1c: the names of some projects found by the ids of a check's kept
 * rows (facts_kept_names) are the rows a scan by project gives, in the
 * same order, aliases made canonical, with no step of a full scan; a
 * set that does not hold each project gives no text.
 */
static void
test_names_by_id(void **state)
{
	static const char *const ids[] = { "p05", "p06" };
	struct facts_kept *k = NULL;
	strbuf scan, by_id;
	unsigned long long steps;
	mirror_error err;
	mirror_store *st;
	char *rows;

	(void)state;
	make_store(base_sql);
	exec_sql(hub_sql);
	st = open_read();
	assert_int_equal(facts_check(st, &(const struct facts_plan){
	    .ids = ids, .n = 2, .keep = &k }, &err), 0);
	assert_null(facts_kept_names(k, (const char *const[]){ "ghost" }, 1));
	rows = facts_kept_names(k, ids, 2);
	assert_non_null(rows);
	for (size_t n = 1; n <= 2; n++) {
		steps = work_get(&work_scope_scans);
		names_text(&scan, st, &(const struct names_plan){ ids, n,
		    NULL });
		assert_true(work_get(&work_scope_scans) > steps);
		steps = work_get(&work_scope_scans);
		names_text(&by_id, st, &(const struct names_plan){ ids, n,
		    rows });
		assert_int_equal(work_get(&work_scope_scans), steps);
		assert_string_equal(by_id.data, scan.data);
		/* p05's a (by its alias), b, Pad, Arm; p06's Hub */
		assert_int_equal(strcount(scan.data, '\n'), n == 1 ? 4 : 5);
		strbuf_free(&scan);
		strbuf_free(&by_id);
	}
	free(rows);
	facts_kept_free(k);
	close_read(st);
}

/* 1: projects are canonical, unlisted names kept, '' first, counts. */
static void
test_projects(void **state)
{
	struct fact_project *p;
	mirror_error err;
	mirror_store *st;
	size_t n;

	(void)state;
	make_store(base_sql);
	st = open_read();
	assert_int_equal(facts_projects(&p, &n, st, NULL, NULL, &err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(p[0].id, "");
	assert_int_equal(p[0].n_memories, 1);
	assert_string_equal(p[1].id, "ghost");
	assert_int_equal(p[1].listed, 0);
	assert_string_equal(p[1].name, "ghost");
	assert_string_equal(p[2].id, "p05");
	assert_int_equal(p[2].n_state, 2);
	assert_int_equal(p[2].n_entities, 2);
	assert_int_equal(p[2].n_memories, 2);
	assert_int_equal(p[2].n_aliases, 2);
	assert_string_equal(p[2].aliases[0], "interf");
	facts_projects_free(p, n);
	close_read(st);
}

/* 2: one project's rows through its aliases, sorted, expiry by now. */
static void
test_load(void **state)
{
	struct project_facts f;
	mirror_error err;
	mirror_store *st;
	time_t now;

	(void)state;
	make_store(base_sql);
	st = open_read();
	assert_int_equal(mirror_parse_ts(&now, "2024-06-01 00:00:00"), 0);
	assert_int_equal(facts_load(&f, st, "p05", now, &err), 0);
	assert_int_equal(f.n_state, 2);
	assert_string_equal(f.state[0].id, "s1");    /* decision < fact */
	assert_string_equal(f.state[0].project, "interf");
	assert_int_equal(f.n_ent, 2);
	assert_string_equal(f.ent[0].name, "Arm");
	assert_string_equal(json_string_value(json_object_get(
	    f.ent[1].properties, "material")), "PEEK");
	assert_int_equal(f.n_rel, 1);                /* r2 is elsewhere */
	assert_int_equal(f.n_mem, 2);
	assert_string_equal(f.mem[0].id, "m2");
	assert_int_equal(f.mem[0].expired, 1);
	assert_int_equal(f.mem[1].expired, 0);
	facts_free(&f);
	assert_int_equal(facts_load(&f, st, "", now, &err), 0);
	assert_int_equal(f.n_mem, 1);
	assert_null(f.mem[0].valid_until);
	facts_free(&f);
	close_read(st);
}

/* 3: bad rows are errors naming table, row and column. */
static void
test_bad_rows(void **state)
{
	struct project_facts f;
	mirror_error err;
	mirror_store *st;

	(void)state;
	make_store("INSERT INTO entities(id, entity_type, name, project, "
	    "properties) VALUES ('e9', 'x', 'n', 'p', '{\"a\":');");
	st = open_read();
	assert_int_equal(facts_load(&f, st, "p", 0, &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "entities row 'e9': properties is "
	    "not valid JSON"));
	facts_free(&f);
	close_read(st);

	make_store("INSERT INTO memories(id, memory_type, content, project, "
	    "valid_until) VALUES ('m9', 'k', 'c', 'p', 'soon');");
	st = open_read();
	assert_int_equal(facts_load(&f, st, "p", 0, &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "memories row 'm9': valid_until"));
	facts_free(&f);
	close_read(st);

	make_store("INSERT INTO memories(id, memory_type, content, project) "
	    "VALUES ('m8', 'k', CAST(x'41ff42' AS TEXT), 'p');");
	st = open_read();
	assert_int_equal(facts_load(&f, st, "p", 0, &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "memories row 'm8': content is not "
	    "valid UTF-8"));
	facts_free(&f);
	close_read(st);
}

static uint64_t
checksum(void)
{
	mirror_error err;
	mirror_store *st;
	uint64_t h;

	assert_int_equal(store_open(&st, path, STORE_READ, &err), 0);
	assert_int_equal(facts_checksum(&h, st, &err), 0);
	store_close(st);
	return h;
}

/* 4: the checksum follows every fact and conflict, not sweep runs. */
static void
test_checksum(void **state)
{
	uint64_t a, b;

	(void)state;
	make_store(base_sql);
	a = checksum();
	assert_true(a == checksum());
	exec_sql("INSERT INTO sweep_runs(id, started_at, rules_version) "
	    "VALUES ('r', '2024-01-01', 'x')");
	assert_true(a == checksum());
	exec_sql("UPDATE project_state SET value = 'z' WHERE id = 's2'");
	b = checksum();
	assert_true(a != b);
	exec_sql("UPDATE project_state SET value = 'x' WHERE id = 's2'");
	assert_true(a == checksum());
	exec_sql("INSERT INTO conflicts(id, slot_kind, slot_key) VALUES "
	    "('c', 'cross_layer', '[]')");
	assert_true(a != checksum());
	/* NULL and '' differ. */
	exec_sql("DELETE FROM conflicts; UPDATE memories SET valid_until = '' "
	    "WHERE id = 'm1'");
	assert_true(a != checksum());
	unlink(path);
}

/* 5: one reader walks every project in order and gives what a reader
 * per project gives; a project asked out of order is a bug, refused. */
static void
test_reader(void **state)
{
	static const char *const order[] = { "", "ghost", "p05" };
	struct project_facts f, g;
	struct facts_reader *r;
	mirror_error err;
	mirror_store *st;

	(void)state;
	make_store(base_sql);
	st = open_read();
	assert_int_equal(facts_reader_open(&r, st, &plain, &err), 0);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(facts_read_project(&f, r, order[i], &err), 0);
		assert_int_equal(facts_load(&g, st, order[i], 0, &err), 0);
		assert_int_equal(f.n_state, g.n_state);
		assert_int_equal(f.n_ent, g.n_ent);
		assert_int_equal(f.n_rel, g.n_rel);
		assert_int_equal(f.n_mem, g.n_mem);
		for (size_t k = 0; k < f.n_state; k++)
			assert_string_equal(f.state[k].id, g.state[k].id);
		for (size_t k = 0; k < f.n_mem; k++)
			assert_string_equal(f.mem[k].id, g.mem[k].id);
		facts_free(&f);
		facts_free(&g);
	}
	/* A project with no rows between two with rows reads empty. */
	assert_int_equal(facts_read_project(&f, r, "zz", &err), 0);
	assert_int_equal(f.n_state + f.n_ent + f.n_rel + f.n_mem, 0);
	facts_free(&f);
	assert_int_equal(facts_read_project(&f, r, "p05", &err), -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "'p05' read after 'zz'"));
	facts_free(&f);
	facts_reader_close(r);
	close_read(st);
}

/* The project ids, row counts and first rows' ids of f and g agree. */
static void
same_facts(const struct project_facts *f, const struct project_facts *g)
{
	assert_int_equal(f->n_state, g->n_state);
	assert_int_equal(f->n_ent, g->n_ent);
	assert_int_equal(f->n_rel, g->n_rel);
	assert_int_equal(f->n_mem, g->n_mem);
	assert_int_equal(f->n_far, g->n_far);
	for (size_t k = 0; k < f->n_state; k++)
		assert_string_equal(f->state[k].id, g->state[k].id);
	for (size_t k = 0; k < f->n_ent; k++)
		assert_string_equal(f->ent[k].id, g->ent[k].id);
	for (size_t k = 0; k < f->n_rel; k++)
		assert_string_equal(f->rel[k].id, g->rel[k].id);
	for (size_t k = 0; k < f->n_mem; k++)
		assert_string_equal(f->mem[k].id, g->mem[k].id);
}

/* The wide reader with jobs jobs on a store in journal mode mode: sides
 * connections of its own, and every project read as facts_load reads
 * it; its errors as the plain reader's. */
static void
wide_case(const char *jobs, const char *mode, int sides)
{
	static const char *const order[] = { "", "ghost", "p05", "p06" };
	struct project_facts f, g;
	struct facts_reader *r;
	mirror_error err;
	mirror_store *st;
	char sql[64];

	make_store(base_sql);
	snprintf(sql, sizeof(sql), "PRAGMA journal_mode=%s", mode);
	exec_sql(sql);
	exec_sql(hub_sql);
	st = open_read();
	assert_int_equal(setenv("MIRROR_JOBS", jobs, 1), 0);
	assert_int_equal(facts_reader_open(&r, st, &wide, &err), 0);
	unsetenv("MIRROR_JOBS");
	assert_int_equal(facts_reader_sides(r), sides);
	for (size_t i = 0; i < sizeof(order) / sizeof(*order); i++) {
		assert_int_equal(facts_read_project(&f, r, order[i], &err), 0);
		assert_int_equal(facts_load(&g, st, order[i], 0, &err), 0);
		same_facts(&f, &g);
		assert_true(f.n_state + f.n_ent + f.n_rel + f.n_mem > 0);
		facts_free(&f);
		facts_free(&g);
	}
	assert_int_equal(facts_read_project(&f, r, "p05", &err), -MIRROR_EIO);
	assert_non_null(strstr(err.msg, "'p05' read after 'p06'"));
	facts_free(&f);
	facts_reader_close(r);
	close_read(st);
}

/* The wide reader sorts on a connection a job, up to one a table, where
 * a second connection reads the rows the caller's does (a rollback
 * journal); with one job, or on a WAL store, on the caller's. */
static void
test_reader_wide(void **state)
{
	(void)state;
	wide_case("2", "delete", 2);
	wide_case("3", "delete", 3);
	wide_case("8", "truncate", 4);
	wide_case("1", "delete", 0);
	wide_case("4", "wal", 0);
}

/* JSON value j (NULL: "(null)") and a newline into sb, its keys
 * sorted. */
static void
json_text(strbuf *sb, const json_t *j)
{
	char *t = j != NULL ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS |
	    JSON_ENCODE_ANY) : NULL;

	strbuf_printf(sb, "%s\n", t != NULL ? t : "(null)");
	free(t);
}

/* What f holds, every field of each row, one line a row (an entity's
 * JSON on two more), into sb: two reads agree when their texts do. */
static void
facts_text(strbuf *sb, const struct project_facts *f)
{
#define S(x) ((x) != NULL ? (x) : "(null)")
	for (size_t k = 0; k < f->n_state; k++) {
		const struct fact_state *v = &f->state[k];

		strbuf_printf(sb, "s %s|%s|%s|%s|%s|%s|%s|%s|%s|%g\n", v->id,
		    v->project, v->category, v->key, v->value, S(v->source),
		    v->status, S(v->created_at), S(v->updated_at),
		    v->confidence);
	}
	for (size_t k = 0; k < f->n_ent; k++) {
		const struct fact_entity *v = &f->ent[k];

		strbuf_printf(sb, "e %s|%s|%s|%s|%s|%s|%s|%s|%g|", v->id,
		    v->type, v->name, v->project, S(v->description),
		    v->status, S(v->created_at), S(v->updated_at),
		    v->confidence);
		json_text(sb, v->properties);
		json_text(sb, v->source_refs);
	}
	for (size_t k = 0; k < f->n_rel; k++)
		strbuf_printf(sb, "r %s|%s|%s|%s|%g\n", f->rel[k].id,
		    f->rel[k].source, f->rel[k].target, f->rel[k].type,
		    f->rel[k].confidence);
	for (size_t k = 0; k < f->n_mem; k++) {
		const struct fact_memory *v = &f->mem[k];

		strbuf_printf(sb, "m %s|%s|%s|%s|%s|%s|%d|%s|%s|%s|%lld|%g|",
		    v->id, v->type, v->content, v->project, v->status,
		    S(v->valid_until), v->expired, S(v->created_at),
		    S(v->updated_at), S(v->graduated_to), v->reference_count,
		    v->confidence);
		json_text(sb, v->domain_tags);
	}
	for (size_t k = 0; k < f->n_far; k++)
		strbuf_printf(sb, "f %s|%s|%s|%s\n", f->far[k].id,
		    f->far[k].project, S(f->far[k].name),
		    S(f->far[k].status));
#undef S
}

/* The projects every plan of test_plans reads, in order. */
static const char *const plan_order[] = { "", "ghost", "p05", "p06" };
#define PLAN_N (sizeof(plan_order) / sizeof(*plan_order))

/* Each project of plan_order as p reads it (one reader for all; with
 * one_each, a reader a project, which a scope of that project alone
 * needs), into text[k]. */
static void
read_by_plan(strbuf text[PLAN_N], mirror_store *st,
    const struct facts_plan *p)
{
	struct facts_reader *r = NULL;
	struct project_facts f;
	mirror_error err;

	assert_int_equal(facts_reader_open(&r, st, p, &err), 0);
	for (size_t k = 0; k < PLAN_N; k++) {
		strbuf_init(&text[k]);
		assert_int_equal(facts_read_project(&f, r, plan_order[k],
		    &err), 0);
		facts_text(&text[k], &f);
		facts_free(&f);
	}
	facts_reader_close(r);
}

/* Free what read_by_plan filled. */
static void
texts_free(strbuf text[PLAN_N])
{
	for (size_t k = 0; k < PLAN_N; k++)
		strbuf_free(&text[k]);
}

/*
 * Each fast path of struct facts_plan reads what the plain plan reads
 * (issue 72, item 4: every promise of "the same result, faster" checked
 * against the plain plan, here, not by the whole suite by accident):
 * wide (on connections of its own), a scope found by the projects'
 * names and by the digest's row ids, and what a keeping check kept
 * and a copy of it (facts_kept_copy, whole and of one project); out of
 * a scope, a project reads as empty. Each check plan passes or
 * fails as the plain check does for the projects it covers.
 */
static void
test_plans(void **state)
{
	static const char *const all[] = { "", "ghost", "p05", "p06" };
	strbuf want[PLAN_N], got[PLAN_N];
	struct store_digest d;
	struct facts_kept *k = NULL, *c;
	mirror_error err;
	mirror_store *st;

	(void)state;
	make_store(base_sql);
	exec_sql("INSERT INTO projects(id, name) VALUES ('p06', 'P06')");
	exec_sql(hub_sql);
	st = open_read();
	read_by_plan(want, st, &plain);
	for (size_t i = 0; i < PLAN_N; i++)
		assert_true(want[i].len > 0);
	/* Wide, on two connections of its own. */
	assert_int_equal(setenv("MIRROR_JOBS", "2", 1), 0);
	read_by_plan(got, st, &wide);
	unsetenv("MIRROR_JOBS");
	for (size_t i = 0; i < PLAN_N; i++)
		assert_string_equal(got[i].data, want[i].data);
	texts_free(got);
	/* A scope of each project alone, by name and by row id: it reads
	 * as the plain plan, the others as empty. */
	assert_int_equal(facts_digest(&d, st, &(const struct facts_digest_plan){ .now = 0, .rowids = 1 }, &err), 0);
	for (int rows = 0; rows < 2; rows++)
		for (size_t j = 0; j < PLAN_N; j++) {
			read_by_plan(got, st, &(const struct facts_plan){
			    .ids = &all[j], .n = 1, .d = rows ? &d : NULL });
			for (size_t i = 0; i < PLAN_N; i++)
				assert_string_equal(got[i].data, i == j ?
				    want[i].data : "");
			texts_free(got);
		}
	/* What a check of a scope kept, read: the same. */
	for (int rows = 0; rows < 2; rows++) {
		assert_int_equal(facts_check(st, &(const struct facts_plan){
		    .ids = &all[2], .n = 2, .d = rows ? &d : NULL,
		    .keep = &k }, &err), 0);
		c = facts_kept_copy(k, all, PLAN_N);
		read_by_plan(got, st, &(const struct facts_plan){ .kept = k });
		for (size_t i = 0; i < PLAN_N; i++)
			assert_string_equal(got[i].data, i == 1 ? "" :
			    want[i].data);
		texts_free(got);
		facts_kept_free(k);
		/* Its copy (the search's, site.c), read after the set was
		 * moved out and freed: the same rows, its own. */
		assert_true(facts_kept_covers(c, &all[2], 2));
		assert_false(facts_kept_covers(c, &all[1], 1));
		read_by_plan(got, st, &(const struct facts_plan){ .kept = c });
		for (size_t i = 0; i < PLAN_N; i++)
			assert_string_equal(got[i].data, i == 1 ? "" :
			    want[i].data);
		texts_free(got);
		facts_kept_free(c);
		/* A copy of one project holds it alone. */
		assert_int_equal(facts_check(st, &(const struct facts_plan){
		    .ids = &all[2], .n = 2, .d = rows ? &d : NULL,
		    .keep = &k }, &err), 0);
		c = facts_kept_copy(k, &all[3], 1);
		facts_kept_free(k);
		read_by_plan(got, st, &(const struct facts_plan){ .kept = c });
		for (size_t i = 0; i < PLAN_N; i++)
			assert_string_equal(got[i].data, i == 3 ?
			    want[i].data : "");
		texts_free(got);
		facts_kept_free(c);
	}
	digest_free(&d);
	texts_free(want);
	/* A bad row of p06 (no other project reads it: not an entity
	 * another's relationship ends at): the plain check and a scope
	 * holding p06 fail on it, naming it the same way; a scope without
	 * p06 passes. */
	store_read_end(st);
	store_close(st);
	exec_sql("INSERT INTO project_state(id, project, category, key, "
	    "value, status, created_at) VALUES ('s8', 'p06', 'fact', 'k', "
	    "CAST(x'ff' AS TEXT), 'active', '2024-01-01')");
	st = open_read();
	assert_int_equal(facts_check(st, &plain, &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "project_state row 's8'"));
	for (int keep = 0; keep < 2; keep++) {
		k = NULL;
		assert_int_equal(facts_check(st, &(const struct facts_plan){
		    .ids = &all[3], .n = 1, .keep = keep ? &k : NULL },
		    &err), -MIRROR_EINPUT);
		assert_non_null(strstr(err.msg, "project_state row 's8'"));
		assert_null(k);
		assert_int_equal(facts_check(st, &(const struct facts_plan){
		    .ids = &all[1], .n = 2, .keep = keep ? &k : NULL },
		    &err), 0);
		facts_kept_free(k);
	}
	close_read(st);
}

/* 6: the checksum is of the rows, not of the order they were written
 * in; a row written twice still counts twice. */
static void
test_checksum_order(void **state)
{
	uint64_t a;

	(void)state;
	/* Fixed times: the defaults (CURRENT_TIMESTAMP) of two stores
	 * made a second apart differ, and the checksum reads them. */
	make_store("INSERT INTO project_state(id, project, category, key, "
	    "value, created_at, updated_at) VALUES "
	    "('s1', 'p', 'fact', 'a', '1', '2024-01-01', '2024-01-01'), "
	    "('s2', 'p', 'fact', 'b', '2', '2024-01-01', '2024-01-01');");
	a = checksum();
	make_store("INSERT INTO project_state(id, project, category, key, "
	    "value, created_at, updated_at) VALUES "
	    "('s2', 'p', 'fact', 'b', '2', '2024-01-01', '2024-01-01'), "
	    "('s1', 'p', 'fact', 'a', '1', '2024-01-01', '2024-01-01');");
	assert_true(a == checksum());
	/* Two values swapped between rows is a different store. */
	exec_sql("UPDATE project_state SET value = CASE id WHEN 's1' THEN '2' "
	    "ELSE '1' END");
	assert_true(a != checksum());
	unlink(path);
}

/* 7: what the clock decides: expired memories (any status) and whether
 * the store has conflicts at all. */
static void
test_clock(void **state)
{
	struct facts_clock c, c2;
	mirror_error err;
	mirror_store *st;
	time_t now, t;

	(void)state;
	make_store(base_sql);
	st = open_read();
	assert_int_equal(mirror_parse_ts(&now, "2024-06-01 00:00:00"), 0);
	assert_int_equal(facts_clock_read(&c, st, now, &err), 0);
	assert_int_equal(c.expired, 1);              /* m2 */
	assert_int_equal(c.any_conflicts, 0);
	/* It holds from just after m2's expiry up to m3's, both included
	 * as m3 is not expired at its own second. */
	assert_int_equal(mirror_parse_ts(&t, "2001-01-01 00:00:00"), 0);
	assert_true(c.after == (long long)t);
	assert_int_equal(facts_clock_holds(&c, t), 0);
	assert_int_equal(facts_clock_holds(&c, t + 1), 1);
	assert_int_equal(mirror_parse_ts(&t, "2030-01-01 00:00:00"), 0);
	assert_true(c.until == (long long)t);
	assert_int_equal(facts_clock_holds(&c, t), 1);
	assert_int_equal(facts_clock_holds(&c, t + 1), 0);
	assert_int_equal(facts_clock_read(&c2, st, t, &err), 0);
	assert_int_equal(c2.expired, 1);
	assert_int_equal(facts_clock_read(&c2, st, t + 1, &err), 0);
	assert_int_equal(c2.expired, 2);
	assert_int_equal(mirror_parse_ts(&now, "2031-01-01 00:00:00"), 0);
	assert_int_equal(facts_clock_read(&c, st, now, &err), 0);
	assert_int_equal(c.expired, 2);              /* m2, m3 */
	assert_true(c.until == LLONG_MAX);           /* none expires later */
	assert_int_equal(facts_clock_holds(&c, now + 100000000), 1);
	store_read_end(st);
	store_close(st);
	exec_sql("INSERT INTO conflicts(id, slot_kind, slot_key) VALUES "
	    "('c', 'cross_layer', '[]')");
	st = open_read();
	assert_int_equal(facts_clock_read(&c, st, now, &err), 0);
	assert_int_equal(c.any_conflicts, 1);
	close_read(st);
}

/* 8: facts_check reads every row a page would read and keeps none:
 * good stores pass, a bad row anywhere (here a vendor no sweep reads,
 * and an inactive memory) is named. */
static void
test_check(void **state)
{
	mirror_error err;
	mirror_store *st;

	(void)state;
	make_store(base_sql);
	st = open_read();
	assert_int_equal(facts_check(st, &plain, &err), 0);
	close_read(st);

	make_store("INSERT INTO entities(id, entity_type, name, project, "
	    "properties, status) VALUES ('v1', 'vendor', 'n', 'p', '[1', "
	    "'superseded');");
	st = open_read();
	assert_int_equal(facts_check(st, &plain, &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "entities row 'v1': properties is "
	    "not valid JSON"));
	close_read(st);

	make_store("INSERT INTO memories(id, memory_type, content, project, "
	    "status) VALUES ('m7', 'k', CAST(x'41ff' AS TEXT), 'p', "
	    "'invalid');");
	st = open_read();
	assert_int_equal(facts_check(st, &plain, &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "memories row 'm7': content is not "
	    "valid UTF-8"));
	close_read(st);
}

/* facts_load of project p must fail naming want. */
static void
load_fails(const char *want)
{
	struct project_facts f;
	mirror_error err;
	mirror_store *st = open_read();

	assert_int_equal(facts_load(&f, st, "p", 0, &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, want));
	facts_free(&f);
	close_read(st);
}

/* 9: the column table: a store without memories' optional columns
 * reads their stand-ins, and a bad value of each kind of column names
 * its table, row and column. */
static void
test_columns(void **state)
{
#define bare_memories "DROP TABLE memories; CREATE TABLE memories (id TEXT, " \
	"memory_type TEXT, content TEXT, project TEXT, confidence REAL, " \
	"status TEXT, created_at TEXT, updated_at TEXT);"
	struct project_facts f;
	mirror_error err;
	mirror_store *st;

	(void)state;
	make_store(bare_memories "INSERT INTO memories VALUES ('m1', 'k', "
	    "'c', 'p', 0.5, 'active', '2024-01-01', '2024-01-02');");
	st = open_read();
	assert_int_equal(facts_load(&f, st, "p", 0, &err), 0);
	assert_int_equal(f.n_mem, 1);
	assert_string_equal(f.mem[0].updated_at, "2024-01-02");
	assert_true(f.mem[0].confidence == 0.5);
	assert_int_equal(f.mem[0].reference_count, 0);
	assert_true(json_is_array(f.mem[0].domain_tags));
	assert_int_equal(json_array_size(f.mem[0].domain_tags), 0);
	assert_null(f.mem[0].valid_until);
	assert_null(f.mem[0].graduated_to);
	facts_free(&f);
	assert_int_equal(facts_check(st, &plain, &err), 0);
	close_read(st);

	make_store(bare_memories "INSERT INTO memories VALUES ('m2', 'k', "
	    "NULL, 'p', 1, 'active', '', '');");
	load_fails("memories row 'm2': content is NULL");
	make_store("INSERT INTO entities(id, entity_type, name, project, "
	    "source_refs) VALUES ('e1', 'x', 'n', 'p', '{}');");
	load_fails("entities row 'e1': source_refs is not a JSON array");
	make_store("INSERT INTO entities(id, entity_type, name, project) "
	    "VALUES ('e1', 'x', 'n', 'p'); DROP TABLE relationships; "
	    "CREATE TABLE relationships (id TEXT, source_entity_id TEXT, "
	    "target_entity_id TEXT, relationship_type TEXT, confidence REAL);"
	    "INSERT INTO relationships VALUES ('r1', 'e1', 'e1', 'part_of', "
	    "NULL);");
	load_fails("relationships row 'r1': confidence is NULL");
#undef bare_memories
}

/* sqlite3_progress_handler callback: count one VM instruction. */
static int
count_step(void *ctx)
{
	(*(long long *)ctx)++;
	return 0;
}

/*
 * A store of n projects: three in four listed (one alias each), one fact
 * each but every fourth listed one, the facts spread over the three
 * layers, a state fact in four under its project's alias.
 */
static void
make_projects(int n)
{
	char sql[1024];
	int k;

	k = snprintf(sql, sizeof(sql), "CREATE TEMP TABLE n AS WITH "
	    "RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c "
	    "WHERE i < %d) SELECT i FROM c;"
	    "INSERT INTO projects(id, name, aliases) SELECT "
	    "printf('q%%05d', i), 'Q' || i, json_array('alias' || i) FROM n "
	    "WHERE i %% 4 <> 3;"
	    "CREATE TEMP VIEW f AS SELECT i, printf('q%%05d', i) p FROM n "
	    "WHERE i %% 4 <> 2;"
	    "INSERT INTO project_state(id, project, category, key, value) "
	    "SELECT 's' || i, CASE i %% 4 WHEN 0 THEN 'alias' || i ELSE p "
	    "END, 'fact', 'k', 'v' FROM f WHERE i %% 3 = 0;"
	    "INSERT INTO entities(id, entity_type, name, project) SELECT "
	    "'e' || i, 'component', 'c', p FROM f WHERE i %% 3 = 1;"
	    "INSERT INTO memories(id, memory_type, content, project) SELECT "
	    "'m' || i, 'knowledge', 'k', p FROM f WHERE i %% 3 = 2;", n - 1);
	assert_true(k > 0 && (size_t)k < sizeof(sql));
	make_store(sql);
}

/* The VM instructions facts_projects runs on a store of n projects
 * (make_projects), whose first four it checks. */
static long long
projects_steps(int n)
{
	struct fact_project *p;
	mirror_error err;
	mirror_store *st;
	long long steps = 0;
	size_t np;

	make_projects(n);
	st = open_read();
	/* Replaces the query budget's handler, for this store only. */
	sqlite3_progress_handler(store_db(st), 1, count_step, &steps);
	assert_int_equal(facts_projects(&p, &np, st, NULL, NULL, &err), 0);
	assert_int_equal(np, (size_t)n);
	assert_string_equal(p[0].id, "q00000");     /* state via alias */
	assert_int_equal(p[0].listed, 1);
	assert_int_equal(p[0].n_state, 1);
	assert_int_equal(p[0].n_active, 1);
	assert_int_equal(p[1].n_entities, 1);
	assert_int_equal(p[1].n_state + p[1].n_memories, 0);
	assert_int_equal(p[2].listed, 1);           /* listed, no facts */
	assert_string_equal(p[2].name, "Q2");
	assert_int_equal(p[2].n_state + p[2].n_entities + p[2].n_memories +
	    p[2].n_active, 0);
	assert_int_equal(p[3].listed, 0);           /* a fact, no listing */
	assert_string_equal(p[3].name, "q00003");
	assert_int_equal(p[3].n_state, 1);
	facts_projects_free(p, np);
	close_read(st);
	return steps;
}

/* 10: listing the projects costs SQLite about the same per project
 * whatever their number: four times the projects, about four times the
 * VM instructions (a plan that scans the projects once per project
 * takes sixteen). */
static void
test_projects_linear(void **state)
{
	long long small, big;

	(void)state;
	small = projects_steps(1000);
	big = projects_steps(4000);
	assert_true(small > 0);
	assert_true(big < 6 * small);
	assert_true(big > 3 * small);
}

/*
 * 11: the query budget counts the time a cursor spends in SQLite, not
 * the caller's between reads: projects read with a pause after each,
 * the pauses (short ones, as a page's render is) together far past the
 * budget, SQLite's own time far below it.
 */
static void
test_reader_budget(void **state)
{
	struct project_facts f;
	struct facts_reader *r;
	mirror_error err;
	mirror_store *st;
	char id[16];

	(void)state;
	/* 12 projects of 100 state rows: every read steps the cursor past
	 * a progress call (one in 1,000 VM instructions). */
	make_store("CREATE TEMP TABLE n AS WITH RECURSIVE c(i) AS (SELECT 0 "
	    "UNION ALL SELECT i + 1 FROM c WHERE i < 1199) SELECT i FROM c;"
	    "INSERT INTO project_state(id, project, category, key, value) "
	    "SELECT 's' || i, printf('p%02d', i / 100), 'fact', 'k' || i, 'v' "
	    "FROM n");
	assert_int_equal(setenv("MIRROR_QUERY_TIMEOUT_MS", "300", 1), 0);
	st = open_read();
	assert_int_equal(unsetenv("MIRROR_QUERY_TIMEOUT_MS"), 0);
	assert_int_equal(facts_reader_open(&r, st, &plain, &err), 0);
	for (int i = 0; i < 12; i++) {
		assert_true(snprintf(id, sizeof(id), "p%02d", i) < (int)sizeof(id));
		assert_int_equal(facts_read_project(&f, r, id, &err), 0);
		assert_int_equal(f.n_state, 100);
		facts_free(&f);
		usleep(60000);      /* 12 x 60 ms: past 300, each under 100 */
	}
	facts_reader_close(r);
	close_read(st);
}

/* Two project lists are the same, field by field. */
static void
projects_equal(const struct fact_project *a, size_t na,
    const struct fact_project *b, size_t nb)
{
	assert_int_equal(na, nb);
	for (size_t i = 0; i < na; i++) {
		assert_string_equal(a[i].id, b[i].id);
		assert_string_equal(a[i].name, b[i].name);
		assert_string_equal(a[i].description, b[i].description);
		assert_int_equal(a[i].n_aliases, b[i].n_aliases);
		for (size_t k = 0; k < a[i].n_aliases; k++)
			assert_string_equal(a[i].aliases[k], b[i].aliases[k]);
		assert_int_equal(a[i].listed, b[i].listed);
		assert_int_equal(a[i].n_state, b[i].n_state);
		assert_int_equal(a[i].n_entities, b[i].n_entities);
		assert_int_equal(a[i].n_memories, b[i].n_memories);
		assert_int_equal(a[i].n_active, b[i].n_active);
	}
}

/* The projects from the digest (the table and the digest's counts),
 * and from the digest with the listed rows kept from such a list (the
 * model's kept entry), are the plain read's, field by field; the last
 * also the latest. A kept list missing its last listed project gives
 * that project as unlisted, as the store would without its row. */
static void
test_projects_by_plan(void **state)
{
	struct fact_project *read, *dig, *kept, *listed;
	size_t np, nd, nk, nl = 0, cap = 0;
	const char *gone;
	struct store_digest d;
	mirror_error err;
	mirror_store *st;

	(void)state;
	make_projects(38);     /* the last, q00037, listed with a fact */
	st = open_read();
	assert_int_equal(facts_projects(&read, &np, st, NULL, NULL, &err),
	    0);
	assert_int_equal(facts_digest(&d, st, &(const struct
	    facts_digest_plan){ .now = 0 }, &err), 0);
	assert_int_equal(facts_projects(&dig, &nd, st, &d, NULL, &err), 0);
	projects_equal(read, np, dig, nd);
	listed = NULL;
	for (size_t i = 0; i < nd; i++)
		if (dig[i].listed)
			ARRAY_PUSH(listed, nl, cap) = dig[i];
	ARRAY_PUSH(listed, nl, cap) = (struct fact_project){ .id = NULL };
	assert_true(nl > 2);
	assert_int_equal(facts_projects(&kept, &nk, st, &d, listed, &err), 0);
	projects_equal(dig, nd, kept, nk);
	for (size_t i = 0; i < nd; i++)
		assert_int_equal(kept[i].latest, dig[i].latest);
	facts_projects_free(kept, nk);
	/* The last listed project dropped from what was kept: it holds
	 * facts (make_projects), so it comes as an unlisted one. */
	gone = listed[nl - 2].id;
	listed[nl - 2].id = NULL;
	assert_int_equal(facts_projects(&kept, &nk, st, &d, listed, &err), 0);
	assert_int_equal(nk, nd);
	for (size_t i = 0; i < nk; i++) {
		assert_string_equal(kept[i].id, dig[i].id);
		assert_int_equal(kept[i].listed, strcmp(kept[i].id, gone) != 0 &&
		    dig[i].listed);
		if (strcmp(kept[i].id, gone) == 0)
			assert_string_equal(kept[i].name, gone);
	}
	facts_projects_free(kept, nk);
	free(listed);
	facts_projects_free(dig, nd);
	facts_projects_free(read, np);
	digest_free(&d);
	close_read(st);
}

/* Every row of st's TEMP project_alias, quoted, into out (by name). */
static void
alias_dump(strbuf *out, mirror_store *st)
{
	sqlite3_stmt *s;

	assert_int_equal(sqlite3_prepare_v2(store_db(st), "SELECT "
	    "group_concat(quote(name) || '=' || quote(canonical), ',') FROM "
	    "(SELECT * FROM temp.project_alias ORDER BY name)", -1, &s, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	strbuf_reset(out);
	strbuf_puts(out, (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
}

/* The store at path opened, opened beside that sharing its aliases'
 * image, beside the second with a copy, and beside the third sharing
 * again: the four alias tables are the same, want, the last still when
 * the others are closed (it holds the image). */
static void
beside_same(const char *want)
{
	mirror_store *st = open_read(), *b1, *b2, *b3;
	mirror_error err;
	strbuf a, b;

	strbuf_init(&a);
	strbuf_init(&b);
	assert_int_equal(store_open_shared(&b1, st, STORE_READ_NOWAIT, &err),
	    0);
	assert_int_equal(store_open_beside(&b2, b1, STORE_READ, &err), 0);
	assert_int_equal(store_open_shared(&b3, b2, STORE_READ, &err), 0);
	alias_dump(&a, st);
	assert_string_equal(a.data, want);
	alias_dump(&b, b1);
	assert_string_equal(b.data, want);
	alias_dump(&b, b2);
	assert_string_equal(b.data, want);
	store_close(b2);
	store_close(b1);
	store_read_end(st);
	store_close(st);
	alias_dump(&b, b3);
	assert_string_equal(b.data, want);
	store_close(b3);
	strbuf_free(&a);
	strbuf_free(&b);
}

/* 16: a connection opened beside another (store_open_beside, or
 * store_open_shared) has its alias table, row for row: ids stored as
 * numbers, an alias listed twice, an id kept as a blob (the image
 * holds the table's very records). */
static void
test_open_beside(void **state)
{
	(void)state;
	make_store(base_sql);
	exec_sql("INSERT INTO projects(id, name, aliases) VALUES"
	    " (6, 'Six', '[\"six\",\"six\",\"6\"]'),"
	    " ('', 'None', '[\"nil\"]')");
	beside_same("''='','6'='6','interf'='p05','nil'='','p05'='p05',"
	    "'p5'='p05','six'='6'");
	exec_sql("INSERT INTO projects(id, name, aliases) VALUES"
	    " (X'7a7a', 'Blob', '[\"zz2\"]')");
	beside_same("''='','6'='6','interf'='p05','nil'='','p05'='p05',"
	    "'p5'='p05','six'='6','zz2'='zz',X'7A7A'=X'7A7A'");
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_projects),
		cmocka_unit_test(test_names_count),
		cmocka_unit_test(test_names_by_id),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_bad_rows),
		cmocka_unit_test(test_checksum),
		cmocka_unit_test(test_reader),
		cmocka_unit_test(test_reader_wide),
		cmocka_unit_test(test_plans),
		cmocka_unit_test(test_checksum_order),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_projects_linear),
		cmocka_unit_test(test_projects_by_plan),
		cmocka_unit_test(test_reader_budget),
		cmocka_unit_test(test_open_beside),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
