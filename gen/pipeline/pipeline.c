/*
 * pipeline.c: the build's steps in their order (build.h), each phase
 * timed, and what a build holds freed at its end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/steps.h"
#include "output/output.h"
#include "output/record.h"
#include "site/page.h"
#include "site/site_atoz.h"
#include "site/site_search.h"
#include "store/digest.h"
#include "store/store.h"
#include "store/undo.h"
#include "sys/cache.h"
#include "sys/clock.h"
#include "sys/work.h"
#include "util/xalloc.h"

const char *const build_phase_names[PH_N] = { "lock", "check", "sweep",
    "read", "render", "commit", "swap" };

/* Close phase ph: the time, the rows and the VM steps since the last
 * lap are its own. */
static void
lap(struct build_report *r, enum build_phase ph)
{
	long long now = mirror_monotonic_ms();
	unsigned long long rows, steps;

	work_rows_flush();      /* this thread's rows, counted now */
	rows = work_get(&work_rows);
	steps = work_get(&work_vm_steps);

	r->ms[ph] += now - r->mark;
	r->mark = now;
	r->work.rows[ph] += rows - r->at.rows[0];
	r->at.rows[0] = rows;
	r->work.vm_steps[ph] += steps - r->at.vm_steps[0];
	r->at.vm_steps[0] = steps;
}

/* The work counters now into w (rows[0], vm_steps[0]: every row and
 * VM step so far). */
static void
work_now(struct build_work *w)
{
	work_rows_flush();
	w->rows[0] = work_get(&work_rows);
	w->rule_rows = work_get(&work_rule_rows);
	w->vm_steps[0] = work_get(&work_vm_steps);
	w->rule_vm_steps = work_get(&work_rule_vm_steps);
	w->pages_rendered = work_get(&page_rendered);
	w->files_written = work_get(&output_files_written);
	w->bytes_written = work_get(&output_bytes_written);
	w->hashed_bytes = work_get(&record_hashed_bytes);
	w->search_docs = work_get(&search_docs_added);
	w->atoz_rows = work_get(&atoz_rows_shown);
	w->atoz_store_rows = work_get(&atoz_rows_read);
	w->atoz_kept_rows = work_get(&atoz_rows_kept);
	w->scope_scan_steps = work_get(&work_scope_scans);
	w->tables_kept = work_get(&work_tables_kept);
}

/* The build's work but its rows and VM steps (counted by lap) into
 * r->work: the counters since r->at. */
static void
work_end(struct build_report *r)
{
	struct build_work now;

	work_now(&now);
	r->work.rule_rows = now.rule_rows - r->at.rule_rows;
	r->work.rule_vm_steps = now.rule_vm_steps - r->at.rule_vm_steps;
	r->work.pages_rendered = now.pages_rendered - r->at.pages_rendered;
	r->work.files_written = now.files_written - r->at.files_written;
	r->work.bytes_written = now.bytes_written - r->at.bytes_written;
	r->work.hashed_bytes = now.hashed_bytes - r->at.hashed_bytes;
	r->work.search_docs = now.search_docs - r->at.search_docs;
	r->work.atoz_rows = now.atoz_rows - r->at.atoz_rows;
	r->work.atoz_store_rows = now.atoz_store_rows -
	    r->at.atoz_store_rows;
	r->work.atoz_kept_rows = now.atoz_kept_rows - r->at.atoz_kept_rows;
	r->work.scope_scan_steps = now.scope_scan_steps -
	    r->at.scope_scan_steps;
	r->work.tables_kept = now.tables_kept - r->at.tables_kept;
	r->work.search_peak_bytes = site_search_held_peak();
	r->work.huge_pages = xalloc_huge_on();
}

/*
 * DIR's turn first (gen/output/output.h): a second build into the same DIR
 * waits here, before its checks and its sweep, and a bad DIR stops the
 * build before anything is written (output_free lets go). With the
 * lock, DIR is as its last build left it (build_record reads what its
 * pages were rendered from). Returns 0 or < 0 with err set.
 */
static int
build_lock(struct build *b, mirror_error *err)
{
	const struct build_opts *o = b->o;
	int rc;

	if ((rc = output_refuse_inside(o->out, o->store, "store", err)) < 0 ||
	    (rc = output_refuse_inside(o->out, o->repo, "--repo", err)) < 0)
		return rc;
	return output_lock(&b->turn, o->out, err);
}

/*
 * The conflicts by status (opts.counts) and the rules' violations
 * (opts.checks) into b->report: from h, the model's counts of the same
 * read, else read, in a read of its own unless one is open
 * (b->reading). Returns 0 or < 0 with err set.
 */
