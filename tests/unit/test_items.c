/*
 * test_items.c: gen/site/items, what a fact table says in its columns:
 * a date with its time only where another date of the table falls on
 * the same day at another minute, and a Confidence column only where
 * some row's confidence is not 1; the pages a template links (a
 * project's overview, a conflict's page), made as the site's URLs are.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "render/slug.h"
#include "site/items.h"

/* The string key of o, or "(null)" for a JSON null. */
static const char *
text(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	assert_non_null(v);
	return json_is_null(v) ? "(null)" : json_string_value(v);
}

static void
test_when(void **state)
{
	static const struct { const char *ts; int t; const char *want; }
	    cases[] = {
		{ "2026-01-12 09:15:00", 0, "2026-01-12" },
		{ "2026-01-12 09:15:00", 1, "2026-01-12 09:15" },
		{ "2026-01-12T09:15:00Z", 1, "2026-01-12 09:15" },
		{ "2026-01-12", 1, "2026-01-12" },
		{ "2026-01-12 9:15", 1, "2026-01-12" },
		{ "soon", 1, "soon" },
	};
	json_t *v;

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(*cases); k++) {
		v = item_when(cases[k].ts, cases[k].t);
		assert_string_equal(json_string_value(v), cases[k].want);
		json_decref(v);
	}
	v = item_when(NULL, 1);
	assert_true(json_is_null(v));
	json_decref(v);
}

static void
test_when_set(void **state)
{
	static const char *const ts[] = {
		"2026-01-12 14:30:00",   /* a: shares its day with b */
		"2026-01-13 10:00:00",   /* c: alone on its day */
		"2026-01-12 09:15:00",   /* b */
		"2026-01-14 00:00:00",   /* d, e: one day, one minute */
		"2026-01-14 00:00:30",
		NULL,
		"2026-01-12",            /* a date alone stays one */
	};
	static const char *const want[] = { "2026-01-12 14:30",
	    "2026-01-13", "2026-01-12 09:15", "2026-01-14", "2026-01-14",
	    "(null)", "2026-01-12" };
	enum { N = sizeof(ts) / sizeof(*ts) };
	struct item_when w[N];
	json_t *o[N];

	(void)state;
	for (size_t k = 0; k < N; k++) {
		o[k] = json_object();
		w[k] = (struct item_when){ ts[k], o[k], "shown" };
	}
	item_when_set(w, N);
	for (size_t k = 0; k < N; k++) {
		assert_string_equal(text(o[k], "shown"), want[k]);
		json_decref(o[k]);
	}
}

static void
test_table_dates(void **state)
{
	json_t *items = json_pack("[{s:s, s:s}, {s:s, s:s}]",
	    "created_at", "2026-01-12 08:00:00",
	    "updated_at", "2026-02-01 10:00:00",
	    "created_at", "2026-01-20 08:00:00",
	    "updated_at", "2026-01-12 17:45:00");

	(void)state;
	/* Updated alone: no two updated dates share a day. */
	item_table_dates(items, ITEM_UPDATED);
	assert_string_equal(text(json_array_get(items, 1), "updated_shown"),
	    "2026-01-12");
	assert_null(json_object_get(json_array_get(items, 0),
	    "created_shown"));
	/* Both columns are one table: a created and an updated date share
	 * 2026-01-12 at other minutes. */
	item_table_dates(items, ITEM_UPDATED | ITEM_CREATED);
	assert_string_equal(text(json_array_get(items, 0), "created_shown"),
	    "2026-01-12 08:00");
	assert_string_equal(text(json_array_get(items, 1), "updated_shown"),
	    "2026-01-12 17:45");
	assert_string_equal(text(json_array_get(items, 0), "updated_shown"),
	    "2026-02-01");
	json_decref(items);
}

static void
test_confidence(void **state)
{
	static const struct { const char *json; int shown; } cases[] = {
		{ "[]", 0 },
		{ "[{\"confidence\": 1.0}, {\"confidence\": 1}]", 0 },
		{ "[{\"confidence\": 1.0}, {\"confidence\": 0.7}]", 1 },
		{ "[{\"confidence\": 0.9}]", 1 },
		{ "[{\"confidence\": 1.5}]", 1 },
		{ "[{\"label\": \"no confidence\"}]", 0 },
	};

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(*cases); k++) {
		json_t *items = json_loads(cases[k].json, 0, NULL);
		json_t *v = item_table_confidence(items);

		assert_int_equal(json_is_true(v), cases[k].shown);
		json_decref(v);
		json_decref(items);
	}
}

