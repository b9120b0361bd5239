/*
 * site_checks.c: the rules' violations on the site: one Checks page per
 * project with violations checks/projects/<project slug>, a section per
 * rule and each violation a subsection of it (item_check_url); one page
 * per rule checks/rules/<rule slug> with its description and query,
 * written once; the site's Checks page checks/index; api/checks/<project
 * slug>.json, a project's violations compact, and api/checks.json, the
 * counts, the rules (no query) and the projects' files. Rule text and
 * results are data: the templates escape them like every store value.
 */
#include <stdlib.h>
#include <string.h>

#include "site/items.h"
#include "site/site_checks.h"
#include "sys/pool.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/layer.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The second hash of the family's digest starts here (any value other
 * than the first's); change it when the digest's fields change. */
#define CHECKS_HASH_SEED UINT64_C(0x636865636b730003)

static json_t *
str_or_null(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

/* Where fact f is shown: its project's overview, or the index for the
 * no-project group ("page", item_project_page); a relationship and a
 * gone row are shown nowhere. And its project's name. */
static void
fact_place(json_t *o, const struct site_model *m,
    const struct violation_fact *f)
{
	long i = f->project != NULL && strcmp(f->layer, "relationship") != 0 ?
	    model_project_index(m, f->project) : -1;

	json_object_set_new(o, "on_index", json_boolean(i >= 0 &&
	    f->project[0] == '\0'));
	json_object_set_new(o, "project_slug", i >= 0 &&
	    f->project[0] != '\0' ? json_string(m->pslug[i]) : json_null());
	json_object_set_new(o, "linked", json_boolean(i >= 0));
	json_object_set_new(o, "page", item_project_page(m, i));
	json_object_set_new(o, "project_name", f->project == NULL ?
	    json_null() : json_string(f->project[0] == '\0' ?
	    "(no project)" : (i = model_project_index(m, f->project)) >= 0 ?
	    m->projects[i].name : f->project));
}

/* The JSON object of fact f of a violation. */
static json_t *
fact_json(const struct site_model *m, const struct violation_fact *f)
{
	json_t *sources = item_sources(f->source), *o;

	o = item_must(json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:b, "
	    "s:o}", "layer", layer_of_kind(f->layer) == LAYER_STATE ?
	    "state" : f->layer, "kind", f->layer, "id", f->id,
	    "anchor", item_anchor(f->layer, f->id),
	    "label", str_or_null(f->label), "project",
	    str_or_null(f->project), "status_now", str_or_null(f->status_now),
	    "gone", f->status_now == NULL, "sources", sources),
	    "violation fact", f->id);
	fact_place(o, m, f);
	return o;
}

/* A rule's name in words, as running text says it: its id with each
 * '-' and '_' a blank ("claim-unsupported": "claim unsupported"); the
 * id stays in URLs and anchors. A new string. */
static json_t *
rule_words(const char *id)
{
	json_t *o;
	char *w = xstrdup(id);

	for (char *p = w; *p != '\0'; p++)
		if (*p == '-' || *p == '_')
			*p = ' ';
	o = json_string(w);
	free(w);
	return o;
}

/* The file a rule comes from, as the pages say it: its origin
 * ("rules/gaps.sql:41") without the line (a file position is no word
 * for a reader), "the store" for a rule the store holds. A new string;
 * null for no origin. */
static json_t *
rule_file(const char *origin)
{
	size_t n;

	if (origin == NULL)
		return json_null();
	if (strncmp(origin, "store:", 6) == 0)
		return json_string("the store");
	n = strlen(origin);
	while (n > 0 && origin[n - 1] >= '0' && origin[n - 1] <= '9')
		n--;
	if (n > 1 && n < strlen(origin) && origin[n - 1] == ':')
		return json_stringn(origin, n - 1);
	return json_string(origin);
}

/* The lines of query q, without trailing blank ones: a code block
 * shows each on its own line. A new array. */
static json_t *
query_lines(const char *q)
{
	json_t *out = json_array();
	const char *p = q, *nl;

	while (*p != '\0') {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		json_array_append_new(out, json_stringn(p, (size_t)(nl - p)));
		p = *nl == '\n' ? nl + 1 : nl;
	}
	while (json_array_size(out) > 0 && json_string_length(json_array_get(
	    out, json_array_size(out) - 1)) == 0)
		json_array_remove(out, json_array_size(out) - 1);
	return out;
}

/* What rule_json adds: the query's lines (a rule's own page), the
 * words a page says (its name in words, its file; not in the JSON). */
enum { RULE_QUERY = 1, RULE_WORDS = 2 };

/*
 * What the pages say of a rule, from its latest run (rule_runs), with
 * its page and its count of rows; a rule with no run is known by its id
 * alone. with (RULE_QUERY, RULE_WORDS): what else it holds. A new
 * object.
 */
static json_t *
rule_json(const struct site_model *m, const char *rule_id, int with)
{
	const struct rule_run *r = violation_rule_run_find(&m->runs, rule_id);
	json_t *o;
	strbuf page;

	if (r == NULL)
		o = item_must(json_pack("{s:s, s:s, s:n, s:n, s:n, s:b, s:n, "
		    "s:b, s:n}", "id", rule_id, "label", rule_id,
		    "description", "origin", "status", "failed", 0, "error",
		    "known", 0, "severity"), "rule", rule_id);
	else
		o = item_must(json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:s, "
		    "s:b, s:s}", "id", r->rule_id, "label", r->label,
		    "description", r->description, "origin", r->origin,
		    "status", r->status, "failed", strcmp(r->status, "ok") !=
		    0, "error", r->error, "known", 1, "severity", r->severity),
		    "rule", rule_id);
	if (with & RULE_WORDS) {
		json_object_set_new(o, "name", rule_words(rule_id));
		json_object_set_new(o, "file", rule_file(r != NULL ?
		    r->origin : NULL));
	}
	json_object_set_new(o, "hits", json_integer(r != NULL ?
	    (json_int_t)r->hits : 0));
	strbuf_init(&page);
	item_rule_page(&page, rule_id);
	json_object_set_new(o, "page", json_string(page.data));
	strbuf_free(&page);
	if (with & RULE_QUERY)
		json_object_set_new(o, "query_lines", r != NULL ?
		    query_lines(r->query) : json_array());
	return o;
}

