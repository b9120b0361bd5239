/*
 * site_subsystem.h: a project's subsystem pages, one part of the
 * project family (site_project.c).
 */
#ifndef MIRROR_SITE_SUBSYSTEM_H
#define MIRROR_SITE_SUBSYSTEM_H

#include "site/page.h"
#include "site/site_graph.h"

/* projects/<slug>/subsystems/<slug>, one page per subsystem entity of
 * project i, from the graph g over its facts. Returns 0 or < 0 with err
 * set. */
int subsystem_pages(const struct page_ctx *pc, size_t i,
    const struct site_graph *g, mirror_error *err);

#endif
