/*
 * datadir.h: where the default templates and themes live.
 *
 * Candidates, first existing directory wins (EXE is the directory of
 * /proc/self/exe, symlinks resolved):
 *   1. EXE/../share/mirror/SUB  (an install, wherever its tree now is)
 *   2. EXE/../SUB               (a build tree: build/mirror finds the
 *                                repository's templates/ and themes/)
 *   3. MIRROR_DATADIR/SUB       (compiled in by the Makefile: the last
 *                                resort, for a binary copied alone)
 */
#ifndef MIRROR_DATADIR_H
#define MIRROR_DATADIR_H

#include "util/error.h"

/*
 * Find the directory SUB (e.g. "templates", "themes/default").
 * Returns 0 and a malloc'd path in *out (caller frees), or -MIRROR_EIO
 * with *out NULL and err listing the places looked at.
 */
int datadir_find(char **out, const char *sub, mirror_error *err);

#endif
