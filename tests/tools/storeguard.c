/*
 * storeguard.so: an LD_PRELOAD shim that records every open and close of
 * a store's files (the database, its -journal, -wal and -shm) that does
 * not come from inside libsqlite3.
 *
 *   MIRROR_GUARD_STORE=path/to/store.db MIRROR_GUARD_LOG=guard.log \
 *   LD_PRELOAD=build/tests/storeguard.so mirror build ...
 *
 * Why: closing any descriptor of a file drops every POSIX lock the
 * process holds on it, so a process with an SQLite connection that opens
 * and closes the store by itself lets another writer in while it writes
 * (SQLite's "How To Corrupt An SQLite Database File", 2.2). SQLite keeps
 * its own descriptors for that reason; nobody else may have one.
 *
 * A call is SQLite's when its return address lies in an object whose
 * file name holds "libsqlite3" (SQLite calls open and close through its
 * table of system calls, from its own code). Every other call on one of
 * the store's files appends one line to MIRROR_GUARD_LOG:
 *   open PATH by OBJECT
 *   close FD by OBJECT
 * A test asserts the log is empty after mirror ran, and that it is not
 * after a program that opens the store itself (cat) ran.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *suffixes[] = { "", "-journal", "-wal", "-shm" };

/* 1 when the object holding code address pc is libsqlite3, else 0. */
static int
from_sqlite(const void *pc)
{
	Dl_info info;

	return dladdr(pc, &info) != 0 && info.dli_fname != NULL &&
	    strstr(info.dli_fname, "libsqlite3") != NULL;
}

/* The name of the object holding pc, for the log. */
static const char *
object_of(const void *pc)
{
	Dl_info info;

	if (dladdr(pc, &info) != 0 && info.dli_fname != NULL)
		return info.dli_fname;
	return "?";
}

/* 1 when fd is a descriptor of one of the guarded store's files. */
static int
is_store_fd(int fd)
{
	const char *store = getenv("MIRROR_GUARD_STORE");
	struct stat have, want;
	char path[4096];
	int saved = errno, hit = 0;

	if (store == NULL || fd < 0 || fstat(fd, &have) != 0)
		goto out;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		int n = snprintf(path, sizeof(path), "%s%s", store,
		    suffixes[i]);

		if (n < 0 || (size_t)n >= sizeof(path))
			continue;
		if (stat(path, &want) == 0 && want.st_dev == have.st_dev &&
		    want.st_ino == have.st_ino) {
			hit = 1;
			break;
		}
	}
out:
	errno = saved;
	return hit;
}

/* Append one line to MIRROR_GUARD_LOG (O_APPEND: whole lines from any
 * number of threads and processes). */
static void
note(const char *what, const char *arg, const void *pc)
{
	int (*real_open)(const char *, int, ...) =
	    (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	int (*real_close)(int) = (int (*)(int))dlsym(RTLD_NEXT, "close");
	const char *log = getenv("MIRROR_GUARD_LOG");
	char line[8192];
	int saved = errno, fd, n;

	if (log == NULL)
		return;
	n = snprintf(line, sizeof(line), "%s %s by %s\n", what, arg,
	    object_of(pc));
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1;
	fd = real_open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		(void)!write(fd, line, (size_t)n);
		real_close(fd);
	}
	errno = saved;
}

/* After an open by anyone but SQLite: note it when fd is the store's. */
static void
opened(int fd, const char *path, const void *pc)
{
	if (fd >= 0 && !from_sqlite(pc) && is_store_fd(fd))
		note("open", path, pc);
}

#define MODE_ARG(flags, mode) do {					\
	mode = 0;							\
	if ((flags) & (O_CREAT | O_TMPFILE)) {				\
		va_list ap;						\
		va_start(ap, flags);					\
		mode = va_arg(ap, mode_t);				\
		va_end(ap);						\
	}								\
} while (0)

int open(const char *path, int flags, ...);
int open64(const char *path, int flags, ...);
int openat(int dirfd, const char *path, int flags, ...);
int openat64(int dirfd, const char *path, int flags, ...);
FILE *fopen(const char *path, const char *how);
FILE *fopen64(const char *path, const char *how);
int close(int fd);

int
open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	mode_t mode;
	int fd;

	MODE_ARG(flags, mode);
	if (real == NULL)
		real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT,
		    "open");
	fd = real(path, flags, mode);
	opened(fd, path, __builtin_return_address(0));
	return fd;
}

int
open64(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	mode_t mode;
	int fd;

	MODE_ARG(flags, mode);
	if (real == NULL)
		real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT,
		    "open64");
	fd = real(path, flags, mode);
	opened(fd, path, __builtin_return_address(0));
	return fd;
}

int
openat(int dirfd, const char *path, int flags, ...)
{
	static int (*real)(int, const char *, int, ...);
	mode_t mode;
	int fd;

	MODE_ARG(flags, mode);
	if (real == NULL)
		real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT,
		    "openat");
	fd = real(dirfd, path, flags, mode);
	opened(fd, path, __builtin_return_address(0));
	return fd;
}

int
openat64(int dirfd, const char *path, int flags, ...)
{
	static int (*real)(int, const char *, int, ...);
	mode_t mode;
	int fd;

	MODE_ARG(flags, mode);
	if (real == NULL)
		real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT,
		    "openat64");
	fd = real(dirfd, path, flags, mode);
	opened(fd, path, __builtin_return_address(0));
	return fd;
}

FILE *
fopen(const char *path, const char *how)
{
	static FILE *(*real)(const char *, const char *);
	FILE *f;

	if (real == NULL)
		real = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT,
		    "fopen");
	f = real(path, how);
	if (f != NULL)
		opened(fileno(f), path, __builtin_return_address(0));
	return f;
}

FILE *
fopen64(const char *path, const char *how)
{
	static FILE *(*real)(const char *, const char *);
	FILE *f;

	if (real == NULL)
		real = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT,
		    "fopen64");
	f = real(path, how);
	if (f != NULL)
		opened(fileno(f), path, __builtin_return_address(0));
	return f;
}

int
close(int fd)
{
	static int (*real)(int);
	const void *pc = __builtin_return_address(0);
	char arg[32];

	if (real == NULL)
		real = (int (*)(int))dlsym(RTLD_NEXT, "close");
	if (!from_sqlite(pc) && is_store_fd(fd)) {
		(void)snprintf(arg, sizeof(arg), "%d", fd);
		note("close", arg, pc);
	}
	return real(fd);
}
