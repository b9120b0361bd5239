/*
 * jobs.c: the number of worker threads (see jobs.h).
 */
#include <stdlib.h>
#include <unistd.h>

#include "jobs.h"

#define JOBS_MAX 64
#define JOBS_DEFAULT_MAX 8

int
mirror_jobs(void)
{
	const char *env = getenv("MIRROR_JOBS");
	long n;

	if (env != NULL && env[0] != '\0') {
		char *end;

		n = strtol(env, &end, 10);
		if (*end == '\0' && n >= 1 && n <= JOBS_MAX)
			return (int)n;
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > JOBS_DEFAULT_MAX ? JOBS_DEFAULT_MAX : (int)n;
}
