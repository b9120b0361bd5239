#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/clock.h"
#include "sys/env.h"

int
mirror_clock(time_t *now, mirror_error *err)
{
	long long v;
	int rc;

	/* Read as every tunable is: digits only, in range (env.c). */
	if ((rc = env_get(&v, "SOURCE_DATE_EPOCH", err)) < 0)
		return rc;
	*now = rc == 1 ? (time_t)v : time(NULL);
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

/* The w digits at s, or -1 when one is not a digit. */
static int
digits(const char *s, int w)
{
	int v = 0;

	for (int i = 0; i < w; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* 1 when s is w digits, sep, 2 digits, sep, 2 digits (then v gets the
 * three numbers, as sscanf would), else 0. */
static int
fixed3(int v[3], const char *s, int w, char sep)
{
	int x = digits(s, w), y, z;

	if (x < 0 || s[w] != sep || (y = digits(s + w + 1, 2)) < 0 ||
	    s[w + 3] != sep || (z = digits(s + w + 4, 2)) < 0)
		return 0;
	v[0] = x;
	v[1] = y;
	v[2] = z;
	return 1;
}

int
mirror_parse_ts(time_t *t, const char *s)
{
	int ymd[3], hms[3] = { 0, 0, 0 }, n = 0;

	if (s == NULL)
		return -1;
	/* Plain digits, as stores write them, without sscanf (a build
	 * parses a time per row); anything else as sscanf reads it. */
	if (!fixed3(ymd, s, 4, '-') && (sscanf(s, "%4d-%2d-%2d%n",
	    &ymd[0], &ymd[1], &ymd[2], &n) != 3 || n != 10))
		return -1;
	s += 10;
	if (*s == ' ' || *s == 'T') {
		if (!fixed3(hms, s + 1, 2, ':') && (sscanf(s + 1,
		    "%2d:%2d:%2d%n", &hms[0], &hms[1], &hms[2], &n) != 3 ||
		    n != 8))
			return -1;
		n = 8;
		s += 1 + n;
		/* Fractions of a second are allowed and ignored. */
		if (*s == '.')
			for (s++; *s >= '0' && *s <= '9'; s++)
				;
		if (*s == 'Z')
			s++;
	}
	if (*s != '\0' || ymd[1] < 1 || ymd[1] > 12 || ymd[2] < 1 ||
	    ymd[2] > 31 || hms[0] > 23 || hms[1] > 59 || hms[2] > 60)
		return -1;
	*t = (time_t)(days_from_civil(ymd[0], (unsigned)ymd[1],
	    (unsigned)ymd[2]) * 86400LL + hms[0] * 3600LL + hms[1] * 60LL +
	    hms[2]);
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
