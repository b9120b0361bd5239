/*
 * items.h: the JSON of facts, as every page shows them.
 *
 * One object per rendered fact (see templates/README): its anchor, its
 * value in words, its dates, the open conflict it belongs to and who
 * last changed it. Building one never fails: out of memory exits, as
 * xalloc does (item_must), since a page must never lose a fact silently.
 */
#ifndef MIRROR_SITE_ITEMS_H
#define MIRROR_SITE_ITEMS_H

#include <stddef.h>

#include <jansson.h>

#include "site/model.h"
#include "util/strbuf.h"

/* Fact items: new JSON objects (see templates/README). */
json_t *item_state(const struct site_model *m, const struct fact_state *f);
json_t *item_entity(const struct site_model *m, const struct fact_entity *e);

/* What an entity's value is, as its row shows it: its properties' value
 * (with its unit; a validation claim's verdict), else its description.
 * Only e's type, properties and description are read. A new string. */
json_t *item_entity_value(const struct fact_entity *e);
json_t *item_memory(const struct site_model *m, const struct fact_memory *f);

/*
 * The site's URLs, from its root: every link to a project's overview, a
 * fact's row on it or a conflict's page, and every URL of a search
 * result, is made by these (and a check's by item_check_url), so the
 * rules are written once. The search index writes them as templates
 * (site_search.c's search_urls_make) that assets/search.js fills in,
 * so the script holds no path of its own. A slug is put in as it is
 * given: slug_make's of an id, or the model's pslug.
 */

/* A project's overview, "projects/<pslug>/index.html"; the site's
 * index, "index.html", for pslug "" (the rows of no project). Appended
 * to sb. */
void url_project(strbuf *sb, const char *pslug);

/* The same page without its extension, as a template links it (adding
 * ".md" or ".html"): "projects/<pslug>/index", or "index" for pslug "".
 * Appended to sb. */
void url_project_page(strbuf *sb, const char *pslug);

/* A new JSON string of url(arg), one of the url_ functions of this
 * header, for a template. */
json_t *item_url(void (*url)(strbuf *, const char *), const char *arg);

/* A new JSON string of url_project_page(pslug), the project's overview
 * as a template links it ("{{overview_page}}.md" from the site's root),
 * or null for pslug NULL or "" (a project with no overview). */
json_t *item_overview_page(const char *pslug);

/* The link from page from to page to, both from the site's root
 * without extension (as url_project_page's): to with the folders the
 * two share dropped, after a "../" for each folder of from's left, so
 * "projects/a/index" to "projects/b/index" is "../b/index" and
 * "index" to "conflicts/c" is "conflicts/c". Appended to sb. */
void url_from(strbuf *sb, const char *from, const char *to);

/* url_from of page from to the page url(sb, arg) makes (one of the
 * url_*_page functions), appended to sb. */
void url_from_to(strbuf *sb, const char *from,
    void (*url)(strbuf *, const char *), const char *arg);

/* A new JSON string of url_from_to(from, url, arg): a link a template
 * writes as it is, from page from. */
json_t *item_url_from(const char *from, void (*url)(strbuf *,
    const char *), const char *arg);

/* The link from a page at the site's root (index.md, changes.md, the
 * changes feed) to page, a path from the root without extension (as
 * url_project_page's): page, "." and ext, then "#" and anchor when
 * anchor is not NULL. A page at the root itself is linked "./<page>",
 * as the recent changes have always linked the index's rows.
 * Appended to sb. */
void url_root_link(strbuf *sb, const char *page, const char *ext,
    const char *anchor);

/* A fact's row: url_project(pslug), "#", and its anchor ("state-",
 * "entity-" or "memory-", item_layer_name, then slug). Appended to sb. */
void url_fact(strbuf *sb, const char *pslug, enum fact_layer layer,
    const char *slug);

/* A new JSON string of url_project_page of m->projects[i], the page
 * that shows its facts, as a template links it ("{{page}}.md#<anchor>"
 * from the site's root): its overview, or "index" for the no-project
 * group (id ""); null for i < 0 (a fact shown nowhere). */
json_t *item_project_page(const struct site_model *m, long i);

