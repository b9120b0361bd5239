/*
 * serve.c: the preview server's HTTP side, on libmicrohttpd (see
 * serve.h). Requests are answered on the library's one internal thread;
 * the generation and the last build error are the only state shared
 * with the thread that builds, under a mutex.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/out_fs.h"
#include "serve/mhd.h"
#include "serve/serve.h"
#include "serve/serve_conn.h"
#include "serve/serve_path.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The connections served at once, those from one address off the
 * loopback (on it every client is 127.0.0.1: that would only shrink
 * the pool), and the time a connection has to send a request's headers
 * from its accept or its last answer (serve_conn.h). */
#define MAX_CONNECTIONS 64
#define MAX_PER_ADDRESS 16
#define HEADERS_MS 10000

struct serve {
	struct MHD_Daemon *d;
	serve_conns *conns;     /* the headers' deadlines */
	char *root;
	int loopback;           /* bound to 127.0.0.0/8 or ::1 */
	unsigned port;          /* the port bound */
	char host[INET6_ADDRSTRLEN + 3];        /* the address, as in url */
	char url[80];
	pthread_mutex_t mu;     /* guards gen and error */
	unsigned long gen;
	char error[1024];       /* "" when the last build succeeded */
};

/* libmicrohttpd's calls, set by the first serve_start before any
 * daemon thread can use them. */
static const struct mhd *mhd;

/* What a page the site lacks says when there is no 404.html either. */
static const char missing_page[] = "<!DOCTYPE html>\n<html lang=\"en\">"
    "<head><meta charset=\"utf-8\"><title>Not found</title></head>\n"
    "<body><h1>Not found</h1>\n<p>mirror serve has no such page (yet).</p>"
    "\n</body></html>\n";

/* The body of a 405 (libmicrohttpd takes a buffer it may not free). */
static char not_allowed[] = "405 Method Not Allowed\n";

/* Append s to sb with &, <, >, " and ' as character references. */
static void
put_escaped(strbuf *sb, const char *s)
{
	for (; *s != '\0'; s++)
		switch (*s) {
		case '&': strbuf_puts(sb, "&amp;"); break;
		case '<': strbuf_puts(sb, "&lt;"); break;
		case '>': strbuf_puts(sb, "&gt;"); break;
		case '"': strbuf_puts(sb, "&quot;"); break;
		case '\'': strbuf_puts(sb, "&#39;"); break;
		default: strbuf_putc(sb, *s);
		}
}

/*
 * The text served pages get before </body>: the banner of the last
 * build error when there is one, then the script that polls the
 * generation (the only script serve adds; the site's own, search.js
 * and queue.js, are files of the theme).
 */
static void
put_snippet(strbuf *sb, serve *s)
{
	unsigned long gen;

	pthread_mutex_lock(&s->mu);
	gen = s->gen;
	if (s->error[0] != '\0') {
		strbuf_puts(sb, "<div role=\"alert\" style=\"position:fixed;"
		    "z-index:2147483647;top:0;left:0;right:0;margin:0;"
		    "padding:1em;background:#8b0000;color:#fff;"
		    "font:1rem/1.4 monospace;white-space:pre-wrap\">"
		    "mirror serve: the last build failed; this is the last "
		    "good site.\n");
		put_escaped(sb, s->error);
		strbuf_puts(sb, "</div>\n");
	}
	pthread_mutex_unlock(&s->mu);
	strbuf_printf(sb, "<script>/* mirror serve: reload when the site is "
	    "rebuilt (never in a built site) */\n(function () {\n"
	    "\tvar v = \"%lu\";\n\tfunction poll() {\n"
	    "\t\tfetch(\"%s?v=\" + v, { cache: \"no-store\" })\n"
	    "\t\t.then(function (r) { return r.text(); })\n"
	    "\t\t.then(function (t) {\n"
	    "\t\t\tif (t.trim() !== v) location.reload();\n"
	    "\t\t\telse setTimeout(poll, 500);\n"
	    "\t\t}, function () { setTimeout(poll, 2000); });\n\t}\n"
	    "\tsetTimeout(poll, 500);\n})();\n</script>\n", gen,
	    SERVE_RELOAD_PATH);
}

/* Queue r (NULL: out of memory) with status and the headers every
 * answer has, and release it. Returns what MHD_queue_response does. */
static enum MHD_Result
queue(struct MHD_Connection *c, unsigned status, struct MHD_Response *r,
    const char *type)
{
	enum MHD_Result ret;

	if (r == NULL)
		return MHD_NO;
	mhd->add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	mhd->add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	mhd->add_response_header(r, "X-Content-Type-Options", "nosniff");
	ret = mhd->queue_response(c, status, r);
	mhd->destroy_response(r);
	return ret;
}