static int
build_counts(struct build *b, const struct health *h, mirror_error *err)
{
	const struct build_opts *o = b->o;
	int rc;

	if ((!o->counts && !o->checks) || b->s.st == NULL)
		return 0;
	if (h != NULL) {
		b->report.counts = (struct conflict_counts){
		    h->open_conflicts_count, h->resolved_conflicts,
		    h->dismissed_conflicts };
		if (o->checks)
			b->report.checks = h->checks;
		return 0;
	}
	if (!b->reading && (rc = store_read_begin(b->s.st, err)) < 0)
		return rc;
	rc = conflict_counts(&b->report.counts, b->s.st, err);
	if (rc == 0 && o->checks)
		rc = violation_counts(&b->report.checks, b->s.st, err);
	if (!b->reading)
		store_read_end(b->s.st);
	return rc;
}

/*
 * Step 10: render the whole site (gen/output keeps what DIR holds
 * already and stages the rest), with the caller's progress (ended right
 * after); b->report.pages gets the number of pages. The model keeps only
 * its scalars afterwards, and the record is gone. b->start
 * (output_begin_start's, taken over and set to NULL) gives DIR's build.
 * Returns 0 or < 0 with err set.
 */
static int
build_render(struct build *b, mirror_error *err)
{
	const struct build_opts *o = b->o;
	size_t n = 0;
	int rc;

	rc = output_begin_finish(&b->so.out, b->start, err);
	b->start = NULL;
	if (rc < 0)
		return rc;
	/* From here the render's and the commit's big buffers go back to
	 * the system when freed (not before: see xalloc.h). */
	xalloc_tune();
	b->so.progress = o->progress;
	rc = site_render(&n, &b->s, &b->so, err);
	if (o->progress != NULL && o->progress_end != NULL)
		o->progress_end(o->progress->arg);
	b->so.progress = NULL;
	b->report.pages = (long long)n;
	/* The commit and the report need the model's scalars only (clock,
	 * snapshot, open count): what the pages were made of, and the
	 * record, go before the commit, which otherwise held its trees on
	 * top of them (the peak of a full build). */
	site_model_free(&b->s);
	record_free(b->so.record);
	b->so.record = NULL;
	return rc;
}

/* Step 6: the sweep (build_sweep_listing); the row ids the check took
 * for it go after it. Returns 0 or < 0 with err set. */
static int
build_sweep_step(struct build *b, mirror_error *err)
{
	int rc = build_sweep_listing(b, err);

	digest_drop_rowids(&b->s.digest);
	return rc;
}

/* Step 7: the snapshot, in the read every page comes from (b->reading
 * says it is open). Returns 0 or < 0 with err set. */
static int
build_snapshot_step(struct build *b, mirror_error *err)
{
	int rc = store_read_begin(b->s.st, err);

	if (rc < 0)
		return rc;
	b->reading = 1;
	return build_snapshot_after(b, err);
}

/* Step 9: the model, and the counts the caller asked for, in that read.
 * Returns 0 or < 0 with err set. */
static int
build_model(struct build *b, mirror_error *err)
{
	int rc;

	b->so.stamp = &b->stamp;
	rc = site_model_read(&b->s, err);
	/* The model has read which findings the sweep changed: from here
	 * its changes wait only for a failure to undo, out of memory. */
	b->s.swept = NULL;
	store_undo_stow(b->undo);

	return rc < 0 ? rc : build_counts(b, &b->s.health, err);
}

/* Step 10: the render into DIR's staging (build_render), every file
 * handed to gen/output written, and the read ended. Returns 0 or < 0
 * with err set. */
static int
build_render_step(struct build *b, mirror_error *err)
{
	int rc = build_render(b, err);

	if (rc == 0)
		rc = output_drain(b->so.out, err);
	store_read_end(b->s.st);
	b->reading = 0;
	return rc;
}

/* Step 11, with a repository: the commit (build_history). Returns 0 or
 * < 0 with err set. */
static int
build_commit_step(struct build *b, mirror_error *err)
{
	return b->o->repo != NULL ? build_history(b, err) : 0;
}

/* Step 12: the swap (output_commit), and what it wrote and kept into
 * the report. Returns 0 or < 0 with err set. */
static int
build_swap(struct build *b, mirror_error *err)
{
	int rc = output_commit(b->so.out, err);

	if (rc == 0) {
		b->report.written = (long long)output_written(b->so.out);
		b->report.reused = (long long)output_reused(b->so.out);
	}
	return rc;
}

/*
 * One step of a build (build.h numbers them): what runs, the phase its
 * time and rows count in (--json's timings_ms and work.rows), and where
 * a build that learns there it has nothing to do goes. A step of a
 * build that goes that way runs only when it says held_too.
 */
struct build_step {
	int number;
	int (*run)(struct build *b, mirror_error *err);
	enum build_phase phase;
	enum build_path held;   /* when run says BUILD_UNCHANGED */
	int held_too;           /* runs after BUILD_UNCHANGED too */
};

