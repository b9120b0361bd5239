/*
 * fuzz_slot.c: libFuzzer harness for the slot rule table (core/sweep/slot.c).
 *
 * Input: one fact row as lines, the last field running to the end:
 *
 *   LK            L: layer (s state, e entity, m memory; another byte
 *                 picks one by its value), K: what the known-key
 *                 callback answers (1 yes, 0 no, x failure, n no
 *                 callback at all)
 *   project
 *   type          state category, entity_type or memory_type
 *   name          state key or entity name
 *   parent        an entity's part_of parent
 *   component     the component of a uses_material edge
 *   properties    entity properties (JSON text)
 *   text...       state value, description or memory content
 *
 * A field missing from a short input is NULL (type and project ""), as
 * the nullable columns of the store give it. Asserts:
 *   - slot_claim returns 1, 0 or a negative status; < 0 comes with a
 *     message (one line); 0 and < 0 leave the claim zeroed;
 *   - a claim has a kind, a slot, a value and norm == norm_value(value);
 *     its cross-layer key, when any, is non-empty and in norm_ident form;
 *   - the same row claims the same thing twice (a pure function);
 *   - valid UTF-8 in: the slot is a JSON array of 2 to 5 strings whose
 *     first is the project, and slot, value and key are valid UTF-8;
 *   - slot_describe and slot_question on the claim, and on the text as
 *     an arbitrary stored slot key, return strings (valid UTF-8 when
 *     their input is), never crash.
 * ASan/UBSan watch every call for memory errors and leaks.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common.h"
#include "sweep/normalize.h"
#include "sweep/slot.h"

static int
known_cb(void *arg, const char *project, const char *key,
    mirror_error *err)
{
	int answer = *(const int *)arg;

	FUZZ_CHECK(project != NULL && key != NULL && key[0] != '\0',
	    "known asked about a NULL or empty key");
	if (answer < 0)
		return mirror_fail(err, MIRROR_EIO, "known failed on '%s'",
		    key);
	return answer;
}

static int
str_eq(const char *a, const char *b)
{
	return (a == NULL && b == NULL) ||
	    (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static int
utf8_ok(const char *s)
{
	return s == NULL || fuzz_utf8_valid(s, strlen(s));
}

/* The claim of a valid UTF-8 row: slot shape and text validity. */
static void
check_shape(const struct claim *c, const struct fact *f)
{
	json_error_t jerr;
	json_t *arr = json_loads(c->slot, 0, &jerr);
	size_t n;

	FUZZ_CHECK(json_is_array(arr), "slot is not a JSON array: %s (%s)",
	    c->slot, jerr.text);
	n = json_array_size(arr);
	FUZZ_CHECK(n >= 2 && n <= 5, "slot of %zu parts: %s", n, c->slot);
	for (size_t i = 0; i < n; i++)
		FUZZ_CHECK(json_is_string(json_array_get(arr, i)),
		    "slot part %zu not a string: %s", i, c->slot);
	FUZZ_CHECK(strcmp(json_string_value(json_array_get(arr, 0)),
	    f->project) == 0, "slot does not start with the project: %s",
	    c->slot);
	json_decref(arr);
	FUZZ_CHECK(utf8_ok(c->value) && utf8_ok(c->norm) &&
	    utf8_ok(c->xkey) && utf8_ok(c->valid_from) &&
	    utf8_ok(c->valid_until), "invalid UTF-8 claimed from valid input");
}

static void
check_describe(const char *kind, const char *key, const char *value,
    int valid)
{
	char *d = slot_describe(kind, key);
	char *q = slot_question(kind, key, value);

	FUZZ_CHECK(d != NULL && q != NULL, "describe returned NULL");
	if (valid)
		FUZZ_CHECK(utf8_ok(d) && utf8_ok(q), "describe: invalid "
		    "UTF-8 from valid input: %s", d);
	free(d);
	free(q);
}

