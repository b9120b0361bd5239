/*
 * json_out.h: printing --json results.
 */
#ifndef MIRROR_JSON_OUT_H
#define MIRROR_JSON_OUT_H

#include <stdio.h>

#include <jansson.h>

#include "util/error.h"

/*
 * Flags for every JSON mirror writes: two-space indent, keys in
 * insertion order, '/' not escaped, so output is stable and diffable.
 */
#define MIRROR_JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | \
    JSON_ENSURE_ASCII)

struct sweep_run;

/* The sweep run record r as a JSON object (sweep --json, build --json). */
json_t *json_sweep_run(const struct sweep_run *r);

/* Print v and a newline to stdout and release v. Returns 0 or < 0. */
int json_out_print(json_t *v, mirror_error *err);

#endif
