/*
 * site_decisions.h: a project's decision log, one part of the project
 * family (site_project.c).
 */
#ifndef MIRROR_SITE_DECISIONS_H
#define MIRROR_SITE_DECISIONS_H

#include "site/page.h"

/* The decision log's name in its project's folder: an HTML-only page
 * (struct page_doc), decisions.html alone. */
#define DECISIONS_PAGE "decisions"

/* projects/<slug>/decisions of project i from its facts f. Returns 0
 * or < 0 with err set. */
int decision_page(const struct page_ctx *pc, size_t i,
    const struct project_facts *f, mirror_error *err);

#endif
