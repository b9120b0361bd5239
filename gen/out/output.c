/*
 * output.c: render into a staging directory, then swap it in at once.
 *
 * Every path is opened relative to a directory descriptor, one component
 * at a time with O_NOFOLLOW, so neither a symlink planted in the old tree
 * nor a crafted relpath can make a write land outside the staging tree.
 */
#define _GNU_SOURCE   /* renameat2, RENAME_EXCHANGE, syncfs */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "out/output.h"
#include "sys/clock.h"
#include "sys/env.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define MARKER ".mirror-output"
#define MARKER_TEXT "This directory is written by mirror and replaced " \
    "whole on every build.\n"
#define LOCK_SUFFIX ".mirror-lock"
#define LOCK_WAIT_MS 300000L   /* the wait's default bound: 5 minutes */

/* A held DIR lock (see output_lock), or fd -1. */
struct dir_lock {
	int fd;                 /* the locked file */
	int parent_fd;          /* the directory holding it */
	char *name;             /* ".<base>.mirror-lock" */
};

struct output {
	char *dir;              /* as given */
	char *base;             /* last component of dir */
	char *stage;            /* name of the staging dir in the parent */
	char *stage_path;       /* parent/stage, for readers of the tree */
	int parent_fd;
	int stage_fd;
	int old_fd;             /* the previous DIR, or -1 */
	int committed;
	struct dir_lock lock;   /* DIR's lock, held until output_free */
	char **paths;
	size_t n, cap;
	int sorted;
	size_t written, reused;
	pthread_mutex_t mu;     /* paths and counts: the pool's workers
	                           write pages at once */
};

/* "." or "..", which readdir lists and nothing may touch. */
static int
is_dot(const char *name)
{
	return strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
}

/* Remove name (a file or a whole tree) below at; never follows links. */
static int
remove_tree(int at, const char *name)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	int fd, rc = 0;

	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(at, name, 0);
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd < 0)
		return -1;
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (is_dot(de->d_name))
			continue;
		if (remove_tree(dirfd(d), de->d_name) < 0)
			rc = -1;
	}
	closedir(d);
	if (unlinkat(at, name, AT_REMOVEDIR) < 0)
		rc = -1;
	return rc;
}

/* DIR names longer than this get a shortened, hashed side name. */
#define SIDE_BASE_MAX 200

/*
 * Append the part of the names beside DIR (its lock, staging and old
 * directories: ".<side>.mirror-lock", ...) that stands for base: base
 * itself, or, when base is so long that those names would pass NAME_MAX
 * (255 bytes), its first bytes and a hash of all of it.
 */
static void
side_name(strbuf *out, const char *base)
{
	size_t len = strlen(base);
	char hex[17];

	if (len <= SIDE_BASE_MAX) {
		strbuf_puts(out, base);
		return;
	}
	hash_hex(hex, hash_add_str(MIRROR_HASH_INIT, base));
	strbuf_add(out, base, SIDE_BASE_MAX - 17);
	strbuf_printf(out, "~%s", hex);
}

/*
 * Remove staging (and fallback) directories of builds into base whose
 * process is gone: ".<base>.mirror-stage-<pid>", ".<base>.mirror-old-<pid>".
 */
