/*
 * userfile.c: open a user-supplied file as a regular file, never through
 * a symbolic link, never blocking (see userfile.h).
 */
#include <errno.h>
#include <fcntl.h>
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
	struct stat st;
	int f;

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
userfile_read_small(char *buf, size_t size, const char *path)
{
	struct stat sb;
	ssize_t got = -1;
	int fd;

	if (size < 1)
		return -1;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
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