/* The pool's work: the site's Checks page first (the longest: every
 * violation), then each project's pages and JSON (project_render),
 * then each rule's page. */
struct check_run {
	const struct page_ctx *pc;
	size_t *ord;            /* violation indexes by project, rule, then
	                           the list's order */
	size_t *gstart;         /* group g (one project and rule) is
	                           ord[gstart[g] .. gstart[g + 1]) */
	size_t ng;
	size_t *pstart;         /* project p's groups are pstart[p] ..
	                           pstart[p + 1] */
	size_t np;
	const char **rules;     /* every rule with a run or a violation */
	size_t nrules;
	size_t *byid;           /* violation indexes by id */
};

/* array_find order of an id (key) and an index into the violations at
 * list. */
static int
cmp_id_key(const void *key, const void *e, const void *list)
{
	const struct violation *v = list;

	return strcmp(*(const char *const *)key, v[*(const size_t *)e].id);
}

/* The violation of m whose id is id, by cr->byid, or NULL. */
static const struct violation *
violation_by_id(const struct check_run *cr, const char *id)
{
	const struct violation *v = cr->pc->m->violations.items;
	size_t at = array_find(&id, cr->byid, cr->pc->m->violations.n,
	    sizeof(*cr->byid), cmp_id_key, v);

	return at != ARRAY_NONE ? &v[cr->byid[at]] : NULL;
}

/* The earlier violations of v's rule and facts, each {id, page,
 * anchor}: the facts may have moved to another project since, so each
 * is placed by its own row (by v's when the list lacks it). */
static json_t *
earlier_json(const struct check_run *cr, const struct violation *v)
{
	json_t *out = json_array(), *o;

	for (size_t k = 0; k < v->n_earlier; k++) {
		const struct violation *e = violation_by_id(cr, v->earlier[k]);

		o = json_pack("{s:s}", "id", v->earlier[k]);
		item_check_place(o, e != NULL ? e->project : v->project,
		    v->earlier[k]);
		json_array_append_new(out, o);
	}
	return out;
}

static int checks_page(const struct page_ctx *pc, mirror_error *err);
static int project_page(const struct check_run *cr, size_t p,
    mirror_error *err);

/* The heading of violation v's subsection, under its rule's: the first
 * fact it names in v's project (item_violation's), else its first
 * fact's label or id (a gone row has no label), else its message. A
 * new string. */
static json_t *
check_title(const struct violation *v)
{
	for (size_t k = 0; k < v->n_facts; k++)
		if (v->fact[k].label != NULL && v->fact[k].project != NULL &&
		    strcmp(v->fact[k].layer, "relationship") != 0 &&
		    strcmp(v->fact[k].project, v->project) == 0)
			return json_string(v->fact[k].label);
	if (v->n_facts > 0)
		return json_string(v->fact[0].label != NULL ?
		    v->fact[0].label : v->fact[0].id);
	return json_string(v->message);
}

/*
 * The whole object of violation v, for its subsection of its project's
 * page, under the section of its rule whose severity is severity: what
 * the section and the page say already is left to them. "other_severity"
 * is v's severity where it is not the section's (the rule's changed),
 * else null; "other_project" is true when a fact of v is of another
 * project than v's (its facts then say their project).
 */
static json_t *
violation_json(const struct check_run *cr, const struct violation *v,
    const char *severity)
{
	const struct site_model *m = cr->pc->m;
	json_t *o = item_violation(m, v), *facts = json_array();
	struct item_when when[2];
	int other = 0;

	for (size_t k = 0; k < v->n_facts; k++) {
		json_array_append_new(facts, fact_json(m, &v->fact[k]));
		other |= v->fact[k].project != NULL &&
		    strcmp(v->fact[k].project, v->project) != 0;
	}
	json_object_set_new(o, "title", check_title(v));
	json_object_set_new(o, "other_project", json_boolean(other));
	json_object_set_new(o, "other_severity", strcmp(v->severity,
	    severity) != 0 ? json_string(v->severity) : json_null());
	json_object_set_new(o, "detected_at", json_string(v->detected_at));
	json_object_set_new(o, "closed_at", str_or_null(v->closed_at));
	when[0] = (struct item_when){ v->detected_at, o, "detected_shown" };
	when[1] = (struct item_when){ v->closed_at, o, "closed_shown" };
	item_when_set(when, 2);
	json_object_set_new(o, "fact_list", facts);
	json_object_set_new(o, "earlier", earlier_json(cr, v));
	return o;
}

/* The file of project p's checks, "api/checks/<slug of p>.json",
 * appended to sb. */
static void
project_json_path(strbuf *sb, const char *p)
{
	char ps[SLUG_SIZE];

	slug_make(ps, p);
	url_api_checks(sb, ps);
}

/*
 * Violation v as api/checks/<project>.json lists it: what it is and
 * what it names, no rule text (api/checks.json lists the rules, their
 * pages the queries) and no words made for a page. A new object.
 */
static json_t *
compact_json(const struct site_model *m, const struct violation *v)
{
	json_t *facts = json_array(), *earlier = json_array(), *o;

	for (size_t k = 0; k < v->n_facts; k++) {
		const struct violation_fact *f = &v->fact[k];

		json_array_append_new(facts, item_must(json_pack("{s:s, s:s, "
		    "s:o, s:o, s:o}", "layer", f->layer, "id", f->id, "label",
		    str_or_null(f->label), "project", str_or_null(f->project),
		    "status_now", str_or_null(f->status_now)), "violation fact",
		    f->id));
	}
	for (size_t k = 0; k < v->n_earlier; k++)
		json_array_append_new(earlier, json_string(v->earlier[k]));
	o = item_must(json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, "
	    "s:o, s:o, s:o}", "id", v->id, "rule", v->rule_id, "label",
	    model_rule_label(m, v->rule_id), "severity", v->severity,
	    "status", v->status, "project", v->project, "message",
	    v->message, "detected_at", v->detected_at, "closed_at",
	    str_or_null(v->closed_at), "facts", facts, "earlier", earlier),
	    "violation", v->id);
	item_check_place(o, v->project, v->id);
	return o;
}

/* The name the pages give project p (an id): its name in the model,
 * "(no project)" for none, else its id as recorded. */
