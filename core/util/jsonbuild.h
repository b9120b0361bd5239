/*
 * jsonbuild.h: a JSON object built key by key, for the objects made once
 * per fact, where json_pack would parse its format string and check each
 * key as UTF-8 again on every call (a tenth of an M render's time went
 * to json_pack). Keys are the caller's string literals: ASCII, never
 * NULL, each set once. Values are made and checked as jansson makes
 * them; the first that cannot be fails the whole object.
 */
#ifndef MIRROR_JSONBUILD_H
#define MIRROR_JSONBUILD_H

#include <jansson.h>

struct jbuild {
	json_t *o;                      /* the object (or row) so far */
	int failed;                     /* a value could not be made or set */
	const char *const *cols;        /* a row's column names, or NULL */
	size_t n;                       /* values in the row so far */
};

/* Start b on a new, empty object. */
void jb_init(struct jbuild *b);

/*
 * Start b on a new, empty row: an array whose values are cols (a
 * NULL-terminated list) in that order, each jb_* call appending its
 * value. A key other than the next column's fails b, as does a column
 * left without a value at jb_done, so the builder and the list of
 * names a file writes once cannot drift apart.
 */
void jb_init_row(struct jbuild *b, const char *const *cols);

/* key: v, taken over as json_pack's "o" takes it (NULL fails b). */
void jb_take(struct jbuild *b, const char *key, json_t *v);

/* key: v with a new reference, as json_pack's "O" (NULL fails b). */
void jb_ref(struct jbuild *b, const char *key, json_t *v);

/* key: a copy of s (NULL, or s not UTF-8, fails b). */
void jb_str(struct jbuild *b, const char *key, const char *s);

/* key: a copy of s, or null when s is NULL (s not UTF-8 fails b). */
void jb_str_or_null(struct jbuild *b, const char *key, const char *s);

/* key: true or false (v != 0). */
void jb_bool(struct jbuild *b, const char *key, int v);

/* key: the integer v. */
void jb_int(struct jbuild *b, const char *key, json_int_t v);

/* key: the real v (not finite fails b, as json_real refuses it). */
void jb_real(struct jbuild *b, const char *key, double v);

/* The object (or row), owned by the caller; NULL (the object freed) when any
 * value failed or b ran out of memory. b is spent either way. A row ends
 * at its last value that is not null (its first always stays): a reader
 * takes every column past its end as null, as CSV readers take missing
 * trailing fields, and trailing nulls are most of what a file of sparse
 * rows would otherwise repeat. */
json_t *jb_done(struct jbuild *b);

#endif
