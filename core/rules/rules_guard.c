/*
 * rules_guard.c: the authorizer every rule runs under (see rules_int.h
 * and doc/rules.md, "Safe by construction").
 *
 * Allowed: SELECT, recursive CTEs, reading a column of a table or view
 * of main or temp (and of sqlite_schema, json_each, json_tree), and the
 * functions listed below, all of them pure. Everything else is refused
 * at prepare time: INSERT, UPDATE, DELETE, every CREATE, DROP and
 * ALTER, ATTACH and DETACH, PRAGMA and the pragma_* table-valued
 * functions (their names are not tables of the store), transactions
 * and savepoints, ANALYZE, REINDEX, load_extension(), random(),
 * randomblob(), zeroblob() and any function an extension or another
 * connection may have added.
 */
#define _GNU_SOURCE     /* memmem */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <stdlib.h>

#include "rules/rules_int.h"
#include "store/facts.h"
#include "util/hash.h"
#include "util/xalloc.h"

/* Pure functions a rule may call (lower case; json* and jsonb* too). */
static const char *const pure[] = {
	"->", "->>", "abs", "acos", "acosh", "asin", "asinh", "atan",
	"atan2", "atanh", "avg", "ceil", "ceiling", "char", "coalesce",
	"concat", "concat_ws", "cos", "cosh", "count", "cume_dist", "date",
	"datetime", "degrees", "dense_rank", "exp", "first_value", "floor",
	"format", "glob", "group_concat", "hex", "ifnull", "iif", "instr",
	"julianday", "lag", "last_value", "lead", "length", "like",
	"likelihood", "likely", "ln", "log", "log10", "log2", "lower",
	"ltrim", "max", "min", "mirror_ts", "mod", "nth_value", "ntile",
	"nullif", "octet_length", "percent_rank", "pi", "pow", "power",
	"printf", "quote", "radians", "rank", "replace", "round",
	"row_number", "rtrim", "sign", "sin", "sinh", "sqrt", "strftime",
	"string_agg", "substr", "substring", "sum", "tan", "tanh", "time",
	"timediff", "total", "trim", "trunc", "typeof", "unhex", "unicode",
	"unixepoch", "unlikely", "upper",
};

/* Readable names that are not in sqlite_schema. */
static const char *const builtin_tables[] = { "sqlite_schema",
    "sqlite_master", "sqlite_temp_schema", "sqlite_temp_master",
    "json_each", "json_tree" };

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The functions whose time grows with the product of two arguments'
 * lengths (instr and replace compare the needle at each byte, trim its
 * set at each character, like and glob the pattern at each character,
 * json_patch looks each key of the patch up in the target's list of
 * keys): one call of SQLite's instr or rtrim over strings of a megabyte
 * or so runs for seconds to minutes, json_patch of two objects of
 * 120,000 keys 95 s, and no budget of steps or deadline checked between
 * steps stops one call. On a rule's connection each is replaced by a
 * call that refuses more than RULE_MAX_WORK of it (the product of the
 * two lengths, a 32nd of it for instr, replace and json_patch, whose
 * inner loops run some 30 to 40 times as fast as trim's or like's) and
 * past the rule's deadline, and calls SQLite's own on a private
 * connection otherwise (the same results, to the byte; json_patch's
 * result keeps SQLite's JSON subtype, which a value passed between
 * connections loses). tests/unit/test_rules.c's test_every_function
 * calls every function of the connection with long arguments to find
 * any other.
 */
/* How many there are, and instr's index among them. */
#define GUARD_BOUNDED 9
#define GUARD_INSTR 0

/* SQLite's subtype of a value json functions made (JSON_SUBTYPE in its
 * json.c): another json function takes such a text as JSON, not as a
 * string to quote. */
#define SQLITE_JSON_SUBTYPE 74

