/*
 * hosting.c: a built site's size against the static hosts' limits (see
 * hosting.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/hosting.h"
#include "util/xalloc.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define MB (UINT64_C(1000) * 1000)
#define MIB (UINT64_C(1024) * 1024)

/* The limits as each host documents them (doc/publishing.md). */
static const struct hosting_limit limits[] = {
	{ "github-pages", "GitHub Pages", 1000 * MB, 0, 0, 100 * MB },
	{ "gitlab-pages", "GitLab Pages", 1000 * MB, 0, 200000, 0 },
	{ "cloudflare-pages-free", "Cloudflare Pages (free)", 0, 20000, 0,
	    25 * MIB },
	{ "cloudflare-pages", "Cloudflare Pages (paid)", 0, 100000, 0,
	    25 * MIB },
};

const struct hosting_limit *
hosting_limits(size_t *n)
{
	*n = NELEM(limits);
	return limits;
}

const struct hosting_limit *
hosting_find(const char *id)
{
	for (size_t i = 0; id != NULL && i < NELEM(limits); i++)
		if (strcmp(limits[i].id, id) == 0)
			return &limits[i];
	return NULL;
}

/* Count the entry name of the open directory at (its path path/name
 * for messages and the largest file) into s; recurse into a folder.
 * Returns 0 or -MIRROR_EIO with err set. */
static int walk(struct hosting_size *s, int fd, strbuf *path,
    mirror_error *err);

static int
entry(struct hosting_size *s, int at, strbuf *path, const char *name,
    mirror_error *err)
{
	size_t keep = path->len;
	struct stat st;
	int rc = 0, fd;

	if (path->len > 0)
		strbuf_putc(path, '/');
	strbuf_puts(path, name);
	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		rc = mirror_fail(err, MIRROR_EIO, "%s: %s", path->data,
		    strerror(errno));
	} else if (S_ISDIR(st.st_mode)) {
		s->folders++;
		fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		if (fd < 0)
			rc = mirror_fail(err, MIRROR_EIO, "%s: %s",
			    path->data, strerror(errno));
		else
			rc = walk(s, fd, path, err);    /* closes fd */
	} else {
		s->files++;
		s->bytes += (uint64_t)st.st_size;
		if ((uint64_t)st.st_size > s->largest ||
		    s->largest_path == NULL) {
			s->largest = (uint64_t)st.st_size;
			free(s->largest_path);
			s->largest_path = xstrdup(path->data);
		}
	}
	path->len = keep;               /* back to the folder's path */
	path->data[keep] = '\0';
	return rc;
}

/* qsort: two names by their bytes. */
static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every entry of the directory fd (which walk closes), in name order:
 * of two largest files of one size the first by path is named, and the
 * first error met is the same on every run. */
static int
walk(struct hosting_size *s, int fd, strbuf *path, mirror_error *err)
{
	DIR *d = fdopendir(fd);
	char **names = NULL;
	struct dirent *e;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (d == NULL) {
		close(fd);
		return mirror_fail(err, MIRROR_EIO, "%s: %s",
		    path->len > 0 ? path->data : ".", strerror(errno));
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (n == cap) {
			cap = cap > 0 ? cap * 2 : 64;
			names = xreallocarray(names, cap, sizeof(*names));
		}
		names[n++] = xstrdup(e->d_name);
	}
	if (n > 1)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = entry(s, dirfd(d), path, names[i], err);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return rc;
}

int
hosting_measure(struct hosting_size *out, const char *dir, mirror_error *err)
{
	strbuf path;
	int fd, rc;

	memset(out, 0, sizeof(*out));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return mirror_fail(err, MIRROR_EIO, "%s: %s", dir,
		    strerror(errno));
	strbuf_init(&path);
	rc = walk(out, fd, &path, err);
	strbuf_free(&path);
	return rc;
}

void
hosting_size_free(struct hosting_size *s)
{
	free(s->largest_path);
	s->largest_path = NULL;
}

/* n with a comma every three digits ("20,693"). */
static void
put_count(strbuf *sb, uint64_t n)
{
	char digits[32];
	int len = snprintf(digits, sizeof(digits), "%" PRIu64, n);

	if (len < 0 || (size_t)len >= sizeof(digits))
		len = 0;                /* cannot be: 20 digits at most */
	for (int i = 0; i < len; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			strbuf_putc(sb, ',');
		strbuf_putc(sb, digits[i]);
	}
}

/* bytes in decimal units with one decimal ("20.2 MB", "1,013 B"). */
static void
put_bytes(strbuf *sb, uint64_t bytes)
{
	static const char *const unit[] = { "kB", "MB", "GB", "TB" };
	double v = (double)bytes;
	size_t u = 0;

	if (bytes < 1000) {
		put_count(sb, bytes);
		strbuf_puts(sb, " B");
		return;
	}
	v /= 1000.0;
	while (v >= 999.95 && u + 1 < NELEM(unit)) {
		v /= 1000.0;
		u++;
	}
	strbuf_printf(sb, "%.1f %s", v, unit[u]);
}

int
hosting_fits(const struct hosting_size *s, const struct hosting_limit *h,
    strbuf *why)
{
	if (h->max_bytes > 0 && s->bytes > h->max_bytes) {
		if (why != NULL) {
			put_bytes(why, s->bytes);
			strbuf_puts(why, ", over its ");
			put_bytes(why, h->max_bytes);
		}
		return 0;
	}
	if (h->max_files > 0 && s->files > h->max_files) {
		if (why != NULL) {
			put_count(why, s->files);
			strbuf_puts(why, " files, over its ");
			put_count(why, h->max_files);
		}
		return 0;
	}
	if (h->max_entries > 0 && s->files + s->folders > h->max_entries) {
		if (why != NULL) {
			put_count(why, s->files + s->folders);
			strbuf_puts(why, " files and folders, over its ");
			put_count(why, h->max_entries);
		}
		return 0;
	}
	if (h->max_file > 0 && s->largest > h->max_file) {
		if (why != NULL) {
			strbuf_printf(why, "%s is ", s->largest_path);
			put_bytes(why, s->largest);
			strbuf_puts(why, ", over its ");
			put_bytes(why, h->max_file);
			strbuf_puts(why, " a file");
		}
		return 0;
	}
	return 1;
}

void
hosting_report(strbuf *out, const struct hosting_size *s)
{
	size_t fit = 0;

	strbuf_puts(out, "hosting: ");
	put_bytes(out, s->bytes);
	strbuf_puts(out, " in ");
	put_count(out, s->files);
	strbuf_puts(out, s->files == 1 ? " file and " : " files and ");
	put_count(out, s->folders);
	strbuf_puts(out, s->folders == 1 ? " folder" : " folders");
	if (s->largest_path != NULL) {
		strbuf_puts(out, ", largest ");
		put_bytes(out, s->largest);
		strbuf_printf(out, " (%s)", s->largest_path);
	}
	for (size_t i = 0; i < NELEM(limits); i++) {
		if (!hosting_fits(s, &limits[i], NULL))
			continue;
		strbuf_puts(out, fit++ == 0 ? "; fits " : ", ");
		strbuf_puts(out, limits[i].name);
	}
	if (fit == 0)
		strbuf_puts(out, "; fits none of the hosts mirror knows");
}
