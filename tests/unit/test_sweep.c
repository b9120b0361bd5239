/*
 * test_sweep.c: the sweep and the conflict read API the page renderer
 * uses (conflict_list, conflict_get, conflict_disputed/disputed_find),
 * on real store files in a scratch directory.
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

#include "store/store.h"
#include "sweep/conflict.h"
#include "sweep/sweep.h"

#define NOW ((time_t)1700000000)
#define NOW_TS "2023-11-14 22:13:20"

struct fixture {
	char dir[64];
	char path[96];
	mirror_store *st;
};

static const char rows[] =
	"INSERT INTO projects(id, name, aliases) VALUES"
	" ('p05-interferometer', 'P05', '[\"p05\",\"interferometer\"]'),"
	" ('p06', 'P06', '[]');"
	"INSERT INTO project_state(id, project, category, key, value, source)"
	" VALUES ('s1', 'p05', 'decision', 'lateral_support_material',"
	" 'GF-PTFE', 'review 3');"
	"INSERT INTO entities(id, entity_type, name, project, properties)"
	" VALUES ('e1', 'decision', 'Lateral support material',"
	" 'interferometer', '{\"target\":\"lateral support\","
	"\"field\":\"material\",\"value\":\"PEEK\"}');"
	"INSERT INTO memories(id, memory_type, content, project) VALUES"
	" ('m1', 'preference', 'prefers rebase workflow', 'p06'),"
	" ('m2', 'preference', 'prefers merge-commit workflow', 'p06'),"
	" ('m3', 'preference', 'prefers small diffs', 'p06');";

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	mirror_error err;

	strcpy(f->dir, "/tmp/mirror-test-sweep.XXXXXX");
	if (f == NULL || mkdtemp(f->dir) == NULL)
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/s.db", f->dir);
	if (store_create(f->path, &err) < 0 ||
	    store_open(&f->st, f->path, STORE_WRITE, &err) < 0 ||
	    sqlite3_exec(store_db(f->st), rows, NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	/* Reopen so that the alias table sees the projects. */
	store_close(f->st);
	if (store_open(&f->st, f->path, STORE_WRITE, &err) < 0)
		return -1;
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	store_close(f->st);
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

/* 1: before any sweep there is nothing, and nothing is disputed. */
static void
test_empty(void **state)
{
	struct fixture *f = *state;
	struct conflict_list l;
	struct disputed_list d;
	struct conflict c;
	mirror_error err;

	assert_int_equal(conflict_list(&l, f->st, NULL, &err), 0);
	assert_int_equal(l.n, 0);
	conflict_list_free(&l);
	assert_int_equal(conflict_disputed(&d, f->st, &err), 0);
	assert_int_equal(d.n, 0);
	assert_null(disputed_find(&d, LAYER_ENTITY, "e1"));
	disputed_list_free(&d);
	assert_int_equal(conflict_get(&c, f->st, "c123", NULL, &err),
	    -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "no conflict 'c123'"));
	conflict_free(&c);
}

/* 2: the sweep records both conflicts; a second sweep changes nothing. */
static void
test_sweep_counts(void **state)
{
	struct fixture *f = *state;
	struct sweep_run run;
	mirror_error err;

	assert_int_equal(sweep_run(&run, f->st, NOW, &err), 0);
	assert_int_equal(run.facts_scanned, 5);
	assert_int_equal(run.conflicts_opened, 2);
	assert_int_equal(run.open_after, 2);
	assert_string_equal(run.started_at, NOW_TS);
	assert_string_equal(run.rules_version, "mirror-sweep/1");
	assert_string_equal(run.id, "sweep-20231114T221320-1");
	assert_int_equal(sweep_run(&run, f->st, NOW, &err), 0);
	assert_int_equal(run.conflicts_opened, 0);
	assert_int_equal(run.members_added, 0);
	assert_int_equal(run.conflicts_closed, 0);
	assert_int_equal(run.open_after, 2);
	assert_string_equal(run.id, "sweep-20231114T221320-2");
}

/* The first conflict of l of slot kind kind (the test fails when there
 * is none). */
static const struct conflict *
kind_of(const struct conflict_list *l, const char *kind)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->items[i].slot_kind, kind) == 0)
			return &l->items[i];
	fail_msg("no %s conflict", kind);
	return &l->items[0];
}

/* 3: conflict_get: members in trust order with everything the page
 * shows; the question asks about the favoured value. */
