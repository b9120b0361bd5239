/*
 * cmd_build.c: mirror build --store S --out DIR [--no-sweep] [--check]
 *     [--force] [--repo GITDIR ...] [--templates DIR] [--theme NAME]
 *     [--base-url URL] [--title T] [--rules DIR] [--quiet]
 *
 * The order is the contract:
 *   0. DIR's lock (a second build into DIR waits here), then with
 *      --repo every check of the repository that writes nothing, so a
 *      bad DIR or repository stops the build before the sweep writes;
 *   1. open and parse templates and theme, so a template that does not
 *      parse fails before anything is written (with --templates, a
 *      rehearsal render from the unswept store also finds placeholders
 *      that name nothing);
 *   2. sweep (unless --no-sweep): one write transaction of its own,
 *      after a read that checks every row the pages will read (unless
 *      the store's file is untouched since a run learnt its checksum,
 *      core/store/memo.h, and that is DIR's stamp's: the stamp decides);
 *   3. one consistent read (store_read_begin .. store_read_end) from
 *      which every page, the snapshot checksum and the JSON come; when
 *      DIR (and the branch) already hold this build's stamp
 *      (gen/out/build_stamp.h), nothing is rendered, written or committed;
 *   4. render: files DIR holds byte for byte stay, the others go into
 *      gen/out's staging directory; then output_commit moves them into
 *      DIR under a journal: any failure before leaves DIR as it was;
 *   5. with --repo, commit the new site (gen/git/history.h: the changed
 *      files, the removed ones, the tree DIR was last committed as)
 *      before output_commit, so a git failure leaves DIR as it was; DIR's
 *      marker then records the committed tree (none without --repo);
 *   6. the summary line, and exit 4 under --check with open conflicts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "cli/optcheck.h"
#include "cli/progress.h"
#include "git/history.h"
#include "out/build_stamp.h"
#include "out/output.h"
#include "out/record.h"
#include "rules/violation.h"
#include "render/datadir.h"
#include "rules/rules.h"
#include "site/site.h"
#include "store/digest.h"
#include "store/facts.h"
#include "store/memo.h"
#include "store/store.h"
#include "sweep/conflict.h"
#include "sweep/sweep.h"
#include "sys/clock.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "sys/termtext.h"
#include "util/xalloc.h"

#define DEFAULT_TITLE "Human Mirror"

/* Every template a build renders, parsed before anything is written. */
static const char *const page_templates[] = { "index.md", "project.md",
    "decisions.md", "subsystem.md", "conflicts.md", "conflict.md",
    "checks.md", "check.md",
    "atoz.md", "atoz_letter.md", "search.md", "404.md" };

/*
 * What the check before the sweep found changed since the last build
 * into DIR, so the sweep, and the digest after it, can do less.
 */
struct build_changes {
	const char **ids;       /* the changed projects, sorted (pointers
	                           into the model's digest, valid until the
	                           next build_snapshot) */
	size_t n;
	int scoped;             /* 1: ids is all that changed */
	int swept_before;       /* 1: that build swept (its stamp says so) */
	int digested;           /* 1: the model's digest was taken then */
	long long version;      /* the store's data_version then */
	struct rule_set rules;  /* what the sweep runs (none with
	                           --no-sweep) */
	struct facts_clock clock;  /* the store's clock at the run's time, */
	int clocked;               /* when 1: read in this read, or the
	                              memo's, which holds then */
	int git_later;          /* 1: libgit2 waits until the branch's tip
	                           is not known from the memo
	                           (build_git_later) */
	int tip_by_memo;        /* 1: the memo said the tip holds the
	                           stamp (gen/git/history.h) */
	struct rules_job *early;  /* those rules started in the check,
	                             the sweep's to take */
};

/* The most rows of the layers a check keeps for the render: a change
 * of up to a hundred projects of the bench's size. */
#define KEEP_ROWS_MAX 20000

/* 1 when the changed projects ids[0..n) (sorted) and the no-project
 * group hold few enough rows (d counted them) for the check to keep
 * what it reads of them for the render; else 0: they are read twice,
 * and memory stays flat however much changed. */
static int
keep_worth(const struct store_digest *d, const char *const *ids, size_t n)
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
	return rows <= KEEP_ROWS_MAX;
}

/* rules_go for a digest's then (facts_digest_rows_then). */
static void
go_rules(void *job)
{
	rules_go(job);
}

/* Step 3a: the snapshot checksum and the projects' digests, inside the
 * consistent read; with rowids, the projects' row ids too, for the
 * check of the changed projects in the same read, and early's rules
 * started (rules_go) on the core the digest's second connection frees,
 * when early is not NULL. Returns 0 or < 0 with err set. */
static int
build_snapshot(struct site_model *s, int rowids, struct rules_job *early,
    mirror_error *err)
{
	int rc;

	digest_free(&s->digest);
	if (rowids && early != NULL)
		rc = facts_digest_rows_then(&s->digest, s->st, s->now,
		    go_rules, early, err);
	else
		rc = (rowids ? facts_digest_rows : facts_digest)(&s->digest,
		    s->st, s->now, err);
	if (rc == 0)
		hash_hex(s->snapshot, s->digest.snapshot);
	return rc;
}

