/*
 * parallel.h: work on a second connection to a store, on a thread of its
 * own, reading the rows the first connection reads.
 *
 * A build reads big tables one after another on one connection; two of
 * them can be read at once on two cores when a second connection is
 * sure to see the same rows (store_shares_snapshot). Whatever cannot be
 * sure, or cannot open, falls back to the first connection: the result
 * is the same either way, only slower.
 */
#ifndef MIRROR_STORE_PARALLEL_H
#define MIRROR_STORE_PARALLEL_H

#include "store/store.h"

/* Work for the second connection: returns 0 or < 0 with err set. */
typedef int (*store_parallel_fn)(void *arg, mirror_store *st,
    mirror_error *err);

struct store_parallel;    /* a work under way (parallel.c) */

/*
 * Run fn(arg, ...) on a new thread, on a second connection to st's
 * store that reads what st reads now: when there is a second core
 * (mirror_jobs) and store_shares_snapshot(st). Returns the work under
 * way, or NULL when it did not start: the caller runs fn on st itself.
 * st's read must stay open until store_parallel_join, and st must not be
 * used by fn (it has its own connection).
 */
struct store_parallel *store_parallel_start(mirror_store *st,
    store_parallel_fn fn, void *arg);

/*
 * As store_parallel_start, and when fn cannot run (the second
 * connection did not open or begin its read) the thread calls
 * unrun(arg) instead, before it ends: for a caller that waits on
 * something fn signals while it runs. Returns as store_parallel_start
 * (NULL: neither runs).
 */
struct store_parallel *store_parallel_start_or(mirror_store *st,
    store_parallel_fn fn, void (*unrun)(void *arg), void *arg);

/*
 * As store_parallel_start, for a caller whose connection holds the write
 * lock (BEGIN IMMEDIATE) and has changed nothing in the main database
 * yet: no other connection can commit while it holds the lock, so a
 * second one reads the rows it reads, in either journal mode. The
 * caller changes nothing in the main database until store_parallel_join
 * (a change it kept in its own cache would not be seen; one it wrote
 * to the file would wait for the second connection's read). Returns
 * NULL (the caller runs fn itself) when there is one core or st holds
 * no write lock.
 */
struct store_parallel *store_parallel_start_locked(mirror_store *st,
    store_parallel_fn fn, void *arg);

/*
 * As store_parallel_start, for work that leaves statements on the second
 * connection for the caller to go on stepping: the connection, its read
 * still open, outlives fn and store_parallel_join_kept hands it over.
 */
struct store_parallel *store_parallel_start_kept(mirror_store *st,
    store_parallel_fn fn, void *arg);

/*
 * Wait for b (NULL: nothing was started) and free it. Returns 1 when fn
 * ran, with its result in *rc (err set when < 0); 0 when it did not
 * (NULL, or the second connection could not be opened or begin its
 * read, which it does without waiting on a lock: STORE_READ_NOWAIT):
 * the caller runs fn on st itself.
 */
int store_parallel_join(struct store_parallel *b, int *rc, mirror_error *err);

/*
 * store_parallel_join, handing over in *kept the connection of a work of
 * store_parallel_start_kept that opened (else NULL): the caller's from
 * then on, used on one thread at a time, its statements finalized before
 * store_parallel_close. With kept NULL the connection is closed here.
 */
int store_parallel_join_kept(struct store_parallel *b, mirror_store **kept,
    int *rc, mirror_error *err);

/* Give back a connection store_parallel_join_kept handed over, its
 * statements finalized: a spare of st (store.h) while st's read that
 * it began beside is open, else its read ended and closed. kept NULL
 * is fine. */
void store_parallel_close(mirror_store *st, mirror_store *kept);

#endif
