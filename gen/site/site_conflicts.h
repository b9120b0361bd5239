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
 * Make m ready to word its conflicts (conflict_question) until
 * conflict_words_close: each conflict's words are made when a page
 * first asks for them, once, so that a build that renders a few
 * conflicts words only those.
 */
void conflict_words_open(struct site_model *m);

/* Free what conflict_words_open and the questions made since hold. */
void conflict_words_close(struct site_model *m);

/*
 * Conflict c of m (an item of m->conflicts) as one line of plain text
 * (words_statement), its sides as found with their value now where it
 * differs: "spindle max speed: 300 rpm (trusted state: spec,
 * 2025-04-14) vs 350 rpm (engineering record: log, 2026-03-16; now: 360
 * rpm)"; then: the same of the sides as found alone, which the change
 * logs (changes.md, its JSON and the feed) say, so that an entry keeps
 * the words of its moment. The text is m's until conflict_words_close;
 * safe to call from the render's threads. A pure function of the
 * fields conflict_hash folds.
 */
const char *conflict_question(const struct site_model *m,
    const struct conflict *c, int then);

/* Conflict c in words for a list on its project's page: a new object
 * of slot (as a person says it, without the project) and sides (every
 * side now, with where it comes from). */
json_t *conflict_said_json(const struct site_model *m,
    const struct conflict *c);

/*
 * Conflict c's statement for a template (templates/README.md, doc/site.md
 * "Conflicts in words"): a new object of name (the slot as the store
 * gives it, without the project) and sides, each wording once, in trust
 * order: value (as found), from (origin and date), now (its value now
 * where it differs, with since; else null) and kept (true on the side a
 * resolution kept). Markdown marks the values up in the template.
 */
json_t *conflict_statement_json(const struct conflict *c, int since);

/* Conflict c in brief, its name and its sides' values as found, into
 * sb: "lateral support material: GF-PTFE vs PEEK" (its page's title). */
void conflict_brief_words(strbuf *sb, const struct conflict *c);

/* Conflict c's name as the store gives it, without the project, into
 * sb: "lateral support material" (a search result's title). */
void conflict_name_words(strbuf *sb, const struct conflict *c);

/* The slot of conflict c as a person says it, with its project's
 * display name, into sb: "Spindle max speed, P06 Polisher". */
void conflict_slot_words(strbuf *sb, const struct site_model *m,
    const struct conflict *c);

#endif
