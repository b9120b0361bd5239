/*
 * env.h: numbers from the environment (timeouts, thread counts).
 *
 * Every variable mirror tunes itself by is listed in env.c with its
 * range. env_check refuses a bad value once, at start, naming it (a
 * typo in CI must not silently fall back to a default); env_long then
 * reads values already known to be good.
 */
#ifndef MIRROR_ENV_H
#define MIRROR_ENV_H

#include "util/error.h"

/*
 * Check every tunable that is set and not empty (VAR= unsets it, as in
 * a shell): a decimal integer, nothing else, in its range. Returns 0, or -MIRROR_EUSAGE naming the first bad one, its
 * value and the range.
 */
int env_check(mirror_error *err);

/*
 * Tunable name (one of env.c's table) into *v: 1 when it is set and
 * good, 0 when it is unset or empty, -MIRROR_EUSAGE naming it, its
 * value and the range when it is anything else (err may be NULL). A
 * name missing from the table is a programming error and aborts.
 */
int env_get(long long *v, const char *name, mirror_error *err);

/*
 * The value of tunable name (one of env.c's table) when it is set and
 * good, else dflt. A name missing from the table is a programming error
 * and aborts.
 */
long env_long(const char *name, long dflt);

#endif