/* A build, top to bottom: steps 2 to 12 (build.h). */
static const struct build_step build_steps[] = {
	{ 2, build_lock, PH_LOCK, 0, 0 },
	{ 2, build_git_first, PH_CHECK, 0, 0 },
	{ 3, build_open, PH_CHECK, 0, 0 },
	{ 4, build_check_store, PH_CHECK, BUILD_PATH_HELD_BEFORE_SWEEP, 0 },
	{ 5, build_rehearse_templates, PH_CHECK, 0, 0 },
	{ 2, build_git_then, PH_CHECK, 0, 1 },
	{ 6, build_sweep_step, PH_SWEEP, 0, 0 },
	{ 7, build_snapshot_step, PH_READ, 0, 0 },
	{ 8, build_unchanged, PH_READ, BUILD_PATH_HELD_AFTER_SWEEP, 0 },
	{ 9, build_model, PH_READ, 0, 0 },
	{ 10, build_render_step, PH_RENDER, 0, 0 },
	{ 11, build_commit_step, PH_COMMIT, 0, 0 },
	{ 12, build_swap, PH_SWAP, 0, 0 },
};

/*
 * Run the steps in order, each timed into its phase, until one fails;
 * one that says BUILD_UNCHANGED sets b->report.path and leaves the
 * rest to the steps that run then too. Returns 0, BUILD_UNCHANGED, or
 * < 0 with err set.
 */
static int
build_walk(struct build *b, mirror_error *err)
{
	int rc = 0;

	for (size_t i = 0; i < sizeof(build_steps) / sizeof(*build_steps);
	    i++) {
		const struct build_step *st = &build_steps[i];
		int k;

		if (rc == BUILD_UNCHANGED && !st->held_too)
			continue;
		k = st->run(b, err);
		lap(&b->report, st->phase);
		if (k < 0)
			return k;
		if (k == BUILD_UNCHANGED) {
			b->report.path = st->held;
			rc = k;
		}
	}
	return rc;
}

/*
 * For an unchanged build: what DIR holds, from its stamp b->held, and
 * the counts, read now (inside the read, when one is open, which is
 * then ended). Returns 0 or < 0 with err set.
 */
static int
build_report_held(struct build *b, mirror_error *err)
{
	int rc;

	b->s.open_conflicts = b->held.open_conflicts;
	b->report.pages = b->held.pages;
	b->report.reused = b->held.files;
	rc = build_counts(b, NULL, err);
	if (b->reading)
		store_read_end(b->s.st);
	b->reading = 0;
	lap(&b->report, PH_READ);
	return rc;
}

/*
 * A build that failed after its sweep committed takes the sweep's
 * changes back (core/store/undo.h), so that the store is as it was;
 * when they cannot be (another writer changed the same rows since), the
 * failure's line in err says so at its end. Returns nothing.
 */
static void
build_undo(struct build *b, mirror_error *err)
{
	mirror_error why;
	size_t n;
	int k;

	if (!b->report.swept || store_undo_size(b->undo) == 0 ||
	    b->s.st == NULL)
		return;
	if (b->reading)
		store_read_end(b->s.st);
	b->reading = 0;
	mirror_error_clear(&why);
	if (store_undo_apply(b->undo, b->s.st, b->run.id, &why) >= 0)
		return;
	n = strlen(err->msg);
	k = snprintf(err->msg + n, sizeof(err->msg) - n, "; the sweep's "
	    "changes stay in the store: %s", why.msg);
	if (k < 0 || (size_t)k >= sizeof(err->msg) - n)
		err->msg[sizeof(err->msg) - 1] = '\0';  /* cut: what fits */
}

int
build_run(struct build *b, const struct build_opts *o, mirror_error *err)
{
	int rc;

	b->o = o;
	b->report.start = b->report.mark = mirror_monotonic_ms();
	work_now(&b->report.at);
	site_search_held_mark();        /* this build's peak */
	b->s.title = o->title;
	b->s.base_url = o->base_url;
	b->s.digest_whole = o->force;
	if ((rc = mirror_clock(&b->s.now, err)) < 0)
		return rc;
	rc = build_walk(b, err);
	output_begin_drop(b->start);   /* unchanged after all, or failed */
	b->start = NULL;
	if (rc == BUILD_UNCHANGED && (rc = build_report_held(b, err)) >= 0) {
		work_end(&b->report);
		return BUILD_UNCHANGED;
	}
	work_end(&b->report);
	if (b->reading)
		store_read_end(b->s.st);
	b->reading = 0;
	if (rc < 0)
		build_undo(b, err);
	else                            /* a store that never had them */
		store_versions_add(b->s.st);
	cache_prune();                  /* the user's cache kept bounded */
	return rc < 0 ? rc : BUILD_DONE;
}

void
build_free(struct build *b)
{
	history_hold_drop(b->git_start);  /* begun, never needed */
	rules_keys_free(b->run.keys_later);
	store_undo_free(b->undo);
	free(b->ch.ids);
	rules_abandon(b->ch.early);   /* before its set and its store */
	rules_free(&b->ch.rules);
	output_free(b->so.out);
	output_unlock(&b->turn);        /* when no output took it over */
	record_free(b->so.record);
	site_model_free(&b->s);
	store_close(b->s.st);
	theme_free(b->so.th);
	tmpl_set_free(b->so.tmpl);
	if (b->held_git)
		history_release();
}
