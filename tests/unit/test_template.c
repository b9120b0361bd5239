/*
 * test_template.c: every syntax form, scopes, escaping per mode,
 * standalone lines, errors with file:line:name, template sets.
 * The promises of doc/templates.md, "Template syntax".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "render/template.h"
#include "util/xalloc.h"

/* Render src (mode) with data (JSON text); return output or NULL with
 * the error line in err. */
static char *
run(const char *src, enum tmpl_mode mode, const char *json, const char *raw,
    mirror_error *err)
{
	json_t *data = NULL;
	strbuf sb;
	tmpl *t;
	char *r = NULL;

	if (json != NULL) {
		data = json_loads(json, 0, NULL);
		assert_non_null(data);
	}
	if (tmpl_parse(&t, "page.md", src, strlen(src), mode, err) < 0) {
		assert_null(t);
		json_decref(data);
		return NULL;
	}
	strbuf_init(&sb);
	if (tmpl_render(&sb, t, data, raw, err) == 0)
		r = xstrdup(sb.data);
	strbuf_free(&sb);
	tmpl_free(t);
	json_decref(data);
	return r;
}

static void
expect(const char *src, const char *json, const char *want)
{
	mirror_error err;
	char *r = run(src, TMPL_MARKDOWN, json, NULL, &err);

	if (r == NULL)
		fail_msg("'%s': %s", src, err.msg);
	assert_string_equal(r, want);
	free(r);
}

static void
expect_err(const char *src, enum tmpl_mode mode, const char *json,
    const char *msg)
{
	mirror_error err;
	char *r;

	memset(&err, 0, sizeof(err));
	r = run(src, mode, json, "<p>x</p>", &err);
	if (r != NULL)
		fail_msg("'%s' rendered '%s', expected error %s", src, r, msg);
	assert_int_equal(err.status, MIRROR_EINPUT);
	if (strcmp(err.msg, msg) != 0)
		fail_msg("'%s': error '%s', expected '%s'", src, err.msg, msg);
}

/* 1: placeholders, dotted paths, value types. */
static void
test_values(void **state)
{
	(void)state;
	expect("Hello {{name}}!", "{\"name\":\"Ada\"}", "Hello Ada!");
	expect("{{ p.name }}/{{p.n}}", "{\"p\":{\"name\":\"x\",\"n\":42}}",
	    "x/42");
	expect("{{a}} {{b}} {{c}} {{d}}|", "{\"a\":true,\"b\":false,"
	    "\"c\":null,\"d\":1.5}", "true false  1.5|");
	expect("no tags at all\n", "{}", "no tags at all\n");
	expect("", "{}", "");
}

/* 2: values are escaped for Markdown, or for HTML in HTML mode. */
static void
test_escaping(void **state)
{
	mirror_error err;
	char *r;

	(void)state;
	expect("- {{v}}", "{\"v\":\"<b>*x*</b> [a](b)\"}",
	    "- \\<b>\\*x\\*\\</b> \\[a\\](b)");
	r = run("<p title=\"{{v}}\">{{v}}</p>", TMPL_HTML,
	    "{\"v\":\"<\\\"'&>\"}", "", &err);
	assert_non_null(r);
	assert_string_equal(r, "<p title=\"&lt;&quot;&#39;&amp;&gt;\">"
	    "&lt;&quot;&#39;&amp;&gt;</p>");
	free(r);
}

/* 3: filters url, id, slug. */
static void
test_filters(void **state)
{
	(void)state;
	expect("[x](projects/{{p|url}}/index.md)", "{\"p\":\"a b/../c\"}",
	    "[x](projects/a%20b%2F..%2Fc/index.md)");
	expect("<a id=\"state-{{s|id}}\"></a>", "{\"s\":\"s-1\"}",
	    "<a id=\"state-s-1\"></a>");
	expect("{{p|slug}} {{q|slug}}", "{\"p\":\"p05\",\"q\":\"A b\"}",
	    "p05 a-b--fa95b919");
	expect_err("{{s|id}}", TMPL_MARKDOWN, "{\"s\":\"a\\\"><script>\"}",
	    "page.md:1: not an id ([a-z0-9-]+): 's'");
	expect_err("{{s|id}}", TMPL_MARKDOWN, "{\"s\":\"\"}",
	    "page.md:1: not an id ([a-z0-9-]+): 's'");
	expect_err("{{s|id}}", TMPL_MARKDOWN, "{\"s\":5}",
	    "page.md:1: not an id ([a-z0-9-]+): 's'");
	/* |words: a store's name for a kind said in words. */
	expect("({{t|words}})", "{\"t\":\"analysis_model\"}",
	    "(analysis model)");
	expect_err("\n{{s|bold}}", TMPL_MARKDOWN, "{\"s\":1}",
	    "page.md:2: unknown filter 'bold'");
}

