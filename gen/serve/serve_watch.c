/*
 * serve_watch.c: fingerprints of files and trees (see serve_watch.h).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out/out_fs.h"
#include "serve/serve_watch.h"
#include "util/hash.h"

#define MAX_DEPTH 32

/* Fold the metadata of st into h; returns the new value. */
static uint64_t
add_stat(uint64_t h, const struct stat *st)
{
	uint64_t v[7];

	v[0] = (uint64_t)st->st_dev;
	v[1] = (uint64_t)st->st_ino;
	v[2] = (uint64_t)st->st_size;
	v[3] = (uint64_t)st->st_mode;
	v[4] = (uint64_t)st->st_mtim.tv_sec;
	v[5] = (uint64_t)st->st_mtim.tv_nsec;
	v[6] = (uint64_t)st->st_ctim.tv_nsec;
	return hash_add(h, v, sizeof(v));
}

/*
 * Fold every entry of the directory fd (owned: closed here) into h, in
 * the order readdir gives (the same while the directory is unchanged),
 * depth levels below the top. Returns the new value.
 */
static uint64_t
add_dir(uint64_t h, int fd, int depth)
{
	struct dirent *de;
	DIR *d = fdopendir(fd);

	if (d == NULL) {
		close(fd);
		return hash_add_str(h, "?");
	}
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		int sub;

		if (out_is_dot(de->d_name))
			continue;
		h = hash_add_str(h, de->d_name);
		if (fstatat(dirfd(d), de->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) < 0) {
			h = hash_add_str(h, "?");
			continue;
		}
		h = add_stat(h, &st);
		if (!S_ISDIR(st.st_mode) || depth >= MAX_DEPTH)
			continue;
		sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);
		h = sub < 0 ? hash_add_str(h, "?") : add_dir(h, sub, depth + 1);
	}
	closedir(d);
	return h;
}

uint64_t
serve_fingerprint(const char *path)
{
	uint64_t h = MIRROR_HASH_INIT;
	struct stat st;
	int fd;

	if (path == NULL || stat(path, &st) < 0)
		return hash_add_str(h, "missing");
	h = add_stat(h, &st);
	if (!S_ISDIR(st.st_mode))
		return h;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? hash_add_str(h, "?") : add_dir(h, fd, 1);
}
