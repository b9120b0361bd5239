/*
 * serve_watch.c: fingerprints of files and trees, and trees watched
 * with inotify (see serve_watch.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/out_fs.h"
#include "serve/serve_watch.h"
#include "sys/clock.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define MAX_DEPTH 32

/* Fold the metadata of st into h; returns the new value. */
static uint64_t
add_stat(uint64_t h, const struct stat *st)
{
	uint64_t v[7];

	v[0] = (uint64_t)st->st_dev;
	v[1] = (uint64_t)st->st_ino;
	v[2] = (uint64_t)st->st_size;
	v[3] = (uint64_t)st->st_mode;
	v[4] = (uint64_t)st->st_mtim.tv_sec;
	v[5] = (uint64_t)st->st_mtim.tv_nsec;
	v[6] = (uint64_t)st->st_ctim.tv_nsec;
	return hash_add(h, v, sizeof(v));
}

/*
 * Fold every entry of the directory fd (owned: closed here) into h, in
 * the order readdir gives (the same while the directory is unchanged),
 * depth levels below the top. Returns the new value.
 */
static uint64_t
add_dir(uint64_t h, int fd, int depth)
{
	struct dirent *de;
	DIR *d = fdopendir(fd);

	if (d == NULL) {
		close(fd);
		return hash_add_str(h, "?");
	}
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		int sub;

		if (out_is_dot(de->d_name))
			continue;
		h = hash_add_str(h, de->d_name);
		if (fstatat(dirfd(d), de->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) < 0) {
			h = hash_add_str(h, "?");
			continue;
		}
		h = add_stat(h, &st);
		if (!S_ISDIR(st.st_mode) || depth >= MAX_DEPTH)
			continue;
		sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);
		h = sub < 0 ? hash_add_str(h, "?") : add_dir(h, sub, depth + 1);
	}
	closedir(d);
	return h;
}

uint64_t
serve_fingerprint(const char *path)
{
	uint64_t h = MIRROR_HASH_INIT;
	struct stat st;
	int fd;

	if (path == NULL || stat(path, &st) < 0)
		return hash_add_str(h, "missing");
	h = add_stat(h, &st);
	if (!S_ISDIR(st.st_mode))
		return h;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? hash_add_str(h, "?") : add_dir(h, fd, 1);
}

/* ---- trees watched with inotify ------------------------------------- */

/* What a watched directory reports: anything that changes what a
 * fingerprint sees (reads, opens and closes without a write do not). */
#define WATCH_MASK (IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | \
	IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | \
	IN_DONT_FOLLOW | IN_ONLYDIR)
#define MAX_ROOTS 8
#define SLOW_POLL_MS 2000       /* a tree inotify cannot watch */

/* One watch descriptor's directory. */
struct wd_dir {
	char *path;             /* NULL: the slot is free */
	int root;               /* its index in roots */
	int depth;              /* levels below the root (the root: 1) */
};

/* One path given to serve_watch_add. */
struct root {
	char *path;
	int watched;            /* a directory, its tree under inotify */
	int polled;             /* a directory inotify could not take */
	dev_t dev;              /* the directory watched */
	ino_t ino;
	uint64_t last;          /* polled: the last fingerprint */
	long long next_ms;      /* polled: when to take the next */
};

struct serve_watch {
	int fd;                 /* inotify, -1 when it cannot be had */
	struct root roots[MAX_ROOTS];
	int nroots;
	struct wd_dir *wds;     /* indexed by watch descriptor */
	size_t nwds;
	uint64_t events;        /* how many were read: a change each */
};

serve_watch *
serve_watch_new(void)
{
	serve_watch *w = xcalloc(1, sizeof(*w));

	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	return w;
}

/* Remember that watch descriptor wd is path (owned) of root r. */
static void
wd_set(serve_watch *w, int wd, char *path, int r, int depth)
{
	if ((size_t)wd >= w->nwds) {
		size_t n = w->nwds ? w->nwds : 64;

		while (n <= (size_t)wd)
			n *= 2;
		w->wds = xreallocarray(w->wds, n, sizeof(*w->wds));
		memset(w->wds + w->nwds, 0, (n - w->nwds) * sizeof(*w->wds));
		w->nwds = n;
	}
	free(w->wds[wd].path);
	w->wds[wd] = (struct wd_dir){ path, r, depth };
}

/* Stop watching every directory of root r (its watches' IN_IGNORED
 * find free slots). */
static void
unwatch_root(serve_watch *w, int r)
{
	for (size_t i = 0; i < w->nwds; i++)
		if (w->wds[i].path != NULL && w->wds[i].root == r) {
			(void)inotify_rm_watch(w->fd, (int)i);
			free(w->wds[i].path);
			w->wds[i].path = NULL;
		}
	w->roots[r].watched = 0;
}

/*
 * Watch the directory path (not following a link unless top) and every
 * directory below it, as root r, depth levels down. Returns 0, or -1
 * when inotify has no watch left (ENOSPC, ENOMEM): the caller polls. A
 * directory that cannot be read or has gone is left out.
 */