static const char *
project_name(const struct site_model *m, const char *p)
{
	long pi = model_project_index(m, p);

	return p[0] == '\0' ? "(no project)" : pi >= 0 ?
	    m->projects[pi].name : p;
}

/* The slug of project p's overview, or null when it has none. */
static json_t *
overview_slug(const struct site_model *m, const char *p)
{
	long pi = model_project_index(m, p);

	return pi >= 0 && p[0] != '\0' ? json_string(m->pslug[pi]) :
	    json_null();
}

/* "2 open, 1 closed" of the nk violations of idx, into a new string;
 * *open gets the open ones' count. */
static json_t *
open_closed_words(const struct site_model *m, const size_t *idx, size_t nk,
    long long *open)
{
	strbuf sb;
	json_t *w;

	*open = 0;
	for (size_t k = 0; k < nk; k++)
		*open += strcmp(m->violations.items[idx[k]].status,
		    "open") == 0;
	strbuf_init(&sb);
	strbuf_printf(&sb, "%lld open, %lld closed", *open,
	    (long long)nk - *open);
	w = json_string(sb.data);
	strbuf_free(&sb);
	return w;
}

/* The anchor of rule_id's section on a project's Checks page,
 * "rule-<rule slug>", appended to sb: check anchors start "chk-". */
static void
rule_anchor(strbuf *sb, const char *rule_id)
{
	char rs[SLUG_SIZE];

	slug_make(rs, rule_id);
	strbuf_printf(sb, "rule-%s", rs);
}

/*
 * Group g's section of its project's Checks page: the rule (marker, id,
 * page, severity, whether any of its checks are open or closed, for the
 * "What to do" said once) and each violation its subsection (open
 * first, as the list orders them). A new object.
 */
static json_t *
rule_section(const struct check_run *cr, size_t g)
{
	const struct site_model *m = cr->pc->m;
	const size_t *idx = cr->ord + cr->gstart[g];
	size_t nk = cr->gstart[g + 1] - cr->gstart[g];
	const struct violation *v0 = &m->violations.items[idx[0]];
	const struct rule_run *r = violation_rule_run_find(&m->runs,
	    v0->rule_id);
	const char *severity = r != NULL ? r->severity : v0->severity;
	json_t *checks = json_array(), *o;
	strbuf rule_page, anchor;
	long long open;

	for (size_t k = 0; k < nk; k++)
		json_array_append_new(checks, violation_json(cr,
		    &m->violations.items[idx[k]], severity));
	strbuf_init(&rule_page);
	strbuf_init(&anchor);
	item_rule_page(&rule_page, v0->rule_id);
	rule_anchor(&anchor, v0->rule_id);
	o = item_must(json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:o}",
	    "rule", v0->rule_id, "label", model_rule_label(m, v0->rule_id),
	    "rule_page", rule_page.data, "anchor", anchor.data, "severity",
	    severity, "error", strcmp(severity, "error") == 0, "words",
	    open_closed_words(m, idx, nk, &open)), "rule", v0->rule_id);
	json_object_set_new(o, "name", rule_words(v0->rule_id));
	json_object_set_new(o, "open", json_boolean(open > 0));
	json_object_set_new(o, "closed", json_boolean((long long)nk > open));
	json_object_set_new(o, "checks", checks);
	strbuf_free(&rule_page);
	strbuf_free(&anchor);
	return o;
}

/* array_sort order of two indexes into the violations at list: by id. */
static int
by_id(const void *a, const void *b, const void *list)
{
	const struct violation *v = list;

	return strcmp(v[*(const size_t *)a].id, v[*(const size_t *)b].id);
}

/* api/checks/<slug>.json of the nk violations of idx, of project p:
 * listed by id, so that a violation opening or closing changes its own
 * entry alone. Returns 0 or < 0 with err set. */
static int
project_json(const struct page_ctx *pc, const char *p, const size_t *idx,
    size_t nk, mirror_error *err)
{
	const struct site_model *m = pc->m;
	size_t *byid = xcalloc(nk + 1, sizeof(*byid));
	json_t *list = json_array(), *o;
	long long open;
	strbuf path;
	int rc;

	memcpy(byid, idx, nk * sizeof(*byid));
	array_sort(byid, nk, sizeof(*byid), by_id, m->violations.items);
	for (size_t k = 0; k < nk; k++)
		json_array_append_new(list, compact_json(m,
		    &m->violations.items[byid[k]]));
	free(byid);
	json_decref(open_closed_words(m, idx, nk, &open));
	o = item_must(json_pack("{s:s, s:s, s:o, s:I, s:I, s:o}", "project",
	    p, "project_name", project_name(m, p), "project_slug",
	    overview_slug(m, p), "open", (json_int_t)open, "closed",
	    (json_int_t)((long long)nk - open), "checks", list), "checks of",
	    p);
	strbuf_init(&path);
	project_json_path(&path, p);
	rc = page_json_rows(pc, path.data, o, err);
	strbuf_free(&path);
	json_decref(o);
	return rc;
}

/* Pool work for project p of cr: its Checks page and its api/ JSON. */
static int
project_render(const struct check_run *cr, size_t p, mirror_error *err)
{
	const struct site_model *m = cr->pc->m;
	size_t first = cr->gstart[cr->pstart[p]];
	size_t nk = cr->gstart[cr->pstart[p + 1]] - first;
	const char *id = m->violations.items[cr->ord[first]].project;
	int rc = project_page(cr, p, err);

	if (rc == 0)
		rc = project_json(cr->pc, id, cr->ord + first, nk, err);
	return rc;
}

/* Rule k's page of cr: what it looks for and its query, written once,
 * and its section on each project's Checks page. Returns 0 or < 0
 * with err set. */
