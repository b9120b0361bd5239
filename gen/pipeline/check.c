/*
 * check.c: the build's check before the sweep (step 4 of build.h) and
 * its stamp (step 8): the snapshot, the stamp and whether DIR holds it,
 * the memo of the store's file, and the check of every row the pages
 * will read.
 */
#include <stdlib.h>
#include <string.h>

#include "pipeline/steps.h"
#include "output/record.h"
#include "render/datadir.h"
#include "store/digest.h"
#include "store/memo.h"
#include "store/store.h"
#include "sys/clock.h"
#include "util/hash.h"
#include "util/xalloc.h"

/* The most rows of the layers a check keeps for the render: a change
 * of up to a hundred projects of two hundred rows. */
#define KEEP_ROWS_MAX 20000

/* The most rows of a build that keeps the pages it frees (xalloc_keep):
 * a change of up to ten projects of two hundred rows. Its peak grows
 * with what it renders: 1.9 MB more at one project of the 100k-fact
 * store, 15 MB at ninety, past the full build's. */
#define KEEP_PAGES_ROWS 2000

/* The rows of the layers the changed projects ids[0..n) (sorted) and
 * the no-project group hold, as d counted them: at most KEEP_ROWS_MAX,
 * the check keeps what it reads of them for the render (else they are
 * read twice, and memory stays flat however much changed); at most
 * KEEP_PAGES_ROWS, the build keeps the pages it frees. */
static long long
changed_rows(const struct store_digest *d, const char *const *ids, size_t n)
{
	long long rows = 0;
	size_t i = 0;

	/* Both sorted by strcmp: one merge. */
	for (size_t k = 0; k < d->n; k++) {
		const struct project_digest *p = &d->p[k];

		while (i < n && strcmp(ids[i], p->project) < 0)
			i++;
		if (p->project[0] != '\0' && (i == n ||
		    strcmp(ids[i], p->project) != 0))
			continue;
		for (int c = 0; c < DIGEST_COUNTS; c++)
			rows += p->rows[c];
	}
	return rows;
}

/* rules_go for a digest's then (facts_digest_plan's). */
static void
go_rules(void *job)
{
	rules_go(job);
}

/* Steps 4 and 7: the snapshot checksum and the projects' digests, inside
 * the consistent read; with rowids, the projects' row ids too, for the
 * check of the changed projects in the same read, and early's rules
 * started (rules_go) on the core the digest's second connection frees,
 * when early is not NULL. Returns 0 or < 0 with err set. */
int
build_snapshot(struct site_model *s, int rowids, struct rules_job *early,
    mirror_error *err)
{
	int rc;

	digest_free(&s->digest);
	rc = facts_digest(&s->digest, s->st, &(const struct facts_digest_plan){
	    .now = s->now, .rowids = rowids, .then = early != NULL ? go_rules :
	    NULL, .arg = early, .whole = s->digest_whole }, err);
	if (rc == 0)
		hash_hex(s->snapshot, s->digest.snapshot);
	return rc;
}

/*
 * 1 when the tip of the branch holds b->stamp (the tip's tree was
 * committed whole, so it is this site); else 0, also on any git error:
 * history_check vets the repository before anything is written, and a
 * full build reports what is wrong. The memo of the tip
 * (gen/git/history.h) answers first when b->ch.git_later; what libgit2
 * reads is kept in it for the next run.
 */
static int
build_stamp_in_branch(struct build *b)
{
	const struct build_opts *o = b->o;
	mirror_error ignored;
	char known[TIPMEMO_TEXT_MAX + 1];
	struct history_tip f;
	int same;

	if (b->ch.git_later && tipmemo_get(known, sizeof(known), o->repo,
	    o->branch) && stamp_in_text(known, strlen(known), &b->stamp))
		return b->ch.tip_by_memo = 1;
	same = history_tip_file(&f, &(struct history_request){
	    .repo_path = o->repo, .branch = o->branch }, STAMP_PATH,
	    &ignored) == 1 && stamp_in_text(f.text, f.len, &b->stamp);
	if (same)
		tipmemo_put(o->repo, o->branch, f.tip, f.text, f.len);
	free(f.text);
	return same;
}

/* The store's clock at s->now into ch->clock, read in this read unless
 * it is there already (ch->clocked). Returns 0 or < 0 with err set. */
static int
build_clock(struct build_changes *ch, const struct site_model *s,
    mirror_error *err)
{
	int rc = 0;

	if (!ch->clocked && (rc = facts_clock_read(&ch->clock, s->st, s->now,
	    err)) == 0)
		ch->clocked = 1;
	return rc;
}

