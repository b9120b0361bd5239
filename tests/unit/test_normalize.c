/*
 * test_normalize.c: every normalisation rule of SPEC 3.3, with the
 * seeds' examples and cases of our own, both "same" and "different".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sweep/normalize.h"

static void
ident_is(const char *in, const char *want)
{
	char *got = norm_ident(in);

	assert_string_equal(got, want);
	free(got);
}

static void
value_is(const char *in, const char *want)
{
	char *got = norm_value(in);

	assert_string_equal(got, want);
	free(got);
}

/* Two values are the same exactly when their normal forms are equal. */
static int
same(const char *a, const char *b)
{
	char *x = norm_value(a), *y = norm_value(b);
	int eq = strcmp(x, y) == 0;

	free(x);
	free(y);
	return eq;
}

static void
singular_is(const char *in, const char *want)
{
	char buf[64];

	strcpy(buf, in);
	norm_singular(buf);
	assert_string_equal(buf, want);
}

/* Identifiers: lower case, runs of other characters one '_', trimmed. */
static void
test_ident(void **state)
{
	(void)state;
	ident_is("Lateral Support", "lateral_support");
	ident_is("lateral_support_material", "lateral_support_material");
	ident_is("  --Mass  Cap!! ", "mass_cap");
	ident_is("merge-commit", "merge_commit");
	ident_is("A/B__C", "a_b_c");
	ident_is("", "");
	ident_is(NULL, "");
	ident_is("___", "");
	ident_is("p05", "p05");
	ident_is("Größe", "gr_e");   /* non-ASCII is a separator */
}

/* Case, whitespace, quotes and a trailing period do not matter. */
static void
test_value_text(void **state)
{
	(void)state;
	value_is("  GF-PTFE ", "gf-ptfe");
	value_is("Prefers   small\tdiffs", "prefers small diffs");
	value_is("\"PEEK\"", "peek");
	value_is("'PEEK'.", "peek");
	value_is("PEEK.", "peek");
	value_is("\"quoted.\"", "quoted");
	value_is("", "");
	value_is(NULL, "");
	assert_true(same("GF-PTFE", "gf-ptfe"));
	assert_true(same("small diffs", "Small  Diffs."));
	assert_false(same("GF-PTFE", "PEEK"));
	assert_false(same("gf ptfe", "gf-ptfe"));    /* punctuation counts */
	assert_false(same("\"a", "a"));              /* unmatched quote stays */
	/* Non-ASCII letters are not case-folded, only kept. */
	assert_false(same("Ä", "ä"));
}

/* Numbers compare as numbers with their unit, without tolerance. */
static void
test_value_numbers(void **state)
{
	(void)state;
	assert_true(same("4.8 kg", "4.80 kg"));
	assert_false(same("4.8 kg", "4.82 kg"));
	assert_true(same("4.8kg", "4.8 KG"));
	assert_false(same("4.8 kg", "4.8 g"));
	assert_false(same("4.8 kg", "4.8"));
	assert_true(same("20 W", "20.0 w"));
	assert_true(same("007", "7"));
	assert_true(same("-0", "0"));
	assert_true(same("+5 mm", "5 mm"));
	assert_true(same(".5", "0.5"));
	assert_true(same("50%", "50 %"));
	assert_false(same("-5", "5"));
	value_is("4.80 kg", "4.8 kg");
	value_is("100.000", "100");
	value_is("-0.50", "-0.5");
	/* Not numbers: addresses, versions, words with digits. */
	value_is("10.0.0.1", "10.0.0.1");
	value_is("v1.10", "v1.10");
	assert_false(same("1.2.30", "1.2.3"));
	value_is("p05", "p05");
	value_is("x-05", "x-05");
}

/* A unit that does not start with an ASCII letter is split from its
 * number as "kg" is (issue 56): the units of site-example/ and the
 * pairs that opened false cross-layer conflicts. */
static void
test_value_unicode_units(void **state)
{
	static const char *const units[] = { "°C", "µm", "µm/h", "Ω", "‰",
	    "″", "°" };

	(void)state;
	assert_true(same("20°C", "20 °C"));
	assert_true(same("5µm", "5 µm"));
	assert_true(same("5.0µm", "5 µm"));
	assert_true(same("10Ω", "10 Ω"));
	assert_true(same("3‰", "3 ‰"));
	assert_true(same("2″", "2 ″"));
	assert_false(same("20°C", "21 °C"));
	assert_false(same("5µm", "5 mm"));
	value_is("20°C", "20 °c");
	value_is("0.50µm/h", "0.5 µm/h");
	/* Each unit of the example, glued and apart, compares equal. */
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		char glued[32], apart[32];

		assert_true(snprintf(glued, sizeof(glued), "15%s", units[i]) <
		    (int)sizeof(glued));
		assert_true(snprintf(apart, sizeof(apart), "15.0 %s",
		    units[i]) < (int)sizeof(apart));
		assert_true(same(glued, apart));
	}
	/* A word that holds digits stays a word. */
	value_is("p05µ", "p05µ");
}

/* Singular stems for preference topics. */
static void
test_singular(void **state)
{
	(void)state;
	singular_is("workflows", "workflow");
	singular_is("diffs", "diff");
	singular_is("policies", "policy");
	singular_is("boxes", "box");
	singular_is("branches", "branch");
	singular_is("classes", "class");
	singular_is("status", "status");
	singular_is("analysis", "analysis");
	singular_is("class", "class");
	singular_is("tabs", "tab");
	singular_is("gas", "gas");     /* too short to touch */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ident),
		cmocka_unit_test(test_value_text),
		cmocka_unit_test(test_value_numbers),
		cmocka_unit_test(test_value_unicode_units),
		cmocka_unit_test(test_singular),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