static int
rule_render(const struct check_run *cr, size_t k, mirror_error *err)
{
	const struct site_model *m = cr->pc->m;
	const char *rule = cr->rules[k];
	json_t *pages = json_array(), *data;
	strbuf path, title, page, anchor;
	long long open;
	int rc;

	strbuf_init(&page);
	strbuf_init(&anchor);
	rule_anchor(&anchor, rule);
	for (size_t g = 0; g < cr->ng; g++) {
		const size_t *idx = cr->ord + cr->gstart[g];
		const struct violation *v = &m->violations.items[idx[0]];

		if (strcmp(v->rule_id, rule) != 0)
			continue;
		strbuf_reset(&page);
		item_check_url(&page, v->project, v->id, NULL);
		json_array_append_new(pages, item_must(json_pack("{s:s, s:s, "
		    "s:s, s:o}", "project_name", project_name(m, v->project),
		    "page", page.data, "anchor", anchor.data, "words",
		    open_closed_words(m, idx, cr->gstart[g + 1] -
		    cr->gstart[g], &open)), "rule", rule));
	}
	strbuf_init(&path);
	strbuf_init(&title);
	item_rule_page(&path, rule);
	strbuf_puts(&title, "Rule: ");
	for (const char *c = rule; *c != '\0'; c++)
		strbuf_putc(&title, *c == '-' || *c == '_' ? ' ' : *c);
	data = item_must(json_pack("{s:s, s:o, s:o}", "heading", title.data,
	    "rule", rule_json(m, rule, RULE_QUERY | RULE_WORDS), "pages",
	    pages), "page",
	    path.data);
	rc = page_write(cr->pc, path.data, "rule.md", title.data, data, err);
	json_decref(data);
	strbuf_free(&page);
	strbuf_free(&anchor);
	strbuf_free(&path);
	strbuf_free(&title);
	return rc;
}

/* Pool work k (check_run): the site's Checks page, a project's pages or
 * a rule's page. */
static int
check_render(void *arg, size_t k, void *payload, mirror_error *err)
{
	struct check_run *cr = arg;

	(void)payload;
	if (k == 0)
		return checks_page(cr->pc, err);
	if (--k < cr->np)
		return project_render(cr, k, err);
	return rule_render(cr, k - cr->np, err);
}

/* The rules of the latest sweep run, failed ones alone when
 * failed_only, each as rule_json makes it with `with`. A new array. */
static json_t *
runs_json(const struct site_model *m, int failed_only, int with)
{
	json_t *out = json_array();

	for (size_t k = 0; k < m->runs.n; k++) {
		const struct rule_run *r = &m->runs.items[k];

		if (!r->current || (failed_only && strcmp(r->status,
		    "ok") == 0))
			continue;
		json_array_append_new(out, rule_json(m, r->rule_id, with));
	}
	return out;
}

/*
 * The groups of a Checks page, of the nk violations whose indexes in
 * the list are idx, in the list's order:
 * open errors, open warnings, closed; each group's violations in the
 * list's order (by rule, then id). *open gets the open ones' count.
 */
static json_t *
check_groups(const struct site_model *m, const size_t *idx, size_t nk,
    long long *open)
{
	static const char *const heads[][3] = {
	    { "open", "error", "Open errors" },
	    { "open", "warn", "Open warnings" },
	    { "closed", NULL, "Closed" } };
	json_t *groups = json_array();

	*open = 0;
	for (size_t g = 0; g < sizeof(heads) / sizeof(*heads); g++) {
		json_t *list = json_array();

		for (size_t k = 0; k < nk; k++) {
			const struct violation *v =
			    &m->violations.items[idx[k]];

			if (strcmp(v->status, heads[g][0]) != 0 ||
			    (heads[g][1] != NULL && strcmp(v->severity,
			    heads[g][1]) != 0))
				continue;
			json_array_append_new(list, item_violation(m, v));
		}
		if (g < 2)
			*open += (long long)json_array_size(list);
		json_array_append_new(groups, item_must(json_pack("{s:s, "
		    "s:I, s:o, s:o}", "heading", heads[g][2], "count",
		    (json_int_t)json_array_size(list), "count_words",
		    item_count((long long)json_array_size(list), "check",
		    "checks"), "checks", list), "checks", heads[g][2]));
	}
	return groups;
}

/* A group of the site's Checks page as its heading names it: the
 * project's name and slug (NULL: no page; a group of no project or of
 * several), and the group's id on the page (anchor). */
struct check_group {
	const char *name;
	const char *slug;
	const char *anchor;
};

/*
 * The group gr of the site's Checks page: the nk violations whose
 * indexes are idx (in the list's order: open errors, open warnings,
 * closed; by rule), under their rules in the order they first come (the
 * rules with open errors first), each entry naming its project. Its
 * counts: open, errors and warnings (open ones), closed; its page, the
 * project's Checks page (null when its checks are of several
 * projects). A new object.
 */
static json_t *
project_group(const struct site_model *m, const struct check_group *gr,
    const size_t *idx, size_t nk)
{
	json_t *rules = json_array(), *g, *r = NULL;
	long long open = 0, errors = 0, warnings = 0;
	int one = 1;            /* every violation of the same project */
	strbuf words, page, at;
	size_t k;

	strbuf_init(&words);
	strbuf_init(&page);
	strbuf_init(&at);
	for (k = 0; k < nk; k++) {
		const struct violation *v = &m->violations.items[idx[k]];
		json_t *c;
		size_t j;

		json_array_foreach(rules, j, r)
			if (strcmp(json_string_value(json_object_get(r,
			    "rule")), v->rule_id) == 0)
				break;
		if (j == json_array_size(rules)) {
			strbuf_reset(&page);
			item_check_url(&page, v->project, v->id, NULL);
			strbuf_reset(&at);
			rule_anchor(&at, v->rule_id);
			r = item_must(json_pack("{s:s, s:s, s:I, s:o, s:s, s:s}",
			    "rule", v->rule_id, "label", model_rule_label(m,
			    v->rule_id), "open", (json_int_t)0, "checks",
			    json_array(), "page", page.data, "anchor", at.data),
			    "rule", v->rule_id);
			json_array_append_new(rules, r);
		}
		c = item_violation(m, v);
		json_object_set_new(c, "project_name", json_string(
		    project_name(m, v->project)));
		json_array_append_new(json_object_get(r, "checks"), c);
		one = one && strcmp(v->project, m->violations.items[
		    idx[0]].project) == 0;
		if (strcmp(v->status, "open") == 0) {
			open++;
			errors += strcmp(v->severity, "error") == 0;
			warnings += strcmp(v->severity, "warn") == 0;
			json_object_set_new(r, "open", json_integer(
			    json_integer_value(json_object_get(r, "open")) + 1));
		}
	}
	strbuf_reset(&page);
	if (nk > 0 && one)
		item_check_url(&page, m->violations.items[idx[0]].project,
		    m->violations.items[idx[0]].id, NULL);
	strbuf_free(&at);
	strbuf_printf(&words, "%lld open, %lld closed", open,
	    (long long)nk - open);
	g = item_must(json_pack("{s:s, s:o, s:s, s:s, s:I, s:o, s:o, s:I, "
	    "s:I, s:I}", "name", gr->name, "slug", gr->slug != NULL ?
	    json_string(gr->slug) : json_null(), "anchor", gr->anchor,
	    "words", words.data, "open", (json_int_t)open, "rules", rules,
	    "page", page.len > 0 ? json_string(page.data) : json_null(),
	    "errors", (json_int_t)errors, "warnings", (json_int_t)warnings,
	    "closed", (json_int_t)nk - open), "checks of project", gr->name);
	json_object_set_new(g, "overview_page", item_overview_page(gr->slug));
	strbuf_free(&page);
	json_array_foreach(rules, k, r) {
		long long o = json_integer_value(json_object_get(r, "open")),
		    all = (long long)json_array_size(json_object_get(r,
		    "checks"));

		strbuf_reset(&words);
		if (o > 0)
			strbuf_printf(&words, "%lld open", o);
		if (all > o)
			strbuf_printf(&words, "%s%lld closed", o > 0 ? ", " :
			    "", all - o);
		json_object_set_new(r, "words", json_string(words.data));
	}
	strbuf_free(&words);
	return g;
}
/* array_sort order of two indexes into the projects of the model m:
 * projects by name (numeric-aware, item_name_cmp), then by id, the
 * no-project group last: not by their open checks, so a group does not
 * move when its count changes. */