/* A short plain-text answer with status: "STATUS what\n". */
static enum MHD_Result
answer_text(struct MHD_Connection *c, unsigned status, const char *what)
{
	char body[128];
	int n = snprintf(body, sizeof(body), "%u %s\n", status, what);

	return queue(c, status, mhd->create_response_from_buffer((size_t)n,
	    body, MHD_RESPMEM_MUST_COPY), "text/plain; charset=utf-8");
}

/* html[0..len) with the snippet injected, as an answer with status. */
static enum MHD_Result
answer_html(struct MHD_Connection *c, serve *s, unsigned status,
    const char *html, size_t len)
{
	strbuf sb, snip;
	size_t n;

	strbuf_init(&snip);
	put_snippet(&snip, s);
	strbuf_init(&sb);
	serve_inject(&sb, html, len, snip.data);
	strbuf_free(&snip);
	n = sb.len;
	return queue(c, status, mhd->create_response_from_buffer(n,
	    strbuf_detach(&sb), MHD_RESPMEM_MUST_FREE),
	    "text/html; charset=utf-8");
}

/* A file of the site opened below its root (open_below): its path as
 * serve_path made it, its descriptor and what fstat said of it. */
struct site_file {
	const char *path;
	int fd;                         /* -1: not open */
	struct stat st;
};

/*
 * The regular file f (its fd owned: closed here), with status: an HTML
 * page read and injected, any other file sent as it is.
 */
static enum MHD_Result
answer_file(struct MHD_Connection *c, serve *s, unsigned status,
    const struct site_file *f)
{
	const char *path = f->path;
	const struct stat *st = &f->st;
	int fd = f->fd;
	struct MHD_Response *r;
	enum MHD_Result ret;
	char *data;
	size_t len;

	if (serve_is_html(path)) {
		if (out_read_fd(&data, &len, fd) < 0) {
			close(fd);
			return answer_text(c, 500, "Internal Server Error");
		}
		close(fd);
		ret = answer_html(c, s, status, data, len);
		free(data);
		return ret;
	}
	r = mhd->create_response_from_fd((size_t)st->st_size, fd);
	if (r == NULL)
		close(fd);
	return queue(c, status, r, serve_content_type(path));
}

/*
 * Open path (checked by serve_path) below the root without following a
 * link, into *f (f->path is path). Returns 0, or -errno (-ELOOP: a
 * link) with f->fd -1.
 */
static int
open_below(struct site_file *f, const serve *s, const char *path)
{
	int root, e;

	f->path = path;
	f->fd = -1;
	root = open(s->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return -errno;
	f->fd = out_open_beneath(root, path, O_RDONLY | O_NONBLOCK);
	close(root);
	if (f->fd < 0)
		return f->fd;
	if (fstat(f->fd, &f->st) < 0) {
		e = errno;
		close(f->fd);
		f->fd = -1;
		return -e;
	}
	return 0;
}

/* The answer for a path the site lacks: its 404.html, else a page of
 * our own, both with status 404 and the snippet. */
static enum MHD_Result
answer_missing(struct MHD_Connection *c, serve *s)
{
	struct site_file f;

	if (open_below(&f, s, "404.html") == 0) {
		if (S_ISREG(f.st.st_mode))
			return answer_file(c, s, 404, &f);
		close(f.fd);
	}
	return answer_html(c, s, 404, missing_page, sizeof(missing_page) - 1);
}

/* GET or HEAD of the file url names. */
static enum MHD_Result
answer_path(struct MHD_Connection *c, serve *s, const char *url)
{
	struct MHD_Response *r;
	struct site_file f;
	char *path, *loc;
	int rc;

	if ((rc = serve_path(&path, url)) == 414)
		return answer_text(c, 414, "URI Too Long");
	if (rc == 400)
		return answer_text(c, 400, "Bad Request");
	if (rc != 0 || open_below(&f, s, path) < 0) {
		free(path);
		return answer_missing(c, s);
	}
	if (S_ISREG(f.st.st_mode)) {
		enum MHD_Result ret = answer_file(c, s, 200, &f);

		free(path);
		return ret;
	}
	close(f.fd);
	free(path);
	if (!S_ISDIR(f.st.st_mode))
		return answer_missing(c, s);
	/* A directory named without its '/': relative links need it. */
	loc = xmalloc(strlen(url) + 2);
	strcpy(loc, url);
	strcat(loc, "/");
	r = mhd->create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
	if (r != NULL)
		mhd->add_response_header(r, MHD_HTTP_HEADER_LOCATION, loc);
	free(loc);
	return queue(c, 301, r, "text/plain; charset=utf-8");
}

/*
 * 1 when the Host header (NULL: none) is one a browser on this machine
 * sends to a server bound to the loopback: the address bound as the
 * printed URL spells it (127.0.0.2, [::1]), 127.0.0.1, localhost or
 * [::1], with the bound port (which a browser leaves out when it is
 * 80); else 0, also for no Host or an empty one, which no browser
 * sends. A page of another site whose name was made to point at the
 * loopback (DNS rebinding) sends its own name, and is refused. Off the
 * loopback every Host is 1.
 */
static int
host_ok(const serve *s, const char *host)
{
	const char *names[] = { s->host, "127.0.0.1", "localhost", "[::1]" };
	char want[96];

	if (!s->loopback)
		return 1;
	if (host == NULL || host[0] == '\0')
		return 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int n = snprintf(want, sizeof(want), "%s:%u", names[i],
		    s->port);

		if (n < 0 || (size_t)n >= sizeof(want))
			continue;
		if (strcasecmp(host, want) == 0 ||
		    (s->port == 80 && strcasecmp(host, names[i]) == 0))
			return 1;
	}
	return 0;
}

