/*
 * userfile.h: the one way mirror opens a file the user supplies (a
 * template, a theme's layout and assets, the config file).
 *
 * Such a file may come from a pull request a CI job builds, so it is
 * opened as what it claims to be: a regular file, the last component
 * never followed when it is a symbolic link (a link to /etc/shadow would
 * publish and commit the target), and never a FIFO, device, socket or
 * directory (a FIFO would hang the build, a device could be read
 * forever). Directories on the way may be symbolic links: pointing
 * --templates or a theme path at a linked directory is the user's
 * choice. Nor is it ever the store (userfile_not_store). Every refusal
 * is one line, status MIRROR_EINPUT:
 *
 *   templates t/index.md: a symbolic link, not a regular file
 */
#ifndef MIRROR_USERFILE_H
#define MIRROR_USERFILE_H

#include <stddef.h>
#include <sys/stat.h>

#include "util/error.h"
#include "util/strbuf.h"

/* A user's file: name, relative to the directory dirfd (AT_FDCWD: the
 * working directory; name may then be any path); what ("templates",
 * "theme", "config") and shown (the path as the user would write it;
 * NULL: name) make the messages. */
struct userfile_at {
	int dirfd;
	const char *name;
	const char *what;
	const char *shown;
};

/*
 * The store the process reads (core/store registers it: store_guard),
 * so that no user file mirror opens is the store or one of its
 * companions. Closing any descriptor of a file drops every POSIX lock
 * the process holds on it (SQLite's "How To Corrupt", 2.2): a template,
 * theme, rules, config or cache file that is the store, read while a
 * connection holds a read lock, let another process's writer in and
 * corrupt it. A file is the store's when, looked at without opening it
 * (fstatat, the last component not followed), it has the device and
 * inode of one of the store's files that existed when it was
 * registered, or its name is the store's base name, or that with
 * "-journal", "-wal" or "-shm", in the store's directory (SQLite makes
 * those files when it needs them, beside the store's real path).
 */
#define USERFILE_STORE_FILES 4  /* the store, -journal, -wal, -shm */

struct userfile_store {
	const char *path;               /* as the user wrote it */
	const char *base;               /* base name of its real path */
	int have_dir;                   /* dir_dev, dir_ino known */
	dev_t dir_dev;                  /* its real directory */
	ino_t dir_ino;
	struct {
		int have;               /* the file existed */
		dev_t dev;
		ino_t ino;
	} file[USERFILE_STORE_FILES];
};

/*
 * Make s (copied) the store every later open of a user file is checked
 * against; NULL forgets it. Safe from any thread.
 */
void userfile_store_set(const struct userfile_store *s);

/*
 * Check, without opening it, that name (relative to dirfd, as
 * userfile_at has it) is not the registered store nor a companion.
 * Returns 0 (not the store, no store registered, or it cannot be looked
 * at: the open that follows tells), or -MIRROR_EINPUT:
 *
 *   templates t/s.db: this is the store (--store t/s.db); keep the
 *   store outside the templates, theme, rules and cache directories
 */
int userfile_not_store(const struct userfile_at *at, mirror_error *err);

/* A missing file is not an error: the call returns 1 instead. */
#define USERFILE_MISSING_OK 0x1

/*
 * What kind of file mode is, for a message: "a symbolic link", "a FIFO",
 * "a directory", "a character device", "a block device", "a socket",
 * "a regular file" or "an unknown kind of file". Never NULL.
 */
const char *userfile_kind(mode_t mode);


/*
 * Open the file at for reading: a regular file, never through a
 * symbolic link as the file itself, never blocking. Returns 0 and *fd
 * (the caller closes it); 1 and *fd = -1 when the file does not exist
 * and flags hold USERFILE_MISSING_OK; or -MIRROR_EINPUT naming what, the
 * file and what it is instead.
 */
int userfile_openat(int *fd, const struct userfile_at *at, int flags,
    mirror_error *err);

/* userfile_openat relative to the working directory. */
int userfile_open(int *fd, const char *path, const char *what, int flags,
    mirror_error *err);

/*
 * Append the whole of the file userfile_openat opens (at) to sb. max > 0
 * caps its size (larger: -MIRROR_EINPUT, "larger than N MiB"). Returns
 * 0, 1 when missing and USERFILE_MISSING_OK, or -MIRROR_EINPUT
 * (refused, unreadable or too large; sb then holds nothing new).
 */
int userfile_readat(strbuf *sb, const struct userfile_at *at, size_t max,
    int flags, mirror_error *err);

/* userfile_readat relative to the working directory. */
int userfile_read(strbuf *sb, const char *path, const char *what,
    size_t max, int flags, mirror_error *err);

/*
 * Quietly, for a file mirror only consults (a memo in its cache, a ref
 * of a repository): the regular file name below dirfd, opened as above
 * (never the store), into buf and NUL-ended. Returns its length, or -1
 * when it is missing, refused, unreadable or not shorter than size.
 */
long userfile_read_small_at(char *buf, size_t size, int dirfd,
    const char *name);

/* userfile_read_small_at relative to the working directory. */
long userfile_read_small(char *buf, size_t size, const char *path);

#endif
