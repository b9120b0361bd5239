/*
 * test_gitlib.c: libgit2 loaded when first needed (gen/gitlib/gitlib.c),
 * as on a machine that lacks it: this file compiles gitlib.c itself with
 * a SONAME no system has. mgit_lib_open then says which library and
 * why, and says it again when asked again; a git_* function called
 * anyway ends the process (a child here) with that reason and
 * MIRROR_EIO, since libgit2's own return values could not say it. The
 * loaded library is what every test that commits runs on.
 */
#undef MIRROR_GIT_SONAME	/* the Makefile's: the real one */
#define MIRROR_GIT_SONAME "libmirror-test-no-git.so.0"
#include "gitlib/gitlib.c"

#include <setjmp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

/* What mgit_lib_open says when the library cannot be loaded. */
static void
test_open_fails_named(void **state)
{
	mirror_error err;

	(void)state;
	mirror_error_clear(&err);
	assert_int_equal(mgit_lib_open(&err), -MIRROR_EIO);
	assert_int_equal(err.status, MIRROR_EIO);
	assert_non_null(strstr(err.msg, "libgit2: cannot load "
	    "libmirror-test-no-git.so.0 (Debian's libgit2-1.5 has it): "));
	/* dlerror's reason follows, naming the file it looked for. */
	assert_non_null(strstr(err.msg, "libmirror-test-no-git.so.0: "));
}

/* Asked again, the same answer: the load is tried once a process. */
static void
test_open_fails_again(void **state)
{
	mirror_error a, b;

	(void)state;
	mirror_error_clear(&a);
	mirror_error_clear(&b);
	assert_int_equal(mgit_lib_open(&a), -MIRROR_EIO);
	assert_int_equal(mgit_lib_open(&b), -MIRROR_EIO);
	assert_string_equal(a.msg, b.msg);
}

/* A git_* call with no library: the child prints the reason on stderr
 * and exits with MIRROR_EIO, instead of calling through NULL. */
static void
test_call_without_library_exits(void **state)
{
	int fd[2], status;
	char buf[1024];
	ssize_t n, got = 0;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		(void)dup2(fd[1], 2);
		(void)git_libgit2_init();
		_exit(0);               /* not reached: the call exits */
	}
	close(fd[1]);
	while (got < (ssize_t)sizeof(buf) - 1 &&
	    (n = read(fd[0], buf + got, sizeof(buf) - 1 - (size_t)got)) > 0)
		got += n;
	buf[got] = '\0';
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), MIRROR_EIO);
	assert_non_null(strstr(buf, "mirror: libgit2: cannot load "
	    "libmirror-test-no-git.so.0"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_fails_named),
		cmocka_unit_test(test_open_fails_again),
		cmocka_unit_test(test_call_without_library_exits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
