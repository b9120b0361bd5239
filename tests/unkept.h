/*
 * unkept.h: the words the HTML writer keeps whole (gen/render/markdown.h,
 * (i): <span class="nobreak">TOKEN</span>, <time>DATE</time>, no '<'
 * inside) put back as their text, for the tests whose oracle is that
 * store text renders as exactly its own text (the unit tests of the
 * escapers, fuzz_escape). Header only; include after util/strbuf.h.
 */
#ifndef MIRROR_TEST_UNKEPT_H
#define MIRROR_TEST_UNKEPT_H

#include <string.h>

#include "util/strbuf.h"

/* s (len bytes) appended to out, each run of open, bytes with no '<'
 * and close as those bytes. */
static inline void
unkept_one(strbuf *out, const char *s, size_t len, const char *open,
    const char *close)
{
	size_t ol = strlen(open), cl = strlen(close), i = 0;

	while (i < len) {
		const char *e;

		if (len - i > ol && memcmp(s + i, open, ol) == 0 &&
		    (e = memchr(s + i + ol, '<', len - i - ol)) != NULL &&
		    (size_t)(s + len - e) >= cl && memcmp(e, close, cl) == 0) {
			strbuf_add(out, s + i + ol, (size_t)(e - s) - i - ol);
			i = (size_t)(e - s) + cl;
		} else {
			strbuf_add(out, s + i++, 1);
		}
	}
}

/* html with the writer's kept words as their text, in place. */
static inline void
unkept(strbuf *html)
{
	strbuf a, b;

	strbuf_init(&a);
	strbuf_init(&b);
	unkept_one(&a, html->data != NULL ? html->data : "", html->len,
	    "<span class=\"nobreak\">", "</span>");
	unkept_one(&b, a.data != NULL ? a.data : "", a.len, "<time>",
	    "</time>");
	strbuf_reset(html);
	strbuf_add(html, b.data != NULL ? b.data : "", b.len);
	strbuf_free(&a);
	strbuf_free(&b);
}

#endif