/* A conflict's page, "conflicts/<slug>.html". Appended to sb. */
void url_conflict(strbuf *sb, const char *slug);

/* The same page without its extension, "conflicts/<slug>". Appended to
 * sb. */
void url_conflict_page(strbuf *sb, const char *slug);

/* The site's API files, from its root, appended to sb: a project's
 * facts, "api/projects/<pslug>.json" (pslug: the model's); the
 * conflicts of a project, "api/conflicts/projects/<slug>.json", and
 * its checks, "api/checks/<slug>.json" (slug: slug_make's of the
 * project's id, "" for none, so every project has one, known or not). */
void url_api_project(strbuf *sb, const char *pslug);
void url_api_conflicts(strbuf *sb, const char *slug);
void url_api_checks(strbuf *sb, const char *slug);

/* A project's review queue (its first page), "conflicts/projects/<dir>"
 * (dir: its folder, "_" for no project): what links to it link, and
 * the file its pages are written to (page_list_file's of it). Appended
 * to sb. */
void url_queue_page(strbuf *sb, const char *dir);

/* A new JSON string of url_conflict_page of the slug of conflict id, as
 * a template links it ("{{conflict_page}}.md" from the site's root), or
 * null for id NULL. */
json_t *item_conflict_page(const char *id);

/* A project's one Checks page, "checks/projects/<slug>" (slug:
 * slug_make's of its id, the model's pslug). Appended to sb. */
void url_checks_page(strbuf *sb, const char *slug);

/*
 * Where check id in project (canonical id, "" for none) is shown: its
 * subsection on its project's one Checks page, under the section of
 * its rule. Every link to a check is made here. ext NULL: the page's
 * path from the site's root, "checks/projects/<project slug>"; else
 * that path, ".", ext, "#" and the slug of id (the subsection's
 * anchor). Appended to sb. The rule is not part of the path: a
 * project's checks of every rule are one page, not one a rule (fewer
 * files for a static host). The project slug is slug_make's, so any project id is safe
 * as a path part; the pages are below checks/projects/ so that no
 * project slug can take the name of checks/rules/ or checks/index.
 */
void item_check_url(strbuf *sb, const char *project, const char *id,
    const char *ext);

/* The path of rule_id's page from the site's root, "checks/rules/<rule
 * slug>", appended to sb. */
void item_rule_page(strbuf *sb, const char *rule_id);

/* Set "page" (item_check_url's path, no extension) and "anchor" (the
 * slug of id) on o: how a template links to the check. */
void item_check_place(json_t *o, const char *project, const char *id);

/*
 * A fact as a row of api/projects/<slug>.json (doc/site.md): a new
 * array of its layer, then its store fields in the order of its layer's
 * columns (item_api_columns), no word made for a page, then the
 * mirror's findings on it ("conflict", "checks", "changed_by"), a value
 * the fact has not (no valid_until, no finding, a slug the id needs
 * not) as null. A relationship row has its store id, type and two ends.
 */
json_t *item_api_state(const struct site_model *m, const struct fact_state *f);
json_t *item_api_entity(const struct site_model *m,
    const struct fact_entity *e);
json_t *item_api_memory(const struct site_model *m,
    const struct fact_memory *f);
json_t *item_api_rel(const struct fact_rel *r);

/* The columns of the rows above, each layer's names after its layer:
 * a new object {"entity": [...], "memory": [...], "relationship":
 * [...], "state": [...]}, the layers in the order the file sorts its
 * facts. */
json_t *item_api_columns(void);

/*
 * The check marker of fact (layer, id), a violation_facts layer: null
 * when no open violation names it, else a new object {id, page, anchor,
 * rule, label, count} of its first open violation (smallest id).
 */
json_t *item_check(const struct site_model *m, const char *layer,
    const char *id);

/*
 * The short JSON of violation v, as lists show it: {id, page, anchor, rule,
 * label, severity, error, message, status, open, detected, closed,
 * facts (their count), fact_label and fact_anchor (its first fact shown
 * on its project's page, or null)}. A new object.
 */
json_t *item_violation(const struct site_model *m, const struct violation *v);

