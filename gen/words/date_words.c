/*
 * date_words.c: a store date in words (see date_words.h).
 */
#include <stdio.h>

#include "words/date_words.h"

/* The digits of s[0..n) as a number; s holds n digits. */
static int
digits(const char *s, int n)
{
	int v = 0;

	for (int k = 0; k < n; k++)
		v = v * 10 + (s[k] - '0');
	return v;
}

int
date_words_valid(const char *s)
{
	static const char shape[] = "dddd-dd-dd";
	int month, day;

	if (s == NULL)
		return 0;
	for (int k = 0; k < 10; k++) {
		if (shape[k] == 'd' ? s[k] < '0' || s[k] > '9' : s[k] != '-')
			return 0;
	}
	month = digits(s + 5, 2);
	day = digits(s + 8, 2);
	return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

int
date_words(char out[DATE_WORDS_SIZE], const char *iso)
{
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr",
	    "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	int n;

	out[0] = '\0';
	if (!date_words_valid(iso))
		return -1;
	n = snprintf(out, DATE_WORDS_SIZE, "%d %s %.4s", digits(iso + 8, 2),
	    months[digits(iso + 5, 2) - 1], iso);
	if (n < 0 || n >= DATE_WORDS_SIZE) {
		out[0] = '\0';
		return -1;
	}
	return 0;
}
