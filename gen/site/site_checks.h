/*
 * site_checks.h: the page family of the rules' violations (see
 * families.h): each project's Checks page holding its violations, a
 * section per rule and each violation under its id, one page per rule
 * with its text and query, the site's Checks page, and their api/ JSON.
 */
#ifndef MIRROR_SITE_CHECKS_H
#define MIRROR_SITE_CHECKS_H

#include "site/page.h"

/* Each project's Checks page of its violations and its
 * api/checks/<project slug>.json, the rules' pages, the Checks pages and
 * api/checks.json. Returns 0 or < 0 with err set. */
int check_pages(const struct page_ctx *pc, mirror_error *err);

#endif
