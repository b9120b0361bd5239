/*
 * search_docs.c: a project's documents as text, as a build keeps them
 * for the next one's update of the index (search_index.h).
 *
 * The text is a header line, then each document as seven fields, each
 * "<length>:<bytes>\n": layer, id, title, value, text, project, slug.
 * They are what an update needs of a document the last build added:
 * its identity (layer, id, project), and its words (title, value, id,
 * text) to take it out of their postings. Whatever the bytes, a field
 * says its length first, so nothing in the store's text can end one.
 */
#include <stdlib.h>
#include <string.h>

#include "search/search_files.h"
#include "search/search_index.h"

#define DOCS_HEAD "mirror search docs 2\n"

/* Field s (NULL: "") onto sb. */
static void
put_field(strbuf *sb, const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0;

	search_put10(sb, n);
	strbuf_putc(sb, ':');
	strbuf_add(sb, s != NULL ? s : "", n);
	strbuf_putc(sb, '\n');
}

void
search_docs_put(strbuf *sb, const struct search_doc *d)
{
	if (sb->len == 0)
		strbuf_puts(sb, DOCS_HEAD);
	put_field(sb, search_layer_name(search_rec_layer(d->what, d->layer)));
	put_field(sb, d->id);
	put_field(sb, d->title);
	put_field(sb, d->value);
	put_field(sb, d->text);
	put_field(sb, d->project);
	put_field(sb, d->pslug);
}

/* The field at *p (before end) into out, NUL-ended in place of the
 * newline after it; *p past it. Returns 0 or -1 when it is not one. */
static int
get_field(char **p, char *end, char **out)
{
	char *colon;
	unsigned long n;

	n = strtoul(*p, &colon, 10);
	if (colon == *p || colon >= end || *colon != ':' ||
	    n >= (unsigned long)(end - colon - 1) || colon[1 + n] != '\n')
		return -1;
	*out = colon + 1;
	colon[1 + n] = '\0';
	*p = colon + 2 + n;
	return 0;
}

int
search_docs_each(char *text, size_t len,
    int (*each)(void *arg, const struct search_doc *d, mirror_error *err),
    void *arg, mirror_error *err)
{
	char *p = text, *end = text + len;
	size_t hl = strlen(DOCS_HEAD);
	int rc = 0;

	if (len < hl || memcmp(text, DOCS_HEAD, hl) != 0)
		return 1;
	p += hl;
	while (rc == 0 && p < end) {
		char *f[7];
		enum search_what what;
		enum fact_layer layer;

		for (int i = 0; i < 7; i++)
			if (get_field(&p, end, &f[i]) < 0)
				return 1;
		if (search_layer_of_name(f[0], &what, &layer) < 0)
			return 1;
		rc = each(arg, &(struct search_doc){ .what = what,
		    .layer = layer, .id = f[1], .title = f[2], .value = f[3], .text = f[4],
		    .project = f[5], .pslug = f[6] }, err);
	}
	return rc;
}
