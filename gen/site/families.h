/*
 * families.h: the page families of a site, in the order they render.
 */
#ifndef MIRROR_SITE_FAMILIES_H
#define MIRROR_SITE_FAMILIES_H

#include <stddef.h>

#include "site/page.h"

/* A family of pages: everything one kind of page needs, written from
 * the model through the page context. */
struct page_family {
	const char *name;
	/* Write every page of the family. Returns 0 or < 0 with err set. */
	int (*pages)(const struct page_ctx *pc, mirror_error *err);
};

/* The families in render order; *n gets their count. */
const struct page_family *page_families(size_t *n);

#endif
