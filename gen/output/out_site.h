/*
 * out_site.h: the output directory as a build finds it (gen/output's own;
 * output.h is the face): its parent, the checks that refuse it, its
 * marker, the regular files it holds, what dead builds left beside it.
 */
#ifndef MIRROR_OUT_SITE_H
#define MIRROR_OUT_SITE_H

#include "output/out_fs.h"
#include "util/error.h"

/* The marker every DIR mirror wrote holds: this first line, then
 * "tree <hex>\n" when the content was last committed as that tree. */
#define OUT_MARKER ".mirror-output"
#define OUT_MARKER_TEXT "This directory is written by mirror and " \
    "brought up to date by every build.\n"

/* DIR where a build finds it: its name as given (dir, which messages
 * say), its parent's path, its last component (base: what the lock,
 * the journal and the stage beside DIR are named after) and the parent
 * open (parent_fd, where DIR and all of those are reached). */
struct out_place {
	char *dir;
	char *parent;
	char *base;
	int parent_fd;
};

/*
 * Split dir into its parent's path and its last component and open the
 * parent, which must be a writable directory. Returns 0 with *at filled
 * (out_place_free frees it), or < 0 with nothing to free (at->parent_fd
 * -1): -MIRROR_EUSAGE for no dir, -MIRROR_EINPUT for ".", "..", "/" or
 * a parent that is missing or not writable.
 */
int out_open_parent(struct out_place *at, const char *dir,
    mirror_error *err);

/* Free at's strings and close its parent; harmless on an empty one
 * (NULL strings, parent_fd -1). */
void out_place_free(struct out_place *at);

/*
 * Open DIR (at): *dir_fd gets it, or -1 when DIR does not exist.
 * Returns 0, or -MIRROR_EINPUT when DIR is a symbolic link or not a
 * directory.
 */
int out_site_open(int *dir_fd, const struct out_place *at,
    mirror_error *err);

/* 0 when the directory dir_fd is empty or holds the marker, else
 * -MIRROR_EINPUT: mirror never writes into a directory it did not make. */
int out_site_ours(int dir_fd, const char *dir, mirror_error *err);

/* Remove staging directories beside DIR of builds whose process is gone
 * (".<base>.mirror-stage-<pid>", and ".<base>.mirror-old-<pid>" of
 * older versions). */
void out_clean_stale(int parent_fd, const char *base);

/* The marker of dir_fd (-1: none) into *text (the caller frees it):
 * 1, or 0 with *text NULL when there is none or it is not a small
 * regular file. */
int out_marker_read(char **text, int dir_fd);

/* 1 when hex is a git object id: 40 or 64 lowercase hex digits. */
int out_tree_ok(const char *hex);

/* The tree id of a marker's "tree" line (a fresh string), or NULL. */
char *out_marker_tree(const char *text);

/* The text of the marker for tree (NULL: none); the caller frees it. */
char *out_marker_text(const char *tree);

/* What DIR holds, by kind, as relpaths: its regular files, every other
 * entry that is not a directory (a link, a FIFO...: junk) and its
 * directories. */
struct out_listing {
	struct out_set files;
	struct out_set junk;
	struct out_set dirs;
};

/*
 * Every regular file below dir_fd (DIR) into l's files (value 0), every
 * directory into its dirs, and every other entry into its junk (sets
 * the caller made), in one walk (getdents, with d_type); a path no build
 * could write (a ".mirror*" component: the marker) is left out. Returns
 * 0 or -MIRROR_EIO naming the directory that cannot be read.
 */
int out_site_list(struct out_listing *l, int dir_fd, const char *dir,
    mirror_error *err);

#endif
