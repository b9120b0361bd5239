/*
 * test_fact_words.c: an entity's value as its row shows it
 * (gen/words/fact_words.c), and the test on its properties' text that
 * lets the A-Z skip parsing them: whenever it says no member can give
 * the value, the parsed properties give the description.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "words/fact_words.h"

/* words_entity_value of type, the parsed text props and description, as
 * a new string in sb (the caller frees it). */
static const char *
value_of(strbuf *sb, const char *type, const char *props,
    const char *description)
{
	json_t *p = props != NULL ? json_loads(props, 0, NULL) : NULL;

	strbuf_init(sb);
	words_entity_value(sb, type, p, description);
	json_decref(p);
	return sb->data != NULL ? sb->data : "";
}

static void
test_entity_value(void **state)
{
	strbuf sb;

	(void)state;
	assert_string_equal(value_of(&sb, "parameter",
	    "{\"value\": \"2.7\", \"unit\": \"mm\"}", "d"), "2.7 mm");
	strbuf_free(&sb);
	assert_string_equal(value_of(&sb, "parameter", "{\"value\": 3}",
	    "d"), "3");
	strbuf_free(&sb);
	/* A unit without a value says nothing of it. */
	assert_string_equal(value_of(&sb, "parameter", "{\"unit\": \"mm\"}",
	    "the description"), "the description");
	strbuf_free(&sb);
	/* A verdict stands in for a validation claim's value alone. */
	assert_string_equal(value_of(&sb, "validation_claim",
	    "{\"verdict\": \"holds\"}", "d"), "holds");
	strbuf_free(&sb);
	assert_string_equal(value_of(&sb, "system",
	    "{\"verdict\": \"holds\"}", "d"), "d");
	strbuf_free(&sb);
	assert_string_equal(value_of(&sb, "system", NULL, NULL), "");
	strbuf_free(&sb);
}

/* Each text words_props_may_value answers 0 for gives the description,
 * whatever the type; a text whose key is spelt with an escape, or that
 * names the member, is answered 1. */
static void
test_props_may_value(void **state)
{
	static const struct { const char *text; int may; } cases[] = {
		{ "{}", 0 },
		{ "{\"unit\": \"mm\"}", 0 },
		{ "{\"values\": [1]}", 1 },
		{ "{\"value\": \"1\"}", 1 },
		{ "{\"verdict\": \"ok\"}", 1 },
		{ "{\"val\\u0075e\": \"1\"}", 1 },
		{ "{\"verd\\u0069ct\": \"ok\"}", 1 },
		{ "{\"note\": \"a value\"}", 1 },
		{ "{\"mass\": 3, \"unit\": \"kg\"}", 0 },
		{ "not json", 0 },
		{ NULL, 1 },
	};
	static const char *const types[] = { "parameter",
	    "validation_claim" };
	strbuf sb;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		int may = words_props_may_value(cases[i].text);

		if (may != cases[i].may)
			fail_msg("%s: %d", cases[i].text, may);
		for (size_t t = 0; !may && t < 2; t++) {
			assert_string_equal(value_of(&sb, types[t],
			    cases[i].text, "desc"), "desc");
			strbuf_free(&sb);
		}
	}
	/* An escaped key does give the value: the text cannot be
	 * skipped. */
	assert_string_equal(value_of(&sb, "parameter",
	    "{\"val\\u0075e\": \"7\"}", "desc"), "7");
	strbuf_free(&sb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entity_value),
		cmocka_unit_test(test_props_may_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
