/*
 * userfile.c: open a user-supplied file as a regular file, never through
 * a symbolic link, never blocking, never the store (see userfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/userfile.h"

const char *
userfile_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISLNK(mode))
		return "a symbolic link";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "an unknown kind of file";
}

/* The registered store (userfile_store_set), its strings kept here. */
static struct {
	int set;
	struct userfile_store s;
	char path[PATH_MAX];
	char base[NAME_MAX + 1];
} guard;
static pthread_mutex_t guard_mu = PTHREAD_MUTEX_INITIALIZER;

/* What follows the store's base name in each of its files' names. */
static const char *const store_suffix[USERFILE_STORE_FILES] = {
	"", "-journal", "-wal", "-shm"
};

void
userfile_store_set(const struct userfile_store *s)
{
	pthread_mutex_lock(&guard_mu);
	guard.set = 0;
	if (s != NULL && s->path != NULL &&
	    strlen(s->path) < sizeof(guard.path) &&
	    (s->base == NULL || strlen(s->base) < sizeof(guard.base))) {
		guard.s = *s;
		strcpy(guard.path, s->path);
		strcpy(guard.base, s->base != NULL ? s->base : "");
		guard.s.path = guard.path;
		guard.s.base = guard.base;
		guard.s.have_dir = s->have_dir && s->base != NULL &&
		    s->base[0] != '\0';
		guard.set = 1;
	}
	pthread_mutex_unlock(&guard_mu);
}

/*
 * Which of the store's files (0: the store, 1-3: its companions, as in
 * store_suffix) the file at name below dirfd is, st its fstatat without
 * following: by device and inode, or by name in the store's directory.
 * Returns that index, or -1 (not the store's, or none registered); the
 * store's path as given into path.
 */
static int
store_index(char path[PATH_MAX], int dirfd, const char *name,
    const struct stat *st)
{
	char base[NAME_MAX + 1], dir[PATH_MAX];
	const char *leaf = strrchr(name, '/');
	struct userfile_store g;
	struct stat ds;
	int set, i = -1;

	pthread_mutex_lock(&guard_mu);
	set = guard.set;
	g = guard.s;
	memcpy(path, guard.path, sizeof(guard.path));
	memcpy(base, guard.base, sizeof(guard.base));
	pthread_mutex_unlock(&guard_mu);
	if (!set)
		return -1;
	for (int k = 0; k < USERFILE_STORE_FILES; k++)
		if (g.file[k].have && g.file[k].dev == st->st_dev &&
		    g.file[k].ino == st->st_ino)
			return k;
	leaf = leaf != NULL ? leaf + 1 : name;
	for (int k = 0; i < 0 && g.have_dir && k < USERFILE_STORE_FILES;
	    k++) {
		size_t n = strlen(base);

		if (strncmp(leaf, base, n) == 0 &&
		    strcmp(leaf + n, store_suffix[k]) == 0)
			i = k;
	}
	if (i < 0 || (size_t)(leaf - name) >= sizeof(dir))
		return -1;
	/* The directory the name is in, followed as the open would. */
	memcpy(dir, name, (size_t)(leaf - name));
	dir[leaf - name] = '\0';
	if (fstatat(dirfd, dir[0] != '\0' ? dir : ".", &ds, 0) != 0 ||
	    ds.st_dev != g.dir_dev || ds.st_ino != g.dir_ino)
		return -1;
	return i;
}

/* The refusal of a file that is the store's file i; -MIRROR_EINPUT. */
static int
is_store(mirror_error *err, const char *what, const char *shown,
    const char *path, int i)
{
	static const char *const whose[USERFILE_STORE_FILES] = {
		"", "'s -journal", "'s -wal", "'s -shm"
	};

	return mirror_fail(err, MIRROR_EINPUT, "%s %s: this is the store%s "
	    "(--store %s); keep the store outside the templates, theme, "
	    "rules and cache directories", what, shown, whose[i], path);
}

