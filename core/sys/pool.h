/*
 * pool.h: work over n items on every core, loaded in order.
 *
 * Items are loaded on the calling thread, one after another in item
 * order (a reader that hands out rows in order stays on one thread);
 * each loaded item is then run on a worker thread. The pool knows
 * nothing of what an item is: whatever the workers share is the
 * caller's to make read-only or locked. When every item's output
 * depends on that item alone, the result is the same whatever the
 * number of workers or the order they finish in.
 */
#ifndef MIRROR_POOL_H
#define MIRROR_POOL_H

#include <stddef.h>

#include "util/error.h"

/*
 * Items loaded and queued for the workers at most: enough to keep them
 * busy, few enough that a large item's payload is not held many times
 * over. Once the queue is full the loader waits until the workers have
 * taken half of it, then loads in a row (one wake for several items).
 */
#define POOL_QUEUE 8

/* One kind of work: n items, each loaded in order, then run. */
struct pool_work {
	size_t n;
	/*
	 * On the calling thread, in item order: load item i into *payload
	 * (left NULL to load nothing; load itself may be NULL). Returns 0 or
	 * < 0 with err set; the payload is dropped either way.
	 */
	int (*load)(void *arg, size_t i, void **payload, mirror_error *err);
	/* On a worker: run item i. Returns 0 or < 0 with err set. */
	int (*run)(void *arg, size_t i, void *payload, mirror_error *err);
	/* Release a payload (NULL is fine); NULL when there is none. */
	void (*drop)(void *payload);
	void *arg;                       /* passed to load and run */
	/* On the calling thread, once per item loaded; NULL: none. */
	void (*loaded)(void *loaded_arg);
	void *loaded_arg;
};

/*
 * Run w over every item with mirror_jobs() workers (jobs.h; 1: on
 * this thread, no threads). Stops loading at the first failure and
 * returns it, with err set: the error of the item that failed first in
 * time. Returns 0 when every item ran.
 */
int pool_run(const struct pool_work *w, mirror_error *err);

/*
 * Called by a thread that runs beside the pools (a second connection's
 * work, a family of its own, a page writer) as it ends: with
 * MIRROR_PROFILE=1 the greatest such thread's CPU time goes into the
 * profile's line, since on enough cores the render waits for it.
 */
void pool_thread_done(void);

#endif
