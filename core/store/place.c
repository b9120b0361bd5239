/*
 * place.c: the store's identity, registered so that no user file mirror
 * reads is it (see place.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/place.h"
#include "sys/userfile.h"

/*
 * The real path of path into real: realpath(3), or for a file that does
 * not exist yet its directory's real path and its own name. Returns 0,
 * or -1 when neither can be had.
 */
static int
real_path(char real[PATH_MAX], const char *path)
{
	char dir[PATH_MAX], rdir[PATH_MAX];
	const char *slash = strrchr(path, '/'), *name;
	size_t n, d;

	if (realpath(path, real) != NULL)
		return 0;
	if (slash == NULL) {
		strcpy(dir, ".");
	} else {
		n = slash == path ? 1 : (size_t)(slash - path);
		if (n >= sizeof(dir))
			return -1;
		memcpy(dir, path, n);
		dir[n] = '\0';
	}
	if (realpath(dir, rdir) == NULL)
		return -1;
	name = slash != NULL ? slash + 1 : path;
	d = strcmp(rdir, "/") == 0 ? 0 : strlen(rdir);
	n = strlen(name);
	if (d + 1 + n >= PATH_MAX)
		return -1;
	memcpy(real, rdir, d);
	real[d] = '/';
	memcpy(real + d + 1, name, n + 1);
	return 0;
}

void
store_place_guard(const char *path)
{
	static const char *const suffix[USERFILE_STORE_FILES] = {
		"", "-journal", "-wal", "-shm"
	};
	char real[PATH_MAX], file[PATH_MAX + 16];
	struct userfile_store s;
	struct stat st;
	char *slash;
	int n;

	if (path == NULL) {
		userfile_store_set(NULL);
		return;
	}
	memset(&s, 0, sizeof(s));
	s.path = path;
	/* SQLite keeps the companions beside the store's real path. */
	if (real_path(real, path) == 0 && (slash = strrchr(real, '/')) !=
	    NULL && slash[1] != '\0') {
		s.base = slash + 1;
		*slash = '\0';
		if (stat(real[0] != '\0' ? real : "/", &st) == 0) {
			s.have_dir = 1;
			s.dir_dev = st.st_dev;
			s.dir_ino = st.st_ino;
		}
		*slash = '/';
	}
	for (int i = 0; i < USERFILE_STORE_FILES; i++) {
		n = snprintf(file, sizeof(file), "%s%s", s.base != NULL ? real :
		    path, suffix[i]);
		if (n < 0 || (size_t)n >= sizeof(file) || stat(file, &st) != 0)
			continue;
		s.file[i].have = 1;
		s.file[i].dev = st.st_dev;
		s.file[i].ino = st.st_ino;
	}
	userfile_store_set(&s);
}
