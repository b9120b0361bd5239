/*
 * mhd.h: libmicrohttpd, opened when a server starts instead of linked.
 *
 * Linked, the library and its TLS stack (GnuTLS, p11-kit, nettle's
 * hogweed, GMP, libidn2, ...) are loaded and relocated by every run of
 * mirror, a cost to each start (a no-op build's included) for the one
 * command that serves. mhd_open loads it once (it is never closed) and
 * hands out its entry points as pointers of the library's own types from
 * <microhttpd.h>, so every call is checked by the compiler as before.
 */
#ifndef MIRROR_MHD_H
#define MIRROR_MHD_H

#include <microhttpd.h>

#include "util/error.h"

/* The calls serve.c makes. */
struct mhd {
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
	__typeof__(MHD_get_daemon_info) *get_daemon_info;
	__typeof__(MHD_get_connection_info) *get_connection_info;
	__typeof__(MHD_lookup_connection_value) *lookup_connection_value;
	__typeof__(MHD_create_response_from_buffer) *
	    create_response_from_buffer;
	__typeof__(MHD_create_response_from_fd) *create_response_from_fd;
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_destroy_response) *destroy_response;
};

/*
 * The library's entry points into *out, loading it on the first call
 * (later calls return the same table; call it before any thread uses
 * the table). Returns 0, or -MIRROR_EIO with err naming the library,
 * the package that has it and the loader's reason.
 */
int mhd_open(const struct mhd **out, mirror_error *err);

#endif
