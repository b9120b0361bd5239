/*
 * history_words.h: what a mirror commit changed in the facts and
 * conflicts, in words, worked out from the JSON twins alone.
 *
 * The input is the changed files of one commit, each as its path in the
 * site and its text before and after (NULL: the file was added or
 * removed). Only api/projects/<slug>.json, api/conflicts/<slug>.json,
 * api/conflicts/projects/<project slug>.json and api/checks/<project
 * slug>.json are read, and api/health.json for
 * the open totals: hw_wants says which, so the caller reads no other
 * blob. The first commit names every project from the paths of the
 * project files alone (hw_events_project). No libgit2 here.
 *
 *   facts     the JSON objects of a project file that hold "anchor",
 *             "layer", "id", "label", "value" and "status", deduplicated
 *             by anchor (first in document order); compared by anchor:
 *             added, changed (value), retired (active -> not active),
 *             status changed, removed.
 *   conflicts one file each, or one file per project listing them by
 *             id (each matched by id within the two lists): opened (new
 *             file or entry), members joined, resolved (the winner is
 *             the one member still active when the others went active
 *             -> superseded), dismissed, closed by the sweep
 *             (resolved_by "sweep"), other status changes, gone; a
 *             conflict's own file removed where a project's list has it
 *             (a site upgraded to the lists) says nothing.
 *   checks    one file per project, its violations by id: newly failing
 *             (open now, not before), passing again (open before, closed
 *             now); a violation open in a removed file of one violation
 *             (a site of one page per check, upgraded) is not new;
 *             counted with the conflicts ("2 checks newly failing").
 *
 * Output, for git_message.c:
 *
 *   subject   one line: the change itself when it is one thing (one fact
 *             event, or one conflict event whose members explain every
 *             fact event), else counts in words with at most
 *             HW_SUBJECT_PROJECTS project names; "" when no fact or
 *             conflict changed (the caller keeps its page count). The
 *             first commit (initial) summarises api/health.json instead,
 *             and names every project (at most HW_PROJECT_NAMES, then
 *             "and N more").
 *   totals    "Open now: 15 conflicts, 21 checks (0 errors, 21
 *             warnings)" and a newline, from api/health.json when it
 *             changed (it does whenever the store did), else "": the
 *             state after the commit, so "how many are open now" needs
 *             no arithmetic over earlier commits. Not in the subject,
 *             which says what changed and is long enough already.
 *   body      lines grouped per project (a heading "Project slug:",
 *             "No project:" or, first commit, "The store:", then lines
 *             indented by two spaces; a heading holds a space, so git
 *             never takes it for a trailer), each fact and conflict named by its
 *             label or slot in words and by its [id]; at most
 *             HW_BODY_LINES lines, then "  and N more". No blank line.
 *   trailers  "Resolved-by: NAME" / "Dismissed-by: NAME" lines, one per
 *             human decision, ordered by conflict id.
 *
 * Store text is data: every value is cleaned (text_clean), its
 * whitespace runs (newlines included) collapsed to one space, and cut
 * after its last whole word within HW_VALUE_MAX characters, then
 * " (N more characters)" (inside a word only when one word is longer
 * than that; never an ellipsis, which reads as the value's), so no value
 * can start a line, open a paragraph or forge a trailer. Same input,
 * same output, byte for byte.
 */
#ifndef MIRROR_HISTORY_WORDS_H
#define MIRROR_HISTORY_WORDS_H

#include <stddef.h>

#include "util/strbuf.h"

#define HW_VALUE_MAX 120       /* characters of a value, then how many
                                  more */
#define HW_BODY_LINES 60       /* lines of the facts and conflicts part */
#define HW_SUBJECT_PROJECTS 3  /* project names in a counts subject */
#define HW_PROJECT_NAMES 40    /* project names in the first commit */

struct hw_file {
	const char *path;       /* '/'-separated, relative to the site */
	const char *old_text;   /* NULL: added in this commit */
	size_t old_len;
	const char *new_text;   /* NULL: removed in this commit */
	size_t new_len;
};

struct hw_words {
	strbuf subject;         /* no newline; "" when nothing in words */
	strbuf body;            /* '\n'-terminated lines, or "" */
	strbuf trailers;        /* '\n'-terminated trailer lines, or "" */
	strbuf totals;          /* "Open now: ...\n", or "" */
	size_t fact_events;     /* what was found, for callers and tests */
	size_t conflict_events;
};

void hw_init(struct hw_words *w);
void hw_free(struct hw_words *w);

/*
 * The one person whose decisions w's commit holds: the NAME of its
 * "Resolved-by: NAME" and "Dismissed-by: NAME" trailers when there is
 * at least one and all name the same person, as a new string; else
 * NULL (none, or decisions of several people).
 */
char *hw_reviewer(const struct hw_words *w);

/*
 * Does the message need the texts of path? Returns 1 for
 * api/health.json, the conflict twins and, unless initial, the project
 * and check twins, else 0.
 */
int hw_wants(const char *path, int initial);

/*
 * Describe the n changed files (any order; files hw_wants refuses are
 * skipped) into w, which hw_init prepared. initial: the first commit,
 * with no parent. Text that is not JSON of the expected shape counts as
 * no facts and no conflict, so this never fails: it returns nothing.
 */
void hw_describe(struct hw_words *w, const struct hw_file *files, size_t n,
    int initial);

/*
 * hw_describe a file at a time, so that a caller holds one file's texts
 * at once (not those of a commit that changes every project) and may
 * read them on several threads:
 *  - hw_file_events: f's events (nothing when hw_wants refuses it) as a
 *    new set; it reads f alone, so any thread may call it;
 *  - hw_events_take: append part's events (and, initial, the health
 *    file) to into, in the files' order, and free part;
 *  - hw_events_words: into w (hw_init'ed) what hw_describe would have
 *    written for the files taken, then free h.
 * hw_events_new makes an empty set; hw_events_free frees one not put
 * into words (NULL is fine). hw_events_project notes, in the first
 * commit, the project whose twin is at path (api/projects/<slug>.json;
 * any other path is ignored), from the path alone: the caller passes
 * every added path, the texts of none.
 */
struct hw_events;
struct hw_events *hw_events_new(int initial);
struct hw_events *hw_file_events(const struct hw_file *f, int initial);
void hw_events_take(struct hw_events *into, struct hw_events *part);
void hw_events_words(struct hw_words *w, struct hw_events *h);
/* 1 when h holds api/health.json's text (the open totals' source),
 * else 0. */
int hw_events_has_health(const struct hw_events *h);
/* Give h api/health.json's text as it is now (len bytes, copied), for
 * the totals of a commit that did not change it (a template change
 * alone); nothing when h holds one already. Returns nothing. */
void hw_events_health(struct hw_events *h, const char *text, size_t len);
void hw_events_free(struct hw_events *h);
void hw_events_project(struct hw_events *h, const char *path);

#endif
