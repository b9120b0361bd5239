/*
 * site_conflicts.h: the page family of conflicts (see families.h): the
 * review queue, one page per conflict, and their api/ JSON.
 */
#ifndef MIRROR_SITE_CONFLICTS_H
#define MIRROR_SITE_CONFLICTS_H

#include "site/page.h"

/* Every conflict's page and JSON, then the queue. Returns 0 or < 0
 * with err set. */
int conflict_pages(const struct page_ctx *pc, mirror_error *err);

/*
 * Word each conflict of m's question as a person says it, from its
 * members now: "Which is right for Spindle max speed, P06 Polisher: 300
 * rpm (trusted state: spec) · 350 rpm (engineering record: log)?"; every
 * page that names a conflict asks it. Also the same question of the
 * members' values when detected (question_then), which the change logs
 * (changes.md, its JSON and the feed) say, so that an entry keeps the
 * words of its moment. Idempotent.
 */
void conflict_words_fill(struct site_model *m);

/* Conflict c in words for a list on its project's page: a new object
 * of slot (as a person says it, without the project) and sides (every
 * side now, with where it comes from). */
json_t *conflict_said_json(const struct site_model *m,
    const struct conflict *c);

/* The slot of conflict c as a person says it, with its project's
 * display name, into sb: "Spindle max speed, P06 Polisher". */
void conflict_slot_words(strbuf *sb, const struct site_model *m,
    const struct conflict *c);

#endif
