/*
 * git_sig.c: author parsing and the commit signature.
 */
#include <stdlib.h>
#include <string.h>

#include "git/git_ref.h"
#include "git/git_repo.h"
#include "git/git_sig.h"
#include "sys/termtext.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static int
sig_space(char c)
{
	return c == ' ' || c == '\t';
}

/* Copy of [s, e) with surrounding blanks trimmed. Caller frees. */
static char *
sig_trimmed(const char *s, const char *e)
{
	while (s < e && sig_space(*s))
		s++;
	while (e > s && sig_space(e[-1]))
		e--;
	return xstrndup(s, (size_t)(e - s));
}

int
mgit_parse_author(char **name, char **email, const char *author,
    mirror_error *err)
{
	const char *lt, *gt, *end;

	*name = *email = NULL;
	if (author == NULL)
		return mirror_fail(err, MIRROR_EUSAGE, "--author: missing");
	if (termtext_has_control(author))
		return mirror_fail(err, MIRROR_EUSAGE, "--author: a control "
		    "character or a byte that is not UTF-8 in '%s'", author);
	end = author + strlen(author);
	while (end > author && sig_space(end[-1]))
		end--;
	lt = strchr(author, '<');
	gt = strchr(author, '>');
	if (lt == NULL || gt == NULL || gt < lt)
		return mirror_fail(err, MIRROR_EUSAGE, "--author: '%s' is not "
		    "of the form 'Name <email>'", author);
	if (gt + 1 != end)
		return mirror_fail(err, MIRROR_EUSAGE, "--author: text after "
		    "'>' in '%s'", author);
	if (strchr(lt + 1, '<') != NULL || strchr(gt + 1, '>') != NULL)
		return mirror_fail(err, MIRROR_EUSAGE, "--author: more than "
		    "one '<' or '>' in '%s'", author);
	*name = sig_trimmed(author, lt);
	*email = sig_trimmed(lt + 1, gt);
	if ((*name)[0] == '\0' || (*email)[0] == '\0') {
		int no_name = (*name)[0] == '\0';

		free(*name);
		free(*email);
		*name = *email = NULL;
		return mirror_fail(err, MIRROR_EUSAGE, "--author: an empty %s "
		    "in '%s' (want 'Name <email>')", no_name ? "name" :
		    "email", author);
	}
	return 0;
}

/* Identity from the repository's config; the caller frees both. */
static int
config_identity(char **name, char **email, git_repository *repo,
    const char *repo_path, mirror_error *err)
{
	git_config *cfg = NULL;
	git_buf n = { NULL, 0, 0 }, e = { NULL, 0, 0 };
	int rc = 0;

	*name = *email = NULL;
	if (git_repository_config_snapshot(&cfg, repo) < 0)
		return mgit_fail(err, MIRROR_EIO, "%s: cannot read the "
		    "repository config", repo_path);
	if (git_config_get_string_buf(&n, cfg, "user.name") < 0 ||
	    git_config_get_string_buf(&e, cfg, "user.email") < 0 ||
	    n.size == 0 || e.size == 0) {
		git_error_clear();
		rc = mirror_fail(err, MIRROR_EUSAGE, "%s: no commit author: "
		    "give --author 'Name <email>' or set user.name and "
		    "user.email in this repository's config (global and "
		    "system git config are not read)", repo_path);
		goto out;
	}
	/* A newline or '<' here would forge a header of the commit. */
	for (const char *p = n.ptr; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == '<' || *p == '>')
			rc = -1;
	for (const char *p = e.ptr; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == '<' || *p == '>')
			rc = -1;
	if (rc < 0) {
		rc = mirror_fail(err, MIRROR_EINPUT, "%s: user.name or "
		    "user.email in the repository config holds a control "
		    "character, '<' or '>'", repo_path);
		goto out;
	}
	*name = xstrdup(n.ptr);
	*email = xstrdup(e.ptr);
out:
	git_buf_dispose(&n);
	git_buf_dispose(&e);
	git_config_free(cfg);
	return rc;
}

int
mgit_reviewer(git_signature **out, const char *name,
    const git_signature *committer)
{
	strbuf email;
	int rc = 0, dash = 0;

	*out = NULL;
	for (const char *p = name; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f || *p == '<' ||
		    *p == '>')
			return 1;
	strbuf_init(&email);
	/* ASCII letters and digits kept, lower case; any other run one
	 * '-', none at either end. */
	for (const char *p = name; *p != '\0'; p++) {
		char c = *p;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash && email.len > 0)
				strbuf_putc(&email, '-');
			strbuf_putc(&email, c);
			dash = 0;
		} else
			dash = 1;
	}
	if (email.len == 0)
		strbuf_puts(&email, "reviewer");
	strbuf_puts(&email, "@reviewer.invalid");
	if (git_signature_new(out, name, email.data, committer->when.time,
	    committer->when.offset) < 0) {
		*out = NULL;
		rc = 1;
	}
	strbuf_free(&email);
	return rc;
}

int
mgit_signature(git_signature **out, const struct mgit_branch *br,
    const char *author, time_t when, mirror_error *err)
{
	git_repository *repo = br->repo;
	const char *repo_path = br->repo_path;
	char *name = NULL, *email = NULL;
	int rc;

	*out = NULL;
	if (author != NULL)
		rc = mgit_parse_author(&name, &email, author, err);
	else
		rc = config_identity(&name, &email, repo, repo_path, err);
	if (rc < 0)
		return rc;
	/* UTC: the same store and time give the same bytes anywhere. */
	if (git_signature_new(out, name, email, (git_time_t)when, 0) < 0) {
		rc = mgit_fail(err, author != NULL ? MIRROR_EUSAGE :
		    MIRROR_EIO, "%s: bad commit author '%s <%s>'",
		    author != NULL ? "--author" : repo_path, name, email);
		*out = NULL;
	} else if (git_repository_set_ident(repo, name, email) < 0) {
		rc = mgit_fail(err, MIRROR_EIO, "%s: cannot set the reflog "
		    "identity", repo_path);
		git_signature_free(*out);
		*out = NULL;
	}
	free(name);
	free(email);
	return rc;
}
