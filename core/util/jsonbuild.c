/*
 * jsonbuild.c: a JSON object built key by key (see jsonbuild.h).
 */
#include <string.h>

#include "util/jsonbuild.h"

void
jb_init(struct jbuild *b)
{
	*b = (struct jbuild){ .o = json_object() };
	b->failed = b->o == NULL;
}

void
jb_init_row(struct jbuild *b, const char *const *cols)
{
	*b = (struct jbuild){ .o = json_array(), .cols = cols };
	b->failed = b->o == NULL;
}

/* key: v (taken over) as the row's next value; 0, or -1 when key is not
 * the next column's name or v cannot be appended. */
static int
row_take(struct jbuild *b, const char *key, json_t *v)
{
	const char *want = b->cols[b->n];

	if (want == NULL || strcmp(want, key) != 0) {
		json_decref(v);
		return -1;
	}
	b->n++;
	return json_array_append_new(b->o, v);
}

void
jb_take(struct jbuild *b, const char *key, json_t *v)
{
	if (v == NULL || b->failed) {
		json_decref(v);         /* NULL is fine */
		b->failed = 1;
		return;
	}
	if (b->cols != NULL) {
		if (row_take(b, key, v) != 0)
			b->failed = 1;
		return;
	}
	/* _nocheck: the key is the caller's literal, not data; set_new
	 * takes v over even when it fails. */
	if (json_object_set_new_nocheck(b->o, key, v) != 0)
		b->failed = 1;
}

void
jb_ref(struct jbuild *b, const char *key, json_t *v)
{
	jb_take(b, key, json_incref(v));
}

void
jb_str(struct jbuild *b, const char *key, const char *s)
{
	jb_take(b, key, s != NULL ? json_string(s) : NULL);
}

void
jb_str_or_null(struct jbuild *b, const char *key, const char *s)
{
	jb_take(b, key, s != NULL ? json_string(s) : json_null());
}

void
jb_bool(struct jbuild *b, const char *key, int v)
{
	jb_take(b, key, json_boolean(v));
}

void
jb_int(struct jbuild *b, const char *key, json_int_t v)
{
	jb_take(b, key, json_integer(v));
}

void
jb_real(struct jbuild *b, const char *key, double v)
{
	jb_take(b, key, json_real(v));
}

/* Drop row o's trailing nulls, the values a reader takes as null when
 * a row ends before its columns do; its first value always stays. */
static void
row_trim(json_t *o)
{
	size_t n = json_array_size(o);

	while (n > 1 && json_is_null(json_array_get(o, n - 1)))
		json_array_remove(o, --n);
}

json_t *
jb_done(struct jbuild *b)
{
	json_t *o = b->o;

	if (b->failed || (b->cols != NULL && b->cols[b->n] != NULL)) {
		json_decref(o);
		o = NULL;
	} else if (b->cols != NULL) {
		row_trim(o);
	}
	b->o = NULL;
	b->failed = 1;
	return o;
}
