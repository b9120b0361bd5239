/*
 * test_sign.c: SSH signatures of commit objects (gen/git/git_sign.h), checked
 * with ssh-keygen's own verifier.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "scratch.h"

#include "git/git_sign.h"
#include "util/error.h"
#include "util/strbuf.h"

static char dir[64];        /* scratch: keys and files */

static const char commit[] =
    "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n"
    "author Mirror <m@example.org> 1700000000 +0000\n"
    "committer Mirror <m@example.org> 1700000000 +0000\n"
    "\n"
    "p06-polisher spindle_max_speed: 300 rpm \xe2\x86\x92 320 rpm\n";


static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/mirror-sign-test.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return -1;
	return scratch_sh("ssh-keygen -q -t ed25519 -N '' -C mirror -f %s/key && "
	    "ssh-keygen -q -t ed25519 -N secret -C locked -f %s/locked",
	    dir, dir) == 0 ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	return scratch_sh("rm -rf %s", dir) == 0 ? 0 : -1;
}

/* Write s to dir/name. */
static void
put(const char *name, const char *s, size_t len)
{
	char path[128];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(s, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
}

/* A signature that ssh-keygen verifies over the exact bytes, and only
 * over them; the same bytes and key give the same signature. */
static void
test_sign_verifies(void **state)
{
	char key[128];
	strbuf a, b;
	mirror_error err;

	(void)state;
	snprintf(key, sizeof(key), "%s/key", dir);
	strbuf_init(&a);
	strbuf_init(&b);
	assert_int_equal(mgit_sign(&a, key, commit, sizeof(commit) - 1,
	    &err), 0);
	assert_true(strncmp(a.data, "-----BEGIN SSH SIGNATURE-----\n", 30) ==
	    0);
	assert_non_null(strstr(a.data, "-----END SSH SIGNATURE-----"));
	put("sig", a.data, a.len);
	put("data", commit, sizeof(commit) - 1);
	assert_int_equal(scratch_sh("ssh-keygen -Y check-novalidate -n git -s %s/sig "
	    "< %s/data >/dev/null 2>&1", dir, dir), 0);
	/* Another namespace or one changed byte: refused. */
	assert_int_not_equal(scratch_sh("ssh-keygen -Y check-novalidate -n file "
	    "-s %s/sig < %s/data >/dev/null 2>&1", dir, dir), 0);
	put("data", commit, sizeof(commit) - 2);
	assert_int_not_equal(scratch_sh("ssh-keygen -Y check-novalidate -n git -s "
	    "%s/sig < %s/data >/dev/null 2>&1", dir, dir), 0);
	/* Ed25519 is deterministic: a rebuild gives the same commit id. */
	assert_int_equal(mgit_sign(&b, key, commit, sizeof(commit) - 1,
	    &err), 0);
	assert_string_equal(a.data, b.data);
	assert_int_equal(mgit_sign_check(key, &err), 0);
	strbuf_free(&a);
	strbuf_free(&b);
}

/* A key that cannot sign: one line naming it, no hang, nothing kept. */
static void
test_sign_refused(void **state)
{
	char key[128], want[256];
	strbuf out;
	mirror_error err;
	time_t t0;

	(void)state;
	strbuf_init(&out);
	snprintf(key, sizeof(key), "%s/missing", dir);
	assert_int_equal(mgit_sign(&out, key, "x", 1, &err), -MIRROR_EINPUT);
	snprintf(want, sizeof(want), "--sign-key %s: No such file or "
	    "directory", key);
	assert_string_equal(err.msg, want);
	assert_int_equal(mgit_sign_check(dir, &err), -MIRROR_EINPUT);
	snprintf(want, sizeof(want), "--sign-key %s: not a regular file", dir);
	assert_string_equal(err.msg, want);
	/* Not a key at all. */
	put("notakey", "hello\n", 6);
	snprintf(key, sizeof(key), "%s/notakey", dir);
	assert_int_equal(mgit_sign_check(key, &err), -MIRROR_EINPUT);
	snprintf(want, sizeof(want), "--sign-key %s: ssh-keygen cannot sign "
	    "with it: ", key);
	assert_true(strncmp(err.msg, want, strlen(want)) == 0);
	/* A key with a passphrase fails at once instead of prompting. */
	snprintf(key, sizeof(key), "%s/locked", dir);
	t0 = time(NULL);
	assert_int_equal(mgit_sign_check(key, &err), -MIRROR_EINPUT);
	assert_true(time(NULL) - t0 < 30);
	snprintf(want, sizeof(want), "--sign-key %s: the key needs a "
	    "passphrase, which a build cannot type (sign with a key that has "
	    "none)", key);
	assert_string_equal(err.msg, want);
	assert_null(strchr(err.msg, '\n'));
	assert_int_equal(out.len, 0);
	strbuf_free(&out);
}

/* No ssh-keygen on the PATH: says so, and what provides it. */
static void
test_sign_no_keygen(void **state)
{
	char key[128], *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	mirror_error err;

	(void)state;
	snprintf(key, sizeof(key), "%s/key", dir);
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(mgit_sign_check(key, &err), -MIRROR_EIO);
	if (path != NULL)
		setenv("PATH", path, 1);
	free(path);
	assert_string_equal(err.msg, "--sign-key: cannot run ssh-keygen: No "
	    "such file or directory (it comes with openssh-client)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sign_verifies),
		cmocka_unit_test(test_sign_refused),
		cmocka_unit_test(test_sign_no_keygen),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
