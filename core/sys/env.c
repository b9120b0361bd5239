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
	long min, max;
	const char *unit;
} tunables[] = {
	{ "MIRROR_BUSY_TIMEOUT_MS", 1, 3600000, "milliseconds" },
	{ "MIRROR_LOCK_TIMEOUT_MS", 0, 86400000L, "milliseconds" },
	{ "MIRROR_JOBS", 1, 64, "threads" },
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
parse(const struct tunable *t, const char *s, long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;    /* no sign, no blank: only digits */
	errno = 0;
	*v = strtol(s, &end, 10);
	if (*end != '\0' || errno != 0 || *v < t->min || *v > t->max)
		return -1;
	return 0;
}

int
env_check(mirror_error *err)
{
	for (size_t i = 0; i < NTUNABLES; i++) {
		const char *s = getenv(tunables[i].name);
		long v;

		if (s == NULL || *s == '\0')
			continue;    /* VAR= cmd: the shell's way to unset */
		if (parse(&tunables[i], s, &v) < 0)
			return mirror_fail(err, MIRROR_EUSAGE, "environment "
			    "variable %s='%.64s' is not a whole number of %s "
			    "from %ld to %ld", tunables[i].name, s,
			    tunables[i].unit, tunables[i].min, tunables[i].max);
	}
	return 0;
}

long
env_long(const char *name, long dflt)
{
	const struct tunable *t = find(name);
	const char *s = getenv(name);
	long v;

	if (t == NULL)
		abort();
	if (s == NULL || *s == '\0' || parse(t, s, &v) < 0)
		return dflt;
	return v;
}