/* 4: #each with ., @index, @number, @first, @last, else; scopes. */
static void
test_each(void **state)
{
	(void)state;
	expect("{{#each xs}}{{@index}}{{@number}}{{.}}{{#unless @last}},"
	    "{{/unless}}{{/each}}", "{\"xs\":[\"a\",\"b\",\"c\"]}",
	    "01a,12b,23c");
	expect("{{#each xs}}{{#if @first}}[{{/if}}{{n}}{{/each}}",
	    "{\"xs\":[{\"n\":1},{\"n\":2}]}", "[12");
	expect("{{#each xs}}x{{else}}none{{/each}}", "{\"xs\":[]}", "none");
	expect("{{#each xs}}x{{else}}none{{/each}}", "{\"xs\":null}", "none");
	/* Inner names shadow outer ones; outer ones stay visible. */
	expect("{{#each ps}}{{name}}:{{#each cs}}{{name}}-{{title}};"
	    "{{/each}}{{/each}}", "{\"title\":\"T\",\"ps\":[{\"name\":\"p\","
	    "\"cs\":[{\"name\":\"c1\"},{\"name\":\"c2\",\"title\":\"own\"}]}]}",
	    "p:c1-T;c2-own;");
	/* @index in a nested loop's else refers to the outer loop. */
	expect("{{#each a}}{{#each b}}x{{else}}{{@index}}{{/each}}{{/each}}",
	    "{\"a\":[{\"b\":[]},{\"b\":[]}]}", "01");
	expect_err("{{#each o}}x{{/each}}", TMPL_MARKDOWN, "{\"o\":{}}",
	    "page.md:1: #each needs a list: 'o'");
}

/* 5: truthiness of #if / #unless, with else. */
static void
test_if(void **state)
{
	static const char *const falsy[] = {
		"null", "false", "0", "0.0", "\"\"", "[]", "{}"
	};
	static const char *const truthy[] = {
		"true", "1", "-1", "0.5", "\"0\"", "[0]", "{\"a\":null}"
	};
	char json[64];

	(void)state;
	for (size_t i = 0; i < 7; i++) {
		snprintf(json, sizeof(json), "{\"v\":%s}", falsy[i]);
		expect("{{#if v}}y{{else}}n{{/if}}", json, "n");
		expect("{{#unless v}}y{{else}}n{{/unless}}", json, "y");
		snprintf(json, sizeof(json), "{\"v\":%s}", truthy[i]);
		expect("{{#if v}}y{{else}}n{{/if}}", json, "y");
		expect("{{#unless v}}y{{/unless}}", json, "");
	}
}

/* 6: comments and standalone lines leave no blank lines. */
static void
test_standalone(void **state)
{
	(void)state;
	expect("# T\n{{! a comment\n   on two lines }}\n\n{{#each xs}}\n"
	    "- {{.}}\n{{/each}}\n\nend\n", "{\"xs\":[\"a\",\"b\"]}",
	    "# T\n\n- a\n- b\n\nend\n");
	expect("  {{#if v}}  \nyes\n  {{else}}\nno\n\t{{/if}}\n", "{\"v\":1}",
	    "yes\n");
	/* Not standalone: text or another tag on the line. */
	expect("a {{#if v}}b{{/if}}\n", "{\"v\":1}", "a b\n");
	expect("{{#if v}}{{x}}{{/if}}\n", "{\"v\":1,\"x\":\"X\"}", "X\n");
	/* A placeholder alone on a line is never standalone. */
	expect("{{x}}\n", "{\"x\":\"\"}", "\n");
	/* Last line without a newline. */
	expect("a\n{{#if v}}\nb\n{{/if}}", "{\"v\":1}", "a\nb\n");
}

