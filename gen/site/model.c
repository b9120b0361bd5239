/*
 * model.c: reading the site's model from the store (see model.h).
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/kept_rows.h"
#include "site/model.h"
#include "store/parallel.h"
#include "sys/cache.h"
#include "util/array.h"
#include "util/byid.h"
#include "util/hash.h"
#include "util/layer.h"
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
	return rc;
}

/* The facts of m's open violations, each rule's latest run and the
 * store's counts for api/health.json (the layers' from the digest;
 * the findings' by status from the lists, once both are read:
 * site_model_read), on st. Returns 0 or < 0 with err set. */
static int
rules_read(struct site_model *m, mirror_store *st, mirror_error *err)
{
	int rc;

	violation_flagged(&m->flagged, &m->violations);
	rc = rule_runs_latest(&m->runs, st, err);
	if (rc == 0)
		rc = health_digested(&m->health, st, &m->digest, m->now, 1,
		    err);
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
	return rc < 0 ? rc : rules_read(m, st, err);
}

/* The projects, their slugs and the audit, on m->st: of the listed
 * projects' rows given (facts_projects' kept; NULL: read). Returns 0
 * or < 0 with err set. */
static int
facts_read(struct site_model *m, const struct fact_project *listed,
    mirror_error *err)
{
	int rc;

	/* The digest counted every project's rows in its pass. */
	rc = facts_projects(&m->projects, &m->n_projects, m->st, &m->digest,
	    listed, err);
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

/* ---- the lists kept for the next read (output/kept_rows.h) ---------- */

/*
 * Two texts are kept: the findings (KEEP_KIND: the conflicts, the
 * violations and the listed projects), written again only when what
 * they say changed, and the sums (KEEP_SUMS_KIND: each project's
 * digest the findings are of, and their generation), written by every
 * read that kept them, so a change of values alone writes a few kB,
 * not the findings (1.7 MB at 100,000 facts: 4.5 ms). A generation
 * names one findings text: the sums hold only with it.
 */
#define KEEP_KIND "model"
#define KEEP_SUMS_KIND "model-sums"
/* The fields of a kept row, and the most bytes of a kept text read. */
#define KEEP_NF 16
#define KEEP_MAX ((size_t)1 << 31)

/* The findings text's tag for findings sum h and generation gen (16
 * hex digits) into tag (a line). */
static void
keep_tag(char tag[64], uint64_t h, const char *gen)
{
	char hex[17];

	hash_hex(hex, h);
	if (snprintf(tag, 64, "mirror-model 2 %s %s", hex, gen) >= 64)
		abort();                /* 15 + 16 + 1 + 16 bytes */
}

/* The sums text's tag for findings sum h into tag (a line). */
static void
sums_tag(char tag[64], uint64_t h)
{
	char hex[17];

	hash_hex(hex, h);
	if (snprintf(tag, 64, "mirror-model-sums 1 %s", hex) >= 64)
		abort();                /* 20 + 16 bytes */
}

/* A number as kept ("%lld"), written into buf: returns where it
 * starts. Without printf: a kept text has three a conflict's member. */
static const char *
keep_num(char buf[24], long long v)
{
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v :
	    (unsigned long long)v;
	char *p = buf + 23;

	*p = '\0';
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) > 0);
	if (v < 0)
		*--p = '-';
	return p;               /* 20 digits and a sign at most */
}

/* Put row f[0..n) padded with NULL to KEEP_NF fields into w. */
static void
keep_put(struct kept_writer *w, const char *const *f, size_t n)
{
	const char *row[KEEP_NF] = { NULL };

	memcpy(row, f, n * sizeof(*f));
	kept_writer_put(w, row, KEEP_NF);
}

/* Put conflict c, its members and its earlier ids into w. */
static void
keep_conflict(struct kept_writer *w, const struct conflict *c)
{
	char a[24], b[24], t[24];

	keep_put(w, (const char *const[]){ "c", c->id, c->detected_at,
	    c->slot_kind, c->slot_key, c->project, c->status, c->resolved_at,
	    c->resolution, c->resolved_by, keep_num(a, c->seq),
	    c->description, c->question, c->question_then }, 14);
	for (size_t k = 0; k < c->n_members; k++) {
		const struct conflict_member *x = &c->members[k];

		keep_put(w, (const char *const[]){ "m", keep_num(a, x->layer),
		    x->id, keep_num(t, x->trust), x->value_then, x->value_now,
		    x->status_now, x->conflicts_with, keep_num(b, x->favoured),
		    x->layer_type, x->source, x->created_at, x->updated_at,
		    x->label, x->project, x->slot_words }, 16);
	}
	for (size_t k = 0; k < c->n_earlier; k++)
		keep_put(w, (const char *const[]){ "e", c->earlier[k] }, 2);
}

