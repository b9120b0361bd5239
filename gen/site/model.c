/*
 * model.c: reading the site's model from the store (see model.h).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "site/model.h"
#include "store/parallel.h"
#include "util/byid.h"
#include "util/xalloc.h"

/* The disputed members, every conflict and how many are open, read on
 * st (a store_parallel_fn, as checks_read). Returns 0 or < 0 with err
 * set. */
static int
conflicts_read(void *arg, mirror_store *st, mirror_error *err)
{
	struct site_model *m = arg;
	int rc;

	rc = conflict_disputed(&m->disputed, st, err);
	if (rc == 0)
		rc = conflict_list(&m->conflicts, st, NULL, err);
	m->open_conflicts = 0;
	for (size_t i = 0; rc == 0 && i < m->conflicts.n; i++)
		if (strcmp(m->conflicts.items[i].status, "open") == 0)
			m->open_conflicts++;
	return rc;
}

/* What the rules' tables give the pages: every violation and, from that
 * list, the facts of open violations; each rule's latest run; and the
 * store's counts for api/health.json (the layers' from the digest), the
 * violations' among them. Read on st (a store_parallel_fn: m's own
 * connection or a second one). Returns 0 or < 0 with err set. */
static int
checks_read(void *arg, mirror_store *st, mirror_error *err)
{
	struct site_model *m = arg;
	int rc;

	rc = violation_list(&m->violations, st, NULL, err);
	if (rc == 0) {
		violation_flagged(&m->flagged, &m->violations);
		rc = rule_runs_latest(&m->runs, st, err);
	}
	if (rc == 0)
		rc = health_digested(&m->health, st, &m->digest, m->now,
		    err);
	return rc;
}

/* The projects, their slugs and the audit, on m->st. Returns 0 or < 0
 * with err set. */
static int
facts_read(struct site_model *m, mirror_error *err)
{
	int rc;

	/* The digest counted every project's rows in its pass. */
	rc = facts_projects(&m->projects, &m->n_projects, m->st, &m->digest,
	    err);
	if (rc < 0)
		return rc;
	m->pslug = xcalloc(m->n_projects + 1, sizeof(*m->pslug));
	m->facts_latest = -1;
	for (size_t i = 0; i < m->n_projects; i++) {
		slug_make(m->pslug[i], m->projects[i].id);
		if (m->projects[i].latest > m->facts_latest)
			m->facts_latest = m->projects[i].latest;
	}
	return audit_latest(&m->audit, m->st, err);
}

/* The project of the model's conflict i when it is open, else NULL. */
static const char *
open_conflict_project(const struct site_model *m, size_t i)
{
	const struct conflict *c = &m->conflicts.items[i];

	return strcmp(c->status, "open") == 0 ? c->project : NULL;
}

/* The project of the model's conflict i. */
static const char *
conflict_project(const struct site_model *m, size_t i)
{
	return m->conflicts.items[i].project;
}

/* The project of the model's violation i. */
static const char *
violation_project(const struct site_model *m, size_t i)
{
	return m->violations.items[i].project;
}

/*
 * Fill ix with the n entries of a list by project: project_of gives an
 * entry's project id, or NULL to leave it out. One binary search per
 * entry: linear in the list, whatever the number of projects.
 */
static void
index_by_project(struct model_index *ix, const struct site_model *m,
    size_t n, const char *(*project_of)(const struct site_model *, size_t))
{
	long *pi = xcalloc(n + 1, sizeof(*pi));
	size_t *fill = xcalloc(m->n_projects + 1, sizeof(*fill));

	ix->start = xcalloc(m->n_projects + 1, sizeof(*ix->start));
	ix->ord = xcalloc(n + 1, sizeof(*ix->ord));
	for (size_t i = 0; i < n; i++) {
		const char *project = project_of(m, i);

		pi[i] = project != NULL ? model_project_index(m, project) : -1;
		if (pi[i] >= 0)
			ix->start[pi[i] + 1]++;
	}
	for (size_t p = 0; p < m->n_projects; p++)
		ix->start[p + 1] += ix->start[p];
	for (size_t i = 0; i < n; i++)
		if (pi[i] >= 0)
			ix->ord[ix->start[pi[i]] + fill[pi[i]]++] = i;
	free(fill);
	free(pi);
}

static void
index_free(struct model_index *ix)
{
	free(ix->start);
	free(ix->ord);
	ix->start = ix->ord = NULL;
}


/* Wait for bs, fn's work on a second connection (NULL: not started),
 * or run fn on m's own; rc is the result so far, which an earlier
 * error keeps. Returns the result: 0 or < 0 with err set. */
static int
read_join(struct store_parallel *bs, store_parallel_fn fn,
    struct site_model *m, int rc, mirror_error *err)
{
	mirror_error parallel_err;
	int brc;

	if (store_parallel_join(bs, &brc, &parallel_err)) {
		if (rc == 0 && brc < 0)
			*err = parallel_err;
		return rc < 0 ? rc : brc;
	}
	return rc < 0 ? rc : fn(m, m->st, err);
}

int
site_model_read(struct site_model *m, mirror_error *err)
{
	struct store_parallel *conflicts, *checks;
	int rc;

	/* The conflicts and the rules' tables on connections of their own
	 * at the same time, when they read the same rows
	 * (store/parallel.h: the reads overlap, and the render's health
	 * counts come with the rules'); the first error in the order of
	 * one connection wins. */
	conflicts = store_parallel_start(m->st, conflicts_read, m);
	checks = store_parallel_start(m->st, checks_read, m);
	rc = facts_read(m, err);
	rc = read_join(conflicts, conflicts_read, m, rc, err);
	rc = read_join(checks, checks_read, m, rc, err);
	if (rc < 0)
		return rc;
	/* Once both connections' lists are read. */
	index_by_project(&m->open_of, m, m->conflicts.n,
	    open_conflict_project);
	index_by_project(&m->checks_of, m, m->violations.n,
	    violation_project);
	index_by_project(&m->conflicts_of, m, m->conflicts.n,
	    conflict_project);
	return 0;
}

void
site_model_free(struct site_model *m)
{
	disputed_list_free(&m->disputed);
	conflict_list_free(&m->conflicts);
	audit_list_free(&m->audit);
	flagged_list_free(&m->flagged);
	violation_list_free(&m->violations);
	rule_run_list_free(&m->runs);
	health_free(&m->health);
	index_free(&m->open_of);
	index_free(&m->checks_of);
	index_free(&m->conflicts_of);
	facts_kept_free(m->kept);
	m->kept = NULL;
	facts_projects_free(m->projects, m->n_projects);
	m->projects = NULL;
	m->n_projects = 0;
	free(m->pslug);
	m->pslug = NULL;
	digest_free(&m->digest);
}

long
model_project_index(const struct site_model *m, const char *id)
{
	size_t at = byid_sorted(m->projects, m->n_projects,
	    sizeof(*m->projects), offsetof(struct fact_project, id), id);

	return at != BYID_NONE ? (long)at : -1;
}

const char *
model_marker_of(const struct site_model *m, enum fact_layer layer,
    const char *id)
{
	const struct disputed *d = disputed_find(&m->disputed, layer, id);

	return d != NULL ? d->conflict_id : NULL;
}

const struct flagged *
model_check_of(const struct site_model *m, const char *layer,
    const char *id, size_t *n)
{
	return violation_flagged_find(&m->flagged, layer, id, n);
}

const char *
model_rule_label(const struct site_model *m, const char *rule_id)
{
	const struct rule_run *r = violation_rule_run_find(&m->runs, rule_id);

	return r != NULL ? r->label : rule_id;
}
