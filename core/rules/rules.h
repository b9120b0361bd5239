/*
 * rules.h: declarative consistency rules (doc/rules.md).
 *
 * A rule is a read-only SQL query kept as data, with an id, a severity,
 * a label, a description and named parameters. Rules come from .sql
 * files (the starter set shipped with mirror, then the user's rules
 * directory) and from the optional store-owned table mirror_rules. The
 * sweep runs every rule over the whole store inside its write
 * transaction (core/sweep/sweep.c calls rules_start and rules_finish;
 * the rules may be evaluated in parallel with it) and records what each
 * returns in the mirror-owned tables rule_violations, violation_facts
 * and rule_runs (core/store/store-schema.sql, schema version 2).
 *
 * Who owns what:
 *   - struct rule_set owns every rule and every string in it; the
 *     caller owns the set (rules_init .. rules_free) and keeps it
 *     while a sweep runs with it. Loading never fails because of a
 *     rule: a rule that cannot be read is kept in the set with its
 *     error, and every sweep reports it (flag, never block).
 *   - a struct rules_job owns the rows of mirror_rules it read, its
 *     second connection and its thread; rules_finish or rules_abandon
 *     frees them, and nothing outlives the call. It writes only rule_violations,
 *     violation_facts and rule_runs, and reads the store with every
 *     rule under an authorizer that allows reading alone, a budget
 *     (MIRROR_RULE_STEPS million SQLite VM steps) and a cap on its rows.
 *   - reading violations back for the pages is core/rules/violation.h's,
 *     not this header's.
 */
#ifndef MIRROR_RULES_H
#define MIRROR_RULES_H

#include <stddef.h>
#include <stdio.h>

#include "store/digest.h"
#include "store/store.h"
#include "util/error.h"
#include "util/strbuf.h"

/* A rule's budget, in millions of SQLite VM steps (the environment
 * variable of the same name overrides it): counted, not timed, so a
 * rule stopped by it is stopped on every machine and the pages that
 * show it are the same. The starter rules take a small part of it; the
 * bench measures them (doc/performance.md). */
#define MIRROR_RULE_STEPS 50

/* The most rows one rule may return; one more and it fails. A bound on
 * what a rule holds (a few hundred bytes a row), not on what a real
 * store has: the starter rules stay well under it on the bench's
 * largest store. */
#define RULE_MAX_ROWS 100000

/* The most facts one violation may name. */
#define RULE_MAX_FACTS 1000

/* The longest rule file read, in bytes. */
#define RULE_MAX_FILE (4 * 1024 * 1024)

/* The longest rule id, in bytes. */
#define RULE_ID_MAX 64

enum rule_severity { RULE_OFF, RULE_WARN, RULE_ERROR };

/* Where a rule came from; a later tier's rule replaces an earlier
 * tier's rule of the same id. */
enum rule_tier { RULE_STARTER, RULE_USER, RULE_STORE };

struct rule_param {
	char *name;                 /* without the ':' */
	char *value;                /* bound as an integer when it is one */
};

struct rule {
	char *id;                   /* NULL when the header names none */
	char *origin;               /* "FILE:LINE", or "store:mirror_rules" */
	enum rule_tier tier;
	enum rule_severity severity;
	char *label;                /* "" when not given: the id shows */
	char *description;
	char *query;                /* the statement, as written */
	int sql_line;               /* the file's line the statement starts
	                               at (0: not from a file) */
	struct rule_param *params;  /* the header's defaults, in order */
	size_t nparams;
	char *error;                /* NULL, or why the rule cannot run */
	int replaced;               /* 1: a later tier's rule of its id
	                               runs instead */
};

/* A parameter given outside the rule (param.RULE.NAME in mirror.ini). */
struct rule_override {
	char *rule, *name, *value;
};

struct rule_set {
	struct rule *v;
	size_t n, cap;
	struct rule_override *over;
	size_t nover, capover;
	FILE *diag;                 /* where failures are told, one line
	                               each (NULL: stderr) */
};

/* A sweep's keys to write after it (rules_key_later). */
struct rule_keys;

