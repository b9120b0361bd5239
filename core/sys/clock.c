#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/clock.h"

int
mirror_clock(time_t *now, mirror_error *err)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	char *end;
	long long v;

	if (s == NULL || *s == '\0') {
		*now = time(NULL);
		return 0;
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end != '\0' || errno != 0 || v < 0 || v > 253402300799LL)
		return mirror_fail(err, MIRROR_EUSAGE, "SOURCE_DATE_EPOCH '%s' "
		    "is not a number of seconds since 1970", s);
	*now = (time_t)v;
	return 0;
}

void
mirror_format_ts(char buf[MIRROR_TS_LEN], time_t t)
{
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, MIRROR_TS_LEN, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		(void)memcpy(buf, "1970-01-01 00:00:00", MIRROR_TS_LEN);
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian), Howard Hinnant's. */
static long long
days_from_civil(long long y, unsigned m, unsigned d)
{
	long long era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long long)doe - 719468;
}

int
mirror_parse_ts(time_t *t, const char *s)
{
	int y, mo, d, h = 0, mi = 0, se = 0, n = 0;

	if (s == NULL)
		return -1;
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3 || n != 10)
		return -1;
	s += n;
	if (*s == ' ' || *s == 'T') {
		if (sscanf(s + 1, "%2d:%2d:%2d%n", &h, &mi, &se, &n) != 3 ||
		    n != 8)
			return -1;
		s += 1 + n;
		/* Fractions of a second are allowed and ignored. */
		if (*s == '.')
			for (s++; *s >= '0' && *s <= '9'; s++)
				;
		if (*s == 'Z')
			s++;
	}
	if (*s != '\0' || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
	    mi > 59 || se > 60)
		return -1;
	*t = (time_t)(days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400LL +
	    h * 3600LL + mi * 60LL + se);
	return 0;
}

long long
mirror_monotonic_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
