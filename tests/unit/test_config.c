/*
 * test_config.c: the strict config file (gen/cli/config.c): its syntax,
 * every error with its exact one-line message, and no fixed limits.
 * Also the checks it shares with the command line (optcheck.h,
 * theme_name_ok); the suggestions are tested in test_suggest.c.
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

#include "cli/cli.h"
#include "cli/optcheck.h"
#include "render/theme.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* What config_load kept, freed at the end of each case (config_free). */
static struct config_kept kept;

/* Every test runs in a scratch directory, so paths in messages are short. */
SCRATCH_FIXTURES(setup, teardown, "config")

/* Load text (len bytes) as path into *o; returns config_load's result. */
static int
load_n(struct mirror_opts *o, const char *path, const char *text, size_t len,
    mirror_error *err)
{
	scratch_write(path, text, len);
	mirror_error_clear(err);
	return config_load(&kept, o, path, err);
}

static int
load(struct mirror_opts *o, const char *text, mirror_error *err)
{
	return load_n(o, "c.ini", text, strlen(text), err);
}

/* Load text and expect success; fails the test with the message. */
static void
load_ok(struct mirror_opts *o, const char *text)
{
	mirror_error err;

	if (load(o, text, &err) != 0)
		fail_msg("unexpected: %s", err.msg);
}

static void
test_basic(void **state)
{
	struct mirror_opts o = { 0 };

	(void)state;
	load_ok(&o, "# a comment\n; another\n\n   \t\n"
	    "store = facts.db\n"
	    "[mirror]\n"
	    "out = site\n"
	    "repo = pages.git\n"
	    "branch = pages\n"
	    "author = Mirror Bot <bot@example.org>\n"
	    "templates = tmpl\n"
	    "theme = plain\n"
	    "base_url = https://example.org/site/\n"
	    "title = Plant\n");
	assert_string_equal(o.store, "facts.db");
	assert_string_equal(o.out, "site");
	assert_string_equal(o.repo, "pages.git");
	assert_string_equal(o.branch, "pages");
	assert_string_equal(o.author, "Mirror Bot <bot@example.org>");
	assert_string_equal(o.templates, "tmpl");
	assert_string_equal(o.theme, "plain");
	assert_string_equal(o.base_url, "https://example.org/site/");
	assert_string_equal(o.title, "Plant");
	config_free(&kept);
}

static void
test_no_section_and_empty(void **state)
{
	struct mirror_opts o = { 0 };

	(void)state;
	load_ok(&o, "");
	assert_null(o.store);
	load_ok(&o, "# only comments\n[mirror] ; the section\n");
	assert_null(o.store);
	load_ok(&o, "\tstore=x.db\t");   /* no newline at the end */
	assert_string_equal(o.store, "x.db");
	config_free(&kept);
}

struct title_case {
	const char *line, *title;
};

/* Load each line alone and check the title it gives. */
static void
check_titles(const struct title_case *cases, size_t n)
{
	struct mirror_opts o;

	for (size_t i = 0; i < n; i++) {
		memset(&o, 0, sizeof(o));
		load_ok(&o, cases[i].line);
		assert_string_equal(o.title, cases[i].title);
	}
}

static void
test_comments_after_values(void **state)
{
	static const struct title_case cases[] = {
		{ "title = Plant # note\n", "Plant" },
		{ "title = Plant ; note\n", "Plant" },
		{ "title = Plant\t# note\n", "Plant" },
		{ "title = C# and F#\n", "C# and F#" },
		{ "title = a;b\n", "a;b" },
		{ "title = a \"quoted\" \\word\n", "a \"quoted\" \\word" },
		{ "title = say = so\n", "say = so" },
		{ "title = x  \n", "x" },
	};
	struct mirror_opts o;

	(void)state;
	check_titles(cases, sizeof(cases) / sizeof(cases[0]));
	memset(&o, 0, sizeof(o));
	load_ok(&o, "title = C# # the language\n");
	assert_string_equal(o.title, "C#");
	config_free(&kept);
}

static void
test_quoted(void **state)
{
	static const struct title_case cases[] = {
		{ "title = \"  Plant # 1 ; ok  \"\n", "  Plant # 1 ; ok  " },
		{ "title = \"say \\\"hi\\\" \\\\ back\"\n",
		    "say \"hi\" \\ back" },
		{ "title = \"x\" # a comment\n", "x" },
		{ "title = \"x\";c\n", "x" },
		{ "title = \"é ü 日本\"\n", "é ü 日本" },
	};

	(void)state;
	check_titles(cases, sizeof(cases) / sizeof(cases[0]));
	config_free(&kept);
}

