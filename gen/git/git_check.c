/*
 * git_check.c: a repository's own files checked before libgit2 reads
 * them (see git_check.h). The config reader follows libgit2 1.5's
 * (config_parse.c) closely enough to find every include it would
 * follow and every value it would refuse.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "git/git_check.h"
#include "sys/userfile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* libgit2 stops at this depth of includes (MAX_INCLUDE_DEPTH). */
#define INCLUDE_DEPTH_MAX 10

enum vtype { V_BOOL, V_BOOL_ALWAYS, V_INT };

/*
 * Every key mirror reads (core.logAllRefUpdates in git_ref.c) or that
 * libgit2 reads opening the repository and writing objects and refs;
 * a bad value there fails only when the branch is moved.
 */
static const struct {
	const char *key;        /* lower case, as libgit2 stores it */
	const char *shown;      /* as git's documentation spells it */
	enum vtype type;
} known_keys[] = {
	{ "core.bare", "core.bare", V_BOOL },
	{ "core.filemode", "core.fileMode", V_BOOL },
	{ "core.fsyncobjectfiles", "core.fsyncObjectFiles", V_BOOL },
	{ "core.ignorecase", "core.ignoreCase", V_BOOL },
	{ "core.logallrefupdates", "core.logAllRefUpdates", V_BOOL_ALWAYS },
	{ "core.precomposeunicode", "core.precomposeUnicode", V_BOOL },
	{ "core.repositoryformatversion", "core.repositoryFormatVersion",
	    V_INT },
	{ "core.symlinks", "core.symlinks", V_BOOL },
};

/* 1 when s is an integer as libgit2 reads one (base 0, k/m/g). */
static int
is_int(const char *s)
{
	char *end;

	errno = 0;
	(void)strtoll(s, &end, 0);
	if (errno != 0 || end == s)
		return 0;
	if (*end == 'k' || *end == 'K' || *end == 'm' || *end == 'M' ||
	    *end == 'g' || *end == 'G')
		end++;
	return *end == '\0';
}

/* 1 when s is a boolean as git_config_parse_bool reads one. */
static int
is_bool(const char *s)
{
	static const char *const words[] = { "true", "yes", "on", "false",
	    "no", "off", "" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcasecmp(s, words[i]) == 0)
			return 1;
	return is_int(s);
}

int
mgit_check_value(const char *where, const char *key, const char *value,
    mirror_error *err)
{
	const char *want;
	int good;

	for (size_t i = 0; i < sizeof(known_keys) / sizeof(known_keys[0]); i++) {
		if (strcmp(key, known_keys[i].key) != 0)
			continue;
		if (value == NULL)
			return 0;   /* a key alone is "true" */
		switch (known_keys[i].type) {
		case V_BOOL:
			good = is_bool(value);
			want = "a boolean (true/false, yes/no, on/off, 1/0)";
			break;
		case V_BOOL_ALWAYS:
			good = is_bool(value) || strcasecmp(value,
			    "always") == 0;
			want = "a boolean (true/false, yes/no, on/off, 1/0) "
			    "or 'always'";
			break;
		default:
			good = is_int(value);
			want = "an integer";
			break;
		}
		if (good)
			return 0;
		return mirror_fail(err, MIRROR_EINPUT, "%s: %s = '%.100s' is "
		    "not %s", where, known_keys[i].shown, value, want);
	}
	return 0;
}

/*
 * stat path (following links, as git does): *there = 0 when it does not
 * exist; 1 when it is a regular file (or a directory when dir_ok).
 * Returns 0, or -MIRROR_EINPUT naming shown and what it is.
 */
static int
plain_or_absent(int *there, const char *path, const char *shown,
    int dir_ok, mirror_error *err)
{
	struct stat st;

	*there = 0;
	if (stat(path, &st) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return mirror_fail(err, MIRROR_EINPUT, "%s: %s", shown,
		    strerror(errno));
	}
	*there = 1;
	if (S_ISREG(st.st_mode) || (dir_ok && S_ISDIR(st.st_mode)))
		return 0;
	return mirror_fail(err, MIRROR_EINPUT, "%s: %s, not a regular file",
	    shown, userfile_kind(st.st_mode));
}

/*
 * Read path (checked regular: never blocks) into sb. Returns 0, 1 when
 * it does not exist, or -MIRROR_EINPUT naming shown.
 */
