/*
 * rules_run.c: running every rule inside the sweep's transaction (see
 * rules.h and doc/rules.md).
 *
 * Each rule is prepared and stepped under the guard (rules_guard.c),
 * with its own budget of SQLite time (store_budget_set) and a cap on its
 * rows; its rows are checked for their shape as they come, and only
 * when the whole result is good are its violations recorded
 * (rules_record.c). Whatever goes wrong with one rule is that rule's
 * failure, told once and recorded in its rule_runs row; only a failure
 * of the store itself (I/O, a lock, corruption, the transaction gone)
 * ends the run.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "rules/rules_int.h"
#include "sys/clock.h"
#include "sys/env.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"

/* The layers a fact of a violation may be in. */
static const char *const layers[] = { "project_state", "entity", "memory",
    "relationship" };

/* One run of rules_run. */
struct run_ctx {
	mirror_store *st;
	sqlite3 *db;
	const struct rule_set *rs;
	const char *now;
	struct rule_rec rec;
	struct rule_guard guard;
	long long budget_ms;
	sqlite3_stmt *alias;         /* canonical project of a name */
	char **ran;                  /* ids with a rule_runs row */
	size_t nran, capran;
	int unnamed;                 /* a rule with no readable id failed */
	struct rule_set store_rules; /* rows of mirror_rules */
};

/* One rule's result while it is read. */
struct result {
	struct rule_hit *v;
	size_t n, cap;
	long long rows;
};

/* Free res's hits; res is empty again. */
static void
result_free(struct result *res)
{
	for (size_t i = 0; i < res->n; i++) {
		free(res->v[i].facts);
		free(res->v[i].project);
		free(res->v[i].message);
	}
	free(res->v);
	memset(res, 0, sizeof(*res));
}

/* 1 when rc is the store failing rather than the rule; else 0. */
static int
store_broke(sqlite3 *db, int rc)
{
	int prim = rc & 0xff;

	return prim == SQLITE_IOERR || prim == SQLITE_FULL ||
	    prim == SQLITE_BUSY || prim == SQLITE_LOCKED ||
	    prim == SQLITE_CORRUPT || prim == SQLITE_NOTADB ||
	    sqlite3_get_autocommit(db);
}

/* The line of the rule's file at byte off of its query. */
static int
line_at(const struct rule *r, int off)
{
	int line = r->sql_line;

	for (int i = 0; i < off && r->query[i] != '\0'; i++)
		if (r->query[i] == '\n')
			line++;
	return line;
}

/* 1 when s holds nothing but blanks and SQL comments; else 0. */
static int
only_comments(const char *s)
{
	while (*s != '\0') {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' ||
		    *s == '\f' || *s == ';')
			s++;
		else if (s[0] == '-' && s[1] == '-')
			s += strcspn(s, "\n");
		else if (s[0] == '/' && s[1] == '*') {
			const char *e = strstr(s + 2, "*/");

			s = e != NULL ? e + 2 : s + strlen(s);
		} else
			return 0;
	}
	return 1;
}

/* The rule's error at its query's byte off (< 0: none) into why;
 * returns 1, a rule's failure. */
