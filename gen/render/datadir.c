/*
 * datadir.c: find templates/ and themes/ relative to the executable, so an
 * install works wherever its tree is put (make install PREFIX=dir, then
 * mv dir elsewhere), and in the installed data directory last.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/datadir.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#ifndef MIRROR_DATADIR
#define MIRROR_DATADIR "/usr/local/share/mirror"
#endif

/* Where to look, relative to the executable's directory, in order. */
static const char *const exe_relative[] = {
	"../share/mirror",   /* an install: PREFIX/bin/mirror */
	"..",                /* a build tree: build/mirror */
};

/* 1 if path is a directory (symlinks followed), else 0. */
static int
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * The directory of the running executable, symlinks resolved, into buf.
 * Returns 0, or -1 when /proc/self/exe cannot be read (buf then empty).
 */
static int
exe_dir(char *buf, size_t size)
{
	ssize_t n;
	char *slash;

	buf[0] = '\0';
	n = readlink("/proc/self/exe", buf, size - 1);
	if (n <= 0 || (size_t)n >= size - 1)
		return -1;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash == NULL) {
		buf[0] = '\0';
		return -1;
	}
	*slash = '\0';
	return 0;
}

int
datadir_find(char **out, const char *sub, mirror_error *err)
{
	char exe[PATH_MAX];
	strbuf p;
	size_t i;

	*out = NULL;
	strbuf_init(&p);
	if (exe_dir(exe, sizeof(exe)) == 0) {
		for (i = 0; i < sizeof(exe_relative) / sizeof(exe_relative[0]);
		    i++) {
			strbuf_reset(&p);
			strbuf_printf(&p, "%s/%s/%s", exe, exe_relative[i], sub);
			if (is_dir(p.data))
				goto found;
		}
	}
	strbuf_reset(&p);
	strbuf_printf(&p, "%s/%s", MIRROR_DATADIR, sub);
	if (is_dir(p.data))
		goto found;
	strbuf_free(&p);
	return mirror_fail(err, MIRROR_EIO, "cannot find '%s' in %s/../share/"
	    "mirror, %s/.. or %s", sub, exe[0] != '\0' ? exe : "(unknown)",
	    exe[0] != '\0' ? exe : "(unknown)", MIRROR_DATADIR);
found:
	*out = strbuf_detach(&p);
	strbuf_free(&p);
	return 0;
}
