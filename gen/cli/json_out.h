/*
 * json_out.h: printing --json results.
 */
#ifndef MIRROR_JSON_OUT_H
#define MIRROR_JSON_OUT_H

#include <stdio.h>

#include <jansson.h>

#include "util/error.h"
#include "util/jsonfmt.h"

struct sweep_run;

/* The sweep run record r as a JSON object (sweep --json, build --json). */
json_t *json_sweep_run(const struct sweep_run *r);

/* Print v and a newline to stdout and release v. Returns 0 or < 0. */
int json_out_print(json_t *v, mirror_error *err);

#endif
