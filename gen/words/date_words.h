/*
 * date_words.h: a store date said as a person reads it, "28 Nov 2026".
 * Pure text, no clock: the date comes from the data.
 */
#ifndef MIRROR_DATE_WORDS_H
#define MIRROR_DATE_WORDS_H

/* Room for "31 Sep 2026" and its NUL, with the room snprintf asks
 * for a day of any int. */
#define DATE_WORDS_SIZE 24

/*
 * 1 when s starts with a calendar date "YYYY-MM-DD" (month 01 to 12,
 * day 01 to 31; the rest of s is not looked at), else 0. s may be NULL.
 */
int date_words_valid(const char *s);

/*
 * "28 Nov 2026" (the day without a leading zero) from the date that
 * starts iso, into out. Returns 0, or -1 (out "") when iso does not
 * start with a date (date_words_valid).
 */
int date_words(char out[DATE_WORDS_SIZE], const char *iso);

#endif