/* What rules_finish did, for struct sweep_run. */
struct rule_counts {
	long long opened;           /* violations opened */
	long long closed;           /* violations closed */
	long long open_after;       /* open violations after the run */
	long long failed;           /* rules that failed (also unreadable) */
	long long parallel;         /* rules evaluated in parallel with
	                               the sweep, on the second
	                               connection */
	long long rows_written;     /* rows of rule_violations and
	                               violation_facts inserted or changed */
	long long kept;             /* rules not evaluated: their inputs
	                               were those of their last evaluation
	                               (rules_keep) */
	struct rule_keys *later;    /* owned: what rules_keys_write
	                               needs, when the job was given
	                               rules_key_later; else NULL */
	strbuf told;                /* the failures' lines, to be told by
	                               rules_tell once the run committed */
};

/* An empty set; never fails. */
void rules_init(struct rule_set *rs);

/* Free every rule and override of rs; rs is empty again. */
void rules_free(struct rule_set *rs);

/*
 * Add the rules of every regular "*.sql" file directly in dir, in name
 * order (strcmp), as tier; shown is how dir is named in origins ("rules"
 * for the starter set, dir itself for the user's). A rule of tier
 * RULE_USER replaces a starter rule of the same id. A rule that cannot
 * be read is added with its error (rules_finish reports it); so is a file
 * that cannot be opened. Returns 0, 1 when dir does not exist and tier
 * is RULE_STARTER (an install may have no starter set), or
 * -MIRROR_EINPUT when dir cannot be listed (a user's dir that is
 * missing too: it was named), or when shown, a file's name or a file's
 * text is not rule text (rules_text_problem; the caller frees rs).
 */
int rules_load_dir(struct rule_set *rs, const char *dir, const char *shown,
    enum rule_tier tier, mirror_error *err);

/*
 * Add the rules of the text of one file, text[0..len), named file in
 * origins, as tier (rules_load_dir reads each file with it); a leading
 * UTF-8 byte order mark is skipped. Returns 0 (errors of a rule stay
 * with it), or -MIRROR_EINPUT "rules FILE:LINE: column C ..." with
 * nothing added when a line is not rule text (rules_text_problem):
 * what a rule holds is written into rule_runs, and must pass the
 * checks its readers apply.
 */
int rules_load_text(struct rule_set *rs, const char *text, size_t len,
    const char *file, enum rule_tier tier, mirror_error *err);

/*
 * Why s[0..n) may not be a rule's text, or NULL when it may: "is not
 * valid UTF-8 text" or "contains a NUL byte" (storerow_text_problem,
 * the store readers' check, has the last word), or "holds a control
 * character" (U+0000-U+001F, U+007F-U+009F, but tab, line feed and a
 * carriage return before a line feed or at the end; none at all when
 * name, for a file or directory name). *at gets the offset of the
 * first bad byte.
 */
const char *rules_text_problem(const char *s, size_t n, int name,
    size_t *at);

/*
 * Whether parameter value v is an integer: 1 when it is one (an
 * optional '-' and digits) within 64 bits, with *out its value; 0 when
 * it is text (bound as text); -1 when it is an integer outside the
 * 64-bit range (an error: never clamped).
 */
int rules_param_int(const char *v, long long *out);

/*
 * Give parameter name of rule the value, over its header's default.
 * Returns 0, or -MIRROR_EINPUT when rule or name is not a valid id or
 * value an integer outside 64 bits.
 */
int rules_override(struct rule_set *rs, const char *rule, const char *name,
    const char *value, mirror_error *err);

/* The value rule r's parameter name runs with: the last
 * param.RULE.NAME override of rs, else the header's default, else
 * NULL. */
const char *rules_param_value(const struct rule_set *rs,
    const struct rule *r, const char *name);

/*
 * Append text (a rule's description) to out with every ":NAME" that
 * names a parameter with a value (rules_param_value) replaced by that
 * value, as the run binds it: "within the last :days days" becomes
 * "within the last 30 days". A ':' right after a letter, digit, '_' or
 * ':' starts no name, ":now", ":today" and names with no value stay as
 * they are, and so does a value with a control character. Never fails.
 */