static void
test_command_line_wins(void **state)
{
	struct mirror_opts o = { 0 };

	(void)state;
	o.title = "From argv";
	o.store = "argv.db";
	load_ok(&o, "title = From file\nstore = file.db\nout = site\n");
	assert_string_equal(o.title, "From argv");
	assert_string_equal(o.store, "argv.db");
	assert_string_equal(o.out, "site");
	config_free(&kept);
}

static void
test_paths_relative_to_file(void **state)
{
	struct mirror_opts o = { 0 };
	mirror_error err;
	const char *text = "store = facts.db\nout = /abs/site\n"
	    "templates = ../tmpl\ntheme = my/theme\ntitle = a/b\n";

	(void)state;
	assert_int_equal(mkdir("sub", 0755), 0);
	if (load_n(&o, "sub/c.ini", text, strlen(text), &err) != 0)
		fail_msg("%s", err.msg);
	assert_string_equal(o.store, "sub/facts.db");
	assert_string_equal(o.out, "/abs/site");
	assert_string_equal(o.templates, "sub/../tmpl");
	assert_string_equal(o.theme, "sub/my/theme");
	assert_string_equal(o.title, "a/b");   /* not a path */
	memset(&o, 0, sizeof(o));
	text = "theme = plain\n";
	if (load_n(&o, "sub/c.ini", text, strlen(text), &err) != 0)
		fail_msg("%s", err.msg);
	assert_string_equal(o.theme, "plain");   /* a name stays a name */
	config_free(&kept);
}

static void
test_crlf_and_bom(void **state)
{
	struct mirror_opts o = { 0 };

	(void)state;
	load_ok(&o, "\xef\xbb\xbf[mirror]\r\ntitle = Plant # x\r\n"
	    "store = s.db\r\n");
	assert_string_equal(o.title, "Plant");
	assert_string_equal(o.store, "s.db");
	config_free(&kept);
}

/* No fixed limits: a 1 MB line, 100 000 lines, many loads. */
static void
test_no_limits(void **state)
{
	struct mirror_opts o;
	strbuf sb;

	(void)state;
	strbuf_init(&sb);
	strbuf_puts(&sb, "title = ");
	for (int i = 0; i < 1 << 20; i++)
		strbuf_putc(&sb, (char)('a' + i % 26));
	strbuf_puts(&sb, " # and a comment\n");
	memset(&o, 0, sizeof(o));
	load_ok(&o, sb.data);
	assert_int_equal(strlen(o.title), 1 << 20);
	assert_int_equal(o.title[(1 << 20) - 1], 'a' + ((1 << 20) - 1) % 26);
	strbuf_reset(&sb);
	for (int i = 0; i < 100000; i++)
		strbuf_puts(&sb, "# comment line\n");
	strbuf_puts(&sb, "store = last.db\n");
	memset(&o, 0, sizeof(o));
	load_ok(&o, sb.data);
	assert_string_equal(o.store, "last.db");
	strbuf_free(&sb);
	/* Old code kept 16 values at most: 5 loads of 9 keys keep all 45. */
	{
		struct mirror_opts all[5];
		char text[1024];
		int n;

		for (int i = 0; i < 5; i++) {
			memset(&all[i], 0, sizeof(all[i]));
			n = snprintf(text, sizeof(text), "store = s%d\n"
			    "out = o%d\nrepo = r%d\nbranch = b%d\n"
			    "author = A%d <a%d@x>\ntemplates = t%d\n"
			    "theme = t%d\nbase_url = http://h%d/\n"
			    "title = T%d\n", i, i, i, i, i, i, i, i, i, i);
			assert_true(n > 0 && (size_t)n < sizeof(text));
			load_ok(&all[i], text);
		}
		for (int i = 0; i < 5; i++) {
			n = snprintf(text, sizeof(text), "T%d", i);
			assert_true(n > 0 && (size_t)n < sizeof(text));
			assert_string_equal(all[i].title, text);
			n = snprintf(text, sizeof(text), "s%d", i);
			assert_true(n > 0 && (size_t)n < sizeof(text));
			assert_string_equal(all[i].store, text);
		}
	}
	config_free(&kept);
}

