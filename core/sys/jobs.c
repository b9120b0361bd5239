/*
 * jobs.c: the number of worker threads, and their start (see jobs.h).
 */
#define _GNU_SOURCE     /* pthread_setname_np */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sys/env.h"
#include "sys/jobs.h"
#include "util/xalloc.h"

/* A 16-core runner renders on 16: with a serial share of 4% that is
 * about 8 times one core, against 6 on 8 (doc/performance.md); each
 * job adds about 5 MB at 100,000 facts. */
#define JOBS_DEFAULT_MAX 16

int
jobs_default(long cores)
{
	return (int)(cores < 1 ? 1 : cores > JOBS_DEFAULT_MAX ?
	    JOBS_DEFAULT_MAX : cores);
}

int
mirror_jobs(void)
{
	return (int)env_long("MIRROR_JOBS",
	    jobs_default(sysconf(_SC_NPROCESSORS_ONLN)));
}

/* Urgent threads beside the caller's (jobs_side_begin .. _end). */
static pthread_mutex_t side_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t side_cv = PTHREAD_COND_INITIALIZER;
static int side_urgent;

void
jobs_side_begin(void)
{
	pthread_mutex_lock(&side_mu);
	side_urgent++;
	pthread_mutex_unlock(&side_mu);
}

void
jobs_side_end(void)
{
	pthread_mutex_lock(&side_mu);
	side_urgent--;
	pthread_cond_broadcast(&side_cv);
	pthread_mutex_unlock(&side_mu);
}

void
jobs_side_wait(void)
{
	int cores = mirror_jobs() - 1;

	pthread_mutex_lock(&side_mu);
	while (side_urgent > 0 && side_urgent >= cores)
		pthread_cond_wait(&side_cv, &side_mu);
	pthread_mutex_unlock(&side_mu);
}

/* What a thread jobs_thread_start made runs, and its name. */
struct thread_start {
	void *(*fn)(void *);
	void *arg;
	char name[16];          /* the kernel's limit, with its NUL */
};

/* The thread: named, on the build's allocation (xalloc.h), then fn.
 * Returns fn's result. */
static void *
thread_main(void *p)
{
	struct thread_start s = *(struct thread_start *)p;

	free(p);
	(void)pthread_setname_np(pthread_self(), s.name);
	xalloc_thread_begin();
	return s.fn(s.arg);
}

int
jobs_thread_start(pthread_t *out, const char *name, void *(*fn)(void *),
    void *arg)
{
	struct thread_start *s = xmalloc(sizeof(*s));
	int e;

	s->fn = fn;
	s->arg = arg;
	/* Cut on purpose: a longer name would not be set at all. */
	(void)snprintf(s->name, sizeof(s->name), "%s", name);
	if ((e = pthread_create(out, NULL, thread_main, s)) != 0)
		free(s);
	return e;
}
