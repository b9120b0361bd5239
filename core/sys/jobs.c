/*
 * jobs.c: the number of worker threads (see jobs.h).
 */
#include <pthread.h>
#include <unistd.h>

#include "sys/env.h"
#include "sys/jobs.h"

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
