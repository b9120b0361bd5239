/*
 * optcheck.c: option values checked alike on the command line and in
 * the config file (optcheck.h).
 */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "cli/optcheck.h"
#include "sys/termtext.h"

/* Returns 0, or -MIRROR_EUSAGE naming what is wrong with url. */
int
optcheck_base_url(const char *url, mirror_error *err)
{
	const char *host;
	size_t n;

	if (url == NULL || url[0] == '\0')
		return mirror_fail(err, MIRROR_EUSAGE, "--base-url: an empty "
		    "URL");
	for (const char *p = url; *p != '\0'; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return mirror_fail(err, MIRROR_EUSAGE, "--base-url: "
			    "'%s' holds a blank or control character", url);
	if (strncasecmp(url, "https://", 8) == 0)
		host = url + 8;
	else if (strncasecmp(url, "http://", 7) == 0)
		host = url + 7;
	else
		return mirror_fail(err, MIRROR_EUSAGE, "--base-url: '%s' is "
		    "not an absolute http(s) URL (like "
		    "https://example.org/mirror)", url);
	n = strcspn(host, "/");
	if (n == 0 || host[0] == '.' || host[0] == ':' ||
	    strspn(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789.-:[]") != n)
		return mirror_fail(err, MIRROR_EUSAGE, "--base-url: '%s' has "
		    "no valid host name", url);
	/* Page paths are appended to it: a query or fragment would end up
	 * in the middle of every link. */
	for (const unsigned char *p = (const unsigned char *)host + n;
	    *p != '\0'; p++)
		if (*p >= 0x7f || strchr("\"'<>\\`{}|^?#", *p) != NULL)
			return mirror_fail(err, MIRROR_EUSAGE, "--base-url: "
			    "'%s' holds '%c' or a non-ASCII byte (no query, "
			    "fragment or quote)", url, *p < 0x7f ? *p : '?');
	return 0;
}

/* Returns 0, or -MIRROR_EUSAGE naming opt and value (escaped here:
 * mirror_fail would make a newline a blank). */
int
optcheck_text(const char *opt, const char *value, mirror_error *err)
{
	strbuf shown;
	int rc;

	if (value == NULL || !termtext_has_control(value))
		return 0;
	strbuf_init(&shown);
	termtext_escape(&shown, value, strlen(value));
	rc = mirror_fail(err, MIRROR_EUSAGE, "%s: '%s' holds a control "
	    "character or a byte that is not UTF-8 (it is recorded in the "
	    "store: one line of plain text)", opt, shown.data);
	strbuf_free(&shown);
	return rc;
}
