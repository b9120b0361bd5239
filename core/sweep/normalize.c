/*
 * normalize.c: identifier and value normalisation (SPEC 3.3).
 */
#include <stdlib.h>
#include <string.h>

#include "sweep/normalize.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static int
is_lower_alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static int
to_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	    c == '\v';
}

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

char *
norm_ident(const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0, k = 0;
	char *out = xmalloc(n + 1);
	int pending = 0;

	/* Written in place: this runs for every slot field of every row. */
	for (size_t i = 0; i < n; i++) {
		int c = to_lower((unsigned char)s[i]);

		if (!is_lower_alnum(c)) {
			pending = k > 0;
			continue;
		}
		if (pending)
			out[k++] = '_';
		pending = 0;
		out[k++] = (char)c;
	}
	out[k] = '\0';
	return out;
}

/* Case-fold ASCII and collapse whitespace runs to one space, trimmed. */
static void
fold_spaces(strbuf *out, const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0, k = 0;
	int space = 0;

	strbuf_grow(out, n + 1);
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i];

		if (is_space(c)) {
			space = k > 0;
			continue;
		}
		if (space)
			out->data[k++] = ' ';
		space = 0;
		out->data[k++] = (char)to_lower(c);
	}
	out->len = k;
	out->data[k] = '\0';
}

/* Drop a trailing period and matching surrounding quotes, repeatedly. */
static void
strip_wrapping(strbuf *sb)
{
	int changed = 1;

	while (changed && sb->len > 0) {
		char *d = sb->data;

		changed = 0;
		while (sb->len > 0 && d[sb->len - 1] == ' ')
			d[--sb->len] = '\0';
		if (sb->len > 0 && d[sb->len - 1] == '.') {
			d[--sb->len] = '\0';
			changed = 1;
		}
		if (sb->len >= 2 && (d[0] == '"' || d[0] == '\'' ||
		    d[0] == '`') && d[sb->len - 1] == d[0]) {
			memmove(d, d + 1, sb->len - 2);
			sb->len -= 2;
			d[sb->len] = '\0';
			changed = 1;
		}
		while (sb->len > 0 && d[0] == ' ') {
			memmove(d, d + 1, sb->len);
			sb->len--;
			changed = 1;
		}
	}
}

/*
 * If a number starts at s[i] (and s[i-1] does not make it part of a
 * word), write its canonical form to out, set *end past it and return 1.
 * A number is [+-]digits[.digits] or [+-].digits; one followed by '.'
 * and a digit (an address, a version "1.2.3") or by '_' is not one.
 */
static int
number_at(strbuf *out, const char *s, size_t i, size_t *end)
{
	size_t j = i, ib, ie, fb, fe;
	int neg = 0;

	if (i > 0 && (is_lower_alnum((unsigned char)s[i - 1]) ||
	    s[i - 1] == '.' || s[i - 1] == '_' || s[i - 1] == '-' ||
	    s[i - 1] == '+'))
		return 0;
	if (s[j] == '-' || s[j] == '+') {
		neg = s[j] == '-';
		j++;
	}
	ib = j;
	while (is_digit((unsigned char)s[j]))
		j++;
	ie = j;
	fb = fe = j;
	if (s[j] == '.' && is_digit((unsigned char)s[j + 1])) {
		fb = ++j;
		while (is_digit((unsigned char)s[j]))
			j++;
		fe = j;
	}
	if (ie == ib && fe == fb)
		return 0;
	if ((s[j] == '.' && is_digit((unsigned char)s[j + 1])) ||
	    s[j] == '_' || is_digit((unsigned char)s[j]))
		return 0;
	while (ib + 1 < ie && s[ib] == '0')
		ib++;
	while (fe > fb && s[fe - 1] == '0')
		fe--;
	if (neg && !((ie > ib && !(ie - ib == 1 && s[ib] == '0')) || fe > fb))
		neg = 0;   /* -0 and -0.0 are 0 */
	if (neg)
		strbuf_putc(out, '-');
	if (ie > ib)
		strbuf_add(out, s + ib, ie - ib);
	else
		strbuf_putc(out, '0');
	if (fe > fb) {
		strbuf_putc(out, '.');
		strbuf_add(out, s + fb, fe - fb);
	}
	/* A unit glued to the number is set apart: 4.8kg == 4.8 kg. Units
	 * are Unicode too (20°C, 5µm, 10Ω, 3‰): any byte of a multi-byte
	 * UTF-8 character ends the number as a letter does. */
	if (is_alpha((unsigned char)s[j]) || s[j] == '%' ||
	    (unsigned char)s[j] >= 0x80)
		strbuf_putc(out, ' ');
	*end = j;
	return 1;
}

char *
norm_value(const char *s)
{
	strbuf folded, out;
	size_t i = 0;

	strbuf_init(&folded);
	strbuf_init(&out);
	fold_spaces(&folded, s);
	strip_wrapping(&folded);
	while (i < folded.len) {
		const char *d = folded.data;
		int c = (unsigned char)d[i];
		size_t end;

		if ((is_digit(c) || c == '-' || c == '+' || c == '.') &&
		    number_at(&out, d, i, &end)) {
			i = end;
			continue;
		}
		/* Copy a whole word so a number is never found mid-word. */
		if (is_lower_alnum(c) || c == '_' || c == '.') {
			while (i < folded.len && (is_lower_alnum(
			    (unsigned char)d[i]) || d[i] == '_' || d[i] == '.'))
				strbuf_putc(&out, d[i++]);
			continue;
		}
		strbuf_putc(&out, (char)c);
		i++;
	}
	strbuf_free(&folded);
	return strbuf_detach(&out);
}

static int
ends_with(const char *w, size_t n, const char *suf)
{
	size_t k = strlen(suf);

	return n >= k && memcmp(w + n - k, suf, k) == 0;
}

void
norm_singular(char *w)
{
	size_t n = strlen(w);

	if (n <= 3)
		return;
	if (ends_with(w, n, "ies") && n > 4) {
		strcpy(w + n - 3, "y");
	} else if (ends_with(w, n, "sses") || ends_with(w, n, "shes") ||
	    ends_with(w, n, "ches") || ends_with(w, n, "xes") ||
	    ends_with(w, n, "zzes")) {
		w[n - 2] = '\0';
	} else if (ends_with(w, n, "ss") || ends_with(w, n, "us") ||
	    ends_with(w, n, "is")) {
		return;
	} else if (w[n - 1] == 's') {
		w[n - 1] = '\0';
	}
}
