/*
 * rules_eval.c: evaluating one rule on a connection (see rules_int.h
 * and doc/rules.md): the sweep's own, or a read-only one in parallel with it.
 *
 * A rule is prepared and stepped under the guard (rules_guard.c), with
 * its own budget of SQLite time (store_budget_set) and a cap on its
 * rows; its rows are checked for their shape as they come and made
 * canonical (facts sorted, project canonical, one hit per set of
 * facts). Whatever goes wrong with the rule is its failure; only a
 * failure of the store itself (I/O, a lock, corruption, the transaction
 * gone) is an error. Nothing here writes.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "rules/rules_int.h"
#include "store/facts.h"
#include "sys/clock.h"
#include "sys/env.h"
#include "sys/work.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/hashtab.h"
#include "util/layer.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"

/* Free what h holds. */
static void
hit_free(struct rule_hit *h)
{
	for (size_t i = 0; i < h->nf; i++)
		free(h->fv[i]);
	free(h->fv);
	free(h->facts);
	free(h->project);
	free(h->message);
}

void
rule_eval_free(struct rule_eval *ev)
{
	for (size_t i = 0; i < ev->n; i++)
		hit_free(&ev->v[i]);
	free(ev->v);
	strbuf_free(&ev->why);
	memset(ev, 0, sizeof(*ev));
	strbuf_init(&ev->why);
}

