/*
 * env.c: numbers from the environment (see env.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/env.h"

/* Every tunable and the values it may take. */
static const struct tunable {
	const char *name;
	long long min, max;
	const char *unit;
} tunables[] = {
	/* reproducible-builds.org: a decimal integer, as date +%s prints
	 * it; up to 9999-12-31 23:59:59, the last second a timestamp of
	 * the store's four-digit years can hold. */
	{ "SOURCE_DATE_EPOCH", 0, 253402300799LL, "seconds since 1970" },
	{ "MIRROR_BUSY_TIMEOUT_MS", 1, 3600000, "milliseconds" },
	{ "MIRROR_CACHE_MAX_MB", 1, 1048576, "megabytes" },
	{ "MIRROR_LOCK_TIMEOUT_MS", 0, 86400000L, "milliseconds" },
	{ "MIRROR_IO_URING", 0, 1, "0 or 1" },
	{ "MIRROR_JOBS", 1, 64, "threads" },
	{ "MIRROR_PROFILE", 0, 1, "0 or 1" },
	{ "MIRROR_QUERY_TIMEOUT_MS", 1, 86400000L, "milliseconds" },
	{ "MIRROR_RULE_STEPS", 1, 1000000L, "million SQLite steps" },
	{ "MIRROR_SIGN_TIMEOUT_MS", 1, 3600000, "milliseconds" },
};
#define NTUNABLES (sizeof(tunables) / sizeof(tunables[0]))

static const struct tunable *
find(const char *name)
{
	for (size_t i = 0; i < NTUNABLES; i++)
		if (strcmp(tunables[i].name, name) == 0)
			return &tunables[i];
	return NULL;
}

/* Parse s for t: 0 and *v, or -1 when it is not a number in range. */
static int
parse(const struct tunable *t, const char *s, long long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;    /* no sign, no blank: only digits */
	errno = 0;
	*v = strtoll(s, &end, 10);
	if (*end != '\0' || errno != 0 || *v < t->min || *v > t->max)
		return -1;
	return 0;
}

int
env_get(long long *v, const char *name, mirror_error *err)
{
	const struct tunable *t = find(name);
	const char *s = getenv(name);

	if (t == NULL)
		abort();
	if (s == NULL || *s == '\0')
		return 0;    /* VAR= cmd: the shell's way to unset */
	if (parse(t, s, v) < 0)
		return mirror_fail(err, MIRROR_EUSAGE, "environment variable "
		    "%s='%.64s' is not a whole number of %s from %lld to %lld",
		    t->name, s, t->unit, t->min, t->max);
	return 1;
}

int
env_check(mirror_error *err)
{
	long long v;
	int rc;

	for (size_t i = 0; i < NTUNABLES; i++)
		if ((rc = env_get(&v, tunables[i].name, err)) < 0)
			return rc;
	return 0;
}

long
env_long(const char *name, long dflt)
{
	long long v;

	return env_get(&v, name, NULL) == 1 ? (long)v : dflt;
}
