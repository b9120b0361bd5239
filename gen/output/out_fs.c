/*
 * out_fs.c: safe file operations on the output directory (see out_fs.h).
 */
#define _GNU_SOURCE   /* O_NOFOLLOW with O_DIRECTORY, syscall */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "output/out_fs.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/xalloc.h"

#ifdef MIRROR_TEST_HOOKS
int out_fs_test_no_openat2;
#endif

/* 1 once openat2 was found missing (an older kernel): the stepwise way
 * from then on. */
static int no_openat2;

int
out_is_dot(const char *name)
{
	return strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
}

int
out_remove_tree(int at, const char *name)
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
		if (out_is_dot(de->d_name))
			continue;
		if (out_remove_tree(dirfd(d), de->d_name) < 0)
			rc = -1;
	}
	closedir(d);
	if (unlinkat(at, name, AT_REMOVEDIR) < 0)
		rc = -1;
	return rc;
}

/* DIR names longer than this get a shortened, hashed side name. */
#define SIDE_BASE_MAX 200

void
out_side_name(strbuf *out, const char *base)
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

int
out_path_ok(const char *relpath)
{
	const char *p = relpath;

	if (relpath == NULL || relpath[0] == '\0' || strlen(relpath) > 4096)
		return 0;
	for (;;) {
		size_t w = strcspn(p, "/");

		if (w == 0 || w > 255 || (w == 1 && p[0] == '.') ||
		    (w == 2 && p[0] == '.' && p[1] == '.') ||
		    (w >= 7 && strncmp(p, ".mirror", 7) == 0))
			return 0;
		if (p[w] == '\0')
			return 1;
		p += w + 1;
	}
}

size_t
out_split_last(const char **name, const char *path)
{
	const char *slash = strrchr(path, '/');

	*name = slash != NULL ? slash + 1 : path;
	return slash != NULL ? (size_t)(slash - path) : 0;
}

/* Write all of data to fd. Returns 0 or -1 with errno set. */
static int
write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
out_create_file(int dirfd, const char *name, const void *data, size_t len,
    int how)
{
	int fd, e;

	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
	    ((how & OUT_EXCL) ? O_EXCL : O_TRUNC | O_NONBLOCK), 0644);
	if (fd < 0)
		return -errno;
	/* A NULL data of no bytes is still an empty file. */
	if (write_all(fd, data != NULL ? data : "", len) < 0 ||
	    ((how & OUT_SYNC) && fsync(fd) < 0)) {
		e = errno;
		close(fd);
		return -e;
	}
	if (close(fd) < 0)
		return -errno;
	return 0;
}

int
out_same_content(int fd, const void *data, size_t len)
{
	const unsigned char *p = data != NULL ? data : (const void *)"";
	unsigned char buf[65536];
	struct stat st;
	size_t off = 0;

	/* fd is a regular file read from its offset: exactly p[0..len)? */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size != len)
		return 0;
	while (off < len) {
		ssize_t got = read(fd, buf, sizeof(buf));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0 || (size_t)got > len - off)
			return 0;
		if (memcmp(buf, p + off, (size_t)got) != 0)
			return 0;
		off += (size_t)got;
	}
	return read(fd, buf, 1) == 0;
}

int
out_read_fd(char **data, size_t *len, int fd)
{
	struct stat st;
	strbuf sb;
	char buf[65536];
	ssize_t got;
	int e;

	*data = NULL;
	*len = 0;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	strbuf_init(&sb);
	strbuf_grow(&sb, (size_t)st.st_size);
	while ((got = read(fd, buf, sizeof(buf))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			e = errno;
			strbuf_free(&sb);
			return -e;
		}
		strbuf_add(&sb, buf, (size_t)got);
	}
	*len = sb.len;
	*data = strbuf_detach(&sb);
	return 0;
}

/* out_open_beneath the old way: one component at a time, O_NOFOLLOW;
 * mode for O_CREAT. Returns the descriptor or -errno. */
