/*
 * test_git_check.c: the repository checks made before libgit2 reads a
 * file (gen/git/git_check.c): config values as git parses them, includes
 * followed as libgit2 follows them, packed-refs lines as libgit2 reads
 * them; a missing file is never an error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "scratch.h"

#include "git/git_check.h"

SCRATCH_FIXTURES(setup, teardown, "git-check")

/* Write text (a string) to path. */
static void
put(const char *path, const char *text)
{
	scratch_write(path, text, strlen(text));
}

static void
test_values(void **state)
{
	static const char *const good[] = { "true", "Yes", "on", "FALSE",
	    "no", "off", "", "1", "0", "10", "0x1", "1k" };
	mirror_error err;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_int_equal(mgit_check_value("c:1", "core.bare", good[i],
		    &err), 0);
	assert_int_equal(mgit_check_value("c:1", "core.bare", NULL, &err), 0);
	assert_int_equal(mgit_check_value("c:1", "core.logallrefupdates",
	    "always", &err), 0);
	assert_int_equal(mgit_check_value("c:1", "user.name", "garbage",
	    &err), 0);
	assert_int_equal(mgit_check_value("c:3", "core.logallrefupdates",
	    "garbage", &err), -MIRROR_EINPUT);
	assert_string_equal(err.msg, "c:3: core.logAllRefUpdates = 'garbage' "
	    "is not a boolean (true/false, yes/no, on/off, 1/0) or 'always'");
	assert_int_equal(mgit_check_value("c:2", "core.bare", "always", &err),
	    -MIRROR_EINPUT);
	assert_int_equal(mgit_check_value("c:2",
	    "core.repositoryformatversion", "1x", &err), -MIRROR_EINPUT);
}

static void
test_files(void **state)
{
	mirror_error err;

	(void)state;
	/* Nothing there: not this check's business. */
	assert_int_equal(mgit_check_files("nosuch", &err), 0);
	assert_int_equal(mkdir("r", 0755), 0);
	assert_int_equal(mgit_check_files("r", &err), 0);
	put("r/config", "[core]\n\tbare = true\n[include]\n"
	    "\tpath = \"missing\" ; absent is fine\n"
	    "[includeIf \"gitdir:/x/\"]\n\tpath = inc\n");
	put("r/inc", "[core]\nlogAllRefUpdates = \\\nbad\n");
	assert_int_equal(mgit_check_files("r", &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "/r/inc:2: core.logAllRefUpdates = "
	    "'bad'"));
	put("r/inc", "# nothing\n");
	assert_int_equal(mgit_check_files("r", &err), 0);
	assert_int_equal(mkfifo("r/fifo", 0644), 0);
	put("r/inc", "[include]\npath = fifo\n");
	assert_int_equal(mgit_check_files("r", &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, ":2: include.path 'fifo' names "));
	assert_non_null(strstr(err.msg, "/r/fifo: a FIFO, not a regular "
	    "file"));
	put("r/inc", "\n");
	put("r/packed-refs", "# pack-refs with: peeled \n"
	    "0123456789012345678901234567890123456789 refs/heads/a\n"
	    "^0123456789012345678901234567890123456789\n"
	    "0123456789012345678901234567890123456789 refs/heads/b\n");
	assert_int_equal(mgit_check_files("r", &err), 0);
	put("r/packed-refs", "0123456789012345678901234567890123456789 "
	    "refs/heads/a\n^0123456789012345678901234567890123456789\n"
	    "^0123456789012345678901234567890123456789\n");
	assert_int_equal(mgit_check_files("r", &err), -MIRROR_EINPUT);
	assert_string_equal(err.msg, "r/packed-refs:3: not a line of "
	    "packed-refs ('<40 hex digits> <refname>'): the file is corrupt");
	/* The last ref line needs its newline, as libgit2 wants. */
	put("r/packed-refs", "0123456789012345678901234567890123456789 "
	    "refs/heads/a");
	assert_int_equal(mgit_check_files("r", &err), -MIRROR_EINPUT);
	assert_int_equal(unlink("r/packed-refs"), 0);
	/* A work tree's .git may be a directory or a gitlink file. */
	assert_int_equal(mkdir("w", 0755), 0);
	put("w/.git", "gitdir: ../r\n");
	assert_int_equal(mgit_check_files("w", &err), 0);
	assert_int_equal(unlink("r/config"), 0);
	assert_int_equal(mkfifo("r/config", 0644), 0);
	assert_int_equal(mgit_check_files("w", &err), -MIRROR_EINPUT);
	assert_string_equal(err.msg, "w/../r/config: a FIFO, not a regular "
	    "file");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_files),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