static int
by_name(const void *a, const void *b, const void *model)
{
	const struct site_model *m = model;
	const struct fact_project *p = &m->projects[*(const size_t *)a],
	    *q = &m->projects[*(const size_t *)b];
	int c;

	if ((p->id[0] == '\0') != (q->id[0] == '\0'))
		return p->id[0] == '\0' ? 1 : -1;
	if ((c = item_name_cmp(p->name, q->name)) != 0)
		return c;
	return strcmp(p->id, q->id);
}

/*
 * The site's Checks page by project: one group per project with
 * violations (project_group), by name (by_name), the no-project group
 * last, then "(other projects)" for violations of a project the model
 * does not know, each naming its project. A new array.
 */
static json_t *
project_groups(const struct site_model *m)
{
	static const struct check_group unknown[2] = {
		{ "(no project)", NULL, "project-none" },
		{ "(other projects)", NULL, "project-other" } };
	const size_t *start = m->checks_of.start;
	size_t *order = xcalloc(m->n_projects + 1, sizeof(*order)), n = 0;
	size_t *rest = xcalloc(m->violations.n + 1, sizeof(*rest)), nrest = 0;
	json_t *out = json_array();
	strbuf anchor;

	for (size_t i = 0; i < m->n_projects; i++)
		if (start[i + 1] > start[i])
			order[n++] = i;
	array_sort(order, n, sizeof(*order), by_name, m);
	strbuf_init(&anchor);
	for (size_t k = 0; k < n; k++) {
		size_t i = order[k];
		const struct fact_project *p = &m->projects[i];
		struct check_group gr = { "(no project)", NULL, NULL };

		if (p->id[0] != '\0') {
			gr.name = p->name;
			gr.slug = m->pslug[i];
		}
		strbuf_reset(&anchor);
		strbuf_printf(&anchor, "project-%s", gr.slug != NULL ?
		    gr.slug : "none");
		gr.anchor = anchor.data;
		json_array_append_new(out, project_group(m, &gr,
		    m->checks_of.ord + start[i], start[i + 1] - start[i]));
	}
	/* Of no project the model knows: none (when the model has no
	 * such group), then the others. */
	for (int other = 0; other < 2; other++) {
		nrest = 0;
		for (size_t i = 0; i < m->violations.n; i++) {
			const char *p = m->violations.items[i].project;

			if ((p[0] != '\0') == other &&
			    model_project_index(m, p) < 0)
				rest[nrest++] = i;
		}
		if (nrest > 0)
			json_array_append_new(out, project_group(m,
			    &unknown[other], rest, nrest));
	}
	strbuf_free(&anchor);
	free(order);
	free(rest);
	return out;
}

/* The list of the open checks of every project: its first page,
 * checks/index.open (no slug has a dot), and the most rows a page
 * holds. */
#define CHECKS_LIST "index.open"
#define CHECKS_PAGE 300

/*
 * array_sort order of the list across projects (indexes into the
 * violations of the model m): oldest first (detected_at), then by
 * project name and by message (numeric-aware), then id: a check opened
 * by a later build goes to the end and rewrites the last page alone.
 */
static int
cmp_open_check(const void *a, const void *b, const void *model)
{
	const struct site_model *m = model;
	const struct violation *x = &m->violations.items[*(const size_t *)a],
	    *y = &m->violations.items[*(const size_t *)b];
	int c = strcmp(x->detected_at, y->detected_at);

	if (c == 0)
		c = item_name_cmp(project_name(m, x->project),
		    project_name(m, y->project));
	if (c == 0)
		c = item_name_cmp(x->message, y->message);
	return c != 0 ? c : strcmp(x->id, y->id);
}

/* v's row of the list: what its columns show and nothing else. */
static json_t *
open_check_row(const struct site_model *m, const struct violation *v)
{
	strbuf rule;
	json_t *o;

	strbuf_init(&rule);
	item_rule_page(&rule, v->rule_id);
	o = item_must(json_pack("{s:s, s:s, s:s, s:s, s:s, s:o}", "project",
	    project_name(m, v->project), "message", v->message, "rule",
	    v->rule_id, "label", model_rule_label(m, v->rule_id),
	    "rule_page", rule.data, "detected", item_date(v->detected_at)),
	    "violation", v->id);
	json_object_set_new(o, "severity", json_string(v->severity));
	item_check_place(o, v->project, v->id);
	strbuf_free(&rule);
	return o;
}

/* Page k of the list, idx[0..l->n) in cmp_open_check order. Returns 0
 * or < 0 with err set. */
