/*
 * site_project.h: the page family of projects (see families.h): each
 * project's overview, decision log and subsystem pages, rendered on
 * every core.
 */
#ifndef MIRROR_SITE_PROJECT_H
#define MIRROR_SITE_PROJECT_H

#include "site/page.h"

/* Every project's pages, its facts read in id order. Returns 0 or < 0
 * with err set. */
int project_pages(const struct page_ctx *pc, mirror_error *err);

/* 1 when the page path of len bytes below a project's folder, with no
 * extension ("projects/p05/decisions"), is HTML only: the decision log
 * and the subsystems page; else 0 (the overview, both twins). */
int project_html_only(const char *path, size_t len);

#endif
