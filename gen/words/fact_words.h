/*
 * fact_words.h: a fact's value said as the pages say it, shared by the
 * pages (gen/site) and the commit messages (gen/git), which read the
 * same entity from its store fields or from api/projects/<slug>.json.
 */
#ifndef MIRROR_FACT_WORDS_H
#define MIRROR_FACT_WORDS_H

#include <stddef.h>

#include <jansson.h>

#include "util/strbuf.h"

/* Property key of props (may be NULL) as words: a string as it is, a
 * number in its shortest form written into buf (size bytes), "" when
 * there is none or it is neither. Returns a string borrowed from props
 * or buf. */
const char *words_prop(const json_t *props, const char *key, char *buf,
    size_t size);

/*
 * An entity's value as its row shows it, appended to sb: its property
 * "value" (a validation claim's "verdict" when it has none) with the
 * property "unit" after a space when there is one, else description.
 * A property that is a string is said as it is, a number in its
 * shortest form, anything else as nothing. properties may be NULL.
 */
void words_entity_value(strbuf *sb, const char *type,
    const json_t *properties, const char *description);

/*
 * 1 when an entity's properties text (JSON, unparsed; NULL: unknown)
 * may hold a member words_entity_value reads for a value ("value", or
 * "verdict"; "unit" counts only beside one); 0 when it cannot, and the
 * value is the description: a caller may then pass NULL properties
 * without parsing them. A key is spelt in the text as itself or with
 * escapes, so a text without either word and without a backslash has
 * neither.
 */
int words_props_may_value(const char *text);

#endif