void rules_fill_params(strbuf *out, const struct rule_set *rs,
    const struct rule *r, const char *text);

/* 1 when s is a parameter name ([A-Za-z_][A-Za-z0-9_]*, not "now" or
 * "today", which every query may read), else 0. */
int rules_param_name_ok(const char *s);

/* 1 when s is a valid rule id ([a-z0-9][a-z0-9-]*, at most
 * RULE_ID_MAX bytes), else 0. */
int rules_id_ok(const char *s);

/*
 * A hash of everything in rs that decides what a sweep records (each
 * rule's id, origin, severity, texts, parameters, error; the overrides)
 * as 16 hex digits into out, with day folded in when a rule reads :now
 * or :today (its results may then change from one day to the next).
 * Never fails.
 */
void rules_digest(const struct rule_set *rs, long long day, char out[17]);

/*
 * Write the lines of k->told to rs->diag (NULL: stderr) and free them:
 * after the transaction committed, so a sweep retried after a lock tells
 * each failure once. Returns nothing.
 */
void rules_tell(const struct rule_set *rs, struct rule_counts *k);

/* Free k->told without telling it, and k->later (a run rolled back). */
void rules_counts_free(struct rule_counts *k);

/* The rules of one sweep while it runs (rules_start .. rules_finish). */
struct rules_job;

/*
 * Start the rules of rs that are not off or replaced, then the rows of
 * the store's mirror_rules when it has that table, for a sweep at now
 * ("YYYY-MM-DD HH:MM:SS"): call it inside the sweep's write transaction
 * on st (opened STORE_WRITE, the rule tables present) before the sweep
 * writes anything; that transaction began with cache_spill off (PRAGMA
 * main.cache_spill = 0 before BEGIN: SQLite ignores it inside a
 * transaction), else a spill of st's cache would wait on the second
 * connection's lock for the busy timeout, page after page. When a second core and a second connection can be
 * had, the rules are evaluated on them while the sweep goes on (see
 * rules_run.c); st keeps its dirty pages in memory until rules_finish
 * or rules_abandon. On success *out holds the job, which one of the two
 * ends. Returns 0, or < 0 with err set.
 */
int rules_start(struct rules_job **out, mirror_store *st,
    const struct rule_set *rs, const char *now, mirror_error *err);

/*
 * rules_start ahead of the sweep, in two steps, inside a read
 * transaction on st (store_read_begin, st opened STORE_WRITE), so that
 * the parallel evaluation starts on the snapshot st reads while the
 * caller does other work (a build's digest and checks), not when the
 * sweep takes its lock. rules_prepare_early does all that reads st, on
 * st's thread, and the job remembers st's data_version (returns 0, or
 * < 0 with err set); rules_go starts the parallel evaluation, touching
 * nothing but job, so any thread may call it while st's thread works
 * on, as long as only one thread uses job at a time (a caller whose
 * connection is busy when a core comes free). A second rules_go, or one
 * on NULL, does nothing; a job never given one is evaluated on the
 * sweep's connection, as with one core. The sweep takes the job
 * instead of calling rules_start only when rules_job_current says so,
 * and abandons it otherwise.
 */
int rules_prepare_early(struct rules_job **out, mirror_store *st,
    const struct rule_set *rs, const char *now, mirror_error *err);
void rules_go(struct rules_job *job);

/*
 * Keep, unevaluated, the rules of job (rules_prepare_early) whose key
 * is the one the store holds for them: d (taken in the read job was
 * prepared in, tables_set) gives the sums of the tables each reads.
 * A rule's key hashes its id, origin, severity, texts, parameters and
 * the overrides, the step budget, the sums of the tables it reads and
 * of the projects (its violations' projects are made canonical through
 * them), and the sweep's time when its text says "now"; a rule that
 * reads a column no sum holds (a rowid, a column or
 * table mirror does not know, a table the sweep writes) has none. A
 * kept rule's violations stay as they are and its rule_runs row says
 * the hits of its last evaluation, in 0 ms. rules_finish writes every
 * key of the run into mirror_meta ("rule_input:ID"), in the sweep's
 * transaction; a sweep whose job had no rules_keep removes them all.
 * Any thread may call it while the job's thread runs: the thread skips
 * the kept rules it has not begun, and the kept one it is evaluating is
 * interrupted and not evaluated (the sweep does not wait for it); a
 * kept rule it finished before stays evaluated. NULL, or d without
 * sums, does nothing. Returns nothing.
 */
