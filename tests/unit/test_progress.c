/*
 * test_progress.c: the progress line draws only on a terminal, at most
 * ten times a second, counts honestly and clears itself.
 *
 * A pseudo-terminal (posix_openpt) stands in for the user's terminal:
 * its slave becomes fd 2 for the test and the master reads what was
 * drawn, byte for byte; a pipe stands in for a log file. Neither case
 * depends on what fd 2 of the test run is, and none is ever skipped: a
 * machine that gives no pseudo-terminal fails the test, saying so.
 * The promises of doc/site.md, "Progress".
 */
#define _XOPEN_SOURCE 600
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "cli/progress.h"

struct pty {
	int master, slave, saved;
};

/* Make a pty's slave fd 2; fail, naming the step, when none can be had. */
static void
pty_open(struct pty *t)
{
	const char *name, *step = NULL;

	t->slave = -1;
	t->master = posix_openpt(O_RDWR | O_NOCTTY);
	if (t->master < 0)
		step = "posix_openpt";
	else if (grantpt(t->master) < 0)
		step = "grantpt";
	else if (unlockpt(t->master) < 0)
		step = "unlockpt";
	else if ((name = ptsname(t->master)) == NULL)
		step = "ptsname";
	else if ((t->slave = open(name, O_RDWR | O_NOCTTY)) < 0)
		step = "open of the slave";
	if (step != NULL) {
		int e = errno;

		if (t->master >= 0)
			close(t->master);
		fail_msg("no pseudo-terminal for the terminal cases: %s: %s "
		    "(is /dev/pts mounted?)", step, strerror(e));
	}
	fflush(stderr);
	t->saved = dup(STDERR_FILENO);
	assert_true(t->saved >= 0);
	assert_true(dup2(t->slave, STDERR_FILENO) >= 0);
	assert_int_equal(fcntl(t->master, F_SETFL, O_NONBLOCK), 0);
}

/* Give fd 2 back before anything can fail (cmocka reports on it). */
static void
pty_restore(struct pty *t)
{
	fflush(stderr);
	dup2(t->saved, STDERR_FILENO);
	close(t->saved);
	close(t->slave);
}

/* What the terminal received so far, NUL-terminated in buf. */
static size_t
pty_read(struct pty *t, char *buf, size_t size)
{
	size_t n = 0;
	ssize_t r;

	while (n + 1 < size &&
	    (r = read(t->master, buf + n, size - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
	return n;
}

/* Not a terminal (fd 2 a pipe, as in CI's log): never enabled, nothing
 * written, but it counts, and every call is safe on NULL. */
static void
test_not_a_terminal(void **state)
{
	struct progress p, seen;
	struct pty t;   /* a pipe here: master reads, slave is fd 2 */
	int fds[2];
	char buf[256];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	t.master = fds[0];
	t.slave = fds[1];
	fflush(stderr);
	t.saved = dup(STDERR_FILENO);
	assert_true(t.saved >= 0);
	assert_true(dup2(t.slave, STDERR_FILENO) >= 0);
	assert_int_equal(fcntl(t.master, F_SETFL, O_NONBLOCK), 0);
	progress_init(&p, 1);
	progress_phase(&p, "conflict pages", 2, 1);
	for (int i = 0; i < 3; i++)
		progress_page(&p);
	seen = p;
	progress_clear(&p);
	pty_restore(&t);
	assert_int_equal(pty_read(&t, buf, sizeof(buf)), 0);
	close(t.master);
	assert_false(seen.enabled);
	assert_int_equal(seen.pages, 3);
	assert_int_equal(seen.done, 2);   /* capped at the phase's total */
	assert_false(seen.drawn);
	progress_phase(NULL, "x", 1, 0);
	progress_page(NULL);
	progress_item(NULL);
	progress_clear(NULL);
}

/* On a terminal: the first update draws, the ones within 100 ms do not,
 * a later one does, and the end clears exactly the widest line. */
static void
test_terminal_rate_and_clear(void **state)
{
	struct progress p;
	struct pty t;
	char buf[1024], want[256];
	const char *l1 = "rendering pages: 0 done, projects 0/3";
	const char *l2 = "rendering pages: 2 done, projects 3/3";
	int n;

	(void)state;
	pty_open(&t);
	progress_init(&p, 1);
	assert_true(p.interval_ns == 100000000LL);   /* ten a second */
	/* An interval no machine can outlast makes "within the interval"
	 * certain however slow the test runs; none makes "after it". */
	p.interval_ns = 3600 * 1000000000LL;
	progress_phase(&p, "projects", 3, 0);
	for (int i = 0; i < 4; i++)
		progress_item(&p);
	progress_page(&p);             /* within the interval: not drawn */
	p.interval_ns = 0;
	progress_page(&p);             /* drawn: 2 pages, phase capped */
	progress_clear(&p);
	pty_restore(&t);
	pty_read(&t, buf, sizeof(buf));
	close(t.master);
	n = snprintf(want, sizeof(want), "\r%s\r%s\r%*s\r", l1, l2,
	    (int)strlen(l1), "");
	assert_true(n > 0 && (size_t)n < sizeof(want));
	assert_true(p.enabled);
	assert_false(p.drawn);
	assert_string_equal(buf, want);
}

/* Disabled (--quiet) on a terminal: nothing reaches it. */
static void
test_terminal_quiet(void **state)
{
	struct progress p;
	struct pty t;
	char buf[256];

	(void)state;
	pty_open(&t);
	progress_init(&p, 0);
	progress_phase(&p, "projects", 1, 0);
	progress_item(&p);
	progress_clear(&p);
	pty_restore(&t);
	assert_int_equal(pty_read(&t, buf, sizeof(buf)), 0);
	close(t.master);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_a_terminal),
		cmocka_unit_test(test_terminal_rate_and_clear),
		cmocka_unit_test(test_terminal_quiet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
