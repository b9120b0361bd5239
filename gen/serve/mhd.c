/*
 * mhd.c: libmicrohttpd's entry points, looked up when a server starts
 * (see mhd.h).
 */
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#include "serve/mhd.h"

/* The library's SONAME, as the Makefile read it off the -dev package's
 * libmicrohttpd.so (the ABI mirror was compiled against). */
#ifndef MIRROR_MHD_SONAME
#define MIRROR_MHD_SONAME "libmicrohttpd.so.12"
#endif

/* Each entry point: its name in the library, its place in the table. */
static const struct {
	const char *name;
	size_t off;
} mhd_syms[] = {
	{ "MHD_start_daemon", offsetof(struct mhd, start_daemon) },
	{ "MHD_stop_daemon", offsetof(struct mhd, stop_daemon) },
	{ "MHD_get_daemon_info", offsetof(struct mhd, get_daemon_info) },
	{ "MHD_get_connection_info",
	    offsetof(struct mhd, get_connection_info) },
	{ "MHD_lookup_connection_value",
	    offsetof(struct mhd, lookup_connection_value) },
	{ "MHD_create_response_from_buffer",
	    offsetof(struct mhd, create_response_from_buffer) },
	{ "MHD_create_response_from_fd",
	    offsetof(struct mhd, create_response_from_fd) },
	{ "MHD_add_response_header",
	    offsetof(struct mhd, add_response_header) },
	{ "MHD_queue_response", offsetof(struct mhd, queue_response) },
	{ "MHD_destroy_response", offsetof(struct mhd, destroy_response) },
};

int
mhd_open(const struct mhd **out, mirror_error *err)
{
	static struct mhd api;
	static int opened;
	void *lib;

	*out = NULL;
	if (opened) {
		*out = &api;
		return 0;
	}
	dlerror();
	lib = dlopen(MIRROR_MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		const char *why = dlerror();

		return mirror_fail(err, MIRROR_EIO, "serve: cannot load %s "
		    "(Debian's libmicrohttpd12 has it): %s", MIRROR_MHD_SONAME,
		    why != NULL ? why : "unknown reason");
	}
	for (size_t i = 0; i < sizeof(mhd_syms) / sizeof(mhd_syms[0]); i++) {
		void *sym = dlsym(lib, mhd_syms[i].name);

		if (sym == NULL) {
			dlclose(lib);
			return mirror_fail(err, MIRROR_EIO, "serve: %s has no "
			    "%s", MIRROR_MHD_SONAME, mhd_syms[i].name);
		}
		/* POSIX: a function's address passes through void *. */
		memcpy((char *)&api + mhd_syms[i].off, &sym, sizeof(sym));
	}
	opened = 1;
	*out = &api;
	return 0;
}