static int
open_stepwise(int dirfd, const char *relpath, int flags, mode_t mode)
{
	const char *p = relpath, *slash;
	int fd = dirfd, next, e;
	char name[256];

	while ((slash = strchr(p, '/')) != NULL) {
		size_t w = (size_t)(slash - p);

		if (w >= sizeof(name)) {
			if (fd != dirfd)
				close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(name, p, w);
		name[w] = '\0';
		next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		e = errno;
		if (fd != dirfd)
			close(fd);
		if (next < 0)
			return -e;
		fd = next;
		p = slash + 1;
	}
	next = openat(fd, p, flags | O_NOFOLLOW | O_CLOEXEC, mode);
	e = errno;
	if (fd != dirfd)
		close(fd);
	return next < 0 ? -e : next;
}

/* out_open_beneath with mode for O_CREAT (0 otherwise). Returns the
 * descriptor or -errno. */
static int
open_beneath(int dirfd, const char *relpath, int flags, mode_t mode)
{
	struct open_how how;
	long fd;

#ifdef MIRROR_TEST_HOOKS
	if (__atomic_load_n(&out_fs_test_no_openat2, __ATOMIC_RELAXED))
		return open_stepwise(dirfd, relpath, flags, mode);
#endif
	if (__atomic_load_n(&no_openat2, __ATOMIC_RELAXED))
		return open_stepwise(dirfd, relpath, flags, mode);
	memset(&how, 0, sizeof(how));
	how.flags = (uint64_t)(flags | O_NOFOLLOW | O_CLOEXEC);
	how.mode = (flags & O_CREAT) ? (uint64_t)mode : 0;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
	    RESOLVE_NO_MAGICLINKS;
	fd = syscall(SYS_openat2, dirfd, relpath, &how, sizeof(how));
	if (fd >= 0)
		return (int)fd;
	if (errno == ENOSYS || errno == E2BIG) {
		/* An older kernel: the stepwise way from now on. */
		__atomic_store_n(&no_openat2, 1, __ATOMIC_RELAXED);
		return open_stepwise(dirfd, relpath, flags, mode);
	}
	return -errno;
}

int
out_open_beneath(int dirfd, const char *relpath, int flags)
{
	return open_beneath(dirfd, relpath, flags, 0);
}

void
out_dirs_init(struct out_dirs *d, int top)
{
	memset(d, 0, sizeof(*d));
	d->top = top;
	strbuf_init(&d->path);
}

/* Close the open directories past the first keep. */
static void
dirs_pop(struct out_dirs *d, size_t keep)
{
	while (d->n > keep)
		close(d->fd[--d->n]);
	d->path.len = keep > 0 ? d->end[keep - 1] : 0;
	d->path.data[d->path.len] = '\0';
}

void
out_dirs_free(struct out_dirs *d)
{
	dirs_pop(d, 0);
	free(d->fd);
	free(d->end);
	strbuf_free(&d->path);
}

/*
 * The directory name in at, opened (O_NOFOLLOW); with create, made when
 * missing, and made anew when something else (a link, a file) is there.
 * Returns the descriptor or -errno.
 */
static int
dir_open(int at, const char *name, int create)
{
	const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC;
	int fd = openat(at, name, flags);

	if (fd >= 0 || !create)
		return fd >= 0 ? fd : -errno;
	if (errno == ELOOP || errno == ENOTDIR) {
		/* Not a directory: a link or a file where one goes. */
		if (unlinkat(at, name, 0) < 0 && errno != ENOENT)
			return -errno;
	} else if (errno != ENOENT) {
		return -errno;
	}
	if (mkdirat(at, name, 0755) < 0 && errno != EEXIST)
		return -errno;
	fd = openat(at, name, flags);
	return fd >= 0 ? fd : -errno;
}

int
out_dirs_get(struct out_dirs *d, const char *dir, size_t len, int create)
{
	size_t keep = 0, at;
	char name[256];

	/* The open components dir shares stay open. */
	while (keep < d->n && d->end[keep] <= len &&
	    memcmp(d->path.data, dir, d->end[keep]) == 0 &&
	    (d->end[keep] == len || dir[d->end[keep]] == '/'))
		keep++;
	dirs_pop(d, keep);
	at = d->path.len + (d->n > 0);
	while (at < len) {
		size_t w = strcspn(dir + at, "/");
		int fd;

		if (w > len - at)
			w = len - at;
		if (w == 0 || w >= sizeof(name))
			return -EINVAL;
		memcpy(name, dir + at, w);
		name[w] = '\0';
		fd = dir_open(d->n > 0 ? d->fd[d->n - 1] : d->top, name,
		    create);
		if (fd < 0)
			return fd;
		ARRAY_RESERVE(d->end, d->ecap, d->n + 1);
		d->end[d->n] = at + w;
		ARRAY_PUSH(d->fd, d->n, d->cap) = fd;
		if (at > 0)
			strbuf_putc(&d->path, '/');
		strbuf_add(&d->path, name, w);
		at += w + 1;
	}
	return d->n > 0 ? d->fd[d->n - 1] : d->top;
}

/* An entry of an out_set's table: the string is set->v[idx]. */
struct out_set_ent {
	uint64_t key;
	size_t idx;
};

/* The table key of s[0..len): its hash, never 0. */
static uint64_t
set_key(const char *s, size_t len)
{
	/* A word at a time: DIR's list is 200,000 paths at 1M facts. */
	uint64_t h = hash_words(MIRROR_HASH_INIT, s, len);

	return h != 0 ? h : 1;
}

void
out_set_init(struct out_set *s)
{
	memset(s, 0, sizeof(*s));
	hashtab_init(&s->tab, sizeof(struct out_set_ent));
}

void
out_set_free(struct out_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	free(s->val);
	hashtab_free(&s->tab);
	memset(s, 0, sizeof(*s));
}

long
out_set_find(const struct out_set *set, const char *s, size_t len)
{
	const struct out_set_ent *e;

	for (e = hashtab_get(&set->tab, set_key(s, len)); e != NULL;
	    e = hashtab_next(&set->tab, e)) {
		const char *v = set->v[e->idx];

		if (strncmp(v, s, len) == 0 && v[len] == '\0')
			return (long)e->idx;
	}
	return -1;
}

void
out_set_reserve(struct out_set *set, size_t n)
{
	hashtab_reserve(&set->tab, n);
	ARRAY_RESERVE(set->val, set->vcap, n);
	ARRAY_RESERVE(set->v, set->cap, n);
}

size_t
out_set_push(struct out_set *set, const char *s, size_t len, long val)
{
	ARRAY_RESERVE(set->val, set->vcap, set->n + 1);
	set->val[set->n] = val;
	ARRAY_PUSH(set->v, set->n, set->cap) = xstrndup(s, len);
	return set->n - 1;
}

void
out_set_index(struct out_set *set)
{
	hashtab_reserve(&set->tab, set->n);
	for (; set->indexed < set->n; set->indexed++) {
		const char *v = set->v[set->indexed];
		struct out_set_ent *e = hashtab_add(&set->tab,
		    set_key(v, strlen(v)));

		e->idx = set->indexed;
	}
}

size_t
out_set_add(struct out_set *set, const char *s, size_t len, long val)
{
	size_t i = out_set_push(set, s, len, val);

	out_set_index(set);
	return i;
}
