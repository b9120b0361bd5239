/*
 * serve_loop.c: the preview server's builds (see serve_loop.h).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "serve/serve_loop.h"
#include "serve/serve_watch.h"
#include "sys/clock.h"
#include "sys/termtext.h"
#include "util/xalloc.h"

#define POLL_MS 250             /* how often the inputs are looked at */
#define SETTLE_MS 100           /* a change is built once it holds this */

static volatile sig_atomic_t stopping;

static void
on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

void
serve_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART | SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int
serve_stopping(void)
{
	return stopping != 0;
}

/* Sleep ms milliseconds, or less when a signal asks to stop. */
static void
nap(long ms)
{
	for (long left = ms; left > 0 && !stopping; left -= 50) {
		struct timespec ts = { 0, (left < 50 ? left : 50) * 1000000L };

		nanosleep(&ts, NULL);
	}
}

/* One run of the stage with b; returns build_run's result with
 * BUILD_UNCHANGED as 0: 0 or < 0 with err set. */
static int
build_once(const struct build_opts *b, mirror_error *err)
{
	struct build bd;
	int rc;

	memset(&bd, 0, sizeof(bd));
	rc = build_run(&bd, b, err);
	build_free(&bd);
	/* A small build kept what it freed (util/xalloc.h): a server that
	 * waits for the next change gives it back. */
	xalloc_keep(0);
	(void)xalloc_huge(0);
	xtrim();
	return rc < 0 ? rc : 0;
}

int
serve_rebuild(serve *s, unsigned long *gen, const struct build_opts *b,
    int quiet, mirror_error *err)
{
	uint64_t before = serve_fingerprint(b->out);
	long long t0 = mirror_monotonic_ms();
	unsigned long was = *gen;
	int rc, changed;

	mirror_error_clear(err);
	rc = build_once(b, err);
	changed = rc == 0 && serve_fingerprint(b->out) != before;
	if (s == NULL)
		return rc;      /* the first build: main says why it failed */
	if (rc < 0)
		(void)termtext_printf(stderr, "mirror: serve: the build "
		    "failed: %s\n", err->msg);
	*gen = serve_publish(s, changed, rc < 0 ? err->msg : NULL);
	if (rc == 0 && *gen != was && !quiet) {
		printf("rebuilt in %lld ms: %s (generation %lu)\n",
		    mirror_monotonic_ms() - t0, changed ? "pages reload" :
		    "the build works again", *gen);
		fflush(stdout);
	}
	return rc;
}

void
serve_loop(serve *s, struct serve_inputs *in, const struct build_opts *b,
    int quiet)
{
	unsigned long gen = serve_publish(s, 0, NULL);
	mirror_error err;

	while (!stopping) {
		uint64_t now;

		nap(POLL_MS);
		if (stopping || (now = in->sample(in->arg)) == in->seen)
			continue;
		for (int i = 0; i < 20 && !stopping; i++) {
			uint64_t again;

			nap(SETTLE_MS);
			if ((again = in->sample(in->arg)) == now)
				break;
			now = again;
		}
		in->seen = now;
		if (!stopping)
			(void)serve_rebuild(s, &gen, b, quiet, &err);
	}
}