/* The deadline's handle of connection c (NULL if it has none). */
static serve_conn *
conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *i = mhd->get_connection_info(c,
	    MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return i != NULL ? i->socket_context : NULL;
}

/* libmicrohttpd's call when a connection is accepted or closed (before
 * its socket is): its headers' deadline starts, or it is forgotten. */
static void
on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
    enum MHD_ConnectionNotificationCode what)
{
	serve *s = cls;
	const union MHD_ConnectionInfo *i;

	if (what == MHD_CONNECTION_NOTIFY_CLOSED) {
		serve_conns_remove(s->conns, *socket_context);
		*socket_context = NULL;
		return;
	}
	i = mhd->get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	*socket_context = i != NULL ? serve_conns_add(s->conns, i->connect_fd) :
	    NULL;
}

/* libmicrohttpd's call when a request is done: the next one's headers
 * have HEADERS_MS from now (a kept-alive connection idle that long is
 * closed; the browser opens another). */
static void
on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
    enum MHD_RequestTerminationCode toe)
{
	serve *s = cls;

	(void)con_cls;
	(void)toe;
	serve_conns_arm(s->conns, conn_of(c), 1);
}

/* libmicrohttpd's callback for each request (its first call: the
 * answer is queued at once, an upload never read). */
static enum MHD_Result
on_request(void *cls, struct MHD_Connection *c, const char *url,
    const char *method, const char *version, const char *upload_data,
    size_t *upload_data_size, void **con_cls)
{
	serve *s = cls;
	char gen[32];
	int n;

	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	(void)con_cls;
	serve_conns_arm(s->conns, conn_of(c), 0);
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
		struct MHD_Response *r = mhd->create_response_from_buffer(
		    sizeof(not_allowed) - 1, not_allowed,
		    MHD_RESPMEM_PERSISTENT);

		if (r != NULL)
			mhd->add_response_header(r, MHD_HTTP_HEADER_ALLOW,
			    "GET, HEAD");
		return queue(c, 405, r, "text/plain; charset=utf-8");
	}
	if (!host_ok(s, mhd->lookup_connection_value(c, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_HOST)))
		return answer_text(c, 403, "Forbidden: not a local Host");
	if (strcmp(url, SERVE_RELOAD_PATH) != 0)
		return answer_path(c, s, url);
	pthread_mutex_lock(&s->mu);
	n = snprintf(gen, sizeof(gen), "%lu\n", s->gen);
	pthread_mutex_unlock(&s->mu);
	return queue(c, 200, mhd->create_response_from_buffer((size_t)n, gen,
	    MHD_RESPMEM_MUST_COPY), "text/plain; charset=utf-8");
}

/* libmicrohttpd's unescaper, made to leave the path as sent: serve_path
 * decodes it, so an escaped '/' or NUL is seen and refused. Returns
 * the length of s. */
static size_t
keep_escapes(void *cls, struct MHD_Connection *c, char *s)
{
	(void)cls;
	(void)c;
	return strlen(s);
}

/*
 * The IPv4 address a with port into *sa (*len its size), and into s its
 * text as a browser spells it in Host (s->host, which host_ok compares)
 * and whether it is on the loopback, 127.0.0.0/8 (s->loopback).
 */
static void
set_v4(struct sockaddr_storage *sa, socklen_t *len, serve *s,
    const struct in_addr *a, unsigned port)
{
	struct sockaddr_in *v4 = (struct sockaddr_in *)(void *)sa;

	memset(sa, 0, sizeof(*sa));
	v4->sin_family = AF_INET;
	v4->sin_port = htons((uint16_t)port);
	v4->sin_addr = *a;
	*len = sizeof(*v4);
	s->loopback = (ntohl(a->s_addr) >> 24) == 127;
	if (inet_ntop(AF_INET, a, s->host, sizeof(s->host)) == NULL)
		s->host[0] = '\0';     /* cannot fail: the buffer holds any */
}