static int
slurp(strbuf *sb, const char *path, const char *shown, mirror_error *err)
{
	char chunk[65536];
	struct stat st;
	ssize_t n;
	int fd, there, rc;

	if ((rc = plain_or_absent(&there, path, shown, 0, err)) < 0)
		return rc;
	if (!there)
		return 1;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 1 : mirror_fail(err, MIRROR_EINPUT,
		    "%s: %s", shown, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return mirror_fail(err, MIRROR_EINPUT, "%s: not a regular "
		    "file", shown);
	}
	rc = 0;
	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			rc = mirror_fail(err, MIRROR_EINPUT, "%s: %s", shown,
			    strerror(errno));
		if (n <= 0)
			break;
		strbuf_add(sb, chunk, (size_t)n);
	}
	close(fd);
	return rc;
}

/* One config file being read: where it is and how deep in includes. */
struct scan {
	const char *path;       /* as libgit2 opens it */
	const char *shown;      /* as messages name it */
	int depth;
	mirror_error *err;
};

static int scan_config(const char *path, const char *shown, int depth,
    mirror_error *err);

static int
cfg_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/*
 * Cut a comment (';' or '#' outside quotes, not escaped) and trailing
 * blanks off line; returns the count of quotes seen (odd: still open).
 */
static int
strip_comments(char *line, int in_quotes)
{
	int quotes = in_quotes, backslashes = 0;
	char *p;

	for (p = line; *p != '\0'; p++) {
		if (*p == '"' && (p == line || p[-1] != '\\'))
			quotes++;
		if ((*p == ';' || *p == '#') && quotes % 2 == 0 &&
		    backslashes % 2 == 0) {
			*p = '\0';
			break;
		}
		backslashes = *p == '\\' ? backslashes + 1 : 0;
	}
	while (p > line && cfg_space((unsigned char)p[-1]))
		p--;
	*p = '\0';
	return quotes;
}

/*
 * Append the unquoted, unescaped s to val; *multi = 1 when s ends in a
 * backslash (the value goes on). Returns 0, or -1 on a bad escape.
 */
static int
unescape(strbuf *val, int *multi, const char *s)
{
	static const char from[] = "ntb\"\\", to[] = "\n\t\b\"\\";
	const char *e;

	*multi = 0;
	for (; *s != '\0'; s++) {
		if (*s == '"')
			continue;
		if (*s != '\\') {
			strbuf_putc(val, *s);
			continue;
		}
		if (*++s == '\0') {
			*multi = 1;
			return 0;
		}
		if ((e = strchr(from, *s)) == NULL)
			return -1;
		strbuf_putc(val, to[e - from]);
	}
	return 0;
}

/*
 * The file a config include names, as libgit2 finds it: "~/" against
 * HOME, else relative to the naming file's directory. Returns 0 and
 * *out (the caller frees it), or 1 when there is none to find.
 */
static int
include_target(char **out, const char *from, const char *value)
{
	const char *home, *slash;
	strbuf t;

	*out = NULL;
	strbuf_init(&t);
	if (value[0] == '~' && value[1] == '/') {
		if ((home = getenv("HOME")) == NULL || home[0] == '\0') {
			strbuf_free(&t);
			return 1;
		}
		strbuf_printf(&t, "%s%s", home, value + 1);
	} else if (value[0] == '/') {
		strbuf_puts(&t, value);
	} else {
		slash = strrchr(from, '/');
		if (slash != NULL)
			strbuf_add(&t, from, (size_t)(slash - from) + 1);
		strbuf_puts(&t, value);
	}
	*out = strbuf_detach(&t);
	return 0;
}

/* One variable of the file: its value checked, its include followed. */
static int
variable(struct scan *s, int lineno, const char *key, const char *value)
{
	char where[4200];
	char *target;
	struct stat st;
	size_t kl = strlen(key);
	int n, rc;

	n = snprintf(where, sizeof(where), "%s:%d", s->shown, lineno);
	if (n < 0 || (size_t)n >= sizeof(where))
		return mirror_fail(s->err, MIRROR_EINPUT, "%s: a config file "
		    "path too long", s->shown);
	if ((rc = mgit_check_value(where, key, value, s->err)) < 0)
		return rc;
	if (value == NULL || !(strcmp(key, "include.path") == 0 ||
	    (strncmp(key, "includeif.", 10) == 0 && kl > 15 &&
	    strcmp(key + kl - 5, ".path") == 0)))
		return 0;
	if (include_target(&target, s->path, value) != 0)
		return 0;
	rc = 0;
	if (stat(target, &st) < 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			rc = mirror_fail(s->err, MIRROR_EINPUT, "%s: %s '%s' "
			    "names %s: %s", where, key, value, target,
			    strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		rc = mirror_fail(s->err, MIRROR_EINPUT, "%s: %s '%s' names "
		    "%s: %s, not a regular file", where, key, value, target,
		    userfile_kind(st.st_mode));
	} else if (s->depth + 1 < INCLUDE_DEPTH_MAX) {
		rc = scan_config(target, target, s->depth + 1, s->err);
	}
	free(target);
	return rc;
}

/*
 * Parse a section header at *p (at '['): *section gets its name as
 * libgit2 keys it ("includeif.gitdir:/x"). Returns the rest of the line
 * after ']', or NULL when the header is bad (libgit2 reports it).
 */
static char *
header(strbuf *section, char *p)
{
	strbuf_reset(section);
	for (p++; *p != ']'; p++) {
		if (*p == '\0')
			return NULL;
		if (cfg_space((unsigned char)*p))
			break;
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '.')
			return NULL;
		strbuf_putc(section, (char)tolower((unsigned char)*p));
	}
	if (*p == ']')
		return p + 1;
	while (cfg_space((unsigned char)*p))
		p++;
	if (*p++ != '"')
		return NULL;
	strbuf_putc(section, '.');
	for (; *p != '"'; p++) {
		if (*p == '\0')
			return NULL;
		if (*p == '\\' && *++p == '\0')
			return NULL;
		strbuf_putc(section, *p);
	}
	p++;
	return *p == ']' ? p + 1 : NULL;
}

