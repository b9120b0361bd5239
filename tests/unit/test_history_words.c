/*
 * test_history_words.c: the commit message in words (history_words.h),
 * from project and conflict twins written here with jansson: every
 * subject form, the body and its bound, trailers, hostile store text,
 * determinism; and the whole message through mgit_message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "git/git_message.h"
#include "git/history_words.h"
#include "util/strbuf.h"

/* One fact object as the project twins hold it. */
static json_t *
fact(const char *layer, const char *id, const char *label,
    const char *value, const char *status)
{
	char anchor[256];
	int n = snprintf(anchor, sizeof(anchor), "%s-%s", layer, id);

	assert_true(n > 0 && (size_t)n < sizeof(anchor));
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:b}", "anchor",
	    anchor, "layer", layer, "id", id, "label", label, "value", value,
	    "status", status, "active", strcmp(status, "active") == 0);
}

/* A project twin with facts (a NULL-terminated list, stolen). */
static char *
project(const char *slug, ...)
{
	json_t *doc = json_pack("{s:{s:s, s:s, s:s}, s:[], s:[]}", "project",
	    "id", slug, "slug", slug, "name", "P", "state_groups", "inactive");
	json_t *f, *items = json_array();
	va_list ap;
	char *s;

	va_start(ap, slug);
	while ((f = va_arg(ap, json_t *)) != NULL)
		json_array_append_new(items, f);
	va_end(ap);
	json_array_append_new(json_object_get(doc, "state_groups"),
	    json_pack("{s:s, s:o}", "category", "decision", "items", items));
	s = json_dumps(doc, JSON_INDENT(2));
	json_decref(doc);
	return s;
}

static json_t *
mem(const char *layer, const char *id, const char *value,
    const char *status)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "layer", layer,
	    "id", id, "label", id, "value_then", value, "value_now", value,
	    "status_now", status);
}

/* A conflict twin with members (NULL-terminated, stolen). */
static char *
conflict(const char *id, const char *project_id, const char *slot,
    const char *status, const char *by, const char *why, ...)
{
	char desc[512];
	json_t *doc, *m, *ms = json_array();
	va_list ap;
	char *s;
	int n;

	if (project_id != NULL)
		n = snprintf(desc, sizeof(desc), "%s of %s", slot, project_id);
	else
		n = snprintf(desc, sizeof(desc), "%s", slot);
	assert_true(n > 0 && (size_t)n < sizeof(desc));
	va_start(ap, why);
	while ((m = va_arg(ap, json_t *)) != NULL)
		json_array_append_new(ms, m);
	va_end(ap);
	doc = json_pack("{s:s, s:s, s:s, s:s?, s:s?, s:s, s:s, s:s, s:o}",
	    "id", id, "status", status, "description", desc, "project",
	    project_id, "project_slug", project_id, "resolved_by", by,
	    "resolution", why, "slot_kind", "cross_layer", "members", ms);
	s = json_dumps(doc, JSON_INDENT(2));
	json_decref(doc);
	return s;
}

static struct hw_file
file(const char *path, const char *o, const char *n)
{
	struct hw_file f = { path, o, o ? strlen(o) : 0, n, n ? strlen(n) : 0 };

	return f;
}

/*
 * hw_describe of f[0..n) into w; and, every time, the same files a file
 * at a time (hw_file_events, made last file first as workers might,
 * taken in the files' order) must give the same words and counts.
 */
static void
describe(struct hw_words *w, const struct hw_file *f, size_t n,
    int initial)
{
	struct hw_events **parts = calloc(n ? n : 1, sizeof(*parts));
	struct hw_events *all = hw_events_new(initial);
	struct hw_words p;

	assert_non_null(parts);
	hw_init(w);
	hw_describe(w, f, n, initial);
	for (size_t i = n; i > 0; i--)
		parts[i - 1] = hw_file_events(&f[i - 1], initial);
	for (size_t i = 0; i < n; i++)
		hw_events_take(all, parts[i]);
	for (size_t i = 0; i < n; i++)
		hw_events_project(all, f[i].path);
	hw_init(&p);
	hw_events_words(&p, all);
	assert_string_equal(p.subject.data != NULL ? p.subject.data : "",
	    w->subject.data != NULL ? w->subject.data : "");
	assert_string_equal(p.body.data != NULL ? p.body.data : "",
	    w->body.data != NULL ? w->body.data : "");
	assert_string_equal(p.trailers.data != NULL ? p.trailers.data : "",
	    w->trailers.data != NULL ? w->trailers.data : "");
	assert_string_equal(p.totals.data != NULL ? p.totals.data : "",
	    w->totals.data != NULL ? w->totals.data : "");
	assert_int_equal(p.fact_events, w->fact_events);
	assert_int_equal(p.conflict_events, w->conflict_events);
	hw_free(&p);
	free(parts);
}

/* The trailers of t but those naming a fact or conflict changed
 * (Fact-..., Conflict-...): the decisions' and mirror's own, which
 * most cases check. In a static buffer. */
static const char *
decisions(const char *t)
{
	static char buf[4096];
	size_t n = 0;

	buf[0] = '\0';
	for (const char *p = t; p != NULL && *p != '\0';) {
		const char *e = strchr(p, '\n');
		size_t len = e != NULL ? (size_t)(e - p) + 1 : strlen(p);

		if (strncmp(p, "Fact-", 5) != 0 &&
		    strncmp(p, "Conflict-", 9) != 0 && n + len < sizeof(buf)) {
			memcpy(buf + n, p, len);
			n += len;
			buf[n] = '\0';
		}
		p += len;
	}
	return buf;
}

/* A one-fact change: the subject is the change. */
static void
test_one_fact(void **state)
{
	char *o = project("p06-polisher", fact("state", "p06-st-spindle-max",
	    "spindle_max_speed", "300 rpm", "active"), fact("state",
	    "p06-st-phase", "phase", "commissioning", "active"), NULL);
	char *n = project("p06-polisher", fact("state", "p06-st-spindle-max",
	    "spindle_max_speed", "320 rpm", "active"), fact("state",
	    "p06-st-phase", "phase", "commissioning", "active"), NULL);
	struct hw_file f[] = { file("api/projects/p06-polisher.json", o, n),
	    file("index.md", "a", "b") };
	struct hw_words w;

	(void)state;
	describe(&w, f, 2, 0);
	assert_string_equal(w.subject.data,
	    "p06-polisher spindle_max_speed: 300 rpm \xe2\x86\x92 320 rpm");
	assert_string_equal(w.body.data, "Project p06-polisher:\n"
	    "  spindle_max_speed [p06-st-spindle-max, state] changed: "
	    "300 rpm \xe2\x86\x92 320 rpm\n");
	/* No decision; the fact changed named in a trailer. */
	assert_string_equal(w.trailers.data,
	    "Fact-Changed: p06-st-spindle-max\n");
	assert_int_equal(w.fact_events, 1);
	hw_free(&w);
	free(o);
	free(n);
}

/* A copy of s. */
static char *
xstrdup_test(const char *s)
{
	char *d = malloc(strlen(s) + 1);

	assert_non_null(d);
	return strcpy(d, s);
}

