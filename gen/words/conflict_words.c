/*
 * conflict_words.c: a conflict said as a person would (see
 * conflict_words.h).
 */
#include <stdlib.h>
#include <string.h>

#include "words/conflict_words.h"

#define DOT " \xc2\xb7 "          /* " · " */

void
words_slot(strbuf *sb, const char *slot, const char *project_name)
{
	for (const char *p = slot != NULL ? slot : ""; *p != '\0'; p++)
		strbuf_putc(sb, *p == '_' ? ' ' : *p);
	if (project_name != NULL && project_name[0] != '\0')
		strbuf_printf(sb, ", %s", project_name);
}

void
words_origin(strbuf *sb, enum fact_layer layer, const char *source)
{
	if (layer == LAYER_STATE)
		strbuf_puts(sb, "trusted state");
	else if (layer == LAYER_ENTITY)
		strbuf_puts(sb, "engineering record");
	else {
		/* A memory's source is its type: never said. */
		strbuf_puts(sb, "memory");
		return;
	}
	if (source != NULL && source[0] != '\0')
		strbuf_printf(sb, ": %s", source);
}

void
words_side(strbuf *sb, const struct words_side *s)
{
	strbuf_puts(sb, s->value != NULL && s->value[0] != '\0' ? s->value :
	    "(empty)");
	if (s->layer == 0)
		return;
	strbuf_puts(sb, " (");
	words_origin(sb, s->layer, s->source);
	strbuf_putc(sb, ')');
}

void
words_sides(strbuf *sb, const struct words_side *v, size_t n)
{
	strbuf seen, one;
	int said = 0;

	strbuf_init(&seen);
	strbuf_init(&one);
	for (size_t i = 0; i < n; i++) {
		strbuf_reset(&one);
		/* '\n' never occurs in a side's words: the separator. */
		strbuf_putc(&one, '\n');
		words_side(&one, &v[i]);
		strbuf_putc(&one, '\n');
		if (seen.len > 0 && strstr(seen.data, one.data) != NULL)
			continue;
		strbuf_add(&seen, one.data, one.len);
		strbuf_puts(sb, said++ ? DOT : "");
		strbuf_add(sb, one.data + 1, one.len - 2);
	}
	strbuf_free(&seen);
	strbuf_free(&one);
}

void
words_from(strbuf *sb, const struct words_side *s)
{
	size_t at = sb->len;

	words_origin(sb, s->layer, s->source);
	if (s->date != NULL && s->date[0] != '\0' &&
	    strstr(sb->data + at, s->date) == NULL)
		strbuf_printf(sb, ", %s", s->date);
}

/* Side s as the statement says it, into sb: its value, and unless
 * brief its origin, date and value now in parentheses. */
static void
statement_side(strbuf *sb, const struct words_side *s, int brief)
{
	strbuf_puts(sb, s->value != NULL && s->value[0] != '\0' ? s->value :
	    "(empty)");
	if (brief || s->layer == 0)
		return;
	strbuf_puts(sb, " (");
	words_from(sb, s);
	if (s->now != NULL)
		strbuf_printf(sb, "; now: %s", s->now[0] != '\0' ? s->now :
		    "(empty)");
	strbuf_putc(sb, ')');
}

void
words_statement(strbuf *sb, const char *name, const struct words_side *v,
    size_t n, int brief)
{
	strbuf seen, one;
	int said = 0;

	strbuf_init(&seen);
	strbuf_init(&one);
	strbuf_printf(sb, "%s: ", name != NULL ? name : "");
	for (size_t i = 0; i < n; i++) {
		strbuf_reset(&one);
		/* '\n' never occurs in a side's words: the separator. */
		strbuf_putc(&one, '\n');
		statement_side(&one, &v[i], brief);
		strbuf_putc(&one, '\n');
		if (seen.len > 0 && strstr(seen.data, one.data) != NULL)
			continue;
		strbuf_add(&seen, one.data, one.len);
		strbuf_puts(sb, said++ ? " vs " : "");
		strbuf_add(sb, one.data + 1, one.len - 2);
	}
	strbuf_free(&seen);
	strbuf_free(&one);
}

void
words_favours(strbuf *sb, const struct words_side *s)
{
	strbuf_puts(sb, "the trust order favours ");
	strbuf_puts(sb, s->value != NULL && s->value[0] != '\0' ? s->value :
	    "(empty)");
	strbuf_puts(sb, " (");
	words_origin(sb, s->layer, NULL);
	strbuf_putc(sb, ')');
}

int
words_side_json(struct words_side *out, const json_t *m)
{
	const json_t *now = json_object_get(m, "value_now");

	memset(out, 0, sizeof(*out));
	out->layer = (enum fact_layer)layer_of_kind(json_string_value(
	    json_object_get(m, "kind")));
	out->value = json_is_string(now) ? json_string_value(now) :
	    json_string_value(json_object_get(m, "value_then"));
	out->source = json_string_value(json_object_get(m, "source"));
	return out->layer != 0 ? 0 : -1;
}