/* Each bad file, and the exact message config_load gives for it. */
static const struct bad_case {
	const char *text;
	size_t len;               /* 0: strlen(text) */
	const char *msg;
} bad_cases[] = {
	{ "title = a\ntitle = b\n", 0,
	    "config c.ini:2: duplicate key 'title' (first set at line 1)" },
	{ "title = a\n[mirror]\n\ntitle = b\n", 0,
	    "config c.ini:4: duplicate key 'title' (first set at line 1)" },
	{ "store = s\ntitel = Plant\n", 0,
	    "config c.ini:2: unknown key 'titel' (did you mean 'title'?)" },
	{ "stroe = s\n", 0,
	    "config c.ini:1: unknown key 'stroe' (did you mean 'store'?)" },
	{ "Title = s\n", 0,
	    "config c.ini:1: unknown key 'Title' (did you mean 'title'?)" },
	{ "base-url = http://x/\n", 0,
	    "config c.ini:1: unknown key 'base-url' (did you mean "
	    "'base_url'?)" },
	{ "colour = red\n", 0,
	    "config c.ini:1: unknown key 'colour' (known: store, out, repo, "
	    "branch, author, sign_key, templates, rules, theme, base_url, "
	    "title, param.RULE.NAME)" },
	{ "param.a.x = 1\nparam.a.x = 2\n", 0,
	    "config c.ini:2: duplicate key 'param.a.x' (first set at line "
	    "1)" },
	{ "param.a = 1\n", 0,
	    "config c.ini:1: param.a: want param.RULE.NAME" },
	{ "param.a.x =\n", 0, "config c.ini:1: empty value for "
	    "'param.a.x'" },
	{ "[site]\ntitle = x\n", 0,
	    "config c.ini:1: unknown section [site] (the only section is "
	    "[mirror])" },
	{ "[mirorr]\n", 0,
	    "config c.ini:1: unknown section [mirorr] (did you mean "
	    "[mirror]?)" },
	{ "[mirror]\n[mirror]\n", 0,
	    "config c.ini:2: a second [mirror] section (the first is at "
	    "line 1)" },
	{ "[mirror\n", 0,
	    "config c.ini:1: bad section header: no closing ']'" },
	{ "[mirror] title = x\n", 0,
	    "config c.ini:1: bad section header: text after ']'" },
	{ "[]\n", 0,
	    "config c.ini:1: bad section header: an empty name (want "
	    "[mirror])" },
	{ "[mirror \"sub\"]\n", 0,
	    "config c.ini:1: bad section header '[mirror \"sub\"]' (want "
	    "[mirror])" },
	{ "\ntitle Plant\n", 0,
	    "config c.ini:2: missing '=' (want 'key = value')" },
	{ "title # = Plant\n", 0,
	    "config c.ini:1: missing '=' (want 'key = value')" },
	{ " = Plant\n", 0, "config c.ini:1: empty key before '='" },
	{ "title = \"Plant\n", 0,
	    "config c.ini:1: unterminated quoted value (no closing '\"')" },
	{ "title = \"Plant\\\"\n", 0,
	    "config c.ini:1: unterminated quoted value (no closing '\"')" },
	{ "title = \"Pl\\ant\"\n", 0,
	    "config c.ini:1: unknown escape '\\a' in a quoted value (only "
	    "\\\" and \\\\)" },
	{ "title = \"Plant\" extra\n", 0,
	    "config c.ini:1: text after the closing quote" },
	{ "title = \"Plant\"\"x\"\n", 0,
	    "config c.ini:1: text after the closing quote" },
	{ "store =\n", 0, "config c.ini:1: empty value for 'store'" },
	{ "out = # nothing\n", 0, "config c.ini:1: empty value for 'out'" },
	{ "repo = \"\"\n", 0, "config c.ini:1: empty value for 'repo'" },
	{ "templates =   \n", 0,
	    "config c.ini:1: empty value for 'templates'" },
	{ "title =\n", 0, "config c.ini:1: empty value for 'title'" },
	{ "base_url = example.org\n", 0,
	    "config c.ini:1: base_url: 'example.org' is not an absolute "
	    "http(s) URL (like https://example.org/mirror)" },
	{ "base_url = /site/\n", 0,
	    "config c.ini:1: base_url: '/site/' is not an absolute http(s) "
	    "URL (like https://example.org/mirror)" },
	{ "base_url = https:///x\n", 0,
	    "config c.ini:1: base_url: 'https:///x' has no valid host name" },
	{ "base_url = \"https://x/a b\"\n", 0,
	    "config c.ini:1: base_url: 'https://x/a b' holds a blank or "
	    "control character" },
	{ "author = Mirror Bot\n", 0,
	    "config c.ini:1: author: 'Mirror Bot' is not of the form "
	    "'Name <email>'" },
	{ "author = <bot@x>\n", 0,
	    "config c.ini:1: author: an empty name in '<bot@x>' (want "
	    "'Name <email>')" },
	{ "author = Bot <bot@x> more\n", 0,
	    "config c.ini:1: author: text after '>' in 'Bot <bot@x> more'" },
	{ "theme = Fancy\n", 0,
	    "config c.ini:1: theme: bad theme name 'Fancy' (use [a-z0-9_-]+ "
	    "or a directory path)" },
	{ "theme = ..\n", 0,
	    "config c.ini:1: theme: bad theme name '..' (use [a-z0-9_-]+ or "
	    "a directory path)" },
	{ "branch = a..b\n", 0,
	    "config c.ini:1: branch: 'a..b' is not a valid git branch name" },
	{ "branch = HEAD\n", 0,
	    "config c.ini:1: branch: 'HEAD' is not a valid git branch name" },
	{ "title = a\0b\n", 12, "config c.ini:1: a NUL byte (column 10)" },
	{ "store = s\n\0\n", 12, "config c.ini:2: a NUL byte (column 1)" },
	{ "title = Pl\xffnt\n", 0,
	    "config c.ini:1: invalid UTF-8 (byte 0xff, column 11)" },
	{ "title = \xc3\xa9\xc3\n", 0,
	    "config c.ini:1: invalid UTF-8 (byte 0xc3, column 10)" },
	{ "# \xed\xa0\x80 a surrogate\n", 0,
	    "config c.ini:1: invalid UTF-8 (byte 0xed, column 3)" },
	{ "title = a\x1b[31mred\n", 0,
	    "config c.ini:1: a control character 0x1b (column 10)" },
	{ "title = a\rb\n", 0,
	    "config c.ini:1: a control character 0x0d (column 10)" },
};