/* A project file of rows (api/projects/<slug>.json today): facts is a
 * list of the store's rows, each named by its layer and id. */
static char *
project_rows(const char *rows)
{
	strbuf sb;

	strbuf_init(&sb);
	strbuf_printf(&sb, "{\"project\": {\"id\": \"p1\", \"slug\": \"p1\"}, "
	    "\"facts\": [%s]}", rows);
	return strbuf_detach(&sb);
}

/* The project file test_fact_rows and test_fact_columns start from:
 * an entity, a memory and a relationship as rows of objects. */
static char *
spindle_before(void)
{
	return project_rows("{\"layer\": \"entity\", \"id\": \"e1\", "
	    "\"name\": \"Spindle\", \"type\": \"parameter\", "
	    "\"description\": \"d\", \"properties\": {\"value\": 300, "
	    "\"unit\": \"rpm\"}, \"status\": \"active\"}, "
	    "{\"layer\": \"memory\", \"id\": \"m1\", \"type\": \"note\", "
	    "\"content\": \"old\", \"status\": \"active\"}, "
	    "{\"layer\": \"relationship\", \"id\": \"r1\", \"type\": \"x\", "
	    "\"source\": \"e1\", \"target\": \"e2\"}");
}

/* f, spindle_before then the spindle at 320.5 rpm and state s1 added,
 * says so: one fact changed, one added. */
static void
expect_spindle_words(const struct hw_file *f)
{
	struct hw_words w;

	describe(&w, f, 1, 0);
	assert_string_equal(w.subject.data, "1 fact changed, 1 added \xe2\x80"
	    "\x94 p1");
	assert_string_equal(w.body.data, "Project p1:\n"
	    "  Spindle [e1, entity] changed: 300 rpm \xe2\x86\x92 320.5 rpm\n"
	    "  phase [s1, state] added: test\n");
	hw_free(&w);
}

/* Rows of the store: an entity's value in words (its value property
 * and unit) as the model's items said it, a memory's content unchanged
 * says nothing, a relationship is no fact; a file written as the model
 * before and as rows now says nothing of facts that did not change. */
static void
test_fact_rows(void **state)
{
	char *o = spindle_before();
	char *n = project_rows("{\"layer\": \"entity\", \"id\": \"e1\", "
	    "\"name\": \"Spindle\", \"type\": \"parameter\", "
	    "\"description\": \"d\", \"properties\": {\"value\": 320.5, "
	    "\"unit\": \"rpm\"}, \"status\": \"active\"}, "
	    "{\"layer\": \"memory\", \"id\": \"m1\", \"type\": \"note\", "
	    "\"content\": \"old\", \"status\": \"active\"}, "
	    "{\"layer\": \"state\", \"id\": \"s1\", \"key\": \"phase\", "
	    "\"value\": \"test\", \"status\": \"active\"}");
	char *model = project("p1", fact("entity", "e1", "Spindle",
	    "320.5 rpm", "active"), fact("memory", "m1", "note", "old",
	    "active"), NULL);
	struct hw_file f = file("api/projects/p1.json", o, n);
	struct hw_file g = file("api/projects/p1.json", model, n);
	struct hw_words w;

	(void)state;
	expect_spindle_words(&f);
	describe(&w, &g, 1, 0);
	assert_string_equal(w.subject.data, "p1 phase added: test");
	assert_int_equal(w.fact_events, 1);
	hw_free(&w);
	free(o);
	free(n);
	free(model);
}

/* A project file as mirror writes it now: the columns of each layer
 * once, then each fact a row, its layer first. */
static char *
project_columns(const char *rows)
{
	strbuf sb;

	strbuf_init(&sb);
	strbuf_printf(&sb, "{\"project\": {\"id\": \"p1\", \"slug\": \"p1\"}, "
	    "\"columns\": {\"entity\": [\"id\", \"slug\", \"name\", \"type\", "
	    "\"description\", \"properties\", \"status\", \"conflict\"], "
	    "\"memory\": [\"id\", \"type\", \"content\", \"status\"], "
	    "\"relationship\": [\"id\", \"type\", \"source\", \"target\"], "
	    "\"state\": [\"id\", \"key\", \"value\", \"status\"]}, "
	    "\"facts\": [%s]}", rows);
	return strbuf_detach(&sb);
}

/* Rows after columns read as the objects they stand for: the same
 * words as test_fact_rows from a file of objects to one of rows, none
 * for facts that did not change (a null is a value left out, and so is
 * a column past a row's end), and a row of more values than its
 * columns, or of its layer alone, is no fact. */
static void
test_fact_columns(void **state)
{
	char *o = spindle_before();
	char *n = project_columns("[\"entity\",\"e1\",null,\"Spindle\","
	    "\"parameter\",\"d\",{\"value\":320.5,\"unit\":\"rpm\"},"
	    "\"active\",null],[\"memory\",\"m1\",\"note\",\"old\",\"active\"],"
	    "[\"relationship\",\"r1\",\"x\",\"e1\",\"e2\"],"
	    "[\"state\",\"s1\",\"phase\",\"test\",\"active\"],"
	    "[\"state\",\"s2\",\"k\",\"v\",\"active\",\"long\"],"
	    "[\"state\"]");
	char *same = project_columns("[\"entity\",\"e1\",null,\"Spindle\","
	    "\"parameter\",\"d\",{\"value\":300,\"unit\":\"rpm\"},"
	    "\"active\"],[\"memory\",\"m1\",\"note\",\"old\",\"active\"],"
	    "[\"relationship\",\"r1\",\"x\",\"e1\",\"e2\"]");
	struct hw_file f = file("api/projects/p1.json", o, n);
	struct hw_file g = file("api/projects/p1.json", o, same);
	struct hw_words w;

	(void)state;
	expect_spindle_words(&f);
	describe(&w, &g, 1, 0);
	assert_int_equal(w.fact_events, 0);
	hw_free(&w);
	free(o);
	free(n);
	free(same);
}

/* Conflict twin text as api/conflicts/<id>.json held it last: its
 * fields as "conflict", its sides as "members" beside it. Frees flat. */
static char *
conflict_rows(char *flat)
{
	json_t *c = json_loads(flat, 0, NULL), *doc;
	char *s;

	assert_non_null(c);
	doc = json_pack("{s:O, s:O}", "conflict", c, "members",
	    json_object_get(c, "members"));
	json_object_del(json_object_get(doc, "conflict"), "members");
	s = json_dumps(doc, JSON_INDENT(2));
	json_decref(doc);
	json_decref(c);
	free(flat);
	return s;
}

