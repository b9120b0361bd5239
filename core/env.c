/*
 * env.c: numbers from the environment (see env.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "env.h"

long
env_long(const char *name, long min, long max, long dflt)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (s == NULL || *s == '\0')
		return dflt;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end != '\0' || errno != 0 || v < min || v > max)
		return dflt;
	return v;
}