/* 7: parse errors name file, line and what. */
static void
test_parse_errors(void **state)
{
	(void)state;
	expect_err("a\nb {{#loop x}}", TMPL_MARKDOWN, "{}",
	    "page.md:2: unknown block tag '#loop x'");
	expect_err("{{#if a}}\n{{/each}}", TMPL_MARKDOWN, "{}",
	    "page.md:2: closes #if opened at line 1, not '/each'");
	expect_err("\n\n{{#each a}}x", TMPL_MARKDOWN, "{}",
	    "page.md:3: #each never closed: 'a'");
	expect_err("{{/if}}", TMPL_MARKDOWN, "{}",
	    "page.md:1: closing tag without an open block: '/if'");
	expect_err("x {{name", TMPL_MARKDOWN, "{}",
	    "page.md:1: unterminated tag '{{'");
	expect_err("{{{content}}}", TMPL_MARKDOWN, "{}",
	    "page.md:1: raw slot not allowed in a Markdown template: "
	    "'content'");
	expect_err("{{{title}}}", TMPL_HTML, "{}",
	    "page.md:1: unknown raw slot (only {{{content}}} exists): 'title'");
	expect_err("{{@index}}", TMPL_MARKDOWN, "{}",
	    "page.md:1: only valid inside #each: '@index'");
	expect_err("{{a..b}}", TMPL_MARKDOWN, "{}",
	    "page.md:1: bad placeholder name 'a..b'");
	expect_err("{{#if}}{{/if}}", TMPL_MARKDOWN, "{}",
	    "page.md:1: block tag needs a name: 'if'");
	expect_err("{{else}}", TMPL_MARKDOWN, "{}",
	    "page.md:1: else outside a block: 'else'");
	expect_err("{{#if a}}{{else}}{{else}}{{/if}}", TMPL_MARKDOWN, "{}",
	    "page.md:1: second else in a block: 'else'");
	expect_err("{{}}", TMPL_MARKDOWN, "{}", "page.md:1: empty tag '{{}}'");
	/* The error stays one line whatever the tag holds. */
	expect_err("{{#loop\nx\ty}}", TMPL_MARKDOWN, "{}",
	    "page.md:1: unknown block tag '#loop x y'");
	/* Deep nesting is refused, not a stack overflow. */
	{
		strbuf deep;

		strbuf_init(&deep);
		for (int i = 0; i < 100000; i++)
			strbuf_puts(&deep, "{{#if a}}");
		expect_err(deep.data, TMPL_MARKDOWN, "{\"a\":1}",
		    "page.md:1: blocks nested too deep at 'a'");
		strbuf_free(&deep);
	}
}

/* 8: render errors: unknown names (also in #if), wrong types. */
static void
test_render_errors(void **state)
{
	(void)state;
	expect_err("ok\n\n{{missing}}", TMPL_MARKDOWN, "{\"x\":1}",
	    "page.md:3: unknown placeholder 'missing'");
	expect_err("{{#if nope}}x{{/if}}", TMPL_MARKDOWN, "{}",
	    "page.md:1: unknown placeholder 'nope'");
	expect_err("{{p.nope}}", TMPL_MARKDOWN, "{\"p\":{\"a\":1}}",
	    "page.md:1: unknown placeholder 'p.nope'");
	expect_err("{{p}}", TMPL_MARKDOWN, "{\"p\":{\"a\":1}}",
	    "page.md:1: an object where a value is needed: 'p'");
	expect_err("{{#each xs}}{{.}}{{/each}}", TMPL_MARKDOWN,
	    "{\"xs\":[[1]]}", "page.md:1: a list where a value is needed: '.'");
}

