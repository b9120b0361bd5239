/*
 * facts_feed.c: a project's facts from the threads that used them to
 * one taker (see facts_feed.h).
 */
#include <string.h>

#include "store/facts_feed.h"

void
feed_init(struct facts_feed *fd)
{
	memset(fd, 0, sizeof(*fd));
	pthread_mutex_init(&fd->mu, NULL);
	pthread_cond_init(&fd->more, NULL);
	pthread_cond_init(&fd->room, NULL);
}

/* Free what fd queues, under its lock. Returns nothing. */
static void
feed_drop(struct facts_feed *fd)
{
	for (; fd->len > 0; fd->len--) {
		facts_free(&fd->q[fd->head].f);
		fd->head = (fd->head + 1) % FEED_QUEUE;
	}
}

void
feed_free(struct facts_feed *fd)
{
	feed_drop(fd);
	pthread_cond_destroy(&fd->room);
	pthread_cond_destroy(&fd->more);
	pthread_mutex_destroy(&fd->mu);
}

int
feed_put(struct facts_feed *fd, size_t p, struct project_facts *f)
{
	struct fed_project *it;

	pthread_mutex_lock(&fd->mu);
	while (fd->taken && fd->len == FEED_QUEUE)
		pthread_cond_wait(&fd->room, &fd->mu);
	if (!fd->taken || fd->closed) {
		pthread_mutex_unlock(&fd->mu);
		return 0;
	}
	it = &fd->q[(fd->head + fd->len) % FEED_QUEUE];
	it->p = p;
	it->f = *f;
	memset(f, 0, sizeof(*f));
	fd->len++;
	pthread_cond_signal(&fd->more);
	pthread_mutex_unlock(&fd->mu);
	return 1;
}

int
feed_attach(struct facts_feed *fd)
{
	int ok;

	pthread_mutex_lock(&fd->mu);
	ok = !fd->closed && !fd->used;
	if (ok)
		fd->taken = fd->used = 1;
	pthread_mutex_unlock(&fd->mu);
	return ok;
}

int
feed_take(struct facts_feed *fd, size_t *p, struct project_facts *f)
{
	int rc = 1;

	pthread_mutex_lock(&fd->mu);
	while (fd->taken && fd->len == 0 && !fd->closed)
		pthread_cond_wait(&fd->more, &fd->mu);
	if (fd->failed)
		rc = -1;
	else if (!fd->taken || fd->len == 0)
		rc = 0;
	if (rc < 1) {
		pthread_mutex_unlock(&fd->mu);
		return rc;
	}
	*p = fd->q[fd->head].p;
	*f = fd->q[fd->head].f;
	fd->head = (fd->head + 1) % FEED_QUEUE;
	fd->len--;
	pthread_cond_signal(&fd->room);
	pthread_mutex_unlock(&fd->mu);
	return 1;
}

void
feed_leave(struct facts_feed *fd)
{
	pthread_mutex_lock(&fd->mu);
	fd->taken = 0;
	feed_drop(fd);
	pthread_cond_broadcast(&fd->room);
	pthread_mutex_unlock(&fd->mu);
}

void
feed_close(struct facts_feed *fd, int failed)
{
	pthread_mutex_lock(&fd->mu);
	fd->closed = 1;
	fd->failed = failed;
	pthread_cond_broadcast(&fd->more);
	pthread_cond_broadcast(&fd->room);
	pthread_mutex_unlock(&fd->mu);
}
