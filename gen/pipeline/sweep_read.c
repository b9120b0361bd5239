/*
 * sweep_read.c: a build's sweep and the start of the read after it
 * (steps 6 and 7 of build.h): the sweep of the changed projects, DIR
 * listed meanwhile, and the snapshot after it.
 */
#include "pipeline/steps.h"
#include "store/digest.h"
#include "store/facts.h"
#include "store/store.h"
#include "util/hash.h"

/*
 * Step 6: the sweep, of the changed projects alone when the last build
 * into DIR swept and its record tells which changed (core/sweep/sweep.h:
 * the others are as that sweep left them). Returns 0 or < 0 with err
 * set.
 */
static int
build_sweep(struct build *b, mirror_error *err)
{
	struct build_changes *ch = &b->ch;
	const struct site_model *s = &b->s;
	/* The digest of the check counted the active rows and listed each
	 * project's row ids, and its read checked every conflict's rows
	 * (build_check_rows): the sweep takes them while no other
	 * connection committed (ch->version). */
	const struct sweep_scope scope = { ch->ids, ch->n, ch->digested,
	    ch->digested ? digest_active(&s->digest) : 0, ch->version,
	    ch->digested ? &s->digest : NULL, ch->digested };
	struct rules_job *early = ch->early;

	ch->early = NULL;           /* the sweep's now, whatever it does */
	return sweep_run_rules(&b->run, s->st, s->now, &(struct sweep_plan){
	    .scope = ch->scoped && ch->swept_before ? &scope : NULL,
	    .set = &ch->rules, .early = early, .undo = b->undo }, err);
}

/*
 * Step 6: the sweep (none with no_sweep), DIR listed on a thread from
 * its start (b->start, output_begin_start's, which the render takes
 * over): the sweep leaves a core idle, the model's read after it keeps
 * both busy. What the sweep changes goes into b->undo. Returns 0 or < 0
 * with err set.
 */
int
build_sweep_listing(struct build *b, mirror_error *err)
{
	int rc = 0;

	b->start = output_begin_start(b->o->out, &b->turn);
	if (!b->o->no_sweep) {
		b->undo = store_undo_new();
		rc = build_sweep(b, err);
		b->report.swept = rc == 0;
	}
	return rc;
}

/*
 * The rules' keys of a sweep that had no digest before it, from the one
 * taken after it (rules_keys_write), in a transaction of their own
 * between two reads, kept in undo with the sweep's changes: the digest
 * stands when no other connection committed in between (data_version),
 * else it is taken again. Returns 0 or < 0 with err set.
 */
static int
build_keys(struct site_model *s, const struct sweep_run *run,
    struct store_undo *undo, mirror_error *err)
{
	long long v, w;
	int rc;

	if ((rc = store_data_version(&v, s->st, err)) < 0)
		return rc;
	store_read_end(s->st);
	if ((rc = store_undo_record(undo, s->st, err)) < 0)
		return rc;
	rc = rules_keys_write(run->keys_later, s->st, &s->digest, err);
	if (rc > 0 && (rc = store_undo_take(undo, err)) == 0)
		store_undo_committed(undo);
	store_undo_drop(undo);          /* the recording, when not taken */
	if (rc < 0 || (rc = store_read_begin(s->st, err)) < 0 ||
	    (rc = store_data_version(&w, s->st, err)) < 0)
		return rc;
	return w == v ? 0 : build_snapshot(s, 0, NULL, err);
}

/*
 * The check's digest after a sweep that wrote (and no other connection
 * since): what the sweep changed (undo, its changes) folded again over
 * the sums the digest kept of the rest (facts_digest_swept), so that a
 * conflict opened costs its rows, not the store's; taken whole when the
 * digest kept nothing. Returns 0 or < 0 with err set.
 */
static int
build_snapshot_swept(struct site_model *s, const struct store_undo *undo,
    mirror_error *err)
{
	int rc = facts_digest_swept(&s->digest, s->st, undo, err);

	if (rc > 0)
		return build_snapshot(s, 0, NULL, err);
	if (rc == 0)
		hash_hex(s->snapshot, s->digest.snapshot);
	return rc;
}

/*
 * Step 7, after the sweep, inside the read: the digest the check took
 * stands when the sweep wrote no conflict and no other connection
 * committed since (data_version); when only the sweep wrote, the tables
 * it writes are folded again (build_snapshot_swept); else the digest is
 * taken again. What the digest kept for that goes then. The facts the
 * check kept for the render go when another connection committed. The
 * store's clock and print are taken in this read too, for the stamp and
 * the memo (build_memo), after the rules' keys of a sweep the check
 * took no digest for (build_keys). Returns 0 or < 0 with err set.
 */
int
build_snapshot_after(struct build *b, mirror_error *err)
{
	struct build_changes *ch = &b->ch;
	struct site_model *s = &b->s;
	long long v;
	int rc;

	ch->clocked = 0;            /* the sweep wrote since */
	if (!ch->digested) {
		rc = build_snapshot(s, 0, NULL, err);
		if (rc == 0 && b->run.keys_later != NULL)
			rc = build_keys(s, &b->run, b->undo, err);
	} else if ((rc = store_data_version(&v, s->st, err)) == 0) {
		if (v != ch->version) {
			/* Another connection wrote: what the check read may
			 * be stale. (The sweep's own writes are no facts.) */
			facts_kept_free(s->kept);
			s->kept = NULL;
		}
		if (v != ch->version)
			rc = build_snapshot(s, 0, NULL, err);
		else if (b->run.rows_written != 0) {
			/* The digest's sums of before the sweep, for the
			 * model's kept lists (site/model.h). */
			s->swept = facts_findings_sum(&s->findings_before,
			    &s->digest) == 0 ? b->undo : NULL;
			rc = build_snapshot_swept(s, b->undo, err);
		}
	}
	digest_refold_drop(&s->digest);
	/* The digest is of this read's rows (taken again when they
	 * changed), so the clock it took in parallel holds too. */
	if (rc == 0 && (rc = facts_clock_of(&ch->clock, &s->digest, s->st,
	    err)) > 0) {
		ch->clocked = 1;
		rc = 0;
	}
	return rc < 0 ? rc : build_memo(b, err);
}
