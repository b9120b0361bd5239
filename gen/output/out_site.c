/*
 * out_site.c: the output directory as a build finds it (see out_site.h).
 */
#define _GNU_SOURCE   /* O_NOFOLLOW with O_DIRECTORY */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "output/out_site.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

int
out_open_parent(struct out_place *at, const char *dir, mirror_error *err)
{
	char *copy, *slash;
	size_t len;
	int rc = 0;

	*at = (struct out_place){ .parent_fd = -1 };
	if (dir == NULL || dir[0] == '\0')
		return mirror_fail(err, MIRROR_EUSAGE, "no output directory");
	copy = xstrdup(dir);
	len = strlen(copy);
	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	slash = strrchr(copy, '/');
	if (slash == NULL) {
		at->parent = xstrdup(".");
		slash = copy - 1;
	} else {
		at->parent = slash == copy ? xstrdup("/") : xstrndup(copy,
		    (size_t)(slash - copy));
	}
	at->base = xstrdup(slash + 1);
	free(copy);
	if (at->base[0] == '\0' || strcmp(at->base, ".") == 0 ||
	    strcmp(at->base, "..") == 0) {
		rc = mirror_fail(err, MIRROR_EINPUT, "%s: not usable as an "
		    "output directory (name a directory, not . or .. or /)",
		    dir);
	} else if ((at->parent_fd = open(at->parent, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0) {
		rc = mirror_fail(err, MIRROR_EINPUT, "%s: parent directory %s: "
		    "%s", dir, at->parent, strerror(errno));
	} else if (faccessat(at->parent_fd, ".", W_OK | X_OK,
	    AT_EACCESS) < 0) {
		rc = mirror_fail(err, MIRROR_EINPUT, "%s: parent directory %s "
		    "is not writable", dir, at->parent);
	}
	if (rc < 0)
		out_place_free(at);
	else
		at->dir = xstrdup(dir);
	return rc;
}

void
out_place_free(struct out_place *at)
{
	if (at->parent_fd >= 0)
		close(at->parent_fd);
	free(at->dir);
	free(at->parent);
	free(at->base);
	*at = (struct out_place){ .parent_fd = -1 };
}

int
out_site_open(int *dir_fd, const struct out_place *at, mirror_error *err)
{
	const char *dir = at->dir;
	struct stat st;

	*dir_fd = -1;
	if (fstatat(at->parent_fd, at->base, &st, AT_SYMLINK_NOFOLLOW) < 0) {
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
	*dir_fd = openat(at->parent_fd, at->base, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC);
	if (*dir_fd < 0)
		return mirror_fail(err, MIRROR_EINPUT, "%s: %s", dir,
		    strerror(errno));
	return 0;
}

int
out_site_ours(int dir_fd, const char *dir, mirror_error *err)
{
	struct dirent *de;
	struct stat st;
	int dup_fd, empty = 1;
	DIR *d;

	if (fstatat(dir_fd, OUT_MARKER, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode))
		return 0;
	dup_fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dup_fd < 0 || (d = fdopendir(dup_fd)) == NULL) {
		if (dup_fd >= 0)
			close(dup_fd);
		empty = 0;
	} else {
		while ((de = readdir(d)) != NULL)
			if (!out_is_dot(de->d_name))
				empty = 0;
		closedir(d);
	}
	if (empty)
		return 0;
	return mirror_fail(err, MIRROR_EINPUT, "%s: not empty and not "
	    "written by mirror (no %s); refusing to replace it", dir,
	    OUT_MARKER);
}

void
out_clean_stale(int parent_fd, const char *base)
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
	out_side_name(&side, base);
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
				(void)out_remove_tree(parent_fd, n);
		}
	}
	closedir(d);
	strbuf_free(&side);
}

int
out_marker_read(char **text, int dir_fd)
{
	size_t len;
	int fd, rc;

	*text = NULL;
	if (dir_fd < 0)
		return 0;
	fd = openat(dir_fd, OUT_MARKER, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC);
	if (fd < 0)
		return 0;
	rc = out_read_fd(text, &len, fd);
	close(fd);
	if (rc == 0 && (len > 4096 || strlen(*text) != len)) {
		free(*text);
		*text = NULL;
	}
	return *text != NULL;
}