static int
watch_tree(serve_watch *w, const char *path, int r, int depth, int top)
{
	struct dirent *de;
	DIR *d;
	int wd, fd;

	wd = inotify_add_watch(w->fd, path, top ? WATCH_MASK &
	    ~(uint32_t)IN_DONT_FOLLOW : WATCH_MASK);
	if (wd < 0)
		return errno == ENOSPC || errno == ENOMEM ? -1 : 0;
	wd_set(w, wd, xstrdup(path), r, depth);
	if (depth >= MAX_DEPTH)
		return 0;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
	    (top ? 0 : O_NOFOLLOW));
	if (fd < 0 || (d = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		strbuf sub;
		int rc;

		if (out_is_dot(de->d_name) || fstatat(dirfd(d), de->d_name,
		    &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
			continue;
		strbuf_init(&sub);
		strbuf_printf(&sub, "%s/%s", path, de->d_name);
		rc = watch_tree(w, sub.data, r, depth + 1, 0);
		strbuf_free(&sub);
		if (rc < 0) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	return 0;
}

/* (Re)start watching root r, the directory st: under inotify, or
 * polled when inotify cannot take it all. A change either way. */
static void
rewatch_root(serve_watch *w, int r, const struct stat *st)
{
	struct root *t = &w->roots[r];

	unwatch_root(w, r);
	t->dev = st->st_dev;
	t->ino = st->st_ino;
	w->events++;
	if (!t->polled && w->fd >= 0 && watch_tree(w, t->path, r, 1, 1) == 0) {
		t->watched = 1;
		return;
	}
	unwatch_root(w, r);     /* free the watches it did get */
	t->polled = 1;
	t->next_ms = 0;
}

void
serve_watch_add(serve_watch *w, const char *path)
{
	struct root *t;

	if (path == NULL || w->nroots == MAX_ROOTS)
		return;
	t = &w->roots[w->nroots++];
	memset(t, 0, sizeof(*t));
	t->path = xstrdup(path);
}

/* Read every event waiting: each one counts as a change; a directory
 * made or moved in is watched too; an overflow watches all again. */
static void
drain(serve_watch *w)
{
	char buf[16384] __attribute__((aligned(__alignof__(struct
	    inotify_event))));
	ssize_t n;

	while ((n = read(w->fd, buf, sizeof(buf))) > 0)
		for (char *p = buf; p < buf + n; ) {
			const struct inotify_event *ev = (const void *)p;
			struct wd_dir *dir = ev->wd >= 0 && (size_t)ev->wd <
			    w->nwds ? &w->wds[ev->wd] : NULL;

			p += sizeof(*ev) + ev->len;
			w->events++;
			if (ev->mask & IN_Q_OVERFLOW) {
				for (int r = 0; r < w->nroots; r++)
					w->roots[r].dev = 0;    /* rewatch */
				continue;
			}
			if (dir == NULL || dir->path == NULL)
				continue;
			if (ev->mask & IN_IGNORED) {
				free(dir->path);
				dir->path = NULL;
			} else if ((ev->mask & IN_ISDIR) && ev->len > 0 &&
			    (ev->mask & (IN_CREATE | IN_MOVED_TO))) {
				strbuf sub;
				int r = dir->root;

				strbuf_init(&sub);
				strbuf_printf(&sub, "%s/%s", dir->path,
				    ev->name);
				/* wds may move as it grows: r is a copy. */
				if (watch_tree(w, sub.data, r, dir->depth + 1,
				    0) < 0)
					w->roots[r].dev = 0;    /* rewatch */
				strbuf_free(&sub);
			}
		}
}

/* Root r's part of a sample. */
static uint64_t
sample_root(serve_watch *w, int r, uint64_t h)
{
	struct root *t = &w->roots[r];
	struct stat st;
	long long now;

	if (stat(t->path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		if (t->watched)
			unwatch_root(w, r);
		return hash_add(h, &(uint64_t){ serve_fingerprint(t->path) },
		    sizeof(uint64_t));
	}
	if (t->polled) {
		now = mirror_monotonic_ms();
		if (now >= t->next_ms) {
			t->last = serve_fingerprint(t->path);
			t->next_ms = now + SLOW_POLL_MS;
		}
		return hash_add(h, &t->last, sizeof(t->last));
	}
	if (!t->watched || st.st_dev != t->dev || st.st_ino != t->ino)
		rewatch_root(w, r, &st);
	return h;
}

uint64_t
serve_watch_sample(serve_watch *w)
{
	uint64_t h = MIRROR_HASH_INIT;

	if (w->fd >= 0)
		drain(w);
	for (int r = 0; r < w->nroots; r++)
		h = sample_root(w, r, h);
	return hash_add(h, &w->events, sizeof(w->events));
}

void
serve_watch_free(serve_watch *w)
{
	if (w == NULL)
		return;
	for (size_t i = 0; i < w->nwds; i++)
		free(w->wds[i].path);
	free(w->wds);
	for (int r = 0; r < w->nroots; r++)
		free(w->roots[r].path);
	if (w->fd >= 0)
		close(w->fd);
	free(w);
}
