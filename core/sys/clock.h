/*
 * clock.h: the run's clock.
 *
 * Every time mirror writes or compares comes from here: SOURCE_DATE_EPOCH
 * when set (reproducible builds), otherwise the system clock. Timestamps
 * use the store's format, 'YYYY-MM-DD HH:MM:SS' in UTC.
 */
#ifndef MIRROR_CLOCK_H
#define MIRROR_CLOCK_H

#include <stddef.h>
#include <time.h>

#include "util/error.h"

/* Length of a store timestamp plus its NUL. */
#define MIRROR_TS_LEN 20

/*
 * Set *now to the run's clock. Returns 0, or -MIRROR_EUSAGE when
 * SOURCE_DATE_EPOCH is set and not empty but is not decimal digits
 * alone (no sign, no blank) from 0 to 253402300799 (env.h's env_get).
 */
int mirror_clock(time_t *now, mirror_error *err);

/*
 * Milliseconds on the monotonic clock, for durations only (0 if the
 * clock cannot be read).
 */
long long mirror_monotonic_ms(void);

/* Format t as 'YYYY-MM-DD HH:MM:SS' (UTC) into buf[MIRROR_TS_LEN]. */
void mirror_format_ts(char buf[MIRROR_TS_LEN], time_t t);

/*
 * Parse a store timestamp ('YYYY-MM-DD HH:MM:SS', 'YYYY-MM-DDTHH:MM:SS'
 * with an optional trailing 'Z', or 'YYYY-MM-DD') into *t, UTC.
 * Returns 0, or -1 when s is not such a timestamp.
 */
int mirror_parse_ts(time_t *t, const char *s);

#endif