/* Put violation v, its facts and its earlier ids into w. */
static void
keep_violation(struct kept_writer *w, const struct violation *v)
{
	keep_put(w, (const char *const[]){ "v", v->id, v->rule_id,
	    v->severity, v->project, v->facts, v->message, v->status,
	    v->detected_at, v->opened_run, v->closed_at, v->closed_run }, 12);
	for (size_t k = 0; k < v->n_facts; k++) {
		const struct violation_fact *f = &v->fact[k];

		keep_put(w, (const char *const[]){ "f", f->layer, f->id,
		    f->label, f->project, f->source, f->status_now }, 7);
	}
	for (size_t k = 0; k < v->n_earlier; k++)
		keep_put(w, (const char *const[]){ "w", v->earlier[k] }, 2);
}

/* The conflicts wc[0..nc) and the violations wv[0..nv) of m as a kept
 * text puts them, in w->buf (kept_writer_free frees it). */
static void
keep_text(struct kept_writer *w, const struct site_model *m,
    const size_t *wc, size_t nc, const size_t *wv, size_t nv)
{
	kept_writer_begin(w, NULL, "findings");
	for (size_t k = 0; k < nc; k++)
		keep_conflict(w, &m->conflicts.items[wc[k]]);
	for (size_t k = 0; k < nv; k++)
		keep_violation(w, &m->violations.items[wv[k]]);
	kept_writer_end(w);
}

/* Start w as m's store's entry of kind, tagged tag: its sink, or NULL
 * when there is no cache (w is then not started). */
static struct cache_writer *
keep_begin(struct kept_writer *w, const struct site_model *m,
    const char *kind, const char *tag)
{
	const char *path = store_path(m->st);
	struct cache_writer *sink = cache_writer_start(kind, path,
	    strlen(path));

	if (sink != NULL)
		kept_writer_begin(w, sink, tag);
	return sink;
}

/* End w (keep_begin's, into sink): the entry put in place. */
static void
keep_end(struct kept_writer *w, struct cache_writer *sink)
{
	kept_writer_end(w);
	cache_writer_end(sink, 1);
	kept_writer_free(w);
}

/* Keep each project's digest (the loose rows' too) for the next read
 * of the same store, under findings sum h, as those of the findings of
 * generation gen (best effort: nothing when there is no cache).
 * Returns nothing. */
static void
sums_write(const struct site_model *m, uint64_t h, const char *gen)
{
	struct cache_writer *sink;
	struct kept_writer w;
	char tag[64], hex[17];

	sums_tag(tag, h);
	if ((sink = keep_begin(&w, m, KEEP_SUMS_KIND, tag)) == NULL)
		return;
	keep_put(&w, (const char *const[]){ "g", gen }, 2);
	hash_hex(hex, m->digest.loose);
	keep_put(&w, (const char *const[]){ "l", hex }, 2);
	for (size_t i = 0; i < m->digest.n; i++) {
		hash_hex(hex, m->digest.p[i].sum);
		keep_put(&w, (const char *const[]){ "p",
		    m->digest.p[i].project, hex }, 3);
	}
	keep_end(&w, sink);
}

/* Keep m's conflicts, violations and listed projects for the next read
 * of the same store, under findings sum h and generation gen (best
 * effort: nothing when there is no cache). Returns nothing. */
static void
keep_write(const struct site_model *m, uint64_t h, const char *gen)
{
	struct cache_writer *sink;
	struct kept_writer w;
	char tag[64];

	keep_tag(tag, h, gen);
	if ((sink = keep_begin(&w, m, KEEP_KIND, tag)) == NULL)
		return;
	for (size_t i = 0; i < m->n_projects; i++) {
		const struct fact_project *p = &m->projects[i];

		if (!p->listed)
			continue;
		keep_put(&w, (const char *const[]){ "P", p->id, p->name,
		    p->description }, 4);
		for (size_t k = 0; k < p->n_aliases; k++)
			keep_put(&w, (const char *const[]){ "a",
			    p->aliases[k] }, 2);
	}
	for (size_t i = 0; i < m->conflicts.n; i++)
		keep_conflict(&w, &m->conflicts.items[i]);
	for (size_t i = 0; i < m->violations.n; i++)
		keep_violation(&w, &m->violations.items[i]);
	keep_end(&w, sink);
}

