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

/*
 * Cores for threads beside the caller's, shared by urgent work and work
 * that may wait. Urgent work (the sweep's second scan, which the sweep
 * joins before it goes on) calls jobs_side_begin as it starts and
 * jobs_side_end as it ends: never waits, never fails. Work that may
 * wait (the rules evaluated beside the sweep, recorded only at its end)
 * calls jobs_side_wait before each piece: it returns once fewer than
 * mirror_jobs() - 1 urgent threads run, so that on two cores the
 * caller's thread keeps one core and the urgent thread the other,
 * rather than three threads sharing two. Returns nothing.
 */
void jobs_side_begin(void);
void jobs_side_end(void);
void jobs_side_wait(void);

/* The default for a machine of cores online cores: cores, at least 1
 * and at most 16. */
int jobs_default(long cores);

#endif