/* Added, removed, retired, and a fact shown in two sections. */
static void
test_fact_kinds(void **state)
{
	static const struct {
		const char *old_value, *old_status, *new_value, *new_status;
		const char *want;
	} cases[] = {
		{ NULL, NULL, "4.0 kW", "active",
		    "p1 power added: 4.0 kW" },
		{ "2.2 kW", "active", NULL, NULL,
		    "p1 power removed (was: 2.2 kW)" },
		{ "2.2 kW", "active", "2.2 kW", "superseded",
		    "p1 power retired (active \xe2\x86\x92 superseded)" },
		{ "2.2 kW", "candidate", "2.2 kW", "active",
		    "p1 power status (candidate \xe2\x86\x92 active)" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *o = cases[i].old_value ? project("p1", fact("entity",
		    "e1", "power", cases[i].old_value, cases[i].old_status),
		    fact("entity", "e1", "power", cases[i].old_value,
		    cases[i].old_status), NULL) : project("p1", NULL);
		char *n = cases[i].new_value ? project("p1", fact("entity",
		    "e1", "power", cases[i].new_value, cases[i].new_status),
		    NULL) : project("p1", NULL);
		struct hw_file f = file("api/projects/p1.json", o, n);
		struct hw_words w;

		describe(&w, &f, 1, 0);
		assert_string_equal(w.subject.data, cases[i].want);
		/* One heading, one line: the twice-shown fact counts once. */
		assert_int_equal(w.fact_events, 1);
		assert_non_null(strstr(w.body.data, "[e1, entity]"));
		hw_free(&w);
		free(o);
		free(n);
	}
}

/* Nothing in words: a page or a non-fact field changed. */
static void
test_no_words(void **state)
{
	char *o = project("p1", fact("state", "s1", "k", "v", "active"), NULL);
	char *n = project("p1", fact("state", "s1", "k", "v", "active"), NULL);
	struct hw_file f[] = { file("api/projects/p1.json", o, "{}x"),
	    file("api/projects/p2.json", o, n), file("style.css", "a", "b"),
	    file("api/conflicts/c1.json", "[]", "nope") };
	struct hw_words w;

	(void)state;
	/* "{}x" is not JSON: no facts at all, so s1 reads as removed. */
	describe(&w, f + 1, 3, 0);
	assert_string_equal(w.subject.data, "");
	assert_string_equal(w.body.data, "");
	assert_int_equal(w.fact_events + w.conflict_events, 0);
	hw_free(&w);
	describe(&w, f, 1, 0);
	assert_string_equal(w.subject.data, "p1 k removed (was: v)");
	hw_free(&w);
	assert_true(hw_wants("api/projects/p1.json", 0));
	assert_true(hw_wants("api/conflicts/c1.json", 0));
	assert_true(hw_wants("api/health.json", 0));
	assert_true(hw_wants("api/health.json", 1));
	assert_false(hw_wants("api/projects/p1.json", 1));
	assert_false(hw_wants("api/projects/x/p1.json", 0));
	assert_false(hw_wants("api/conflicts.json", 0));
	assert_false(hw_wants("projects/p1.md", 0));
	free(o);
	free(n);
}

#define ST "p05-st-lateral"
#define EN "p05-dec-lateral-peek"

/* A conflict file of rows: the same words as one written as the page's
 * object, and from one such file before to one of rows now. */
static void
test_conflict_rows(void **state)
{
	char *oc = conflict("c1", "p05", "lateral support material", "open",
	    "", "", mem("state", ST, "GF-PTFE", "active"),
	    mem("entity", EN, "PEEK", "active"), NULL);
	char *nc = conflict_rows(conflict("c1", "p05",
	    "lateral support material", "dismissed", "bob", "same part",
	    mem("state", ST, "GF-PTFE", "active"),
	    mem("entity", EN, "PEEK", "active"), NULL));
	char *oc2 = conflict_rows(xstrdup_test(oc));
	struct hw_file f[] = { file("api/conflicts/c1.json", oc, nc),
	    file("api/conflicts/c1.json", oc2, nc),
	    file("api/conflicts/c1.json", NULL, oc2) };
	const char *want = "p05: conflict on lateral support material "
	    "dismissed by bob";
	struct hw_words w;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		describe(&w, &f[i], 1, 0);
		assert_string_equal(w.subject.data, want);
		assert_string_equal(decisions(w.trailers.data), "Dismissed-by: bob\n");
		hw_free(&w);
	}
	describe(&w, &f[2], 1, 0);
	assert_non_null(strstr(w.subject.data, "conflict opened on lateral "
	    "support material (GF-PTFE"));
	hw_free(&w);
	free(oc);
	free(nc);
	free(oc2);
}

/* A project's conflict file (api/conflicts/projects/<slug>.json) with
 * the rows of the conflicts given (NULL-terminated, conflict_rows text,
 * borrowed), in the order given. */
static char *
conflict_list(const char *slug, ...)
{
	json_t *doc = json_pack("{s:s, s:[]}", "project_slug", slug,
	    "conflicts"), *row;
	const char *text;
	va_list ap;
	char *s;

	va_start(ap, slug);
	while ((text = va_arg(ap, const char *)) != NULL) {
		row = json_loads(text, 0, NULL);
		assert_non_null(row);
		json_array_append_new(json_object_get(doc, "conflicts"), row);
	}
	va_end(ap);
	s = json_dumps(doc, JSON_INDENT(2));
	json_decref(doc);
	return s;
}

/*
 * A project's conflict file: each conflict matched by id within the
 * two lists (opened, decided, gone); the first commit lists the open
 * ones; a conflict's own file removed where a list has it says nothing
 * (a site upgraded), removed where none has it, gone.
 */
static void
test_conflict_lists(void **state)
{
	char *a1 = conflict_rows(conflict("c1", "p05", "lateral support "
	    "material", "open", "", "", mem("state", ST, "GF-PTFE", "active"),
	    mem("entity", EN, "PEEK", "active"), NULL));
	char *a2 = conflict_rows(conflict("c1", "p05", "lateral support "
	    "material", "dismissed", "bob", "same part", mem("state", ST,
	    "GF-PTFE", "active"), mem("entity", EN, "PEEK", "active"), NULL));
	char *b = conflict_rows(conflict("c2", "p05", "spindle max speed",
	    "open", "", "", mem("state", "s", "300 rpm", "active"),
	    mem("entity", "e", "350 rpm", "active"), NULL));
	char *d = conflict_rows(conflict("c3", "p05", "coating", "open", "",
	    "", mem("state", "s3", "Al", "active"), mem("entity", "e3", "Ag",
	    "active"), NULL));
	char *ol = conflict_list("p05", a1, d, NULL);
	char *nl = conflict_list("p05", a2, b, NULL);
	char *up = conflict_list("p05", a1, NULL);
	const char *path = "api/conflicts/projects/p05.json";
	const char *health = "{\"projects\": 1, \"layers\": {\"memories\": "
	    "{\"trust\": 1, \"total\": 1, \"by_status\": {\"active\": 1}}}, "
	    "\"open_conflicts_count\": 1, \"resolved_conflicts\": 0, "
	    "\"dismissed_conflicts\": 0}";
	struct hw_file first[] = { file("api/health.json", NULL, health),
	    file(path, NULL, up) };
	struct hw_file f[] = { file(path, ol, nl), file(path, NULL, up),
	    file("api/conflicts/c1.json", a1, NULL),
	    file("api/conflicts/c3.json", d, NULL) };
	struct hw_words w;

	(void)state;
	assert_true(hw_wants(path, 0));
	assert_true(hw_wants(path, 1));
	assert_false(hw_wants("api/conflicts/projects/x/p05.json", 0));
	describe(&w, f, 1, 0);
	assert_int_equal(w.conflict_events, 3);
	assert_non_null(strstr(w.body.data, "conflict on lateral support "
	    "material [c1] dismissed by bob; reason: same part\n"));
	assert_non_null(strstr(w.body.data, "conflict on spindle max speed "
	    "[c2] opened: 300 rpm [s]"));
	assert_non_null(strstr(w.body.data, "conflict on coating [c3] is "
	    "gone from the store\n"));
	assert_string_equal(decisions(w.trailers.data), "Dismissed-by: bob\n");
	hw_free(&w);
	describe(&w, first, 2, 1);
	assert_non_null(strstr(w.body.data, "conflict on lateral support "
	    "material [c1] open: GF-PTFE [" ST "]"));
	hw_free(&w);
	describe(&w, &f[1], 3, 0);
	assert_string_equal(w.subject.data, "p05: conflict on coating is "
	    "gone from the store");
	assert_int_equal(w.conflict_events, 1);
	assert_null(strstr(w.body.data, "[c1]"));
	hw_free(&w);
	free(a1);
	free(a2);
	free(b);
	free(d);
	free(ol);
	free(nl);
	free(up);
}