/* 9: the raw slot takes the caller's HTML unescaped, only in HTML. */
static void
test_raw(void **state)
{
	mirror_error err;
	tmpl *t;
	strbuf sb;
	const char *src = "<title>{{t}}</title><main>{{{ content }}}</main>";
	json_t *data;

	(void)state;
	assert_int_equal(tmpl_parse(&t, "layout.html", src, strlen(src),
	    TMPL_HTML, &err), 0);
	assert_int_equal(tmpl_has_raw(t), 1);
	assert_string_equal(tmpl_name(t), "layout.html");
	strbuf_init(&sb);
	data = json_pack("{s:s,s:s}", "t", "<x>", "content", "<b>no</b>");
	assert_int_equal(tmpl_render(&sb, t, data, "<p>body</p>", &err), 0);
	json_decref(data);
	assert_string_equal(sb.data, "<title>&lt;x&gt;</title><main><p>body</p>"
	    "</main>");
	strbuf_reset(&sb);
	/* A content key in the data never fills the raw slot. */
	assert_int_equal(tmpl_render(&sb, t, NULL, NULL, &err),
	    -MIRROR_EINPUT);
	assert_string_equal(err.msg, "layout.html:1: unknown placeholder 't'");
	strbuf_free(&sb);
	tmpl_free(t);
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* 10: a set takes user files first and falls back per file. */
static void
test_set(void **state)
{
	char base[] = "/tmp/mirror-tmpl.XXXXXX", user[64], def[64], p[128];
	mirror_error err;
	const tmpl *a, *b, *a2;
	tmpl_set *set;
	json_t *data;
	strbuf sb;

	(void)state;
	assert_non_null(mkdtemp(base));
	snprintf(user, sizeof(user), "%s/user", base);
	snprintf(def, sizeof(def), "%s/def", base);
	assert_int_equal(mkdir(user, 0755), 0);
	assert_int_equal(mkdir(def, 0755), 0);
	snprintf(p, sizeof(p), "%s/a.md", def);
	write_file(p, "default a {{x}}\n");
	snprintf(p, sizeof(p), "%s/b.md", def);
	write_file(p, "default b\n");
	snprintf(p, sizeof(p), "%s/a.md", user);
	write_file(p, "user a {{x}}\n");
	snprintf(p, sizeof(p), "%s/bad.md", user);
	write_file(p, "line\n{{#wat}}\n");

	assert_int_equal(tmpl_set_open(&set, user, def, &err), 0);
	assert_int_equal(tmpl_set_get(&a, set, "a.md", &err), 0);
	assert_int_equal(tmpl_set_get(&b, set, "b.md", &err), 0);
	assert_int_equal(tmpl_set_get(&a2, set, "a.md", &err), 0);
	assert_ptr_equal(a, a2);   /* parsed once */
	strbuf_init(&sb);
	data = json_pack("{s:s}", "x", "*");
	assert_int_equal(tmpl_render(&sb, a, data, NULL, &err), 0);
	json_decref(data);
	assert_int_equal(tmpl_render(&sb, b, NULL, NULL, &err), 0);
	assert_string_equal(sb.data, "user a \\*\ndefault b\n");
	strbuf_free(&sb);
	assert_int_equal(tmpl_set_get(&a, set, "c.md", &err), -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "template 'c.md' not found"));
	assert_int_equal(tmpl_set_get(&a, set, "bad.md", &err),
	    -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "/user/bad.md:2: unknown block tag "
	    "'#wat'"));
	assert_int_equal(tmpl_set_get(&a, set, "../a.md", &err),
	    -MIRROR_EINPUT);
	tmpl_set_free(set);
	/* No user dir: defaults only; a missing user dir is an error. */
	assert_int_equal(tmpl_set_open(&set, NULL, def, &err), 0);
	assert_int_equal(tmpl_set_get(&a, set, "a.md", &err), 0);
	tmpl_set_free(set);
	snprintf(p, sizeof(p), "%s/nope", base);
	assert_int_equal(tmpl_set_open(&set, p, def, &err), -MIRROR_EINPUT);
	assert_null(set);

	snprintf(p, sizeof(p), "rm -rf '%s'", base);
	assert_int_equal(system(p), 0);
}

/* 11: the repository's templates/ and themes/ parse. */
static void
test_shipped_parse(void **state)
{
	static const char *const files[] = {
		"themes/default/layout.html", "themes/plain/layout.html",
	};
	const char *top = getenv("MIRROR_TOP");
	mirror_error err;
	char path[4096];
	tmpl *t;

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", top ? top : ".", files[i]);
		if (tmpl_load(&t, path, TMPL_HTML, &err) < 0)
			fail_msg("%s", err.msg);
		assert_int_equal(tmpl_has_raw(t), 1);
		tmpl_free(t);
	}
}

/* Best of three renders of n items, in seconds. */
static double
time_render(const tmpl *tp, size_t n)
{
	json_t *xs = json_array(), *data;
	mirror_error err;
	double best = 1e9;

	for (size_t i = 0; i < n; i++)
		json_array_append_new(xs, json_pack("{s:s,s:s}", "id", "x-1",
		    "v", "value with *stars* and |pipes|"));
	data = json_pack("{s:o}", "xs", xs);
	for (int k = 0; k < 3; k++) {
		struct timespec a, b;
		strbuf sb;
		double t;

		strbuf_init(&sb);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
		assert_int_equal(tmpl_render(&sb, tp, data, NULL, &err), 0);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
		t = (double)(b.tv_sec - a.tv_sec) +
		    (double)(b.tv_nsec - a.tv_nsec) / 1e9;
		if (t < best)
			best = t;
		assert_int_equal(sb.len, n * strlen("- <a id=\"e-x-1\"></a> value "
		    "with \\*stars\\* and \\|pipes\\|\n"));
		strbuf_free(&sb);
	}
	json_decref(data);
	return best;
}

/* 12: rendering time is linear in the output. */
static void
test_linear(void **state)
{
	const char *src = "{{#each xs}}\n- <a id=\"e-{{id|id}}\"></a> {{v}}\n"
	    "{{/each}}\n";
	mirror_error err;
	double small, big;
	tmpl *tp;

	(void)state;
	assert_int_equal(tmpl_parse(&tp, "l.md", src, strlen(src),
	    TMPL_MARKDOWN, &err), 0);
	small = time_render(tp, 10000);
	big = time_render(tp, 100000);
	print_message("[ TIMING   ] 10000 items %.4fs, 100000 items %.4fs, "
	    "ratio %.1f\n", small, big, big / small);
	/* CPU time, best of three: linear is about 10, quadratic 100. */
	assert_true(big / small < 40.0);
	tmpl_free(tp);
}

