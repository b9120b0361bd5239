/*
 * rules_run.c: every rule of a sweep (see rules.h and doc/rules.md).
 *
 * rules_start gathers what runs (the set's rules, then the rows of the
 * store's mirror_rules) and, when the machine has a second core, starts
 * evaluating them on a thread with a second, read-only connection whose
 * snapshot is the sweep's own (see parallel_main), so it sees the facts
 * the sweep sees. A
 * rule that reads a table the sweep writes (conflicts, the rule tables)
 * would not see this run's rows there, so it is left to the sweep's
 * connection. The sweep's connection keeps its dirty pages in memory
 * meanwhile (cache_spill off, set by the sweep before its BEGIN: SQLite
 * applies it to the pager only outside a transaction), so it never
 * needs the lock the reader holds. rules_finish records every rule in the set's order, each as
 * soon as the thread is done with it (evaluating on the sweep's
 * connection what the thread left): the result is the same whichever
 * connection evaluated a rule. While the sweep waits for the thread, its
 * connection evaluates the last rules the thread has not begun (from the
 * end of the list, the thread going on from its start), so that what is
 * left runs on two cores. On two cores the thread waits while the
 * sweep's second scan runs (jobs_side_wait).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules_int.h"
#include "sys/jobs.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "sys/termtext.h"
#include "sys/work.h"
#include "util/text.h"
#include "util/xalloc.h"

#ifdef MIRROR_TEST_HOOKS
void (*rules_test_begin)(const char *rule_id);
#endif

/* The second connection's page cache, in KiB (negative: a size):
 * 16 MiB, a bound on what it adds to the process, grown only as used. */
#define RULE_CACHE_PRAGMA "-16384"

/* How much of the store the second connection reads through a memory
 * map, in bytes: 16 MiB, as much again as its cache may hold. Pages in
 * the map are read in place, not copied into the cache by a read() each
 * (the starter rules at 100,000 facts: a quarter of their CPU time);
 * those beyond it go through the cache as before. */
#define RULE_MMAP_PRAGMA "16777216"

/* The mirror_meta key of a rule's inputs is KEY_PREFIX and its id:
 * the keys are those between KEY_PREFIX and KEY_END (':' + 1). A job
 * runs on a store opened for writing with the rule tables, which
 * store_open gave mirror_meta too. */
#define KEY_PREFIX "rule_input:"
#define KEY_END "rule_input;"

/* What a rule's key (rules_keep) needs and decides. */
struct rule_key {
	struct rule_reads reads;     /* what it reads (rule_reads) */
	char stored[17];             /* the key mirror_meta holds, "" */
	long long stored_hits;       /* the hits recorded with it */
	char key[17];                /* this run's (rules_keep), "" */
	int kept;                    /* key is stored: not evaluated
	                                (set under mu while a thread
	                                runs) */
	int ok;                      /* recorded without a failure */
	long long hits;              /* its rule_runs row's */
};

/* A sweep's keys but the tables' sums (rules_key_later). */
struct rule_keys {
	long long version;           /* the job's data_version */
	char *run_id;
	struct later_key {
		char *id;
		uint64_t base;       /* key_base's */
		unsigned tables;     /* rule_reads' */
		long long hits;
	} *v;
	size_t n;
};

/* The rules of one sweep, from rules_start to rules_finish. */
struct rules_job {
	mirror_store *st;            /* the sweep's connection */
	sqlite3 *db;
	const struct rule_set *rs;
	char *now;                   /* the sweep's time, a copy */
	long long version;           /* st's data_version when made
	                                (rules_prepare_early), else -1 */
	struct rule_set store_rules; /* rows of mirror_rules */
	strbuf early;                /* mirror_rules unreadable: its line */
	int early_failed;
	const struct rule **todo;    /* what runs, in recording order: */
	size_t nset, n;              /* the set's first, nset of them */
	struct rule_eval *ev;        /* todo[i]'s evaluation */
	/* Beside the sweep (reader NULL: none). */
	mirror_store *reader;
	struct rule_conn parallel;
	pthread_t thread;
	int started;                 /* the thread runs (until joined) */
	int reading;                 /* the thread has its connection */
	int brc;                     /* the thread's: 0 or < 0 */
	/* What the thread is done with: todo[0..done) (all of them once
	 * it ended); brc, berr and ev[0..done) are the sweep's to read
	 * after it saw done under mu. */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t done;
	int stop;                    /* abandoned: the thread stops */
	sqlite3 *live;               /* the reader while it may be
	                                interrupted (NULL: not) */
	size_t evaluating;           /* 1 + the rule the thread evaluates,
	                                0: none (rules_keep interrupts it
	                                when kept) */
	size_t begun;                /* the thread took todo[0..begun) */
	size_t end;                  /* it stops at todo[end]: those after
	                                are the sweep's connection's, taken
	                                while it waited (wait_for) */
	int sync;                    /* mu and cv are initialized */
	int may_go;                  /* rules_go may start the thread */
	mirror_error berr;
	/* Recording, in rules_finish. */
	struct rule_conn own;        /* the sweep's connection, for what
	                                is left */
	int own_ready;
	struct rule_rec rec;
	const char **ran;            /* ids with a rule_runs row */
	size_t nran, capran;
	int unnamed;                 /* a rule with no readable id failed */
	/* Keys (rules_prepare_early, rules_keep): NULL for a job made
	 * inside the sweep, which removes the store's. */
	struct rule_key *keys;       /* todo[i]'s */
	int keyed;                   /* rules_keep made this run's keys */
	int later;                   /* rules_key_later: keys after it */
	long long budget;            /* MIRROR_RULE_STEPS, in the keys */
};

