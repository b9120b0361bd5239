/*
 * fuzz_template.c: libFuzzer harness for the template engine
 * (gen/render/template.c, gen/render/template_render.c).
 *
 * Input: M TEMPLATE \0 JSON. M picks the mode ('h' HTML, anything else
 * Markdown; in HTML mode a second run renders with no raw content);
 * TEMPLATE runs to the first NUL byte, JSON (the page data) is the rest.
 * JSON that does not parse is rendered as NULL data ({}); JSON that is
 * not an object must be refused cleanly. Asserts:
 *   - tmpl_parse returns 0 with a template, or -MIRROR_EINPUT with *out
 *     NULL and one line "NAME:LINE: ..." naming the template;
 *   - tmpl_render returns 0 or -MIRROR_EINPUT with the same kind of
 *     line; rendering the same data twice gives the same bytes (a parsed
 *     template is immutable);
 *   - a valid UTF-8 template rendered with a valid raw slot gives valid
 *     UTF-8, whatever the data holds (values are cleaned);
 *   - the data never adds a '<' that could open markup (in Markdown
 *     one without a backslash before it): without loops or a raw slot
 *     the output holds no more of them than the template.
 * Inputs whose output could pass 16 MiB are skipped (output_bounded):
 * nested loops make output a product of list lengths by design. ASan
 * and UBSan watch for memory errors and leaks.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common.h"
#include "render/template.h"
#include "util/error.h"
#include "util/strbuf.h"

#define FUZZ_NAME "fuzz.tpl"
#define RAW "<p>raw \xe2\x9a\xa0 content</p>"

static size_t
count_sub(const char *s, size_t n, const char *sub)
{
	size_t k = strlen(sub), c = 0;

	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(s + i, sub, k) == 0)
			c++;
	return c;
}

/* The '<' that can open markup: in Markdown one not escaped by '\\'. */
static size_t
count_lt(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += s[i] == '<' && (i == 0 || s[i - 1] != '\\');
	return c;
}

/* err must be one line naming the template: "fuzz.tpl:N: ..." (or the
 * data error "fuzz.tpl: data is not a JSON object"). */
static void
check_err(int rc, const mirror_error *err)
{
	FUZZ_CHECK(rc == -MIRROR_EINPUT && err->status == MIRROR_EINPUT,
	    "rc %d status %d", rc, err->status);
	FUZZ_CHECK(strncmp(err->msg, FUZZ_NAME ":", sizeof(FUZZ_NAME)) == 0 &&
	    strchr(err->msg, '\n') == NULL, "bad message [%s]", err->msg);
}

static void
render_check(const tmpl *t, const json_t *data, const char *raw,
    const char *src, size_t srclen)
{
	strbuf a, b;
	mirror_error err;
	int rc, rc2;

	strbuf_init(&a);
	strbuf_init(&b);
	mirror_error_clear(&err);
	rc = tmpl_render(&a, t, data, raw, &err);
	if (rc < 0)
		check_err(rc, &err);
	rc2 = tmpl_render(&b, t, data, raw, &err);
	FUZZ_CHECK(rc == rc2 && a.len == b.len &&
	    memcmp(a.data, b.data, a.len) == 0, "two renders differ");
	if (rc == 0 && fuzz_utf8_valid(src, srclen))
		FUZZ_CHECK(fuzz_utf8_valid(a.data, a.len),
		    "invalid UTF-8 rendered from a valid template");
	/* Each text node is emitted at most once without a loop, so then
	 * the output holds no more markup '<' than the template. */
	if (rc == 0 && !tmpl_has_raw(t) && count_sub(src, srclen, "#each") == 0)
		FUZZ_CHECK(count_lt(a.data, a.len) <= count_lt(src, srclen),
		    "data added a '<': %zu in output, %zu in template",
		    count_lt(a.data, a.len), count_lt(src, srclen));
	strbuf_free(&a);
	strbuf_free(&b);
}

/* The longest list anywhere in v (0 for none). */
static size_t
longest_list(json_t *v)
{
	size_t best = 0, n;
	const char *key;
	json_t *item;

	if (json_is_array(v)) {
		best = json_array_size(v);
		for (size_t i = 0; i < json_array_size(v); i++)
			if ((n = longest_list(json_array_get(v, i))) > best)
				best = n;
	} else if (json_is_object(v)) {
		json_object_foreach(v, key, item)
			if ((n = longest_list(item)) > best)
				best = n;
	}
	return best;
}

/*
 * Nested loops make output a product of list lengths by design (not a
 * bug to find): 1 when template size times the longest list to the
 * power of the #each tags stays under 2^24 bytes.
 */
static int
output_bounded(const char *src, size_t srclen, json_t *data)
{
	size_t loops = count_sub(src, srclen, "#each");
	size_t list = longest_list(data), bound = srclen + 1;

	if (list < 1)
		list = 1;
	for (size_t i = 0; i < loops; i++) {
		if (bound > ((size_t)1 << 24) / list)
			return 0;
		bound *= list;
	}
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *src, *nul;
	size_t srclen;
	enum tmpl_mode mode;
	json_t *json = NULL;
	json_error_t jerr;
	mirror_error err;
	tmpl *t = NULL;
	int rc;

	if (size < 1 || size > 8192)
		return 0;
	mode = data[0] == 'h' ? TMPL_HTML : TMPL_MARKDOWN;
	src = (const char *)data + 1;
	nul = memchr(src, '\0', size - 1);
	srclen = nul != NULL ? (size_t)(nul - src) : size - 1;
	if (nul != NULL)
		json = json_loadb(nul + 1, size - 1 - srclen - 1,
		    JSON_DECODE_ANY, &jerr);
	if (!output_bounded(src, srclen, json)) {
		json_decref(json);
		return 0;
	}
	mirror_error_clear(&err);
	rc = tmpl_parse(&t, FUZZ_NAME, src, srclen, mode, &err);
	if (rc < 0) {
		FUZZ_CHECK(t == NULL, "template left on failure");
		check_err(rc, &err);
		json_decref(json);
		return 0;
	}
	FUZZ_CHECK(rc == 0 && t != NULL, "rc %d", rc);
	FUZZ_CHECK(strcmp(tmpl_name(t), FUZZ_NAME) == 0, "name");
	render_check(t, json, RAW, src, srclen);
	if (mode == TMPL_HTML)
		render_check(t, json, NULL, src, srclen);
	tmpl_free(t);
	json_decref(json);
	return 0;
}