/*
 * A render of the whole site from the store as it is, written nowhere:
 * a placeholder that names nothing shows only while rendering, and the
 * sweep must not write to the store of a build that will fail. Run only
 * with --templates (the default templates are tested) and a sweep.
 */
static int
build_rehearse(const struct site_model *s, const struct site_opts *so,
    const struct mirror_opts *o, mirror_error *err)
{
	const struct site_opts ro = { .tmpl = so->tmpl, .th = so->th };
	struct site_model r;
	size_t pages;
	int rc;

	memset(&r, 0, sizeof(r));
	r.now = s->now;
	r.title = s->title;
	r.base_url = s->base_url;
	rc = store_open(&r.st, o->store, STORE_READ, err);
	if (rc == 0 && (rc = store_read_begin(r.st, err)) == 0) {
		rc = build_snapshot(&r, 0, NULL, err);
		if (rc == 0)
			rc = site_model_read(&r, err);
		if (rc == 0)
			rc = site_render(&pages, &r, &ro, err);
		store_read_end(r.st);
	}
	site_model_free(&r);
	store_close(r.st);
	return rc;
}

/*
 * 1 when the tip of the --repo branch holds the stamp st (the tip's
 * tree was committed whole, so it is this site); else 0, also on any
 * git error: history_check vets the repository before anything is
 * written, and a full build reports what is wrong. The memo of the tip
 * (gen/git/history.h) answers first when ch->git_later; what libgit2
 * reads is kept in it for the next run.
 */
