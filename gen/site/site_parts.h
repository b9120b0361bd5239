/*
 * site_parts.h: the project family's pages beside the overview, each
 * HTML only (site_parts.c): a project's decision log and its subsystems
 * page.
 */
#ifndef MIRROR_SITE_PARTS_H
#define MIRROR_SITE_PARTS_H

#include <jansson.h>

#include "site/page.h"
#include "site/site_graph.h"

/* The decision log's name in its project's folder: an HTML-only page
 * (struct page_doc), decisions.html alone. */
#define DECISIONS_PAGE "decisions"

/* 1 when facts f hold a decision (a trusted state row of category
 * decision, or a decision entity), so the project has a decision log;
 * else 0. */
int decision_log_exists(const struct project_facts *f);

/* projects/<slug>/decisions of project i from its facts f; nothing for
 * a project without decisions (decision_log_exists). Returns 0 or < 0
 * with err set. */
int decision_page(const struct page_ctx *pc, size_t i,
    const struct project_facts *f, mirror_error *err);

/* The subsystems page's name in its project's folder: an HTML-only
 * page (struct page_doc), subsystems.html alone. */
#define SUBSYSTEMS_PAGE "subsystems"

/* The one place a link to a subsystem is made: a new object of "page",
 * the path of its project's subsystems page from the site's root with
 * no extension ("projects/<pslug>/subsystems"), and "anchor", its
 * section's ("sub-<slug>", slug the subsystem entity's slug): link
 * {{page}}.html#{{anchor|id}}. Entity anchors start "entity-", so no
 * section anchor takes one. */
json_t *subsystem_place(const char *pslug, const char *slug);

/* projects/<slug>/subsystems, every subsystem entity of project i on one
 * page, a section each, from the graph g over its facts; nothing for a
 * project without subsystems. Returns 0 or < 0 with err set. */
int subsystem_pages(const struct page_ctx *pc, size_t i,
    const struct site_graph *g, mirror_error *err);

#endif
