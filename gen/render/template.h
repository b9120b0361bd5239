/*
 * template.h: a small logic-less template engine (Mustache-like).
 *
 * Data model: a jansson object per page (the same objects can be written
 * as the api/ JSON files). Syntax, with NAME a dotted path (project.name):
 *
 *   {{NAME}}             the value, escaped for the template's mode
 *   {{.}}                the current item inside #each
 *   {{NAME|url}}         percent-encoded URL path segment (escape_url)
 *   {{NAME|path}}        a relative path, each segment as |url, the '/'
 *                        between them kept (escape_url_path)
 *   {{NAME|id}}          the value as-is; it must match [a-z0-9-]+, else
 *                        a render error (for element ids and fragments)
 *   {{NAME|slug}}        slug_make() of the value (gen/render/slug.h)
 *   {{NAME|code}}        the value verbatim on one line (escape_code_line),
 *                        for a command a reader copies; allowed only
 *                        inside a fenced code block of the template
 *                        (a parse error elsewhere); escape_html in HTML
 *   {{@index}} {{@number}}  0-based / 1-based position inside #each
 *   {{#each NAME}}...{{else}}...{{/each}}   loop over an array (null is
 *                        empty); the optional else part renders when it
 *                        is empty; @first and @last are true/false
 *   {{#if NAME}}...{{else}}...{{/if}}    NAME (or @first, @last) is false
 *   {{#unless NAME}}...{{else}}...{{/unless}}  when it is null, false, 0,
 *                        0.0, "", [] or {}; true otherwise
 *   {{! comment }}       dropped (may span lines)
 *   {{{content}}}        HTML mode only: the raw slot, filled with the
 *                        raw argument of tmpl_render (cmark output, never
 *                        store text); any other {{{...}}} is an error
 *
 * Spaces inside the braces are allowed: {{ name }}. "{{" always starts a
 * tag; there is no way to write a literal "{{".
 *
 * Values: strings as they are; integers in decimal; reals with %.15g;
 * true/false as "true"/"false"; null as "". An object or array where a
 * value is wanted is a render error.
 *
 * Escaping: every {{NAME}} goes through escape_md (TMPL_MARKDOWN) or
 * escape_html (TMPL_HTML); |url, |path and |id output is safe in both modes.
 * There is no raw insertion of data.
 *
 * Scopes: a name's first segment is looked up in the current #each item
 * (when it is an object), then in each enclosing item outward, then in
 * the root object; later segments descend into objects. A name that
 * resolves nowhere is an error, also in #if: a key that may be absent
 * must be present as null.
 *
 * Standalone lines: a line holding only whitespace and one block tag
 * (#each, #if, #unless, else, /each, /if, /unless) or comment is removed
 * whole, newline included, so Markdown layout stays clean.
 *
 * Errors are one line, "FILE:LINE: what 'NAME'", status MIRROR_EINPUT:
 * at parse time for unknown or unbalanced block tags, bad names or
 * filters, unterminated tags, a raw slot in Markdown mode, blocks nested
 * more than 64 deep; at render time
 * for names that resolve nowhere, wrong value types and |id mismatches.
 *
 * Costs: parse once, render many times; rendering is linear in the size
 * of its output. A parsed template is immutable and may be rendered from
 * several threads.
 */
#ifndef MIRROR_TEMPLATE_H
#define MIRROR_TEMPLATE_H

#include <stddef.h>

#include <jansson.h>

#include "util/error.h"
#include "util/strbuf.h"

enum tmpl_mode {
	TMPL_MARKDOWN,   /* templates/NAME.md: values through escape_md */
	TMPL_HTML        /* theme layouts: values through escape_html */
};

typedef struct tmpl tmpl;

/*
 * Parse len bytes of text as a template; name is used in error messages
 * (a file name). Returns 0 and a template in *out that the caller frees
 * with tmpl_free, or -MIRROR_EINPUT with *out NULL and err naming
 * name:line.
 */
int tmpl_parse(tmpl **out, const char *name, const char *text, size_t len,
    enum tmpl_mode mode, mirror_error *err);

/*
 * Read and parse the file at path (mode as given), opened as a user
 * file (userfile.h: a regular file, never a symbolic link, FIFO or
 * device; "templates PATH: ..." when refused). Returns 0, or
 * -MIRROR_EINPUT (refused, unreadable, over 16 MiB or a bad template)
 * with *out NULL.
 */
int tmpl_load(tmpl **out, const char *path, enum tmpl_mode mode,
    mirror_error *err);

/*
 * tmpl_load with what naming the file's origin in a refusal ("templates",
 * "theme") and flags as for userfile_open (USERFILE_MISSING_OK). Returns
 * 0 with *out, 1 with *out NULL when the file does not exist and flags
 * allow it, or -MIRROR_EINPUT with *out NULL.
 */
int tmpl_load_user(tmpl **out, const char *path, const char *what,
    enum tmpl_mode mode, int flags, mirror_error *err);

/*
 * Render t with data (a JSON object; NULL acts as {}) and append the
 * result to sb. raw fills {{{content}}} (may be NULL when t has none).
 * Returns 0, or -MIRROR_EINPUT with err naming file:line and name; on
 * failure sb holds a partial result that the caller discards.
 */
int tmpl_render(strbuf *sb, const tmpl *t, const json_t *data,
    const char *raw, mirror_error *err);

/* 1 when t holds the raw slot {{{content}}}, else 0. */
int tmpl_has_raw(const tmpl *t);

/* The name given at parse time (owned by t). */
const char *tmpl_name(const tmpl *t);

/* The text t was parsed from, *len bytes (owned by t). */
const char *tmpl_source(size_t *len, const tmpl *t);

void tmpl_free(tmpl *t);

/*
 * A set of templates from a directory, with per-file fallback: a file
 * present in user_dir (--templates DIR) wins; a file missing there comes
 * from default_dir (the repository's templates/, see datadir.h). Each
 * template is parsed once, on first use, and cached in the set.
 */
typedef struct tmpl_set tmpl_set;

/*
 * Open a set. user_dir may be NULL (no overrides). default_dir NULL
 * means datadir_find("templates"). Returns 0, or -MIRROR_EINPUT when
 * user_dir is not a directory, -MIRROR_EIO when no default directory is
 * found. Free with tmpl_set_free.
 */
int tmpl_set_open(tmpl_set **out, const char *user_dir,
    const char *default_dir, mirror_error *err);

/*
 * The template file name (e.g. "project.md"; a plain file name, no '/')
 * from the set, parsed in TMPL_MARKDOWN mode for *.md and TMPL_HTML
 * otherwise. *out is owned by the set. Returns 0, or -MIRROR_EINPUT when
 * the file is in neither directory or does not parse.
 */
int tmpl_set_get(const tmpl **out, tmpl_set *set, const char *name,
    mirror_error *err);

/*
 * The names of the set's page templates: every "*.md" file but
 * README.md in user_dir and default_dir, sorted, each once, into
 * *names (*n of them; free each and the array). Returns 0, or
 * -MIRROR_EIO when a directory cannot be listed.
 */
int tmpl_set_names(char ***names, size_t *n, const tmpl_set *set,
    mirror_error *err);

void tmpl_set_free(tmpl_set *set);

#endif
