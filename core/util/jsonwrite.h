/*
 * jsonwrite.h: a JSON value as text in the layout of every JSON file
 * mirror writes (jsonfmt.h: MIRROR_JSON_FLAGS), byte for byte what
 * jansson's json_dump_callback writes with those flags but for reals,
 * without its cost: jansson checks every array and object for a cycle
 * through a hash table and hands the text over a token at a time. A
 * real is written in the fewest digits that read back as the same
 * double (0.8 where jansson writes 0.80000000000000004), so a diff of
 * the site shows a number only when it changed.
 */
#ifndef MIRROR_JSONWRITE_H
#define MIRROR_JSONWRITE_H

#include <jansson.h>

#include "util/strbuf.h"

/* Deeper than this is refused (a cycle would be endless; no page of
 * the site nests more than a dozen levels). */
#define JSONWRITE_DEPTH 256

/*
 * Append v to out as json_dump_callback(v, ..., MIRROR_JSON_FLAGS)
 * would write it (reals as above) at nesting level depth: each line after the first is
 * indented by two spaces more per level (0 for a file's top value).
 * Returns 0, or -1 when a string or key is not UTF-8 (as jansson
 * refuses it) or the value nests deeper than JSONWRITE_DEPTH; out then
 * holds part of the text, for the caller to drop.
 */
int json_write(strbuf *out, const json_t *v, int depth);

/*
 * json_write, every string longer than TEXT_MAX_FIELD (4096) bytes cut
 * as the pages cut it (util/text.h: text_cut, at a UTF-8 boundary) and
 * marked inside the string with " … (N bytes more)", N the bytes left
 * out: the site's JSON files, so one huge store value costs kilobytes
 * there, not a copy of itself. Keys, and the strings of members named
 * "id" or "..._id", are kept whole. Returns as json_write.
 */
int json_write_capped(strbuf *out, const json_t *v, int depth);

/*
 * json_write_capped of v on one line: each comma followed by a space,
 * nothing after an opening bracket or before a closing one
 * ({"id": "c1", "members": [{"id": "a"}]}). For the objects of a list
 * file, one to a line, so one object added or changed is one line of a
 * diff. Returns as json_write.
 */
int json_write_line(strbuf *out, const json_t *v);

/*
 * json_write_capped of v as a file's top value, each object below it on
 * one line as json_write_line writes it, the rest indented: a file of
 * rows, so one row added or changed is one line of a diff. An element
 * of an array there starts its line, without an indent. An array
 * that is an element of an array there (a record of a file that writes
 * its column names once) is a row too, on one line without a space
 * after a comma or colon, its first two values (the row's key, as an
 * "id" member is) never cut. Returns as json_write.
 */
int json_write_rows(strbuf *out, const json_t *v);

/*
 * Append s (NUL-terminated; NULL as "") to sb as a JSON string literal,
 * without jansson: '"' and '\\' escaped, every byte below 0x20 as
 * \u00XX, bytes from 0x80 as they are (the caller hands UTF-8). With
 * in_script, '<' and DEL are \u-escaped too, so the literal can sit in
 * a script file without closing a tag. For keys and index text built a
 * byte at a time (slot keys, the search index).
 */
void json_quote(strbuf *sb, const char *s, int in_script);

#endif
