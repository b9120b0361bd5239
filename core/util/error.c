#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

int
mirror_fail(mirror_error *err, int status, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL) {
		err->status = status;
		va_start(ap, fmt);
		/* Truncation of a message is harmless: it stays one line. */
		(void)vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		/* Keep it one line even when store text leaks into it. */
		for (char *p = err->msg; *p != '\0'; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
	}
	return -status;
}

void
mirror_error_clear(mirror_error *err)
{
	if (err != NULL) {
		err->status = MIRROR_OK;
		err->msg[0] = '\0';
	}
}
