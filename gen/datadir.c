/*
 * datadir.c: find templates/ and themes/ beside the executable or in the
 * installed data directory.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datadir.h"
#include "strbuf.h"
#include "xalloc.h"

#ifndef MIRROR_DATADIR
#define MIRROR_DATADIR "/usr/local/share/mirror"
#endif

static int
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int
datadir_find(char **out, const char *sub, mirror_error *err)
{
	char exe[PATH_MAX];
	strbuf p;
	ssize_t n;

	*out = NULL;
	strbuf_init(&p);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0 && (size_t)n < sizeof(exe) - 1) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash != NULL) {
			*slash = '\0';
			strbuf_printf(&p, "%s/../%s", exe, sub);
			if (is_dir(p.data)) {
				*out = strbuf_detach(&p);
				strbuf_free(&p);
				return 0;
			}
		}
	}
	strbuf_reset(&p);
	strbuf_printf(&p, "%s/%s", MIRROR_DATADIR, sub);
	if (is_dir(p.data)) {
		*out = strbuf_detach(&p);
		strbuf_free(&p);
		return 0;
	}
	strbuf_free(&p);
	return mirror_fail(err, MIRROR_EIO, "cannot find '%s' beside the "
	    "executable or in %s", sub, MIRROR_DATADIR);
}
