/*
 * fuzz_normalize.c: libFuzzer harness for core/sweep/normalize.c.
 *
 * Input: any bytes, taken as one C string (cut at the first NUL, as the
 * store's text reaches the sweep). Asserts, for norm_value:
 *   - idempotence: norm_value(norm_value(x)) == norm_value(x), so the
 *     sweep compares the same form however often a value is normalised;
 *   - the form: no ASCII upper case, no ASCII whitespace but single
 *     inner spaces, no trailing period;
 *   - valid UTF-8 in gives valid UTF-8 out (only ASCII is ever changed);
 * for norm_ident: idempotent, only [a-z0-9_], no '_' at either end and
 * never two in a row; for norm_singular: never lengthens the word.
 * ASan/UBSan watch every call for memory errors and leaks.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "sweep/normalize.h"

static void
check_value(const char *in)
{
	char *v = norm_value(in), *w = norm_value(v);
	size_t n = strlen(v);

	FUZZ_CHECK(strcmp(v, w) == 0, "not idempotent: [%s] -> [%s] -> [%s]",
	    in, v, w);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)v[i];

		FUZZ_CHECK(!(c >= 'A' && c <= 'Z'), "upper case in [%s]", v);
		FUZZ_CHECK(c != '\t' && c != '\n' && c != '\r' && c != '\f' &&
		    c != '\v', "whitespace other than ' ' in [%s]", v);
		FUZZ_CHECK(c != ' ' || (i > 0 && i + 1 < n && v[i + 1] != ' '),
		    "space not single and inner in [%s]", v);
	}
	FUZZ_CHECK(n == 0 || v[n - 1] != '.', "trailing period in [%s]", v);
	if (fuzz_utf8_valid(in, strlen(in)))
		FUZZ_CHECK(fuzz_utf8_valid(v, n), "invalid UTF-8 out of [%s]",
		    in);
	free(v);
	free(w);
}

static void
check_ident(const char *in)
{
	char *id = norm_ident(in), *again = norm_ident(id);
	size_t n = strlen(id);

	FUZZ_CHECK(strcmp(id, again) == 0, "ident not idempotent: [%s]", id);
	FUZZ_CHECK(strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789_") == n,
	    "ident alphabet: [%s]", id);
	FUZZ_CHECK(n == 0 || (id[0] != '_' && id[n - 1] != '_'),
	    "ident ends in '_': [%s]", id);
	FUZZ_CHECK(strstr(id, "__") == NULL, "ident '__': [%s]", id);
	free(again);
	/* norm_singular works in place on a lower-case word. */
	{
		size_t before = strlen(id);

		norm_singular(id);
		FUZZ_CHECK(strlen(id) <= before, "singular grew: [%s]", id);
	}
	free(id);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size);

	check_value(s);
	check_ident(s);
	free(s);
	return 0;
}
