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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "output.h"
#include "strbuf.h"
#include "xalloc.h"

#define MARKER ".mirror-output"
#define MARKER_TEXT "This directory is written by mirror and replaced " \
    "whole on every build.\n"

struct output {
	char *dir;              /* as given */
	char *base;             /* last component of dir */
	char *stage;            /* name of the staging dir in the parent */
	char *stage_path;       /* parent/stage, for readers of the tree */
	int parent_fd;
	int stage_fd;
	int old_fd;             /* the previous DIR, or -1 */
	int committed;
	char **paths;
	size_t n, cap;
	int sorted;
	size_t written, reused;
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

/*
 * Remove staging (and fallback) directories of builds into base whose
 * process is gone: ".<base>.mirror-stage-<pid>", ".<base>.mirror-old-<pid>".
 */
static void
clean_stale(int parent_fd, const char *base)
{
	static const char *const kinds[] = { ".mirror-stage-", ".mirror-old-" };
	struct dirent *de;
	size_t blen = strlen(base);
	DIR *d;
	int fd;

	fd = openat(parent_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || (d = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		const char *n = de->d_name, *rest;
		char *end;
		long pid;

		if (n[0] != '.' || strncmp(n + 1, base, blen) != 0)
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

int
output_begin(struct output **out, const char *dir, mirror_error *err)
{
	struct output *o;
	struct stat st;
	char *copy, *slash, *parent;
	size_t len;
	int rc;

	*out = NULL;
	if (dir == NULL || dir[0] == '\0')
		return mirror_fail(err, MIRROR_EUSAGE, "no output directory");
	copy = xstrdup(dir);
	len = strlen(copy);
	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	slash = strrchr(copy, '/');
	if (slash == NULL) {
		parent = xstrdup(".");
		slash = copy - 1;
	} else {
		parent = slash == copy ? xstrdup("/") : xstrndup(copy,
		    (size_t)(slash - copy));
	}
	o = xcalloc(1, sizeof(*o));
	o->parent_fd = o->stage_fd = o->old_fd = -1;
	o->dir = xstrdup(dir);
	o->base = xstrdup(slash + 1);
	free(copy);
	if (o->base[0] == '\0' || strcmp(o->base, ".") == 0 ||
	    strcmp(o->base, "..") == 0) {
		rc = mirror_fail(err, MIRROR_EINPUT, "%s: not usable as an "
		    "output directory (name a directory, not . or .. or /)",
		    dir);
		goto fail;
	}
	o->parent_fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (o->parent_fd < 0) {
		rc = mirror_fail(err, MIRROR_EINPUT, "%s: parent directory %s: "
		    "%s", dir, parent, strerror(errno));
		goto fail;
	}
	if (faccessat(o->parent_fd, ".", W_OK | X_OK, AT_EACCESS) < 0) {
		rc = mirror_fail(err, MIRROR_EINPUT, "%s: parent directory %s "
		    "is not writable", dir, parent);
		goto fail;
	}
	if (fstatat(o->parent_fd, o->base, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISLNK(st.st_mode)) {
			rc = mirror_fail(err, MIRROR_EINPUT, "%s: is a "
			    "symbolic link; give the real directory", dir);
			goto fail;
		}
		if (!S_ISDIR(st.st_mode)) {
			rc = mirror_fail(err, MIRROR_EINPUT, "%s: exists and "
			    "is not a directory", dir);
			goto fail;
		}
		o->old_fd = openat(o->parent_fd, o->base, O_RDONLY |
		    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (o->old_fd < 0) {
			rc = mirror_fail(err, MIRROR_EINPUT, "%s: %s", dir,
			    strerror(errno));
			goto fail;
		}
		if (!ours_or_empty(o->old_fd)) {
			rc = mirror_fail(err, MIRROR_EINPUT, "%s: not empty "
			    "and not written by mirror (no %s); refusing to "
			    "replace it", dir, MARKER);
			goto fail;
		}
	} else if (errno != ENOENT) {
		rc = mirror_fail(err, MIRROR_EINPUT, "%s: %s", dir,
		    strerror(errno));
		goto fail;
	}
	clean_stale(o->parent_fd, o->base);
	{
		strbuf name;

		strbuf_init(&name);
		strbuf_printf(&name, ".%s.mirror-stage-%ld", o->base,
		    (long)getpid());
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

/* Check relpath and split it into components in a fresh array. */
static int
split_path(char ***parts, size_t *n, const char *relpath)
{
	const char *p = relpath;

	*parts = NULL;
	*n = 0;
	if (relpath == NULL || relpath[0] == '\0' || strlen(relpath) > 4096)
		return -1;
	for (;;) {
		size_t w = strcspn(p, "/");

		if (w == 0 || w > 255 || (w == 1 && p[0] == '.') ||
		    (w == 2 && p[0] == '.' && p[1] == '.') ||
		    (w >= 7 && strncmp(p, ".mirror", 7) == 0)) {
			for (size_t i = 0; i < *n; i++)
				free((*parts)[i]);
			free(*parts);
			*parts = NULL;
			*n = 0;
			return -1;
		}
		*parts = xreallocarray(*parts, *n + 1, sizeof(**parts));
		(*parts)[(*n)++] = xstrndup(p, w);
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

int
output_write(struct output *o, const char *relpath, const void *data,
    size_t len, mirror_error *err)
{
	char **parts;
	size_t n;
	int dfd, ofd, rc = 0, e;

	if (o->committed)
		return mirror_fail(err, MIRROR_EIO, "%s: output already "
		    "committed", relpath);
	if (split_path(&parts, &n, relpath) < 0)
		return mirror_fail(err, MIRROR_EINPUT, "'%s': not a safe "
		    "relative output path", relpath != NULL ? relpath : "");
	dfd = o->stage_fd;
	ofd = o->old_fd;
	for (size_t i = 0; i + 1 < n; i++) {
		int nfd, nofd = -1;

		if (mkdirat(dfd, parts[i], 0755) < 0 && errno != EEXIST) {
			rc = -errno;
			goto sysfail;
		}
		nfd = openat(dfd, parts[i], O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0) {
			rc = -errno;
			goto sysfail;
		}
		if (ofd >= 0)
			nofd = openat(ofd, parts[i], O_RDONLY | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
		if (dfd != o->stage_fd)
			close(dfd);
		if (ofd >= 0 && ofd != o->old_fd)
			close(ofd);
		dfd = nfd;
		ofd = nofd;
	}
	/* Reuse the previous build's identical file by hard link. */
	if (ofd >= 0) {
		/* O_NONBLOCK: a FIFO planted there must not hang us. */
		int f = openat(ofd, parts[n - 1], O_RDONLY | O_NOFOLLOW |
		    O_NONBLOCK | O_CLOEXEC);

		if (f >= 0) {
			int same = same_content(f, data, len);

			close(f);
			if (same && linkat(ofd, parts[n - 1], dfd, parts[n - 1],
			    0) == 0) {
				o->reused++;
				goto done;
			}
		}
	}
	e = create_file(dfd, parts[n - 1], data, len);
	if (e == -EEXIST) {
		rc = mirror_fail(err, MIRROR_EINPUT, "%s: written twice in one "
		    "build", relpath);
		goto out;
	}
	if (e < 0) {
		rc = e;
		goto sysfail;
	}
	o->written++;
done:
	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 64;
		o->paths = xreallocarray(o->paths, o->cap, sizeof(*o->paths));
	}
	o->paths[o->n++] = xstrdup(relpath);
	o->sorted = 0;
	goto out;
sysfail:
	rc = mirror_fail(err, MIRROR_EIO, "%s/%s: cannot write: %s", o->dir,
	    relpath, strerror(-rc));
out:
	if (dfd != o->stage_fd)
		close(dfd);
	if (ofd >= 0 && ofd != o->old_fd)
		close(ofd);
	for (size_t i = 0; i < n; i++)
		free(parts[i]);
	free(parts);
	return rc;
}

/* Swap when RENAME_EXCHANGE is unsupported: two renames, undone on error. */
static int
swap_fallback(struct output *o)
{
	strbuf old;
	int rc = 0;

	strbuf_init(&old);
	strbuf_printf(&old, ".%s.mirror-old-%ld", o->base, (long)getpid());
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
	for (size_t i = 0; i < o->n; i++)
		free(o->paths[i]);
	free(o->paths);
	free(o->stage);
	free(o->stage_path);
	free(o->base);
	free(o->dir);
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