static int
why_at(strbuf *why, const struct rule *r, int off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
why_at(strbuf *why, const struct rule *r, int off, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		msg[0] = '\0';
	if (r->sql_line > 0 && off >= 0)
		strbuf_printf(why, "line %d: ", line_at(r, off));
	strbuf_puts(why, msg);
	return 1;
}

/* Value of parameter name of r: override, default, or NULL. */
static const char *
param_value(const struct run_ctx *c, const struct rule *r, const char *name)
{
	for (size_t i = c->rs->nover; i-- > 0;)
		if (strcmp(c->rs->over[i].rule, r->id) == 0 &&
		    strcmp(c->rs->over[i].name, name) == 0)
			return c->rs->over[i].value;
	for (size_t i = 0; i < r->nparams; i++)
		if (strcmp(r->params[i].name, name) == 0)
			return r->params[i].value;
	return NULL;
}

/* Bind v as an integer when it is one, else as text. */
static void
bind_value(sqlite3_stmt *s, int i, const char *v)
{
	char *end;
	long long n;

	n = strtoll(v, &end, 10);
	if (*v != '\0' && *end == '\0' && (v[0] == '-' ||
	    (v[0] >= '0' && v[0] <= '9')))
		sqlite3_bind_int64(s, i, n);
	else
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
}

/* Bind :now and every parameter of r. Returns 0, or 1 with why set. */
static int
bind_params(struct run_ctx *c, const struct rule *r, sqlite3_stmt *s,
    strbuf *why)
{
	int n = sqlite3_bind_parameter_count(s);

	for (int i = 1; i <= n; i++) {
		const char *name = sqlite3_bind_parameter_name(s, i), *v;

		if (name == NULL || name[0] == '?')
			return why_at(why, r, -1, "a positional parameter %s "
			    "(name it :NAME and give it with '-- param:')",
			    name != NULL ? name : "?");
		if (strcmp(name + 1, "now") == 0) {
			sqlite3_bind_text(s, i, c->now, -1, SQLITE_STATIC);
			continue;
		}
		if ((v = param_value(c, r, name + 1)) == NULL)
			return why_at(why, r, -1, "parameter %s has no value "
			    "(no '-- param:' line and no param.RULE.NAME in "
			    "mirror.ini)", name);
		bind_value(s, i, v);
	}
	return 0;
}

/*
 * Prepare r's query under the guard into *s, and check it is one
 * read-only SELECT with columns project, facts, message (their indexes
 * into cols). Returns 0, 1 with why set, or < 0 with err set.
 */
static int
prepare_rule(struct run_ctx *c, const struct rule *r, sqlite3_stmt **s,
    int cols[3], strbuf *why, mirror_error *err)
{
	static const char *const want[3] = { "project", "facts", "message" };
	const char *tail = NULL;
	int rc, off;

	*s = NULL;
	rc = sqlite3_prepare_v2(c->db, r->query, -1, s, &tail);
	if (rc != SQLITE_OK && store_broke(c->db, rc))
		return store_fail(c->st, err, rc, "rules: prepare");
	/* Where SQLite does not say, the statement's first line. */
	off = sqlite3_error_offset(c->db);
	if (off < 0)
		off = 0;
	if (rc != SQLITE_OK && c->guard.denied[0] != '\0')
		return why_at(why, r, off, "refused: a rule may only read (%s)",
		    c->guard.denied);
	if (rc != SQLITE_OK)
		return why_at(why, r, off, "%s", sqlite3_errmsg(c->db));
	if (*s == NULL)
		return why_at(why, r, -1, "%s", "no SQL statement");
	if (tail != NULL && !only_comments(tail))
		return why_at(why, r, (int)(tail - r->query), "%s", "more "
		    "than one statement (a rule is one SELECT)");
	if (!sqlite3_stmt_readonly(*s))
		return why_at(why, r, -1, "%s", "refused: not a read-only "
		    "statement");
	for (int k = 0; k < 3; k++) {
		cols[k] = -1;
		for (int i = 0; i < sqlite3_column_count(*s); i++)
			if (sqlite3_column_name(*s, i) != NULL && strcmp(
			    sqlite3_column_name(*s, i), want[k]) == 0)
				cols[k] = i;
		if (cols[k] < 0)
			return why_at(why, r, -1, "the result has no column "
			    "'%s' (want project, facts, message)", want[k]);
	}
	return bind_params(c, r, *s, why);
}

/* 1 when "layer:id" s names a known layer and an id; else 0. */
static int
fact_ok(const char *s)
{
	const char *colon = strchr(s, ':');

	if (colon == NULL || colon[1] == '\0')
		return 0;
	for (size_t i = 0; i < sizeof(layers) / sizeof(*layers); i++)
		if (strlen(layers[i]) == (size_t)(colon - s) &&
		    strncmp(s, layers[i], (size_t)(colon - s)) == 0)
			return 1;
	return 0;
}

/* qsort: JSON strings by their text. */
static int
cmp_json_str(const void *a, const void *b)
{
	return strcmp(json_string_value(*(json_t *const *)a),
	    json_string_value(*(json_t *const *)b));
}

/*
 * The facts column (text of len bytes) as canonical JSON: an array of
 * "layer:id", sorted, without repeats. Returns it (caller frees), or
 * NULL with why set.
 */
static char *
canon_facts(const char *text, size_t len, long long row, strbuf *why)
{
	json_t *a = text != NULL ? json_loadb(text, len, 0, NULL) : NULL;
	json_t **v = NULL, *out;
	size_t n;
	char *s = NULL;

	if (!json_is_array(a) || (n = json_array_size(a)) == 0 ||
	    n > RULE_MAX_FACTS) {
		strbuf_printf(why, "row %lld: facts is not a JSON array of 1 "
		    "to %d \"layer:id\" strings", row, RULE_MAX_FACTS);
		json_decref(a);
		return NULL;
	}
	v = xreallocarray(NULL, n, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		v[i] = json_array_get(a, i);
		if (!json_is_string(v[i]) || !fact_ok(json_string_value(v[i]))) {
			strbuf_printf(why, "row %lld: fact %zu is not "
			    "\"LAYER:ID\" with LAYER project_state, entity, "
			    "memory or relationship", row, i + 1);
			goto out;
		}
	}
	qsort(v, n, sizeof(*v), cmp_json_str);
	out = json_array();
	for (size_t i = 0; i < n; i++)
		if (i == 0 || !json_equal(v[i], v[i - 1]))
			json_array_append(out, v[i]);
	s = json_dumps(out, JSON_COMPACT);
	json_decref(out);
out:
	free(v);
	json_decref(a);
	return s;
}

/* Text of column i, "" for NULL. */
static const char *
ctext(sqlite3_stmt *s, int i)
{
	const char *v = (const char *)sqlite3_column_text(s, i);

	return v != NULL ? v : "";
}

/* The current row of s into res. Returns 0, or 1 with why set. */
static int
take_row(struct result *res, sqlite3_stmt *s, const int cols[3],
    strbuf *why)
{
	struct rule_hit h;
	strbuf msg;

	if (++res->rows > RULE_MAX_ROWS) {
		strbuf_printf(why, "returned more than %d rows (the cap; "
		    "narrow the query)", RULE_MAX_ROWS);
		return 1;
	}
	h.facts = canon_facts((const char *)sqlite3_column_text(s, cols[1]),
	    (size_t)sqlite3_column_bytes(s, cols[1]), res->rows, why);
	if (h.facts == NULL)
		return 1;
	h.project = xstrdup(ctext(s, cols[0]));
	strbuf_init(&msg);
	text_line(&msg, ctext(s, cols[2]), (size_t)sqlite3_column_bytes(s,
	    cols[2]), TEXT_MAX_FIELD, 0);
	h.message = strbuf_detach(&msg);
	ARRAY_PUSH(res->v, res->n, res->cap) = h;
	return 0;
}

/*
 * Run r under the guard and its budget into res. Returns 0, 1 when the
 * rule failed (why says how), or < 0 with err set when the store did.
 */
static int
run_one(struct run_ctx *c, const struct rule *r, struct result *res,
    strbuf *why, mirror_error *err)
{
	sqlite3_stmt *s = NULL;
	int cols[3], rc;

	guard_arm(&c->guard, c->db);
	store_budget_set(c->st, c->budget_ms);
	rc = prepare_rule(c, r, &s, cols, why, err);
	while (rc == 0) {
		int step = sqlite3_step(s);

		if (step == SQLITE_DONE)
			break;
		if (step == SQLITE_ROW) {
			rc = take_row(res, s, cols, why);
			continue;
		}
		if (store_budget_tripped(c->st)) {
			strbuf_printf(why, "ran past its budget of %lld ms "
			    "(MIRROR_RULE_TIMEOUT_MS sets it)", c->budget_ms);
			rc = 1;
		} else if (store_broke(c->db, step))
			rc = store_fail(c->st, err, step, "rules: run");
		else
			rc = why_at(why, r, -1, "%s", sqlite3_errmsg(c->db));
	}
	sqlite3_finalize(s);
	store_budget_set(c->st, 0);
	guard_disarm(&c->guard, c->db);
	if (rc >= 0 && sqlite3_get_autocommit(c->db))
		rc = mirror_fail(err, MIRROR_EIO, "rules: rule %s ended the "
		    "sweep's transaction", r->id);
	return rc;
}

/* qsort: hits by facts, then project, then message. */
static int
cmp_hit(const void *a, const void *b)
{
	const struct rule_hit *x = a, *y = b;
	int d = strcmp(x->facts, y->facts);

	if (d == 0)
		d = strcmp(x->project, y->project);
	return d != 0 ? d : strcmp(x->message, y->message);
}

/*
 * Make res's hits what rec_violations takes: each project canonical
 * (through temp.project_alias; a name it lacks stays), sorted, one per
 * set of facts (the first in that order). Returns 0, or < 0 with err
 * set.
 */
static int
canon_hits(struct run_ctx *c, struct result *res, mirror_error *err)
{
	size_t k = 0;

	for (size_t i = 0; i < res->n; i++) {
		struct rule_hit *h = &res->v[i];
		int rc;

		if (h->project[0] == '\0')
			continue;
		sqlite3_bind_text(c->alias, 1, h->project, -1, SQLITE_STATIC);
		rc = sqlite3_step(c->alias);
		if (rc == SQLITE_ROW && sqlite3_column_text(c->alias, 0)) {
			char *p = xstrdup(ctext(c->alias, 0));

			sqlite3_reset(c->alias);
			free(h->project);
			h->project = p;
		} else {
			sqlite3_reset(c->alias);
			if (rc != SQLITE_ROW && rc != SQLITE_DONE)
				return store_fail(c->st, err, rc,
				    "rules: project aliases");
		}
	}
	if (res->n > 1)
		qsort(res->v, res->n, sizeof(*res->v), cmp_hit);
	for (size_t i = 0; i < res->n; i++) {
		if (k > 0 && strcmp(res->v[k - 1].facts, res->v[i].facts) == 0) {
			free(res->v[i].facts);
			free(res->v[i].project);
			free(res->v[i].message);
			continue;
		}
		res->v[k++] = res->v[i];
	}
	res->n = k;
	return 0;
}

/* One failure into the run's told lines: "mirror: rule ID (ORIGIN):
 * why", why folded onto one line. */
static void
tell(const struct run_ctx *c, const char *id, const char *origin,
    const char *why)
{
	strbuf *sb = &c->rec.out->told;

	strbuf_printf(sb, "mirror: rule %s (%s): ", id != NULL ? id : "?",
	    origin);
	text_line(sb, why, strlen(why), TEXT_MAX_FIELD, 0);
	strbuf_putc(sb, '\n');
}

void
rules_tell(const struct rule_set *rs, struct rule_counts *k)
{
	if (k->told.len > 0)
		fputs(k->told.data, rs->diag != NULL ? rs->diag : stderr);
	rules_counts_free(k);
}

void
rules_counts_free(struct rule_counts *k)
{
	strbuf_free(&k->told);
}

/* "warn" or "error" for s (never called with RULE_OFF). */
static const char *
severity_word(enum rule_severity s)
{
	return s == RULE_WARN ? "warn" : "error";
}

/* The id as recorded when id already has a rule_runs row in this run,
 * else NULL. */
static const char *
ran_already(const struct run_ctx *c, const char *id)
{
	for (size_t i = 0; i < c->nran; i++)
		if (strcmp(c->ran[i], id) == 0)
			return c->ran[i];
	return NULL;
}

/*
 * One rule from start to its rule_runs row: run it (unless it could not
 * be read), record its violations when it ran, tell its failure when it
 * did not. Returns 0, or < 0 with err set when the store failed.
 */
static int
do_rule(struct run_ctx *c, const struct rule *r, mirror_error *err)
{
	struct rule_run_row row;
	struct result res = { 0 };
	long long t0 = mirror_monotonic_ms();
	strbuf why;
	int rc = 1;

	strbuf_init(&why);
	if (r->id != NULL && ran_already(c, r->id))
		strbuf_printf(&why, "the id %s is taken by another rule, which "
		    "runs instead", r->id);
	else if (r->error != NULL)
		strbuf_puts(&why, r->error);
	else if ((rc = run_one(c, r, &res, &why, err)) == 0)
		rc = canon_hits(c, &res, err);
	if (rc == 0)
		rc = rec_violations(&c->rec, r->id, severity_word(r->severity),
		    res.v, res.n, err);
	if (rc > 0) {
		tell(c, r->id, r->origin, why.data);
		c->rec.out->failed++;
		if (r->id == NULL)
			c->unnamed = 1;
	}
	if (rc >= 0 && r->id != NULL && !ran_already(c, r->id)) {
		row = (struct rule_run_row){ r->id, r->origin,
		    severity_word(r->severity), r->label[0] != '\0' ?
		    r->label : r->id, r->description, r->query,
		    rc > 0 ? why.data : NULL, res.rows,
		    mirror_monotonic_ms() - t0 };
		ARRAY_PUSH(c->ran, c->nran, c->capran) = r->id;
		rc = rec_run_row(&c->rec, &row, err);
	}
	result_free(&res);
	strbuf_free(&why);
	return rc > 0 ? 0 : rc;
}

/* A column as a new string ("" for NULL). */
static char *
cdup(sqlite3_stmt *s, int i)
{
	return xstrdup(ctext(s, i));
}

/* One row of mirror_rules as a rule of c->store_rules. */
static void
store_rule(struct run_ctx *c, sqlite3_stmt *s)
{
	struct rule_set *rs = &c->store_rules;
	struct rule *r = &ARRAY_PUSH(rs->v, rs->n, rs->cap);
	const char *sev = ctext(s, 1);
	strbuf why;

	memset(r, 0, sizeof(*r));
	strbuf_init(&why);
	r->origin = xstrdup("store:mirror_rules");
	r->tier = RULE_STORE;
	r->label = cdup(s, 2);
	r->description = cdup(s, 3);
	r->query = cdup(s, 4);
	r->severity = strcmp(sev, "warn") == 0 ? RULE_WARN :
	    strcmp(sev, "off") == 0 ? RULE_OFF : RULE_ERROR;
	if (rules_id_ok(ctext(s, 0)))
		r->id = cdup(s, 0);
	else
		strbuf_printf(&why, "bad id '%.80s' (want [a-z0-9][a-z0-9-]*, "
		    "at most %d bytes)", ctext(s, 0), RULE_ID_MAX);
	if (why.len == 0 && strcmp(sev, "error") != 0 && r->severity ==
	    RULE_ERROR)
		strbuf_printf(&why, "severity '%.32s' is not error, warn or "
		    "off", sev);
	if (why.len == 0 && r->description[0] == '\0')
		strbuf_puts(&why, "no description");
	r->error = why.len > 0 ? strbuf_detach(&why) : NULL;
	strbuf_free(&why);
}

/*
 * The rows of the store's mirror_rules, when it has that table, into
 * c->store_rules, ordered by id. A table whose columns are not the
 * contract's is told as a failure. Returns 0, or < 0 with err set.
 */
static int
load_store_rules(struct run_ctx *c, mirror_error *err)
{
	sqlite3_stmt *s = NULL;
	long long have = 0;
	int rc;

	rules_init(&c->store_rules);
	if ((rc = store_count(&have, c->st, "SELECT count(*) FROM "
	    "main.sqlite_schema WHERE type = 'table' AND name = "
	    "'mirror_rules'", NULL, err)) < 0 || have == 0)
		return rc;
	rc = sqlite3_prepare_v2(c->db, "SELECT id, severity, label, "
	    "description, query FROM main.mirror_rules ORDER BY id", -1, &s,
	    NULL);
	if (rc != SQLITE_OK) {
		tell(c, NULL, "store:mirror_rules", sqlite3_errmsg(c->db));
		c->rec.out->failed++;
		c->unnamed = 1;
		return 0;
	}
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		store_rule(c, s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(c->st, err, rc,
	    "rules: read mirror_rules");
}

/*
 * Close the open violations of every rule that has no rule_runs row in
 * this run (gone from the set, or off), unless a rule with no readable
 * id failed (it may be theirs). Returns 0, or < 0 with err set.
 */
static int
close_orphans(struct run_ctx *c, mirror_error *err)
{
	sqlite3_stmt *s = NULL;
	char **gone = NULL;
	size_t n = 0, cap = 0;
	int rc;

	if (c->unnamed)
		return 0;
	rc = sqlite3_prepare_v2(c->db, "SELECT DISTINCT rule_id FROM "
	    "main.rule_violations WHERE status = 'open' ORDER BY rule_id",
	    -1, &s, NULL);
	if (rc != SQLITE_OK)
		return store_fail(c->st, err, rc, "rules: open violations");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if (!ran_already(c, ctext(s, 0)))
			ARRAY_PUSH(gone, n, cap) = cdup(s, 0);
	sqlite3_finalize(s);
	rc = rc == SQLITE_DONE ? 0 : store_fail(c->st, err, rc,
	    "rules: open violations");
	for (size_t i = 0; i < n; i++) {
		if (rc == 0)
			rc = rec_close_rule(&c->rec, gone[i], err);
		free(gone[i]);
	}
	free(gone);
	return rc;
}

/* Every rule: the set's, then the store's. Returns 0 or < 0. */
static int
run_all(struct run_ctx *c, mirror_error *err)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < c->rs->n; i++)
		if (!c->rs->v[i].replaced && c->rs->v[i].severity != RULE_OFF)
			rc = do_rule(c, &c->rs->v[i], err);
	if (rc == 0)
		rc = load_store_rules(c, err);
	for (size_t i = 0; rc == 0 && i < c->store_rules.n; i++)
		if (c->store_rules.v[i].severity != RULE_OFF)
			rc = do_rule(c, &c->store_rules.v[i], err);
	if (rc == 0)
		rc = close_orphans(c, err);
	if (rc == 0)
		rc = store_count(&c->rec.out->open_after, c->st, "SELECT "
		    "count(*) FROM main.rule_violations WHERE status = 'open'",
		    NULL, err);
	return rc;
}