/*
 * Step 8: the build's stamp (gen/output/build_stamp.h) into b->stamp,
 * and whether DIR, and with a repository the branch, already hold it:
 * then there is nothing to render, write or commit. Returns
 * BUILD_UNCHANGED then, 0 to go on, or < 0 with err set.
 */
int
build_unchanged(struct build *b, mirror_error *err)
{
	const struct build_opts *o = b->o;
	struct stamp_inputs in;
	char *def = NULL, rules[17];
	int rc;

	memset(&in, 0, sizeof(in));
	in.snapshot = b->s.snapshot;
	in.title = b->s.title;
	in.base_url = b->s.base_url;
	in.user_templates = o->templates;
	in.theme_dir = theme_dir(b->so.th);
	if (b->ch.rules.n > 0) {
		rules_digest(&b->ch.rules, (long long)b->s.now / 86400, rules);
		in.rules = rules;
	}
	rc = build_clock(&b->ch, &b->s, err);
	in.expired = b->ch.clock.expired;
	in.any_conflicts = b->ch.clock.any_conflicts;
	in.day = (long long)b->s.now / 86400;
	if (rc == 0)
		rc = datadir_find(&def, "templates", err);
	in.default_templates = def;
	if (rc == 0)
		rc = stamp_make(&b->stamp, &in, err);
	b->stamp.swept = !o->no_sweep;
	free(def);
	if (rc < 0 || o->force)
		return rc;
	return stamp_in_dir(&b->held, o->out, &b->stamp) &&
	    (o->repo == NULL || build_stamp_in_branch(b)) ? BUILD_UNCHANGED :
	    0;
}

/*
 * Keep what the store's file vouches for now (core/store/memo.h): its
 * print in this read, the snapshot b->s holds and the clock, both taken
 * in the same read (the clock is read here when it is not yet). Best
 * effort: no memo is only a slower next no-op. Returns 0, or < 0 with
 * err set when the clock cannot be read.
 */
int
build_memo(struct build *b, mirror_error *err)
{
	char print[STORE_PRINT_SIZE];
	struct store_memo m;
	int rc;

	if ((rc = build_clock(&b->ch, &b->s, err)) < 0)
		return rc;
	if (store_print(print, b->s.st)) {
		memcpy(m.snapshot, b->s.snapshot, sizeof(m.snapshot));
		m.clock = b->ch.clock;
		memo_put(b->o->store, print, &m);
	}
	return 0;
}

/*
 * 1 when the store's file is untouched since a run learnt its checksum
 * (core/store/memo.h) and that checksum is the snapshot of DIR's stamp
 * b->held: it is put into b->s.snapshot, and the rows need not be read;
 * so is the memo's clock into b->ch when it holds at the run's time
 * (else it is read, and the memo kept with it). Else 0: the rows decide
 * (also for a WAL store, whose file cannot vouch for its rows;
 * core/store/store.h). Returns 1, 0, or < 0 with err set.
 */
static int
build_store_untouched(struct build *b, mirror_error *err)
{
	char print[STORE_PRINT_SIZE];
	struct store_memo m;
	int rc;

	if (!store_print(print, b->s.st) || !memo_get(&m, b->o->store,
	    print) || strcmp(m.snapshot, b->held.snapshot) != 0)
		return 0;
	memcpy(b->s.snapshot, m.snapshot, sizeof(b->s.snapshot));
	if (facts_clock_holds(&m.clock, b->s.now)) {
		b->ch.clock = m.clock;
		b->ch.clocked = 1;
		return 1;
	}
	return (rc = build_memo(b, err)) < 0 ? rc : 1;
}

/* DIR's record of what each page was rendered from (gen/output/record.h;
 * an empty one with force), into b->so.record: read once it is known
 * that the build renders (a no-op build need not pay for it). */
void
build_record(struct build *b)
{
	if (b->so.record == NULL)
		b->so.record = record_load(b->o->out, b->o->force);
}

/*
 * The rows the pages will read, checked in the check's read: of the
 * changed projects alone when b->ch says which (kept for the render
 * when few), else all of them; then conflicts and the rules'
 * violations. Returns 0 or < 0 with err set.
 */
