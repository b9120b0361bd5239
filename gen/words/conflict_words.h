/*
 * conflict_words.h: a conflict said as a person would, shared by the
 * pages (gen/site) and the commit messages (gen/git). Pure text: the
 * callers hand in the slot's words, the project's display name and
 * each side's current value and provenance.
 */
#ifndef MIRROR_CONFLICT_WORDS_H
#define MIRROR_CONFLICT_WORDS_H

#include <stddef.h>

#include <jansson.h>

#include "util/layer.h"
#include "util/strbuf.h"

/* One side of a conflict: a member's value and its origin. */
struct words_side {
	enum fact_layer layer; /* 0 when not known */
	const char *value;     /* the value said (as found, or now) */
	const char *source;    /* provenance line ("a; b"), or NULL; a
	                          memory's (its type) is never said */
	const char *date;      /* the fact's date ("2025-05-05"), or NULL */
	const char *now;       /* its value now where it differs from
	                          value, else NULL */
};

/*
 * The slot said as a person would, into sb: slot with '_' as spaces,
 * no letter's case changed (the name as the store gives it), then
 * ", project_name" when project_name is not NULL or "":
 * "spindle max speed, P06 Polisher".
 */
void words_slot(strbuf *sb, const char *slot, const char *project_name);

/* Where a side comes from, into sb: "trusted state: requirements spec
 * rev A", "engineering record: commissioning log", "memory". */
void words_origin(strbuf *sb, enum fact_layer layer, const char *source);

/* A side as "300 rpm (trusted state: requirements spec rev A)", an
 * empty value as "(empty)", into sb; a side of no layer (0) is its
 * value alone. */
void words_side(strbuf *sb, const struct words_side *s);

/* Every side of v[0..n) joined by " · ", each distinct wording once,
 * into sb. */
void words_sides(strbuf *sb, const struct words_side *v, size_t n);

/* Where a side comes from and when, into sb: words_origin, then ",
 * DATE" when s->date is set and the origin does not already say it:
 * "memory, 2025-02-10", "trusted state: design review 2025-06-12". */
void words_from(strbuf *sb, const struct words_side *s);

/*
 * The conflict in one line of plain text, into sb (the form every page
 * marks up, doc/site.md "Conflicts in words"): "NAME: X (FROM) vs Y
 * (FROM)", FROM as words_from says it and "; now: Z" in the parentheses
 * of a side whose s->now is set; with brief the values alone, "NAME: X
 * vs Y". Each distinct wording of a side once; an empty value is
 * "(empty)".
 */
void words_statement(strbuf *sb, const char *name,
    const struct words_side *v, size_t n, int brief);

/* What the trust order favours, into sb: "the trust order favours 300
 * rpm (trusted state)". */
void words_favours(strbuf *sb, const struct words_side *s);

/*
 * Fill *out from a conflict member's JSON object (api/conflicts: kind,
 * value_now or else value_then, source); the strings stay m's. Returns
 * 0, or -1 when m has no kind.
 */
int words_side_json(struct words_side *out, const json_t *m);

#endif