/* Read every variable of the file in buf; returns 0 or < 0. */
static int
scan_text(struct scan *s, char *buf, size_t len)
{
	char *line = buf, *end = buf + len, *nl, *p, *name;
	strbuf section, key, val;
	int lineno = 0, rc = 0, have_section = 0, multi, quotes;

	strbuf_init(&section);
	strbuf_init(&key);
	strbuf_init(&val);
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		line += 3;
	while (rc == 0 && line < end) {
		nl = memchr(line, '\n', (size_t)(end - line));
		if (nl != NULL)
			*nl = '\0';
		lineno++;
		p = line;
		line = nl != NULL ? nl + 1 : end;
restart:
		while (cfg_space((unsigned char)*p))
			p++;
		if (*p == '\0' || *p == ';' || *p == '#')
			continue;
		if (*p == '[') {
			if ((p = header(&section, p)) == NULL)
				break;
			have_section = 1;
			goto restart;
		}
		quotes = strip_comments(p, 0);
		for (name = p; isalnum((unsigned char)*p) || *p == '-'; p++)
			;
		if (p == name)
			break;
		strbuf_reset(&key);
		if (have_section)
			strbuf_printf(&key, "%s.", section.data);
		for (char *c = name; c < p; c++)
			strbuf_putc(&key, (char)tolower((unsigned char)*c));
		while (cfg_space((unsigned char)*p))
			p++;
		if (*p == '\0') {
			rc = variable(s, lineno, key.data, NULL);
			continue;
		}
		if (*p++ != '=')
			break;
		while (cfg_space((unsigned char)*p))
			p++;
		strbuf_reset(&val);
		if (unescape(&val, &multi, p) < 0)
			break;
		/* A value ending in '\' goes on on the next line. */
		while (multi && line < end) {
			nl = memchr(line, '\n', (size_t)(end - line));
			if (nl != NULL)
				*nl = '\0';
			p = line;
			line = nl != NULL ? nl + 1 : end;
			quotes = strip_comments(p, quotes % 2);
			if (*p == '\0')
				continue;
			if (unescape(&val, &multi, p) < 0)
				break;
		}
		rc = variable(s, lineno, key.data, val.data);
	}
	strbuf_free(&section);
	strbuf_free(&key);
	strbuf_free(&val);
	return rc;
}

/*
 * Check the config file at path (absent is fine) and, through its
 * includes, every file it names. Returns 0 or -MIRROR_EINPUT.
 */
static int
scan_config(const char *path, const char *shown, int depth,
    mirror_error *err)
{
	struct scan s = { path, shown, depth, err };
	strbuf buf;
	int rc;

	strbuf_init(&buf);
	rc = slurp(&buf, path, shown, err);
	if (rc == 0)
		rc = scan_text(&s, buf.data, buf.len);
	strbuf_free(&buf);
	return rc < 0 ? rc : 0;
}