static void
clean_stale(int parent_fd, const char *base)
{
	static const char *const kinds[] = { ".mirror-stage-", ".mirror-old-" };
	struct dirent *de;
	strbuf side;
	size_t blen;
	DIR *d;
	int fd;

	fd = openat(parent_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || (d = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	strbuf_init(&side);
	side_name(&side, base);
	blen = side.len;
	while ((de = readdir(d)) != NULL) {
		const char *n = de->d_name, *rest;
		char *end;
		long pid;

		if (n[0] != '.' || strncmp(n + 1, side.data, blen) != 0)
			continue;
		rest = n + 1 + blen;
		for (size_t k = 0; k < 2; k++) {
			size_t kl = strlen(kinds[k]);

			if (strncmp(rest, kinds[k], kl) != 0)
				continue;
			errno = 0;
			pid = strtol(rest + kl, &end, 10);
			if (errno != 0 || *end != '\0' || pid <= 0)
				continue;
			if (pid == (long)getpid() || (kill((pid_t)pid, 0) < 0 &&
			    errno == ESRCH))
				(void)remove_tree(parent_fd, n);
		}
	}
	closedir(d);
	strbuf_free(&side);
}

/* Whether the directory fd is empty or holds the marker. */
static int
ours_or_empty(int fd)
{
	struct dirent *de;
	struct stat st;
	int dup_fd, empty = 1;
	DIR *d;

	if (fstatat(fd, MARKER, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode))
		return 1;
	dup_fd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dup_fd < 0 || (d = fdopendir(dup_fd)) == NULL) {
		if (dup_fd >= 0)
			close(dup_fd);
		return 0;
	}
	while ((de = readdir(d)) != NULL)
		if (!is_dot(de->d_name))
			empty = 0;
	closedir(d);
	return empty;
}

static void
close_fds(struct output *o)
{
	if (o->stage_fd >= 0)
		close(o->stage_fd);
	if (o->old_fd >= 0)
		close(o->old_fd);
	if (o->parent_fd >= 0)
		close(o->parent_fd);
	o->stage_fd = o->old_fd = o->parent_fd = -1;
}

/* Taken by output_lock ahead of output_begin, which takes it over. */
static struct dir_lock early_lock = { -1, -1, NULL };

/*
 * How long to wait for another build's lock: MIRROR_LOCK_TIMEOUT_MS
 * when it is a sane number of milliseconds (0: do not wait), else
 * LOCK_WAIT_MS.
 */
static long
lock_wait_ms(void)
{
	return env_long("MIRROR_LOCK_TIMEOUT_MS", LOCK_WAIT_MS);
}

/* Whether fd is still the file called name in dir_fd. */
static int
lock_current(int fd, int dir_fd, const char *name)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && fstatat(dir_fd, name, &b,
	    AT_SYMLINK_NOFOLLOW) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino;
}

/* The pid the holder wrote into the lock file fd, or 0 if unknown. */
static long
lock_holder(int fd)
{
	char buf[32], *end;
	ssize_t n;
	long pid;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	errno = 0;
	pid = strtol(buf, &end, 10);
	return errno == 0 && end != buf && pid > 0 ? pid : 0;
}

/* Let go of lk, removing its file first (see output_lock). */
static void
lock_release(struct dir_lock *lk)
{
	if (lk->fd >= 0) {
		(void)unlinkat(lk->parent_fd, lk->name, 0);
		close(lk->fd);
	}
	if (lk->parent_fd >= 0)
		close(lk->parent_fd);
	free(lk->name);
	lk->fd = lk->parent_fd = -1;
	lk->name = NULL;
}

/* lock_try's answers besides -errno. */
enum { LOCK_BUSY, LOCK_HELD, LOCK_GONE, LOCK_ODD, LOCK_LINKED,
    LOCK_FOREIGN };

/* Why lock_try refused a file it found there, for the message. */
static const char *
lock_refusal(int rc)
{
	switch (rc) {
	case LOCK_ODD:
		return "not a regular file";
	case LOCK_LINKED:
		return "a file with other names (hard links), not mirror's "
		    "lock: remove it";
	default:
		return "a file holding something other than a mirror lock "
		    "(a pid): remove it if it is stale";
	}
}

/*
 * Whether the locked file fd is mirror's: empty, or a pid and a newline
 * as lock_take writes them (a lock a crashed build left). Anything else
 * is someone's file, never to be truncated.
 */
static int
lock_is_ours(int fd)
{
	char buf[40];
	ssize_t n = pread(fd, buf, sizeof(buf), 0);
	ssize_t i = 0;

	if (n < 0 || (size_t)n >= sizeof(buf))
		return 0;
	while (i < n && buf[i] >= '0' && buf[i] <= '9')
		i++;
	return i == n || (i > 0 && i + 1 == n && buf[i] == '\n');
}

