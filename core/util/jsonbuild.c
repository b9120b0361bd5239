/*
 * jsonbuild.c: a JSON object built key by key (see jsonbuild.h).
 */
#include "util/jsonbuild.h"

void
jb_init(struct jbuild *b)
{
	b->o = json_object();
	b->failed = b->o == NULL;
}

void
jb_take(struct jbuild *b, const char *key, json_t *v)
{
	if (v == NULL || b->failed) {
		json_decref(v);         /* NULL is fine */
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

json_t *
jb_done(struct jbuild *b)
{
	json_t *o = b->o;

	if (b->failed) {
		json_decref(o);
		o = NULL;
	}
	b->o = NULL;
	b->failed = 1;
	return o;
}
