/*
 * pool.c: a bounded queue between the thread that loads items and the
 * workers that run them (see pool.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "sys/env.h"
#include "sys/jobs.h"
#include "sys/pool.h"
#include "util/xalloc.h"

/* The loader, once the queue (POOL_QUEUE items) is full, sleeps until
 * the workers have taken it down to QUEUE_LOW, then loads items in a
 * row: woken for each item taken, it and the workers took turns on the
 * CPU, two futex calls an item (21,638 for 10,000 one-fact projects;
 * 5,906 so). */
#define QUEUE_LOW (POOL_QUEUE / 2)

struct job {
	size_t i;
	void *payload;
};

struct pool {
	const struct pool_work *w;
	pthread_mutex_t mu;
	pthread_cond_t more;     /* a job was queued, or closing */
	pthread_cond_t room;     /* a job was taken */
	struct job q[POOL_QUEUE];
	size_t head, len;
	int closing;
	int loader_waits;        /* put waits for room down to QUEUE_LOW */
	int failed;              /* the first failure is in err */
	int started;             /* worker threads */
	int idle;                /* workers waiting for a job */
	long long idle_since;    /* MIRROR_PROFILE: when all began to */
	long long starved;       /* ns every worker waited, loader busy */
	int rc;
	mirror_error err;
};

/*
 * MIRROR_PROFILE=1: at exit, stderr gets one line of what bounds a
 * speed-up with more cores (Amdahl): the process's CPU time, the
 * calling thread's CPU time outside pools (work no worker can share),
 * the time every worker waited for the loading thread, and their sum
 * over the CPU time, the serial share.
 */
static int prof_on = -1;
static pthread_mutex_t prof_mu = PTHREAD_MUTEX_INITIALIZER;
static long long prof_pool_ns, prof_starved_ns, prof_incpu_ns, prof_items;
static long long prof_longest_ns;       /* pool_thread_done's greatest */

/* Clock id's time in nanoseconds. */
static long long
now_ns_of(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* CLOCK_MONOTONIC in nanoseconds. */
static long long
now_ns(void)
{
	return now_ns_of(CLOCK_MONOTONIC);
}

/* The MIRROR_PROFILE line, at exit (on the thread that exits). */
static void
prof_print(void)
{
	struct rusage ru;
	double cpu, main_out, starved, serial;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return;
	cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	    ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
	main_out = (double)(now_ns_of(CLOCK_THREAD_CPUTIME_ID) -
	    prof_incpu_ns) / 1e9;
	starved = (double)prof_starved_ns / 1e9;
	serial = main_out + starved;
	fprintf(stderr, "mirror profile: cpu %.6f s, serial %.6f s (main "
	    "thread outside pools %.6f s, every worker waiting %.6f s), "
	    "serial share %.2f%%; pools %.6f s wall, %lld items; longest "
	    "thread beside them %.6f s\n", cpu, serial, main_out, starved,
	    cpu > 0 ? 100 * serial / cpu : 0.0, (double)prof_pool_ns / 1e9,
	    prof_items, (double)prof_longest_ns / 1e9);
}

/* 1 when MIRROR_PROFILE=1 (the line printed at exit), else 0. */
static int
profiling(void)
{
	pthread_mutex_lock(&prof_mu);
	if (prof_on < 0) {
		prof_on = env_long("MIRROR_PROFILE", 0) == 1;
		if (prof_on)
			(void)atexit(prof_print);
	}
	pthread_mutex_unlock(&prof_mu);
	return prof_on;
}

void
pool_thread_done(void)
{
	long long cpu;

	if (!profiling())
		return;
	cpu = now_ns_of(CLOCK_THREAD_CPUTIME_ID);
	pthread_mutex_lock(&prof_mu);
	if (cpu > prof_longest_ns)
		prof_longest_ns = cpu;
	pthread_mutex_unlock(&prof_mu);
}

/* Add one pool's figures, started at t0 (cpu0 the caller's CPU time),
 * to the process's. */
static void
prof_add(long long t0, long long cpu0, long long starved, size_t n)
{
	long long cpu = now_ns_of(CLOCK_THREAD_CPUTIME_ID) - cpu0;

	pthread_mutex_lock(&prof_mu);
	prof_pool_ns += now_ns() - t0;
	prof_incpu_ns += cpu;
	prof_starved_ns += starved;
	prof_items += (long long)n;
	pthread_mutex_unlock(&prof_mu);
}

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

/* w's load, drop and loaded, where a work without them does nothing. */
static int
load(const struct pool_work *w, size_t i, void **payload, mirror_error *err)
{
	return w->load != NULL ? w->load(w->arg, i, payload, err) : 0;
}

static void
drop(const struct pool_work *w, void *payload)
{
	if (w->drop != NULL)
		w->drop(payload);
}

static void
tick(const struct pool_work *w)
{
	if (w->loaded != NULL)
		w->loaded(w->loaded_arg);
}

/* Take the next job into *j; 0 when the queue is closed and empty. */
static int
take(struct pool *p, struct job *j, int *skip)
{
	pthread_mutex_lock(&p->mu);
	if (p->len == 0 && !p->closing) {
		if (++p->idle == p->started && prof_on == 1)
			p->idle_since = now_ns();
		while (p->len == 0 && !p->closing)
			pthread_cond_wait(&p->more, &p->mu);
		if (p->idle-- == p->started && prof_on == 1 && !p->closing)
			p->starved += now_ns() - p->idle_since;
	}
	if (p->len == 0) {
		pthread_mutex_unlock(&p->mu);
		return 0;
	}
	*j = p->q[p->head];
	p->head = (p->head + 1) % POOL_QUEUE;
	p->len--;
	*skip = p->failed;
	if (p->loader_waits && p->len <= QUEUE_LOW)
		pthread_cond_signal(&p->room);
	pthread_mutex_unlock(&p->mu);
	return 1;
}

static void *
worker(void *arg)
{
	struct pool *p = arg;
	struct job j;
	int skip;

	while (take(p, &j, &skip)) {
		mirror_error e;
		int rc;

		if (!skip && (rc = p->w->run(p->w->arg, j.i, j.payload,
		    &e)) < 0)
			pool_fail(p, rc, &e);
		drop(p->w, j.payload);
	}
	return NULL;
}

/* Queue item i with its payload, waiting for room. */
static void
put(struct pool *p, size_t i, void *payload)
{
	pthread_mutex_lock(&p->mu);
	if (p->len == POOL_QUEUE) {
		p->loader_waits = 1;
		while (p->len > QUEUE_LOW)
			pthread_cond_wait(&p->room, &p->mu);
		p->loader_waits = 0;
	}
	p->q[(p->head + p->len) % POOL_QUEUE] = (struct job){ i, payload };
	p->len++;
	pthread_cond_signal(&p->more);
	pthread_mutex_unlock(&p->mu);
}

/* Every item on this thread: MIRROR_JOBS=1, or no thread could start. */
static int
run_here(const struct pool_work *w, mirror_error *err)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < w->n; i++) {
		void *payload = NULL;

		rc = load(w, i, &payload, err);
		if (rc == 0)
			rc = w->run(w->arg, i, payload, err);
		drop(w, payload);
		tick(w);
	}
	return rc;
}