/*
 * The address o->bind with port o->port into *sa (*len its size), and
 * into s its text for a URL (s->host) and whether it is a loopback
 * address (s->loopback). An IPv4-mapped IPv6 address (::ffff:127.0.0.1)
 * is the IPv4 address it maps: a socket of IPv6 only cannot bind it,
 * and an IPv4 one on 127.0.0.1 is what it names, the Host check of the
 * loopback included. Returns 0 or -MIRROR_EUSAGE.
 */
static int
parse_bind(struct sockaddr_storage *sa, socklen_t *len, serve *s,
    const struct serve_opts *o, mirror_error *err)
{
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)(void *)sa;
	struct in6_addr a6;
	struct in_addr a4;
	char *host = s->host;
	const size_t hostsz = sizeof(s->host);

	if (inet_pton(AF_INET, o->bind, &a4) == 1) {
		set_v4(sa, len, s, &a4, o->port);
		return 0;
	}
	if (inet_pton(AF_INET6, o->bind, &a6) != 1)
		return mirror_fail(err, MIRROR_EUSAGE, "--bind: '%s' is not "
		    "a numeric IPv4 or IPv6 address (such as 127.0.0.1 or "
		    "::1)", o->bind);
	if (IN6_IS_ADDR_V4MAPPED(&a6)) {
		memcpy(&a4, a6.s6_addr + 12, sizeof(a4));
		set_v4(sa, len, s, &a4, o->port);
		return 0;
	}
	memset(sa, 0, sizeof(*sa));
	v6->sin6_family = AF_INET6;
	v6->sin6_port = htons((uint16_t)o->port);
	v6->sin6_addr = a6;
	*len = sizeof(*v6);
	s->loopback = IN6_IS_ADDR_LOOPBACK(&a6);
	host[0] = '[';
	if (inet_ntop(AF_INET6, &a6, host + 1, (socklen_t)(hostsz - 2)) ==
	    NULL)
		snprintf(host + 1, hostsz - 2, "%s", o->bind);
	strcat(host, "]");
	return 0;
}

int
serve_start(serve **out, const struct serve_opts *o, mirror_error *err)
{
	struct sockaddr_storage sa;
	const union MHD_DaemonInfo *info;
	socklen_t salen;
	serve *s;
	int rc;

	*out = NULL;
	if ((rc = mhd_open(&mhd, err)) < 0)
		return rc;
	s = xcalloc(1, sizeof(*s));
	if ((rc = parse_bind(&sa, &salen, s, o, err)) < 0) {
		free(s);
		return rc;
	}
	s->root = xstrdup(o->root);
	s->gen = 1;
	pthread_mutex_init(&s->mu, NULL);
	if ((rc = serve_conns_start(&s->conns, HEADERS_MS,
	    MAX_CONNECTIONS, err)) < 0) {
		serve_stop(s);
		return rc;
	}
	errno = 0;
	s->d = mhd->start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
	    MHD_USE_AUTO | (sa.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
	    (uint16_t)o->port, NULL, NULL, on_request, s,
	    MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
	    MHD_OPTION_UNESCAPE_CALLBACK, keep_escapes, NULL,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned)MAX_CONNECTIONS,
	    MHD_OPTION_PER_IP_CONNECTION_LIMIT,
	    (unsigned)(s->loopback ? 0 : MAX_PER_ADDRESS),
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
	    MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
	    MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
	    MHD_OPTION_END);
	if (s->d == NULL) {
		rc = mirror_fail(err, MIRROR_EIO, "serve: cannot listen on "
		    "%s:%u%s%s", s->host, o->port, errno != 0 ? ": " : "",
		    errno != 0 ? strerror(errno) : "");
		serve_stop(s);
		return rc;
	}
	info = mhd->get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
	s->port = info != NULL ? info->port : o->port;
	snprintf(s->url, sizeof(s->url), "http://%s:%u/", s->host,
	    s->port);
	*out = s;
	return 0;
}

const char *
serve_url(const serve *s)
{
	return s->url;
}

unsigned long
serve_publish(serve *s, int changed, const char *error)
{
	unsigned long gen;

	if (error == NULL)
		error = "";
	pthread_mutex_lock(&s->mu);
	if (changed || strcmp(error, s->error) != 0)
		s->gen++;
	snprintf(s->error, sizeof(s->error), "%s", error);
	gen = s->gen;
	pthread_mutex_unlock(&s->mu);
	return gen;
}

void
serve_stop(serve *s)
{
	if (s == NULL)
		return;
	if (s->d != NULL)
		mhd->stop_daemon(s->d);   /* every connection removed */
	serve_conns_stop(s->conns);
	pthread_mutex_destroy(&s->mu);
	free(s->root);
	free(s);
}
