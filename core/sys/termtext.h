/*
 * termtext.h: text for a terminal, with nothing in it that a terminal
 * would act on.
 *
 * Every line mirror prints (errors, warnings, reports, the progress
 * line, text output of store rows) goes through termtext_escape, the
 * one sanitiser: store text, paths and arguments may hold ESC, BEL or a
 * newline, and printed raw they would set the window title, recolour
 * the terminal, or forge a line of output. --json output (JSON-escaped
 * already) and page content are never touched by it.
 */
#ifndef MIRROR_TERMTEXT_H
#define MIRROR_TERMTEXT_H

#include <stddef.h>
#include <stdio.h>

#include "util/strbuf.h"

/*
 * Append s[0..n) to sb, every control shown as a visible escape: each
 * byte of a C0 control (0x00-0x1f, newline and tab too), DEL (0x7f), a
 * C1 control (U+0080-U+009F, bytes C2 80 to C2 9F) and each byte that
 * is not part of valid UTF-8 becomes the four characters \xNN (lower
 * case hex). Anything else (printable ASCII, other valid UTF-8) is
 * copied as it is, a backslash too.
 */
void termtext_escape(strbuf *sb, const char *s, size_t n);

/*
 * 1 when s holds anything termtext_escape would escape, else 0. */
int termtext_has_control(const char *s);

/*
 * Print the formatted text to fp through termtext_escape, except one
 * '\n' that ends it, which is printed as a newline: so a call prints at
 * most one line, whatever its arguments hold. Returns 0, or -1 when fp
 * could not be written.
 */
int termtext_printf(FILE *fp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
