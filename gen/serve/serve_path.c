/*
 * serve_path.c: request paths, content types and the reload script's
 * place in a page (see serve_path.h).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "output/out_fs.h"
#include "serve/serve_path.h"

/* The value of hex digit c, or -1. */
static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Decode url[1..] (the part after the leading '/') into sb. Returns 0,
 * or 400 for a byte or an escape serve_path refuses.
 */
static int
decode(strbuf *sb, const char *url)
{
	for (const char *p = url + 1; *p != '\0'; p++) {
		unsigned char c = (unsigned char)*p;
		int hi, lo;

		if (c <= 0x20 || c >= 0x7f || c == '\\')
			return 400;
		if (c != '%') {
			strbuf_putc(sb, (char)c);
			continue;
		}
		if ((hi = hexval(p[1])) < 0 || (lo = hexval(p[2])) < 0)
			return 400;
		c = (unsigned char)(hi * 16 + lo);
		if (c < 0x20 || c == 0x7f || c == '/' || c == '\\')
			return 400;
		strbuf_putc(sb, (char)c);
		p += 2;
	}
	return 0;
}

/* 1 when some component of path (a '/'-separated string) is "." or
 * "..". */
static int
has_dot_component(const char *path)
{
	for (const char *p = path;;) {
		size_t w = strcspn(p, "/");

		if ((w == 1 && p[0] == '.') ||
		    (w == 2 && p[0] == '.' && p[1] == '.'))
			return 1;
		if (p[w] == '\0')
			return 0;
		p += w + 1;
	}
}

int
serve_path(char **out, const char *url)
{
	strbuf sb;
	int rc;

	*out = NULL;
	if (strlen(url) > SERVE_URL_MAX)
		return 414;
	if (url[0] != '/')
		return 400;
	strbuf_init(&sb);
	if ((rc = decode(&sb, url)) == 0 && has_dot_component(sb.data))
		rc = 400;
	if (rc == 0 && (sb.len == 0 || sb.data[sb.len - 1] == '/'))
		strbuf_puts(&sb, "index.html");
	if (rc == 0 && !out_path_ok(sb.data))
		rc = 404;
	if (rc != 0) {
		strbuf_free(&sb);
		return rc;
	}
	*out = strbuf_detach(&sb);
	return 0;
}

/* UTF-8 text, as every text file mirror writes is. */
#define UTF8 "; charset=utf-8"

/*
 * Every kind of file a site holds, and the media type it is sent with:
 * the one table of them. What mirror writes (pages, their Markdown,
 * api/ JSON and TSV, sitemaps and the feed, search/ and the theme's
 * scripts, .gitattributes and .nojekyll, whose dot starts the name),
 * then what a theme's assets/ may ship. Text kinds say charset=utf-8.
 * Answers say nosniff, so a kind not here (octet-stream) is one a
 * browser will neither run nor style with: a script must be listed.
 */
static const struct {
	const char *ext;
	const char *type;
} types[] = {
	{ ".html", "text/html" UTF8 },
	{ ".md", "text/markdown" UTF8 },
	{ ".css", "text/css" UTF8 },
	{ ".js", "text/javascript" UTF8 },
	{ ".json", "application/json" UTF8 },
	{ ".tsv", "text/tab-separated-values" UTF8 },
	{ ".xml", "application/xml" UTF8 },
	{ ".gitattributes", "text/plain" UTF8 },
	{ ".nojekyll", "text/plain" UTF8 },
	/* A theme's assets. */
	{ ".mjs", "text/javascript" UTF8 },
	{ ".map", "application/json" UTF8 },
	{ ".webmanifest", "application/manifest+json" UTF8 },
	{ ".atom", "application/atom+xml" UTF8 },
	{ ".svg", "image/svg+xml" UTF8 },
	{ ".txt", "text/plain" UTF8 },
	{ ".csv", "text/csv" UTF8 },
	{ ".png", "image/png" },
	{ ".jpg", "image/jpeg" },
	{ ".jpeg", "image/jpeg" },
	{ ".gif", "image/gif" },
	{ ".webp", "image/webp" },
	{ ".avif", "image/avif" },
	{ ".ico", "image/x-icon" },
	{ ".woff2", "font/woff2" },
	{ ".woff", "font/woff" },
	{ ".pdf", "application/pdf" },
};

const char *
serve_content_type(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot != NULL && strchr(dot, '/') == NULL)
		for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			if (strcasecmp(dot, types[i].ext) == 0)
				return types[i].type;
	return "application/octet-stream";
}

int
serve_is_html(const char *path)
{
	size_t n = strlen(path);

	return n >= 5 && strcasecmp(path + n - 5, ".html") == 0;
}

void
serve_inject(strbuf *out, const char *html, size_t len, const char *snippet)
{
	size_t at = len;

	for (size_t i = len; i >= 6; i--)
		if (strncasecmp(html + i - 6, "</body", 6) == 0) {
			at = i - 6;
			break;
		}
	strbuf_add(out, html, at);
	strbuf_puts(out, snippet);
	strbuf_add(out, html + at, len - at);
}