/* A kept text being read into a model: the projects whose digest is
 * not the one kept (sorted), and those the text named. */
struct keep_read {
	struct site_model *m;
	const char **changed;
	size_t n_changed, cap_changed;
	char *seen;             /* m->digest.n flags: kept too */
	struct fact_project *listed;    /* the listed projects kept */
	size_t n_listed, cap_listed, cap_a;
	size_t cap_c, cap_m, cap_e, cap_v, cap_f;
	char last;              /* 'c' or 'v': whose rows come now */
	char gen[17];           /* the findings' generation */
	int same;               /* keep_refresh: every finding it read
	                           again is as kept */
};

/* f (NULL kept) owned. */
static char *
keep_dup(const char *f)
{
	return f != NULL ? xstrdup(f) : NULL;
}

/* Field f as a number in [lo, hi] into *out: 1, else 0. */
static int
keep_int(long long *out, const char *f, long long lo, long long hi)
{
	char *end;

	if (f == NULL || f[0] == '\0')
		return 0;
	*out = strtoll(f, &end, 10);
	return *end == '\0' && *out >= lo && *out <= hi;
}

/* Whether the fields f[from..to) all hold text. */
static int
keep_set(const char *const *f, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (f[i] == NULL)
			return 0;
	return 1;
}

/* A "p" or "l" row: a project's digest (or the loose rows') as kept,
 * against the one now. Returns 1, or 0 when the row is not one. */
static int
keep_digest_row(struct keep_read *r, const char *const *f)
{
	const struct store_digest *d = &r->m->digest;
	const struct project_digest *p;
	char hex[17];

	if (f[0][0] == 'l') {
		hash_hex(hex, d->loose);
		if (f[1] == NULL)
			return 0;
		if (strcmp(hex, f[1]) != 0)
			ARRAY_PUSH(r->changed, r->n_changed, r->cap_changed) =
			    "";
		return 1;
	}
	if (!keep_set(f, 1, 3))
		return 0;
	p = digest_find(d, f[1]);
	if (p != NULL) {
		r->seen[p - d->p] = 1;
		hash_hex(hex, p->sum);
	}
	if (p == NULL || strcmp(hex, f[2]) != 0)
		ARRAY_PUSH(r->changed, r->n_changed, r->cap_changed) =
		    p != NULL ? p->project : "";
	return 1;
}

/*
 * The room beyond the last conflict's or violation's members, facts and
 * earlier ids given back once its rows are read: a list grows by eight
 * at least, and most findings have one or two (at 1,000,000 facts the
 * slack was 21 MB of the 53 MB the kept findings took).
 */
static void
keep_fit(struct keep_read *r)
{
	struct site_model *m = r->m;

	if (r->last == 'c' && m->conflicts.n > 0) {
		struct conflict *c = &m->conflicts.items[m->conflicts.n - 1];

		ARRAY_FIT(c->members, c->n_members, r->cap_m);
		ARRAY_FIT(c->earlier, c->n_earlier, r->cap_e);
	} else if (r->last == 'v' && m->violations.n > 0) {
		struct violation *v = &m->violations.items[m->violations.n -
		    1];

		ARRAY_FIT(v->fact, v->n_facts, r->cap_f);
		ARRAY_FIT(v->earlier, v->n_earlier, r->cap_e);
	}
	r->last = 0;
}

/* A "c" row into a new conflict of m. Returns 1, or 0 when the row is
 * not one. */
static int
keep_conflict_row(struct keep_read *r, const char *const *f)
{
	struct conflict *c;
	long long seq;

	if (!keep_set(f, 1, 7) || !keep_set(f, 8, 10) || !keep_set(f, 11,
	    13) || !keep_int(&seq, f[10], LLONG_MIN, LLONG_MAX) ||
	    (strcmp(f[6], "open") != 0 && strcmp(f[6], "resolved") != 0 &&
	    strcmp(f[6], "dismissed") != 0))
		return 0;
	keep_fit(r);
	c = &ARRAY_PUSH(r->m->conflicts.items, r->m->conflicts.n, r->cap_c);
	memset(c, 0, sizeof(*c));
	c->id = keep_dup(f[1]);
	c->detected_at = keep_dup(f[2]);
	c->slot_kind = keep_dup(f[3]);
	c->slot_key = keep_dup(f[4]);
	c->project = keep_dup(f[5]);
	c->status = keep_dup(f[6]);
	c->resolved_at = keep_dup(f[7]);
	c->resolution = keep_dup(f[8]);
	c->resolved_by = keep_dup(f[9]);
	c->seq = seq;
	c->description = keep_dup(f[11]);
	c->question = keep_dup(f[12]);
	c->question_then = keep_dup(f[13]);
	r->cap_m = r->cap_e = 0;
	r->last = 'c';
	return 1;
}