static int
build_stamp_in_branch(struct build_changes *ch, const struct stamp *st,
    const struct mirror_opts *o)
{
	mirror_error ignored;
	char *text, tip[GIT_OID_HEXSZ + 1], known[TIPMEMO_TEXT_MAX + 1];
	size_t len;
	int same;

	if (ch->git_later && tipmemo_get(known, sizeof(known), o->repo,
	    o->branch) && stamp_in_text(known, strlen(known), st))
		return ch->tip_by_memo = 1;
	same = history_tip_file(&text, &len, tip, o->repo, o->branch,
	    STAMP_PATH, &ignored) == 1 && stamp_in_text(text, len, st);
	if (same)
		tipmemo_put(o->repo, o->branch, tip, text, len);
	free(text);
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
 * Step 3c: the build's stamp (gen/out/build_stamp.h) into *st, and 1 when
 * DIR, and with --repo the branch, already hold it: then there is
 * nothing to render, write or commit. Returns 1, 0, or < 0 with err set.
 */
static int
build_unchanged(struct stamp *held, struct stamp *st,
    struct build_changes *ch, const struct site_model *s,
    const struct site_opts *so, const struct mirror_opts *o,
    mirror_error *err)
{
	struct stamp_inputs in;
	char *def = NULL, rules[17];
	int rc;

	memset(&in, 0, sizeof(in));
	in.snapshot = s->snapshot;
	in.title = s->title;
	in.base_url = s->base_url;
	in.user_templates = o->templates;
	in.theme_dir = theme_dir(so->th);
	if (ch->rules.n > 0) {
		rules_digest(&ch->rules, (long long)s->now / 86400, rules);
		in.rules = rules;
	}
	rc = build_clock(ch, s, err);
	in.expired = ch->clock.expired;
	in.any_conflicts = ch->clock.any_conflicts;
	in.day = (long long)s->now / 86400;
	if (rc == 0)
		rc = datadir_find(&def, "templates", err);
	in.default_templates = def;
	if (rc == 0)
		rc = stamp_make(st, &in, err);
	st->swept = !o->no_sweep;
	free(def);
	if (rc < 0 || o->force)
		return rc;
	return stamp_in_dir(held, o->out, st) &&
	    (o->repo == NULL || build_stamp_in_branch(ch, st, o));
}

/*
 * Keep what the store's file vouches for now (core/store/memo.h): its
 * print in this read, the snapshot s holds and the clock, both taken in
 * the same read (the clock is read here when it is not yet). Best
 * effort: no memo is only a slower next no-op. Returns 0, or < 0 with
 * err set when the clock cannot be read.
 */
static int
build_memo(struct build_changes *ch, const struct site_model *s,
    const struct mirror_opts *o, mirror_error *err)
{
	char print[STORE_PRINT_SIZE];
	struct store_memo m;
	int rc;

	if ((rc = build_clock(ch, s, err)) < 0)
		return rc;
	if (store_print(print, s->st)) {
		memcpy(m.snapshot, s->snapshot, sizeof(m.snapshot));
		m.clock = ch->clock;
		memo_put(o->store, print, &m);
	}
	return 0;
}

/*
 * 1 when the store's file is untouched since a run learnt its checksum
 * (core/store/memo.h) and that checksum is the snapshot of DIR's stamp
 * held: it is put into s->snapshot, and the rows need not be read; so
 * is the memo's clock into ch when it holds at the run's time (else it
 * is read, and the memo kept with it). Else 0: the rows decide (also
 * for a WAL store, whose file cannot vouch for its rows;
 * core/store/store.h). Returns 1, 0, or < 0 with err set.
 */
static int
build_store_untouched(struct build_changes *ch, struct site_model *s,
    const struct stamp *held, const struct mirror_opts *o,
    mirror_error *err)
{
	char print[STORE_PRINT_SIZE];
	struct store_memo m;
	int rc;

	if (!store_print(print, s->st) || !memo_get(&m, o->store, print) ||
	    strcmp(m.snapshot, held->snapshot) != 0)
		return 0;
	memcpy(s->snapshot, m.snapshot, sizeof(s->snapshot));
	if (facts_clock_holds(&m.clock, s->now)) {
		ch->clock = m.clock;
		ch->clocked = 1;
		return 1;
	}
	return (rc = build_memo(ch, s, o, err)) < 0 ? rc : 1;
}

/* DIR's record of what each page was rendered from (gen/out/record.h;
 * an empty one with --force), into so->record: read once it is known
 * that the build renders (at 1M facts it takes a third of a no-op). */
static void
build_record(struct site_opts *so, const struct mirror_opts *o)
{
	if (so->record == NULL)
		so->record = record_load(o->out, o->force);
}

/*
 * Before the sweep, in a read: 1 when nothing is to be done (the
 * store's checksum is the snapshot DIR's last build read, and its stamp,
 * the branch's too, holds every other input: the sweep would change
 * nothing but sweep_runs, SPEC 3.5, and the site would be the same);
 * else every row the pages will read is checked, so a bad row stops the
 * build before the sweep writes, also a row the sweep never reads (a
 * store whose checksum is the last build's snapshot passed that check
 * then). Returns 1, 0, or < 0 with err set.
 */
static int
build_check(struct build_changes *ch, struct stamp *held, struct stamp *st,
    struct site_model *s, struct site_opts *so,
    const struct mirror_opts *o, mirror_error *err)
{
	int rc, have = !o->force && stamp_load_dir(held, o->out);

	ch->swept_before = have && held->swept;
	/* An untouched file: no row is read (a no-op build's cost). */
	if (have && (rc = build_store_untouched(ch, s, held, o, err)) != 0 &&
	    (rc < 0 || (rc = build_unchanged(held, st, ch, s, so, o,
	    err)) != 0))
		return rc;
	build_record(so, o);
	/* A sweep follows: its rules are made ready on this read's snapshot
	 * and start on the core the digest's second connection frees, else
	 * after the digest, beside the checks below (the sweep takes them
	 * when the snapshot is still the store's). */
	if (!o->no_sweep) {
		char ts[MIRROR_TS_LEN];

		mirror_format_ts(ts, s->now);
		if ((rc = rules_prepare_early(&ch->early, s->st, &ch->rules,
		    ts, err)) < 0)
			return rc;
	}
	if (have || record_has_lines(so->record)) {
		if ((rc = build_snapshot(s, 1, ch->early, err)) < 0 ||
		    (rc = store_data_version(&ch->version, s->st, err)) < 0)
			return rc;
		ch->digested = 1;
		/* The rules whose tables are as they last read them are
		 * not evaluated again (rules.h); the sweep takes the job
		 * only while the snapshot is this digest's. */
		rules_keep(ch->early, &s->digest);
		if (have && strcmp(s->snapshot, held->snapshot) == 0) {
			/* A store that had no memo: the next no-op is quick.
			 * (A build that goes on leaves it after its sweep.) */
			if ((rc = build_memo(ch, s, o, err)) < 0)
				return rc;
			return build_unchanged(held, st, ch, s, so, o, err);
		}
	} else {
		/* No digest before the sweep: the one after it keys the
		 * rules (build_keys). */
		rules_key_later(ch->early);
	}
	rules_go(ch->early);
	/* Only the projects whose rows changed since the last build into
	 * DIR, which read (and so checked) every row of the others. */
	if (ch->digested)
		ch->scoped = site_changed_projects(&ch->ids, &ch->n,
		    so->record, &s->digest);
	if (ch->scoped && keep_worth(&s->digest, ch->ids, ch->n))
		rc = facts_check_kept(&s->kept, s->st, s->now, ch->ids, ch->n,
		    &s->digest, err);
	else if (ch->scoped)
		rc = facts_check_scoped(s->st, s->now, ch->ids, ch->n,
		    &s->digest, err);
	else
		rc = facts_check(s->st, s->now, err);
	/* The pages read conflicts and the rules' violations too. */
	if (rc == 0)
		rc = conflict_check(s->st, err);
	return rc < 0 ? rc : violation_check(s->st, err);
}

/*
 * Step 2: the sweep, of the changed projects alone when the last build
 * into DIR swept and its record tells which changed (core/sweep/sweep.h:
 * the others are as that sweep left them). Returns 0 or < 0.
 */
static int
build_sweep(struct sweep_run *run, struct build_changes *ch,
    const struct site_model *s, mirror_error *err)
{
	/* The digest of the check counted the active rows and listed each
	 * project's row ids: the sweep takes them while no other connection
	 * committed (ch->version). */
	const struct sweep_scope scope = { ch->ids, ch->n, ch->digested,
	    ch->digested ? digest_active(&s->digest) : 0, ch->version,
	    ch->digested ? &s->digest : NULL };
	struct rules_job *early = ch->early;

	ch->early = NULL;           /* the sweep's now, whatever it does */
	return sweep_run_early(run, s->st, s->now, ch->scoped &&
	    ch->swept_before ? &scope : NULL, &ch->rules, early, err);
}

/*
 * The rules' keys of a sweep that had no digest before it, from the one
 * taken after it (rules_keys_write), in a transaction of their own
 * between two reads: the digest stands when no other connection
 * committed in between (data_version), else it is taken again. Returns
 * 0 or < 0 with err set.
 */
static int
build_keys(struct site_model *s, const struct sweep_run *run,
    mirror_error *err)
{
	long long v, w;
	int rc;

	if ((rc = store_data_version(&v, s->st, err)) < 0)
		return rc;
	store_read_end(s->st);
	if ((rc = rules_keys_write(run->keys_later, s->st, &s->digest,
	    err)) < 0 || (rc = store_read_begin(s->st, err)) < 0 ||
	    (rc = store_data_version(&w, s->st, err)) < 0)
		return rc;
	return w == v ? 0 : build_snapshot(s, 0, NULL, err);
}

/*
 * Step 3a after the sweep, inside the read: the digest the check took
 * stands when the sweep wrote no conflict and no other connection
 * committed since (data_version); else it is taken again. The facts the
 * check kept for the render go when another connection committed. The
 * store's clock and print are taken in this read too, for the stamp and
 * the memo (build_memo), after the rules' keys of a sweep the check
 * took no digest for (build_keys). Returns 0 or < 0 with err set.
 */
static int
build_snapshot_after(struct site_model *s, struct build_changes *ch,
    const struct sweep_run *run, const struct mirror_opts *o,
    mirror_error *err)
{
	long long v;
	int rc;

	ch->clocked = 0;            /* the sweep wrote since */
	if (!ch->digested) {
		rc = build_snapshot(s, 0, NULL, err);
		if (rc == 0 && run->keys_later != NULL)
			rc = build_keys(s, run, err);
	} else if ((rc = store_data_version(&v, s->st, err)) == 0) {
		if (v != ch->version) {
			/* Another connection wrote: what the check read may
			 * be stale. (The sweep's own writes are no facts.) */
			facts_kept_free(s->kept);
			s->kept = NULL;
		}
		if (v != ch->version || run->rows_written != 0)
			rc = build_snapshot(s, 0, NULL, err);
	}
	/* The digest is of this read's rows (taken again when they
	 * changed), so the clock it took beside holds too. */
	if (rc == 0 && (rc = facts_clock_of(&ch->clock, &s->digest, s->st,
	    err)) > 0) {
		ch->clocked = 1;
		rc = 0;
	}
	return rc < 0 ? rc : build_memo(ch, s, o, err);
}

/*
 * Step 1 and what step 2 needs: open templates and theme (parse errors
 * stop the build before the sweep touches the store; with --templates,
 * a rehearsal render catches the rest), then open the store, for
 * writing unless --no-sweep. The caller sweeps on the same connection,
 * which is then used for the read. Returns 0, 1 when there is nothing
 * to do (build_check), or < 0.
 */
static int
build_open(struct build_changes *ch, struct site_model *s,
    struct site_opts *so, struct stamp *held, struct stamp *st,
    const struct mirror_opts *o, mirror_error *err)
{
	const tmpl *t;
	int rc;

	rc = tmpl_set_open(&so->tmpl, o->templates, NULL, err);
	for (size_t i = 0; rc == 0 &&
	    i < sizeof(page_templates) / sizeof(*page_templates); i++)
		rc = tmpl_set_get(&t, so->tmpl, page_templates[i], err);
	if (rc == 0)
		rc = theme_open(&so->th, o->theme, err);
	if (rc < 0)
		return rc;
	/* A rules directory that cannot be read stops the build here; a
	 * rule that cannot be read is the sweep's to tell. A --no-sweep
	 * build reads them too: the set is an input of its stamp, so its
	 * site is the one a sweeping build of the same store makes. */
	if ((rc = cli_rules_load(&ch->rules, o, err)) < 0)
		return rc;
	if (o->no_sweep) {
		build_record(so, o);
		return store_open(&s->st, o->store, STORE_READ, err);
	}
	rc = store_open(&s->st, o->store, STORE_WRITE, err);
	if (rc == 0 && (rc = store_read_begin(s->st, err)) == 0) {
		rc = build_check(ch, held, st, s, so, o, err);
		/* The row ids stay for the sweep (build_sweep), which takes
		 * them while the store is as this read saw it. */
		store_read_end(s->st);
	}
	if (rc != 0)
		return rc;          /* 1: nothing to do, no sweep */
	if (o->templates != NULL && (rc = build_rehearse(s, so, o, err)) < 0)
		return rc;
	return 0;
}

/* The parts of a history request that come from the command line. */
static void
history_request_init(struct history_request *req,
    const struct mirror_opts *o, time_t now)
{
	memset(req, 0, sizeof(*req));
	req->repo_path = o->repo;
	req->branch = o->branch;
	req->author = o->author;
	req->sign_key = o->sign_key;
	req->have_time = 1;
	req->time = now;
}

/*
 * 1 when a --repo build may leave libgit2 (and history_check) until it
 * knows it has something to commit, or that the memo cannot say the
 * branch holds its site: history_check would take the repository's
 * author from its config, or check --sign-key, so both keep the old
 * order; a bad --author is a bad build whatever the store. Else 0.
 */
static int
build_git_later(const struct mirror_opts *o)
{
	return o->repo != NULL && o->author != NULL && o->sign_key == NULL &&
	    history_author_ok(o->author);
}

/*
 * Start libgit2 for the build (*held: history_release at the end) and,
 * before the sweep writes anything, vet the repository: a --repo that
 * is not a repository, holds a stale lock or has the branch checked out
 * fails the build with the store, the site and the repository as they
 * were. Returns 0 or < 0 with err set.
 */
static int
build_git_start(int *held, const struct mirror_opts *o, time_t now,
    mirror_error *err)
{
	struct history_request req;
	int rc;

	if (o->repo == NULL)
		return 0;
	if ((rc = history_hold(err)) < 0)
		return rc;
	*held = 1;
	history_request_init(&req, o, now);
	return history_check(&req, err);
}

/*
 * build_open with libgit2 started (*held) and the repository vetted
 * before it (build_git_start), or after it when the build may wait
 * (build_git_later): then only if the build goes on to the sweep, or
 * the tip's memo could not say it has nothing to do (the memo answers
 * only when the branch has no lock, no HEAD naming it and no work tree,
 * what history_check would refuse). Returns as build_open does.
 */
static int
build_open_git(int *held, struct build_changes *ch, struct site_model *s,
    struct site_opts *so, struct stamp *held_stamp, struct stamp *st,
    const struct mirror_opts *o, mirror_error *err)
{
	int rc = 0, grc;

	ch->git_later = build_git_later(o);
	if (!ch->git_later && (rc = build_git_start(held, o, s->now,
	    err)) < 0)
		return rc;
	rc = build_open(ch, s, so, held_stamp, st, o, err);
	if (rc < 0 || !ch->git_later || (rc == 1 && ch->tip_by_memo))
		return rc;
	grc = build_git_start(held, o, s->now, err);
	return grc < 0 ? grc : rc;
}

/*
 * Step 5: commit the new site to the branch, before output_commit, so a
 * git failure (not a repository, a lock, a race) leaves DIR as it was:
 * every file with where its bytes are now and whether this build wrote
 * it, the files DIR held that the site lacks, and the tree DIR was last
 * committed as, for the unchanged files. The committed tree (also when
 * the branch held it already) goes into DIR's marker. If output_commit
 * then fails, the next build finds the tree committed and makes no
 * second commit.
 */
static int
build_history(struct history_result *res, const struct site_model *s,
    struct output *out, const struct sweep_run *run,
    const struct mirror_opts *o, mirror_error *err)
{
	struct history_request req;
	const struct output_file *files;
	struct history_file *hf;
	int rc;

	/* The disk takes the staged files while the commit reads them
	 * back: one core is idle there, and the swap's syncfs waits less. */
	output_flush_begin(out);
	history_request_init(&req, o, s->now);
	req.n_files = output_files(out, &files);
	hf = xcalloc(req.n_files + 1, sizeof(*hf));
	for (size_t i = 0; i < req.n_files; i++) {
		hf[i].path = files[i].path;
		hf[i].disk = files[i].disk;
		hf[i].changed = files[i].changed;
	}
	req.files = hf;
	req.removed = output_removed(out, &req.n_removed);
	req.base_tree = output_base_tree(out);
	req.store_checksum = s->snapshot;
	if (!o->no_sweep) {
		req.sweep_run_id = run->id;
		req.conflicts_opened = run->conflicts_opened;
		req.conflicts_closed = run->conflicts_closed;
		req.members_added = run->members_added;
	}
	rc = history_commit(res, &req, err);
	free(hf);
	if (rc == 0)
		output_set_tree(out, res->tree_id);
	return rc;
}

/*
 * The base URL the site's absolute links use, into *out (NULL: relative
 * links, also for ""): an absolute http(s) URL, its trailing slashes
 * dropped, so "https://h/p" and "https://h/p/" build the same site. The
 * caller frees *out. Returns 0, or -MIRROR_EUSAGE from
 * optcheck_base_url (a config file's value was checked as it was read).
 */
static int
build_base_url(char **out, const struct mirror_opts *o, mirror_error *err)
{
	const char *u = o->base_url;
	size_t n;
	int rc;

	*out = NULL;
	if (u == NULL || u[0] == '\0')
		return 0;
	/* The config file's value was checked when it was read. */
	if ((rc = optcheck_base_url(u, err)) < 0)
		return rc;
	n = strlen(u);
	while (n > 0 && u[n - 1] == '/')
		n--;
	*out = xstrndup(u, n);
	return 0;
}

/*
 * What the command line asks must make sense before anything runs:
 * --store, --out, no positionals, --branch and --author only with a
 * repository to commit to, a valid base URL (into *base_url, see
 * build_base_url). Returns 0 or < 0.
 */
static int
build_usage(char **base_url, const struct mirror_opts *o, mirror_error *err)
{
	int rc;

	*base_url = NULL;
	if ((rc = cli_need_store(o, err)) < 0 ||
	    (rc = cli_max_args(o, 0, err)) < 0)
		return rc;
	if (o->out == NULL || o->out[0] == '\0')
		return mirror_fail(err, MIRROR_EUSAGE, "build: --out DIR is "
		    "required (or 'out' in the config file)");
	/* From a shared config file they are harmless; typed, a mistake. */
	if (o->repo == NULL && cli_given(o, CLI_BRANCH))
		return mirror_fail(err, MIRROR_EUSAGE, "build: --branch has "
		    "no effect without --repo");
	if (o->repo == NULL && cli_given(o, CLI_AUTHOR))
		return mirror_fail(err, MIRROR_EUSAGE, "build: --author has "
		    "no effect without --repo");
	if (o->repo == NULL && cli_given(o, CLI_SIGN_KEY))
		return mirror_fail(err, MIRROR_EUSAGE, "build: --sign-key has "
		    "no effect without --repo");
	return build_base_url(base_url, o, err);
}

/* The phases of a build that --json times ("swap": output_commit, which
 * moves the changed files into DIR). */
enum phase { PH_LOCK, PH_CHECK, PH_SWEEP, PH_READ, PH_RENDER, PH_COMMIT,
    PH_SWAP, PH_N };
static const char *const phase_names[PH_N] = { "lock", "check", "sweep",
    "read", "render", "commit", "swap" };

/* What a build did, for its summary and --json. */
struct build_report {
	int unchanged;            /* 1 nothing rendered, 2 nor swept */
	int swept;
	long long pages, written, reused;
	struct conflict_counts counts;
	struct violation_counts checks;   /* read for --check */
	struct history_result hres;
	long long start, mark, ms[PH_N];
};

/* Close phase ph: the time since the last lap is its own. */
static void
lap(struct build_report *r, enum phase ph)
{
	long long now = mirror_monotonic_ms();

	r->ms[ph] += now - r->mark;
	r->mark = now;
}

/* The build as one JSON object (build --json). */
static json_t *
build_json(const struct build_report *r, const struct site_model *s,
    const struct sweep_run *run, const struct mirror_opts *o)
{
	json_t *v = json_object(), *t = json_object(), *changes = json_null();

	for (int i = 0; i < PH_N; i++)
		json_object_set_new(t, phase_names[i], json_integer(r->ms[i]));
	json_object_set_new(t, "total", json_integer(r->mark - r->start));
	if (r->hres.committed)
		changes = json_pack("{s:I, s:I, s:I, s:I}", "pages_added",
		    (json_int_t)r->hres.pages_added, "pages_changed",
		    (json_int_t)r->hres.pages_changed, "pages_removed",
		    (json_int_t)r->hres.pages_removed, "files_changed",
		    (json_int_t)r->hres.files_changed);
	json_object_set_new(v, "store", json_string(o->store));
	json_object_set_new(v, "out", json_string(o->out));
	json_object_set_new(v, "snapshot", json_string(s->snapshot));
	json_object_set_new(v, "rendered", json_boolean(!r->unchanged));
	json_object_set_new(v, "sweep", r->swept ? json_sweep_run(run) :
	    json_null());
	json_object_set_new(v, "pages", json_integer(r->pages));
	json_object_set_new(v, "files", json_pack("{s:I, s:I}", "written",
	    (json_int_t)r->written, "reused", (json_int_t)r->reused));
	json_object_set_new(v, "conflicts", json_pack("{s:I, s:I, s:I}",
	    "open", (json_int_t)r->counts.open, "resolved",
	    (json_int_t)r->counts.resolved, "dismissed",
	    (json_int_t)r->counts.dismissed));
	json_object_set_new(v, "repo", o->repo != NULL ?
	    json_string(o->repo) : json_null());
	json_object_set_new(v, "branch", o->repo != NULL ?
	    json_string(o->branch) : json_null());
	json_object_set_new(v, "commit", r->hres.committed ?
	    json_string(r->hres.commit_id) : json_null());
	json_object_set_new(v, "changes", changes);
	json_object_set_new(v, "timings_ms", t);
	return v;
}

/* The summary lines of a build (neither --json nor --quiet). */
static void
build_print(const struct build_report *r, const struct site_model *s,
    const struct mirror_opts *o)
{
	(void)termtext_printf(stdout, "built %s: %lld pages, %lld files "
	    "written, %lld reused; %lld open conflicts; store snapshot %s",
	    o->out, r->pages,
	    r->written, r->reused, s->open_conflicts, s->snapshot);
	if (r->unchanged)
		printf(" (unchanged: %s)", r->unchanged == 2 ?
		    "no sweep, nothing rendered" : "nothing rendered");
	putchar('\n');
	if (o->repo != NULL && r->hres.committed)
		(void)termtext_printf(stdout, "committed %s to %s of %s: %zu "
		    "pages changed, %zu added, %zu removed\n", r->hres.commit_id,
		    o->branch, o->repo, r->hres.pages_changed,
		    r->hres.pages_added, r->hres.pages_removed);
	else if (o->repo != NULL)
		(void)termtext_printf(stdout, "no commit: %s of %s already "
		    "holds this site\n",
		    o->branch, o->repo);
}

/*
 * The conflicts by status for --json and the rules' violations for
 * --check, in a read of its own unless one is open (reading). Returns 0
 * or < 0.
 */
static int
build_counts(struct build_report *r, const struct site_model *s, int reading,
    const struct mirror_opts *o, mirror_error *err)
{
	int rc;

	if ((!o->json && !o->check) || s->st == NULL)
		return 0;
	if (!reading && (rc = store_read_begin(s->st, err)) < 0)
		return rc;
	rc = conflict_counts(&r->counts, s->st, err);
	if (rc == 0 && o->check)
		rc = violation_counts(&r->checks, s->st, err);
	if (!reading)
		store_read_end(s->st);
	return rc;
}

/*
 * Step 1: what the command line asks (build_usage), the site's title
 * and base URL (into *base_url, the caller frees it) and the run's
 * clock, into s. Returns 0 or < 0 with err set.
 */
static int
build_begin(struct site_model *s, char **base_url, const struct mirror_opts *o,
    mirror_error *err)
{
	int rc;

	s->title = o->title != NULL && o->title[0] != '\0' ? o->title :
	    DEFAULT_TITLE;
	if ((rc = build_usage(base_url, o, err)) < 0 ||
	    (rc = mirror_clock(&s->now, err)) < 0)
		return rc;
	s->base_url = *base_url;
	return 0;
}

/* The progress line as the site reports to it (struct site_progress). */
static void
on_phase(void *p, const char *name, size_t total, int per_page)
{
	progress_phase(p, name, total, per_page);
}

static void
on_page(void *p)
{
	progress_page(p);
}

static void
on_item(void *p)
{
	progress_item(p);
}

/*
 * Step 4: render the whole site (gen/out keeps what DIR holds already
 * and stages the rest), with the progress line on a terminal (cleared
 * before any other output); *pages gets the number of pages. The
 * model keeps only its scalars afterwards, and so->record is gone.
 * *start (output_begin_start's, taken over and set to NULL) gives DIR's
 * build. Returns 0 or < 0 with err set.
 */
static int
build_render(long long *pages, struct site_model *s, struct site_opts *so,
    struct output_start **start, const struct mirror_opts *o,
    mirror_error *err)
{
	struct progress prog;
	const struct site_progress hooks = { on_phase, on_page, on_item,
	    &prog };
	size_t n = 0;
	int rc;

	rc = output_begin_finish(&so->out, *start, err);
	*start = NULL;
	if (rc < 0)
		return rc;
	/* From here the render's and the commit's big buffers go back to
	 * the system when freed (not before: see xalloc.h). */
	xalloc_tune();
	progress_init(&prog, !o->quiet);
	so->progress = &hooks;
	rc = site_render(&n, s, so, err);
	progress_end(&prog);
	so->progress = NULL;
	*pages = (long long)n;
	/* The commit and the report need the model's scalars only (clock,
	 * snapshot, open count): what the pages were made of, and the
	 * record, go before the commit, which otherwise held its trees on
	 * top of them (at 1M facts the peak of a full build). */
	site_model_free(s);
	record_free(so->record);
	so->record = NULL;
	return rc;
}

/*
 * For an unchanged build (r->unchanged set): what DIR holds, from its
 * stamp held, and the conflicts by status, read now (inside the read
 * that reading says is open, which is then ended). Returns 0 or < 0.
 */
static int
build_report_held(struct build_report *r, struct site_model *s,
    const struct stamp *held, int reading, const struct mirror_opts *o,
    mirror_error *err)
{
	int rc;

	s->open_conflicts = held->open_conflicts;
	r->pages = held->pages;
	r->reused = held->files;
	rc = build_counts(r, s, reading, o, err);
	if (reading)
		store_read_end(s->st);
	lap(r, PH_READ);
	return rc;
}

/*
 * Step 6: say what the build did (JSON with --json, a summary unless
 * --quiet), and under --check fail on open conflicts, open violations
 * of error rules and failed rules. Returns 0,
 * -MIRROR_ECONFLICTS, or < 0 when stdout cannot be written.
 */
static int
build_report_out(struct build_report *r, const struct site_model *s,
    const struct sweep_run *run, const struct mirror_opts *o,
    mirror_error *err)
{
	int rc = 0;

	if (o->json)
		rc = json_out_print(build_json(r, s, run, o), err);
	else if (!o->quiet)
		build_print(r, s, o);
	if (rc == 0 && o->check && s->open_conflicts > 0)
		rc = mirror_fail(err, MIRROR_ECONFLICTS, "build: %lld open "
		    "conflicts (--check)", s->open_conflicts);
	if (rc == 0 && o->check)
		rc = cli_check_rules(&r->checks, "build --check", o->store, err);
	return rc;
}

/*
 * Step 3b: the sweep (none with --no-sweep), DIR listed on a thread
 * from its start (*start, output_begin_start's, which the render takes
 * over): the sweep leaves a core idle, the model's read after it keeps
 * both busy, and at 1M facts the listing is 0.4 s of CPU. Returns 0 or
 * < 0 with err set.
 */
static int
build_sweep_listing(struct output_start **start, struct build_report *r,
    struct sweep_run *run, struct build_changes *ch, struct site_model *s,
    const struct mirror_opts *o, mirror_error *err)
{
	int rc = 0;

	*start = output_begin_start(o->out);
	if (!o->no_sweep) {
		rc = build_sweep(run, ch, s, err);
		r->swept = rc == 0;
	}
	return rc;
}

/*
 * The model's read and the render into DIR (the store read open when
 * reading), with their laps; *start (output_begin_start's, taken over
 * and set to NULL) lists DIR on a thread meanwhile. Returns 0 or < 0
 * with err set.
 */
static int
build_read_render(struct build_report *r, struct site_model *s,
    struct site_opts *so, int reading, struct output_start **start,
    const struct mirror_opts *o, mirror_error *err)
{
	int rc;

	rc = site_model_read(s, err);
	if (rc == 0)
		rc = build_counts(r, s, reading, o, err);
	lap(r, PH_READ);
	if (rc == 0)
		rc = build_render(&r->pages, s, so, start, o, err);
	output_begin_drop(*start);  /* not handed over: a failed read */
	*start = NULL;
	return rc;
}

/*
 * DIR's turn first (gen/out/output.h): a second build into the same DIR
 * waits here, before its checks and its sweep, and a bad DIR stops the
 * build before anything is written (output_free lets go). With the
 * lock, DIR is as its last build left it (build_record reads what its
 * pages were rendered from). Returns 0 or < 0 with err set.
 */
static int
build_lock(const struct mirror_opts *o, mirror_error *err)
{
	int rc;

	if ((rc = output_refuse_inside(o->out, o->store, "store", err)) < 0 ||
	    (rc = output_refuse_inside(o->out, o->repo, "--repo", err)) < 0)
		return rc;
	return output_lock(o->out, err);
}

/* What a build holds at its end, freed (and libgit2 released when the
 * build held it: history_hold). */
static void
build_free(struct build_changes *ch, struct site_opts *so,
    struct site_model *s, char *base_url, int held_git)
{
	free(ch->ids);
	rules_abandon(ch->early);   /* before its set and its store */
	rules_free(&ch->rules);
	output_free(so->out);
	record_free(so->record);
	site_model_free(s);
	store_close(s->st);
	theme_free(so->th);
	tmpl_set_free(so->tmpl);
	free(base_url);
	if (held_git)
		history_release();
}

int
cmd_build(const struct mirror_opts *o, mirror_error *err)
{
	struct site_model s = { 0 };
	struct site_opts so = { 0 };
	struct sweep_run run = { 0 };
	struct build_report r = { 0 };
	struct build_changes ch = { 0 };
	struct output_start *start = NULL;
	struct stamp stamp, held;
	char *base_url = NULL;
	int rc, reading = 0, held_git = 0;

	r.start = r.mark = mirror_monotonic_ms();
	if ((rc = build_begin(&s, &base_url, o, err)) < 0)
		goto out;
	rc = build_lock(o, err);
	lap(&r, PH_LOCK);
	if (rc == 0)
		rc = build_open_git(&held_git, &ch, &s, &so, &held, &stamp, o,
		    err);
	if (rc == 1) {
		r.unchanged = 2;    /* before the sweep: none was run */
		rc = 0;
		lap(&r, PH_CHECK);
		goto done;
	}
	lap(&r, PH_CHECK);
	if (rc == 0)
		rc = build_sweep_listing(&start, &r, &run, &ch, &s, o, err);
	digest_drop_rowids(&s.digest);      /* the check's read's alone */
	lap(&r, PH_SWEEP);
	if (rc == 0 && (rc = store_read_begin(s.st, err)) == 0)
		reading = 1;
	if (rc == 0)
		rc = build_snapshot_after(&s, &ch, &run, o, err);
	if (rc == 0 &&
	    (rc = build_unchanged(&held, &stamp, &ch, &s, &so, o, err)) == 1) {
		r.unchanged = 1;
		rc = 0;
		goto done;
	}
	so.stamp = &stamp;
	if (rc == 0)
		rc = build_read_render(&r, &s, &so, reading, &start, o, err);
	if (reading)
		store_read_end(s.st);
	reading = 0;
	lap(&r, PH_RENDER);
	if (rc == 0 && o->repo != NULL &&
	    (rc = build_history(&r.hres, &s, so.out, &run, o, err)) == 0) {
		/* The commit holds this stamp (site.c wrote it last). */
		char *text = stamp_text(&stamp);

		tipmemo_put(o->repo, o->branch, r.hres.commit_id, text,
		    strlen(text));
		free(text);
	}
	lap(&r, PH_COMMIT);
	if (rc == 0)
		rc = output_commit(so.out, err);
	lap(&r, PH_SWAP);
	if (rc == 0) {
		r.written = (long long)output_written(so.out);
		r.reused = (long long)output_reused(so.out);
	}
done:
	output_begin_drop(start);   /* unchanged after all, or failed */
	if (r.unchanged)
		rc = build_report_held(&r, &s, &held, reading, o, err);
	if (rc == 0)
		rc = build_report_out(&r, &s, &run, o, err);
out:
	rules_keys_free(run.keys_later);
	build_free(&ch, &so, &s, base_url, held_git);
	return rc;
}