static void
test_get(void **state)
{
	struct fixture *f = *state;
	struct conflict_list l;
	struct conflict c;
	struct sweep_run run;
	mirror_error err;
	const struct conflict *x;

	assert_int_equal(sweep_run(&run, f->st, NOW, &err), 0);
	assert_int_equal(conflict_list(&l, f->st, NULL, &err), 0);
	assert_int_equal(l.n, 2);
	x = kind_of(&l, "cross_layer");
	assert_int_equal(conflict_get(&c, f->st, x->id, NULL, &err), 0);
	assert_string_equal(c.slot_key,
	    "[\"p05-interferometer\",\"lateral_support_material\"]");
	assert_string_equal(c.project, "p05-interferometer");
	assert_string_equal(c.status, "open");
	assert_null(c.resolved_at);
	assert_string_equal(c.detected_at, NOW_TS);
	assert_string_equal(c.description,
	    "lateral support material of p05-interferometer");
	assert_string_equal(c.question, "Is the lateral support material of "
	    "p05-interferometer GF-PTFE?");
	assert_int_equal(c.n_members, 2);
	assert_int_equal(c.members[0].layer, LAYER_STATE);
	assert_string_equal(c.members[0].id, "s1");
	assert_int_equal(c.members[0].trust, 3);
	assert_true(c.members[0].favoured);
	assert_null(c.members[0].conflicts_with);
	assert_string_equal(c.members[0].source, "review 3");
	assert_string_equal(c.members[0].label, "lateral_support_material");
	assert_string_equal(c.members[0].layer_type, "decision");
	assert_int_equal(c.members[1].layer, LAYER_ENTITY);
	assert_false(c.members[1].favoured);
	assert_string_equal(c.members[1].conflicts_with, "s1");
	assert_string_equal(c.members[1].value_then, "PEEK");
	assert_string_equal(c.members[1].value_now, "PEEK");
	assert_string_equal(c.members[1].status_now, "active");
	assert_string_equal(c.members[1].label, "Lateral support material");
	assert_int_equal(c.n_earlier, 0);
	conflict_free(&c);
	conflict_list_free(&l);

	/* Value now follows the row; a deleted row has none. */
	run_sql(f, "UPDATE entities SET properties = '{\"target\":\"lateral "
	    "support\",\"field\":\"material\",\"value\":\"PEEK 450G\"}' "
	    "WHERE id = 'e1'; DELETE FROM project_state WHERE id = 's1'");
	assert_int_equal(conflict_list(&l, f->st, NULL, &err), 0);
	x = kind_of(&l, "cross_layer");
	assert_null(x->members[0].value_now);
	assert_null(x->members[0].status_now);
	assert_string_equal(x->members[0].value_then, "GF-PTFE");
	assert_string_equal(x->members[1].value_now, "PEEK 450G");
	conflict_list_free(&l);
}

/* 4: the disputed markers: every member of an open conflict, sorted,
 * found by binary search; closed conflicts mark nothing. */
static void
test_disputed(void **state)
{
	struct fixture *f = *state;
	struct disputed_list d;
	struct sweep_run run;
	mirror_error err;
	const struct disputed *e, *s, *m;

	assert_int_equal(sweep_run(&run, f->st, NOW, &err), 0);
	assert_int_equal(conflict_disputed(&d, f->st, &err), 0);
	assert_int_equal(d.n, 4);
	for (size_t i = 1; i < d.n; i++) {
		int c = strcmp(d.items[i - 1].kind, d.items[i].kind);

		assert_true(c < 0 || (c == 0 &&
		    strcmp(d.items[i - 1].id, d.items[i].id) <= 0));
	}
	e = disputed_find(&d, LAYER_ENTITY, "e1");
	s = disputed_find(&d, LAYER_STATE, "s1");
	m = disputed_find(&d, LAYER_MEMORY, "m2");
	assert_non_null(e);
	assert_non_null(s);
	assert_non_null(m);
	assert_string_equal(e->conflict_id, s->conflict_id);
	assert_string_not_equal(e->conflict_id, m->conflict_id);
	assert_null(disputed_find(&d, LAYER_MEMORY, "m3"));
	assert_null(disputed_find(&d, LAYER_ENTITY, "s1"));
	assert_null(disputed_find(&d, LAYER_MEMORY, "zz"));
	assert_int_equal(conflict_dismiss(f->st, &(struct conflict_resolution){
	    .id = m->conflict_id, .notes = "fine", .actor = "tester",
	    .now = NOW_TS }, &err), 0);
	disputed_list_free(&d);
	assert_int_equal(conflict_disputed(&d, f->st, &err), 0);
	assert_int_equal(d.n, 2);
	assert_null(disputed_find(&d, LAYER_MEMORY, "m2"));
	assert_non_null(disputed_find(&d, LAYER_ENTITY, "e1"));
	disputed_list_free(&d);
}