/* An "m" row into a new member of m's last conflict. Returns 1, or 0
 * when the row is not one. */
static int
keep_member_row(struct keep_read *r, const char *const *f)
{
	struct conflict *c;
	struct conflict_member *x;
	long long layer, trust, favoured;

	if (r->m->conflicts.n == 0 || !keep_int(&layer, f[1], LAYER_MEMORY,
	    LAYER_STATE) || !keep_int(&trust, f[3], INT_MIN, INT_MAX) ||
	    !keep_int(&favoured, f[8], 0, 1) || f[2] == NULL || f[4] == NULL)
		return 0;
	c = &r->m->conflicts.items[r->m->conflicts.n - 1];
	x = &ARRAY_PUSH(c->members, c->n_members, r->cap_m);
	x->layer = (enum fact_layer)layer;
	x->id = keep_dup(f[2]);
	x->trust = (int)trust;
	x->value_then = keep_dup(f[4]);
	x->value_now = keep_dup(f[5]);
	x->status_now = keep_dup(f[6]);
	x->conflicts_with = keep_dup(f[7]);
	x->favoured = (int)favoured;
	x->layer_type = keep_dup(f[9]);
	x->source = keep_dup(f[10]);
	x->created_at = keep_dup(f[11]);
	x->updated_at = keep_dup(f[12]);
	x->label = keep_dup(f[13]);
	x->project = keep_dup(f[14]);
	x->slot_words = keep_dup(f[15]);
	return 1;
}

/* A "v" row into a new violation of m. Returns 1, or 0 when the row is
 * not one. */
static int
keep_violation_row(struct keep_read *r, const char *const *f)
{
	struct violation *v;

	if (!keep_set(f, 1, 10) || (strcmp(f[7], "open") != 0 &&
	    strcmp(f[7], "closed") != 0))
		return 0;
	keep_fit(r);
	v = &ARRAY_PUSH(r->m->violations.items, r->m->violations.n,
	    r->cap_v);
	memset(v, 0, sizeof(*v));
	v->id = keep_dup(f[1]);
	v->rule_id = keep_dup(f[2]);
	v->severity = keep_dup(f[3]);
	v->project = keep_dup(f[4]);
	v->facts = keep_dup(f[5]);
	v->message = keep_dup(f[6]);
	v->status = keep_dup(f[7]);
	v->detected_at = keep_dup(f[8]);
	v->opened_run = keep_dup(f[9]);
	v->closed_at = keep_dup(f[10]);
	v->closed_run = keep_dup(f[11]);
	r->cap_f = r->cap_e = 0;
	r->last = 'v';
	return 1;
}

/* An "f" row into a new fact of m's last violation. Returns 1, or 0
 * when the row is not one. */
static int
keep_fact_row(struct keep_read *r, const char *const *f)
{
	struct violation *v;
	struct violation_fact *x;

	if (r->m->violations.n == 0 || !keep_set(f, 1, 3))
		return 0;
	v = &r->m->violations.items[r->m->violations.n - 1];
	x = &ARRAY_PUSH(v->fact, v->n_facts, r->cap_f);
	x->layer = keep_dup(f[1]);
	x->id = keep_dup(f[2]);
	x->label = keep_dup(f[3]);
	x->project = keep_dup(f[4]);
	x->source = keep_dup(f[5]);
	x->status_now = keep_dup(f[6]);
	return 1;
}

/* An "e" or "w" row: an earlier id of m's last conflict or violation;
 * a "P" row, a listed project, or an "a" row, its alias. Returns 1, or
 * 0 when the row is not one. */
