/*
 * open.c: a build's steps 3 and 5 (build.h), with its way into steps 2
 * and 4: the templates and the theme parsed, the rules read, the store
 * opened (and checked before the sweep, check.c), the rehearsal, the
 * repository vetted.
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
		rc = rules_load_dir(rs, starter, "rules", RULE_STARTER, 1,
		    err);
	free(starter);
	if (rc >= 0 && dir != NULL)
		rc = rules_load_dir(rs, dir, dir, RULE_USER, 0, err);
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
 * Step 3, then steps 4 and 5: open templates and theme (parse errors
 * stop the build before the sweep touches the store; with user
 * templates, a rehearsal render, step 5, catches the rest), then open
 * the store, for writing unless no_sweep, and check it (step 4). The
 * caller sweeps on the same connection, which is then used for the
 * read. Returns 0 to go on, BUILD_UNCHANGED when there is nothing to do
 * (build_check), or < 0 with err set.
 */
static int
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
	if (rc < 0)
		return rc;
	/* A rules directory that cannot be read stops the build here; a
	 * rule that cannot be read is the sweep's to tell. A no_sweep
	 * build reads them too: the set is an input of its stamp, so its
	 * site is the one a sweeping build of the same store makes. */
	if ((rc = build_rules_load(&b->ch.rules, o->rules, o->params,
	    o->nparams, err)) < 0)
		return rc;
	if (o->no_sweep) {
		build_record(b);
		return store_open(&b->s.st, o->store, STORE_READ, err);
	}
	rc = store_open(&b->s.st, o->store, STORE_WRITE, err);
	if (rc == 0 && (rc = store_read_begin(b->s.st, err)) == 0) {
		rc = build_check(b, err);
		/* The row ids stay for the sweep (build_sweep), which takes
		 * them while the store is as this read saw it. */
		store_read_end(b->s.st);
	}
	if (rc != 0)
		return rc;          /* BUILD_UNCHANGED: no sweep */
	if (o->templates != NULL && (rc = build_rehearse(b, err)) < 0)
		return rc;
	return 0;
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
	if ((rc = history_hold(err)) < 0)
		return rc;
	b->held_git = 1;
	build_history_request(&req, b->o, b->s.now);
	return history_check(&req, err);
}

/*
 * build_open with libgit2 started and the repository vetted before it
 * (build_git_start), or after it when the build may wait
 * (build_git_later): then only if the build goes on to the sweep, or
 * the tip's memo could not say it has nothing to do (the memo answers
 * only when the branch has no lock, no HEAD naming it and no work tree,
 * what history_check would refuse). Returns as build_open does.
 */
int
build_open_git(struct build *b, mirror_error *err)
{
	int rc = 0, grc;

	b->ch.git_later = build_git_later(b->o);
	if (!b->ch.git_later && (rc = build_git_start(b, err)) < 0)
		return rc;
	rc = build_open(b, err);
	if (rc < 0 || !b->ch.git_later ||
	    (rc == BUILD_UNCHANGED && b->ch.tip_by_memo))
		return rc;
	grc = build_git_start(b, err);
	return grc < 0 ? grc : rc;
}