/* 1 when s starts with 40 hex digits (an object id). */
static int
hex40(const char *s)
{
	for (int i = 0; i < 40; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/*
 * packed-refs as libgit2's packed_reload reads it: '#' lines first,
 * then "<40 hex> <refname>\n" lines, each optionally followed by
 * "^<40 hex>". Returns 0 or -MIRROR_EINPUT naming the line.
 */
static int
check_packed_refs(const char *path, const char *shown, mirror_error *err)
{
	strbuf buf;
	char *p, *end, *nl;
	int lineno = 0, rc, header = 1, after_ref = 0;

	strbuf_init(&buf);
	if ((rc = slurp(&buf, path, shown, err)) != 0) {
		strbuf_free(&buf);
		return rc < 0 ? rc : 0;
	}
	p = buf.data;
	end = buf.data + buf.len;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		lineno++;
		if (header && *p == '#') {
			if (nl == NULL)
				break;
			p = nl + 1;
			continue;
		}
		header = 0;
		if (*p == '^' && after_ref && hex40(p + 1)) {
			after_ref = 0;
			p = nl != NULL ? nl + 1 : end;
			continue;
		}
		if (nl == NULL || (size_t)(nl - p) < 41 || !hex40(p) ||
		    p[40] != ' ')
			break;
		after_ref = 1;
		p = nl + 1;
	}
	if (p < end)
		rc = mirror_fail(err, MIRROR_EINPUT, "%s:%d: not a line of "
		    "packed-refs ('<40 hex digits> <refname>'): the file is "
		    "corrupt", shown, lineno);
	strbuf_free(&buf);
	return rc;
}

/*
 * Read the first line of a small pointer file (a gitlink's "gitdir: X"
 * or commondir's "X") as a path relative to base. Returns 0 and *out
 * (the caller frees it), 1 when the file is absent, or < 0.
 */
static int
pointer_file(char **out, const char *path, const char *prefix,
    const char *base, mirror_error *err)
{
	strbuf buf, t;
	char *p, *nl;
	int rc;

	*out = NULL;
	strbuf_init(&buf);
	if ((rc = slurp(&buf, path, path, err)) != 0) {
		strbuf_free(&buf);
		return rc;
	}
	p = buf.data;
	if (strncmp(p, prefix, strlen(prefix)) != 0) {
		strbuf_free(&buf);
		return 1;           /* libgit2 refuses it in its own words */
	}
	p += strlen(prefix);
	if ((nl = strpbrk(p, "\r\n")) != NULL)
		*nl = '\0';
	strbuf_init(&t);
	if (p[0] == '/')
		strbuf_puts(&t, p);
	else
		strbuf_printf(&t, "%s/%s", base, p);
	*out = strbuf_detach(&t);
	strbuf_free(&buf);
	return 0;
}

int
mgit_check_files(const char *repo_path, mirror_error *err)
{
	char *gitdir = NULL, *common = NULL, *real = NULL;
	strbuf p, shown;
	struct stat st;
	int rc, there;

	strbuf_init(&p);
	strbuf_init(&shown);
	/* Where libgit2 looks, NO_SEARCH: path/.git (a directory or a
	 * "gitdir:" file), then path itself. */
	strbuf_printf(&p, "%s/.git", repo_path);
	if ((rc = plain_or_absent(&there, p.data, p.data, 1, err)) < 0)
		goto out;
	if (there && stat(p.data, &st) == 0 && S_ISDIR(st.st_mode)) {
		gitdir = strbuf_detach(&p);
		strbuf_init(&p);
	} else if (there) {
		rc = pointer_file(&gitdir, p.data, "gitdir: ", repo_path,
		    err);
		if (rc != 0)
			goto out;
	} else {
		gitdir = xstrdup(repo_path);
	}
	strbuf_reset(&p);
	strbuf_printf(&p, "%s/gitdir", gitdir);
	if ((rc = plain_or_absent(&there, p.data, p.data, 0, err)) < 0)
		goto out;
	strbuf_reset(&p);
	strbuf_printf(&p, "%s/commondir", gitdir);
	rc = pointer_file(&common, p.data, "", gitdir, err);
	if (rc < 0)
		goto out;
	if (rc == 1)
		common = xstrdup(gitdir);
	/* libgit2 names the config through the real directory, and its
	 * relative includes start there. */
	if ((real = realpath(common, NULL)) == NULL) {
		rc = 0;             /* not there: opening says so */
		goto out;
	}
	strbuf_reset(&p);
	strbuf_printf(&p, "%s/config", real);
	strbuf_printf(&shown, "%s/config", common);
	if ((rc = scan_config(p.data, shown.data, 0, err)) < 0)
		goto out;
	strbuf_reset(&p);
	strbuf_reset(&shown);
	strbuf_printf(&p, "%s/packed-refs", real);
	strbuf_printf(&shown, "%s/packed-refs", common);
	rc = check_packed_refs(p.data, shown.data, err);
out:
	free(gitdir);
	free(common);
	free(real);
	strbuf_free(&p);
	strbuf_free(&shown);
	return rc < 0 ? rc : 0;
}