static void
check_claim(const struct fact *f, slot_known_fn *known, int *answer,
    int valid)
{
	struct claim c, again;
	mirror_error err, err2;
	int rc, rc2;

	mirror_error_clear(&err);
	rc = slot_claim(&c, f, known, answer, &err);
	FUZZ_CHECK(rc >= -MIRROR_ECONFLICTS && rc <= 1, "rc %d", rc);
	if (rc <= 0) {
		static const struct claim zero;

		FUZZ_CHECK(memcmp(&c, &zero, sizeof(c)) == 0,
		    "claim not zeroed on rc %d", rc);
		if (rc < 0)
			FUZZ_CHECK(err.msg[0] != '\0' &&
			    strchr(err.msg, '\n') == NULL && err.status == -rc,
			    "bad error for rc %d: [%s]", rc, err.msg);
		return;
	}
	FUZZ_CHECK(c.slot_kind != NULL && c.slot != NULL && c.value != NULL &&
	    c.norm != NULL, "claim with a NULL part");
	FUZZ_CHECK(strcmp(c.slot_kind, "cross_layer") == 0 ||
	    strcmp(c.slot_kind, "entity_slot") == 0 ||
	    strcmp(c.slot_kind, "memory_slot") == 0, "kind %s", c.slot_kind);
	{
		char *norm = norm_value(c.value);

		FUZZ_CHECK(strcmp(norm, c.norm) == 0, "norm [%s] is not "
		    "norm_value(value) [%s]", c.norm, norm);
		free(norm);
	}
	if (c.xkey != NULL) {
		char *id = norm_ident(c.xkey);

		FUZZ_CHECK(c.xkey[0] != '\0' && strcmp(id, c.xkey) == 0,
		    "cross-layer key [%s] not in ident form", c.xkey);
		free(id);
	}
	if (valid)
		check_shape(&c, f);
	/* A pure function: the same row claims the same again. */
	mirror_error_clear(&err2);
	rc2 = slot_claim(&again, f, known, answer, &err2);
	FUZZ_CHECK(rc2 == rc && str_eq(c.slot, again.slot) &&
	    str_eq(c.value, again.value) && str_eq(c.xkey, again.xkey) &&
	    str_eq(c.valid_from, again.valid_from), "not deterministic");
	claim_free(&again);
	check_describe(c.slot_kind, c.slot, c.value, valid);
	claim_free(&c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *head, *fields[7] = { NULL };
	struct fact f;
	int answer = 1, valid;
	slot_known_fn *known = known_cb;
	size_t i;

	if (size > 16384)
		return 0;
	valid = fuzz_utf8_valid((const char *)data, size) &&
	    memchr(data, '\0', size) == NULL;
	head = fuzz_field(&data, &size, '\n');
	for (i = 0; i < 6 && size > 0; i++)
		fields[i] = fuzz_field(&data, &size, '\n');
	if (size > 0 || i == 6)
		fields[6] = fuzz_strndup(data, size);
	memset(&f, 0, sizeof(f));
	switch (head[0]) {
	case 's': f.layer = LAYER_STATE; break;
	case 'e': f.layer = LAYER_ENTITY; break;
	case 'm': f.layer = LAYER_MEMORY; break;
	default: f.layer = (enum fact_layer)(1 + (unsigned char)head[0] % 3);
	}
	if (head[0] != '\0') {
		switch (head[1]) {
		case '0': answer = 0; break;
		case 'x': answer = -1; break;
		case 'n': known = NULL; break;
		default: answer = 1; break;
		}
	}
	f.id = "fuzz-row";
	f.project = fields[0] != NULL ? fields[0] : "";
	f.type = fields[1] != NULL ? fields[1] : "";
	f.name = fields[2];
	f.parent = fields[3];
	f.component = fields[4];
	f.properties = fields[5];
	f.text = fields[6];
	check_claim(&f, known, &answer, valid);
	/* Any text as a stored slot key: malformed ones describe as-is. */
	if (f.text != NULL) {
		check_describe("entity_slot", f.text, f.name, valid);
		check_describe("memory_slot", f.text, NULL, valid);
		check_describe("cross_layer", f.text, f.type, valid);
	}
	free(head);
	for (i = 0; i < 7; i++)
		free(fields[i]);
	return 0;
}
