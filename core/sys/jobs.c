/*
 * jobs.c: the number of worker threads (see jobs.h).
 */
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