int
rules_run(struct rule_counts *out, mirror_store *st,
    const struct rule_set *rs, const char *run_id, const char *now,
    mirror_error *err)
{
	struct run_ctx c;
	int rc;

	memset(out, 0, sizeof(*out));
	strbuf_init(&out->told);
	if (!store_features(st)->has_rule_tables)
		return mirror_fail(err, MIRROR_EINPUT, "store %s: no rule "
		    "tables (open it for writing first)", store_path(st));
	memset(&c, 0, sizeof(c));
	c.st = st;
	c.db = store_db(st);
	c.rs = rs;
	c.now = now;
	c.budget_ms = env_long("MIRROR_RULE_TIMEOUT_MS",
	    MIRROR_RULE_TIMEOUT_MS);
	c.rec = (struct rule_rec){ .st = st, .db = c.db, .run_id = run_id,
	    .now = now, .out = out };
	rules_init(&c.store_rules);
	rc = rec_prepare(&c.rec, err);
	if (rc == 0 && (rc = sqlite3_prepare_v2(c.db, "SELECT canonical FROM "
	    "temp.project_alias WHERE name = ?1 LIMIT 1", -1, &c.alias,
	    NULL)) != SQLITE_OK)
		rc = store_fail(st, err, rc, "rules: prepare");
	if (rc == 0 && (rc = guard_init(&c.guard, c.db)) != SQLITE_OK)
		rc = store_fail(st, err, rc, "rules: read the schema");
	if (rc == 0)
		rc = run_all(&c, err);
	guard_free(&c.guard);
	sqlite3_finalize(c.alias);
	rec_finalize(&c.rec);
	free(c.ran);
	rules_free(&c.store_rules);
	return rc;
}
