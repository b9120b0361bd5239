/*
 * gitcap.h: the git command line as the judge of unit tests that
 * commit: cap runs a shell command and returns its output, cap_is
 * asserts it, put writes a file (making its directory), gitcap_env
 * gives git (and mirror) a HOME whose .gitconfig names a "Global
 * Person" that mirror must never read, and no other configuration.
 * Include after <cmocka.h> and "scratch.h".
 */
#ifndef MIRROR_TEST_GITCAP_H
#define MIRROR_TEST_GITCAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/strbuf.h"

/* Output of a shell command, trailing newlines dropped. Caller frees. */
static inline char *
cap(const char *fmt, ...)
{
	char cmd[8192];
	strbuf sb;
	va_list ap;
	FILE *fp;
	int n, c;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < sizeof(cmd));
	fp = popen(cmd, "r");
	assert_non_null(fp);
	strbuf_init(&sb);
	while ((c = fgetc(fp)) != EOF)
		strbuf_putc(&sb, (char)c);
	pclose(fp);
	while (sb.len > 0 && sb.data[sb.len - 1] == '\n')
		sb.data[--sb.len] = '\0';
	{
		char *out = strbuf_detach(&sb);

		strbuf_free(&sb);
		return out;
	}
}

/* Assert that the output of a command equals want. */
static inline void
cap_is(const char *want, const char *fmt, ...)
{
	char cmd[8192];
	char *got;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < sizeof(cmd));
	got = cap("%s", cmd);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "command: %s\nwant: [%s]\ngot:  [%s]\n", cmd,
		    want, got);
	assert_string_equal(got, want);
	free(got);
}

static inline void
put(const char *path, const char *content)
{
	FILE *fp;

	assert_int_equal(scratch_sh("mkdir -p \"$(dirname '%s')\"", path), 0);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(content, fp);
	assert_int_equal(fclose(fp), 0);
}

/* The environment every commit test runs in, its HOME under root. */
static inline void
gitcap_env(const char *root)
{
	char home[4096], cfg[4200];

	assert_true((size_t)snprintf(home, sizeof(home), "%s/home", root) <
	    sizeof(home));
	mkdir(home, 0777);
	assert_true((size_t)snprintf(cfg, sizeof(cfg), "%s/.gitconfig",
	    home) < sizeof(cfg));
	put(cfg, "[user]\n\tname = Global Person\n\temail = "
	    "global@example.org\n[init]\n\tdefaultBranch = master\n");
	setenv("HOME", home, 1);
	setenv("XDG_CONFIG_HOME", home, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("TZ", "UTC", 1);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_INDEX_FILE");
	unsetenv("GIT_OBJECT_DIRECTORY");
	unsetenv("SOURCE_DATE_EPOCH");
}

/* Make the next scratch directory root/tN and enter it. 0 or -1. */
static inline int
gitcap_enter(const char *root)
{
	static int n;
	char dir[4096];

	if ((size_t)snprintf(dir, sizeof(dir), "%s/t%d", root, ++n) >=
	    sizeof(dir) || mkdir(dir, 0777) != 0 || chdir(dir) != 0)
		return -1;
	return 0;
}

/* After the group (rc its result): back to cwd0, and root removed when
 * every test passed (kept to look at otherwise). Returns rc. */
static inline int
gitcap_finish(int rc, const char *root, const char *cwd0)
{
	char cmd[4200];

	if (chdir(cwd0) == 0 && rc == 0 &&
	    (size_t)snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root) <
	    sizeof(cmd) && system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	return rc;
}

#endif