/*
 * Open name in parent_fd and try to lock it once. Returns LOCK_HELD
 * with *fd locked; LOCK_BUSY with *fd open and locked by another
 * process; LOCK_GONE when the lock was had on a file its holder has just
 * removed (try again); LOCK_ODD when name is not a regular file,
 * LOCK_LINKED when it has other names, LOCK_FOREIGN when it holds
 * something lock_take never writes (none of them is touched); or
 * -errno. *fd is -1 unless LOCK_HELD or LOCK_BUSY.
 */
static int
lock_try(int *fd, int parent_fd, const char *name)
{
	struct stat st;
	int rc;

	/* O_NONBLOCK: a FIFO planted there must not hang us. */
	*fd = openat(parent_fd, name, O_RDWR | O_CREAT | O_NOFOLLOW |
	    O_NONBLOCK | O_CLOEXEC, 0644);
	if (*fd < 0)
		return -errno;
	if (fstat(*fd, &st) < 0)
		rc = -errno;
	else if (!S_ISREG(st.st_mode))
		rc = LOCK_ODD;
	else if (st.st_nlink != 1)
		rc = LOCK_LINKED;       /* another name: someone's file */
	else if (flock(*fd, LOCK_EX | LOCK_NB) == 0)
		rc = !lock_current(*fd, parent_fd, name) ? LOCK_GONE :
		    lock_is_ours(*fd) ? LOCK_HELD : LOCK_FOREIGN;
	else
		rc = errno == EWOULDBLOCK || errno == EINTR ? LOCK_BUSY : -errno;
	if (rc != LOCK_HELD && rc != LOCK_BUSY) {
		close(*fd);
		*fd = -1;
	}
	return rc;
}

/*
 * Take the lock of DIR (dir as given; base its last component, in the
 * directory parent_fd whose path is parent), waiting for another holder
 * up to MIRROR_LOCK_TIMEOUT_MS. Returns 0 with *lk holding it, or
 * -MIRROR_EIO naming the lock file (and its holder, after the wait).
 */
static int
lock_take(struct dir_lock *lk, int parent_fd, const char *parent,
    const char *base, const char *dir, mirror_error *err)
{
	long long start = mirror_monotonic_ms(), waited;
	long limit = lock_wait_ms(), step = 2;
	int fd = -1, told = 0, rc, n;
	char pid[32];
	strbuf name;

	strbuf_init(&name);
	strbuf_putc(&name, '.');
	side_name(&name, base);
	strbuf_puts(&name, LOCK_SUFFIX);
	while ((rc = lock_try(&fd, parent_fd, name.data)) != LOCK_HELD) {
		if (rc == LOCK_GONE)
			continue;
		if (rc != LOCK_BUSY) {
			rc = mirror_fail(err, MIRROR_EIO, "%s: cannot lock "
			    "%s/%s: %s", dir, parent, name.data, rc < 0 ?
			    strerror(-rc) : lock_refusal(rc));
			goto out;
		}
		waited = mirror_monotonic_ms() - start;
		if (waited >= limit) {
			rc = mirror_fail(err, MIRROR_EIO, "%s: another build "
			    "is writing it: %s/%s is held by pid %ld (waited "
			    "%lld ms; MIRROR_LOCK_TIMEOUT_MS sets the wait)",
			    dir, parent, name.data, lock_holder(fd), waited);
			close(fd);
			goto out;
		}
		/* Waiting is not a failure: said on a terminal only. */
		if (!told && isatty(STDERR_FILENO)) {
			fprintf(stderr, "mirror: %s: waiting for the build of "
			    "pid %ld to finish (lock %s/%s)\n", dir,
			    lock_holder(fd), parent, name.data);
			told = 1;
		}
		close(fd);
		(void)nanosleep(&(struct timespec){ 0, step * 1000000L }, NULL);
		step = step < 50 ? step * 2 : 50;
	}
	/* The pid only names the holder in a waiter's message: failing to
	 * write it costs that and nothing else. */
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (n > 0 && (size_t)n < sizeof(pid) && ftruncate(fd, 0) == 0)
		(void)!pwrite(fd, pid, (size_t)n, 0);
	lk->parent_fd = fcntl(parent_fd, F_DUPFD_CLOEXEC, 0);
	if (lk->parent_fd < 0) {
		rc = mirror_fail(err, MIRROR_EIO, "%s: %s", dir,
		    strerror(errno));
		(void)unlinkat(parent_fd, name.data, 0);
		close(fd);
		goto out;
	}
	lk->fd = fd;
	lk->name = strbuf_detach(&name);
	rc = 0;
out:
	strbuf_free(&name);
	return rc;
}

