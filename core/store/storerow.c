/*
 * storerow.c: the one reader of store columns (see storerow.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/storerow.h"
#include "util/jsonwrite.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A value that passes the row check must write: the deepest page puts a
 * stored value a dozen levels down (api/projects/P.json: entities, an
 * entity, properties), well inside the writer's limit. */
_Static_assert(STOREROW_JSON_DEPTH + 32 <= JSONWRITE_DEPTH,
    "a stored JSON value at its deepest must fit the JSON writer");

const char *const storerow_member_kinds[] = { LAYER_KIND_STATE,
    LAYER_KIND_ENTITY, LAYER_KIND_MEMORY, NULL };
const char *const storerow_slot_kinds[] = { "memory_slot", "entity_slot",
    "cross_layer", NULL };
const char *const storerow_conflict_status[] = { "open", "resolved",
    "dismissed", NULL };

/* Of eight bytes read as one word: each byte's high bit, a 1 in each. */
#define HIGH_BITS 0x8080808080808080ULL
#define LOW_ONES 0x0101010101010101ULL

const char *
storerow_text_problem(const unsigned char *s, size_t n)
{
	size_t i = 0;
	int nul = 0;

	while (i < n) {
		unsigned c = s[i];
		size_t len;
		unsigned cp;
		uint64_t w;

		/* Eight ASCII bytes at once (most store text), the last
		 * fewer, noting a NUL among them: UTF-8 errors are told
		 * before NULs. */
		w = LOW_ONES;      /* past the end: bytes of 1, ASCII */
		memcpy(&w, s + i, n - i >= 8 ? 8 : n - i);
		if ((w & HIGH_BITS) == 0) {
			/* Nonzero when a byte of w is 0. */
			nul |= ((w - LOW_ONES) & ~w & HIGH_BITS) != 0;
			i += 8;
			continue;
		}
		if (c < 0x80) {
			nul |= c == 0;
			i++;
			continue;
		} else if (c >= 0xc2 && c <= 0xdf) {
			len = 2;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			len = 3;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			len = 4;
			cp = c & 0x07;
		} else {
			return "is not valid UTF-8 text";
		}
		if (n - i < len)
			return "is not valid UTF-8 text";
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return "is not valid UTF-8 text";
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if ((len == 3 && (cp < 0x800 ||
		    (cp >= 0xd800 && cp <= 0xdfff))) ||
		    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
			return "is not valid UTF-8 text";
		i += len;
	}
	/* Valid UTF-8, but C strings and pages end at a NUL. */
	return nul ? "contains a NUL byte" : NULL;
}

int
storerow_fail(struct store_row *r, const char *col, const char *what)
{
	if (r->member != NULL)
		return mirror_fail(r->err, MIRROR_EINPUT, "store %s: %s row "
		    "'%s' member '%s': %s %s", store_path(r->st), r->table,
		    r->id ? r->id : "?", r->member, col, what);
	return mirror_fail(r->err, MIRROR_EINPUT, "store %s: %s row '%s': "
	    "%s %s", store_path(r->st), r->table, r->id ? r->id : "?", col,
	    what);
}

int
storerow_text(char **out, struct store_row *r, int i, const char *col,
    int nullable)
{
	const unsigned char *s;
	const char *bad;
	int n;

	*out = NULL;
	if (sqlite3_column_type(r->stmt, i) == SQLITE_NULL)
		return nullable ? 0 : storerow_fail(r, col, "is NULL");
	s = sqlite3_column_text(r->stmt, i);
	n = sqlite3_column_bytes(r->stmt, i);
	if (s == NULL)
		return mirror_fail(r->err, MIRROR_EIO, "store %s: out of "
		    "memory reading %s", store_path(r->st), r->table);
	if ((bad = storerow_text_problem(s, (size_t)n)) != NULL)
		return storerow_fail(r, col, bad);
	*out = xstrndup((const char *)s, (size_t)n);
	return 0;
}

int
storerow_enum(char **out, struct store_row *r, int i, const char *col,
    const char *const *valid)
{
	strbuf sb;
	int rc;

	rc = storerow_text(out, r, i, col, 0);
	if (rc < 0)
		return rc;
	for (const char *const *v = valid; *v != NULL; v++)
		if (strcmp(*out, *v) == 0)
			return 0;
	strbuf_init(&sb);
	strbuf_printf(&sb, "is '%s', not one of", *out);
	for (const char *const *v = valid; *v != NULL; v++)
		strbuf_printf(&sb, "%s %s", v == valid ? "" : ",", *v);
	rc = storerow_fail(r, col, sb.data);
	strbuf_free(&sb);
	free(*out);
	*out = NULL;
	return rc;
}

int
storerow_layer(enum fact_layer *out, struct store_row *r, int i,
    const char *col)
{
	char *kind;
	int rc = storerow_enum(&kind, r, i, col, storerow_member_kinds);

	if (rc < 0)
		return rc;
	*out = (enum fact_layer)layer_of_kind(kind);
	free(kind);
	return 0;
}

int
storerow_real(double *out, struct store_row *r, int i, const char *col)
{
	*out = 0;
	if (sqlite3_column_type(r->stmt, i) == SQLITE_NULL)
		return storerow_fail(r, col, "is NULL");
	*out = sqlite3_column_double(r->stmt, i);
	/* SQLite keeps 9e999 as Inf (and a NaN as NULL); JSON has neither,
	 * so the page data could not hold it. */
	if (!isfinite(*out))
		return storerow_fail(r, col, "is not a finite number");
	return 0;
}

/* 1 when v nests more than left arrays or objects deep, else 0. The walk
 * stops at left, so its recursion is bounded by STOREROW_JSON_DEPTH. */
static int
json_deeper(const json_t *v, int left)
{
	const char *key;
	json_t *m;
	size_t k;

	if (json_is_array(v)) {
		if (left == 0)
			return 1;
		json_array_foreach(v, k, m)
			if (json_deeper(m, left - 1))
				return 1;
	} else if (json_is_object(v)) {
		if (left == 0)
			return 1;
		json_object_foreach((json_t *)(uintptr_t)v, key, m)
			if (json_deeper(m, left - 1))
				return 1;
	}
	return 0;
}

int
storerow_json(json_t **out, struct store_row *r, int i, const char *col,
    int want_object)
{
	json_error_t jerr;
	char *text, msg[256];
	int rc, n;

	*out = NULL;
	rc = storerow_text(&text, r, i, col, 0);
	if (rc < 0)
		return rc;
	*out = json_loads(text, JSON_DECODE_ANY, &jerr);
	free(text);
	if (*out == NULL) {
		n = snprintf(msg, sizeof(msg), "is not valid JSON (line %d, "
		    "column %d: %s)", jerr.line, jerr.column, jerr.text);
		if (n < 0 || (size_t)n >= sizeof(msg))
			return storerow_fail(r, col, "is not valid JSON");
		return storerow_fail(r, col, msg);
	}
	if (want_object ? !json_is_object(*out) : !json_is_array(*out)) {
		json_decref(*out);
		*out = NULL;
		return storerow_fail(r, col, want_object ?
		    "is not a JSON object" : "is not a JSON array");
	}
	if (json_deeper(*out, STOREROW_JSON_DEPTH)) {
		json_decref(*out);
		*out = NULL;
		n = snprintf(msg, sizeof(msg), "nests deeper than %d levels",
		    STOREROW_JSON_DEPTH);
		return storerow_fail(r, col, n < 0 || (size_t)n >= sizeof(msg) ?
		    "nests too deep" : msg);
	}
	return 0;
}
