/*
 * test_date_words.c: a store date said as a person reads it
 * (gen/words/date_words.c): "28 Nov 2026" from "2026-11-28 ...", and
 * nothing from a timestamp that is no calendar date.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "words/date_words.h"

static void
test_words(void **state)
{
	char out[DATE_WORDS_SIZE];

	(void)state;
	assert_int_equal(date_words(out, "2026-11-28 14:02:00"), 0);
	assert_string_equal(out, "28 Nov 2026");
	/* The day without its leading zero; the time is not looked at. */
	assert_int_equal(date_words(out, "2025-03-01T09:00:00Z"), 0);
	assert_string_equal(out, "1 Mar 2025");
	assert_int_equal(date_words(out, "2024-01-31"), 0);
	assert_string_equal(out, "31 Jan 2024");
	assert_int_equal(date_words(out, "1999-12-09"), 0);
	assert_string_equal(out, "9 Dec 1999");
}

static void
test_not_a_date(void **state)
{
	static const char *const bad[] = { "2026-13-01", "2026-00-10",
	    "2026-11-00", "2026-11-32", "2026-1-28", "26-11-28", "2026/11/28",
	    "2026-11-2", "", "yesterday", "２０２６-11-28" };
	char out[DATE_WORDS_SIZE];

	(void)state;
	for (size_t k = 0; k < sizeof(bad) / sizeof(*bad); k++) {
		strcpy(out, "x");
		assert_int_equal(date_words(out, bad[k]), -1);
		assert_string_equal(out, "");
		assert_int_equal(date_words_valid(bad[k]), 0);
	}
	assert_int_equal(date_words_valid(NULL), 0);
	assert_int_equal(date_words(out, NULL), -1);
	assert_int_equal(date_words_valid("2026-02-31"), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_not_a_date),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
