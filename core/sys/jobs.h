/*
 * jobs.h: how many threads the CPU-bound parts of a build use (page
 * rendering, pack compression).
 */
#ifndef MIRROR_JOBS_H
#define MIRROR_JOBS_H

/*
 * MIRROR_JOBS from the environment when it is a number from 1 to 64,
 * else the online cores (at most 16). Never less than 1.
 */
int mirror_jobs(void);

/* The default for a machine of cores online cores: cores, at least 1
 * and at most 16. */
int jobs_default(long cores);

#endif