static const struct bounded {
	const char *name;
	int nargs, shift;           /* work is the product >> shift */
	unsigned subtype;           /* of a text result, or 0 */
	const char *sql;
} bounded[GUARD_BOUNDED] = {
	{ "instr", 2, 5, 0, "SELECT instr(?1, ?2)" },
	{ "replace", 3, 5, 0, "SELECT replace(?1, ?2, ?3)" },
	{ "trim", 2, 0, 0, "SELECT trim(?1, ?2)" },
	{ "ltrim", 2, 0, 0, "SELECT ltrim(?1, ?2)" },
	{ "rtrim", 2, 0, 0, "SELECT rtrim(?1, ?2)" },
	{ "like", 2, 0, 0, "SELECT like(?1, ?2)" },
	{ "like", 3, 0, 0, "SELECT like(?1, ?2, ?3)" },
	{ "glob", 2, 0, 0, "SELECT glob(?1, ?2)" },
	{ "json_patch", 2, 5, SQLITE_JSON_SUBTYPE,
	    "SELECT json_patch(?1, ?2)" },
};

/* What a connection's bounded functions share (see rules_int.h). */
struct guard_bounded {
	mirror_store *st;           /* the deadline (store_past_deadline) */
	int armed;                  /* a rule runs: the bounds hold */
	int refs;                   /* functions holding this */
	sqlite3 *plain;             /* a private in-memory connection whose
	                               built-in functions are called (NULL
	                               until a call needs it) */
	sqlite3_stmt *calls[GUARD_BOUNDED];
	struct guard_call {
		struct guard_bounded *b;
		int k;              /* its index in bounded[] */
	} call[GUARD_BOUNDED];
};

/* xDestroy of a bounded function: the last one frees what they share. */
static void
bounded_release(void *p)
{
	struct guard_bounded *b = ((struct guard_call *)p)->b;

	if (--b->refs > 0)
		return;
	for (int k = 0; k < GUARD_BOUNDED; k++)
		sqlite3_finalize(b->calls[k]);
	sqlite3_close(b->plain);
	free(b);
}

/* The plain connection's statement of bounded function k, prepared the
 * first time. Returns it, or NULL (its error on ctx). */