/* The layers a fact of a violation may be in. */
static const char *const layers[] = { LAYER_KIND_STATE, LAYER_KIND_ENTITY,
    LAYER_KIND_MEMORY, "relationship" };

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
param_value(const struct rule_conn *c, const struct rule *r, const char *name)
{
	return rules_param_value(c->rs, r, name);
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

/* Bind :now, :today (the date of :now, its first 10 bytes) and every
 * parameter of r. Returns 0, or 1 with why set. */
static int
bind_params(struct rule_conn *c, const struct rule *r, sqlite3_stmt *s,
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
		if (strcmp(name + 1, "today") == 0) {
			sqlite3_bind_text(s, i, c->now, (int)strnlen(c->now,
			    RULES_TODAY_LEN), SQLITE_STATIC);
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

/* A rule's query prepared: its statement, and the indexes of its
 * columns project, facts and message. */
struct rule_query {
	sqlite3_stmt *s;
	int cols[3];
};

/*
 * Prepare r's query under the guard into *q, and check it is one
 * read-only SELECT with columns project, facts, message (their indexes
 * into q->cols). Returns 0, 1 with why set, or < 0 with err set; q->s
 * is the caller's to finalize either way.
 */
static int
prepare_rule(struct rule_query *q, struct rule_conn *c, const struct rule *r,
    strbuf *why, mirror_error *err)
{
	sqlite3_stmt **s = &q->s;
	int *cols = q->cols;
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

/* qsort: C strings. */
static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The length of the JSON string of plain text at s (its opening quote
 * at s[0]): printable ASCII without '"' or '\\' up to the closing
 * quote, which ends before end. Returns 0 when it is not one. */
static size_t
plain_string(const char *s, const char *end)
{
	const char *p = s + 1;

	while (p < end && *p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\')
		p++;
	return p < end && *p == '"' && p > s + 1 ? (size_t)(p - s - 1) : 0;
}

/*
 * The facts column read without jansson when it is what json_array()
 * makes of plain "layer:id" strings: '[', strings of plain_string
 * apart by ',', ']', no blank, 1 to RULE_MAX_FACTS of them, each
 * fact_ok. Into h as canon_facts says; its JSON is written as
 * json_dumps(JSON_COMPACT) would write it. Returns 0, or -1 (h
 * untouched) when text is not of that shape: jansson reads it then.
 */
static int
plain_facts(struct rule_hit *h, const char *text, size_t len)
{
	const char *p = text + 1, *end;
	char **v = NULL;
	size_t n = 0, cap = 0, k = 0;
	strbuf js;
	int ok = 0;

	if (len < 2 || text[0] != '[' || text[len - 1] != ']')
		return -1;
	end = text + len - 1;
	for (;;) {
		size_t l = p < end && *p == '"' ? plain_string(p, end) : 0;

		if (l == 0 || n == RULE_MAX_FACTS)
			break;
		ARRAY_PUSH(v, n, cap) = xstrndup(p + 1, l);
		if (!fact_ok(v[n - 1]))
			break;
		p += l + 2;
		if (p == end || *p != ',') {
			ok = p == end;
			break;
		}
		p++;
	}
	if (!ok) {
		while (n > 0)
			free(v[--n]);
		free(v);
		return -1;
	}
	qsort(v, n, sizeof(*v), cmp_str);
	strbuf_init(&js);
	strbuf_putc(&js, '[');
	for (size_t i = 0; i < n; i++) {
		if (k > 0 && strcmp(v[k - 1], v[i]) == 0) {
			free(v[i]);
			continue;
		}
		strbuf_printf(&js, "%s\"%s\"", k > 0 ? "," : "", v[i]);
		v[k++] = v[i];
	}
	strbuf_putc(&js, ']');
	h->fv = v;
	h->nf = k;
	h->facts = strbuf_detach(&js);
	strbuf_free(&js);
	return 0;
}

/*
 * The facts column (text of len bytes) made canonical into h: h->fv the
 * "layer:id" strings sorted, without repeats, and h->facts their JSON
 * array. Returns 0, or 1 with why set (h untouched).
 */
static int
canon_facts(struct rule_hit *h, const char *text, size_t len, long long row,
    strbuf *why)
{
	json_t *a, **v = NULL, *out;
	size_t n, k = 0;
	int rc = 1;

	if (text != NULL && plain_facts(h, text, len) == 0)
		return 0;
	a = text != NULL ? json_loadb(text, len, 0, NULL) : NULL;
	if (!json_is_array(a) || (n = json_array_size(a)) == 0 ||
	    n > RULE_MAX_FACTS) {
		strbuf_printf(why, "row %lld: facts is not a JSON array of 1 "
		    "to %d \"layer:id\" strings", row, RULE_MAX_FACTS);
		json_decref(a);
		return 1;
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
	h->fv = xreallocarray(NULL, n, sizeof(*h->fv));
	for (size_t i = 0; i < n; i++)
		if (i == 0 || !json_equal(v[i], v[i - 1])) {
			json_array_append(out, v[i]);
			h->fv[k++] = xstrdup(json_string_value(v[i]));
		}
	h->nf = k;
	h->facts = json_dumps(out, JSON_COMPACT);
	json_decref(out);
	rc = 0;
out:
	free(v);
	json_decref(a);
	return rc;
}

/* Text of column i, "" for NULL. */
static const char *
ctext(sqlite3_stmt *s, int i)
{
	const char *v = (const char *)sqlite3_column_text(s, i);

	return v != NULL ? v : "";
}

/* The current row of q into res. Returns 0, or 1 with why set. */
static int
take_row(struct rule_eval *res, const struct rule_query *q, strbuf *why)
{
	sqlite3_stmt *s = q->s;
	const int *cols = q->cols;
	struct rule_hit h = { 0 };
	strbuf msg;

	if (++res->rows > RULE_MAX_ROWS) {
		strbuf_printf(why, "returned more than %d rows (the cap; "
		    "narrow the query)", RULE_MAX_ROWS);
		return 1;
	}
	if (canon_facts(&h, (const char *)sqlite3_column_text(s, cols[1]),
	    (size_t)sqlite3_column_bytes(s, cols[1]), res->rows, why) != 0)
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
 * rule failed (why says how), 2 when c runs in parallel with the sweep and r
 * reads a table the sweep writes (nothing run), or < 0 with err set when the
 * store did.
 */
static int
run_one(struct rule_conn *c, const struct rule *r, struct rule_eval *res,
    strbuf *why, mirror_error *err)
{
	struct store_memcap cap = { .soft = RULE_MAX_MEMORY,
	    .hard = RULE_HARD_MEMORY };
	struct rule_query q = { 0 };
	int rc;

	guard_arm(&c->guard, c->db);
	store_steps_set(c->st, c->budget_msteps * 1000,
	    c->budget_msteps * RULE_MS_PER_MSTEP);
	rc = prepare_rule(&q, c, r, why, err);
	if (rc == 0 && c->parallel && c->guard.reads_sweep)
		rc = 2;
	(void)store_memcap_arm(&cap);
	while (rc == 0) {
		int step = sqlite3_step(q.s);

		if (step == SQLITE_DONE)
			break;
		if (step == SQLITE_ROW) {
			rc = take_row(res, &q, why);
			continue;
		}
		if (cap.over != 0) {
			strbuf_printf(why, "used more than %lld MiB of memory "
			    "(the bound of a rule; doc/rules.md)",
			    RULE_MAX_MEMORY >> 20);
			rc = 1;
		} else if (store_budget_tripped(c->st) == STORE_TRIPPED_STEPS) {
			strbuf_printf(why, "ran past its budget of %lld "
			    "million SQLite steps (MIRROR_RULE_STEPS sets it)",
			    c->budget_msteps);
			rc = 1;
		} else if (store_budget_tripped(c->st) != 0) {
			strbuf_printf(why, "ran past its budget of time, %.1f "
			    "s for %lld million SQLite steps (MIRROR_RULE_STEPS "
			    "sets it)", (double)(c->budget_msteps *
			    RULE_MS_PER_MSTEP) / 1000.0, c->budget_msteps);
			rc = 1;
		} else if (store_broke(c->db, step))
			rc = store_fail(c->st, err, step, "rules: run");
		else
			rc = why_at(why, r, -1, "%s", sqlite3_errmsg(c->db));
	}
	store_memcap_disarm();
	sqlite3_finalize(q.s);
	store_steps_set(c->st, 0, 0);
	guard_disarm(&c->guard, c->db);
	if (rc >= 0 && sqlite3_get_autocommit(c->db) && cap.over == 2)
		rc = mirror_fail(err, MIRROR_EINPUT, "rule %s (%s): one step "
		    "passed a rule's hard bound of memory (%lld MiB), and SQLite "
		    "ends the transaction of a statement out of memory: the "
		    "sweep stopped and wrote nothing; change or remove the "
		    "rule", r->id, r->origin, RULE_HARD_MEMORY >> 20);
	else if (rc >= 0 && sqlite3_get_autocommit(c->db))
		rc = mirror_fail(err, MIRROR_EIO, "rules: rule %s ended the "
		    "%s transaction", r->id, c->parallel ? "read" : "sweep's");
	return rc;
}

/* 1 when q holds "now" in any case (:now, 'now', 'NOW'), else 0: a
 * superset of the rules that read the clock. */
static int
says_now(const char *q)
{
	for (; *q != '\0'; q++)
		if ((q[0] | 0x20) == 'n' && (q[1] | 0x20) == 'o' &&
		    (q[2] | 0x20) == 'w')
			return 1;
	return 0;
}

/* What of the clock q reads (rule_reads' clock): RULE_CLOCK_TIME when
 * it says "now" (says_now), else RULE_CLOCK_DAY when it binds :today,
 * else 0. */
static int
clock_read(const char *q)
{
	if (says_now(q))
		return RULE_CLOCK_TIME;
	return strstr(q, ":today") != NULL ? RULE_CLOCK_DAY : 0;
}

/* OpenRead's P5 flag: P2 is a register, not a root page. */
#define OPFLAG_P2ISREG 0x10

/*
 * The digest table (facts_digest_column) of the b-tree at root page
 * root of database db (0 main, 1 temp; a table's or an index's), or -1
 * when it is none (temp.project_alias is the projects'). Returns it, or
 * < -1 on an SQLite error.
 */
static int
root_table(sqlite3 *db, int dbi, int root)
{
	sqlite3_stmt *s = NULL;
	int rc, t = -1;

	rc = sqlite3_prepare_v2(db, dbi == 0 ? "SELECT tbl_name FROM "
	    "main.sqlite_schema WHERE rootpage = ?1" : "SELECT tbl_name FROM "
	    "temp.sqlite_schema WHERE rootpage = ?1", -1, &s, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int(s, 1, root);
		rc = sqlite3_step(s);
	}
	if (rc == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 0);

		if (name != NULL)
			t = dbi == 0 ? facts_digest_column(name, "") :
			    strcmp(name, "project_alias") == 0 ? 0 : -1;
		rc = SQLITE_DONE;
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? t : -2;
}

/*
 * The tables ex (r's statement under EXPLAIN) opens, as digest table
 * bits into *tables: a statement may read a table without reading a
 * column of it (count(*), EXISTS (SELECT 1 FROM t)), which the
 * authorizer does not see. Returns 1 when each is a digest table, 0
 * when one is not (or a root is a register), or < 0 with err set.
 */
static int
opened_tables(unsigned *tables, struct rule_conn *c, sqlite3_stmt *ex,
    mirror_error *err)
{
	int rc, ok = 1;

	while ((rc = sqlite3_step(ex)) == SQLITE_ROW) {
		const char *op = (const char *)sqlite3_column_text(ex, 1);
		int t;

		if (op == NULL || (strcmp(op, "OpenRead") != 0 &&
		    strcmp(op, "ReopenIdx") != 0))
			continue;
		if ((sqlite3_column_int(ex, 6) & OPFLAG_P2ISREG) != 0 ||
		    sqlite3_column_int(ex, 4) > 1) {
			ok = 0;
			continue;
		}
		t = root_table(c->db, sqlite3_column_int(ex, 4),
		    sqlite3_column_int(ex, 3));
		if (t < -1)
			return store_fail(c->st, err, sqlite3_errcode(c->db),
			    "rules: read the schema");
		if (t < 0)
			ok = 0;
		else
			*tables |= 1u << t;
	}
	if (rc != SQLITE_DONE)
		return store_fail(c->st, err, rc, "rules: explain a rule");
	return ok;
}

int
rule_reads(struct rule_reads *out, struct rule_conn *c, const struct rule *r,
    mirror_error *err)
{
	struct rule_query q = { 0 };
	sqlite3_stmt *ex = NULL;
	strbuf why, sql;
	int rc;

	memset(out, 0, sizeof(*out));
	strbuf_init(&why);
	strbuf_init(&sql);
	guard_arm(&c->guard, c->db);
	rc = prepare_rule(&q, c, r, &why, err);
	sqlite3_finalize(q.s);
	if (rc == 0) {
		strbuf_printf(&sql, "EXPLAIN %s", r->query);
		if (sqlite3_prepare_v2(c->db, sql.data, -1, &ex, NULL) !=
		    SQLITE_OK || ex == NULL)
			rc = 1;
	}
	guard_disarm(&c->guard, c->db);
	out->keyable = rc == 0 && !c->guard.unkeyed && !c->guard.reads_sweep;
	out->tables = c->guard.reads;
	out->clock = clock_read(r->query);
	if (out->keyable && (rc = opened_tables(&out->tables, c, ex,
	    err)) >= 0)
		out->keyable = rc;
	sqlite3_finalize(ex);
	strbuf_free(&why);
	strbuf_free(&sql);
	return rc < 0 ? rc : 0;
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
 * The canonical id of project name into *out (a new string), NULL when
 * temp.project_alias does not know the name. Returns 0, or < 0 with err
 * set.
 */
static int
canonical_of(struct rule_conn *c, const char *name, char **out,
    mirror_error *err)
{
	int rc;

	*out = NULL;
	sqlite3_bind_text(c->alias, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(c->alias);
	if (rc == SQLITE_ROW && sqlite3_column_text(c->alias, 0))
		*out = xstrdup(ctext(c->alias, 0));
	sqlite3_reset(c->alias);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(c->st, err, rc, "rules: project aliases");
	return 0;
}

/* A project name looked up, in canon_hits' table. */
struct seen_name {
	uint64_t key;               /* of name; never 0 */
	char *name;
	char *canon;                /* NULL: the name stays */
};

/*
 * The canonical id of h's project into it, through t, a table of the
 * names looked up so far (a name is looked up once per rule; one whose
 * hash another name took is looked up each time). Returns 0, or < 0
 * with err set.
 */
static int
canon_project(struct rule_conn *c, struct hashtab *t, struct rule_hit *h,
    mirror_error *err)
{
	uint64_t key = hash_add_str(MIRROR_HASH_INIT, h->project);
	struct seen_name *n, one = { 0 };
	int added = 0, rc = 0;

	key = key != 0 ? key : 1;
	n = hashtab_put(t, key, &added);
	if (!added && strcmp(n->name, h->project) != 0)
		n = &one;               /* another name's slot: not kept */
	if (added || n == &one) {
		n->key = key;
		n->name = xstrdup(h->project);
		rc = canonical_of(c, n->name, &n->canon, err);
	}
	if (rc == 0 && n->canon != NULL) {
		free(h->project);
		h->project = xstrdup(n->canon);
	}
	free(one.name);
	free(one.canon);
	return rc;
}

/*
 * Make res's hits what rec_violations takes: each project canonical
 * (through temp.project_alias; a name it lacks stays), sorted, one per
 * set of facts (the first in that order). Returns 0, or < 0 with err
 * set.
 */
static int
canon_hits(struct rule_conn *c, struct rule_eval *res, mirror_error *err)
{
	struct hashtab seen;
	size_t k = 0;
	int rc = 0;

	hashtab_init(&seen, sizeof(struct seen_name));
	for (size_t i = 0; rc == 0 && i < res->n; i++)
		if (res->v[i].project[0] != '\0')
			rc = canon_project(c, &seen, &res->v[i], err);
	for (struct seen_name *n = NULL; (n = hashtab_each(&seen, n)) != NULL;) {
		free(n->name);
		free(n->canon);
	}
	hashtab_free(&seen);
	if (rc < 0)
		return rc;
	if (res->n > 1)
		qsort(res->v, res->n, sizeof(*res->v), cmp_hit);
	for (size_t i = 0; i < res->n; i++) {
		if (k > 0 && strcmp(res->v[k - 1].facts, res->v[i].facts) == 0) {
			hit_free(&res->v[i]);
			continue;
		}
		res->v[k++] = res->v[i];
	}
	res->n = k;
	return 0;
}


int
rule_eval(struct rule_conn *c, const struct rule *r, struct rule_eval *ev,
    mirror_error *err)
{
	long long t0 = mirror_monotonic_ms();
	struct work_count *was = work_rows_into(&work_rule_rows);
	int rc;

	if ((rc = run_one(c, r, ev, &ev->why, err)) == 0)
		rc = canon_hits(c, ev, err);
	(void)work_rows_into(was);
	ev->ms = mirror_monotonic_ms() - t0;
	if (rc < 0)
		return rc;
	ev->state = rc == 0 ? EVAL_RAN : rc == 1 ? EVAL_FAILED :
	    EVAL_DEFERRED;
	if (ev->state == EVAL_DEFERRED) {
		rule_eval_free(ev);
		ev->state = EVAL_DEFERRED;
	}
	return 0;
}

int
rconn_init(struct rule_conn *c, mirror_store *st, const struct rule_set *rs,
    const char *now, int parallel, mirror_error *err)
{
	int rc;

	memset(c, 0, sizeof(*c));
	c->st = st;
	c->db = store_db(st);
	c->rs = rs;
	c->now = now;
	c->parallel = parallel;
	c->budget_msteps = env_long("MIRROR_RULE_STEPS",
	    MIRROR_RULE_STEPS);
	if ((rc = sqlite3_prepare_v2(c->db, "SELECT canonical FROM "
	    "temp.project_alias WHERE name = ?1 LIMIT 1", -1, &c->alias,
	    NULL)) != SQLITE_OK)
		return store_fail(st, err, rc, "rules: prepare");
	if ((rc = guard_init(&c->guard, c->db, st)) != SQLITE_OK)
		return store_fail(st, err, rc, "rules: read the schema");
	return 0;
}

void
rconn_free(struct rule_conn *c)
{
	guard_free(&c->guard);
	sqlite3_finalize(c->alias);
	c->alias = NULL;
}