static int
build_check_rows(struct build *b, mirror_error *err)
{
	struct build_changes *ch = &b->ch;
	struct site_model *s = &b->s;
	long long rows;
	int small, rc;

	/* Only the projects whose rows changed since the last build into
	 * DIR, which read (and so checked) every row of the others. */
	if (ch->digested)
		ch->scoped = site_changed_projects(&ch->ids, &ch->n,
		    b->so.record, &s->digest);
	rows = ch->scoped ? changed_rows(&s->digest, ch->ids, ch->n) : -1;
	small = ch->scoped && rows <= KEEP_PAGES_ROWS;
	/* A build of a few projects keeps the pages it frees from now on
	 * (util/xalloc.h); not before: the digest's folds free tables the
	 * size of the store (22 MB more at 1M facts when kept). */
	xalloc_keep(small);
	/* And faults its pages in huge, as its digest did; a larger one
	 * goes back to small pages, which hold its peak lower. */
	(void)xalloc_huge(small);
	if (ch->scoped)
		rc = facts_check(s->st, &(const struct facts_plan){
		    .now = s->now, .ids = ch->ids, .n = ch->n,
		    .d = &s->digest, .keep = rows <= KEEP_ROWS_MAX ?
		    &s->kept : NULL }, err);
	else
		rc = facts_check(s->st, &(const struct facts_plan){
		    .now = s->now }, err);
	/* The pages read conflicts and the rules' violations too: checked
	 * unless a read of the store took these very rows (their sum) and
	 * kept them, which it did once it had checked them. */
	if (rc < 0 || site_findings_known(s->st, &s->digest))
		return rc;
	rc = conflict_check(s->st, err);
	return rc < 0 ? rc : violation_check(s->st, err);
}

/*
 * Before the sweep, in a read: BUILD_UNCHANGED when nothing is to be
 * done (the store's checksum is the snapshot DIR's last build read, and
 * its stamp, the branch's too, holds every other input: the sweep would
 * change nothing but sweep_runs, SPEC 3.5, and the site would be the
 * same); else every row the pages will read is checked, so a bad row
 * stops the build before the sweep writes, also a row the sweep never
 * reads (a store whose checksum is the last build's snapshot passed
 * that check then). Returns BUILD_UNCHANGED, 0 to go on, or < 0 with
 * err set.
 */
int
build_check(struct build *b, mirror_error *err)
{
	const struct build_opts *o = b->o;
	struct site_model *s = &b->s;
	int rc, have = !o->force && stamp_load_dir(&b->held, o->out);

	b->ch.swept_before = have && b->held.swept;
	/* An untouched file: no row is read (a no-op build's cost). */
	if (have && (rc = build_store_untouched(b, err)) != 0 &&
	    (rc < 0 || (rc = build_unchanged(b, err)) != 0))
		return rc;
	build_record(b);
	/* The store's rows are read: libgit2's start (its certificates
	 * read, 3 ms) on the core the check's first steps leave idle. */
	if (b->ch.git_later && b->git_start == NULL)
		b->git_start = history_hold_begin();
	/* A sweep follows: its rules are made ready on this read's snapshot
	 * and start on the core the digest's second connection frees, else
	 * after the digest, in parallel with the checks below (the sweep takes
	 * them when the snapshot is still the store's). Rules the store holds
	 * keys for wait for the digest that may keep them (rules_may_keep):
	 * begun early, a kept one is work thrown away, on a core the digest's
	 * other connections wanted (one-fact builds at 100k facts: the
	 * median 11 ms quicker). */
	if (!o->no_sweep) {
		char ts[MIRROR_TS_LEN];

		mirror_format_ts(ts, s->now);
		if ((rc = rules_prepare_early(&b->ch.early, s->st,
		    &b->ch.rules, ts, err)) < 0)
			return rc;
	}
	/* DIR holds a build: this one is likely small, and its digest
	 * faults fewer pages in huge (util/xalloc.h); build_check_rows
	 * decides for the rest once it knows. */
	(void)xalloc_huge(have);
	if (have || record_has_lines(b->so.record)) {
		if ((rc = build_snapshot(s, 1, rules_may_keep(b->ch.early) ?
		    NULL : b->ch.early, err)) < 0 ||
		    (rc = store_data_version(&b->ch.version, s->st, err)) < 0)
			return rc;
		b->ch.digested = 1;
		/* The rules whose tables are as they last read them are
		 * not evaluated again (rules.h); the sweep takes the job
		 * only while the snapshot is this digest's. */
		rules_keep(b->ch.early, &s->digest);
		if (have && strcmp(s->snapshot, b->held.snapshot) == 0) {
			/* A store that had no memo: the next no-op is quick.
			 * (A build that goes on leaves it after its sweep.) */
			if ((rc = build_memo(b, err)) < 0)
				return rc;
			return build_unchanged(b, err);
		}
	} else {
		/* No digest before the sweep: the one after it keys the
		 * rules (build_keys). */
		rules_key_later(b->ch.early);
	}
	rules_go(b->ch.early);
	return build_check_rows(b, err);
}
