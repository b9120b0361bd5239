/*
 * jobs.h: how many threads the CPU-bound parts of a build use (page
 * rendering, pack compression), and how each thread mirror runs is
 * started.
 */
#ifndef MIRROR_JOBS_H
#define MIRROR_JOBS_H

#include <pthread.h>

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

/*
 * Start fn(arg) on a new thread into *out, as every thread of mirror is
 * started: named name (cut to the kernel's 15 bytes; what ps -L, top -H,
 * perf's comm and gdb show), and its allocations joining those of the
 * build as util/xalloc.h's xalloc_thread_begin says, before fn runs.
 * Join it with pthread_join. Returns 0, or pthread_create's error number
 * (no thread started, fn not run).
 */
int jobs_thread_start(pthread_t *out, const char *name,
    void *(*fn)(void *), void *arg);

/* The default for a machine of cores online cores: cores, at least 1
 * and at most 16. */
int jobs_default(long cores);

#endif
