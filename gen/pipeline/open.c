/*
 * open.c: a build's steps 3 to 5 (build.h) and its repository's part of
 * step 2: the templates and the theme parsed, the rules read, the store
 * opened, then checked before the sweep (check.c), the rehearsal, the
 * repository vetted before or after them.
 */
#include <stdlib.h>
#include <string.h>

#include "pipeline/steps.h"
#include "render/datadir.h"
#include "store/store.h"

/* Every template a build renders, parsed before anything is written. */
static const char *const page_templates[] = { "index.md", "project.md",
    "decisions.md", "subsystems.md", "conflicts.md", "conflicts_project.md",
    "conflicts_open.md", "conflict.md",
    "checks.md", "checks_open.md", "check.md", "rule.md",
    "atoz.md", "atoz_letter.md", "search.md", "changes.md", "projects.md",
    "404.md" };

int
build_rules_load(struct rule_set *rs, const char *dir,
    const struct build_param *params, size_t n, mirror_error *err)
{
	mirror_error ignored;
	char *starter = NULL;
	int rc = 0;

	rules_init(rs);
	/* No starter directory anywhere: no starter rules. */
	if (datadir_find(&starter, "rules", &ignored) == 0)
		rc = rules_load_dir(rs, starter, "rules", RULE_STARTER, err);
	free(starter);
	if (rc >= 0 && dir != NULL)
		rc = rules_load_dir(rs, dir, dir, RULE_USER, err);
	for (size_t i = 0; rc >= 0 && i < n; i++)
		rc = rules_override(rs, params[i].rule, params[i].name,
		    params[i].value, err);
	if (rc < 0)
		rules_free(rs);
	return rc < 0 ? rc : 0;
}

/*
 * Step 5: a render of the whole site from the store as it is, written
 * nowhere: a placeholder that names nothing shows only while rendering,
 * and the sweep must not write to the store of a build that will fail.
 * Run only with user templates (the default templates are tested) and
 * a sweep.
 * Returns 0 or < 0 with err set.
 */
static int
build_rehearse(const struct build *b, mirror_error *err)
{
	const struct site_opts ro = { .tmpl = b->so.tmpl, .th = b->so.th };
	struct site_model r;
	size_t pages;
	int rc;

	memset(&r, 0, sizeof(r));
	r.now = b->s.now;
	r.title = b->s.title;
	r.base_url = b->s.base_url;
	rc = store_open(&r.st, b->o->store, STORE_READ, err);
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
 * Step 3: open what the pages are made with, so that one that does not
 * parse stops the build before the sweep touches the store: every
 * template and the theme; the rules (a rules directory that cannot be
 * read stops the build here, a rule that cannot be read is the sweep's
 * to tell; a no_sweep build reads them too: the set is an input of its
 * stamp, so its site is the one a sweeping build of the same store
 * makes); then the store, for writing unless no_sweep. Returns 0 or < 0
 * with err set.
 */
int
build_open(struct build *b, mirror_error *err)
{
	const struct build_opts *o = b->o;
	const tmpl *t;
	int rc;

	rc = tmpl_set_open(&b->so.tmpl, o->templates, NULL, err);
	for (size_t i = 0; rc == 0 &&
	    i < sizeof(page_templates) / sizeof(*page_templates); i++)
		rc = tmpl_set_get(&t, b->so.tmpl, page_templates[i], err);
	if (rc == 0)
		rc = theme_open(&b->so.th, o->theme, err);
	if (rc == 0)
		rc = build_rules_load(&b->ch.rules, o->rules, o->params,
		    o->nparams, err);
	if (rc < 0)
		return rc;
	return store_open(&b->s.st, o->store, o->no_sweep ? STORE_READ :
	    STORE_WRITE, err);
}

/*
 * Step 4: the check (build_check), in a read of its own; the row ids
 * it takes stay for the sweep (build_sweep_listing), which takes them
 * while the store is as this read saw it. A no_sweep build checks
 * nothing here (its read checks what it reads) and renders: DIR's
 * record is read. Returns 0 to go on, BUILD_UNCHANGED when DIR (and
 * the branch) hold the build, or < 0 with err set.
 */
int
build_check_store(struct build *b, mirror_error *err)
{
	int rc;

	if (b->o->no_sweep) {
		build_record(b);
		return 0;
	}
	if ((rc = store_read_begin(b->s.st, err)) < 0)
		return rc;
	rc = build_check(b, err);
	store_read_end(b->s.st);
	return rc;
}

/* Step 5 (build_rehearse), with user templates and a sweep. Returns 0
 * or < 0 with err set. */
int
build_rehearse_templates(struct build *b, mirror_error *err)
{
	if (b->o->templates == NULL || b->o->no_sweep)
		return 0;
	return build_rehearse(b, err);
}

/*
 * 1 when a build with a repository may leave libgit2 (and
 * history_check) until it knows it has something to commit, or that the
 * memo cannot say the branch holds its site: history_check would take
 * the repository's author from its config, or check the signing key, so
 * both keep the old order; a bad author is a bad build whatever the
 * store. Else 0.
 */
static int
build_git_later(const struct build_opts *o)
{
	return o->repo != NULL && o->author != NULL && o->sign_key == NULL &&
	    history_author_ok(o->author);
}

/*
 * Start libgit2 for the build (b->held_git: history_release at the end)
 * and, before the sweep writes anything, vet the repository: one that
 * is not a repository, holds a stale lock or has the branch checked out
 * fails the build with the store, the site and the repository as they
 * were. Returns 0 or < 0 with err set.
 */
static int
build_git_start(struct build *b, mirror_error *err)
{
	struct history_request req;
	int rc;

	if (b->o->repo == NULL)
		return 0;
	rc = history_hold_finish(b->git_start, err);
	b->git_start = NULL;
	if (rc < 0)
		return rc;
	b->held_git = 1;
	build_history_request(&req, b->o, b->s.now);
	return history_check(&req, err);
}

/*
 * Step 2's repository, before anything is opened: libgit2 started and
 * the repository vetted (build_git_start), unless the build may wait
 * (build_git_later; b->ch.git_later says so). Returns 0 or < 0 with
 * err set.
 */
int
build_git_first(struct build *b, mirror_error *err)
{
	b->ch.git_later = build_git_later(b->o);
	return b->ch.git_later ? 0 : build_git_start(b, err);
}

/*
 * Step 2's repository, for a build that waited (b->ch.git_later), once
 * the check and the rehearsal are done: started and vetted now, also
 * for a build the check found held (b->report.path) unless the tip's
 * memo said so (b->ch.tip_by_memo: it answers only when the branch has
 * no lock, no HEAD naming it and no work tree, what history_check would
 * refuse). Returns 0 or < 0 with err set.
 */
int
build_git_then(struct build *b, mirror_error *err)
{
	int held = b->report.path == BUILD_PATH_HELD_BEFORE_SWEEP;

	if (!b->ch.git_later || (held && b->ch.tip_by_memo))
		return 0;
	return build_git_start(b, err);
}