static int
open_checks_page(const struct page_ctx *pc, const size_t *idx,
    const struct page_list *l, size_t k, mirror_error *err)
{
	json_t *rows = json_array();
	size_t from, to;

	page_list_span(&from, &to, l, k);
	for (size_t i = from; i < to; i++)
		json_array_append_new(rows, open_check_row(pc->m,
		    &pc->m->violations.items[idx[i]]));
	return page_list_write(pc, &(struct page_list_doc){ .l = l, .k = k,
	    .folder = "checks/", .tname = "checks_open.md", .title =
	    "Open checks of every project", .data = json_pack("{s:o}",
	    "checks", rows) }, err);
}

/* What page_list_cut names row i of the list by: its check's id. */
struct open_checks_key {
	const struct site_model *m;
	const size_t *idx;
};

/* page_list_cut's name of row i of the list: its check's id. */
static const char *
open_check_key(size_t i, const void *arg)
{
	const struct open_checks_key *k = arg;

	return k->m->violations.items[k->idx[i]].id;
}

/*
 * The open checks of every project in one list, checks/index.open and
 * on (page_list_file), at most CHECKS_PAGE a page and cut by the
 * checks' ids (page_list_cut), oldest first (cmp_open_check); *pages
 * gets its number of pages. Returns 0 or < 0 with err set.
 */
static int
open_checks_pages(size_t *pages, const struct page_ctx *pc,
    mirror_error *err)
{
	const struct site_model *m = pc->m;
	size_t *idx = xcalloc(m->violations.n + 1, sizeof(*idx));
	struct page_list l = { .base = CHECKS_LIST, .per_page = CHECKS_PAGE };
	int rc = 0;

	for (size_t i = 0; i < m->violations.n; i++)
		if (strcmp(m->violations.items[i].status, "open") == 0)
			idx[l.n++] = i;
	array_sort(idx, l.n, sizeof(*idx), cmp_open_check, m);
	page_list_cut(&l, open_check_key, &(struct open_checks_key){ m,
	    idx });
	*pages = page_list_pages(&l);
	for (size_t k = 0; k < *pages && rc == 0; k++)
		rc = open_checks_page(pc, idx, &l, k, err);
	page_list_uncut(&l);
	free(idx);
	return rc;
}

/* ---- the projects' checks: the worst on the Checks page, all paged -- */

/* The most projects the Checks page names (the most open checks
 * first); the list of every project's checks, checks/index.projects and
 * on, and the most rows a page of it holds. */
#define CHECKS_WORST 20
#define CHECKS_PROJECTS "index.projects"
#define CHECKS_PROJECTS_PAGE 300

/* A group of the Checks page's lists, as cmp_worst_group sorts it. */
struct worst_group {
	const json_t *g;
	size_t i;               /* its place among the groups (by name) */
};

/* qsort order of worst_groups, the worst first: most open errors, then
 * most open checks, then as the groups come (by name). */
static int
cmp_worst_group(const void *a, const void *b)
{
	const struct worst_group *x = a, *y = b;
	json_int_t d = json_integer_value(json_object_get(y->g, "errors")) -
	    json_integer_value(json_object_get(x->g, "errors"));

	if (d == 0)
		d = json_integer_value(json_object_get(y->g, "open")) -
		    json_integer_value(json_object_get(x->g, "open"));
	if (d == 0)
		d = (json_int_t)x->i - (json_int_t)y->i;
	return d < 0 ? -1 : d > 0;
}

/* groups' group g as a row of the Checks page's lists: what they show
 * and nothing else (not each check), so a row changes with its counts. */
static json_t *
group_row(const json_t *g)
{
	static const char *const keys[] = { "name", "slug", "page", "words",
	    "open", "errors", "warnings", "closed", "overview_page" };
	json_t *o = json_object();

	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		json_object_set(o, keys[i], json_object_get(g, keys[i]));
	json_object_set_new(o, "rules", json_integer((json_int_t)
	    json_array_size(json_object_get(g, "rules"))));
	return o;
}

/* Into data: "worst", the rows (group_row) of groups with open checks,
 * worst first (cmp_worst_group), at most CHECKS_WORST; "worst_words",
 * what they are in words. */
static void
checks_worst(json_t *data, const json_t *groups)
{
	size_t n = json_array_size(groups), bad = 0;
	struct worst_group *v = xcalloc(n + 1, sizeof(*v));
	json_t *out = json_array();

	for (size_t i = 0; i < n; i++)
		if (json_integer_value(json_object_get(json_array_get(groups,
		    i), "open")) > 0)
			v[bad++] = (struct worst_group){ json_array_get(groups,
			    i), i };
	qsort(v, bad, sizeof(*v), cmp_worst_group);
	for (size_t i = 0; i < bad && i < CHECKS_WORST; i++)
		json_array_append_new(out, group_row(v[i].g));
	json_object_set_new(data, "worst", out);
	json_object_set_new(data, "worst_words", item_worst_words(
	    CHECKS_WORST, bad, "checks", "the most open errors first"));
	free(v);
}

/* Page k of the list of every project's checks: the rows of groups (by
 * name) CHECKS_PROJECTS_PAGE a page. Returns 0 or < 0 with err set. */
static int
groups_page(const struct page_ctx *pc, const json_t *groups,
    const struct page_list *l, size_t k, mirror_error *err)
{
	json_t *rows = json_array();
	size_t from, to;

	page_list_span(&from, &to, l, k);
	for (size_t i = from; i < to; i++)
		json_array_append_new(rows, group_row(json_array_get(groups,
		    i)));
	return page_list_write(pc, &(struct page_list_doc){ .l = l, .k = k,
	    .folder = "checks/", .tname = "checks_projects.md", .title =
	    "Checks by project", .data = json_pack("{s:o, s:o}", "projects",
	    rows, "count_words", item_count((long long)l->n, "project",
	    "projects")) }, err);
}

/* The list of every project's checks, checks/index.projects and on
 * (page_list_file), by name; *pages gets its number of pages. Returns 0
 * or < 0 with err set. */
static int
groups_pages(size_t *pages, const struct page_ctx *pc, const json_t *groups,
    mirror_error *err)
{
	struct page_list l = { .base = CHECKS_PROJECTS, .n =
	    json_array_size(groups), .per_page = CHECKS_PROJECTS_PAGE };
	int rc = 0;

	*pages = page_list_pages(&l);
	for (size_t k = 0; k < *pages && rc == 0; k++)
		rc = groups_page(pc, groups, &l, k, err);
	return rc;
}

