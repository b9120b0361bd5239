/*
 * serve_path.h: what a request to the preview server asks for, decided
 * from the request's bytes alone, before any file is opened (serve.c
 * then opens the answer below the site's root with out_open_beneath,
 * which follows no symbolic link).
 */
#ifndef MIRROR_SERVE_PATH_H
#define MIRROR_SERVE_PATH_H

#include <stddef.h>

#include "util/strbuf.h"

/* The longest request path taken, in bytes as sent (longer: 414). */
#define SERVE_URL_MAX 4096

/*
 * The file below the site's root that url, the request's path as the
 * client sent it (percent-escapes not decoded, no query), names, into
 * *out (the caller frees it): "/" and every path that ends in '/' name
 * the directory's index.html. Returns 0, or the HTTP status of the
 * refusal, with *out NULL:
 *   414  url is longer than SERVE_URL_MAX bytes;
 *   400  url does not start with '/', holds a byte outside printable
 *        ASCII, a '%' not followed by two hex digits, an escape of NUL,
 *        of a control byte, of '/' or of '\\', or a "." or ".."
 *        component (escaped or not);
 *   404  a path no site file can have (out_path_ok: an empty component,
 *        one of more than 255 bytes, a ".mirror" name).
 */
int serve_path(char **out, const char *url);

/*
 * The Content-Type of the file at path, by its extension ("text/html;
 * charset=utf-8" for .html, ...; application/octet-stream when
 * unknown). Never NULL.
 */
const char *serve_content_type(const char *path);

/* 1 when path names an HTML page (.html), which gets the reload
 * script; else 0. */
int serve_is_html(const char *path);

/*
 * Append html[0..len) to out with snippet inserted before its last
 * "</body" (any case), or after everything when there is none.
 */
void serve_inject(strbuf *out, const char *html, size_t len,
    const char *snippet);

#endif
