/*
 * test_suggest.c: the edit distance and the "did you mean" choice.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/suggest.h"
#include "util/xalloc.h"

static const char *const commands[] = { "init", "health", "sweep", "build",
    "conflicts", "help" };
static const char *const options[] = { "--store", "--out", "--repo",
    "--branch", "--author", "--templates", "--theme", "--base-url",
    "--title", "--status", "--project", "--notes", "--winner", "--reason",
    "--actor", "--no-sweep", "--check", "--force", "--json", "--quiet",
    "--config", "--help", "--version" };
static const char *const subs[] = { "list", "show", "resolve", "dismiss" };

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* 1: the distance counts inserts, deletes, substitutions, swaps. */
static void
test_distance(void **state)
{
	(void)state;
	assert_int_equal(suggest_distance("", ""), 0);
	assert_int_equal(suggest_distance("build", "build"), 0);
	assert_int_equal(suggest_distance("", "build"), 5);
	assert_int_equal(suggest_distance("build", ""), 5);
	assert_int_equal(suggest_distance("biuld", "build"), 1);   /* swap */
	assert_int_equal(suggest_distance("bild", "build"), 1);    /* insert */
	assert_int_equal(suggest_distance("buildd", "build"), 1);  /* delete */
	assert_int_equal(suggest_distance("buold", "build"), 1);   /* subst */
	assert_int_equal(suggest_distance("kitten", "sitting"), 3);
	/* Optimal string alignment: "ca" -> "abc" is 3, not 2. */
	assert_int_equal(suggest_distance("ca", "abc"), 3);
	assert_int_equal(suggest_distance("ab", "ba"), 1);
	/* Leading dashes and ASCII case do not count. */
	assert_int_equal(suggest_distance("--stor", "--store"), 1);
	assert_int_equal(suggest_distance("stor", "--store"), 1);
	assert_int_equal(suggest_distance("BUILD", "build"), 0);
	/* Symmetric. */
	assert_int_equal(suggest_distance("sweep", "swept"),
	    suggest_distance("swept", "sweep"));
}

/* 2: near words are named; far ones are not. */
static void
test_nearest(void **state)
{
	(void)state;
	assert_string_equal(suggest_nearest("biuld", commands, N(commands)),
	    "build");
	assert_string_equal(suggest_nearest("helth", commands, N(commands)),
	    "health");
	assert_string_equal(suggest_nearest("swep", commands, N(commands)),
	    "sweep");
	assert_string_equal(suggest_nearest("conflict", commands,
	    N(commands)), "conflicts");
	assert_string_equal(suggest_nearest("Build", commands, N(commands)),
	    "build");
	assert_string_equal(suggest_nearest("--stor", options, N(options)),
	    "--store");
	assert_string_equal(suggest_nearest("--jsno", options, N(options)),
	    "--json");
	assert_string_equal(suggest_nearest("--tempaltes", options,
	    N(options)), "--templates");
	assert_string_equal(suggest_nearest("--baseurl", options,
	    N(options)), "--base-url");
	assert_string_equal(suggest_nearest("--nosweep", options,
	    N(options)), "--no-sweep");
	assert_string_equal(suggest_nearest("lsit", subs, N(subs)), "list");
	assert_string_equal(suggest_nearest("dismis", subs, N(subs)),
	    "dismiss");
	/* Nothing close: no suggestion rather than a wild one. */
	assert_null(suggest_nearest("xyzzy", commands, N(commands)));
	assert_null(suggest_nearest("frobnicate", commands, N(commands)));
	assert_null(suggest_nearest("--bogus", options, N(options)));
	assert_null(suggest_nearest("-x", options, N(options)));
	assert_null(suggest_nearest("", commands, N(commands)));
	assert_null(suggest_nearest("build", commands, 0));
}

/* 3: the threshold grows with the word; a unique prefix is named. */
static void
test_threshold(void **state)
{
	static const char *const one[] = { "abcdefgh" };

	(void)state;
	/* Up to 3 letters: one edit. */
	assert_string_equal(suggest_nearest("lst", subs, N(subs)), "list");
	assert_null(suggest_nearest("ls", subs, N(subs)));
	/* 4 to 6 letters: two edits. */
	assert_string_equal(suggest_nearest("bulid", commands, N(commands)),
	    "build");
	assert_null(suggest_nearest("abcdxx", one, 1));
	/* 7 letters and more: three edits. */
	assert_string_equal(suggest_nearest("axcdyfgz", one, 1), "abcdefgh");
	assert_null(suggest_nearest("axcdyfzz", one, 1));
	/* A unique prefix of 3 letters or more, however far. */
	assert_string_equal(suggest_nearest("--temp", options, N(options)),
	    "--templates");
	assert_string_equal(suggest_nearest("confl", commands, N(commands)),
	    "conflicts");
	/* An ambiguous prefix is no suggestion unless one is near. */
	assert_null(suggest_nearest("--re", options, N(options)));
	/* Ties go to the first candidate. */
	assert_string_equal(suggest_nearest("--ot", options, N(options)),
	    "--out");
}

/* 4: long words cost time, not a fixed buffer. */
static void
test_long(void **state)
{
	char *w = xmalloc(100001);

	(void)state;
	memset(w, 'b', 100000);
	w[100000] = '\0';
	assert_int_equal(suggest_distance(w, "build"), 99999);
	assert_null(suggest_nearest(w, commands, N(commands)));
	free(w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_nearest),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
