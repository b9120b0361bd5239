/*
 * site_pool.h: rendering pages on every core.
 *
 * The store is read on one thread, in order (core/facts hands out
 * projects one after another); each item is then rendered on a worker
 * thread. What workers share is read-only (the site's projects,
 * conflicts, templates and theme) or locked (the output tree, the page
 * count and the progress line), and every file's bytes depend on its
 * item alone, so the site is byte-identical whatever the number of
 * workers or the order they finish in.
 */
#ifndef MIRROR_SITE_POOL_H
#define MIRROR_SITE_POOL_H

#include <stddef.h>

#include "util/error.h"

struct site;

/* One kind of work: n items, each loaded in order, then rendered. */
struct site_work {
	size_t n;
	/*
	 * On the calling thread, in item order: load item i into *payload
	 * (left NULL to load nothing; load itself may be NULL). Returns 0 or
	 * < 0 with err set; the payload is dropped either way.
	 */
	int (*load)(struct site *s, void *ctx, size_t i, void **payload,
	    mirror_error *err);
	/* On a worker: render item i. Returns 0 or < 0 with err set. */
	int (*render)(struct site *s, void *ctx, size_t i, void *payload,
	    mirror_error *err);
	/* Release a payload (NULL is fine); NULL when there is none. */
	void (*drop)(void *payload);
	void *ctx;       /* passed to load and render */
	int progress;    /* 1: one progress_item per item loaded */
};

/*
 * Run w over every item with mirror_jobs() workers (jobs.h; 1: on
 * this thread, no threads). Stops loading at the first failure and
 * returns it, with err set: the error of the item that failed first in
 * time. Returns 0 when every item rendered.
 */
int site_pool_run(struct site *s, const struct site_work *w,
    mirror_error *err);

#endif
