/*
 * progress.c: the in-place progress line of a build (see progress.h).
 *
 * The monotonic clock here only paces redraws; it never reaches any
 * output file, so builds stay deterministic.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/progress.h"
#include "sys/termtext.h"

/* At most ten redraws a second: enough to look alive, cheap on a slow
 * terminal or over ssh. */
#define PROGRESS_INTERVAL_NS 100000000L

void
progress_init(struct progress *p, int enabled)
{
	memset(p, 0, sizeof(*p));
	p->enabled = enabled && isatty(STDERR_FILENO);
	p->interval_ns = PROGRESS_INTERVAL_NS;
}

/* Nanoseconds from a to b. */
static long long
elapsed_ns(const struct timespec *a, const struct timespec *b)
{
	return (long long)(b->tv_sec - a->tv_sec) * 1000000000LL +
	    (b->tv_nsec - a->tv_nsec);
}

/* Redraw the line, unless one was drawn less than an interval ago. */
static void
draw(struct progress *p)
{
	struct timespec now;
	char line[160];
	strbuf safe;
	int n;

	if (!p->enabled)
		return;
	if (clock_gettime(CLOCK_MONOTONIC, &now) != 0)
		return;
	if (p->drawn && elapsed_ns(&p->last, &now) < p->interval_ns)
		return;
	if (p->phase != NULL)
		n = snprintf(line, sizeof(line), "rendering pages: %zu done, "
		    "%s %zu/%zu", p->pages, p->phase, p->done, p->total);
	else
		n = snprintf(line, sizeof(line), "rendering pages: %zu done",
		    p->pages);
	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	/* Through the one sanitiser every printed line takes, though
	 * the phases are mirror's own words. */
	strbuf_init(&safe);
	termtext_escape(&safe, line, (size_t)n);
	n = (int)safe.len;
	/* Pad over a longer previous line instead of relying on an
	 * erase-line escape: plain text works on any terminal. */
	fprintf(stderr, "\r%s%*s", safe.data,
	    p->width > (size_t)n ? (int)(p->width - (size_t)n) : 0, "");
	fflush(stderr);
	strbuf_free(&safe);
	if ((size_t)n > p->width)
		p->width = (size_t)n;
	p->drawn = 1;
	p->last = now;
}

void
progress_phase(struct progress *p, const char *phase, size_t total,
    int per_page)
{
	if (p == NULL)
		return;
	p->phase = phase;
	p->done = 0;
	p->total = total;
	p->per_page = per_page;
	draw(p);
}

void
progress_page(struct progress *p)
{
	if (p == NULL)
		return;
	p->pages++;
	if (p->per_page && p->done < p->total)
		p->done++;
	draw(p);
}

void
progress_item(struct progress *p)
{
	if (p == NULL)
		return;
	if (p->done < p->total)
		p->done++;
	draw(p);
}

void
progress_clear(struct progress *p)
{
	if (p == NULL || !p->drawn)
		return;
	fprintf(stderr, "\r%*s\r", (int)p->width, "");
	fflush(stderr);
	p->drawn = 0;
	p->width = 0;
	p->phase = NULL;
}