int
out_tree_ok(const char *hex)
{
	size_t n = 0;

	if (hex == NULL)
		return 0;
	while ((hex[n] >= '0' && hex[n] <= '9') ||
	    (hex[n] >= 'a' && hex[n] <= 'f'))
		n++;
	return hex[n] == '\0' && (n == 40 || n == 64);
}

char *
out_marker_tree(const char *text)
{
	const char *p = text;

	while (p != NULL && *p != '\0') {
		size_t w = strcspn(p, "\n");

		if (w > 5 && strncmp(p, "tree ", 5) == 0) {
			char *hex = xstrndup(p + 5, w - 5);

			if (out_tree_ok(hex))
				return hex;
			free(hex);
		}
		p += w + (p[w] == '\n');
	}
	return NULL;
}

char *
out_marker_text(const char *tree)
{
	strbuf sb;

	strbuf_init(&sb);
	strbuf_puts(&sb, OUT_MARKER_TEXT);
	if (tree != NULL)
		strbuf_printf(&sb, "tree %s\n", tree);
	return strbuf_detach(&sb);
}

/* One directory of out_site_list: fd (taken over) is the directory of
 * rel ("" at the top). Returns 0 or < 0. */
static int
list_dir(struct out_listing *l, int fd, strbuf *rel, const char *dir,
    mirror_error *err)
{
	size_t at = rel->len;
	struct dirent *de;
	struct stat st;
	int rc = 0;
	DIR *d;

	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return mirror_fail(err, MIRROR_EIO, "%s/%s: cannot read: %s",
		    dir, rel->data, strerror(errno));
	}
	while (rc == 0 && (errno = 0, de = readdir(d)) != NULL) {
		unsigned char type = de->d_type;
		int sub;

		if (out_is_dot(de->d_name) ||
		    strncmp(de->d_name, ".mirror", 7) == 0)
			continue;
		if (at > 0)
			strbuf_putc(rel, '/');
		strbuf_puts(rel, de->d_name);
		if (type == DT_UNKNOWN)
			type = fstatat(dirfd(d), de->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) < 0 ? DT_UNKNOWN :
			    S_ISREG(st.st_mode) ? DT_REG :
			    S_ISDIR(st.st_mode) ? DT_DIR : DT_LNK;
		if (type == DT_REG && out_path_ok(rel->data)) {
			out_set_push(&l->files, rel->data, rel->len, 0);
		} else if (type == DT_DIR) {
			if (out_path_ok(rel->data))
				out_set_push(&l->dirs, rel->data, rel->len, 0);
			sub = openat(dirfd(d), de->d_name, O_RDONLY |
			    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			rc = sub < 0 ? mirror_fail(err, MIRROR_EIO, "%s/%s: "
			    "cannot open: %s", dir, rel->data,
			    strerror(errno)) : list_dir(l, sub, rel, dir, err);
		} else if (out_path_ok(rel->data)) {
			out_set_push(&l->junk, rel->data, rel->len, 0);
		}
		rel->len = at;
		rel->data[at] = '\0';
	}
	if (rc == 0 && errno != 0)
		rc = mirror_fail(err, MIRROR_EIO, "%s/%s: cannot read: %s",
		    dir, rel->data, strerror(errno));
	closedir(d);
	return rc;
}

int
out_site_list(struct out_listing *l, int dir_fd, const char *dir,
    mirror_error *err)
{
	strbuf rel;
	int fd, rc;

	if (dir_fd < 0)
		return 0;
	fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return mirror_fail(err, MIRROR_EIO, "%s: cannot open: %s", dir,
		    strerror(errno));
	strbuf_init(&rel);
	rc = list_dir(l, fd, &rel, dir, err);
	strbuf_free(&rel);
	out_set_index(&l->files);
	out_set_index(&l->junk);
	out_set_index(&l->dirs);
	return rc;
}
