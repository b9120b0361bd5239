/*
 * serve.h: the preview server: a directory served over HTTP on one
 * local address, with open pages told to reload when it changes.
 *
 *   serve *s;
 *   serve_start(&s, &(struct serve_opts){ "site", "127.0.0.1", 0 }, err);
 *   printf("serving %s\n", serve_url(s));
 *   ... rebuild the directory ...
 *   serve_publish(s, 1, NULL);        (open pages reload)
 *   serve_stop(s);
 *
 * gen/serve knows files and HTTP, nothing of pages or the store. The
 * HTTP is libmicrohttpd's, answered on its own thread: GET and HEAD of
 * the regular files below the root (serve_path.h decides what a request
 * path names; files are opened without following any symbolic link), a
 * directory's index.html, the root's 404.html (status 404) for what is
 * not there. Every answer says Cache-Control: no-store. Each HTML page
 * is sent with a small script before its </body> that polls
 * /__mirror/reload and reloads the page when the generation changes,
 * and with a banner naming the last build error while there is one; the
 * file on disk is never changed.
 */
#ifndef MIRROR_SERVE_H
#define MIRROR_SERVE_H

#include "util/error.h"

/* The path the script polls; no site file can start with it. */
#define SERVE_RELOAD_PATH "/__mirror/reload"

struct serve_opts {
	const char *root;       /* the directory served */
	const char *bind;       /* an IPv4 or IPv6 address, numeric */
	unsigned port;          /* 0: any free port */
};

typedef struct serve serve;

/*
 * Listen on o->bind, port o->port, and serve o->root from a thread of
 * the server's own. Returns 0 and *out (serve_stop frees it), or
 * -MIRROR_EUSAGE when o->bind is not a numeric address, or -MIRROR_EIO
 * when the address cannot be listened on (in use, not this machine's),
 * with *out NULL.
 */
int serve_start(serve **out, const struct serve_opts *o, mirror_error *err);

/* "http://ADDR:PORT/" with the port actually bound ("[ADDR]" for IPv6).
 * Owned by s. */
const char *serve_url(const serve *s);

/*
 * Say what the last build did: changed (1: the directory's files
 * changed) and error (its one-line error, NULL when it succeeded; the
 * last good site stays served). When the files changed or the error
 * came or went or changed, the generation goes up and open pages
 * reload. Returns the generation now.
 */
unsigned long serve_publish(serve *s, int changed, const char *error);

/* Stop listening, wait for requests under way, free s (NULL: nothing). */
void serve_stop(serve *s);

#endif