int
userfile_not_store(const struct userfile_at *at, mirror_error *err)
{
	char path[PATH_MAX];
	struct stat st;
	int i;

	if (fstatat(at->dirfd, at->name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    (i = store_index(path, at->dirfd, at->name, &st)) < 0)
		return 0;
	return is_store(err, at->what, at->shown != NULL ? at->shown :
	    at->name, path, i);
}

/* The one refusal line; returns -MIRROR_EINPUT. */
static int
not_regular(mirror_error *err, const char *what, const char *shown,
    mode_t mode)
{
	return mirror_fail(err, MIRROR_EINPUT, "%s %s: %s, not a regular "
	    "file", what, shown, userfile_kind(mode));
}

int
userfile_openat(int *fd, const struct userfile_at *at, int flags,
    mirror_error *err)
{
	int dirfd = at->dirfd;
	const char *name = at->name, *what = at->what;
	const char *shown = at->shown != NULL ? at->shown : name;
	char store[PATH_MAX];
	struct stat st;
	int f, i;

	*fd = -1;
	/*
	 * Look first, so a device or FIFO is never even opened; then open
	 * without following and look again at what was opened, so a file
	 * swapped in between is refused too.
	 */
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT && (flags & USERFILE_MISSING_OK))
			return 1;
		return mirror_fail(err, MIRROR_EINPUT, "%s %s: %s", what,
		    shown, strerror(errno));
	}
	if ((i = store_index(store, dirfd, name, &st)) >= 0)
		return is_store(err, what, shown, store, i);
	if (!S_ISREG(st.st_mode))
		return not_regular(err, what, shown, st.st_mode);
	f = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_NOCTTY | O_CLOEXEC);
	if (f < 0) {
		if (errno == ELOOP)
			return not_regular(err, what, shown, S_IFLNK);
		if (errno == ENOENT && (flags & USERFILE_MISSING_OK))
			return 1;
		return mirror_fail(err, MIRROR_EINPUT, "%s %s: %s", what,
		    shown, strerror(errno));
	}
	if (fstat(f, &st) < 0) {
		int e = errno;

		close(f);
		return mirror_fail(err, MIRROR_EINPUT, "%s %s: %s", what,
		    shown, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(f);
		return not_regular(err, what, shown, st.st_mode);
	}
	*fd = f;
	return 0;
}

int
userfile_open(int *fd, const char *path, const char *what, int flags,
    mirror_error *err)
{
	return userfile_openat(fd, &(struct userfile_at){ .dirfd = AT_FDCWD,
	    .name = path, .what = what, .shown = path }, flags, err);
}

int
userfile_readat(strbuf *sb, const struct userfile_at *at, size_t max,
    int flags, mirror_error *err)
{
	char chunk[65536];
	size_t start = sb->len;
	const char *what = at->what;
	const char *shown = at->shown != NULL ? at->shown : at->name;
	ssize_t n;
	int fd, rc;

	if ((rc = userfile_openat(&fd, &(struct userfile_at){ .dirfd =
	    at->dirfd, .name = at->name, .what = what, .shown = shown },
	    flags, err)) != 0)
		return rc;
	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = mirror_fail(err, MIRROR_EINPUT, "%s %s: %s", what,
			    shown, strerror(errno));
			break;
		}
		if (n == 0)
			break;
		strbuf_add(sb, chunk, (size_t)n);
		if (max > 0 && sb->len - start > max) {
			rc = mirror_fail(err, MIRROR_EINPUT, "%s %s: larger "
			    "than %zu MiB", what, shown, max >> 20);
			break;
		}
	}
	close(fd);
	if (rc < 0) {
		sb->len = start;
		if (sb->data != NULL)
			sb->data[start] = '\0';
	}
	return rc;
}

int
userfile_read(strbuf *sb, const char *path, const char *what, size_t max,
    int flags, mirror_error *err)
{
	return userfile_readat(sb, &(struct userfile_at){ .dirfd = AT_FDCWD,
	    .name = path, .what = what, .shown = path }, max, flags, err);
}

long
userfile_read_small_at(char *buf, size_t size, int dirfd, const char *name)
{
	char store[PATH_MAX];
	struct stat sb;
	ssize_t got = -1;
	int fd;

	if (size < 1 || fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISREG(sb.st_mode) || store_index(store, dirfd, name, &sb) >= 0)
		return -1;
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode))
		got = read(fd, buf, size);
	close(fd);
	if (got < 0 || (size_t)got >= size)
		return -1;
	buf[got] = '\0';
	return (long)got;
}

long
userfile_read_small(char *buf, size_t size, const char *path)
{
	return userfile_read_small_at(buf, size, AT_FDCWD, path);
}