/* The site's Checks page, checks/index: the rules, the projects with the
 * most open checks (checks_worst), links to the lists of every open
 * check and of every project's checks, which it writes. Returns 0 or
 * < 0 with err set. */
static int
checks_page(const struct page_ctx *pc, mirror_error *err)
{
	const struct site_model *m = pc->m;
	long long open = 0;
	json_t *data, *groups = project_groups(m);
	size_t pages = 1, list_pages = 1;
	int rc = open_checks_pages(&pages, pc, err);

	if (rc == 0)
		rc = groups_pages(&list_pages, pc, groups, err);
	for (size_t i = 0; i < m->violations.n; i++) {
		const struct violation *v = &m->violations.items[i];

		open += strcmp(v->status, "open") == 0 &&
		    (strcmp(v->severity, "error") == 0 ||
		    strcmp(v->severity, "warn") == 0);
	}
	data = item_must(json_pack("{s:s, s:o, s:o, s:o, s:I, s:I}",
	    "heading", "Checks", "open_words",
	    item_count(open, "open check", "open checks"), "failed",
	    runs_json(m, 1, RULE_WORDS), "rules", runs_json(m, 0, RULE_WORDS),
	    "open_error",
	    (json_int_t)m->health.checks.open_error, "open_warn",
	    (json_int_t)m->health.checks.open_warn), "page", "checks/index");
	json_object_set_new(data, "open_pages", json_integer((json_int_t)(
	    pages > 1 ? pages : 0)));
	json_object_set_new(data, "list_count", json_integer((json_int_t)
	    json_array_size(groups)));
	json_object_set_new(data, "list_pages", json_integer((json_int_t)(
	    list_pages > 1 ? list_pages : 0)));
	json_object_set_new(data, "list_words", item_count((long long)
	    json_array_size(groups), "project", "projects"));
	checks_worst(data, groups);
	json_decref(groups);
	if (rc == 0)
		rc = page_write(pc, "checks/index", "checks.md", "Checks", data,
		    err);
	json_decref(data);
	return rc;
}

/*
 * Project p of cr's Checks page, checks/projects/<project slug>: its
 * summary (open errors, open warnings, closed, each linking a check's
 * subsection on the page; the rules that failed), then a section per
 * rule (rule_section) holding its checks. Every project with violations
 * has one, of the model or not. Returns 0 or < 0 with err set.
 */
static int
project_page(const struct check_run *cr, size_t p, mirror_error *err)
{
	const struct site_model *m = cr->pc->m;
	size_t first = cr->gstart[cr->pstart[p]];
	size_t nk = cr->gstart[cr->pstart[p + 1]] - first;
	const struct violation *v0 = &m->violations.items[cr->ord[first]];
	json_t *sections = json_array(), *groups, *data;
	strbuf path, title, api;
	long long open;
	int rc;

	groups = check_groups(m, cr->ord + first, nk, &open);
	for (size_t g = cr->pstart[p]; g < cr->pstart[p + 1]; g++)
		json_array_append_new(sections, rule_section(cr, g));
	strbuf_init(&path);
	strbuf_init(&title);
	strbuf_init(&api);
	item_check_url(&path, v0->project, v0->id, NULL);
	project_json_path(&api, v0->project);
	strbuf_printf(&title, "Checks: %s", project_name(m, v0->project));
	data = item_must(json_pack("{s:s, s:s, s:s, s:o, s:s, s:o, s:o, "
	    "s:o, s:o}", "heading", title.data, "project", v0->project,
	    "project_name", project_name(m, v0->project), "project_slug",
	    overview_slug(m, v0->project), "json", api.data, "groups",
	    groups, "open_words", item_count(open, "open check",
	    "open checks"), "failed", runs_json(m, 1, RULE_WORDS), "sections",
	    sections),
	    "page", path.data);
	json_object_set_new(data, "open_errors", json_boolean(
	    json_integer_value(json_object_get(json_array_get(groups, 0),
	    "count")) > 0));
	json_object_set_new(data, "open_warnings", json_boolean(
	    json_integer_value(json_object_get(json_array_get(groups, 1),
	    "count")) > 0));
	json_object_set_new(data, "overview_page", item_overview_page(
	    json_string_value(json_object_get(data, "project_slug"))));
	json_object_set_new(data, "closed_any", json_boolean(
	    json_integer_value(json_object_get(json_array_get(groups, 2),
	    "count")) > 0));
	rc = page_write(cr->pc, path.data, "check.md", title.data, data, err);
	json_decref(data);
	strbuf_free(&path);
	strbuf_free(&title);
	strbuf_free(&api);
	return rc;
}

/*
 * Fold into h everything the family's files show, and nothing else
 * (the digest is in the site, which must not depend on how many sweeps
 * ran): each violation with its facts and earlier ids (not the ids of
 * the runs that opened and closed it), each rule's latest run (not its
 * id or duration), the counts and the projects. A field the family
 * comes to show must be folded in here too (t_incremental's trials
 * compare every build with a --force one).
 */
static void
checks_hash(uint64_t h[2], const struct site_model *m)
{
	const struct violation_counts *c = &m->health.checks;

	page_hash_projects(h, m);
	page_hash_int(h, (long long)m->violations.n);
	for (size_t i = 0; i < m->violations.n; i++) {
		const struct violation *v = &m->violations.items[i];
		const char *const f[] = { v->id, v->rule_id, v->severity,
		    v->project, v->facts, v->message, v->status,
		    v->detected_at, v->closed_at };

		page_hash_strs(h, f, sizeof(f) / sizeof(*f));
		page_hash_int(h, (long long)v->n_facts);
		for (size_t k = 0; k < v->n_facts; k++) {
			const struct violation_fact *vf = &v->fact[k];
			const char *const g[] = { vf->layer, vf->id,
			    vf->label, vf->project, vf->source,
			    vf->status_now };

			page_hash_strs(h, g, sizeof(g) / sizeof(*g));
		}
		page_hash_int(h, (long long)v->n_earlier);
		for (size_t k = 0; k < v->n_earlier; k++)
			page_hash_str(h, v->earlier[k]);
	}
	page_hash_int(h, (long long)m->runs.n);
	for (size_t i = 0; i < m->runs.n; i++) {
		const struct rule_run *r = &m->runs.items[i];
		const char *const f[] = { r->rule_id, r->origin, r->severity,
		    r->label, r->description, r->query, r->status, r->error };

		page_hash_strs(h, f, sizeof(f) / sizeof(*f));
		page_hash_int(h, r->hits);
		page_hash_int(h, r->current);
	}
	page_hash_int(h, c->open_error);
	page_hash_int(h, c->open_warn);
	page_hash_int(h, c->closed);
	page_hash_int(h, c->rules_failed);
	page_hash_int(h, c->rules);
}

