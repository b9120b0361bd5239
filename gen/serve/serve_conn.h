/*
 * serve_conn.h: a deadline for each connection's request headers.
 *
 * libmicrohttpd's idle timeout starts again with every byte, so a
 * client sending one byte of a header a second holds its connection for
 * ever, and 64 of them hold every slot the server has. Here each
 * connection gets LIMIT milliseconds, from its accept or from its last
 * answer, to finish a request's headers, however the bytes trickle; a
 * thread of its own shuts down (shutdown(2), the server still closes
 * it) every socket past its deadline, twice a second.
 *
 * At its connection limit the server accepts no more: the rest wait in
 * the listen queue, first in first out, so 300 idle sockets held a GET
 * behind them for five rounds of deadlines (40 s). Here the connection
 * that takes the last slot makes room at once: the one that has waited
 * longest for its headers is shut down, as nginx drains its idle
 * connections, and the queue moves at the pace of accept(2).
 *
 *   serve_conns *t;
 *   serve_conns_start(&t, 10000, 64, err);
 *   h = serve_conns_add(t, fd);      (accepted: the deadline runs)
 *   serve_conns_arm(t, h, 0);        (headers in: no deadline)
 *   serve_conns_arm(t, h, 1);        (answered: the next request's runs)
 *   serve_conns_remove(t, h);        (closed, before its fd is)
 *   serve_conns_stop(t);
 *
 * Every call may come from any thread.
 */
#ifndef MIRROR_SERVE_CONN_H
#define MIRROR_SERVE_CONN_H

#include "util/error.h"

typedef struct serve_conns serve_conns;
typedef struct serve_conn serve_conn;

/*
 * A table of connections with limit_ms for their headers, and its
 * thread; max is the server's connection limit. Returns 0 and *out
 * (serve_conns_stop frees it), or -MIRROR_EIO when the thread cannot
 * start, *out NULL.
 */
int serve_conns_start(serve_conns **out, long long limit_ms, size_t max,
    mirror_error *err);

/* The connection on socket fd, its deadline running from now; when it
 * is the max-th open, the one that has waited longest for its headers
 * is shut down at once (see above). Returns its handle (never NULL),
 * valid until serve_conns_remove. */
serve_conn *serve_conns_add(serve_conns *t, int fd);

/* Start c's deadline again from now (on: 1), or stop it (on: 0; its
 * headers are in). c NULL: nothing. */
void serve_conns_arm(serve_conns *t, serve_conn *c, int on);

/* Forget c (NULL: nothing), before its socket is closed: its fd is
 * never touched after. */
void serve_conns_remove(serve_conns *t, serve_conn *c);

/* Stop the thread and free t and what it still holds (NULL: nothing). */
void serve_conns_stop(serve_conns *t);

#endif