/* One failure into the run's told lines: "mirror: rule ID (ORIGIN):
 * why", why folded onto one line. */
static void
tell(strbuf *sb, const char *id, const char *origin, const char *why)
{
	strbuf_puts(sb, "mirror: rule ");
	termtext_escape(sb, id != NULL ? id : "?", strlen(id != NULL ? id :
	    "?"));
	strbuf_puts(sb, " (");
	termtext_escape(sb, origin, strlen(origin));
	strbuf_puts(sb, "): ");
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
	rules_keys_free(k->later);
	k->later = NULL;
}

/* The id as recorded when id already has a rule_runs row in this run,
 * else NULL. */
static const char *
ran_already(const struct rules_job *c, const char *id)
{
	for (size_t i = 0; i < c->nran; i++)
		if (strcmp(c->ran[i], id) == 0)
			return c->ran[i];
	return NULL;
}

/* Text of column i, "" for NULL. */
static const char *
ctext(sqlite3_stmt *s, int i)
{
	const char *v = (const char *)sqlite3_column_text(s, i);

	return v != NULL ? v : "";
}

/* A column as a new string ("" for NULL). */
static char *
cdup(sqlite3_stmt *s, int i)
{
	return xstrdup(ctext(s, i));
}

/* One row of mirror_rules as a rule of c->store_rules. */
static void
store_rule(struct rules_job *c, sqlite3_stmt *s)
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
load_store_rules(struct rules_job *c, mirror_error *err)
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
		tell(&c->early, NULL, "store:mirror_rules",
		    sqlite3_errmsg(c->db));
		c->early_failed = 1;
		return 0;
	}
	/* A row that is not rule text stops the sweep (rules_load.c). */
	while ((rc = sqlite3_step(s)) == SQLITE_ROW &&
	    (rc = rules_row_check(c->st, s, err)) == 0)
		store_rule(c, s);
	sqlite3_finalize(s);
	if (rc < 0)
		return rc;
	return rc == SQLITE_DONE ? 0 : store_fail(c->st, err, rc,
	    "rules: read mirror_rules");
}

/*
 * Close the open violations of every rule that has no rule_runs row in
 * this run (gone from the set, or off), unless a rule with no readable
 * id failed (it may be theirs). Returns 0, or < 0 with err set.
 */
