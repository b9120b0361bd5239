/*
 * jsonfmt.h: how every JSON file and --json document mirror writes is
 * laid out (a header alone: jansson does the writing).
 */
#ifndef MIRROR_JSONFMT_H
#define MIRROR_JSONFMT_H

#include <jansson.h>

/*
 * Flags for every JSON mirror writes: two-space indent, keys in
 * insertion order, non-ASCII as \u escapes, so output is stable and
 * diffable.
 */
#define MIRROR_JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | \
    JSON_ENSURE_ASCII)

#endif