/* 1 when the family's files were kept as the last build wrote them
 * (what they show is what it was, and DIR holds them); else 0, and the
 * caller writes them. A change no check sees renders no check. */
static int
checks_kept(const struct page_ctx *pc)
{
	static const char *const lines[] = { "checks/", "api/checks/",
	    "api/checks.json" };
	uint64_t h[2] = { MIRROR_HASH_INIT, CHECKS_HASH_SEED };

	checks_hash(h, pc->m);
	return page_keep_family(pc, "checks/", h, lines,
	    sizeof(lines) / sizeof(*lines));
}

/* api/checks.json: the counts, every rule of the latest sweep (no
 * query: that is on the rule's page) and each project's file with its
 * counts, from cr's groups. Returns 0 or < 0 with err set. */
static int
checks_index_json(const struct check_run *cr, mirror_error *err)
{
	const struct site_model *m = cr->pc->m;
	const struct violation_counts *c = &m->health.checks;
	json_t *projects = json_array(), *o;
	strbuf api;
	int rc;

	strbuf_init(&api);
	for (size_t p = 0; p < cr->np; p++) {
		size_t first = cr->gstart[cr->pstart[p]];
		size_t nk = cr->gstart[cr->pstart[p + 1]] - first;
		const char *id = m->violations.items[cr->ord[first]].project;
		long long open;

		json_decref(open_closed_words(m, cr->ord + first, nk, &open));
		strbuf_reset(&api);
		project_json_path(&api, id);
		json_array_append_new(projects, item_must(json_pack("{s:s, "
		    "s:s, s:o, s:I, s:I, s:s}", "project", id, "project_name",
		    project_name(m, id), "project_slug", overview_slug(m, id),
		    "open", (json_int_t)open, "closed", (json_int_t)((long
		    long)nk - open), "json", api.data), "checks of", id));
	}
	strbuf_free(&api);
	o = item_must(json_pack("{s:I, s:I, s:I, s:I, s:o, s:o}",
	    "open_error", (json_int_t)c->open_error,
	    "open_warn", (json_int_t)c->open_warn,
	    "closed", (json_int_t)c->closed,
	    "rules_failed", (json_int_t)c->rules_failed,
	    "rules", runs_json(m, 0, 0), "projects", projects), "page",
	    "api/checks.json");
	rc = page_json(cr->pc, "api/checks.json", o, err);
	json_decref(o);
	return rc;
}

/* array_sort order of violation indexes into the violations at list:
 * by project, rule, then index (the list's order: open errors, open
 * warnings, closed). */
static int
by_page(const void *a, const void *b, const void *list)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct violation *x = (const struct violation *)list + i,
	    *y = (const struct violation *)list + j;
	int c = strcmp(x->project, y->project);

	if (c == 0)
		c = strcmp(x->rule_id, y->rule_id);
	return c != 0 ? c : (i > j) - (i < j);
}

/* cr's groups: m's violations by project and rule, and every rule with
 * a run or a violation, once each. The caller frees them
 * (check_run_free). */
static void
check_run_init(struct check_run *cr, const struct site_model *m)
{
	const struct violation *v = m->violations.items;
	size_t n = m->violations.n, nr = 0;

	cr->ord = xcalloc(n + 1, sizeof(*cr->ord));
	cr->byid = xcalloc(n + 1, sizeof(*cr->byid));
	cr->gstart = xcalloc(n + 1, sizeof(*cr->gstart));
	cr->pstart = xcalloc(n + 1, sizeof(*cr->pstart));
	for (size_t i = 0; i < n; i++)
		cr->ord[i] = cr->byid[i] = i;
	array_sort(cr->ord, n, sizeof(*cr->ord), by_page, v);
	array_sort(cr->byid, n, sizeof(*cr->byid), by_id, v);
	for (size_t k = 0; k < n; k++) {
		const struct violation *x = &v[cr->ord[k]], *y = k > 0 ?
		    &v[cr->ord[k - 1]] : NULL;
		int newp = y == NULL || strcmp(x->project, y->project) != 0;

		if (newp)
			cr->pstart[cr->np++] = cr->ng;
		if (newp || strcmp(x->rule_id, y->rule_id) != 0)
			cr->gstart[cr->ng++] = k;
	}
	cr->gstart[cr->ng] = n;
	cr->pstart[cr->np] = cr->ng;
	cr->rules = xcalloc(m->runs.n + cr->ng + 1, sizeof(*cr->rules));
	for (size_t k = 0; k < m->runs.n; k++)
		cr->rules[nr++] = m->runs.items[k].rule_id;
	for (size_t g = 0; g < cr->ng; g++)
		cr->rules[nr++] = v[cr->ord[cr->gstart[g]]].rule_id;
	qsort(cr->rules, nr, sizeof(*cr->rules), array_str_cmp);
	for (size_t k = 0; k < nr; k++)
		if (cr->nrules == 0 || strcmp(cr->rules[cr->nrules - 1],
		    cr->rules[k]) != 0)
			cr->rules[cr->nrules++] = cr->rules[k];
}

/* Free what check_run_init made. */
static void
check_run_free(struct check_run *cr)
{
	free(cr->ord);
	free(cr->byid);
	free(cr->gstart);
	free(cr->pstart);
	free(cr->rules);
}

int
check_pages(const struct page_ctx *pc, mirror_error *err)
{
	struct check_run cr = { .pc = pc };
	struct pool_work work = { 0, NULL, check_render, NULL, &cr, NULL,
	    NULL };
	int rc;

	if (checks_kept(pc))
		return 0;
	check_run_init(&cr, pc->m);
	work.n = 1 + cr.np + cr.nrules;
	page_phase(pc, "check pages", work.n, 1);
	rc = pool_run(&work, err);
	if (rc == 0)
		rc = checks_index_json(&cr, err);
	check_run_free(&cr);
	return rc;
}