static int
keep_id_row(struct keep_read *r, const char *const *f)
{
	struct site_model *m = r->m;

	if (f[0][0] == 'e' && m->conflicts.n > 0 && f[1] != NULL) {
		struct conflict *c = &m->conflicts.items[m->conflicts.n - 1];

		ARRAY_PUSH(c->earlier, c->n_earlier, r->cap_e) = xstrdup(f[1]);
		return 1;
	}
	if (f[0][0] == 'P' && keep_set(f, 1, 4)) {
		struct fact_project *p = &ARRAY_PUSH(r->listed, r->n_listed,
		    r->cap_listed);

		memset(p, 0, sizeof(*p));
		p->id = xstrdup(f[1]);
		p->name = xstrdup(f[2]);
		p->description = xstrdup(f[3]);
		p->aliases = xcalloc(1, sizeof(char *));
		p->listed = 1;
		r->cap_a = 1;
		return 1;
	}
	if (f[0][0] == 'a' && r->n_listed > 0 && f[1] != NULL) {
		struct fact_project *p = &r->listed[r->n_listed - 1];

		/* Room for the NULL after the last, as project_aliases. */
		ARRAY_RESERVE(p->aliases, r->cap_a, p->n_aliases + 2);
		p->aliases[p->n_aliases++] = xstrdup(f[1]);
		p->aliases[p->n_aliases] = NULL;
		return 1;
	}
	if (f[0][0] == 'w' && m->violations.n > 0 && f[1] != NULL) {
		struct violation *v = &m->violations.items[m->violations.n -
		    1];

		ARRAY_PUSH(v->earlier, v->n_earlier, r->cap_e) = xstrdup(f[1]);
		return 1;
	}
	return 0;
}

/* One kept row f into r. Returns 1, or 0 when it is not a kept row. */
static int
keep_row(struct keep_read *r, const char *const *f)
{
	if (f[0] == NULL || f[0][0] == '\0' || f[0][1] != '\0')
		return 0;
	switch (f[0][0]) {
	case 'l':
	case 'p':
		return 0;               /* the sums text's (sums_load) */
	case 'c':
		return keep_conflict_row(r, f);
	case 'm':
		return keep_member_row(r, f);
	case 'v':
		return keep_violation_row(r, f);
	case 'f':
		return keep_fact_row(r, f);
	default:
		return keep_id_row(r, f);
	}
}

/* strcmp of two strings' pointers (qsort, bsearch). */
static int
keep_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Open the sums text kept for the store at path under findings sum h
 * into map and c, past its generation, which goes into gen: 1, else 0
 * (nothing mapped).
 */
static int
sums_open(struct cache_map *map, struct kept_cursor *c, char gen[17],
    const char *path, uint64_t h)
{
	const char *f[KEEP_NF];
	char tag[64];

	sums_tag(tag, h);
	if (cache_map(map, KEEP_MAX, KEEP_SUMS_KIND, path, strlen(path)) != 0)
		return 0;
	if (kept_rows_open(c, map->data, map->len, tag, map) &&
	    kept_rows_next(c, f, KEEP_NF) == 1 && f[0] != NULL &&
	    strcmp(f[0], "g") == 0 && f[1] != NULL && strlen(f[1]) == 16) {
		memcpy(gen, f[1], 17);
		return 1;
	}
	cache_unmap(map);
	return 0;
}

/* Open the findings text of generation gen kept for the store at path
 * under findings sum h into map and c: 1, else 0 (nothing mapped). */
static int
findings_open(struct cache_map *map, struct kept_cursor *c,
    const char *gen, const char *path, uint64_t h)
{
	char tag[64];

	keep_tag(tag, h, gen);
	if (cache_map(map, KEEP_MAX, KEEP_KIND, path, strlen(path)) != 0)
		return 0;
	if (kept_rows_open(c, map->data, map->len, tag, map))
		return 1;
	cache_unmap(map);
	return 0;
}

int
site_findings_known(mirror_store *st, const struct store_digest *d)
{
	const char *path = store_path(st);
	struct cache_map map;
	struct kept_cursor c;
	char gen[17];
	uint64_t h;

	if (facts_findings_sum(&h, d) != 0 || !sums_open(&map, &c, gen, path,
	    h))
		return 0;
	cache_unmap(&map);
	if (!findings_open(&map, &c, gen, path, h))
		return 0;
	cache_unmap(&map);
	return 1;
}

/* The sums text kept for findings sum h into r: its generation, and
 * the projects whose digest is not the one kept. Returns 1, or 0 when
 * there is none or any doubt. */
static int
sums_load(struct keep_read *r, uint64_t h)
{
	const char *f[KEEP_NF];
	struct cache_map map;
	struct kept_cursor c;
	int ok, rc = 0;

	if (!sums_open(&map, &c, r->gen, store_path(r->m->st), h))
		return 0;
	ok = 1;
	while (ok && (rc = kept_rows_next(&c, f, KEEP_NF)) == 1)
		ok = f[0] != NULL && (strcmp(f[0], "l") == 0 ||
		    strcmp(f[0], "p") == 0) && keep_digest_row(r, f);
	cache_unmap(&map);
	return ok && rc == 0;
}

/*
 * The text kept for findings sum h into m's conflicts and violations,
 * and into r the projects whose digest is not the one
 * kept, sorted. Returns 1 read; 0 when there is none or any doubt (m's
 * lists are then empty again).
 */