/* Load every item in order and queue it, until one fails anywhere. */
static void
feed(struct pool *p)
{
	const struct pool_work *w = p->w;

	for (size_t i = 0; i < w->n; i++) {
		void *payload = NULL;
		mirror_error e;
		int rc, failed;

		pthread_mutex_lock(&p->mu);
		failed = p->failed;
		pthread_mutex_unlock(&p->mu);
		if (failed)
			return;
		if ((rc = load(w, i, &payload, &e)) < 0) {
			drop(w, payload);
			pool_fail(p, rc, &e);
			return;
		}
		put(p, i, payload);
		tick(w);
	}
}

/* Let the workers finish what is queued, then wait for them. */
static void
close_and_join(struct pool *p, const pthread_t *tid, int started)
{
	pthread_mutex_lock(&p->mu);
	p->closing = 1;
	pthread_cond_broadcast(&p->more);
	pthread_mutex_unlock(&p->mu);
	for (int k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
}

int
pool_run(const struct pool_work *w, mirror_error *err)
{
	struct pool p;
	pthread_t *tid;
	int jobs = mirror_jobs(), started = 0, rc = 0, prof = profiling();
	long long t0 = prof ? now_ns() : 0,
	    cpu0 = prof ? now_ns_of(CLOCK_THREAD_CPUTIME_ID) : 0;

	if (jobs == 1 || w->n < 2) {
		rc = run_here(w, err);
		if (prof)
			prof_add(t0, cpu0, 0, w->n);
		return rc;
	}
	memset(&p, 0, sizeof(p));
	p.w = w;
	/* Set before any worker starts: take reads it under p.mu. */
	p.started = jobs;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.more, NULL);
	pthread_cond_init(&p.room, NULL);
	tid = xcalloc((size_t)jobs, sizeof(*tid));
	while (started < jobs &&
	    jobs_thread_start(&tid[started], "pool", worker, &p) == 0)
		started++;
	if (started == 0) {
		rc = run_here(w, err);
	} else {
		pthread_mutex_lock(&p.mu);
		p.started = started;
		pthread_mutex_unlock(&p.mu);
		feed(&p);
		close_and_join(&p, tid, started);
		if (prof)
			prof_add(t0, cpu0, p.starved, w->n);
		if (p.failed) {
			*err = p.err;
			rc = p.rc;
		}
	}
	free(tid);
	pthread_cond_destroy(&p.room);
	pthread_cond_destroy(&p.more);
	pthread_mutex_destroy(&p.mu);
	return rc;
}