/* 5: the queue's order and filters; resolve and its errors. */
static void
test_list_and_review(void **state)
{
	struct fixture *f = *state;
	struct conflict_filter flt = { NULL, NULL };
	struct conflict_list l;
	struct conflict c;
	struct sweep_run run;
	mirror_error err;
	char xid[32], mid[32];
	int sup = -1;

	assert_int_equal(sweep_run(&run, f->st, NOW, &err), 0);
	assert_int_equal(conflict_list(&l, f->st, NULL, &err), 0);
	snprintf(xid, sizeof(xid), "%s", strcmp(l.items[0].slot_kind,
	    "cross_layer") == 0 ? l.items[0].id : l.items[1].id);
	snprintf(mid, sizeof(mid), "%s", strcmp(l.items[0].slot_kind,
	    "cross_layer") == 0 ? l.items[1].id : l.items[0].id);
	conflict_list_free(&l);

	/* Errors change nothing. */
	assert_int_equal(conflict_resolve(f->st, &(struct conflict_resolution){
	    .id = "nope", .notes = "n", .actor = "t", .now = NOW_TS }, &sup,
	    &err), -MIRROR_EINPUT);
	assert_int_equal(conflict_resolve(f->st, &(struct conflict_resolution){
	    .id = xid, .notes = "n", .winner = "m1", .actor = "t",
	    .now = NOW_TS }, &sup, &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "not a member"));

	assert_int_equal(conflict_resolve(f->st, &(struct conflict_resolution){
	    .id = xid, .notes = "state wins", .winner = "s1",
	    .actor = "tester", .now = NOW_TS }, &sup, &err), 0);
	assert_int_equal(sup, 1);
	assert_int_equal(conflict_resolve(f->st, &(struct conflict_resolution){
	    .id = xid, .notes = "again", .actor = "t", .now = NOW_TS }, &sup,
	    &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "is resolved, not open"));
	assert_int_equal(conflict_get(&c, f->st, xid, NULL, &err), 0);
	assert_string_equal(c.status, "resolved");
	assert_string_equal(c.resolution, "state wins");
	assert_string_equal(c.resolved_by, "tester");
	assert_string_equal(c.resolved_at, NOW_TS);
	assert_string_equal(c.members[1].status_now, "superseded");
	assert_string_equal(c.members[0].status_now, "active");
	conflict_free(&c);

	/* Open first, then resolved. */
	assert_int_equal(conflict_list(&l, f->st, NULL, &err), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.items[0].id, mid);
	assert_string_equal(l.items[1].id, xid);
	conflict_list_free(&l);
	flt.status = "resolved";
	assert_int_equal(conflict_list(&l, f->st, &flt, &err), 0);
	assert_int_equal(l.n, 1);
	conflict_list_free(&l);
	flt.status = NULL;
	flt.project = "interferometer";      /* an alias */
	assert_int_equal(conflict_list(&l, f->st, &flt, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.items[0].id, xid);
	conflict_list_free(&l);

	/* The resolved slot stays quiet; nothing reopens. */
	assert_int_equal(sweep_run(&run, f->st, NOW, &err), 0);
	assert_int_equal(run.conflicts_opened, 0);
	assert_int_equal(run.open_after, 1);
}

/* a equals b, both NULL or the same text. */
static void
same_text(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

/* 6: a list reads every conflict's members in one query and their rows
 * in another order: each conflict of a list, filtered or not, has the
 * members (and rows now, earlier ids, question) conflict_get reads with
 * a query of its own; a member row of no listed conflict (nor one whose
 * conflict id is a listed one's and a NUL byte more) is not read into
 * another. */
static void
test_list_members_as_get(void **state)
{
	struct fixture *f = *state;
	static const struct conflict_filter filters[] = { { NULL, NULL },
	    { "open", NULL }, { "resolved", NULL }, { NULL, "p06" } };
	static const size_t want_n[] = { 2, 1, 1, 1 }, want_m[] = { 5, 3, 2,
	    3 };
	struct sweep_run run;
	mirror_error err;
	int sup;

	assert_int_equal(sweep_run(&run, f->st, NOW, &err), 0);
	/* A third memory joins the memories' conflict; the state row goes;
	 * a member row names no conflict; the cross-layer one is resolved
	 * (its entity superseded). */
	run_sql(f, "INSERT INTO memories(id, memory_type, content, project) "
	    "VALUES ('m4', 'preference', 'prefers squash workflow', 'p06');");
	assert_int_equal(sweep_run(&run, f->st, NOW, &err), 0);
	assert_int_equal(run.members_added, 1);
	run_sql(f, "PRAGMA foreign_keys = OFF; INSERT INTO conflict_members("
	    "conflict_id, member_kind, "
	    "member_id, member_layer_trust, value_snapshot) VALUES "
	    "('c-none', 'memory', 'm9', 1, 'none');"
	    /* and one whose conflict id is a real one, a NUL, more */
	    "INSERT INTO conflict_members(conflict_id, member_kind, "
	    "member_id, member_layer_trust, value_snapshot) SELECT id || "
	    "CAST(X'0078' AS TEXT), 'memory', 'm9', 1, 'nul' FROM conflicts;");
	{
		struct conflict_list l;

		assert_int_equal(conflict_list(&l, f->st, NULL, &err), 0);
		assert_int_equal(conflict_resolve(f->st,
		    &(struct conflict_resolution){
		    .id = kind_of(&l, "cross_layer")->id,
		    .notes = "state wins", .winner = "s1", .actor = "t",
		    .now = NOW_TS }, &sup, &err), 0);
		conflict_list_free(&l);
	}
	run_sql(f, "DELETE FROM project_state WHERE id = 's1'");
	for (size_t k = 0; k < sizeof(filters) / sizeof(*filters); k++) {
		struct conflict_list l;
		size_t members = 0;

		assert_int_equal(conflict_list(&l, f->st, &filters[k], &err),
		    0);
		assert_int_equal(l.n, want_n[k]);
		for (size_t i = 0; i < l.n; i++) {
			const struct conflict *a = &l.items[i];
			struct conflict b;

			assert_int_equal(conflict_get(&b, f->st, a->id,
			    NULL, &err), 0);
			same_text(a->question, b.question);
			assert_int_equal(a->n_earlier, b.n_earlier);
			assert_int_equal(a->n_members, b.n_members);
			for (size_t j = 0; j < b.n_members; j++) {
				const struct conflict_member *x =
				    &a->members[j], *y = &b.members[j];
				const char *const xs[] = {
				    layer_kind(x->layer), x->id,
				    x->value_then, x->value_now,
				    x->status_now, x->conflicts_with,
				    x->layer_type, x->source, x->created_at,
				    x->updated_at, x->label, x->project,
				    x->slot_words };
				const char *const ys[] = {
				    layer_kind(y->layer), y->id,
				    y->value_then, y->value_now,
				    y->status_now, y->conflicts_with,
				    y->layer_type, y->source, y->created_at,
				    y->updated_at, y->label, y->project,
				    y->slot_words };

				for (size_t c = 0; c < sizeof(xs) /
				    sizeof(*xs); c++)
					same_text(xs[c], ys[c]);
				assert_int_equal(x->trust, y->trust);
				assert_int_equal(x->favoured, y->favoured);
				assert_string_not_equal(x->id, "m9");
			}
			members += b.n_members;
			conflict_free(&b);
		}
		assert_int_equal(members, want_m[k]);
		conflict_list_free(&l);
	}
}

/* x has two members, c1 and c2 in that order, and their values now
 * are a and b. */
static void
brackets_now(const struct conflict *x, const char *a, const char *b)
{
	assert_int_equal(x->n_members, 2);
	assert_string_equal(x->members[0].id, "c1");
	assert_string_equal(x->members[1].id, "c2");
	assert_string_equal(x->members[0].value_now, a);
	assert_string_equal(x->members[1].value_now, b);
}

/* 7: a component's value is the name of the subsystem it is part_of:
 * two brackets of one name, each part of another mount, conflict, and
 * each member's value now follows its parent's row (renamed) and its
 * edge (moved), in the list and in conflict_get alike. */
static void
test_value_of_parent(void **state)
{
	struct fixture *f = *state;
	struct conflict_list l;
	struct sweep_run run;
	struct conflict c;
	mirror_error err;

	run_sql(f, "INSERT INTO entities(id, entity_type, name, project) "
	    "VALUES ('sa', 'subsystem', 'Mount A', 'p06'), ('sb', "
	    "'subsystem', 'Mount B', 'p06'), ('sc', 'subsystem', 'Mount C', "
	    "'p06'); INSERT INTO entities(id, entity_type, name, project, "
	    "properties) VALUES ('c1', 'component', 'Bracket', 'p06', "
	    "'{\"subsystem\":\"mount\"}'), ('c2', 'component', 'Bracket', "
	    "'p06', '{\"subsystem\":\"mount\"}'); INSERT INTO "
	    "relationships(id, source_entity_id, target_entity_id, "
	    "relationship_type) VALUES ('r1', 'c1', 'sa', 'part_of'), "
	    "('r2', 'c2', 'sb', 'part_of'), ('r3', 'sc', 'sa', 'part_of')");
	assert_int_equal(sweep_run(&run, f->st, NOW, &err), 0);
	assert_int_equal(conflict_list(&l, f->st, NULL, &err), 0);
	brackets_now(kind_of(&l, "entity_slot"), "Mount A", "Mount B");
	conflict_list_free(&l);

	run_sql(f, "UPDATE entities SET name = 'Mount A2' WHERE id = 'sa'; "
	    "UPDATE relationships SET target_entity_id = 'sc' WHERE "
	    "id = 'r2'");
	assert_int_equal(conflict_list(&l, f->st, NULL, &err), 0);
	brackets_now(kind_of(&l, "entity_slot"), "Mount A2", "Mount C");
	assert_string_equal(kind_of(&l, "entity_slot")->members[0].value_then,
	    "Mount A");
	assert_int_equal(conflict_get(&c, f->st, kind_of(&l,
	    "entity_slot")->id, NULL, &err), 0);
	brackets_now(&c, "Mount A2", "Mount C");
	conflict_free(&c);
	conflict_list_free(&l);
}

/* One sweep_run's outcome. */
struct swept {
	struct sweep_run run;
	mirror_error err;
	int rc;
};

/* Copy f's store, then sweep it on two cores (*two) and the copy on one
 * (*one). Returns the copy, open (the caller closes it). */
static mirror_store *
sweep_both(struct fixture *f, struct swept *two, struct swept *one)
{
	char path[128], cmd[300];
	mirror_store *copy = NULL;
	mirror_error err;

	store_close(f->st);
	snprintf(path, sizeof(path), "%s/copy.db", f->dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", f->path, path);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(store_open(&f->st, f->path, STORE_WRITE, &err), 0);
	assert_int_equal(store_open(&copy, path, STORE_WRITE, &err), 0);
	setenv("MIRROR_JOBS", "2", 1);
	two->rc = sweep_run(&two->run, f->st, NOW, &two->err);
	setenv("MIRROR_JOBS", "1", 1);
	one->rc = sweep_run(&one->run, copy, NOW, &one->err);
	unsetenv("MIRROR_JOBS");
	return copy;
}

/* Whether a conflict of l has a member of id id. */
static int
in_conflict(const struct conflict_list *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		for (size_t j = 0; j < l->items[i].n_members; j++)
			if (strcmp(l->items[i].members[j].id, id) == 0)
				return 1;
	return 0;
}

/* A full sweep of f's store on two cores (the entities in parallel with the
 * other sources) finds what one core finds in a copy: the same conflicts,
 * members and count; a memory joins a key that only an entity claims, and
 * memories that disagree on a key no state or entity claims make no conflict.
 * */
static void
scan_parallel_same(struct fixture *f)
{
	struct conflict_list l1, l2;
	struct swept two, one;
	mirror_store *copy;
	mirror_error err;

	run_sql(f, "INSERT INTO entities(id, entity_type, name, project, "
	    "properties) VALUES ('e2', 'decision', 'Mount bolt', 'p06', "
	    "'{\"target\":\"mount\",\"field\":\"bolt\",\"value\":"
	    "\"M4\"}');"
	    "INSERT INTO memories(id, memory_type, content, project) VALUES"
	    " ('m4', 'project', 'mount bolt is M6', 'p06'),"
	    " ('m5', 'knowledge', 'spare key is 1', 'p06'),"
	    " ('m6', 'knowledge', 'spare key is 2', 'p06'),"
	    " ('m7', 'adaptation', 'lateral support material is Invar',"
	    " 'p05')");
	copy = sweep_both(f, &two, &one);
	assert_int_equal(two.rc, 0);
	assert_int_equal(one.rc, 0);
	assert_int_equal(two.run.scan_parallel, 1);
	assert_int_equal(one.run.scan_parallel, 0);
	assert_int_equal(two.run.facts_scanned, 10);
	assert_int_equal(one.run.facts_scanned, 10);
	assert_int_equal(two.run.conflicts_opened, one.run.conflicts_opened);
	assert_int_equal(conflict_list(&l1, f->st, NULL, &err), 0);
	assert_int_equal(conflict_list(&l2, copy, NULL, &err), 0);
	assert_int_equal(l1.n, 3);
	assert_int_equal(l2.n, l1.n);
	for (size_t i = 0; i < l1.n; i++) {
		assert_string_equal(l1.items[i].id, l2.items[i].id);
		assert_string_equal(l1.items[i].slot_key, l2.items[i].slot_key);
		assert_int_equal(l1.items[i].n_members, l2.items[i].n_members);
		for (size_t j = 0; j < l1.items[i].n_members; j++) {
			assert_string_equal(l1.items[i].members[j].id,
			    l2.items[i].members[j].id);
			assert_string_equal(l1.items[i].members[j].value_then,
			    l2.items[i].members[j].value_then);
		}
	}
	assert_true(in_conflict(&l1, "m4"));
	assert_true(in_conflict(&l1, "e2"));
	assert_true(in_conflict(&l1, "m7"));
	assert_false(in_conflict(&l1, "m5"));
	assert_false(in_conflict(&l1, "m6"));
	conflict_list_free(&l1);
	conflict_list_free(&l2);
	store_close(copy);
}

/* 8: scan_parallel_same on a store in rollback-journal mode. */
static void
test_scan_parallel(void **state)
{
	scan_parallel_same(*state);
}

/* 10: and in WAL mode, where a second connection could see a newer
 * snapshot but for the sweep's write lock. */
static void
test_scan_parallel_wal(void **state)
{
	struct fixture *f = *state;
	sqlite3_stmt *s;

	assert_int_equal(sqlite3_prepare_v2(store_db(f->st),
	    "PRAGMA journal_mode = WAL", -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(s, 0), "wal");
	sqlite3_finalize(s);
	scan_parallel_same(f);
}

/* Sweep f's store on two cores and a copy of it on one: both fail as
 * bad input, naming what (the same message but for the file's name). */
static void
both_fail_naming(struct fixture *f, const char *what)
{
	struct swept two, one;
	mirror_store *copy = sweep_both(f, &two, &one);

	assert_int_equal(two.rc, -MIRROR_EINPUT);
	assert_int_equal(one.rc, -MIRROR_EINPUT);
	assert_non_null(strstr(two.err.msg, what));
	assert_string_equal(strstr(two.err.msg, ".db: "),
	    strstr(one.err.msg, ".db: "));
	store_close(copy);
}

/* 9: the parallel scans report the failure the scans one after another
 * would: a bad state row before a bad entity, a bad entity before a bad
 * memory, whichever thread read which. */
static void
test_scan_parallel_failure(void **state)
{
	struct fixture *f = *state;

	run_sql(f, "UPDATE project_state SET value = CAST(X'ff' AS TEXT) "
	    "WHERE id = 's1'; UPDATE entities SET name = CAST(X'ff' AS TEXT) "
	    "WHERE id = 'e1'; UPDATE memories SET content = "
	    "CAST(X'ff' AS TEXT) WHERE id = 'm1'");
	both_fail_naming(f, "project_state row 's1'");
	run_sql(f, "UPDATE project_state SET value = 'GF-PTFE' WHERE "
	    "id = 's1'");
	both_fail_naming(f, "entities row 'e1'");
	run_sql(f, "UPDATE entities SET name = 'Lateral support material' "
	    "WHERE id = 'e1'");
	both_fail_naming(f, "memories row 'm1'");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sweep_counts, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_get, setup, teardown),
		cmocka_unit_test_setup_teardown(test_disputed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_and_review, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_list_members_as_get,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_value_of_parent, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_scan_parallel, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_scan_parallel_failure,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_scan_parallel_wal, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