static int
keep_load(struct keep_read *r, uint64_t h)
{
	struct site_model *m = r->m;
	const char *f[KEEP_NF];
	struct cache_map map;
	struct kept_cursor c;
	int ok, rc = 0;

	r->seen = xcalloc(m->digest.n + 1, 1);
	if (!sums_load(r, h) || !findings_open(&map, &c, r->gen,
	    store_path(m->st), h))
		return 0;
	ok = 1;
	while (ok && (rc = kept_rows_next(&c, f, KEEP_NF)) == 1)
		ok = keep_row(r, f);
	ok = ok && rc == 0;
	keep_fit(r);
	ARRAY_FIT(m->conflicts.items, m->conflicts.n, r->cap_c);
	ARRAY_FIT(m->violations.items, m->violations.n, r->cap_v);
	cache_unmap(&map);
	for (size_t i = 0; ok && i < m->digest.n; i++)
		if (!r->seen[i])
			ARRAY_PUSH(r->changed, r->n_changed, r->cap_changed) =
			    m->digest.p[i].project;
	/* Many changed: a whole read costs less than each one's. */
	ok = ok && r->n_changed * 4 <= m->digest.n + 4;
	if (!ok) {
		conflict_list_free(&m->conflicts);
		violation_list_free(&m->violations);
		return 0;
	}
	if (r->n_changed > 0)
		qsort(r->changed, r->n_changed, sizeof(*r->changed),
		    keep_cmp);
	return 1;
}

/* Whether a fact of project (NULL: its row was gone) may have changed
 * since the text r read was kept. */
static int
keep_changed(const struct keep_read *r, const char *project)
{
	return project == NULL || (r->n_changed > 0 && bsearch(&project,
	    r->changed, r->n_changed, sizeof(*r->changed), keep_cmp) !=
	    NULL);
}

/*
 * Read again the rows now of the facts named by m's conflicts and
 * violations (as kept) that name a fact of a changed project, or one
 * whose row was gone: the rest hold the same rows, their facts' too.
 * Returns 0, or < 0 with err set.
 */
static int
keep_refresh(struct keep_read *r, mirror_error *err)
{
	struct site_model *m = r->m;
	size_t *wc = xcalloc(m->conflicts.n + 1, sizeof(*wc));
	size_t *wv = xcalloc(m->violations.n + 1, sizeof(*wv));
	size_t nc = 0, nv = 0;
	struct kept_writer before, after;
	int rc;

	for (size_t i = 0; i < m->conflicts.n; i++) {
		const struct conflict *c = &m->conflicts.items[i];
		size_t k = 0;

		while (k < c->n_members && !keep_changed(r,
		    c->members[k].project))
			k++;
		if (k < c->n_members)
			wc[nc++] = i;
	}
	for (size_t i = 0; i < m->violations.n; i++) {
		const struct violation *v = &m->violations.items[i];
		size_t k = 0;

		while (k < v->n_facts && !keep_changed(r, v->fact[k].project))
			k++;
		if (k < v->n_facts)
			wv[nv++] = i;
	}
	/* What the findings read again said as kept, to tell whether they
	 * say it still. */
	keep_text(&before, m, wc, nc, wv, nv);
	rc = conflict_list_refresh(&m->conflicts, wc, nc, m->st, m->kept,
	    err);
	if (rc == 0)
		rc = violation_list_refresh(&m->violations, wv, nv, m->st,
		    err);
	if (rc == 0) {
		keep_text(&after, m, wc, nc, wv, nv);
		r->same = after.buf.len == before.buf.len && memcmp(
		    after.buf.data, before.buf.data, before.buf.len) == 0;
		kept_writer_free(&after);
	}
	kept_writer_free(&before);
	free(wc);
	free(wv);
	return rc;
}

/* A status's place in the review queue (conflict_list's order). */
static int
status_rank(const char *status)
{
	return strcmp(status, "open") == 0 ? 0 : strcmp(status,
	    "resolved") == 0 ? 1 : strcmp(status, "dismissed") == 0 ? 2 : 3;
}

/* conflict_list's order: open, resolved, dismissed; newest first; id. */
static int
cmp_conflict(const void *a, const void *b)
{
	const struct conflict *x = a, *y = b;
	int c = status_rank(x->status) - status_rank(y->status);

	if (c == 0)
		c = strcmp(y->detected_at, x->detected_at);
	return c != 0 ? c : strcmp(x->id, y->id);
}

