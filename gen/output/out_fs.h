/*
 * out_fs.h: the output directory's safe file operations (gen/output's own;
 * output.h is the face).
 *
 * Everything works on directory descriptors and never follows a
 * symbolic link: a path inside DIR is opened in one openat2(2) with
 * RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS (one component at a time with
 * O_NOFOLLOW where the kernel lacks it), and a chain of directories is
 * opened once and reused while its files are handled (struct out_dirs;
 * the writers of a build share theirs, out_dircache.h).
 */
#ifndef MIRROR_OUT_FS_H
#define MIRROR_OUT_FS_H

#include <stddef.h>
#include <stdint.h>

#include "util/hashtab.h"
#include "util/strbuf.h"

/* "." or "..", which readdir lists and nothing may touch. */
int out_is_dot(const char *name);

/* Remove name (a file or a whole tree) below at; never follows links.
 * Returns 0 (also when name does not exist) or -1 with errno set. */
int out_remove_tree(int at, const char *name);

/*
 * Append the part of the names beside DIR (its lock, staging directory
 * and journal: ".<side>.mirror-lock", ...) that stands for base: base
 * itself, or, when base is so long that those names would pass NAME_MAX
 * (255 bytes), its first bytes and a hash of all of it.
 */
void out_side_name(strbuf *out, const char *base);

/*
 * 1 when relpath is a safe relative output path: '/'-separated, at most
 * 4096 bytes, no empty, "." or ".." component, none starting with
 * ".mirror", every one at most 255 bytes; else 0 (NULL included).
 */
int out_path_ok(const char *relpath);

/* How out_create_file creates: a new file only; fsync before close. */
#define OUT_EXCL 1
#define OUT_SYNC 2

/*
 * Create name in dirfd (with OUT_EXCL in how a new file only, else
 * replacing a regular file there; never through a link) and write
 * data[0..len) to it, synced to disk first with OUT_SYNC. Returns 0 or
 * -errno.
 */
int out_create_file(int dirfd, const char *name, const void *data,
    size_t len, int how);

/* The length of the directory part of path (0: none); *name gets its
 * last component. */
size_t out_split_last(const char **name, const char *path);

/* Whether fd (a regular file, read from its offset) holds exactly
 * data[0..len). */
int out_same_content(int fd, const void *data, size_t len);

/*
 * The whole of the regular file fd into *data (NUL-terminated after its
 * *len bytes; the caller frees it). Returns 0, or -errno with *data
 * NULL (-EINVAL when fd is not a regular file).
 */
int out_read_fd(char **data, size_t *len, int fd);

/*
 * Open relpath (a path out_path_ok accepts) below the directory dirfd
 * with flags (O_RDONLY and the like; O_NOFOLLOW and O_CLOEXEC are
 * added), following no symbolic link on the way or at the end. Returns
 * the descriptor, or -errno (-ELOOP for a link, -ENOENT or -ENOTDIR when
 * there is no such path).
 */
int out_open_beneath(int dirfd, const char *relpath, int flags);

#ifdef MIRROR_TEST_HOOKS
/* A test hook (the unit tests' build alone, doc/development.md): 1
 * makes out_open_beneath take the one-component-at-a-time way, as on a
 * kernel without openat2. */
extern int out_fs_test_no_openat2;
#endif

/*
 * The directories of a tree opened along one path and kept open, so
 * that files handled in sorted order open each directory once:
 *
 *	struct out_dirs d;
 *	out_dirs_init(&d, top_fd);
 *	fd = out_dirs_get(&d, "a/b/c.md", 3, 1);	the fd of "a/b"
 *	out_dirs_free(&d);
 */
struct out_dirs {
	int top;                /* the tree's top (not owned) */
	int *fd;                /* fd[i]: the directory of components 0..i */
	size_t *end;            /* length of the path through component i */
	size_t n, cap, ecap;
	strbuf path;            /* the open components, '/'-separated */
};

void out_dirs_init(struct out_dirs *d, int top);
void out_dirs_free(struct out_dirs *d);

/*
 * The descriptor (owned by d, valid until the next call) of the
 * directory dir[0..len) below the top (len 0: the top itself). With
 * create, a missing component is made, and one that is not a directory
 * (a symbolic link, a file planted there) is replaced by one: nothing is
 * ever followed. Returns it, or -errno (-ENOENT or -ENOTDIR when,
 * without create, the directory is not there).
 */
int out_dirs_get(struct out_dirs *d, const char *dir, size_t len,
    int create);

/*
 * A set of strings with a value each, looked up by their bytes: DIR's
 * files, the new site's files and directories. A listing of DIR pushes
 * its 200,000 paths (at L) and indexes them once, at their final size:
 * grown entry by entry, the table moved each entry about twice.
 */
struct out_set {
	char **v;               /* the strings, in the order added */
	long *val;              /* a value for each */
	size_t n, cap, vcap;
	size_t indexed;         /* v[0..indexed) are in tab */
	struct hashtab tab;     /* struct out_set_ent, by hash of string */
};

void out_set_init(struct out_set *s);
void out_set_free(struct out_set *s);

/* Make room for n strings in all: adding up to n moves nothing. */
void out_set_reserve(struct out_set *set, size_t n);

/* The index of s[0..len) in set, or -1. Finds only what is indexed:
 * everything out_set_add added, and what out_set_push pushed before the
 * last out_set_index. */
long out_set_find(const struct out_set *set, const char *s, size_t len);

/* Add s[0..len) (not in set yet) with value val, indexed at once (with
 * anything pushed before it); returns its index. */
size_t out_set_add(struct out_set *set, const char *s, size_t len, long val);

/* Append s[0..len) (not in set yet) with value val, not indexed: a set
 * filled by pushes is looked up after out_set_index. Returns its index. */
size_t out_set_push(struct out_set *set, const char *s, size_t len,
    long val);

/* Index every string pushed since the last index. */
void out_set_index(struct out_set *set);

#endif
