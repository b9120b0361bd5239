/*
 * gitlib.h: libgit2, loaded when mirror first needs it.
 *
 * mirror is compiled against Debian's libgit2 but does not link it:
 * loading it and the libraries it needs (Kerberos, OpenSSL, mbed TLS,
 * libssh2: fifteen in all) took 1.8 ms of every process's start, also
 * of a build with no repository, a no-op and `mirror sweep`. gitlib.c
 * defines each git_* function mirror calls; the first call opens the
 * library by the SONAME the Makefile found (as gen/serve/mhd.c opens
 * libmicrohttpd) and every call forwards to it.
 */
#ifndef MIRROR_GITLIB_H
#define MIRROR_GITLIB_H

#include "util/error.h"

/*
 * Load libgit2 (once per process; any thread): 0, or -MIRROR_EIO with
 * err naming the library and why. Call it before the first git_*
 * function, whose own failure could not say so: a git_* call with the
 * library missing prints the reason and exits with MIRROR_EIO.
 */
int mgit_lib_open(mirror_error *err);

#endif