/* violation_list's order: open first, error before warn, rule, id. */
static int
cmp_violation(const void *a, const void *b)
{
	const struct violation *x = a, *y = b;
	int c = (strcmp(x->status, "open") != 0) -
	    (strcmp(y->status, "open") != 0);

	if (c == 0)
		c = (strcmp(x->severity, "error") != 0) -
		    (strcmp(y->severity, "error") != 0);
	if (c == 0)
		c = strcmp(x->rule_id, y->rule_id);
	return c != 0 ? c : strcmp(x->id, y->id);
}

/* conflict_get on m's store, the parents of its entity members from
 * m's kept facts (conflict_get's kept), for PATCH_LIST. */
static int
conflict_get_of(struct conflict *out, struct site_model *m, const char *id,
    mirror_error *err)
{
	return conflict_get(out, m->st, id, m->kept, err);
}

/*
 * PATCH_LIST(ok, l, ids, src, get, drop, cmp): list l (a conflict_list or
 * a violation_list: items, n) brought up to date for the findings the
 * sweep's changes touch, ids: each of those items dropped (drop frees
 * it), each id read again with get(&item, src, id, &err) (src: the
 * store, or what get reads it with), the list sorted by cmp. Sets ok
 * to 1, or to 0 when one cannot be read (gone from the store, or a
 * failure): the caller reads them all.
 *
 * A macro, as ARRAY_PUSH is, so the two kinds of finding share one
 * typed patch: each keeps its own struct, reader and order.
 */
#define PATCH_LIST(ok, l, ids, src, get, drop, cmp) do {                   \
	size_t k_ = 0, cap_ = (l)->n;                                     \
	mirror_error ignored_;                                             \
                                                                           \
	for (size_t i_ = 0; i_ < (l)->n; i_++)                            \
		if (store_undo_ids_has((ids), (l)->items[i_].id))          \
			drop(&(l)->items[i_]);                             \
		else                                                       \
			(l)->items[k_++] = (l)->items[i_];                 \
	(l)->n = k_;                                                       \
	(ok) = 1;                                                          \
	for (size_t i_ = 0; i_ < (ids)->n && (ok); i_++) {                 \
		ARRAY_RESERVE((l)->items, cap_, (l)->n + 1);               \
		if (get(&(l)->items[(l)->n], (src), (ids)->v[i_],          \
		    &ignored_) < 0) {                                      \
			drop(&(l)->items[(l)->n]);                         \
			(ok) = 0;                                          \
		} else                                                     \
			(l)->n++;                                          \
	}                                                                  \
	if ((ok) && (l)->n > 0)                                            \
		qsort((l)->items, (l)->n, sizeof(*(l)->items), (cmp));     \
} while (0)

/*
 * m's lists, as kept before the sweep, brought up to date by the
 * sweep's changes (m->swept): every conflict and violation they touched
 * read again. Returns 1, or 0 when the changes cannot tell which (read
 * them all).
 */
static int
keep_patch(struct site_model *m)
{
	struct store_undo_ids c = { 0 }, v = { 0 };
	int ok;

	ok = store_undo_ids(&c, m->swept, "conflicts", "conflict_members",
	    0) == 0 && store_undo_ids(&v, m->swept, "rule_violations",
	    "violation_facts", 0) == 0;
	if (ok)
		PATCH_LIST(ok, &m->conflicts, &c, m, conflict_get_of,
		    conflict_free, cmp_conflict);
	if (ok)
		PATCH_LIST(ok, &m->violations, &v, m->st, violation_get,
		    violation_free, cmp_violation);
	store_undo_ids_free(&c);
	store_undo_ids_free(&v);
	return ok;
}

/* disputed_list's order: member kind, id, conflict id. */
static int
cmp_disputed(const void *a, const void *b)
{
	const struct disputed *x = a, *y = b;
	int c = strcmp(x->kind, y->kind);

	if (c == 0)
		c = strcmp(x->id, y->id);
	return c != 0 ? c : strcmp(x->conflict_id, y->conflict_id);
}

/* m's disputed members (conflict_disputed's) from its conflicts: every
 * member of an open one. Returns nothing. */
static void
disputed_from_list(struct site_model *m)
{
	struct disputed_list *d = &m->disputed;
	size_t cap = 0;

	for (size_t i = 0; i < m->conflicts.n; i++) {
		const struct conflict *c = &m->conflicts.items[i];

		if (strcmp(c->status, "open") != 0)
			continue;
		for (size_t k = 0; k < c->n_members; k++) {
			struct disputed *x = &ARRAY_PUSH(d->items, d->n, cap);

			x->layer = c->members[k].layer;
			x->kind = layer_kind(x->layer);
			x->id = xstrdup(c->members[k].id);
			x->conflict_id = xstrdup(c->id);
		}
	}
	if (d->n > 0)
		qsort(d->items, d->n, sizeof(*d->items), cmp_disputed);
	byid_pairs_index(&d->by, d->items, d->n, sizeof(*d->items),
	    offsetof(struct disputed, kind), offsetof(struct disputed, id));
}

