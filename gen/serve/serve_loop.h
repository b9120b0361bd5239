/*
 * serve_loop.h: the preview server's builds (mirror serve): the stage
 * (gen/pipeline/build.h) run into the served directory whenever what
 * the site is built from changed and held still, and what came of each
 * build handed to the server (serve_publish), until a signal.
 */
#ifndef MIRROR_SERVE_LOOP_H
#define MIRROR_SERVE_LOOP_H

#include <stdint.h>

#include "pipeline/build.h"
#include "serve/serve.h"

/* SIGINT and SIGTERM end the loop (a second one kills at once); SIGPIPE
 * is ignored, a closed connection is gen/serve's business. */
void serve_catch_signals(void);

/* 1 once SIGINT or SIGTERM came (serve_catch_signals), else 0. */
int serve_stopping(void);

/*
 * Build the site into b->out (build_run with b), and tell s (NULL
 * before the first build serves) what came of it; *gen holds the
 * generation the last build left. Says on stderr when a later build
 * failed, and unless quiet on stdout when pages reload after one that
 * worked. Returns 0 (the site built, or unchanged), or < 0 with err
 * set.
 */
int serve_rebuild(serve *s, unsigned long *gen, const struct build_opts *b,
    int quiet, mirror_error *err);

/* The inputs of a preview's builds: sample(arg) is their fingerprint
 * (equal means unchanged), seen the one the last build read. */
struct serve_inputs {
	uint64_t (*sample)(void *arg);
	void *arg;
	uint64_t seen;
};

/*
 * Until a signal, build (serve_rebuild) whenever the fingerprint of
 * the inputs in is no longer in->seen and has held still for a moment
 * (an agent writing many facts gets one build, not one per fact); each
 * build sets in->seen.
 */
void serve_loop(serve *s, struct serve_inputs *in,
    const struct build_opts *b, int quiet);

#endif
