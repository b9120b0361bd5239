/*
 * git_message.h: the commit message of a mirror build, in words.
 *
 *   p06-polisher spindle_max_speed: 300 rpm → 320 rpm
 *
 *   Project p06-polisher:
 *     spindle_max_speed [p06-st-spindle-max, state] changed: 300 rpm → 320 rpm
 *
 *   Open now: 13 conflicts, 21 checks (0 errors, 21 warnings)
 *
 *   Pages changed:
 *     conflicts/cdbabf1c8eb
 *     ...
 *
 *   Mirror-Sweep-Run: sweep-20261101T000000-2
 *   Mirror-Store-Checksum: 9f86d081884c7d65
 *   Resolved-by: alice
 *
 * The subject and the facts and conflicts part come from
 * history_words.h; when no fact or conflict changed (a template or a
 * theme), the subject counts pages as before:
 * "2 conflicts opened; 7 pages changed, 1 added". The open totals
 * (history_words.h, totals) follow as a paragraph of their own either
 * way, when the words have them.
 *
 * A page is X.md and X.html together (or either alone, as 404.html):
 * it counts once. A page is "added" when every changed twin is new,
 * "removed" when every changed twin is gone, else "changed". Other
 * files (JSON, sitemap, assets) are named in the subject only when no
 * page changed. The last paragraph holds only git trailers, so
 * 'git interpret-trailers --parse' reads them.
 */
#ifndef MIRROR_GIT_MESSAGE_H
#define MIRROR_GIT_MESSAGE_H

#include <stddef.h>

#include "git/history_words.h"
#include "util/error.h"
#include "util/strbuf.h"

/* Pages listed in the body at most; the rest is "... and N more". */
#define MGIT_MESSAGE_LIST_MAX 50

enum mgit_change_kind { MGIT_ADDED = 'A', MGIT_CHANGED = 'M',
    MGIT_REMOVED = 'D' };

struct mgit_change {
	const char *path;      /* '/'-separated, relative to the site */
	int kind;              /* enum mgit_change_kind */
};

struct mgit_counts {
	size_t pages_added, pages_changed, pages_removed;
	size_t files_changed;  /* every changed path, pages included */
};

/* What a commit message is made of. */
struct mgit_message_in {
	const struct mgit_change *ch;   /* the n changes, any order */
	size_t n;
	const char *changes;    /* what changed, in words; may be NULL or
	                           empty */
	const struct hw_words *words;   /* hw_describe's result; may be NULL */
	const char *run_id;     /* trailers when not NULL or empty */
	const char *checksum;
};

/*
 * Append the message for in's changes to out and fill *counts. When
 * in->words has a subject, that subject, its body and its trailers are
 * used; otherwise in->changes goes before the page count in the subject.
 * Control characters in changes and paths are shown as spaces and '?'.
 * Returns 0, or -MIRROR_EINPUT when a trailer value is not one plain
 * line (it could forge other trailers).
 */
int mgit_message(strbuf *out, struct mgit_counts *counts,
    const struct mgit_message_in *in, mirror_error *err);

/*
 * Append what a sweep changed, in words, for history_request.changes:
 * "2 conflicts opened, 1 resolved, 3 members added" (zero counts are
 * left out; nothing at all when every count is zero). resolved counts
 * the conflicts the sweep closed; members_added, the rows that joined
 * conflicts already open.
 */
void mgit_sweep_words(strbuf *out, long long opened, long long resolved,
    long long members_added);

#endif