/*
 * Split dir into its parent's path and its last component and open the
 * parent, which must be a writable directory. Returns 0 with *parent,
 * *base (the caller frees both) and *parent_fd, or < 0 with nothing to
 * free.
 */
static int
open_parent(char **parent, char **base, int *parent_fd, const char *dir,
    mirror_error *err)
{
	char *copy, *slash;
	size_t len;
	int rc = 0;

	*parent = *base = NULL;
	*parent_fd = -1;
	if (dir == NULL || dir[0] == '\0')
		return mirror_fail(err, MIRROR_EUSAGE, "no output directory");
	copy = xstrdup(dir);
	len = strlen(copy);
	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	slash = strrchr(copy, '/');
	if (slash == NULL) {
		*parent = xstrdup(".");
		slash = copy - 1;
	} else {
		*parent = slash == copy ? xstrdup("/") : xstrndup(copy,
		    (size_t)(slash - copy));
	}
	*base = xstrdup(slash + 1);
	free(copy);
	if ((*base)[0] == '\0' || strcmp(*base, ".") == 0 ||
	    strcmp(*base, "..") == 0) {
		rc = mirror_fail(err, MIRROR_EINPUT, "%s: not usable as an "
		    "output directory (name a directory, not . or .. or /)",
		    dir);
	} else if ((*parent_fd = open(*parent, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0) {
		rc = mirror_fail(err, MIRROR_EINPUT, "%s: parent directory %s: "
		    "%s", dir, *parent, strerror(errno));
	} else if (faccessat(*parent_fd, ".", W_OK | X_OK, AT_EACCESS) < 0) {
		rc = mirror_fail(err, MIRROR_EINPUT, "%s: parent directory %s "
		    "is not writable", dir, *parent);
	}
	if (rc < 0) {
		if (*parent_fd >= 0)
			close(*parent_fd);
		*parent_fd = -1;
		free(*parent);
		free(*base);
		*parent = *base = NULL;
	}
	return rc;
}

/*
 * Open DIR (base in parent_fd) as the previous site: *old_fd gets it, or
 * -1 when DIR does not exist. Returns 0, or -MIRROR_EINPUT when DIR is a
 * symbolic link, not a directory, or non-empty without the marker.
 */
static int
open_old(int *old_fd, int parent_fd, const char *base, const char *dir,
    mirror_error *err)
{
	struct stat st;

	*old_fd = -1;
	if (fstatat(parent_fd, base, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT)
			return 0;
		return mirror_fail(err, MIRROR_EINPUT, "%s: %s", dir,
		    strerror(errno));
	}
	if (S_ISLNK(st.st_mode))
		return mirror_fail(err, MIRROR_EINPUT, "%s: is a symbolic "
		    "link; give the real directory", dir);
	if (!S_ISDIR(st.st_mode))
		return mirror_fail(err, MIRROR_EINPUT, "%s: exists and is not "
		    "a directory", dir);
	*old_fd = openat(parent_fd, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (*old_fd < 0)
		return mirror_fail(err, MIRROR_EINPUT, "%s: %s", dir,
		    strerror(errno));
	if (!ours_or_empty(*old_fd)) {
		close(*old_fd);
		*old_fd = -1;
		return mirror_fail(err, MIRROR_EINPUT, "%s: not empty and not "
		    "written by mirror (no %s); refusing to replace it", dir,
		    MARKER);
	}
	return 0;
}

int
output_lock(const char *dir, mirror_error *err)
{
	char *parent, *base;
	int parent_fd, old_fd, rc;

	if (early_lock.fd >= 0)
		return 0;
	if ((rc = open_parent(&parent, &base, &parent_fd, dir, err)) < 0)
		return rc;
	rc = lock_take(&early_lock, parent_fd, parent, base, dir, err);
	if (rc == 0 && (rc = open_old(&old_fd, parent_fd, base, dir,
	    err)) < 0)
		lock_release(&early_lock);
	if (rc == 0) {
		if (old_fd >= 0)
			close(old_fd);
		/* A build that finds nothing to do still tidies up after
		 * killed ones. */
		clean_stale(parent_fd, base);
	}
	close(parent_fd);
	free(parent);
	free(base);
	return rc;
}

void
output_unlock(void)
{
	lock_release(&early_lock);
}

/*
 * Hold DIR's lock in o: take over the one output_lock took for the same
 * directory, else take it now. Returns 0 or < 0.
 */
static int
lock_own(struct output *o, const char *parent, mirror_error *err)
{
	if (early_lock.fd >= 0 && lock_current(early_lock.fd, o->parent_fd,
	    early_lock.name)) {
		o->lock = early_lock;
		early_lock.fd = early_lock.parent_fd = -1;
		early_lock.name = NULL;
		return 0;
	}
	return lock_take(&o->lock, o->parent_fd, parent, o->base, o->dir,
	    err);
}

int
output_begin(struct output **out, const char *dir, mirror_error *err)
{
	struct output *o;
	char *parent, *base;
	int parent_fd, rc;

	*out = NULL;
	if ((rc = open_parent(&parent, &base, &parent_fd, dir, err)) < 0)
		return rc;
	o = xcalloc(1, sizeof(*o));
	pthread_mutex_init(&o->mu, NULL);
	o->stage_fd = o->old_fd = -1;
	o->lock.fd = o->lock.parent_fd = -1;
	o->parent_fd = parent_fd;
	o->dir = xstrdup(dir);
	o->base = base;
	/* Before DIR is looked at: another build may be swapping it. */
	if ((rc = lock_own(o, parent, err)) < 0 ||
	    (rc = open_old(&o->old_fd, o->parent_fd, o->base, dir, err)) < 0)
		goto fail;
	clean_stale(o->parent_fd, o->base);
	{
		strbuf name;

		strbuf_init(&name);
		strbuf_putc(&name, '.');
		side_name(&name, o->base);
		strbuf_printf(&name, ".mirror-stage-%ld", (long)getpid());
		o->stage = strbuf_detach(&name);
		strbuf_free(&name);
	}
	if (mkdirat(o->parent_fd, o->stage, 0755) < 0 ||
	    (o->stage_fd = openat(o->parent_fd, o->stage, O_RDONLY |
	    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		rc = mirror_fail(err, MIRROR_EIO, "%s/%s: cannot create the "
		    "staging directory: %s", parent, o->stage, strerror(errno));
		(void)unlinkat(o->parent_fd, o->stage, AT_REMOVEDIR);
		goto fail;
	}
	{
		strbuf sp;

		strbuf_init(&sp);
		strbuf_printf(&sp, "%s/%s", parent, o->stage);
		o->stage_path = strbuf_detach(&sp);
	}
	free(parent);
	*out = o;
	return 0;
fail:
	free(parent);
	free(o->stage);
	free(o->stage_path);
	o->stage = NULL;   /* nothing was created: keep output_free away */
	output_free(o);
	return rc;
}

static void
free_parts(char **parts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(parts[i]);
	free(parts);
}

/*
 * Check relpath and split it into components in a fresh array: *parts
 * (free with free_parts) and *n. Returns 0, or -1 with *parts NULL when
 * relpath is empty, too long, or has an empty, ".", ".." or ".mirror*"
 * component.
 */
static int
split_path(char ***parts, size_t *n, const char *relpath)
{
	const char *p = relpath;
	size_t cap = 0;

	*parts = NULL;
	*n = 0;
	if (relpath == NULL || relpath[0] == '\0' || strlen(relpath) > 4096)
		return -1;
	for (;;) {
		size_t w = strcspn(p, "/");

		if (w == 0 || w > 255 || (w == 1 && p[0] == '.') ||
		    (w == 2 && p[0] == '.' && p[1] == '.') ||
		    (w >= 7 && strncmp(p, ".mirror", 7) == 0)) {
			free_parts(*parts, *n);
			*parts = NULL;
			*n = 0;
			return -1;
		}
		ARRAY_PUSH(*parts, *n, cap) = xstrndup(p, w);
		if (p[w] == '\0')
			return 0;
		p += w + 1;
	}
}

/* Whether fd (a regular file) holds exactly data[0..len). */
static int
same_content(int fd, const void *data, size_t len)
{
	const unsigned char *d = data;
	unsigned char buf[65536];
	struct stat st;
	size_t off = 0;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size != len)
		return 0;
	while (off < len) {
		ssize_t got = read(fd, buf, sizeof(buf));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0 || (size_t)got > len - off ||
		    memcmp(buf, d + off, (size_t)got) != 0)
			return 0;
		off += (size_t)got;
	}
	return read(fd, buf, 1) == 0;
}

static int
write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Create name in dirfd with O_EXCL and write data; 0 or -errno. */
static int
create_file(int dirfd, const char *name, const void *data, size_t len)
{
	int fd, e;

	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (write_all(fd, data, len) < 0) {
		e = errno ? errno : EIO;
		close(fd);
		return -e;
	}
	if (close(fd) < 0)
		return -errno;
	return 0;
}

/* Close dfd and ofd unless they are o's own stage and old tree. */
static void
close_dirs(const struct output *o, int dfd, int ofd)
{
	if (dfd != o->stage_fd)
		close(dfd);
	if (ofd >= 0 && ofd != o->old_fd)
		close(ofd);
}

/*
 * Step down the directories parts[0..n-1) of a path: *dfd from the
 * stage, each made when missing, and *ofd alongside in the previous
 * build (-1 where it has no such directory). Both start as o's stage
 * and old tree and end as the file's directories, for the caller to
 * close_dirs, also on error. Returns 0 or -errno.
 */
static int
open_dirs(int *dfd, int *ofd, const struct output *o, char *const *parts,
    size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		int nfd, nofd = -1;

		if (mkdirat(*dfd, parts[i], 0755) < 0 && errno != EEXIST)
			return -errno;
		nfd = openat(*dfd, parts[i], O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0)
			return -errno;
		if (*ofd >= 0)
			nofd = openat(*ofd, parts[i], O_RDONLY | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
		close_dirs(o, *dfd, *ofd);
		*dfd = nfd;
		*ofd = nofd;
	}
	return 0;
}

/*
 * Reuse the previous build's identical file: 1 when name in ofd holds
 * exactly data[0..len) and is now hard-linked as name in dfd; 0 when
 * it is not there, differs or cannot be linked (then it is written).
 */
static int
reuse_file(int dfd, int ofd, const char *name, const void *data,
    size_t len)
{
	int f, same;

	if (ofd < 0)
		return 0;
	/* O_NONBLOCK: a FIFO planted there must not hang us. */
	f = openat(ofd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC);
	if (f < 0)
		return 0;
	same = same_content(f, data, len);
	close(f);
	return same && linkat(ofd, name, dfd, name, 0) == 0;
}

/* Count a file of the stage, reused or written, and list relpath. */
static void
note_file(struct output *o, const char *relpath, int reused)
{
	pthread_mutex_lock(&o->mu);
	if (reused)
		o->reused++;
	else
		o->written++;
	ARRAY_PUSH(o->paths, o->n, o->cap) = xstrdup(relpath);
	o->sorted = 0;
	pthread_mutex_unlock(&o->mu);
}

int
output_write(struct output *o, const char *relpath, const void *data,
    size_t len, mirror_error *err)
{
	char **parts;
	const char *name;
	size_t n;
	int dfd, ofd, rc, reused = 0;

	if (o->committed)
		return mirror_fail(err, MIRROR_EIO, "%s: output already "
		    "committed", relpath);
	if (split_path(&parts, &n, relpath) < 0)
		return mirror_fail(err, MIRROR_EINPUT, "'%s': not a safe "
		    "relative output path", relpath != NULL ? relpath : "");
	name = parts[n - 1];
	dfd = o->stage_fd;
	ofd = o->old_fd;
	if ((rc = open_dirs(&dfd, &ofd, o, parts, n)) == 0 &&
	    !(reused = reuse_file(dfd, ofd, name, data, len)))
		rc = create_file(dfd, name, data, len);
	if (rc == 0)
		note_file(o, relpath, reused);
	else if (rc == -EEXIST)         /* create_file: O_EXCL */
		rc = mirror_fail(err, MIRROR_EINPUT, "%s: written twice in one "
		    "build", relpath);
	else
		rc = mirror_fail(err, MIRROR_EIO, "%s/%s: cannot write: %s",
		    o->dir, relpath, strerror(-rc));
	close_dirs(o, dfd, ofd);
	free_parts(parts, n);
	return rc;
}

/* Swap when RENAME_EXCHANGE is unsupported: two renames, undone on error. */
static int
swap_fallback(struct output *o)
{
	strbuf old;
	int rc = 0;

	strbuf_init(&old);
	strbuf_putc(&old, '.');
	side_name(&old, o->base);
	strbuf_printf(&old, ".mirror-old-%ld", (long)getpid());
	if (renameat(o->parent_fd, o->base, o->parent_fd, old.data) < 0) {
		rc = -1;
	} else if (renameat(o->parent_fd, o->stage, o->parent_fd,
	    o->base) < 0) {
		int e = errno;

		(void)renameat(o->parent_fd, old.data, o->parent_fd, o->base);
		errno = e;
		rc = -1;
	} else {
		(void)remove_tree(o->parent_fd, old.data);
	}
	strbuf_free(&old);
	return rc;
}

int
output_commit(struct output *o, mirror_error *err)
{
	int e;

	if (o->committed)
		return 0;
	e = create_file(o->stage_fd, MARKER, MARKER_TEXT,
	    sizeof(MARKER_TEXT) - 1);
	if (e < 0)
		return mirror_fail(err, MIRROR_EIO, "%s: cannot write %s: %s",
		    o->dir, MARKER, strerror(-e));
	/* One syncfs instead of an fsync per file: the data must be on
	 * disk before the rename makes it the site. */
	if (syncfs(o->stage_fd) < 0)
		return mirror_fail(err, MIRROR_EIO, "%s: cannot sync the "
		    "staged site: %s", o->dir, strerror(errno));
	if (o->old_fd >= 0) {
		if (renameat2(o->parent_fd, o->stage, o->parent_fd, o->base,
		    RENAME_EXCHANGE) == 0) {
			/* The staging name now holds the previous site. */
			(void)remove_tree(o->parent_fd, o->stage);
		} else if ((errno != EINVAL && errno != ENOSYS) ||
		    swap_fallback(o) < 0) {
			return mirror_fail(err, MIRROR_EIO, "%s: cannot swap "
			    "in the new site: %s", o->dir, strerror(errno));
		}
	} else if (renameat2(o->parent_fd, o->stage, o->parent_fd, o->base,
	    RENAME_NOREPLACE) < 0 && ((errno != EINVAL && errno != ENOSYS) ||
	    renameat(o->parent_fd, o->stage, o->parent_fd, o->base) < 0)) {
		return mirror_fail(err, MIRROR_EIO, "%s: cannot move the new "
		    "site in place: %s", o->dir, strerror(errno));
	}
	o->committed = 1;
	(void)fsync(o->parent_fd);
	return 0;
}

void
output_free(struct output *o)
{
	output_unlock();
	if (o == NULL)
		return;
	if (!o->committed && o->stage != NULL && o->parent_fd >= 0) {
		if (o->stage_fd >= 0) {
			close(o->stage_fd);
			o->stage_fd = -1;
		}
		(void)remove_tree(o->parent_fd, o->stage);
	}
	close_fds(o);
	lock_release(&o->lock);
	for (size_t i = 0; i < o->n; i++)
		free(o->paths[i]);
	free(o->paths);
	free(o->stage);
	free(o->stage_path);
	free(o->base);
	free(o->dir);
	pthread_mutex_destroy(&o->mu);
	free(o);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

const char *const *
output_paths(struct output *o, size_t *n)
{
	if (!o->sorted) {
		if (o->n > 1)
			qsort(o->paths, o->n, sizeof(*o->paths), cmp_str);
		o->sorted = 1;
	}
	*n = o->n;
	return (const char *const *)o->paths;
}

size_t
output_written(const struct output *o)
{
	return o->written;
}

size_t
output_reused(const struct output *o)
{
	return o->reused;
}

const char *
output_dir(const struct output *o)
{
	return o->dir;
}

const char *
output_stage_dir(const struct output *out)
{
	return out->stage_path;
}

/* Hard-link relpath from the previous tree into the stage: 0 or -1. */
static int
keep_one(struct output *o, const char *relpath)
{
	char **parts;
	size_t n;
	int dfd, ofd, rc = -1;
	struct stat st;

	if (o->old_fd < 0 || split_path(&parts, &n, relpath) < 0)
		return -1;
	dfd = o->stage_fd;
	ofd = o->old_fd;
	if (open_dirs(&dfd, &ofd, o, parts, n) == 0 && ofd >= 0 &&
	    fstatat(ofd, parts[n - 1], &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode) && linkat(ofd, parts[n - 1], dfd,
	    parts[n - 1], 0) == 0)
		rc = 0;
	close_dirs(o, dfd, ofd);
	free_parts(parts, n);
	return rc;
}

int
output_keep(struct output *o, const char *const *relpaths, size_t n)
{
	struct stat st;
	strbuf p;

	for (size_t i = 0; i < n; i++) {
		strbuf_init(&p);
		strbuf_printf(&p, "%s/%s", o->dir, relpaths[i]);
		if (stat(p.data, &st) < 0) {
			strbuf_free(&p);
			return 0;
		}
		strbuf_free(&p);
	}
	for (size_t i = 0; i < n; i++)
		if (keep_one(o, relpaths[i]) < 0)
			return 0;
	for (size_t i = 0; i < n; i++)
		note_file(o, relpaths[i], 1);
	return 1;
}

int
output_read_prev(char **data, size_t *len, struct output *o,
    const char *relpath, mirror_error *err)
{
	char **parts;
	size_t n;
	int dfd, ofd, f, rc = 0;
	strbuf sb;

	*data = NULL;
	*len = 0;
	(void)err;
	if (o->old_fd < 0 || split_path(&parts, &n, relpath) < 0)
		return 0;
	dfd = o->stage_fd;
	ofd = o->old_fd;
	strbuf_init(&sb);
	if (open_dirs(&dfd, &ofd, o, parts, n) == 0 && ofd >= 0 &&
	    (f = openat(ofd, parts[n - 1], O_RDONLY | O_NOFOLLOW |
	    O_NONBLOCK | O_CLOEXEC)) >= 0) {
		char buf[65536];
		ssize_t got;

		while ((got = read(f, buf, sizeof(buf))) > 0)
			strbuf_add(&sb, buf, (size_t)got);
		close(f);
		*len = sb.len;
		*data = strbuf_detach(&sb);
		rc = 1;
	}
	strbuf_free(&sb);
	close_dirs(o, dfd, ofd);
	free_parts(parts, n);
	return rc;
}
