/*
 * git_message.c: subject, page list and trailers of a mirror commit.
 */
#include <stdlib.h>
#include <string.h>

#include "git/git_message.h"
#include "util/xalloc.h"

struct page {
	char *key;     /* path without .md / .html */
	int kind;
};

static int
cmp_page(const void *a, const void *b)
{
	const struct page *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	/* Same key: order by kind too, so qsort's result is total. */
	return c != 0 ? c : x->kind - y->kind;
}

static int
has_suffix(const char *s, size_t len, const char *suf)
{
	size_t n = strlen(suf);

	return len > n && memcmp(s + len - n, suf, n) == 0;
}

static int
is_control(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7f;
}

/* Append s with control characters replaced by repl. */
static void
put_clean(strbuf *out, const char *s, char repl)
{
	for (; *s != '\0'; s++)
		strbuf_putc(out, is_control(*s) ? repl : *s);
}

static int
plain_line(const char *s)
{
	for (; *s != '\0'; s++)
		if (is_control(*s))
			return 0;
	return 1;
}

/* 1 when s is lines, each ending in '\n', with no other control. */
static int
plain_lines(const char *s)
{
	for (; *s != '\0'; s++)
		if (is_control(*s) && !(*s == '\n' && s[1] != '\n'))
			return 0;
	return 1;
}

/* "7 pages changed, 2 added, 1 removed": the first count names pages. */
static void
put_page_summary(strbuf *out, const struct mgit_counts *c)
{
	const size_t num[3] = { c->pages_changed, c->pages_added,
	    c->pages_removed };
	static const char *const verb[3] = { "changed", "added", "removed" };
	int first = 1;

	for (int i = 0; i < 3; i++) {
		if (num[i] == 0)
			continue;
		if (first)
			strbuf_printf(out, "%zu %s %s", num[i],
			    num[i] == 1 ? "page" : "pages", verb[i]);
		else
			strbuf_printf(out, ", %zu %s", num[i], verb[i]);
		first = 0;
	}
}

/* Group changed twins into pages, sorted; returns how many. */
static size_t
collect_pages(struct page **out, const struct mgit_change *ch, size_t n)
{
	struct page *p = xcalloc(n ? n : 1, sizeof(*p));
	size_t np = 0, merged = 0;

	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(ch[i].path);

		if (has_suffix(ch[i].path, len, ".md"))
			len -= 3;
		else if (has_suffix(ch[i].path, len, ".html"))
			len -= 5;
		else
			continue;
		p[np].key = xstrndup(ch[i].path, len);
		p[np].kind = ch[i].kind;
		np++;
	}
	qsort(p, np, sizeof(*p), cmp_page);
	for (size_t i = 0; i < np; i++) {
		if (merged > 0 && strcmp(p[merged - 1].key, p[i].key) == 0) {
			/* Twins that disagree (one new, one edited): changed. */
			if (p[merged - 1].kind != p[i].kind)
				p[merged - 1].kind = MGIT_CHANGED;
			free(p[i].key);
			continue;
		}
		p[merged++] = p[i];
	}
	*out = p;
	return merged;
}

/*
 * The subject without words: what the sweep said (changes), then the
 * page counts, or the file count when no page changed; "no change" when
 * there is nothing at all. One line, newline included.
 */
static void
put_counted_subject(strbuf *out, const char *changes,
    const struct mgit_counts *counts, size_t np, size_t n)
{
	int has_changes = 0;

	for (const char *p = changes; p != NULL && *p != '\0'; p++)
		if (*p != ' ' && !is_control(*p))
			has_changes = 1;
	if (has_changes)
		put_clean(out, changes, ' ');
	if (np > 0) {
		if (has_changes)
			strbuf_puts(out, "; ");
		put_page_summary(out, counts);
	} else if (n > 0) {
		if (has_changes)
			strbuf_puts(out, "; ");
		strbuf_printf(out, "%zu %s changed", n, n == 1 ? "file" :
		    "files");
	} else if (!has_changes) {
		strbuf_puts(out, "no change");
	}
	strbuf_putc(out, '\n');
}

/* The pages[0..np) by kind, at most MGIT_MESSAGE_LIST_MAX lines, then
 * "... and N more". */