static void
test_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]);
	    i++) {
		const struct bad_case *c = &bad_cases[i];
		struct mirror_opts o = { 0 };
		mirror_error err;
		size_t len = c->len ? c->len : strlen(c->text);
		int rc;

		rc = load_n(&o, "c.ini", c->text, len, &err);
		if (rc != -MIRROR_EINPUT || err.status != MIRROR_EINPUT ||
		    strcmp(err.msg, c->msg) != 0)
			fail_msg("case %zu: rc %d, message\n  '%s'\nwanted\n"
			    "  '%s'", i, rc, err.msg, c->msg);
		/* Nothing of a bad file is used. */
		assert_null(o.title);
		assert_null(o.store);
	}
	config_free(&kept);
}

static void
test_not_a_regular_file(void **state)
{
	struct mirror_opts o = { 0 };
	mirror_error err;

	(void)state;
	assert_int_equal(mkdir("dir.ini", 0755), 0);
	assert_int_equal(config_load(&kept, &o, "dir.ini", &err), -MIRROR_EINPUT);
	assert_string_equal(err.msg, "config dir.ini: a directory, not a "
	    "regular file");
	/* A FIFO with no writer: refused at once, never read (no hang). */
	assert_int_equal(mkfifo("fifo.ini", 0644), 0);
	assert_int_equal(config_load(&kept, &o, "fifo.ini", &err), -MIRROR_EINPUT);
	assert_string_equal(err.msg, "config fifo.ini: a FIFO, not a regular "
	    "file");
	assert_int_equal(config_load(&kept, &o, "/dev/null", &err), -MIRROR_EINPUT);
	assert_string_equal(err.msg, "config /dev/null: a character device, "
	    "not a regular file");
	/* A link is never followed, even to a good config file. */
	assert_int_equal(symlink("/dev/null", "link.ini"), 0);
	assert_int_equal(config_load(&kept, &o, "link.ini", &err), -MIRROR_EINPUT);
	assert_string_equal(err.msg, "config link.ini: a symbolic link, not a "
	    "regular file");
	assert_int_equal(config_load(&kept, &o, "nosuch.ini", &err), -MIRROR_EINPUT);
	assert_string_equal(err.msg, "config nosuch.ini: No such file or "
	    "directory");
	assert_null(o.store);
	config_free(&kept);
}

static void
test_base_url_and_theme_checks(void **state)
{
	static const char *const good[] = { "http://x", "https://x/",
	    "HTTPS://example.org:8080/a/b", "http://[::1]/" };
	static const char *const bad[] = { "", "x", "ftp://x/", "//x/",
	    "https://", "http://:80/", "http://x/ y", "http://x/\t",
	    "https:/x", "https://x/a?q", "https://x/a#f", "https://x/\"a",
	    "https://x/\xc3\xa9", "https://us@x/", "https://.x/" };
	mirror_error err;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (optcheck_base_url(good[i], &err) != 0)
			fail_msg("'%s': %s", good[i], err.msg);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(optcheck_base_url(bad[i], &err),
		    -MIRROR_EUSAGE);
		assert_true(strncmp(err.msg, "--base-url: ", 12) == 0);
	}
	assert_true(theme_name_ok("default"));
	assert_true(theme_name_ok("my-theme_2"));
	assert_true(theme_name_ok("./mine"));
	assert_false(theme_name_ok(""));
	assert_false(theme_name_ok("Plain"));
	assert_false(theme_name_ok("a b"));
	assert_false(theme_name_ok(NULL));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_no_section_and_empty),
		cmocka_unit_test(test_comments_after_values),
		cmocka_unit_test(test_quoted),
		cmocka_unit_test(test_command_line_wins),
		cmocka_unit_test(test_paths_relative_to_file),
		cmocka_unit_test(test_crlf_and_bom),
		cmocka_unit_test(test_no_limits),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_not_a_regular_file),
		cmocka_unit_test(test_base_url_and_theme_checks),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