void rules_keep(struct rules_job *job, const struct store_digest *d);

/*
 * 1 when rules_keep may keep a rule of job (rules_prepare_early): the
 * store holds a key for at least one rule that has one; else 0, also
 * for NULL. A caller that can wait for its digest before rules_go then
 * does: on two cores an evaluation begun beside the digest takes a core
 * from it, and is thrown away when its rule is kept.
 */
int rules_may_keep(const struct rules_job *job);

/*
 * For tests only: when set, the thread that evaluates rules in parallel with
 * the sweep calls it with a rule's id once it has marked the rule begun and
 * before the rule's query runs, so that a test can call rules_keep while a
 * rule is begun whatever the machine's speed; the sweep's thread calls it
 * too before it evaluates a rule it took from that thread (rules_finish).
 */
#ifdef MIRROR_TEST_HOOKS
extern void (*rules_test_begin)(const char *rule_id);
#endif

/*
 * The keys of a sweep that had no digest before it (a build into an
 * empty DIR), written after it. rules_key_later asks job, which will
 * have no rules_keep, to leave in rules_finish's out->later what its
 * keys need but the tables' sums: each rule recorded without a failure
 * that rules_keep could key, its hits, the run's id and the
 * data_version job was prepared at. NULL does nothing.
 *
 * rules_keys_write then writes the keys (as rules_finish would have,
 * given rules_keep) in a transaction of its own on st, outside any
 * other, with d a digest of st (tables_set) taken after job was
 * prepared: only when st's data_version is still later's (no other
 * connection committed since, so d hashed the tables the rules read:
 * the sweep writes none of them) and the store's latest sweep is
 * later's run, with no key in mirror_meta. Returns 1 when written, 0
 * when not (those do not hold, the store is busy: a key saves time, it
 * is never owed), or < 0 with err set when the store fails.
 */
void rules_key_later(struct rules_job *job);
int rules_keys_write(const struct rule_keys *later, mirror_store *st,
    const struct store_digest *d, mirror_error *err);

/* Free later (NULL: nothing). */
void rules_keys_free(struct rule_keys *later);

/*
 * Whether job (rules_prepare_early) may stand for rules_start(st, rs,
 * now) in the sweep's write transaction, asked there after the sweep
 * read: 1 when it was started on st for rs at now and st's data_version
 * is the one it saw (no other connection committed since, so the
 * snapshot the thread reads is the sweep's), 0 when not (the caller
 * abandons it), < 0 with err set when the version cannot be read.
 */
int rules_job_current(const struct rules_job *job, mirror_store *st,
    const struct rule_set *rs, const char *now, mirror_error *err);

/*
 * End job as sweep run run_id, in the same transaction: evaluate what
 * is left and record every rule over the whole store, in the set's
 * order, whichever connection evaluated it. Each rule gets a rule_runs
 * row; its hits open, keep (message and project updated) or close its
 * violations; a rule that fails keeps its open violations, and gets one
 * line "mirror: rule ID (ORIGIN): reason" in out->told (the caller
 * frees it with rules_tell or rules_counts_free, also when this fails).
 * Open violations of rules no longer in the set (or off) are closed,
 * unless a rule with no readable id failed. Fills *out and frees job.
 * Returns 0 (also when rules failed), or < 0 with err set when the
 * store itself fails (the caller rolls back).
 */
int rules_finish(struct rule_counts *out, struct rules_job *job,
    const char *run_id, mirror_error *err);

/* Stop and free job without recording anything (the sweep failed, or
 * did not take an early job): the thread is stopped between two rules
 * and the rule it reads interrupted. NULL is a no-op. */
void rules_abandon(struct rules_job *job);

#endif
