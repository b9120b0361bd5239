/*
 * fact_words.c: a fact's value in words (see fact_words.h).
 */
#include <string.h>

#include "util/text.h"
#include "words/fact_words.h"

const char *
words_prop(const json_t *props, const char *key, char *buf, size_t size)
{
	const json_t *v = json_object_get(props, key);

	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v) && size >= TEXT_INT_SIZE) {
		(void)text_int(buf, (long long)json_integer_value(v));
		return buf;
	}
	if (json_is_real(v))
		return text_real(buf, size, json_real_value(v)) > 0 ? buf : "";
	return "";
}

void
words_entity_value(strbuf *sb, const char *type, const json_t *properties,
    const char *description)
{
	char b1[64], b2[64];
	const char *v = words_prop(properties, "value", b1, sizeof(b1));
	const char *u = words_prop(properties, "unit", b2, sizeof(b2));

	if (v[0] == '\0' && type != NULL && strcmp(type,
	    "validation_claim") == 0)
		v = words_prop(properties, "verdict", b1, sizeof(b1));
	if (v[0] == '\0') {
		strbuf_puts(sb, description != NULL ? description : "");
		return;
	}
	strbuf_puts(sb, v);
	if (u[0] != '\0')
		strbuf_printf(sb, " %s", u);
}

int
words_props_may_value(const char *text)
{
	return text == NULL || strchr(text, '\\') != NULL ||
	    strstr(text, "value") != NULL || strstr(text, "verdict") != NULL;
}