static sqlite3_stmt *
bounded_stmt(struct guard_bounded *b, int k, sqlite3_context *ctx)
{
	int rc = SQLITE_OK;

	if (b->calls[k] != NULL)
		return b->calls[k];
	if (b->plain == NULL) {
		rc = sqlite3_open_v2(":memory:", &b->plain,
		    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
		if (rc == SQLITE_OK)
			(void)sqlite3_limit(b->plain, SQLITE_LIMIT_LENGTH,
			    RULE_MAX_LENGTH);
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(b->plain, bounded[k].sql, -1,
		    &b->calls[k], NULL);
	if (rc != SQLITE_OK) {
		sqlite3_result_error(ctx, b->plain != NULL ?
		    sqlite3_errmsg(b->plain) : "out of memory", -1);
		return NULL;
	}
	return b->calls[k];
}

/*
 * instr(X, Y) of two TEXT values, as SQLite's own computes it (func.c's
 * instrFunc for text, to the result): the number of characters before
 * the first Y in X, plus 1; 0 when there is none; 1 for an empty Y.
 * SQLite tries Y at X's first byte and at each later byte that does not
 * continue a UTF-8 character: a Y that does not start with such a byte
 * is found by memmem at the first of those places it is, the
 * characters before it counted as the bytes that start one.
 * Called for the common case that needs no private connection (the
 * starter rules call instr on every entity's properties: through the
 * private connection each call cost some 4,000 instructions, the search
 * itself a tenth of that). Returns nothing; the result is on ctx.
 */
static void
instr_text(sqlite3_context *ctx, sqlite3_value *x, sqlite3_value *y)
{
	const unsigned char *hay = sqlite3_value_text(x);
	int nhay = sqlite3_value_bytes(x);
	const unsigned char *needle = sqlite3_value_text(y);
	int nneedle = sqlite3_value_bytes(y);
	const unsigned char *at;
	int n = 1;

	if (nneedle > 0) {
		if (needle == NULL || (nhay > 0 && hay == NULL))
			return;     /* out of memory: NULL, as SQLite's */
		if ((needle[0] & 0xc0) != 0x80) {
			at = memmem(hay, (size_t)nhay, needle, (size_t)nneedle);
			if (at == NULL)
				n = 0;
			for (const unsigned char *p = hay + 1; at != NULL &&
			    p <= at; p++)
				n += (p[0] & 0xc0) != 0x80;
			sqlite3_result_int(ctx, n);
			return;
		}
		while (nneedle <= nhay && memcmp(hay, needle,
		    (size_t)nneedle) != 0) {
			n++;
			do {
				nhay--;
				hay++;
			} while ((hay[0] & 0xc0) == 0x80);
		}
		if (nneedle > nhay)
			n = 0;
	}
	sqlite3_result_int(ctx, n);
}

/* A bounded function's call (see bounded[]): its result, or, while a
 * rule runs, an error past RULE_MAX_WORK or past the rule's deadline.
 * Returns nothing. */
static void
bounded_call(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct guard_call *call = sqlite3_user_data(ctx);
	struct guard_bounded *b = call->b;
	const struct bounded *f = &bounded[call->k];
	long long work = (long long)sqlite3_value_bytes(argv[0]) *
	    sqlite3_value_bytes(argv[1]) >> f->shift;
	sqlite3_stmt *s;
	char msg[256];
	int rc, w;

	if (b->armed && store_past_deadline(b->st)) {
		sqlite3_result_error(ctx, "interrupted: past the rule's "
		    "deadline", -1);
		return;
	}
	if (b->armed && work > RULE_MAX_WORK) {
		w = snprintf(msg, sizeof(msg), "%s() of %d and %d bytes: past "
		    "the bound of a rule's call of it (%lld units of work, at "
		    "most %lld; doc/rules.md)", f->name,
		    sqlite3_value_bytes(argv[0]), sqlite3_value_bytes(argv[1]),
		    work, RULE_MAX_WORK);
		if (w < 0 || (size_t)w >= sizeof(msg))
			msg[sizeof(msg) - 1] = '\0';
		sqlite3_result_error(ctx, msg, -1);
		return;
	}
	if (call->k == GUARD_INSTR && sqlite3_value_type(argv[0]) ==
	    SQLITE_TEXT && sqlite3_value_type(argv[1]) == SQLITE_TEXT) {
		instr_text(ctx, argv[0], argv[1]);
		return;
	}
	if ((s = bounded_stmt(b, call->k, ctx)) == NULL)
		return;
	for (int i = 0; i < argc; i++)
		(void)sqlite3_bind_value(s, i + 1, argv[i]);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		sqlite3_result_value(ctx, sqlite3_column_value(s, 0));
		if (f->subtype != 0 && sqlite3_column_type(s, 0) == SQLITE_TEXT)
			sqlite3_result_subtype(ctx, f->subtype);
	} else if (sqlite3_errcode(b->plain) == SQLITE_TOOBIG)
		sqlite3_result_error_toobig(ctx);
	else
		sqlite3_result_error(ctx, sqlite3_errmsg(b->plain), -1);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
}

/*
 * Install the bounded functions on db into g->fns (replacing any an
 * earlier guard installed, which SQLite then frees). Returns an SQLite
 * code.
 */
static int
bounded_install(struct rule_guard *g, sqlite3 *db, mirror_store *st)
{
	struct guard_bounded *b = xcalloc(1, sizeof(*b));
	int rc = SQLITE_OK;

	b->st = st;
	b->refs = 1;                /* ours until every function holds it */
	for (int k = 0; rc == SQLITE_OK && k < GUARD_BOUNDED; k++) {
		b->call[k] = (struct guard_call){ b, k };
		b->refs++;
		rc = sqlite3_create_function_v2(db, bounded[k].name,
		    bounded[k].nargs, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
		    &b->call[k], bounded_call, NULL, NULL, bounded_release);
		/* On failure SQLite called bounded_release already. */
	}
	g->fns = rc == SQLITE_OK ? b : NULL;
	bounded_release(&b->call[0]);
	return rc;
}

/* The hash of name in lower case (never 0). */
static uint64_t
name_hash(const char *name)
{
	uint64_t h = MIRROR_HASH_INIT;

	for (const char *p = name; *p != '\0'; p++) {
		char c = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;

		h = hash_add(h, &c, 1);
	}
	return h != 0 ? h : 1;
}

int
guard_init(struct rule_guard *g, sqlite3 *db, mirror_store *st)
{
	sqlite3_stmt *s = NULL;
	int rc;

	memset(g, 0, sizeof(*g));
	hashtab_init(&g->tables, sizeof(uint64_t));
	for (size_t i = 0; i < NELEM(builtin_tables); i++)
		(void)hashtab_put(&g->tables, name_hash(builtin_tables[i]),
		    NULL);
	rc = sqlite3_prepare_v2(db, "SELECT name FROM main.sqlite_schema "
	    "WHERE type IN ('table', 'view') UNION ALL SELECT name FROM "
	    "temp.sqlite_schema WHERE type IN ('table', 'view')", -1, &s,
	    NULL);
	if (rc != SQLITE_OK)
		return rc;
	/* The first use of an eponymous virtual table on a connection
	 * registers it, which SQLite authorizes as an UPDATE of
	 * sqlite_master: json_each and json_tree are registered here, so
	 * that every other table-valued function (pragma_*, dbstat) is
	 * refused by that UPDATE or by its name. */
	rc = sqlite3_exec(db, "SELECT 1 FROM json_each('[]'), "
	    "json_tree('[]')", NULL, NULL, NULL);
	while (rc == SQLITE_OK) {
		rc = sqlite3_step(s);
		if (rc != SQLITE_ROW)
			break;
		if (sqlite3_column_text(s, 0) != NULL)
			(void)hashtab_put(&g->tables, name_hash((const char *)
			    sqlite3_column_text(s, 0)), NULL);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return rc;
	return bounded_install(g, db, st);
}

void
guard_free(struct rule_guard *g)
{
	hashtab_free(&g->tables);
	g->fns = NULL;              /* the connection's until it closes */
}

/*
 * 1 when the sweep writes table name of main in its transaction (the
 * slot sweep's tables, the rules' own), so that a rule reading it
 * in parallel with the sweep would not see this run's rows; else 0.
 */
static int
sweep_writes(const char *name)
{
	static const char *const written[] = { "conflicts",
	    "conflict_members", "sweep_runs", "rule_violations",
	    "violation_facts", "rule_runs", "mirror_meta" };

	for (size_t i = 0; i < NELEM(written); i++)
		if (strcasecmp(name, written[i]) == 0)
			return 1;
	return 0;
}

/* 1 when the function name is one of pure[] or json*; else 0. */
static int
is_pure(const char *name)
{
	if (name == NULL)
		return 0;
	if (strncasecmp(name, "json", 4) == 0)
		return 1;
	for (size_t i = 0; i < NELEM(pure); i++)
		if (strcasecmp(name, pure[i]) == 0)
			return 1;
	return 0;
}

/*
 * Note what reading column of table of dbname (main or temp) means for
 * a key of the rule (rules_keep): a digest table's bit, nothing for
 * json_each and json_tree (they read what they are given), or unkeyed.
 * temp.project_alias is made of the projects' ids and aliases.
 */
static void
note_read(struct rule_guard *g, const char *table, const char *column,
    const char *dbname)
{
	int t = -1;

	if (strcasecmp(table, "json_each") == 0 ||
	    strcasecmp(table, "json_tree") == 0)
		return;
	if (strcmp(dbname, "main") == 0 && column != NULL)
		t = facts_digest_column(table, column);
	else if (strcmp(dbname, "temp") == 0 &&
	    strcasecmp(table, "project_alias") == 0)
		t = 0;
	if (t >= 0)
		g->reads |= 1u << t;
	else
		g->unkeyed = 1;
}

/* What action is, in words, for the message of a refusal. */
static const char *
action_words(int action)
{
	switch (action) {
	case SQLITE_INSERT: return "INSERT into";
	case SQLITE_UPDATE: return "UPDATE of";
	case SQLITE_DELETE: return "DELETE from";
	case SQLITE_ATTACH: return "ATTACH of";
	case SQLITE_DETACH: return "DETACH of";
	case SQLITE_PRAGMA: return "PRAGMA";
	case SQLITE_TRANSACTION: return "transaction control";
	case SQLITE_SAVEPOINT: return "SAVEPOINT";
	case SQLITE_FUNCTION: return "the function";
	case SQLITE_READ: return "reading";
	case SQLITE_ALTER_TABLE: return "ALTER TABLE";
	case SQLITE_ANALYZE: return "ANALYZE";
	case SQLITE_REINDEX: return "REINDEX";
	case SQLITE_CREATE_VTABLE: return "CREATE VIRTUAL TABLE";
	case SQLITE_DROP_VTABLE: return "DROP VIRTUAL TABLE";
	default:
		break;
	}
	if ((action >= SQLITE_CREATE_INDEX && action <= SQLITE_CREATE_VIEW))
		return "CREATE";
	if (action >= SQLITE_DROP_INDEX && action <= SQLITE_DROP_VIEW)
		return "DROP";
	return "a statement other than SELECT";
}

/*
 * The authorizer (sqlite3_set_authorizer): SQLITE_OK for what a rule
 * may do, SQLITE_DENY for the rest, keeping the first refusal.
 */
static int
guard_auth(void *ctx, int action, const char *a3, const char *a4,
    const char *dbname, const char *trigger)
{
	struct rule_guard *g = ctx;
	int w = 0;

	(void)trigger;
	switch (action) {
	case SQLITE_SELECT:
	case SQLITE_RECURSIVE:
		return SQLITE_OK;
	case SQLITE_READ:
		/* No schema: a common table expression of the rule's. */
		if (dbname == NULL)
			return SQLITE_OK;
		if ((strcmp(dbname, "main") == 0 ||
		    strcmp(dbname, "temp") == 0) && a3 != NULL &&
		    hashtab_get(&g->tables, name_hash(a3)) != NULL) {
			if (strcmp(dbname, "main") == 0 && sweep_writes(a3))
				g->reads_sweep = 1;
			note_read(g, a3, a4, dbname);
			return SQLITE_OK;
		}
		break;
	case SQLITE_FUNCTION:
		if (is_pure(a4))
			return SQLITE_OK;
		break;
	default:
		break;
	}
	if (g->denied[0] != '\0' && !g->weak)
		return SQLITE_DENY;
	g->weak = a3 != NULL && strcmp(a3, "sqlite_master") == 0;
	if (action == SQLITE_FUNCTION)
		w = snprintf(g->denied, sizeof(g->denied), "the function "
		    "%s()", a4 != NULL ? a4 : "?");
	else if ((action == SQLITE_INSERT || action == SQLITE_DELETE) &&
	    a3 != NULL && (strcmp(a3, "sqlite_master") == 0 ||
	    strcmp(a3, "sqlite_temp_master") == 0))
		w = snprintf(g->denied, sizeof(g->denied), "%s of a table, "
		    "index, view or trigger", action == SQLITE_INSERT ?
		    "CREATE" : "DROP");
	else if (action == SQLITE_UPDATE && a3 != NULL &&
	    strcmp(a3, "sqlite_master") == 0)
		/* A table-valued function other than json_each and
		 * json_tree registering itself (see guard_init). */
		w = snprintf(g->denied, sizeof(g->denied), "a table-valued "
		    "function: PRAGMA or an extension's; only json_each and "
		    "json_tree are allowed");
	else
		w = snprintf(g->denied, sizeof(g->denied), "%s%s%s",
		    action_words(action), a3 != NULL ? " " : "",
		    a3 != NULL ? a3 : "");
	if (w < 0 || (size_t)w >= sizeof(g->denied))
		g->denied[sizeof(g->denied) - 1] = '\0';
	return SQLITE_DENY;
}

void
guard_arm(struct rule_guard *g, sqlite3 *db)
{
	g->denied[0] = '\0';
	g->weak = 0;
	g->reads_sweep = 0;
	g->reads = 0;
	g->unkeyed = 0;
	g->old_length = sqlite3_limit(db, SQLITE_LIMIT_LENGTH,
	    RULE_MAX_LENGTH);
	sqlite3_set_authorizer(db, guard_auth, g);
	if (g->fns != NULL)
		g->fns->armed = 1;
}

void
guard_disarm(struct rule_guard *g, sqlite3 *db)
{
	if (g->fns != NULL)
		g->fns->armed = 0;
	sqlite3_set_authorizer(db, NULL, NULL);
	(void)sqlite3_limit(db, SQLITE_LIMIT_LENGTH, g->old_length);
}
