/*
 * rules_learn.c: what each rule of a sweep reads (rule_reads), for its
 * key: learnt by preparing the rule twice (as written, and under
 * EXPLAIN), some ten milliseconds on the path of every build that
 * sweeps; or known from the user's cache (sys/cache.h), where a run
 * that learnt it for the same rules on the same schema kept it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "rules/rules_int.h"
#include "store/digest.h"
#include "sys/cache.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The cache's kind, and what its key folds first: bumped when what
 * rule_reads answers for the same text and schema changes. */
#define READS_KIND "rule-reads"
#define READS_TAG "mirror-rule-reads/2"

/* The most bytes of a kept entry: a line a rule. */
#define READS_MAX ((size_t)1 << 20)

/* 1 when rule r is learnt (a readable rule with an id), else 0. */
static int
learnable(const struct rule *r)
{
	return r->error == NULL && r->id != NULL;
}

/* Fold the rows of db's schema (main or temp) into *h. Returns 0, or
 * -1 when it cannot be read. */
static int
fold_schema(uint64_t *h, sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL);

	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		for (int i = 0; i < 4; i++)
			*h = hash_add_str(*h, (const char *)sqlite3_column_text(
			    s, i));
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * The cache key of what todo[0..n) read on c's schema into key: this
 * mirror's and SQLite's versions, both schemas (every table, view,
 * index and trigger, as the guard and the planner see them), each
 * rule and the parameters' overrides (a rule that cannot bind them is
 * not keyable). Returns 0, or -1 when the schema cannot be read.
 */
static int
reads_key(char key[17], const struct rule_conn *c,
    const struct rule *const *todo, size_t n)
{
	uint64_t h = hash_add_str(MIRROR_HASH_INIT, READS_TAG);

	h = hash_add_str(h, MIRROR_VERSION);
	h = hash_add_str(h, sqlite3_libversion());
	if (fold_schema(&h, c->db, "SELECT type, name, tbl_name, sql FROM "
	    "main.sqlite_schema ORDER BY rowid") < 0 || fold_schema(&h,
	    c->db, "SELECT type, name, tbl_name, sql FROM temp.sqlite_schema "
	    "ORDER BY rowid") < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		h = hash_add_str(rule_fold(h, todo[i]), learnable(todo[i]) ?
		    "1" : "0");
	hash_hex(key, hash_mix(rules_overrides_fold(h, c->rs)));
	return 0;
}

/* out[0..n) from the kept text t, a line "KEYABLE TABLES CLOCK" a
 * rule. Returns 1, or 0 when t is not such a text (out is then the
 * caller's to learn again). */
static int
reads_parse(struct rule_reads *out, size_t n, const char *t)
{
	for (size_t i = 0; i < n; i++) {
		unsigned keyable, tables, clock;
		int used = -1;

		if (sscanf(t, "%1u %3u %1u\n%n", &keyable, &tables, &clock,
		    &used) != 3 || used < 0 || keyable > 1 ||
		    clock > RULE_CLOCK_DAY || tables >= 1u << DIGEST_TABLES)
			return 0;
		out[i] = (struct rule_reads){ (int)keyable, tables,
		    (int)clock };
		t += used;
	}
	return *t == '\0';
}

int
rules_learn(struct rule_reads *out, struct rule_conn *c,
    const struct rule *const *todo, size_t n, mirror_error *err)
{
	char key[17];
	strbuf t;
	int cached, rc = 0;

	memset(out, 0, n * sizeof(*out));
	strbuf_init(&t);
	cached = reads_key(key, c, todo, n) == 0;
	if (cached && cache_get_text(&t, READS_MAX, READS_KIND, key,
	    strlen(key)) == 0 && reads_parse(out, n, t.data)) {
		strbuf_free(&t);
		return 0;
	}
	memset(out, 0, n * sizeof(*out));
	strbuf_reset(&t);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (learnable(todo[i]))
			rc = rule_reads(&out[i], c, todo[i], err);
		strbuf_printf(&t, "%d %u %d\n", out[i].keyable,
		    out[i].tables, out[i].clock);
	}
	if (rc == 0 && cached)
		cache_put(READS_KIND, key, strlen(key), t.data, t.len);
	strbuf_free(&t);
	return rc;
}