static int
close_orphans(struct rules_job *c, mirror_error *err)
{
	sqlite3_stmt *s = NULL;
	char **gone = NULL;
	size_t n = 0, cap = 0;
	int rc;

	if (c->unnamed || c->early_failed)
		return 0;
	/* The distinct rule ids in order, one step of the open violations'
	 * index (rule_violations_one_open) each: a DISTINCT read every open
	 * violation. */
	rc = sqlite3_prepare_v2(c->db, "WITH RECURSIVE r(id) AS (SELECT "
	    "(SELECT min(rule_id) FROM main.rule_violations WHERE status = "
	    "'open') UNION ALL SELECT (SELECT min(rule_id) FROM "
	    "main.rule_violations WHERE status = 'open' AND rule_id > r.id) "
	    "FROM r WHERE r.id IS NOT NULL) SELECT id FROM r WHERE id IS "
	    "NOT NULL", -1, &s, NULL);
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


/* The thread broke the store (rc < 0, e): tell the sweep. */
static void
set_failed(struct rules_job *j, int rc, const mirror_error *e)
{
	pthread_mutex_lock(&j->mu);
	j->brc = rc;
	j->berr = *e;
	pthread_mutex_unlock(&j->mu);
}

/* The thread is done with todo[0..k): tell the sweep. */
static void
set_done(struct rules_job *j, size_t k)
{
	pthread_mutex_lock(&j->mu);
	j->done = k;
	pthread_cond_signal(&j->cv);
	pthread_mutex_unlock(&j->mu);
}

static int evaluated(struct rules_job *j, size_t i, mirror_error *err);

/*
 * Wait until the thread (when there is one) is done with todo[i], so
 * that the sweep may record it while the thread goes on with the next
 * ones. Meanwhile the sweep's connection evaluates the last rule the
 * thread has not begun, from the end, while the thread has another
 * one yet to begin (and so evaluates one at least): two cores on what
 * is left, not one while the sweep waits. Returns 0, or the thread's
 * error or the sweep's (< 0, into err).
 */
static int
wait_for(struct rules_job *j, size_t i, mirror_error *err)
{
	int rc = 0;

	if (!j->started)
		return j->brc < 0 ? (*err = j->berr, j->brc) : 0;
	pthread_mutex_lock(&j->mu);
	while (j->done <= i && j->end > i) {
		if (j->end > j->begun + 1 && j->brc == 0 && !j->stop) {
			size_t k = --j->end;

			pthread_mutex_unlock(&j->mu);
#ifdef MIRROR_TEST_HOOKS
			if (j->todo[k]->error == NULL && rules_test_begin !=
			    NULL)
				rules_test_begin(j->todo[k]->id);
#endif
			if (j->todo[k]->error == NULL)
				rc = evaluated(j, k, err);
			pthread_mutex_lock(&j->mu);
			if (rc < 0)
				break;
			continue;
		}
		pthread_cond_wait(&j->cv, &j->mu);
	}
	if (rc == 0 && (rc = j->brc) < 0)
		*err = j->berr;
	pthread_mutex_unlock(&j->mu);
	return rc;
}

/*
 * The thread in parallel with the sweep: open the second connection and take
 * its snapshot, then evaluate every readable rule in order until one breaks
 * the store. Whenever it starts, the snapshot is the sweep's: the sweep holds
 * the write lock from before rules_start until it commits, after rules_finish,
 * and keeps its changes out of the file meanwhile (cache_spill off; in WAL
 * mode no reader sees them before the commit anyway). Without a connection it
 * leaves every rule to rules_finish.
 */
static void *
parallel_main(void *arg)
{
	struct rules_job *j = arg;
	mirror_error e;

	mirror_error_clear(&e);
	/* Its alias table is a copy of the sweep's connection's, which
	 * read every project already (store_open_beside). */
	if (store_open_beside(&j->reader, j->st, STORE_READ, &e) < 0 ||
	    store_read_begin(j->reader, &e) < 0) {
		store_close(j->reader);
		j->reader = NULL;
		return NULL;
	}
	/* The rules read the same tables again and again (most of them
	 * entities): from a cache that holds them on a bench store, not
	 * from the file each time (SQLite's default is 2 MiB), and the
	 * store's first pages in place through a map. */
	(void)sqlite3_exec(store_db(j->reader), "PRAGMA cache_size = "
	    RULE_CACHE_PRAGMA "; PRAGMA mmap_size = " RULE_MMAP_PRAGMA,
	    NULL, NULL, NULL);
	if (rconn_init(&j->parallel, j->reader, j->rs, j->now, 1, &e) < 0)
		return NULL;
	j->reading = 1;
	pthread_mutex_lock(&j->mu);
	j->live = store_db(j->reader);
	pthread_mutex_unlock(&j->mu);
	for (size_t i = 0; i < j->n; i++) {
		int rc = 0, stop, eval, dropped;

		/* A core of its own: not one the sweep's scans need. */
		jobs_side_wait();
		pthread_mutex_lock(&j->mu);
		stop = j->stop || i >= j->end;
		if (!stop)
			j->begun = i + 1;
		eval = !stop && j->todo[i]->error == NULL &&
		    !(j->keys != NULL && j->keys[i].kept);
		j->evaluating = eval ? i + 1 : 0;
		pthread_mutex_unlock(&j->mu);
		if (stop)
			break;

#ifdef MIRROR_TEST_HOOKS
		if (eval && rules_test_begin != NULL)
			rules_test_begin(j->todo[i]->id);
#endif
		if (eval)
			rc = rule_eval(&j->parallel, j->todo[i], &j->ev[i],
			    &e);
		/* Kept meanwhile (rules_keep interrupted it): whatever the
		 * evaluation gave, the rule is not evaluated. */
		pthread_mutex_lock(&j->mu);
		j->evaluating = 0;
		dropped = eval && j->keys != NULL && j->keys[i].kept;
		pthread_mutex_unlock(&j->mu);
		if (dropped) {
			rule_eval_free(&j->ev[i]);
			mirror_error_clear(&e);
			rc = 0;
			/* An interrupted SELECT keeps the read (SQLite rolls
			 * back only writes); should it end, the rules left
			 * are the sweep's connection's, on its snapshot. */
			if (sqlite3_get_autocommit(store_db(j->reader)))
				break;
		}
		if (rc < 0) {
			set_failed(j, rc, &e);
			break;
		}
		if (i + 1 < j->n)
			set_done(j, i + 1);
	}
	return NULL;
}

/* Close the second connection, when it is open (no longer to be
 * interrupted first). */
static void
reader_close(struct rules_job *j)
{
	if (j->sync) {
		pthread_mutex_lock(&j->mu);
		j->live = NULL;
		pthread_mutex_unlock(&j->mu);
	}
	if (j->reader != NULL) {
		rconn_free(&j->parallel);
		store_read_end(j->reader);
		store_close(j->reader);
		j->reader = NULL;
	}
}

/* The thread's body, then every rule handed over (those it did not
 * evaluate are the sweep's connection's to evaluate); then it closes
 * its connection while the sweep records (off the sweep's path). */
static void *
parallel_run(void *arg)
{
	struct rules_job *j = arg;

	/* Every row this thread steps is the rules' (sys/work.h). */
	(void)work_rows_into(&work_rule_rows);
	(void)parallel_main(j);
	set_done(j, j->n);
	reader_close(j);
	return NULL;
}

/* Stop what runs in parallel with the sweep: join the thread (which ends its
 * read transaction, before the sweep may commit), close the second
 * connection when the thread did not. */
static void
parallel_stop(struct rules_job *j)
{
	if (j->started)
		(void)pthread_join(j->thread, NULL);
	j->started = 0;
	reader_close(j);
}

/*
 * Start evaluating j's rules in parallel with the sweep, when a thread can be
 * had. Never fails: without it, or without the second connection,
 * every rule is evaluated on the sweep's connection in rules_finish.
 */
static void
parallel_start(struct rules_job *j)
{
	if (pthread_mutex_init(&j->mu, NULL) != 0)
		return;
	if (pthread_cond_init(&j->cv, NULL) != 0) {
		pthread_mutex_destroy(&j->mu);
		return;
	}
	j->sync = 1;
	if (jobs_thread_start(&j->thread, "rules", parallel_run, j) != 0) {
		parallel_stop(j);
		return;
	}
	j->started = 1;
}

/* Free j and everything it holds (the thread stopped first). */
static void
job_free(struct rules_job *j)
{
	if (j == NULL)
		return;
	parallel_stop(j);
	if (j->sync) {
		pthread_cond_destroy(&j->cv);
		pthread_mutex_destroy(&j->mu);
	}
	if (j->own_ready)
		rconn_free(&j->own);
	for (size_t i = 0; i < j->n; i++)
		rule_eval_free(&j->ev[i]);
	for (size_t i = 0; i < j->n; i++)
		strbuf_free(&j->ev[i].why);   /* rule_eval_free left it empty */
	free(j->ev);
	free(j->todo);
	free(j->ran);
	free(j->keys);
	free(j->now);
	rules_free(&j->store_rules);
	strbuf_free(&j->early);
	free(j);
}

/* Make *out, the job of running rs on st at now: what runs (rules_start
 * starts its evaluation in parallel). Returns 0, or < 0 with err set
 * and *out NULL. */
static int
job_start(struct rules_job **out, mirror_store *st,
    const struct rule_set *rs, const char *now, mirror_error *err)
{
	struct rules_job *j;
	size_t cap = 0;
	int rc;

	*out = NULL;
	if (!store_features(st)->has_rule_tables)
		return mirror_fail(err, MIRROR_EINPUT, "store %s: no rule "
		    "tables (open it for writing first)", store_path(st));
	j = xcalloc(1, sizeof(*j));
	j->st = st;
	j->db = store_db(st);
	j->rs = rs;
	j->now = xstrdup(now);
	j->version = -1;
	strbuf_init(&j->early);
	if ((rc = load_store_rules(j, err)) < 0) {
		job_free(j);
		return rc;
	}
	for (size_t i = 0; i < rs->n; i++)
		if (!rs->v[i].replaced && rs->v[i].severity != RULE_OFF)
			ARRAY_PUSH(j->todo, j->n, cap) = &rs->v[i];
	j->nset = j->n;
	for (size_t i = 0; i < j->store_rules.n; i++)
		if (j->store_rules.v[i].severity != RULE_OFF)
			ARRAY_PUSH(j->todo, j->n, cap) = &j->store_rules.v[i];
	j->end = j->n;
	j->ev = xcalloc(j->n > 0 ? j->n : 1, sizeof(*j->ev));
	for (size_t i = 0; i < j->n; i++)
		strbuf_init(&j->ev[i].why);
	*out = j;
	return 0;
}

int
rules_start(struct rules_job **out, mirror_store *st,
    const struct rule_set *rs, const char *now, mirror_error *err)
{
	int rc = job_start(out, st, rs, now, err);

	if (rc == 0 && (*out)->n > 0 && mirror_jobs() > 1)
		parallel_start(*out);
	return rc;
}

/* The keys mirror_meta holds, into the rules of j with their ids.
 * Returns 0, or < 0 with err set. */
static int
read_keys(struct rules_job *j, mirror_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	/* A key holds while the sweep that wrote it is the store's
	 * latest: any other sweep (another program's too) may have changed
	 * the violations since. */
	rc = sqlite3_prepare_v2(j->db, "SELECT substr(key, "
	    "length('" KEY_PREFIX "') + 1), value, (SELECT id FROM "
	    "main.sweep_runs ORDER BY rowid DESC LIMIT 1) FROM "
	    "main.mirror_meta WHERE key > '" KEY_PREFIX "' AND key < '"
	    KEY_END "'", -1, &s, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		char key[17];
		long long hits;
		int at = -1;

		rc = SQLITE_OK;
		if (sscanf(ctext(s, 1), "%16[0-9a-f] %lld %n", key, &hits,
		    &at) != 2 || at < 0 || strlen(key) != 16 ||
		    strcmp(ctext(s, 1) + at, ctext(s, 2)) != 0)
			continue;     /* not a key: the rule is evaluated */
		for (size_t i = 0; i < j->n; i++)
			if (j->todo[i]->id != NULL &&
			    strcmp(j->todo[i]->id, ctext(s, 0)) == 0) {
				memcpy(j->keys[i].stored, key, sizeof(key));
				j->keys[i].stored_hits = hits;
			}
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(j->st, err, rc,
	    "rules: read mirror_meta");
}

/*
 * What each rule of j reads (rules_learn: prepared on j->st under a
 * guard of its own, so the sweep's connection learns its tables later,
 * as before, or as the user's cache kept it) and the keys the store
 * holds. Returns 0, or < 0 with err set.
 */
static int
learn_keys(struct rules_job *j, mirror_error *err)
{
	struct rule_reads *reads = xcalloc(j->n + 1, sizeof(*reads));
	struct rule_conn learn;
	int rc;

	j->keys = xcalloc(j->n + 1, sizeof(*j->keys));
	rc = rconn_init(&learn, j->st, j->rs, j->now, 0, err);
	j->budget = learn.budget_msteps;
	if (rc == 0)
		rc = rules_learn(reads, &learn, j->todo, j->n, err);
	for (size_t i = 0; rc == 0 && i < j->n; i++)
		j->keys[i].reads = reads[i];
	free(reads);
	rconn_free(&learn);
	return rc < 0 ? rc : read_keys(j, err);
}

/* What r's key hashes but the tables' sums (rules_keep says what). */
static uint64_t
key_base(const struct rules_job *j, const struct rule *r,
    const struct rule_reads *reads)
{
	uint64_t h = hash_add_str(MIRROR_HASH_INIT, "mirror-rule-key/2");
	char n[32];
	int w;

	h = rules_overrides_fold(rule_fold(h, r), j->rs);
	w = snprintf(n, sizeof(n), "%lld", j->budget);
	h = hash_add_str(h, w > 0 && (size_t)w < sizeof(n) ? n : "?");
	/* A rule reading :today holds until the day changes. */
	if (reads->clock == RULE_CLOCK_DAY)
		return hash_add(hash_add_str(h, "day"), j->now,
		    strnlen(j->now, RULES_TODAY_LEN));
	return hash_add_str(h, reads->clock != 0 ? j->now : "");
}

/* The key of base (key_base) for a rule reading tables (a bit per
 * digest table), with d's sums, into out. */
static void
key_seal(char out[17], uint64_t base, unsigned tables,
    const struct store_digest *d)
{
	uint64_t h = base;

	/* The projects always: the violations' projects go through them. */
	for (int t = 0; t < DIGEST_TABLES; t++)
		if (t == 0 || (tables & (1u << t)) != 0) {
			unsigned char b[9];

			b[0] = (unsigned char)t;
			for (int k = 0; k < 8; k++)
				b[1 + k] = (unsigned char)(d->tables[t] >>
				    (8 * k));
			h = hash_add(h, b, sizeof(b));
		}
	hash_hex(out, hash_mix(h));
}

void
rules_keep(struct rules_job *job, const struct store_digest *d)
{
	if (job == NULL || job->keys == NULL || d == NULL || !d->tables_set)
		return;
	if (job->sync)
		pthread_mutex_lock(&job->mu);
	for (size_t i = 0; i < job->n; i++) {
		struct rule_key *k = &job->keys[i];

		if (!k->reads.keyable)
			continue;
		key_seal(k->key, key_base(job, job->todo[i], &k->reads),
		    k->reads.tables, d);
		k->kept = k->stored[0] != '\0' &&
		    strcmp(k->key, k->stored) == 0;
	}
	job->keyed = 1;
	/* The rule the thread evaluates now is not to be waited for. */
	if (job->evaluating > 0 && job->keys[job->evaluating - 1].kept &&
	    job->live != NULL)
		sqlite3_interrupt(job->live);
	if (job->sync)
		pthread_mutex_unlock(&job->mu);
}

int
rules_may_keep(const struct rules_job *job)
{
	if (job == NULL || job->keys == NULL)
		return 0;
	for (size_t i = 0; i < job->n; i++)
		if (job->keys[i].reads.keyable && job->keys[i].stored[0] != '\0')
			return 1;
	return 0;
}

int
rules_prepare_early(struct rules_job **out, mirror_store *st,
    const struct rule_set *rs, const char *now, mirror_error *err)
{
	long long v;
	int rc;

	*out = NULL;
	if ((rc = store_data_version(&v, st, err)) < 0 ||
	    (rc = job_start(out, st, rs, now, err)) < 0)
		return rc;
	(*out)->version = v;
	if ((rc = learn_keys(*out, err)) < 0) {
		job_free(*out);
		*out = NULL;
		return rc;
	}
	(*out)->may_go = (*out)->n > 0 && mirror_jobs() > 1;
	return 0;
}

void
rules_go(struct rules_job *job)
{
	if (job != NULL && job->may_go && !job->sync)
		parallel_start(job);
}

int
rules_job_current(const struct rules_job *job, mirror_store *st,
    const struct rule_set *rs, const char *now, mirror_error *err)
{
	long long v;
	int rc;

	if (job->st != st || job->rs != rs || strcmp(job->now, now) != 0 ||
	    job->version < 0)
		return 0;
	if ((rc = store_data_version(&v, st, err)) < 0)
		return rc;
	return v == job->version;
}

void
rules_abandon(struct rules_job *job)
{
	/* Stop the thread between two rules, and interrupt the one it
	 * reads: its results would be thrown away. */
	if (job != NULL && job->sync) {
		pthread_mutex_lock(&job->mu);
		job->stop = 1;
		if (job->live != NULL)
			sqlite3_interrupt(job->live);
		pthread_mutex_unlock(&job->mu);
	}
	job_free(job);
}

/* 1 when todo i is kept and was not evaluated (the thread may have
 * begun it before rules_keep), else 0. The thread is done with it. */
static int
kept(const struct rules_job *j, size_t i)
{
	return j->keys != NULL && j->keys[i].kept &&
	    (j->ev[i].state == EVAL_TODO || j->ev[i].state == EVAL_DEFERRED);
}

/*
 * Todo i's evaluation, made on the sweep's connection when the thread
 * left it (deferred, or no thread). Returns 0, or < 0 with err set.
 */
static int
evaluated(struct rules_job *j, size_t i, mirror_error *err)
{
	struct rule_eval *ev = &j->ev[i];
	int rc;

	if (kept(j, i))
		return 0;
	if (ev->state != EVAL_TODO && ev->state != EVAL_DEFERRED) {
		if (i < j->end)      /* else taken from the thread */
			j->rec.out->parallel++;
		return 0;
	}
	if (!j->own_ready) {
		j->own_ready = 1;
		if ((rc = rconn_init(&j->own, j->st, j->rs, j->now, 0,
		    err)) < 0)
			return rc;
	}
	ev->state = EVAL_TODO;
	return rule_eval(&j->own, j->todo[i], ev, err);
}

/*
 * Todo i from its evaluation to its rule_runs row: record its
 * violations when it ran, tell its failure when it did not. Returns 0,
 * or < 0 with err set when the store failed.
 */
static int
record_one(struct rules_job *j, size_t i, mirror_error *err)
{
	const struct rule *r = j->todo[i];
	struct rule_eval *ev = &j->ev[i];
	struct rule_run_row row;
	const char *why = NULL;
	strbuf desc;
	int rc;

	if ((rc = wait_for(j, i, err)) < 0)
		return rc;
	if (r->id != NULL && ran_already(j, r->id)) {
		strbuf_reset(&ev->why);
		strbuf_printf(&ev->why, "the id %s is taken by another rule, "
		    "which runs instead", r->id);
		why = ev->why.data;
	} else if (r->error != NULL)
		why = r->error;
	else if ((rc = evaluated(j, i, err)) < 0)
		return rc;
	else if (ev->state == EVAL_FAILED)
		why = ev->why.data;
	else if (kept(j, i)) {
		j->rec.out->kept++;
		ev->rows = j->keys[i].stored_hits;
	} else if ((rc = rec_violations(&j->rec, r, ev, err)) < 0)
		return rc;
	if (why != NULL) {
		tell(&j->rec.out->told, r->id, r->origin, why);
		j->rec.out->failed++;
		if (r->id == NULL)
			j->unnamed = 1;
	}
	if (r->id == NULL || ran_already(j, r->id))
		return 0;
	/* The description as run: its parameters' values in words. */
	strbuf_init(&desc);
	rules_fill_params(&desc, j->rs, r, r->description);
	row = (struct rule_run_row){
		.rule_id = r->id,
		.origin = r->origin,
		.severity = severity_word(r->severity),
		.label = r->label[0] != '\0' ? r->label : r->id,
		.description = desc.data,
		.query = r->query,
		.error = why,
		.hits = ev->rows,
		.duration_ms = ev->ms,
	};
	if (j->keys != NULL) {
		j->keys[i].ok = why == NULL;
		j->keys[i].hits = ev->rows;
	}
	ARRAY_PUSH(j->ran, j->nran, j->capran) = r->id;
	rc = rec_run_row(&j->rec, &row, err);
	strbuf_free(&desc);
	return rc;
}

/* Insert a key into mirror_meta: ?1 the rule's id, ?2 its key, ?3 its
 * hits, ?4 the run's id. */
#define PUT_KEY_SQL "INSERT OR REPLACE INTO main.mirror_meta(key, value) " \
	"VALUES ('" KEY_PREFIX "' || ?1, ?2 || ' ' || ?3 || ' ' || ?4)"

/* Step s (PUT_KEY_SQL) once. Returns an SQLite code, SQLITE_OK when
 * the row went in. */
static int
put_key(sqlite3_stmt *s, const char *id, const char *key, long long hits,
    const char *run_id)
{
	int rc;

	sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, key, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, hits);
	sqlite3_bind_text(s, 4, run_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* What the keys of j need but the tables' sums, for rules_keys_write:
 * each rule recorded without a failure that rules_keep could key. */
static struct rule_keys *
keys_later(const struct rules_job *j)
{
	struct rule_keys *l = xcalloc(1, sizeof(*l));
	size_t cap = 0;

	l->version = j->version;
	l->run_id = xstrdup(j->rec.run_id);
	for (size_t i = 0; i < j->n; i++) {
		const struct rule_key *k = &j->keys[i];

		if (k->ok && k->reads.keyable)
			ARRAY_PUSH(l->v, l->n, cap) = (struct later_key){
			    xstrdup(j->todo[i]->id), key_base(j, j->todo[i],
			    &k->reads), k->reads.tables, k->hits };
	}
	return l;
}

/*
 * The store's keys are this run's: every key removed, then, after
 * rules_keep, each rule recorded without a failure given its key and
 * hits and the run's id (a kept rule the same again); without it but
 * with rules_key_later, what rules_keys_write needs into the counts.
 * Returns 0, or < 0 with err set.
 */
static int
write_keys(struct rules_job *j, mirror_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	rc = sqlite3_exec(j->db, "DELETE FROM main.mirror_meta WHERE key > '"
	    KEY_PREFIX "' AND key < '" KEY_END "'", NULL, NULL, NULL);
	if (rc == SQLITE_OK && j->keyed)
		rc = sqlite3_prepare_v2(j->db, PUT_KEY_SQL, -1, &s, NULL);
	for (size_t i = 0; rc == SQLITE_OK && s != NULL && i < j->n; i++) {
		const struct rule_key *k = &j->keys[i];

		if (k->ok && k->key[0] != '\0')
			rc = put_key(s, j->todo[i]->id, k->key, k->hits,
			    j->rec.run_id);
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_OK && !j->keyed && j->later && j->keys != NULL &&
	    j->version >= 0) {
		rules_keys_free(j->rec.out->later);
		j->rec.out->later = keys_later(j);
	}
	return rc == SQLITE_OK ? 0 : store_fail(j->st, err, rc,
	    "rules: write mirror_meta");
}

void
rules_key_later(struct rules_job *job)
{
	if (job != NULL)
		job->later = 1;
}

/* rc, an SQLite code of writing the keys, as rules_keys_write returns
 * it: 0 when busy (another connection writes; the next build keys),
 * else < 0 with err set. */
static int
keys_failed(mirror_store *st, int rc, mirror_error *err)
{
	if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
		return 0;
	return store_fail(st, err, rc, "rules: write the keys to mirror_meta");
}

int
rules_keys_write(const struct rule_keys *later, mirror_store *st,
    const struct store_digest *d, mirror_error *err)
{
	sqlite3 *db = store_db(st);
	sqlite3_stmt *s = NULL;
	long long hold = 0, v;
	int rc;

	if (later == NULL || later->n == 0 || d == NULL || !d->tables_set)
		return 0;
	if ((rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL)) !=
	    SQLITE_OK)
		return keys_failed(st, rc, err);
	/* Its run is the store's latest sweep, no key is there, and no
	 * other connection committed since its job was prepared. */
	if ((rc = store_count(&hold, st, "SELECT (SELECT id FROM "
	    "main.sweep_runs ORDER BY rowid DESC LIMIT 1) IS ?1 AND NOT "
	    "EXISTS (SELECT 1 FROM main.mirror_meta WHERE key > '" KEY_PREFIX
	    "' AND key < '" KEY_END "')", later->run_id, err)) == 0 && hold &&
	    (rc = store_data_version(&v, st, err)) == 0)
		hold = v == later->version;
	if (rc == 0 && hold) {
		int w = sqlite3_prepare_v2(db, PUT_KEY_SQL, -1, &s, NULL);

		for (size_t i = 0; w == SQLITE_OK && i < later->n; i++) {
			const struct later_key *k = &later->v[i];
			char key[17];

			key_seal(key, k->base, k->tables, d);
			w = put_key(s, k->id, key, k->hits, later->run_id);
		}
		sqlite3_finalize(s);
		if (w == SQLITE_OK &&
		    (w = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL)) ==
		    SQLITE_OK)
			return 1;
		rc = keys_failed(st, w, err);
	}
	(void)sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

void
rules_keys_free(struct rule_keys *later)
{
	if (later == NULL)
		return;
	for (size_t i = 0; i < later->n; i++)
		free(later->v[i].id);
	free(later->v);
	free(later->run_id);
	free(later);
}

/* The runs of each rule rule_runs keeps: every sweep writes a row a rule
 * (about 30 KB a sweep of the starter rules, an unchanged store too),
 * the pages read the latest, and nothing else removed the rest. */
#define RULE_RUNS_KEPT "10"

/* Remove each rule's rows of rule_runs but its RULE_RUNS_KEPT latest.
 * Returns 0, or < 0 with err set. */
static int
prune_runs(struct rules_job *j, mirror_error *err)
{
	int rc = sqlite3_exec(j->db, "DELETE FROM main.rule_runs WHERE rowid "
	    "IN (SELECT rowid FROM (SELECT rowid, row_number() OVER "
	    "(PARTITION BY rule_id ORDER BY rowid DESC) AS k FROM "
	    "main.rule_runs) WHERE k > " RULE_RUNS_KEPT ")", NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : store_fail(j->st, err, rc,
	    "rules: remove old rule_runs");
}

/* Record every rule in order, then close the orphans, keep the latest
 * runs and count. The rows a rule's recording steps (its violations,
 * read to open, keep or close them) are the rules' (sys/work.h): as
 * its evaluation's, they depend on whether it was evaluated or kept.
 * Returns 0 or < 0 with err set. */
static int
record_all(struct rules_job *j, mirror_error *err)
{
	int rc = rec_prepare(&j->rec, err);
	struct work_count *was = work_rows_into(&work_rule_rows);

	for (size_t i = 0; rc == 0 && i < j->n; i++) {
		if (i == j->nset && j->early_failed) {
			strbuf_puts(&j->rec.out->told, j->early.data);
			j->rec.out->failed++;
		}
		rc = record_one(j, i, err);
	}
	(void)work_rows_into(was);
	if (rc == 0 && j->n == j->nset && j->early_failed) {
		strbuf_puts(&j->rec.out->told, j->early.data);
		j->rec.out->failed++;
	}
	if (rc == 0)
		rc = close_orphans(j, err);
	if (rc == 0)
		rc = write_keys(j, err);
	if (rc == 0)
		rc = prune_runs(j, err);
	if (rc == 0)
		rc = store_count(&j->rec.out->open_after, j->st, "SELECT "
		    "count(*) FROM main.rule_violations WHERE status = 'open'",
		    NULL, err);
	rec_finalize(&j->rec);
	return rc;
}

int
rules_finish(struct rule_counts *out, struct rules_job *job,
    const char *run_id, mirror_error *err)
{
	int rc;

	memset(out, 0, sizeof(*out));
	strbuf_init(&out->told);
	/* Each rule is recorded as soon as the thread is done with it. */
	job->rec = (struct rule_rec){ .st = job->st, .db = job->db,
	    .run_id = run_id, .now = job->now, .out = out };
	rc = record_all(job, err);
	job_free(job);
	return rc;
}
