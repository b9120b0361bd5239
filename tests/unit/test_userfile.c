/*
 * test_userfile.c: the one opener of user-supplied files (core/sys/userfile.c):
 * a regular file is read; a symbolic link (even to a regular file), a
 * FIFO, a directory or a device is refused at once with one line naming
 * what, the file and its kind; only a missing file may be "not there".
 */
#include <fcntl.h>
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

#include "render/template.h"
#include "sys/userfile.h"
#include "util/strbuf.h"

/* Every test runs in a scratch directory, so paths in messages are short. */
static int
setup(void **state)
{
	FILE *f;

	(void)state;
	if (scratch_enter("userfile") < 0)
		return -1;
	if ((f = fopen("plain", "w")) == NULL)
		return -1;
	fputs("hello {{x}}\n", f);
	if (fclose(f) != 0 || symlink("plain", "link") < 0 ||
	    symlink("nowhere", "dangling") < 0 || mkfifo("fifo", 0644) < 0 ||
	    mkdir("dir", 0755) < 0 || symlink(".", "dirlink") < 0)
		return -1;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	return scratch_leave();
}

/* Read path with flags; the status, and err.msg when it failed. */
static int
try_read(strbuf *sb, const char *path, int flags, mirror_error *err)
{
	strbuf_reset(sb);
	return userfile_read(sb, path, "templates", 0, flags, err);
}

static void
test_regular_and_missing(void **state)
{
	mirror_error err;
	strbuf sb;

	(void)state;
	strbuf_init(&sb);
	assert_int_equal(try_read(&sb, "plain", 0, &err), 0);
	assert_string_equal(sb.data, "hello {{x}}\n");
	/* A linked directory on the way is the user's choice. */
	assert_int_equal(try_read(&sb, "dirlink/plain", 0, &err), 0);
	assert_int_equal(try_read(&sb, "missing", USERFILE_MISSING_OK, &err),
	    1);
	assert_int_equal(sb.len, 0);
	assert_int_equal(try_read(&sb, "missing", 0, &err), -MIRROR_EINPUT);
	assert_string_equal(err.msg, "templates missing: No such file or "
	    "directory");
	strbuf_free(&sb);
}

static void
test_refused(void **state)
{
	static const struct {
		const char *path, *msg;
	} cases[] = {
		{ "link", "templates link: a symbolic link, not a regular "
		    "file" },
		/* A dangling link is there, not missing: no fallback. */
		{ "dangling", "templates dangling: a symbolic link, not a "
		    "regular file" },
		{ "fifo", "templates fifo: a FIFO, not a regular file" },
		{ "dir", "templates dir: a directory, not a regular file" },
		{ "/dev/null", "templates /dev/null: a character device, not "
		    "a regular file" },
	};
	mirror_error err;
	strbuf sb;

	(void)state;
	strbuf_init(&sb);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(try_read(&sb, cases[i].path,
		    USERFILE_MISSING_OK, &err), -MIRROR_EINPUT);
		assert_int_equal(err.status, MIRROR_EINPUT);
		assert_string_equal(err.msg, cases[i].msg);
		assert_int_equal(sb.len, 0);
	}
	strbuf_free(&sb);
}

static void
test_openat_and_max(void **state)
{
	mirror_error err;
	strbuf sb;
	int dfd, fd;

	(void)state;
	strbuf_init(&sb);
	dfd = open(".", O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	assert_int_equal(userfile_openat(&fd, &(struct userfile_at){
	    .dirfd = dfd, .name = "link", .what = "theme",
	    .shown = "th/assets/link" }, 0, &err), -MIRROR_EINPUT);
	assert_int_equal(fd, -1);
	assert_string_equal(err.msg, "theme th/assets/link: a symbolic link, "
	    "not a regular file");
	assert_int_equal(userfile_openat(&fd, &(struct userfile_at){
	    .dirfd = dfd, .name = "plain", .what = "theme" }, 0, &err), 0);
	assert_true(fd >= 0);
	close(fd);
	/* Over max: refused, and nothing is left in the buffer. */
	strbuf_puts(&sb, "kept");
	assert_int_equal(userfile_readat(&sb, &(struct userfile_at){
	    .dirfd = dfd, .name = "plain", .what = "config" }, 4, 0, &err),
	    -MIRROR_EINPUT);
	assert_string_equal(sb.data, "kept");
	close(dfd);
	strbuf_free(&sb);
}

static void
test_template_loads(void **state)
{
	mirror_error err;
	tmpl *t;

	(void)state;
	assert_int_equal(tmpl_load(&t, "plain", TMPL_MARKDOWN, &err), 0);
	tmpl_free(t);
	assert_int_equal(tmpl_load(&t, "link", TMPL_MARKDOWN, &err),
	    -MIRROR_EINPUT);
	assert_null(t);
	assert_string_equal(err.msg, "templates link: a symbolic link, not a "
	    "regular file");
	assert_int_equal(tmpl_load_user(&t, "missing", "theme", TMPL_HTML,
	    USERFILE_MISSING_OK, &err), 1);
	assert_null(t);
	assert_int_equal(tmpl_load_user(&t, "fifo", "theme", TMPL_HTML,
	    USERFILE_MISSING_OK, &err), -MIRROR_EINPUT);
	assert_string_equal(err.msg, "theme fifo: a FIFO, not a regular file");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regular_and_missing),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_openat_and_max),
		cmocka_unit_test(test_template_loads),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