/* A link from one page to another drops the folders they share and
 * climbs out of the rest of the first's, as the templates' links do. */
static void
test_url_from(void **state)
{
	static const struct { const char *from, *to, *want; } cases[] = {
		{ "projects/a/index", "projects/b/index", "../b/index" },
		{ "projects/a/index", "index", "../../index" },
		{ "projects/a/index", "projects/a/index", "index" },
		{ "index", "projects/b/index", "projects/b/index" },
		{ "conflicts/index", "conflicts/projects/x", "projects/x" },
		{ "conflicts/projects/x", "conflicts/c-1", "../c-1" },
		{ "projects/ab/index", "projects/a/index", "../a/index" },
		{ "checks/projects/p", "projects/p/index",
		    "../../projects/p/index" },
	};
	strbuf sb, to, want;
	json_t *v;

	(void)state;
	strbuf_init(&to);
	for (size_t k = 0; k < sizeof(cases) / sizeof(*cases); k++) {
		strbuf_init(&sb);
		url_from(&sb, cases[k].from, cases[k].to);
		assert_string_equal(sb.data, cases[k].want);
		strbuf_free(&sb);
	}
	/* Of the page a url_*_page function makes: the same link, also as
	 * a JSON string, appended to what sb holds. */
	strbuf_init(&sb);
	strbuf_puts(&sb, "<");
	url_from_to(&sb, "conflicts/index", url_queue_page, "p-1");
	url_queue_page(&to, "p-1");
	strbuf_init(&want);
	strbuf_puts(&want, "<");
	url_from(&want, "conflicts/index", to.data);
	assert_string_equal(sb.data, want.data);
	v = item_url_from("projects/index", url_project_page, "ab");
	assert_string_equal(json_string_value(v), "ab/index");
	json_decref(v);
	strbuf_free(&sb);
	strbuf_free(&want);
	strbuf_free(&to);
}

/* The link from a page at the root: the page, its extension and anchor;
 * a page at the root itself as "./<page>", as the changes link it. */
static void
test_url_root_link(void **state)
{
	static const struct {
		const char *page, *ext, *anchor, *want;
	} cases[] = {
		{ "index", "md", "memory-m1", "./index.md#memory-m1" },
		{ "index", "html", NULL, "./index.html" },
		{ "projects/p/index", "md", "state-s1",
		    "projects/p/index.md#state-s1" },
		{ "conflicts/c-1", "html", NULL, "conflicts/c-1.html" },
		{ "checks/projects/p", "md", "v-1", "checks/projects/p.md#v-1" },
	};
	strbuf sb;

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(*cases); k++) {
		strbuf_init(&sb);
		url_root_link(&sb, cases[k].page, cases[k].ext,
		    cases[k].anchor);
		assert_string_equal(sb.data, cases[k].want);
		strbuf_free(&sb);
	}
}

/* A page's path as a template links it is its URL without ".html";
 * a conflict's page, from the slug of its id; null for no conflict. */
static void
test_pages(void **state)
{
	static const char *const pslugs[] = { "p1", "etc--1a2b", "" };
	char slug[SLUG_SIZE];
	strbuf a, b;
	json_t *v;

	(void)state;
	for (size_t i = 0; i < sizeof(pslugs) / sizeof(pslugs[0]); i++) {
		strbuf_init(&a);
		strbuf_init(&b);
		url_project(&a, pslugs[i]);
		url_project_page(&b, pslugs[i]);
		strbuf_puts(&b, ".html");
		assert_string_equal(a.data, b.data);
		strbuf_free(&a);
		strbuf_free(&b);
	}
	strbuf_init(&a);
	url_project_page(&a, "");
	assert_string_equal(a.data, "index");
	strbuf_reset(&a);
	url_conflict(&a, "c-1");
	assert_string_equal(a.data, "conflicts/c-1.html");
	strbuf_free(&a);
	v = item_conflict_page("../../tmp/Evil");
	slug_make(slug, "../../tmp/Evil");
	strbuf_init(&a);
	strbuf_printf(&a, "conflicts/%s", slug);
	assert_string_equal(json_string_value(v), a.data);
	assert_int_equal(strncmp(slug, "tmp-evil--", 10), 0);
	strbuf_free(&a);
	json_decref(v);
	v = item_conflict_page(NULL);
	assert_true(json_is_null(v));
	json_decref(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_when),
		cmocka_unit_test(test_when_set),
		cmocka_unit_test(test_table_dates),
		cmocka_unit_test(test_confidence),
		cmocka_unit_test(test_pages),
		cmocka_unit_test(test_url_from),
		cmocka_unit_test(test_url_root_link),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