/* The open violations of m->projects[project], as item_violation
 * objects, by severity, then rule, then id. A new array. */
json_t *item_open_checks(const struct site_model *m, size_t project);

/*
 * A fact's sources as a list of strings, for a page to show as words:
 * an entity's source_refs is a JSON array of strings; a state row's or a
 * memory's source is one string. Returns a new array (empty for NULL or
 * "", or for a JSON array with nothing but non-strings).
 */
json_t *item_sources(const char *source);


/* A new JSON string of s cleaned for output (valid UTF-8, no control
 * characters, capped): for text the store does not check, as audit
 * rows are not checked as facts are. */
json_t *item_clean(const char *s);

/* The element id of a fact: "state-<slug>", "entity-...", "memory-...",
 * for a layer named as the site names it (item_layer_name) or as the
 * store does (layer_kind). */
json_t *item_anchor(const char *kind, const char *id);

/* The site's name of a layer, in its JSON, anchors and URLs: "state",
 * "entity" or "memory". A static string. */
const char *item_layer_name(enum fact_layer layer);

/* The layer the site names name (item_layer_name), or 0 for none. */
int item_layer_of(const char *name);

/* The JSON string of a store timestamp's date part ("2024-01-31"), or
 * null for NULL. */
json_t *item_date(const char *ts);

/*
 * A store timestamp as a page shows it: its date ("2024-01-31"), with
 * with_time and a time of day in ts, "2024-01-31 14:05"; null for NULL.
 * A new JSON value.
 */
json_t *item_when(const char *ts, int with_time);

/* One event a page shows the date of: its timestamp (may be NULL), and
 * the key of obj that gets it in words. */
struct item_when {
	const char *ts;
	json_t *obj;
	const char *key;
};

/*
 * Set each event's key to its item_when: the date, and the time (HH:MM)
 * too where another of the n events falls on the same day at another
 * minute (two events the date alone cannot tell apart; events of one
 * minute, or a store that keeps midnight for every row, show the date
 * alone). Reorders w. O(n log n).
 */
void item_when_set(struct item_when *w, size_t n);

/*
 * For the fact items of one table, the dates of the columns in which
 * (ITEM_UPDATED, ITEM_CREATED or both): updated_shown from updated_at,
 * created_shown from created_at, by item_when_set over the table's rows
 * (the columns together).
 */
#define ITEM_UPDATED 1
#define ITEM_CREATED 2
void item_table_dates(json_t *items, int which);

/* json_true() when some item of the table has a confidence other than
 * 1 (its Confidence column says something), else json_false(). */
json_t *item_table_confidence(const json_t *items);

/*
 * v, or when v is NULL (json_pack failed: out of memory) one line naming
 * what and id on stderr and exit 3, like xalloc: a page must never lose
 * a fact silently.
 */
json_t *item_must(json_t *v, const char *what, const char *id);

/* A string property of e, in buf when it is a number ("" when absent,
 * neither a string nor a number, or a number buf cannot hold: size
 * TEXT_INT_SIZE, util/text.h, holds any integer). */
const char *item_prop(const struct fact_entity *e, const char *key,
    char *buf, size_t size);

/* The JSON string "N noun": "1 memory", "3 memories", "0 memories"
 * (one for n == 1, else many). */
json_t *item_count(long long n, const char *one, const char *many);

/*
 * What a bounded list of the projects worst first says of itself, as a
 * JSON string: with of them have open what (plural, "conflicts"), at
 * most shown are listed, in order ("most first"): "The 20 of the 491
 * projects with open conflicts that have the most, most first.", "The 3
 * projects with open conflicts, most first.", "The one project with
 * open conflicts.", or "" for none.
 */
json_t *item_worst_words(size_t shown, size_t with, const char *what,
    const char *order);

/*
 * Numeric-aware order of two names: runs of digits compare as the
 * numbers they write ("Project 2" before "Project 10"), everything
 * else byte by byte; names equal so ("Project 07", "Project 7") fall
 * back to their bytes. Returns < 0, 0 or > 0 as strcmp.
 */
int item_name_cmp(const char *a, const char *b);

#endif
