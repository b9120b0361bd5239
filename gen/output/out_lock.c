/*
 * out_lock.c: DIR's lock file (see out_lock.h and output_lock in
 * output.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "output/out_fs.h"
#include "output/out_lock.h"
#include "output/out_site.h"
#include "sys/clock.h"
#include "sys/env.h"
#include "util/strbuf.h"
#include "sys/termtext.h"

#define LOCK_SUFFIX ".mirror-lock"
#define LOCK_WAIT_MS 300000L   /* the wait's default bound: 5 minutes */

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

int
out_lock_current(int fd, int dir_fd, const char *name)
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

int
out_lock_is_for(const struct out_lock *lk, const char *base)
{
	strbuf name;
	int same;

	strbuf_init(&name);
	strbuf_putc(&name, '.');
	out_side_name(&name, base);
	strbuf_puts(&name, LOCK_SUFFIX);
	same = lk->name != NULL && strcmp(lk->name, name.data) == 0;
	strbuf_free(&name);
	return same;
}

int
out_lock_held(const struct out_lock *lk, const char *dir, mirror_error *err)
{
	if (lk->fd >= 0 && out_lock_current(lk->fd, lk->parent_fd, lk->name))
		return 0;
	return mirror_fail(err, MIRROR_EIO, "%s: its lock file %s beside it "
	    "was removed or replaced while this build held it, so another "
	    "build may be writing %s: stopped without changing it", dir,
	    lk->name != NULL ? lk->name : "(none)", dir);
}

void
out_lock_release(struct out_lock *lk)
{
	if (lk->fd >= 0) {
		/* Only the file it holds: when someone removed that one, the
		 * file there now is another build's lock. */
		if (out_lock_current(lk->fd, lk->parent_fd, lk->name))
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
 * process; LOCK_GONE when the file opened is one its holder has just
 * removed, before or after the lock was had (try again); LOCK_ODD when name is not a regular file,
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
	else if (st.st_nlink == 0)
		rc = LOCK_GONE;         /* its holder removed it meanwhile */
	else if (st.st_nlink != 1)
		rc = LOCK_LINKED;       /* another name: someone's file */
	else if (flock(*fd, LOCK_EX | LOCK_NB) == 0)
		rc = !out_lock_current(*fd, parent_fd, name) ? LOCK_GONE :
		    lock_is_ours(*fd) ? LOCK_HELD : LOCK_FOREIGN;
	else
		rc = errno == EWOULDBLOCK || errno == EINTR ? LOCK_BUSY : -errno;
	if (rc != LOCK_HELD && rc != LOCK_BUSY) {
		close(*fd);
		*fd = -1;
	}
	return rc;
}

int
out_lock_take(struct out_lock *lk, const struct out_place *at,
    mirror_error *err)
{
	const char *dir = at->dir, *parent = at->parent;
	long long start = mirror_monotonic_ms(), waited;
	long limit = lock_wait_ms(), step = 2;
	int fd = -1, told = 0, rc, n;
	char pid[32];
	strbuf name;

	strbuf_init(&name);
	strbuf_putc(&name, '.');
	out_side_name(&name, at->base);
	strbuf_puts(&name, LOCK_SUFFIX);
	while ((rc = lock_try(&fd, at->parent_fd, name.data)) != LOCK_HELD) {
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
			(void)termtext_printf(stderr, "mirror: %s: waiting for "
			    "the build of pid %ld to finish (lock %s/%s)\n", dir,
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
	lk->parent_fd = fcntl(at->parent_fd, F_DUPFD_CLOEXEC, 0);
	if (lk->parent_fd < 0) {
		rc = mirror_fail(err, MIRROR_EIO, "%s: %s", dir,
		    strerror(errno));
		(void)unlinkat(at->parent_fd, name.data, 0);
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