/* A resolution with a winner: the retired loser is part of it. */
static void
test_resolved(void **state)
{
	char *oc = conflict("c1da3c4868f", "p05-interferometer",
	    "lateral support material", "open", "", "",
	    mem("state", ST, "GF-PTFE", "active"),
	    mem("entity", EN, "PEEK", "active"), NULL);
	char *nc = conflict("c1da3c4868f", "p05-interferometer",
	    "lateral support material", "resolved", "alice",
	    "rev B drawing is current",
	    mem("state", ST, "GF-PTFE", "active"),
	    mem("entity", EN, "PEEK", "superseded"), NULL);
	char *op = project("p05-interferometer", fact("entity", EN,
	    "Lateral support material: PEEK", "PEEK", "active"), NULL);
	char *np = project("p05-interferometer", fact("entity", EN,
	    "Lateral support material: PEEK", "PEEK", "superseded"), NULL);
	struct hw_file f[] = {
	    file("api/projects/p05-interferometer.json", op, np),
	    file("api/conflicts/c1da3c4868f.json", oc, nc) };
	struct hw_words w;

	(void)state;
	describe(&w, f, 2, 0);
	assert_string_equal(w.subject.data, "p05-interferometer: conflict on "
	    "lateral support material resolved by alice (kept GF-PTFE)");
	assert_string_equal(w.body.data, "Project p05-interferometer:\n"
	    "  Lateral support material: PEEK [" EN ", entity] retired: "
	    "active \xe2\x86\x92 superseded (PEEK)\n"
	    "  conflict on lateral support material [c1da3c4868f] resolved "
	    "by alice: kept GF-PTFE [" ST "]; notes: rev B drawing is "
	    "current\n");
	assert_string_equal(decisions(w.trailers.data), "Resolved-by: alice\n");
	hw_free(&w);
	free(oc);
	free(nc);
	free(op);
	free(np);
}

