/*
 * out_ring.h: the stage's new files created in batches through io_uring
 * (gen/output's own; output.h is the face).
 *
 * Created one by one, every file costs an openat, a write and a close:
 * three system calls, most of a render's. Each writing thread instead
 * queues its files on an io_uring of its own, as three linked requests
 * (openat into a direct descriptor, the write through it, its close),
 * and hands a batch of them to the kernel in one io_uring_enter. A
 * file's bytes are copied when queued and its directory stays held
 * (out_dircache_hold) until its requests completed; every result is
 * checked, and the first failure is reported with the file's path at
 * the next file queued or at out_rings_drain, which waits for all.
 *
 * Where io_uring cannot be used (no such system call, a seccomp profile,
 * kernel.io_uring_disabled, a kernel without direct descriptors) or
 * MIRROR_IO_URING=0 says so, files are created one by one, as
 * out_dircache_create does.
 */
#ifndef MIRROR_OUT_RING_H
#define MIRROR_OUT_RING_H

#include <pthread.h>
#include <stddef.h>

#include "output/out_dircache.h"

struct out_ring;

/* The rings of one output's writing threads, one for each. */
struct out_rings {
	struct out_dircache *dirc;      /* where the files go (not owned) */
	unsigned long id;               /* tells the thread's ring apart */
	int off;                        /* 1: one by one, never a ring */
	pthread_mutex_t mu;             /* r and n */
	struct out_ring **r;
	size_t n, cap;
};

/* A file of an earlier batch that failed: its path (the caller frees
 * it) and -errno; rc 0 when none did. */
struct out_late {
	int rc;
	char *path;
};

/* Set rs up for dirc's files: batched unless MIRROR_IO_URING=0. */
void out_rings_init(struct out_rings *rs, struct out_dircache *dirc);

/* Wait for every queued file and free every ring (no thread may be
 * queueing); a failure not reported yet is dropped. */
void out_rings_free(struct out_rings *rs);

/*
 * Create the new file relpath below rs's top as out_dircache_create
 * does, queued on the calling thread's ring (or at once, without one).
 * Returns 0 when queued or created, or -errno for relpath itself; *late
 * gets the first failure of a file queued before, not reported yet.
 */
int out_rings_create(struct out_late *late, struct out_rings *rs,
    const char *relpath, const void *data, size_t len);

/*
 * Submit every ring's queued files and wait until all are complete.
 * Returns 0, or the first failure not reported yet (-errno, with
 * late->path naming the file).
 */
int out_rings_drain(struct out_late *late, struct out_rings *rs);

#endif
