/*
 * parallel.c: work on a second connection, on a thread (see parallel.h).
 */
#include <pthread.h>
#include <stdlib.h>

#include <sqlite3.h>

#include "store/parallel.h"
#include "sys/jobs.h"
#include "sys/pool.h"
#include "util/xalloc.h"

struct store_parallel {
	mirror_store *parent;   /* the store it reads beside */
	unsigned long gen;      /* parent's read (store_read_gen) */
	int spare;              /* the connection goes back as a spare */
	mirror_store *st;       /* a spare taken, else opened here */
	const mirror_store *src; /* the store it opens beside
	                           (store_open_shared) */
	store_parallel_fn fn;
	void (*unrun)(void *arg);       /* NULL, or called when fn won't be */
	void *arg;
	int keep;               /* the connection outlives fn (kept) */
	mirror_store *kept;     /* keep: the connection, its read open */
	int opened;             /* the connection opened and began its read */
	int rc;                 /* fn's result */
	mirror_error err;
	pthread_t tid;
};

/* The thread: open, begin the read, run the work. Returns NULL. */
static void *
parallel_main(void *arg)
{
	struct store_parallel *b = arg;
	mirror_store *st = b->st;

	/* Never waits on a lock: a writer waiting to commit waits for the
	 * caller's read, which waits here (the caller then does the work). */
	if (st != NULL || (store_open_shared(&st, b->src, STORE_READ_NOWAIT,
	    &b->err) == 0 && store_read_begin(st, &b->err) == 0)) {
		b->opened = 1;
		b->rc = b->fn(b->arg, st, &b->err);
		pool_thread_done();
		if (b->keep) {
			b->kept = st;
			return NULL;
		}
		if (b->spare && b->rc == 0) {
			store_spare_put(b->parent, st, b->gen);
			return NULL;
		}
		store_read_end(st);
	} else if (b->unrun != NULL)
		b->unrun(b->arg);
	store_close(st);
	return NULL;
}

/* Start fn on a thread of its own (unrun there when fn cannot run),
 * keeping its connection when keep. Returns it, or NULL. */
static struct store_parallel *
parallel_start(mirror_store *st, store_parallel_fn fn, void (*unrun)(void *),
    void *arg, int keep)
{
	struct store_parallel *b;

	b = xcalloc(1, sizeof(*b));
	b->keep = keep;
	/* Under a write lock the caller changes the store after: a spare
	 * would read the rows before its change. */
	if (sqlite3_txn_state(store_db(st), "main") == SQLITE_TXN_READ) {
		b->parent = st;
		b->gen = store_read_gen(st);
		b->spare = 1;
		b->st = store_spare_take(st);
	}
	b->src = st;
	b->fn = fn;
	b->unrun = unrun;
	b->arg = arg;
	mirror_error_clear(&b->err);
	if (jobs_thread_start(&b->tid, "store-read", parallel_main, b) != 0) {
		if (b->st != NULL)
			store_spare_put(st, b->st, b->gen);
		free(b);
		return NULL;
	}
	return b;
}

struct store_parallel *
store_parallel_start(mirror_store *st, store_parallel_fn fn, void *arg)
{
	return store_parallel_start_or(st, fn, NULL, arg);
}

struct store_parallel *
store_parallel_start_or(mirror_store *st, store_parallel_fn fn,
    void (*unrun)(void *arg), void *arg)
{
	if (mirror_jobs() < 2 || !store_shares_snapshot(st))
		return NULL;
	return parallel_start(st, fn, unrun, arg, 0);
}

struct store_parallel *
store_parallel_start_kept(mirror_store *st, store_parallel_fn fn, void *arg)
{
	if (mirror_jobs() < 2 || !store_shares_snapshot(st))
		return NULL;
	return parallel_start(st, fn, NULL, arg, 1);
}

struct store_parallel *
store_parallel_start_locked(mirror_store *st, store_parallel_fn fn, void *arg)
{
	if (mirror_jobs() < 2 ||
	    sqlite3_txn_state(store_db(st), "main") != SQLITE_TXN_WRITE)
		return NULL;
	return parallel_start(st, fn, NULL, arg, 0);
}

int
store_parallel_join(struct store_parallel *b, int *rc, mirror_error *err)
{
	return store_parallel_join_kept(b, NULL, rc, err);
}

int
store_parallel_join_kept(struct store_parallel *b, mirror_store **kept,
    int *rc, mirror_error *err)
{
	int ran;

	*rc = 0;
	if (kept != NULL)
		*kept = NULL;
	if (b == NULL)
		return 0;
	pthread_join(b->tid, NULL);
	if (kept != NULL)
		*kept = b->kept;
	else if (b->kept != NULL)
		store_parallel_close(b->parent, b->kept);
	ran = b->opened;
	if (ran) {
		*rc = b->rc;
		if (b->rc < 0)
			*err = b->err;
	}
	free(b);
	return ran;
}

void
store_parallel_close(mirror_store *st, mirror_store *kept)
{
	if (kept == NULL)
		return;
	if (st != NULL &&
	    sqlite3_txn_state(store_db(st), "main") == SQLITE_TXN_READ) {
		store_spare_put(st, kept, store_read_gen(st));
		return;
	}
	store_read_end(kept);
	store_close(kept);
}