/* What a read made of the kept findings, for the next read's. */
struct keep_outcome {
	int as_kept;            /* they stay as they are, of generation
	                           gen */
	char gen[17];
};

/*
 * m's conflicts, violations and open members from the text a read of
 * the same store kept under findings sum tag: the store's tables as
 * they are now (tag is now's), or as they were before this build's
 * sweep (m->swept's changes then read again); and the facts of changed
 * projects read again. *out says whether the findings kept stay as they
 * are: of now's tag, and every finding read again as kept. Returns 1;
 * 0 when nothing was kept or there is any doubt (m's lists empty: read
 * them whole); < 0 with err set.
 */
static int
findings_kept(struct keep_outcome *out, struct site_model *m, uint64_t tag,
    int swept, mirror_error *err)
{
	struct keep_read r = { .m = m };
	int rc = keep_load(&r, tag);

	out->as_kept = 0;
	if (rc == 1 && swept && !keep_patch(m)) {
		conflict_list_free(&m->conflicts);
		violation_list_free(&m->violations);
		rc = 0;
	}
	if (rc == 1 && (rc = keep_refresh(&r, err)) == 0) {
		out->as_kept = !swept && r.same;
		memcpy(out->gen, r.gen, sizeof(out->gen));
		disputed_from_list(m);
		/* The listed projects, ended by one of no id. */
		memset(&ARRAY_PUSH(r.listed, r.n_listed, r.cap_listed), 0,
		    sizeof(*r.listed));
		r.n_listed--;
		rc = facts_read(m, r.listed, err);
		rc = rc < 0 ? rc : 1;
	}
	free(r.changed);
	free(r.seen);
	facts_projects_free(r.listed, r.n_listed);
	return rc;
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

/*
 * The conflicts and the rules' tables read whole, on connections of
 * their own at the same time when they read the same rows
 * (store/parallel.h: the reads overlap, and the render's health counts
 * come with the rules'), and the projects on m's; the first error in
 * the order of one connection wins. Returns 0 or < 0 with err set.
 */
static int
findings_whole(struct site_model *m, mirror_error *err)
{
	struct store_parallel *conflicts, *checks;
	int rc;

	conflicts = store_parallel_start(m->st, conflicts_read, m);
	checks = store_parallel_start(m->st, checks_read, m);
	rc = facts_read(m, NULL, err);
	rc = read_join(conflicts, conflicts_read, m, rc, err);
	return read_join(checks, checks_read, m, rc, err);
}

int
site_model_read(struct site_model *m, mirror_error *err)
{
	struct keep_outcome kept = { .as_kept = 0 };
	uint64_t h;
	int have = facts_findings_sum(&h, &m->digest) == 0;
	int rc = have ? findings_kept(&kept, m, h, 0, err) : 0;

	if (rc == 0 && have && m->swept != NULL && m->findings_before != h)
		rc = findings_kept(&kept, m, m->findings_before, 1, err);

	/* What the last read kept, when the tables are as it read them
	 * (the findings sum): the changed projects' findings read again,
	 * not every one. */
	if (rc == 1)
		rc = rules_read(m, m->st, err);
	else if (rc == 0)
		rc = findings_whole(m, err);
	if (rc < 0)
		return rc;
	/* Both lists are whole: the counts by status come from them. */
	health_count_lists(&m->health, &m->conflicts, &m->violations);
	m->open_conflicts = 0;
	for (size_t i = 0; i < m->conflicts.n; i++)
		if (strcmp(m->conflicts.items[i].status, "open") == 0)
			m->open_conflicts++;
	/* Once both connections' lists are read. */
	index_by_project(&m->open_of, m, m->conflicts.n,
	    open_conflict_project);
	index_by_project(&m->checks_of, m, m->violations.n,
	    violation_project);
	index_by_project(&m->conflicts_of, m, m->conflicts.n,
	    conflict_project);
	if (have) {
		/* Findings that say what they said stay: a new generation
		 * (this snapshot's) when they are written again. */
		if (!kept.as_kept) {
			hash_hex(kept.gen, m->digest.snapshot);
			keep_write(m, h, kept.gen);
		}
		sums_write(m, h, kept.gen);
	}
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
