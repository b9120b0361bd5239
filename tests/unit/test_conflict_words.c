/*
 * test_conflict_words.c: a conflict said as a person would
 * (gen/words/conflict_words.c): the slot with its case kept and the
 * project's name, each side with where it comes from, the statement
 * "NAME: X (from, date) vs Y (from)", what the trust order favours, and
 * a side read from the JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "words/conflict_words.h"

static const struct words_side spindle[] = {
	{ LAYER_STATE, "300 rpm", "requirements spec rev A", NULL, NULL },
	{ LAYER_ENTITY, "350 rpm", "commissioning log 2026-03-16", NULL, NULL },
	{ LAYER_MEMORY, "250 rpm", "knowledge", NULL, NULL },
};

static void
test_slot(void **state)
{
	strbuf sb;

	(void)state;
	strbuf_init(&sb);
	words_slot(&sb, "spindle_max_speed", "P06 Polisher");
	assert_string_equal(sb.data, "spindle max speed, P06 Polisher");
	strbuf_reset(&sb);
	/* No letter changes case: the name as the store gives it. */
	words_slot(&sb, "FPGA_part of model Bench modal FEA", NULL);
	assert_string_equal(sb.data, "FPGA part of model Bench modal FEA");
	strbuf_reset(&sb);
	words_slot(&sb, "_x", "");
	assert_string_equal(sb.data, " x");
	strbuf_free(&sb);
}

static void
test_sides(void **state)
{
	struct words_side twice[] = { spindle[0], spindle[0], { LAYER_ENTITY,
	    "", NULL, NULL, NULL }, { 0, "bare", NULL, NULL, NULL } };
	strbuf sb;

	(void)state;
	strbuf_init(&sb);
	words_sides(&sb, spindle, 3);
	assert_string_equal(sb.data, "300 rpm (trusted state: requirements "
	    "spec rev A) \xc2\xb7 350 rpm (engineering record: commissioning "
	    "log 2026-03-16) \xc2\xb7 250 rpm (memory)");
	strbuf_reset(&sb);
	/* The same words once; an empty value; a side of no kind. */
	words_sides(&sb, twice, 4);
	assert_string_equal(sb.data, "300 rpm (trusted state: requirements "
	    "spec rev A) \xc2\xb7 (empty) (engineering record) \xc2\xb7 bare");
	strbuf_free(&sb);
}

static void
test_statement_favours(void **state)
{
	struct words_side found[] = { spindle[0], spindle[1], spindle[2],
	    spindle[0] };
	strbuf sb;

	(void)state;
	/* A date the source already says is not said again; a value now
	 * where it differs; the same wording once. */
	found[0].date = "2025-04-14";
	found[1].date = "2026-03-16";
	found[1].now = "360 rpm";
	found[2].date = "2025-04-28";
	found[3].date = "2025-04-14";
	strbuf_init(&sb);
	words_statement(&sb, "spindle max speed", found, 4, 0);
	assert_string_equal(sb.data, "spindle max speed: 300 rpm (trusted "
	    "state: requirements spec rev A, 2025-04-14) vs 350 rpm "
	    "(engineering record: commissioning log 2026-03-16; now: 360 "
	    "rpm) vs 250 rpm (memory, 2025-04-28)");
	strbuf_reset(&sb);
	words_statement(&sb, "spindle max speed", found, 4, 1);
	assert_string_equal(sb.data, "spindle max speed: 300 rpm vs 350 rpm "
	    "vs 250 rpm");
	strbuf_reset(&sb);
	words_favours(&sb, &spindle[0]);
	assert_string_equal(sb.data, "the trust order favours 300 rpm "
	    "(trusted state)");
	strbuf_free(&sb);
}

static void
test_side_json(void **state)
{
	json_t *now = json_pack("{s:s, s:s, s:s, s:s}", "kind", "entity",
	    "value_then", "old", "value_now", "new", "source", "log");
	json_t *gone = json_pack("{s:s, s:s, s:n, s:n}", "kind", "memory",
	    "value_then", "old", "value_now", "source");
	json_t *bad = json_pack("{s:s}", "value_then", "x");
	struct words_side s;

	(void)state;
	assert_int_equal(words_side_json(&s, now), 0);
	assert_string_equal(s.value, "new");
	assert_string_equal(s.source, "log");
	assert_int_equal(words_side_json(&s, gone), 0);
	assert_string_equal(s.value, "old");
	assert_null(s.source);
	assert_int_equal(words_side_json(&s, bad), -1);
	json_decref(now);
	json_decref(gone);
	json_decref(bad);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slot),
		cmocka_unit_test(test_sides),
		cmocka_unit_test(test_statement_favours),
		cmocka_unit_test(test_side_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
