/*
 * serve_conn.c: the headers' deadline of each connection (see
 * serve_conn.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "serve/serve_conn.h"
#include "sys/clock.h"
#include "sys/jobs.h"
#include "util/xalloc.h"

#define TICK_MS 500             /* how often deadlines are looked at */

struct serve_conn {
	serve_conn *prev, *next;
	int fd;
	long long deadline;     /* monotonic ms; 0: none */
};

struct serve_conns {
	pthread_mutex_t mu;     /* guards all below */
	pthread_cond_t wake;    /* serve_conns_stop's call */
	pthread_t thread;
	serve_conn *head;       /* the newest first */
	long long limit_ms;
	size_t n, max;          /* connections open; the server's limit */
	int stopping;
};

/* Shut down every socket of t past its deadline (t->mu held). */
static void
reap(serve_conns *t, long long now)
{
	for (serve_conn *c = t->head; c != NULL; c = c->next)
		if (c->deadline != 0 && now >= c->deadline) {
			/* The server sees its end, closes it, removes c. */
			(void)shutdown(c->fd, SHUT_RDWR);
			c->deadline = 0;
		}
}

/*
 * Make room for connection c, which took the server's last slot (t->mu
 * held): shut down the connection other than c that has waited longest
 * for its headers (the earliest deadline), which the server then closes
 * and takes the next from its listen queue. Idle sockets cannot keep a
 * request queued behind them; a connection whose request is being
 * answered is never chosen. Returns 1 when one was shut down, else 0.
 */
static int
evict(serve_conns *t, const serve_conn *c)
{
	serve_conn *old = NULL;

	for (serve_conn *o = t->head; o != NULL; o = o->next)
		if (o != c && o->deadline != 0 &&
		    (old == NULL || o->deadline <= old->deadline))
			old = o;
	if (old == NULL)
		return 0;
	(void)shutdown(old->fd, SHUT_RDWR);
	old->deadline = 0;
	return 1;
}

/* The thread: reap every TICK_MS until serve_conns_stop. */
static void *
reaper(void *arg)
{
	serve_conns *t = arg;
	struct timespec ts;

	pthread_mutex_lock(&t->mu);
	while (!t->stopping) {
		reap(t, mirror_monotonic_ms());
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += TICK_MS * 1000000L;
		ts.tv_sec += ts.tv_nsec / 1000000000L;
		ts.tv_nsec %= 1000000000L;
		(void)pthread_cond_timedwait(&t->wake, &t->mu, &ts);
	}
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

int
serve_conns_start(serve_conns **out, long long limit_ms, size_t max,
    mirror_error *err)
{
	pthread_condattr_t ca;
	serve_conns *t = xcalloc(1, sizeof(*t));
	int e;

	*out = NULL;
	t->limit_ms = limit_ms;
	t->max = max;
	pthread_mutex_init(&t->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&t->wake, &ca);
	pthread_condattr_destroy(&ca);
	e = jobs_thread_start(&t->thread, "serve-reaper", reaper, t);
	if (e != 0) {
		pthread_cond_destroy(&t->wake);
		pthread_mutex_destroy(&t->mu);
		free(t);
		return mirror_fail(err, MIRROR_EIO, "serve: cannot start the "
		    "thread of the headers' deadline: %s", strerror(e));
	}
	*out = t;
	return 0;
}

serve_conn *
serve_conns_add(serve_conns *t, int fd)
{
	serve_conn *c = xcalloc(1, sizeof(*c));

	c->fd = fd;
	pthread_mutex_lock(&t->mu);
	c->deadline = mirror_monotonic_ms() + t->limit_ms;
	c->next = t->head;
	if (t->head != NULL)
		t->head->prev = c;
	t->head = c;
	if (++t->n >= t->max)
		(void)evict(t, c);
	pthread_mutex_unlock(&t->mu);
	return c;
}

void
serve_conns_arm(serve_conns *t, serve_conn *c, int on)
{
	if (c == NULL)
		return;
	pthread_mutex_lock(&t->mu);
	c->deadline = on ? mirror_monotonic_ms() + t->limit_ms : 0;
	pthread_mutex_unlock(&t->mu);
}

/* Unlink c from t (t->mu held). */
static void
unlink_conn(serve_conns *t, serve_conn *c)
{
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		t->head = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
}

void
serve_conns_remove(serve_conns *t, serve_conn *c)
{
	if (c == NULL)
		return;
	pthread_mutex_lock(&t->mu);
	unlink_conn(t, c);
	t->n--;
	pthread_mutex_unlock(&t->mu);
	free(c);
}

void
serve_conns_stop(serve_conns *t)
{
	if (t == NULL)
		return;
	pthread_mutex_lock(&t->mu);
	t->stopping = 1;
	pthread_cond_signal(&t->wake);
	pthread_mutex_unlock(&t->mu);
	pthread_join(t->thread, NULL);
	while (t->head != NULL) {
		serve_conn *c = t->head;

		unlink_conn(t, c);
		free(c);
	}
	pthread_cond_destroy(&t->wake);
	pthread_mutex_destroy(&t->mu);
	free(t);
}
