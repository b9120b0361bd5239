/*
 * site_pool.c: a bounded queue between the thread that reads the store
 * and the workers that render (see site_pool.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "site/site.h"
#include "site/site_pool.h"
#include "util/jobs.h"
#include "util/xalloc.h"

/* Items loaded ahead of the workers: enough to keep them busy, few
 * enough that a large project's facts are not held many times over. */
#define QUEUE_MAX 4

struct job {
	size_t i;
	void *payload;
};

struct pool {
	struct site *s;
	const struct site_work *w;
	pthread_mutex_t mu;
	pthread_cond_t more;     /* a job was queued, or closing */
	pthread_cond_t room;     /* a job was taken */
	struct job q[QUEUE_MAX];
	size_t head, len;
	int closing;
	int failed;              /* the first failure is in err */
	int rc;
	mirror_error err;
};

/* Record rc/e as the pool's failure unless one is there already. */
static void
pool_fail(struct pool *p, int rc, const mirror_error *e)
{
	pthread_mutex_lock(&p->mu);
	if (!p->failed) {
		p->failed = 1;
		p->rc = rc;
		p->err = *e;
	}
	pthread_mutex_unlock(&p->mu);
}

/* w's load and drop, where a work without them loads nothing. */
static int
load(struct site *s, const struct site_work *w, size_t i, void **payload,
    mirror_error *err)
{
	return w->load != NULL ? w->load(s, w->ctx, i, payload, err) : 0;
}

static void
drop(const struct site_work *w, void *payload)
{
	if (w->drop != NULL)
		w->drop(payload);
}

static void *
worker(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		struct job j;
		mirror_error e;
		int rc, skip;

		pthread_mutex_lock(&p->mu);
		while (p->len == 0 && !p->closing)
			pthread_cond_wait(&p->more, &p->mu);
		if (p->len == 0) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		j = p->q[p->head];
		p->head = (p->head + 1) % QUEUE_MAX;
		p->len--;
		skip = p->failed;
		pthread_cond_signal(&p->room);
		pthread_mutex_unlock(&p->mu);
		if (!skip && (rc = p->w->render(p->s, p->w->ctx, j.i,
		    j.payload, &e)) < 0)
			pool_fail(p, rc, &e);
		drop(p->w, j.payload);
	}
}

/* Every item on this thread: MIRROR_JOBS=1, or no thread could start. */
static int
run_here(struct site *s, const struct site_work *w, mirror_error *err)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < w->n; i++) {
		void *payload = NULL;

		rc = load(s, w, i, &payload, err);
		if (rc == 0)
			rc = w->render(s, w->ctx, i, payload, err);
		drop(w, payload);
		if (w->progress)
			site_progress_item(s);
	}
	return rc;
}

int
site_pool_run(struct site *s, const struct site_work *w, mirror_error *err)
{
	struct pool p;
	pthread_t *tid;
	int jobs = mirror_jobs(), started = 0, rc = 0;

	if (jobs == 1 || w->n < 2)
		return run_here(s, w, err);
	memset(&p, 0, sizeof(p));
	p.s = s;
	p.w = w;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.more, NULL);
	pthread_cond_init(&p.room, NULL);
	tid = xcalloc((size_t)jobs, sizeof(*tid));
	for (int k = 0; k < jobs; k++)
		if (pthread_create(&tid[k], NULL, worker, &p) == 0)
			started++;
		else
			break;
	if (started == 0) {
		rc = run_here(s, w, err);
		goto out;
	}
	for (size_t i = 0; i < w->n; i++) {
		void *payload = NULL;
		mirror_error e;
		int failed;

		pthread_mutex_lock(&p.mu);
		failed = p.failed;
		pthread_mutex_unlock(&p.mu);
		if (failed)
			break;
		if ((rc = load(s, w, i, &payload, &e)) < 0) {
			drop(w, payload);
			pool_fail(&p, rc, &e);
			break;
		}
		pthread_mutex_lock(&p.mu);
		while (p.len == QUEUE_MAX)
			pthread_cond_wait(&p.room, &p.mu);
		p.q[(p.head + p.len) % QUEUE_MAX] = (struct job){ i, payload };
		p.len++;
		pthread_cond_signal(&p.more);
		pthread_mutex_unlock(&p.mu);
		if (w->progress)
			site_progress_item(s);
	}
	pthread_mutex_lock(&p.mu);
	p.closing = 1;
	pthread_cond_broadcast(&p.more);
	pthread_mutex_unlock(&p.mu);
	for (int k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
	rc = 0;
	if (p.failed) {
		*err = p.err;
		rc = p.rc;
	}
out:
	free(tid);
	pthread_cond_destroy(&p.room);
	pthread_cond_destroy(&p.more);
	pthread_mutex_destroy(&p.mu);
	return rc;
}