/*
 * 13: inputs the fuzzer (tests/fuzz/fuzz_template.c) found. A layout
 * rendered without raw content is a clean error naming the slot: it
 * used to pass the slot node's NULL name to the message (a crash).
 */
static void
test_fuzz_regressions(void **state)
{
	const char *src = "<main>\n{{{content}}}\n</main>";
	mirror_error err;
	tmpl *t;
	strbuf sb;

	(void)state;
	assert_int_equal(tmpl_parse(&t, "layout.html", src, strlen(src),
	    TMPL_HTML, &err), 0);
	strbuf_init(&sb);
	assert_int_equal(tmpl_render(&sb, t, NULL, NULL, &err),
	    -MIRROR_EINPUT);
	assert_string_equal(err.msg, "layout.html:2: no content for raw slot "
	    "'{{{content}}}'");
	strbuf_free(&sb);
	tmpl_free(t);
}

/* |code: verbatim, one line, only inside a fenced code block. */
static void
test_code_filter(void **state)
{
	(void)state;
	/* Verbatim: no Markdown escaping, whitespace runs as one space. */
	expect("```sh\n{{c|code}}\n```\n",
	    "{\"c\": \"mirror x --notes 'a*b' [c](d) <e>\\n  f\"}",
	    "```sh\nmirror x --notes 'a*b' [c](d) <e> f\n```\n");
	/* A value that could close the fence is indented out of reach. */
	expect("```\n{{c|code}}\n```\n", "{\"c\": \"```\"}",
	    "```\n    ```\n```\n");
	expect("~~~~\n{{c|code}}\n~~~~\n", "{\"c\": \" ~~~~ x\"}",
	    "~~~~\n    ~~~~ x\n~~~~\n");
	/* A line's indentation is kept (a query as its file gives it);
	 * a blank line stays empty. */
	expect("```sql\n{{#each l}}\n{{.|code}}\n{{/each}}\n```\n",
	    "{\"l\": [\"SELECT a,\", \"       b\", \"  \", \"\\tFROM t\"]}",
	    "```sql\nSELECT a,\n       b\n\n\tFROM t\n```\n");
	/* Inside #each, in a fence opened by tildes or indented. */
	expect("   ~~~\n{{#each l}}\n{{.|code}}\n{{/each}}\n~~~\n",
	    "{\"l\": [\"a_b\", \"c*d\"]}", "   ~~~\na_b\nc*d\n~~~\n");
	/* Outside a fence: a parse error, wherever it stands. */
	expect_err("{{c|code}}\n", TMPL_MARKDOWN, "{\"c\": \"x\"}",
	    "page.md:1: |code outside a fenced code block: 'c|code'");
	expect_err("```\nx\n```\n\n{{c|code}}\n", TMPL_MARKDOWN,
	    "{\"c\": \"x\"}",
	    "page.md:5: |code outside a fenced code block: 'c|code'");
	/* The fence's opening line is not inside it; two backticks are
	 * no fence; a closing fence must be as long as the opening. */
	expect_err("```{{c|code}}\n```\n", TMPL_MARKDOWN, "{\"c\": \"x\"}",
	    "page.md:1: |code outside a fenced code block: 'c|code'");
	expect_err("``\n{{c|code}}\n``\n", TMPL_MARKDOWN, "{\"c\": \"x\"}",
	    "page.md:2: |code outside a fenced code block: 'c|code'");
	expect("````\n```\n{{c|code}}\n````\n", "{\"c\": \"x\"}",
	    "````\n```\nx\n````\n");
	/* In HTML mode it is escaped as any value. */
	{
		mirror_error err;
		char *r = run("<p>{{c|code}}</p>", TMPL_HTML,
		    "{\"c\": \"<b>&\"}", NULL, &err);

		assert_non_null(r);
		assert_string_equal(r, "<p>&lt;b&gt;&amp;</p>");
		free(r);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_each),
		cmocka_unit_test(test_if),
		cmocka_unit_test(test_standalone),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_render_errors),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_shipped_parse),
		cmocka_unit_test(test_linear),
		cmocka_unit_test(test_fuzz_regressions),
		cmocka_unit_test(test_code_filter),
	};

	return cmocka_run_group_tests_name("template", tests, NULL, NULL);
}
