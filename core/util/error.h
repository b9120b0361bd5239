/*
 * error.h: how every fallible function in mirror reports failure.
 *
 * Convention (after libgit2): out parameters first, return 0 on success
 * or a negative mirror_status on failure; the mirror_error the caller
 * passes in then holds the status and one human-readable line that names
 * what went wrong and where (file, table, row id, ...).
 */
#ifndef MIRROR_ERROR_H
#define MIRROR_ERROR_H

/* Exit statuses of the command line (SPEC section 2). */
enum mirror_status {
	MIRROR_OK = 0,
	MIRROR_EUSAGE = 1,     /* bad command line */
	MIRROR_EINPUT = 2,     /* bad store, config, template, id */
	MIRROR_EIO = 3,        /* I/O or git failure */
	MIRROR_ECONFLICTS = 4, /* --check and open conflicts remain */
	MIRROR_EHOSTING = 5    /* the site passes a limit of a host that
	                          --check-hosting names */
};

typedef struct mirror_error {
	int status;       /* one of enum mirror_status */
	char msg[1024];   /* one line, no trailing newline */
} mirror_error;

/*
 * Record a failure in err (which may be NULL) and return -status, so a
 * caller can write: return mirror_fail(err, MIRROR_EINPUT, "...", ...);
 * The first failure recorded wins only if the caller does not overwrite
 * it; mirror_fail always overwrites.
 */
int mirror_fail(mirror_error *err, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Reset err to "no error". */
void mirror_error_clear(mirror_error *err);

#endif
