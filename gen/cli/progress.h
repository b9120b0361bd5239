/*
 * progress.h: the "rendering pages" line of a long build on a terminal.
 *
 * On stderr, updated in place with '\r' at most ten times a second and
 * cleared at the end, so what stays on screen is only the summary line
 * (stdout) or an error (stderr). Silent unless enabled: cmd_build enables
 * it when stderr is a terminal and --quiet is not given, so CI logs and
 * pipes never see it. The page count is exact; a total is known only
 * per phase (projects, then conflict pages), so the line says which:
 *
 *   rendering pages: 37 done, projects 2/3
 *
 * Every function accepts NULL and then does nothing (a rehearsal render
 * has no progress). Nothing here is allocated: a struct progress lives
 * in its caller.
 */
#ifndef MIRROR_PROGRESS_H
#define MIRROR_PROGRESS_H

#include <stddef.h>
#include <time.h>

struct progress {
	int enabled;             /* draw at all */
	int drawn;               /* a line is on the screen */
	size_t width;            /* columns of the line on the screen */
	struct timespec last;    /* when it was drawn (monotonic) */
	long long interval_ns;   /* least time between draws (100 ms) */
	size_t pages;            /* pages rendered, every phase */
	const char *phase;       /* "projects", "conflict pages" or NULL */
	size_t done, total;      /* items of the phase */
	int per_page;            /* the phase's items are pages */
};

/*
 * Start p: enabled when enabled is non-zero and file descriptor 2 is a
 * terminal. Draws nothing yet.
 */
void progress_init(struct progress *p, int enabled);

/*
 * Begin a phase of total items named phase (a static string). With
 * per_page, every page rendered is one item; otherwise the caller counts
 * items with progress_item.
 */
void progress_phase(struct progress *p, const char *phase, size_t total,
    int per_page);

/* One page was rendered (the site reports each through cmd_build). */
void progress_page(struct progress *p);

/* One item of the phase is done. */
void progress_item(struct progress *p);

/* Clear the line if one was drawn; p may be reused after. */
void progress_clear(struct progress *p);

#endif
