/*
 * scratch.h: a scratch directory for a unit-test binary whose tests
 * work with real files: scratch_enter makes /tmp/mirror-test-NAME.XXXXXX
 * and enters it (so paths in messages are short), scratch_leave goes
 * back and removes it. For a cmocka group's setup and teardown;
 * scratch_write puts a file there, scratch_read reads one whole,
 * scratch_sh runs a shell command.
 * Include after <cmocka.h>.
 */
#ifndef MIRROR_TEST_SCRATCH_H
#define MIRROR_TEST_SCRATCH_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char scratch_dir[128];
static char scratch_old[4096];

/* Make and enter the scratch directory. Returns 0 or -1. */
static inline int
scratch_enter(const char *name)
{
	int n = snprintf(scratch_dir, sizeof(scratch_dir),
	    "/tmp/mirror-test-%s.XXXXXX", name);

	if (n < 0 || (size_t)n >= sizeof(scratch_dir) ||
	    getcwd(scratch_old, sizeof(scratch_old)) == NULL ||
	    mkdtemp(scratch_dir) == NULL || chdir(scratch_dir) < 0)
		return -1;
	return 0;
}

/* Leave the scratch directory and remove it. Returns 0 or -1. */
static inline int
scratch_leave(void)
{
	char cmd[sizeof(scratch_dir) + 16];
	int n;

	if (chdir(scratch_old) < 0)
		return -1;
	n = snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch_dir);
	if (n < 0 || (size_t)n >= sizeof(cmd))
		return -1;
	return system(cmd) == 0 ? 0 : -1;
}

/* Define SETUP and TEARDOWN, a cmocka setup that enters scratch NAME
 * and the teardown that leaves it (for a group or for each test). */
#define SCRATCH_FIXTURES(SETUP, TEARDOWN, NAME)			\
	static int							\
	SETUP(void **state)						\
	{								\
		(void)state;						\
		return scratch_enter(NAME);				\
	}								\
									\
	static int							\
	TEARDOWN(void **state)						\
	{								\
		(void)state;						\
		return scratch_leave();					\
	}

/* Write len bytes of text to path (replacing it), or fail the test. */
static inline void
scratch_write(const char *path, const char *text, size_t len)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
}

/* The whole of file rel under dir (NULL: rel itself), NUL-terminated
 * (the caller frees it), or NULL when it cannot be opened. */
static inline char *
scratch_read(const char *dir, const char *rel)
{
	char path[4096];
	int n = dir != NULL ? snprintf(path, sizeof(path), "%s/%s", dir, rel) :
	    snprintf(path, sizeof(path), "%s", rel);
	FILE *fp;
	char *text = NULL;
	size_t len = 0, cap = 0, got;

	assert_true(n > 0 && (size_t)n < sizeof(path));
	if ((fp = fopen(path, "rb")) == NULL)
		return NULL;
	do {
		if (cap - len < 4096) {
			cap = cap * 2 + 4096;
			text = realloc(text, cap + 1);
			assert_non_null(text);
		}
		got = fread(text + len, 1, cap - len, fp);
		len += got;
	} while (got > 0);
	assert_int_equal(fclose(fp), 0);
	text[len] = '\0';
	return text;
}

/*
 * Run the shell command line fmt (printf-style; it must fit 8 KiB, or
 * the test fails). Returns its exit status, or -1 when it could not be
 * run or was killed.
 */
static inline int
scratch_sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int n, st;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < sizeof(cmd));
	st = system(cmd);
	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

#endif
