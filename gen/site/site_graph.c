/*
 * site_graph.c: sorted indexes over a project's entities and edges.
 */
#include <stdlib.h>
#include <string.h>

#include "site/site_graph.h"
#include "util/xalloc.h"

/* qsort has no context argument in C11: the arrays being sorted, one
 * per thread (the pool renders projects on several). */
static _Thread_local const struct project_facts *sort_f;

static int
cmp_ent(const void *a, const void *b)
{
	const struct fact_entity *x = &sort_f->ent[*(const size_t *)a];
	const struct fact_entity *y = &sort_f->ent[*(const size_t *)b];

	return strcmp(x->id, y->id);
}

static int
cmp_src(const void *a, const void *b)
{
	const struct fact_rel *x = &sort_f->rel[*(const size_t *)a];
	const struct fact_rel *y = &sort_f->rel[*(const size_t *)b];
	int c = strcmp(x->source, y->source);

	if (c == 0)
		c = strcmp(x->type, y->type);
	if (c == 0)
		c = strcmp(x->target, y->target);
	return c != 0 ? c : strcmp(x->id, y->id);
}

static int
cmp_tgt(const void *a, const void *b)
{
	const struct fact_rel *x = &sort_f->rel[*(const size_t *)a];
	const struct fact_rel *y = &sort_f->rel[*(const size_t *)b];
	int c = strcmp(x->target, y->target);

	if (c == 0)
		c = strcmp(x->type, y->type);
	if (c == 0)
		c = strcmp(x->source, y->source);
	return c != 0 ? c : strcmp(x->id, y->id);
}

void
graph_init(struct site_graph *g, const struct project_facts *f)
{
	g->f = f;
	g->by_id = xcalloc(f->n_ent + 1, sizeof(size_t));
	g->by_source = xcalloc(f->n_rel + 1, sizeof(size_t));
	g->by_target = xcalloc(f->n_rel + 1, sizeof(size_t));
	for (size_t i = 0; i < f->n_ent; i++)
		g->by_id[i] = i;
	for (size_t i = 0; i < f->n_rel; i++)
		g->by_source[i] = g->by_target[i] = i;
	sort_f = f;
	qsort(g->by_id, f->n_ent, sizeof(size_t), cmp_ent);
	qsort(g->by_source, f->n_rel, sizeof(size_t), cmp_src);
	qsort(g->by_target, f->n_rel, sizeof(size_t), cmp_tgt);
	sort_f = NULL;
}

void
graph_free(struct site_graph *g)
{
	free(g->by_id);
	free(g->by_source);
	free(g->by_target);
	memset(g, 0, sizeof(*g));
}

const struct fact_entity *
graph_entity(const struct site_graph *g, const char *id)
{
	size_t lo = 0, hi = g->f->n_ent;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct fact_entity *e = &g->f->ent[g->by_id[mid]];
		int c = strcmp(e->id, id);

		if (c == 0)
			return e;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

size_t
graph_each(const struct site_graph *g, const char *id, const char *type,
    int outgoing, void (*fn)(const char *other, void *arg), void *arg)
{
	const size_t *ix = outgoing ? g->by_source : g->by_target;
	size_t lo = 0, hi = g->f->n_rel, calls = 0;

	/* First edge whose (end, type) is not below (id, type). */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct fact_rel *r = &g->f->rel[ix[mid]];
		int c = strcmp(outgoing ? r->source : r->target, id);

		if (c == 0)
			c = strcmp(r->type, type);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < g->f->n_rel; lo++) {
		const struct fact_rel *r = &g->f->rel[ix[lo]];

		if (strcmp(outgoing ? r->source : r->target, id) != 0 ||
		    strcmp(r->type, type) != 0)
			break;
		fn(outgoing ? r->target : r->source, arg);
		calls++;
	}
	return calls;
}
