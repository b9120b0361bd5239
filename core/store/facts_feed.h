/*
 * facts_feed.h: the facts of each project, read once (facts.h), handed
 * from the threads that used them to one taker running beside them: the
 * site's pages hand each project's facts, once rendered, to its search
 * index, so that the store's tables are read and sorted once a build.
 * A bounded queue with one taker: a producer waits while it is full, so
 * it holds a few projects whatever the store; nothing is queued unless
 * a taker attached, and nothing after it left.
 */
#ifndef MIRROR_STORE_FACTS_FEED_H
#define MIRROR_STORE_FACTS_FEED_H

#include <pthread.h>
#include <stddef.h>

#include "store/facts.h"

/* Projects queued at most. */
#define FEED_QUEUE 8

/* One project's facts on the way: its index in the model, its rows. */
struct fed_project {
	size_t p;
	struct project_facts f;
};

struct facts_feed {
	pthread_mutex_t mu;
	pthread_cond_t more;    /* an item queued, or closed */
	pthread_cond_t room;    /* an item taken, or the taker left */
	struct fed_project q[FEED_QUEUE];
	size_t head, len;
	int taken;              /* 1: a taker attached and has not left */
	int used;               /* 1: a taker attached once (no second) */
	int closed;             /* 1: nothing more is put */
	int failed;             /* 1: closed after the projects failed */
};

/* Start fd empty, with no taker. Returns nothing. */
void feed_init(struct facts_feed *fd);

/* End fd, freeing what is queued. Returns nothing. */
void feed_free(struct facts_feed *fd);

/*
 * Hand project p's facts *f to the taker, waiting while the queue is
 * full: 1 when taken (moved out of *f, left empty), 0 when no taker
 * takes them (none attached, or it left; *f is the caller's still).
 */
int feed_put(struct facts_feed *fd, size_t p, struct project_facts *f);

/*
 * Attach as fd's one taker, before it closes: 1 when attached (what is
 * put from now on comes to feed_take), 0 when it is closed or had a
 * taker already.
 */
int feed_attach(struct facts_feed *fd);

/*
 * The next project queued into *p and *f (the caller frees *f),
 * waiting for one: 1; 0 when fd is closed (or the taker left) and
 * nothing is queued; -1 when it closed because the projects family
 * failed (what is queued stays for feed_leave).
 */
int feed_take(struct facts_feed *fd, size_t *p, struct project_facts *f);

/* The taker leaves (after a failure of its own): what is queued is
 * freed and nothing more is taken. Returns nothing. */
void feed_leave(struct facts_feed *fd);

/* Nothing more is put: the projects family has run (failed: it failed)
 * or never will. Returns nothing. */
void feed_close(struct facts_feed *fd, int failed);

#endif
