#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

void
strbuf_init(strbuf *sb)
{
	sb->cap = 64;
	sb->len = 0;
	sb->data = xmalloc(sb->cap);
	sb->data[0] = '\0';
}

void
strbuf_free(strbuf *sb)
{
	free(sb->data);
	sb->data = NULL;
	sb->len = sb->cap = 0;
}

char *
strbuf_detach(strbuf *sb)
{
	char *p = sb->data;

	/* Released, not re-initialised: a detach allocates nothing. */
	sb->data = NULL;
	sb->len = sb->cap = 0;
	return p;
}

void
strbuf_reset(strbuf *sb)
{
	sb->len = 0;
	sb->data[0] = '\0';
}

void
strbuf_grow(strbuf *sb, size_t extra)
{
	ARRAY_RESERVE(sb->data, sb->cap, sb->len + extra + 1);
}

void
strbuf_add(strbuf *sb, const void *p, size_t n)
{
	strbuf_grow(sb, n);
	memcpy(sb->data + sb->len, p, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

void
strbuf_puts(strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}


void
strbuf_printf(strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(sb->data + sb->len, sb->cap - sb->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sb->cap - sb->len) {
		strbuf_grow(sb, (size_t)n);
		va_start(ap, fmt);
		(void)vsnprintf(sb->data + sb->len, sb->cap - sb->len, fmt, ap);
		va_end(ap);
	}
	sb->len += (size_t)n;
}
