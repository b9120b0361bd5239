/*
 * jobs.c: the number of worker threads (see jobs.h).
 */
#include <unistd.h>

#include "sys/env.h"
#include "sys/jobs.h"

#define JOBS_DEFAULT_MAX 8

int
mirror_jobs(void)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	cores = cores < 1 ? 1 : cores > JOBS_DEFAULT_MAX ? JOBS_DEFAULT_MAX :
	    cores;
	return (int)env_long("MIRROR_JOBS", cores);
}
