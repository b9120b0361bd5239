/*
 * tablekinds.h: the tables the templates write, known before any page
 * is rendered, so the stylesheet can name each column's label once
 * instead of every row's cells carrying it (markdown.h, (g)).
 *
 * A kind is the label list of a header row (its cells' plain texts but
 * the first, as markdown_table_labels reads them, which the caller
 * passes: the renderer includes this file). The templates' header
 * rows are found in their text: a line starting with '|' and the line
 * after it, each of its {{#if}}/{{#unless}} blocks taken either way (a
 * line holding any other tag is no known header). A kind's class is
 * "cols-" and 8 hex digits of a hash of its labels; two kinds with the
 * same digits get no class, so their tables keep per-cell labels.
 * Built once, then only read: render threads share it with no lock.
 */
#ifndef MIRROR_TABLEKINDS_H
#define MIRROR_TABLEKINDS_H

#include <stddef.h>

#include "render/template.h"
#include "util/error.h"
#include "util/strbuf.h"

/* Bytes of a class name and its NUL: "cols-" and 8 hex digits. */
#define TABLE_KINDS_CLASS_MAX 14

struct table_kinds;

/* An empty set of kinds; table_kinds_free ends it. */
struct table_kinds *table_kinds_new(void);

/*
 * How the renderer reads a table's labels: markdown_table_labels
 * (markdown.h), passed in, as the renderer looks kinds up here.
 */
typedef int table_labels_fn(char ***labels, size_t *n, const char *md,
    size_t len, mirror_error *err);

/*
 * Add the kinds of the header rows in len bytes of template text src
 * (see above), each header and delimiter row read by labels_of. Not
 * after table_kinds_seal. Returns 0, or < 0 from labels_of.
 */
int table_kinds_add_template(struct table_kinds *k, const char *src,
    size_t len, table_labels_fn *labels_of, mirror_error *err);

/* Sort k, drop repeats and find clashing classes; k is read-only after. */
void table_kinds_seal(struct table_kinds *k);

/*
 * The sealed kinds of every page template of ts (tmpl_set_names; one
 * that does not parse adds none: its page fails on its own) into *out.
 * Returns 0, or < 0 with *out NULL.
 */
int table_kinds_scan(struct table_kinds **out, tmpl_set *ts,
    table_labels_fn *labels_of, mirror_error *err);

/*
 * 1 with cls set to the class of the kind whose labels are the n
 * labels, when sealed k has it and its class clashes with no other
 * kind's; else 0.
 */
int table_kinds_class(char cls[TABLE_KINDS_CLASS_MAX],
    const struct table_kinds *k, const char *const *labels, size_t n);

/*
 * 1 when the column of label col (0: the second column, as the n labels
 * count them) of a table whose labels are the n labels is one the
 * stylesheet keeps on one line (a date or number column of a classed
 * kind of sealed k, see table_kinds_css; k NULL: none is); else 0.
 */
int table_kinds_nowrap(const struct table_kinds *k, const char *const *labels,
    size_t n, size_t col);

/*
 * Append to sb the stylesheet rules that show each classed kind's
 * labels on a narrow screen: one @media block, kinds in class order,
 * each label a CSS string (quote, backslash, control characters and
 * '<' escaped, so the text can sit in a <style> element); nothing when
 * no kind has a class.
 */
void table_kinds_css(strbuf *sb, const struct table_kinds *k);

/*
 * The variants of template line (len bytes): the line with each of its
 * {{#if}}/{{#unless}} blocks replaced by either branch, into *out (*n
 * of them; free each and the array). Returns 0, or -1 (*out NULL) when
 * the line holds another tag, an unclosed block or too many variants.
 */
int table_kinds_variants(char ***out, size_t *n, const char *line,
    size_t len);

void table_kinds_free(struct table_kinds *k);

#endif