static void
put_page_list(strbuf *out, const struct page *pages, size_t np)
{
	static const int order[3] = { MGIT_ADDED, MGIT_CHANGED, MGIT_REMOVED };
	static const char *const title[3] = { "Pages added:",
	    "Pages changed:", "Pages removed:" };
	size_t listed = 0;

	if (np > 0)
		strbuf_putc(out, '\n');
	for (int k = 0; k < 3; k++) {
		int titled = 0;

		for (size_t i = 0; i < np; i++) {
			if (pages[i].kind != order[k] ||
			    listed >= MGIT_MESSAGE_LIST_MAX)
				continue;
			if (!titled)
				strbuf_printf(out, "%s\n", title[k]);
			titled = 1;
			strbuf_puts(out, "  ");
			put_clean(out, pages[i].key, '?');
			strbuf_putc(out, '\n');
			listed++;
		}
	}
	if (np > listed)
		strbuf_printf(out, "  ... and %zu more\n", np - listed);
}

/* The trailer paragraph: the sweep run, the store checksum and the
 * words' own trailers (Resolved-by: ...), when there is any. */
static void
put_trailers(strbuf *out, const char *run_id, const char *checksum,
    const struct hw_words *words)
{
	int has_run = run_id != NULL && run_id[0] != '\0';
	int has_sum = checksum != NULL && checksum[0] != '\0';

	if (!has_run && !has_sum && (words == NULL || words->trailers.len == 0))
		return;
	strbuf_putc(out, '\n');
	if (has_run)
		strbuf_printf(out, "Mirror-Sweep-Run: %s\n", run_id);
	if (has_sum)
		strbuf_printf(out, "Mirror-Store-Checksum: %s\n", checksum);
	if (words != NULL)
		strbuf_puts(out, words->trailers.data);
}

int
mgit_message(strbuf *out, struct mgit_counts *counts,
    const struct mgit_message_in *in, mirror_error *err)
{
	const struct mgit_change *ch = in->ch;
	size_t n = in->n;
	const char *changes = in->changes;
	const struct hw_words *words = in->words;
	const char *run_id = in->run_id, *checksum = in->checksum;
	struct page *pages;
	size_t np;

	memset(counts, 0, sizeof(*counts));
	if (in->words != NULL && !plain_lines(in->words->totals.data))
		return mirror_fail(err, MIRROR_EINPUT, "commit message: the "
		    "open totals hold a control character");
	if (words != NULL && words->subject.len == 0)
		words = NULL;       /* nothing in words: count pages */
	if ((run_id != NULL && !plain_line(run_id)) ||
	    (checksum != NULL && !plain_line(checksum)) ||
	    (words != NULL && (!plain_line(words->subject.data) ||
	    !plain_lines(words->body.data) ||
	    !plain_lines(words->trailers.data))))
		return mirror_fail(err, MIRROR_EINPUT, "commit message: a "
		    "trailer value holds a control character");
	counts->files_changed = n;
	np = collect_pages(&pages, ch, n);
	for (size_t i = 0; i < np; i++) {
		if (pages[i].kind == MGIT_ADDED)
			counts->pages_added++;
		else if (pages[i].kind == MGIT_REMOVED)
			counts->pages_removed++;
		else
			counts->pages_changed++;
	}
	if (words != NULL) {
		/* Subject: the change itself, from the facts and conflicts. */
		strbuf_printf(out, "%s\n", words->subject.data);
		if (words->body.len > 0)
			strbuf_printf(out, "\n%s", words->body.data);
	} else {
		put_counted_subject(out, changes, counts, np, n);
	}
	/* The state after the commit, whether or not facts changed. */
	if (in->words != NULL && in->words->totals.len > 0)
		strbuf_printf(out, "\n%s", in->words->totals.data);
	put_page_list(out, pages, np);
	put_trailers(out, run_id, checksum, words);
	for (size_t i = 0; i < np; i++)
		free(pages[i].key);
	free(pages);
	return 0;
}

void
mgit_sweep_words(strbuf *out, long long opened, long long resolved,
    long long members_added)
{
	const char *sep = "";

	if (opened > 0) {
		strbuf_printf(out, "%lld %s opened", opened, opened == 1 ?
		    "conflict" : "conflicts");
		sep = ", ";
	}
	if (resolved > 0) {
		strbuf_printf(out, "%s%lld %sresolved", sep, resolved,
		    opened > 0 ? "" : resolved == 1 ? "conflict " :
		    "conflicts ");
		sep = ", ";
	}
	if (members_added > 0)
		strbuf_printf(out, "%s%lld %s added", sep, members_added,
		    members_added == 1 ? "member" : "members");
}
