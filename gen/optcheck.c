/*
 * optcheck.c: option values checked alike on the command line and in
 * the config file (optcheck.h).
 */
#include <stddef.h>
#include <strings.h>

#include "optcheck.h"

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
		    "not an absolute http:// or https:// URL", url);
	for (n = 0; host[n] != '\0' && host[n] != '/' && host[n] != '?' &&
	    host[n] != '#'; n++)
		;
	if (n == 0 || host[0] == ':' || host[0] == '@')
		return mirror_fail(err, MIRROR_EUSAGE, "--base-url: '%s' has "
		    "no host name", url);
	return 0;
}