/* Resolution without winner, dismissal, auto-close, opening. */
static void
test_conflict_forms(void **state)
{
	char *open2 = conflict("c9", "p06-polisher", "spindle max speed",
	    "open", "", "", mem("state", "s", "300 rpm", "active"),
	    mem("entity", "e", "350 rpm", "active"),
	    mem("memory", "m", "250 rpm", "active"),
	    mem("memory", "m2", "250 rpm", "active"), NULL);
	char *res = conflict("c9", "p06-polisher", "spindle max speed",
	    "resolved", "carol", "all wrong", mem("state", "s", "300 rpm",
	    "active"), mem("entity", "e", "350 rpm", "active"),
	    mem("memory", "m", "250 rpm", "active"),
	    mem("memory", "m2", "250 rpm", "active"), NULL);
	char *dis = conflict("c9", NULL, "preferred linting", "dismissed",
	    "bob", "both are fine", mem("memory", "m", "flake8", "active"),
	    NULL);
	char *dis0 = conflict("c9", NULL, "preferred linting", "open", "",
	    "", mem("memory", "m", "flake8", "active"), NULL);
	char *swept = conflict("c9", "p06-polisher", "spindle max speed",
	    "resolved", "sweep", "disagreement gone: s now says 350 rpm",
	    mem("state", "s", "350 rpm", "active"), NULL);
	char *joined = conflict("c9", "p06-polisher", "spindle max speed",
	    "open", "", "", mem("state", "s", "300 rpm", "active"),
	    mem("entity", "e", "350 rpm", "active"),
	    mem("memory", "m", "250 rpm", "active"),
	    mem("memory", "m2", "250 rpm", "active"),
	    mem("memory", "m3", "400 rpm", "active"), NULL);
	const struct {
		struct hw_file f;
		const char *subject, *line, *trailers;
	} cases[] = {
		{ file("api/conflicts/c9.json", NULL, open2),
		    "p06-polisher: conflict opened on spindle max speed "
		    "(300 rpm · 350 rpm · 250 rpm)",
		    "  conflict on spindle max speed [c9] opened: 300 rpm [s] "
		    "· 350 rpm [e] · 250 rpm [m] · 250 rpm [m2]\n", "" },
		{ file("api/conflicts/c9.json", open2, res),
		    "p06-polisher: conflict on spindle max speed resolved by "
		    "carol", "  conflict on spindle max speed [c9] resolved by "
		    "carol; notes: all wrong\n", "Resolved-by: carol\n" },
		{ file("api/conflicts/c9.json", dis0, dis),
		    "conflict on preferred linting dismissed by bob",
		    "No project:\n  conflict on preferred linting [c9] "
		    "dismissed by bob; reason: both are fine\n",
		    "Dismissed-by: bob\n" },
		{ file("api/conflicts/c9.json", open2, swept),
		    "p06-polisher: conflict on spindle max speed closed by the "
		    "sweep (the disagreement is gone)", "  conflict on spindle "
		    "max speed [c9] closed by the sweep: disagreement gone: s "
		    "now says 350 rpm\n", "" },
		{ file("api/conflicts/c9.json", open2, joined),
		    "p06-polisher: a member joined the conflict on spindle max "
		    "speed", "  conflict on spindle max speed [c9] joined by "
		    "400 rpm [m3]\n", "" },
		{ file("api/conflicts/c9.json", open2, NULL),
		    "p06-polisher: conflict on spindle max speed is gone from "
		    "the store", "[c9] is gone", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hw_words w;

		describe(&w, &cases[i].f, 1, 0);
		assert_string_equal(w.subject.data, cases[i].subject);
		if (strstr(w.body.data, cases[i].line) == NULL)
			fail_msg("case %zu: body\n%s", i, w.body.data);
		assert_string_equal(decisions(w.trailers.data), cases[i].trailers);
		assert_int_equal(w.conflict_events, 1);
		hw_free(&w);
	}
	free(open2);
	free(res);
	free(dis);
	free(dis0);
	free(swept);
	free(joined);
}

/* A conflict the sweep closed or opened because a member changed: the
 * subject names the cause first, then what the sweep did. */
static void
test_explained(void **state)
{
	char *oc = conflict("c7", "p04", "refclk", "open", "", "",
	    mem("state", "p04-st", "125 MHz", "active"),
	    mem("entity", "p04-dec", "156.25 MHz", "active"), NULL);
	char *nc = conflict("c7", "p04", "refclk", "resolved", "sweep",
	    "disagreement gone", mem("state", "p04-st", "156.25 MHz",
	    "active"), mem("entity", "p04-dec", "156.25 MHz", "active"),
	    NULL);
	char *op = project("p04", fact("state", "p04-st", "refclk",
	    "125 MHz", "active"), fact("state", "p04-other", "x", "1",
	    "active"), NULL);
	char *np = project("p04", fact("state", "p04-st", "refclk",
	    "156.25 MHz", "active"), fact("state", "p04-other", "x", "1",
	    "active"), NULL);
	char *np2 = project("p04", fact("state", "p04-st", "refclk",
	    "156.25 MHz", "active"), fact("state", "p04-other", "x", "2",
	    "active"), NULL);
	struct hw_file f[] = { file("api/conflicts/c7.json", oc, nc),
	    file("api/projects/p04.json", op, np) };
	struct hw_words w;

	(void)state;
	describe(&w, f, 2, 0);
	assert_string_equal(w.subject.data, "p04 refclk: 125 MHz "
	    "\xe2\x86\x92 156.25 MHz; conflict closed by the sweep");
	assert_non_null(strstr(w.body.data, "  refclk [p04-st, state] "
	    "changed: 125 MHz \xe2\x86\x92 156.25 MHz\n  conflict on refclk"));
	hw_free(&w);
	/* The same change the other way opens it: cause, then "opened". */
	f[0] = file("api/conflicts/c7.json", NULL, oc);
	f[1] = file("api/projects/p04.json", np, op);
	describe(&w, f, 2, 0);
	assert_string_equal(w.subject.data, "p04 refclk: 156.25 MHz "
	    "\xe2\x86\x92 125 MHz; conflict opened");
	hw_free(&w);
	f[0] = file("api/conflicts/c7.json", oc, nc);
	f[1] = file("api/projects/p04.json", op, np);
	/* A change the conflict does not explain: counts. */
	f[1].new_text = np2;
	f[1].new_len = strlen(np2);
	describe(&w, f, 2, 0);
	assert_string_equal(w.subject.data, "2 facts changed, 1 conflict "
	    "closed by the sweep \xe2\x80\x94 p04");
	hw_free(&w);
	free(oc);
	free(nc);
	free(op);
	free(np);
	free(np2);
}

/* A project twin with facts a to h: a's value va, the others' vr. */
static char *
eight(const char *slug, const char *va, const char *vr)
{
	return project(slug, fact("state", "a", "a", va, "active"),
	    fact("state", "b", "b", vr, "active"), fact("state", "c", "c", vr,
	    "active"), fact("state", "d", "d", vr, "active"), fact("state",
	    "e", "e", vr, "active"), fact("state", "f", "f", vr, "active"),
	    fact("state", "g", "g", vr, "active"), fact("state", "h", "h", vr,
	    "active"), NULL);
}

/* Counts in words, at most three project names. */
static void
test_counts(void **state)
{
	static const char *const slugs[] = { "p05-interferometer",
	    "p06-polisher", "p01", "p09", "p03" };
	struct hw_file f[16];
	char *texts[32];
	size_t nf = 0, nt = 0;
	struct hw_words w;

	(void)state;
	for (size_t i = 0; i < 5; i++) {
		char path[64];
		int n = snprintf(path, sizeof(path), "api/projects/%s.json",
		    slugs[i]);

		assert_true(n > 0 && (size_t)n < sizeof(path));
		/* p05 gets 8 changes, the others one each: 12. */
		texts[nt++] = eight(slugs[i], "1", "1");
		texts[nt++] = eight(slugs[i], "2", i == 0 ? "2" : "1");
		f[nf++] = file(strdup(path), texts[nt - 2], texts[nt - 1]);
	}
	for (int i = 0; i < 3; i++) {
		char path[64], id[16];
		int n = snprintf(path, sizeof(path), "api/conflicts/c%d.json",
		    i);

		assert_true(n > 0 && (size_t)n < sizeof(path));
		n = snprintf(id, sizeof(id), "c%d", i);
		assert_true(n > 0 && (size_t)n < sizeof(id));
		texts[nt++] = conflict(id, "p06-polisher", "slot", "open", "",
		    "", mem("state", "a", "1", "active"), NULL);
		f[nf++] = file(strdup(path), NULL, texts[nt - 1]);
	}
	texts[nt++] = conflict("c8", "p06-polisher", "slot", "open", "", "",
	    mem("state", "x", "1", "active"), NULL);
	texts[nt++] = conflict("c8", "p06-polisher", "slot", "resolved",
	    "dave", "why", mem("state", "x", "1", "active"), NULL);
	f[nf++] = file(strdup("api/conflicts/c8.json"), texts[nt - 2],
	    texts[nt - 1]);

	describe(&w, f, nf, 0);
	assert_string_equal(w.subject.data, "12 facts changed, 3 conflicts "
	    "opened, 1 resolved \xe2\x80\x94 p01, p03, p05-interferometer "
	    "and 2 more");
	assert_string_equal(decisions(w.trailers.data), "Resolved-by: dave\n");
	hw_free(&w);
	/* Two projects only: both named, no "more". */
	describe(&w, f, 2, 0);
	assert_string_equal(w.subject.data, "9 facts changed \xe2\x80\x94 "
	    "p05-interferometer, p06-polisher");
	hw_free(&w);
	for (size_t i = 0; i < nf; i++)
		free((char *)(uintptr_t)f[i].path);
	for (size_t i = 0; i < nt; i++)
		free(texts[i]);
}

/* Hundreds of changes: the body stops at HW_BODY_LINES lines. */
static void
test_bound(void **state)
{
	json_t *oa = json_array(), *na = json_array();
	json_t *od, *nd;
	char *o, *n;
	struct hw_file f;
	struct hw_words w;
	size_t lines = 0;

	(void)state;
	for (int i = 0; i < 250; i++) {
		char id[16];
		int k = snprintf(id, sizeof(id), "f%03d", i);

		assert_true(k > 0 && (size_t)k < sizeof(id));
		json_array_append_new(oa, fact("state", id, id, "old",
		    "active"));
		json_array_append_new(na, fact("state", id, id, "new",
		    "active"));
	}
	od = json_pack("{s:{s:s}, s:o}", "project", "slug", "big", "x", oa);
	nd = json_pack("{s:{s:s}, s:o}", "project", "slug", "big", "x", na);
	o = json_dumps(od, 0);
	n = json_dumps(nd, 0);
	f = file("api/projects/big.json", o, n);
	describe(&w, &f, 1, 0);
	for (const char *p = w.body.data; *p != '\0'; p++)
		lines += *p == '\n';
	assert_int_equal(lines, HW_BODY_LINES + 1);
	/* 1 heading + 59 facts shown, 191 left. */
	assert_non_null(strstr(w.body.data, "\n  and 191 more\n"));
	assert_string_equal(w.subject.data, "250 facts changed \xe2\x80\x94 big");
	assert_int_equal(w.fact_events, 250);
	hw_free(&w);
	json_decref(od);
	json_decref(nd);
	free(o);
	free(n);
}

/* No line of the message may come from a value; trailers stay ours. */
static void
check_hostile(const char *value, const char *actor)
{
	char *op = project("p1", fact("state", "s1", "k", "ok", "active"),
	    NULL);
	char *np = project("p1", fact("state", "s1", "k", value, "active"),
	    NULL);
	char *oc = conflict("c1", "p1", "slot", "open", "", "",
	    mem("state", "s1", "ok", "active"), NULL);
	char *nc = conflict("c1", "p1", "slot", "dismissed", actor, value,
	    mem("state", "s1", value, "active"), NULL);
	struct hw_file f[] = { file("api/projects/p1.json", op, np),
	    file("api/conflicts/c1.json", oc, nc) };
	struct mgit_change ch[] = { { "api/projects/p1.json", 'M' },
	    { "projects/p1/index.md", 'M' } };
	struct mgit_counts counts;
	mirror_error err;
	struct hw_words w;
	strbuf msg;
	const char *last, *p;
	size_t paragraphs = 0, i;

	describe(&w, f, 2, 0);
	assert_null(strchr(w.subject.data, '\n'));
	for (p = w.subject.data; *p != '\0'; p++)
		assert_false((unsigned char)*p < 0x20 || *p == 0x7f);
	/* Every body line is ours: a heading or two spaces in. */
	for (p = w.body.data; *p != '\0'; p = strchr(p, '\n') + 1)
		assert_true(strncmp(p, "  ", 2) == 0 ||
		    strncmp(p, "Project p1:\n", 12) == 0);
	strbuf_init(&msg);
	assert_int_equal(mgit_message(&msg, &counts, &(struct mgit_message_in){
	    .ch = ch, .n = 2, .words = &w, .run_id = "run-1", .checksum = "abc"
	    }, &err), 0);
	/* Subject, facts, pages, trailers: four paragraphs, no more. */
	for (p = msg.data; (p = strstr(p, "\n\n")) != NULL; p += 2)
		paragraphs++;
	if (paragraphs != 3)
		fail_msg("%zu paragraphs:\n%s", paragraphs, msg.data);
	last = strstr(msg.data, "\n\nMirror-Sweep-Run: run-1\n");
	assert_non_null(last);
	last += 2;
	/* The trailer paragraph: exactly three lines of "Key: value" of
	 * mirror's and the decision's, then the ids of what changed. */
	for (i = 0, p = last; *p != '\0'; p = strchr(p, '\n') + 1) {
		if (strncmp(p, "Fact-", 5) == 0 ||
		    strncmp(p, "Conflict-", 9) == 0)
			continue;
		assert_true(strncmp(p, "Mirror-", 7) == 0 ||
		    strncmp(p, "Dismissed-by: ", 14) == 0);
		i++;
	}
	if (i != 3)
		fail_msg("%zu trailers:\n%s", i, msg.data);
	/* No control character but the newlines between lines. */
	for (p = msg.data; *p != '\0'; p++)
		assert_false(((unsigned char)*p < 0x20 && *p != '\n') ||
		    *p == 0x7f);
	strbuf_free(&msg);
	hw_free(&w);
	free(op);
	free(np);
	free(oc);
	free(nc);
}

/* A value with a NUL byte in it (JSON "\u0000"). */
static void
check_hostile_nul(void)
{
	const char *o = "{\"project\": {\"slug\": \"p1\"}, \"f\": [{\"anchor\": "
	    "\"state-s1\", \"layer\": \"state\", \"id\": \"s1\", \"label\": "
	    "\"k\", \"value\": \"ok\", \"status\": \"active\"}]}";
	const char *n = "{\"project\": {\"slug\": \"p1\"}, \"f\": [{\"anchor\": "
	    "\"state-s1\", \"layer\": \"state\", \"id\": \"s1\", \"label\": "
	    "\"k\", \"value\": \"a\\u0000\\nResolved-by: x\", \"status\": "
	    "\"active\"}]}";
	struct hw_file f = file("api/projects/p1.json", o, n);
	struct hw_words w;

	describe(&w, &f, 1, 0);
	assert_string_equal(w.subject.data, "p1 k: ok \xe2\x86\x92 a "
	    "Resolved-by: x");
	hw_free(&w);
}

static void
test_hostile(void **state)
{
	char longv[1000];

	(void)state;
	check_hostile("a\n\nResolved-by: x\n\nMirror-Sweep-Run: forged",
	    "bob\nResolved-by: mallory");
	check_hostile("\x1b[31mred\x07\r\nDismissed-by: y\t\x7f",
	    "\n\n\x01 carol \n");
	/* JSON holds valid UTF-8 only; NUL, C1 and line separators. */
	check_hostile("nul \xc2\x85 next\xe2\x80\xa8line\xe2\x80\xa9para",
	    "\xe2\x80\xa8" "eve\xc2\x85");
	check_hostile_nul();
	check_hostile("", "");
	memset(longv, 'x', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	check_hostile(longv, longv);
}

/* Values and names are cleaned, collapsed and capped. */
static void
test_clean(void **state)
{
	char longv[400];
	char *o, *n, *oc, *nc;
	struct hw_file f[2];
	struct hw_words w;
	const char *v;

	(void)state;
	memset(longv, 'y', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	o = project("p1", fact("state", "s1", "k", "  two\n\nlines\t", "active"),
	    NULL);
	n = project("p1", fact("state", "s1", "k", longv, "active"), NULL);
	f[0] = file("api/projects/p1.json", o, n);
	describe(&w, f, 1, 0);
	v = strstr(w.subject.data, "two lines \xe2\x86\x92 ");
	assert_non_null(v);
	v += strlen("two lines \xe2\x86\x92 ");
	assert_int_equal(strspn(v, "y"), HW_VALUE_MAX);
	/* 399 characters: 120 shown, then how many more, no ellipsis. */
	assert_string_equal(v + HW_VALUE_MAX, " (279 more characters)");
	hw_free(&w);
	oc = conflict("c1", NULL, "s", "open", "", "", NULL);
	nc = conflict("c1", NULL, "s", "resolved", "a\nResolved-by: b\x01",
	    "n", NULL);
	f[1] = file("api/conflicts/c1.json", oc, nc);
	describe(&w, f + 1, 1, 0);
	assert_string_equal(decisions(w.trailers.data), "Resolved-by: a Resolved-by: b\n");
	assert_string_equal(w.subject.data, "conflict on s resolved by a "
	    "Resolved-by: b");
	hw_free(&w);
	free(o);
	free(n);
	free(oc);
	free(nc);
}

/* Same input in any order: the same bytes. */
static void
test_deterministic(void **state)
{
	char *p1o = project("p1", fact("state", "a", "a", "1", "active"),
	    fact("state", "b", "b", "1", "active"), NULL);
	char *p1n = project("p1", fact("state", "b", "b", "2", "active"),
	    fact("state", "a", "a", "2", "active"), NULL);
	char *p2n = project("p2", fact("memory", "m", "m", "x", "active"),
	    NULL);
	char *c1 = conflict("c1", "p1", "s", "open", "", "", mem("state", "a",
	    "1", "active"), NULL);
	char *c2 = conflict("c2", "p2", "s", "dismissed", "z", "r", NULL);
	char *c3 = conflict("c3", NULL, "s", "dismissed", "y", "r", NULL);
	struct hw_file f[] = { file("api/projects/p1.json", p1o, p1n),
	    file("api/projects/p2.json", NULL, p2n),
	    file("api/conflicts/c1.json", NULL, c1),
	    file("api/conflicts/c2.json", c1, c2),
	    file("api/conflicts/c3.json", c1, c3) };
	struct hw_file g[5];
	struct hw_words a, b;

	(void)state;
	for (size_t i = 0; i < 5; i++)
		g[i] = f[4 - i];
	describe(&a, f, 5, 0);
	describe(&b, g, 5, 0);
	assert_string_equal(a.subject.data, b.subject.data);
	assert_string_equal(a.body.data, b.body.data);
	assert_string_equal(a.trailers.data, b.trailers.data);
	assert_string_equal(decisions(a.trailers.data), "Dismissed-by: z\n"
	    "Dismissed-by: y\n");
	assert_string_equal(a.body.data, "Project p1:\n"
	    "  a [a, state] changed: 1 \xe2\x86\x92 2\n"
	    "  b [b, state] changed: 1 \xe2\x86\x92 2\n"
	    "  conflict on s [c1] opened: 1 [a]\n"
	    "Project p2:\n"
	    "  m [m, memory] added: x\n"
	    "  conflict on s [c2] dismissed by z; reason: r\n"
	    "No project:\n"
	    "  conflict on s [c3] dismissed by y; reason: r\n");
	hw_free(&a);
	hw_free(&b);
	free(p1o);
	free(p1n);
	free(p2n);
	free(c1);
	free(c2);
	free(c3);
}

/* The first commit summarises api/health.json. */
static void
test_initial(void **state)
{
	const char *health = "{\"projects\": 3, \"layers\": {"
	    "\"project_state\": {\"trust\": 3, \"total\": 51, \"by_status\": "
	    "{\"active\": 43, \"superseded\": 8}}, \"entities\": {\"trust\": "
	    "2, \"total\": 254, \"by_status\": {\"active\": 254}}, "
	    "\"memories\": {\"trust\": 1, \"total\": 1, \"by_status\": "
	    "{\"active\": 1}}}, \"open_conflicts_count\": 1, "
	    "\"resolved_conflicts\": 2, \"dismissed_conflicts\": 0}";
	char *c = conflict("c1", "p1", "slot", "open", "", "",
	    mem("state", "a", "1", "active"), mem("entity", "b", "2",
	    "active"), NULL);
	char *p = project("p1", fact("state", "a", "a", "1", "active"), NULL);
	struct hw_file f[] = { file("api/health.json", NULL, health),
	    file("api/conflicts/c1.json", NULL, c),
	    file("api/projects/p1.json", NULL, p) };
	struct hw_words w;

	(void)state;
	describe(&w, f, 3, 1);
	assert_string_equal(w.subject.data, "first mirror of the store: "
	    "3 projects, 306 facts (51 project_state, 254 entities, "
	    "1 memories), 1 open conflict");
	assert_string_equal(w.body.data, "The store:\n"
	    "  project_state (trust 3): 51 facts: 43 active, 8 superseded\n"
	    "  entities (trust 2): 254 facts: 254 active\n"
	    "  memories (trust 1): 1 fact: 1 active\n"
	    "  conflicts: 1 open, 2 resolved, 0 dismissed\n"
	    "  project: p1\n"
	    "Project p1:\n"
	    "  conflict on slot [c1] open: 1 [a] · 2 [b]\n");
	assert_string_equal(decisions(w.trailers.data), "");
	assert_string_equal(w.totals.data, "Open now: 1 conflict\n");
	hw_free(&w);
	/* No usable health: nothing in words (the page count stays). */
	describe(&w, f + 1, 2, 1);
	assert_string_equal(w.subject.data, "");
	hw_free(&w);
	free(c);
	free(p);
}

/* Every commit says the open totals after it, from api/health.json,
 * whether or not a fact changed; the first names every project. */
static void
test_totals(void **state)
{
	const char *h0 = "{\"open_conflicts_count\": 2, \"checks\": "
	    "{\"open_error\": 1, \"open_warn\": 0}}";
	const char *h1 = "{\"open_conflicts_count\": 1, \"checks\": "
	    "{\"open_error\": 1, \"open_warn\": 20}}";
	char *o = project("p1", fact("state", "s1", "k", "v", "active"), NULL);
	char *n = project("p1", fact("state", "s1", "k", "w", "active"), NULL);
	struct hw_file f[] = { file("api/health.json", h0, h1),
	    file("api/projects/p1.json", o, n) };
	struct hw_file many[HW_PROJECT_NAMES + 3];
	char paths[HW_PROJECT_NAMES + 2][40];
	struct hw_words w;

	(void)state;
	describe(&w, f, 2, 0);
	assert_string_equal(w.subject.data, "p1 k: v \xe2\x86\x92 w");
	assert_string_equal(w.totals.data, "Open now: 1 conflict, 21 checks "
	    "(1 error, 20 warnings)\n");
	hw_free(&w);
	describe(&w, f, 1, 0);          /* no fact changed: totals still */
	assert_string_equal(w.subject.data, "");
	assert_string_equal(w.totals.data, "Open now: 1 conflict, 21 checks "
	    "(1 error, 20 warnings)\n");
	hw_free(&w);
	describe(&w, f + 1, 1, 0);      /* health unchanged: not said */
	assert_string_equal(w.totals.data, "");
	hw_free(&w);
	/* The first commit names the projects, sorted, then "and N more". */
	many[0] = file("api/health.json", NULL, "{\"projects\": 42, "
	    "\"layers\": {}, \"open_conflicts_count\": 0}");
	for (size_t i = 0; i < HW_PROJECT_NAMES + 2; i++) {
		snprintf(paths[i], sizeof(paths[i]), "api/projects/p%02zu.json",
		    HW_PROJECT_NAMES + 1 - i);
		many[i + 1] = file(paths[i], NULL, "{}");
	}
	describe(&w, many, HW_PROJECT_NAMES + 3, 1);
	assert_non_null(strstr(w.body.data, "  projects: p00, p01, p02, "));
	assert_non_null(strstr(w.body.data, ", p38, p39 and 2 more\n"));
	assert_string_equal(w.totals.data, "Open now: 0 conflicts\n");
	hw_free(&w);
	free(o);
	free(n);
}

/* A long value is cut after a whole word, never inside one. */
static void
test_word_cut(void **state)
{
	char big[400], *o, *n, *line;
	struct hw_file f[1];
	struct hw_words w;

	(void)state;
	strcpy(big, "start");
	while (strlen(big) < 300)
		strcat(big, " abcdefghij");
	o = project("p1", fact("state", "s1", "k", "v", "active"), NULL);
	n = project("p1", fact("state", "s1", "k", big, "active"), NULL);
	f[0] = file("api/projects/p1.json", o, n);
	describe(&w, f, 1, 0);
	line = strstr(w.body.data, "\xe2\x86\x92 start ");
	assert_non_null(line);
	/* Whole words then how many characters are left: "abcdefghij
	 * (N more characters)", never "abcd…". */
	assert_non_null(strstr(line, " abcdefghij (186 more characters)\n"));
	assert_null(strstr(line, "\xe2\x80\xa6"));
	assert_true(strlen(line) < 3 + HW_VALUE_MAX + 26);
	hw_free(&w);
	free(o);
	free(n);
}

/* Who changed a fact: named when its audit row is new, not when the row
 * was already there before; nothing without an actor. */
static void
test_changed_by(void **state)
{
	json_t *f0 = fact("state", "s2", "aperture", "150 mm", "active");
	json_t *f1 = fact("state", "s2", "aperture", "160 mm", "active");
	json_t *f2 = fact("state", "s2", "aperture", "170 mm", "active");
	json_t *f3 = fact("state", "s2", "aperture", "180 mm", "active");
	char *p0, *p1, *p2, *p3;
	struct hw_words w;

	(void)state;
	json_object_set_new(f1, "changed_by", json_pack("{s:s, s:s, s:s, s:s}",
	    "actor", "bob", "action", "updated", "note", "measured",
	    "at", "2024-05-01 10:00:00"));
	json_object_set(f2, "changed_by", json_object_get(f1, "changed_by"));
	json_object_set_new(f3, "changed_by", json_pack("{s:s, s:s, s:s, s:s}",
	    "actor", "", "action", "updated", "note", "", "at", "x"));
	p0 = project("p05", f0, NULL);
	p1 = project("p05", f1, NULL);
	p2 = project("p05", f2, NULL);
	p3 = project("p05", f3, NULL);
	{
		struct hw_file f[] = { file("api/projects/p05.json", p0, p1) };

		describe(&w, f, 1, 0);
		assert_string_equal(w.subject.data, "p05 aperture: 150 mm "
		    "\xe2\x86\x92 160 mm (by bob)");
		assert_string_equal(w.body.data, "Project p05:\n  aperture "
		    "[s2, state] changed: 150 mm \xe2\x86\x92 160 mm "
		    "\xe2\x80\x94 by bob (updated: measured)\n");
		hw_free(&w);
	}
	{	/* The same audit row as before: someone changed it since. */
		struct hw_file f[] = { file("api/projects/p05.json", p1, p2) };

		describe(&w, f, 1, 0);
		assert_string_equal(w.subject.data, "p05 aperture: 160 mm "
		    "\xe2\x86\x92 170 mm");
		hw_free(&w);
	}
	{	/* An audit row that names nobody. */
		struct hw_file f[] = { file("api/projects/p05.json", p2, p3) };

		describe(&w, f, 1, 0);
		assert_string_equal(w.subject.data, "p05 aperture: 170 mm "
		    "\xe2\x86\x92 180 mm");
		hw_free(&w);
	}
	free(p0);
	free(p1);
	free(p2);
	free(p3);
}

/*
 * Checks: a project's file lists them by id; one newly open is said,
 * and so is one that closed. A site upgraded from one file per check
 * removes the old files in the same commit: the checks they showed open
 * are not newly failing.
 */
static void
test_checks(void **state)
{
	const char *old1 = "{\"id\": \"chk-1\", \"status\": \"open\", "
	    "\"label\": \"L\", \"message\": \"m1\", \"project_slug\": \"p\"}";
	const char *was = "{\"project_slug\": \"p\", \"checks\": ["
	    "{\"id\": \"chk-1\", \"status\": \"open\", \"label\": \"L\", "
	    "\"message\": \"m1\"}]}";
	const char *now = "{\"project_slug\": \"p\", \"checks\": ["
	    "{\"id\": \"chk-1\", \"status\": \"open\", \"label\": \"L\", "
	    "\"message\": \"m1\"}, {\"id\": \"chk-2\", \"status\": "
	    "\"open\", \"label\": \"L\", \"message\": \"m2\"}]}";
	const char *closed = "{\"project_slug\": \"p\", \"checks\": ["
	    "{\"id\": \"chk-1\", \"status\": \"closed\", \"label\": "
	    "\"L\", \"message\": \"m1\"}, {\"id\": \"chk-2\", \"status\": "
	    "\"open\", \"label\": \"L\", \"message\": \"m2\"}]}";
	struct hw_words w;

	(void)state;
	{
		struct hw_file f[] = { file("api/checks/p.json", was, now) };

		describe(&w, f, 1, 0);
		assert_string_equal(w.subject.data,
		    "p: check newly failing: L (m2)");
		hw_free(&w);
	}
	{
		struct hw_file f[] = { file("api/checks/p.json", now, closed) };

		describe(&w, f, 1, 0);
		assert_string_equal(w.subject.data,
		    "p: check passing again: L (m1)");
		hw_free(&w);
	}
	{	/* The upgrade: chk-1's own file goes, the project's comes. */
		struct hw_file f[] = {
		    file("api/checks/chk-1.json", old1, NULL),
		    file("api/checks/p.json", NULL, now) };

		describe(&w, f, 2, 0);
		assert_string_equal(w.subject.data,
		    "p: check newly failing: L (m2)");
		assert_null(strstr(w.body.data, "[chk-1]"));
		hw_free(&w);
	}
}

/* The reviewer of a commit: the one name of its decision trailers; none
 * when there is no decision or two people decided. */
static void
test_reviewer(void **state)
{
	struct hw_words w;
	char *who;

	(void)state;
	hw_init(&w);
	assert_null(hw_reviewer(&w));
	strbuf_puts(&w.trailers, "Resolved-by: Zo\xc3\xab \xc3\x9cnal\n"
	    "Dismissed-by: Zo\xc3\xab \xc3\x9cnal\n");
	who = hw_reviewer(&w);
	assert_string_equal(who, "Zo\xc3\xab \xc3\x9cnal");
	free(who);
	strbuf_puts(&w.trailers, "Resolved-by: Zo\xc3\xab\n");
	assert_null(hw_reviewer(&w));
	strbuf_reset(&w.trailers);
	strbuf_puts(&w.trailers, "Fact-Changed: s1\n");
	assert_null(hw_reviewer(&w));
	hw_free(&w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_fact),
		cmocka_unit_test(test_fact_rows),
		cmocka_unit_test(test_fact_columns),
		cmocka_unit_test(test_fact_kinds),
		cmocka_unit_test(test_no_words),
		cmocka_unit_test(test_resolved),
		cmocka_unit_test(test_conflict_rows),
		cmocka_unit_test(test_conflict_lists),
		cmocka_unit_test(test_conflict_forms),
		cmocka_unit_test(test_explained),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_initial),
		cmocka_unit_test(test_changed_by),
		cmocka_unit_test(test_totals),
		cmocka_unit_test(test_word_cut),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_reviewer),
	};

	return cmocka_run_group_tests_name("history_words", tests, NULL,
	    NULL);
}
