/*
 * config.c: mirror.ini, so a CI job needs one line.
 *
 *   # a comment              ; also a comment
 *   [mirror]                 (optional: the one section there is)
 *   store = facts.db         ; relative to this file's directory
 *   title = "Plant #1"       # quoted to keep '#', ';' or blanks
 *
 * The syntax, a strict subset of git-config's:
 *   - The file is UTF-8 (a leading byte order mark is skipped) with no
 *     NUL byte and no control character but TAB; lines end in LF or
 *     CRLF, and may be of any length.
 *   - Blank lines, and lines whose first non-blank is '#' or ';', are
 *     comments.
 *   - "[mirror]" opens the only section there is. Keys may come before
 *     it too (both forms mean the same); a second "[mirror]" or any
 *     other section is an error. Only blanks and a comment may follow
 *     the ']'.
 *   - "key = value": blanks around key and value are dropped. Keys are
 *     lower case, each at most once in the file:
 *       store out repo templates     paths; relative ones are taken
 *       rules sign_key               relative to the file's directory
 *       theme                        a name ([a-z0-9_-]+), or a path
 *                                    (holding '/', resolved as above)
 *       branch author base_url title text
 *       param.RULE.NAME              a value for parameter NAME of rule
 *                                    RULE (doc/rules.md), over the
 *                                    rule's default; may repeat for
 *                                    other rules and names
 *   - An unquoted value ends at a '#' or ';' that starts it or follows
 *     a blank: "title = Plant # note" is "Plant", "title = C#" is "C#".
 *     Quotes and backslashes inside it are kept as they are.
 *   - A value that starts with '"' is quoted: it runs to the next
 *     unescaped '"' on the same line, keeping '#', ';' and blanks; the
 *     only escapes are \" and \\ (any other backslash is an error).
 *     Only blanks and a comment may follow the closing quote.
 *   - No value may be empty; author must be "Name <email>", base_url an
 *     absolute http(s) URL, branch a valid git branch name.
 *
 * Every error is one line "config FILE:LINE: what" (exit 2), and nothing
 * of a file with an error is used. Values fill only the options the
 * command line left unset.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/optcheck.h"
#include "git/git_ref.h"
#include "git/git_repo.h"
#include "git/git_sig.h"
#include "render/theme.h"
#include "rules/rules.h"
#include "sys/userfile.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/utf8.h"
#include "util/xalloc.h"

enum key_kind {
	KEY_PATH,     /* relative to the config file's directory */
	KEY_TEXT,
	KEY_BRANCH,
	KEY_AUTHOR,
	KEY_THEME,    /* a name, or a path when it holds '/' */
	KEY_URL
};

struct config_key {
	const char *name;
	size_t offset;   /* of the const char * field in mirror_opts */
	enum key_kind kind;
};

#define OPT(f) offsetof(struct mirror_opts, f)
static const struct config_key keys[] = {
	{ "store", OPT(store), KEY_PATH },
	{ "out", OPT(out), KEY_PATH },
	{ "repo", OPT(repo), KEY_PATH },
	{ "branch", OPT(branch), KEY_BRANCH },
	{ "author", OPT(author), KEY_AUTHOR },
	{ "sign_key", OPT(sign_key), KEY_PATH },
	{ "templates", OPT(templates), KEY_PATH },
	{ "rules", OPT(rules), KEY_PATH },
	{ "theme", OPT(theme), KEY_THEME },
	{ "base_url", OPT(base_url), KEY_URL },
	{ "title", OPT(title), KEY_TEXT },
};
#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

#define SECTION "mirror"

/* One param.RULE.NAME key of the file, and its line. */
struct param_kv {
	char *rule, *name, *value;
	int line;
};

/* One file being read. */
struct parse {
	const char *path;         /* as given, for messages */
	char *dir;                /* path's directory with '/', or "" */
	int lineno;
	int section_line;         /* of "[mirror]", 0 before it */
	int key_line[N_KEYS];     /* where each key was set, 0 if not */
	char *val[N_KEYS];        /* its value (paths resolved), or NULL */
	struct param_kv *params;  /* param.RULE.NAME keys */
	size_t nparams, cap_params;
	struct config_kept *kept; /* the caller's: what o keeps pointing to */
	mirror_error *err;
};

/*
 * Fail with "config FILE:LINE: " and the message; returns
 * -MIRROR_EINPUT.
 */
static int
bad(struct parse *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
bad(struct parse *p, const char *fmt, ...)
{
	char msg[sizeof(p->err->msg)];
	va_list ap;
	int n;

	n = snprintf(msg, sizeof(msg), "config %s:%d: ", p->path, p->lineno);
	/* A cut message still names the place: it stays one line. */
	if (n >= 0 && (size_t)n < sizeof(msg)) {
		va_start(ap, fmt);
		(void)vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return mirror_fail(p->err, MIRROR_EINPUT, "%s", msg);
}

/*
 * A check shared with the command line failed with e "--option: what":
 * say it as "config FILE:LINE: key: what". Returns -MIRROR_EINPUT.
 */
static int
bad_value(struct parse *p, const char *key, const mirror_error *e)
{
	const char *m = e->msg, *colon;

	colon = strncmp(m, "--", 2) == 0 ? strstr(m, ": ") : NULL;
	if (colon != NULL)
		m = colon + 2;
	return bad(p, "%s: %s", key, m);
}

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static char *
skip_blanks(char *s)
{
	while (is_blank(*s))
		s++;
	return s;
}

/* 1 when s (after blanks) is the end of the line or a comment; else 0. */
static int
only_comment(const char *s)
{
	while (is_blank(*s))
		s++;
	return *s == '\0' || *s == '#' || *s == ';';
}

/*
 * Check one line, s[0..len): no NUL, no control character but TAB,
 * valid UTF-8. Returns 0, or -MIRROR_EINPUT naming the column.
 */
static int
check_bytes(struct parse *p, const unsigned char *s, size_t len)
{
	size_t i = 0, col = 1;

	while (i < len) {
		int32_t cp;
		size_t n = utf8_decode(&cp, s + i, len - i);

		if (cp == 0)
			return bad(p, "a NUL byte (column %zu)", col);
		if (cp < 0)
			return bad(p, "invalid UTF-8 (byte 0x%02x, column %zu)",
			    s[i], col);
		if ((cp < 0x20 && cp != '\t') || cp == 0x7f)
			return bad(p, "a control character 0x%02x (column "
			    "%zu)", (unsigned)cp, col);
		i += n;
		col++;
	}
	return 0;
}

/* "[mirror]" at s; returns 0 or -MIRROR_EINPUT. */
static int
parse_section(struct parse *p, char *s)
{
	const char *names[] = { SECTION };
	const char *near;
	char *close, *name;

	close = strchr(s, ']');
	if (close == NULL)
		return bad(p, "bad section header: no closing ']'");
	if (!only_comment(close + 1))
		return bad(p, "bad section header: text after ']'");
	*close = '\0';
	name = s + 1;
	if (name[0] == '\0')
		return bad(p, "bad section header: an empty name (want "
		    "[" SECTION "])");
	for (const char *c = name; *c != '\0'; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || *c == '_' || *c == '-' ||
		    *c == '.'))
			return bad(p, "bad section header '[%s]' (want "
			    "[" SECTION "])", name);
	if (strcmp(name, SECTION) != 0) {
		near = suggest_nearest(name, names, 1);
		if (near != NULL)
			return bad(p, "unknown section [%s] (did you mean "
			    "[%s]?)", name, near);
		return bad(p, "unknown section [%s] (the only section is "
		    "[" SECTION "])", name);
	}
	if (p->section_line != 0)
		return bad(p, "a second [" SECTION "] section (the first is at "
		    "line %d)", p->section_line);
	p->section_line = p->lineno;
	return 0;
}

/*
 * The value at s, quoted or not, as the comment at the top says.
 * Returns it (caller frees), or NULL with p->err set (-MIRROR_EINPUT).
 */
static char *
parse_value(struct parse *p, char *s)
{
	strbuf sb;
	char *e;

	if (*s != '"') {
		for (e = s; *e != '\0'; e++)
			if ((*e == '#' || *e == ';') &&
			    (e == s || is_blank(e[-1])))
				break;
		while (e > s && is_blank(e[-1]))
			e--;
		return xstrndup(s, (size_t)(e - s));
	}
	strbuf_init(&sb);
	for (e = s + 1; *e != '"'; e++) {
		if (*e == '\0') {
			strbuf_free(&sb);
			bad(p, "unterminated quoted value (no closing '\"')");
			return NULL;
		}
		if (*e == '\\') {
			e++;
			if (*e != '"' && *e != '\\') {
				strbuf_free(&sb);
				if (*e == '\0')
					bad(p, "unterminated quoted value (no "
					    "closing '\"')");
				else
					bad(p, "unknown escape '\\%c' in a "
					    "quoted value (only \\\" and "
					    "\\\\)", *e);
				return NULL;
			}
		}
		strbuf_putc(&sb, *e);
	}
	if (!only_comment(e + 1)) {
		strbuf_free(&sb);
		bad(p, "text after the closing quote");
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* value made relative to p->dir unless absolute; caller frees. */
static char *
resolve_path(const struct parse *p, const char *value)
{
	strbuf sb;

	if (value[0] == '/' || p->dir[0] == '\0')
		return xstrdup(value);
	strbuf_init(&sb);
	strbuf_puts(&sb, p->dir);
	strbuf_puts(&sb, value);
	return strbuf_detach(&sb);
}

/*
 * Check val for keys[k] with the checks the command line uses, and
 * resolve paths. Returns 0 and *out (caller frees), or -MIRROR_EINPUT.
 */
static int
check_value(char **out, struct parse *p, size_t k, const char *val)
{
	char refname[MGIT_REFNAME_MAX], *name, *email;
	const char *key = keys[k].name;
	mirror_error e;
	int rc;

	*out = NULL;
	if (val[0] == '\0')
		return bad(p, "empty value for '%s'", key);
	switch (keys[k].kind) {
	case KEY_PATH:
		*out = resolve_path(p, val);
		return 0;
	case KEY_THEME:
		if (!theme_name_ok(val))
			return bad(p, "theme: bad theme name '%s' (use "
			    "[a-z0-9_-]+ or a directory path)", val);
		*out = strchr(val, '/') != NULL ? resolve_path(p, val) :
		    xstrdup(val);
		return 0;
	case KEY_BRANCH:
		/* libgit2's name check needs the library initialised. */
		if (mgit_init(&e) < 0)
			return bad_value(p, key, &e);
		rc = mgit_branch_refname(refname, val, &e);
		mgit_shutdown();
		if (rc < 0)
			return bad_value(p, key, &e);
		break;
	case KEY_AUTHOR:
		if (mgit_parse_author(&name, &email, val, &e) < 0)
			return bad_value(p, key, &e);
		free(name);
		free(email);
		break;
	case KEY_URL:
		if (optcheck_base_url(val, &e) < 0)
			return bad_value(p, key, &e);
		break;
	case KEY_TEXT:
		break;
	}
	*out = xstrdup(val);
	return 0;
}

/*
 * "param.RULE.NAME = value": key is the part before '=' (blanks
 * dropped), v the text after it. Returns 0 or -MIRROR_EINPUT.
 */
static int
parse_param(struct parse *p, const char *key, char *v)
{
	const char *rule = key + 6, *dot = strchr(rule, '.');
	struct param_kv *c;
	char *r, *val;

	if (dot == NULL)
		return bad(p, "%s: want param.RULE.NAME", key);
	r = xstrndup(rule, (size_t)(dot - rule));
	for (size_t i = 0; i < p->nparams; i++)
		if (strcmp(p->params[i].rule, r) == 0 &&
		    strcmp(p->params[i].name, dot + 1) == 0) {
			free(r);
			return bad(p, "duplicate key '%s' (first set at line "
			    "%d)", key, p->params[i].line);
		}
	if (!rules_id_ok(r) || !rules_param_name_ok(dot + 1)) {
		free(r);
		return bad(p, "%s: want param.RULE.NAME with RULE a rule id "
		    "and NAME [A-Za-z_][A-Za-z0-9_]*", key);
	}
	if ((val = parse_value(p, skip_blanks(v))) == NULL) {
		free(r);
		return -MIRROR_EINPUT;
	}
	if (val[0] == '\0' || rules_param_int(val, &(long long){ 0 }) < 0) {
		int rc = val[0] == '\0' ? bad(p, "empty value for '%s'", key) :
		    bad(p, "%s: %s is an integer outside the 64-bit range "
		    "(%lld to %lld)", key, val, LLONG_MIN, LLONG_MAX);

		free(r);
		free(val);
		return rc;
	}
	c = &ARRAY_PUSH(p->params, p->nparams, p->cap_params);
	c->rule = r;
	c->name = xstrdup(dot + 1);
	c->value = val;
	c->line = p->lineno;
	return 0;
}

/* "key = value" at s; returns 0 or -MIRROR_EINPUT. */
static int
parse_key(struct parse *p, char *s)
{
	const char *names[N_KEYS], *near;
	char *e, *eq, *val;
	size_t k;
	int rc;

	for (eq = s; *eq != '\0' && *eq != '='; eq++)
		if ((*eq == '#' || *eq == ';') && eq > s && is_blank(eq[-1]))
			break;
	if (*eq != '=')
		return bad(p, "missing '=' (want 'key = value')");
	for (e = eq; e > s && is_blank(e[-1]); e--)
		;
	*e = '\0';
	if (s[0] == '\0')
		return bad(p, "empty key before '='");
	if (strncmp(s, "param.", 6) == 0)
		return parse_param(p, s, eq + 1);
	for (k = 0; k < N_KEYS; k++)
		if (strcmp(keys[k].name, s) == 0)
			break;
	if (k == N_KEYS) {
		strbuf known;

		for (k = 0; k < N_KEYS; k++)
			names[k] = keys[k].name;
		near = suggest_nearest(s, names, N_KEYS);
		if (near != NULL)
			return bad(p, "unknown key '%s' (did you mean '%s'?)",
			    s, near);
		strbuf_init(&known);
		for (k = 0; k < N_KEYS; k++)
			strbuf_printf(&known, "%s%s", k > 0 ? ", " : "",
			    keys[k].name);
		rc = bad(p, "unknown key '%s' (known: %s, param.RULE.NAME)",
		    s, known.data);
		strbuf_free(&known);
		return rc;
	}
	if (p->key_line[k] != 0)
		return bad(p, "duplicate key '%s' (first set at line %d)",
		    keys[k].name, p->key_line[k]);
	if ((val = parse_value(p, skip_blanks(eq + 1))) == NULL)
		return -MIRROR_EINPUT;
	rc = check_value(&p->val[k], p, k, val);
	free(val);
	if (rc < 0)
		return rc;
	p->key_line[k] = p->lineno;
	return 0;
}

/* Parse every line of buf (changed in place); returns 0 or < 0. */
static int
parse_all(struct parse *p, strbuf *buf)
{
	char *line = buf->data, *end = buf->data + buf->len;
	int rc = 0;

	if (buf->len >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0)
		line += 3;
	while (rc == 0 && line < end) {
		char *nl = memchr(line, '\n', (size_t)(end - line));
		char *eol = nl != NULL ? nl : end, *s;

		p->lineno++;
		if (eol > line && eol[-1] == '\r')
			eol--;
		if ((rc = check_bytes(p, (unsigned char *)line,
		    (size_t)(eol - line))) < 0)
			break;
		*eol = '\0';
		s = skip_blanks(line);
		if (*s == '[')
			rc = parse_section(p, s);
		else if (!only_comment(s))
			rc = parse_key(p, s);
		line = nl != NULL ? nl + 1 : end;
	}
	return rc;
}

/* Keep v in kept until config_free. Returns nothing. */
static void
own(struct config_kept *kept, char *v)
{
	ARRAY_PUSH(kept->v, kept->n, kept->cap) = v;
}

/*
 * The file's param.RULE.NAME keys into o when use (the command line
 * has none); their strings are kept until config_free either way.
 */
static void
config_params(struct mirror_opts *o, struct parse *p, int use)
{
	struct build_param *v = NULL;

	if (use && p->nparams > 0)
		v = xreallocarray(NULL, p->nparams, sizeof(*v));
	for (size_t i = 0; i < p->nparams; i++) {
		own(p->kept, p->params[i].rule);
		own(p->kept, p->params[i].name);
		own(p->kept, p->params[i].value);
		if (v != NULL)
			v[i] = (struct build_param){ p->params[i].rule,
			    p->params[i].name, p->params[i].value };
	}
	free(p->params);
	if (v != NULL) {
		own(p->kept, (char *)v);
		o->params = v;
		o->nparams = p->nparams;
	}
}

/* Returns 0, or -MIRROR_EINPUT naming file and line; see cli.h. */
int
config_load(struct config_kept *kept, struct mirror_opts *o,
    const char *path, mirror_error *err)
{
	struct parse p;
	strbuf buf;
	char *slash;
	int rc;

	memset(&p, 0, sizeof(p));
	p.path = path;
	p.kept = kept;
	p.err = err;
	p.dir = xstrdup(path);
	slash = strrchr(p.dir, '/');
	if (slash != NULL)
		slash[1] = '\0';
	else
		p.dir[0] = '\0';
	strbuf_init(&buf);
	/* A regular file, never a link, FIFO or device (userfile.h). */
	rc = userfile_read(&buf, path, "config", 0, 0, err);
	if (rc == 0)
		rc = parse_all(&p, &buf);
	strbuf_free(&buf);
	free(p.dir);
	config_params(o, &p, rc == 0 && o->params == NULL);
	for (size_t k = 0; k < N_KEYS; k++) {
		const char **field = (const char **)(void *)
		    ((char *)o + keys[k].offset);

		if (p.val[k] == NULL)
			continue;
		/* The command line wins over the file. */
		if (rc == 0 && *field == NULL) {
			own(kept, p.val[k]);
			*field = p.val[k];
		} else {
			free(p.val[k]);
		}
	}
	return rc;
}

/* Frees every value config_load kept in kept, which stays usable;
 * returns nothing. */
void
config_free(struct config_kept *kept)
{
	while (kept->n > 0)
		free(kept->v[--kept->n]);
	free(kept->v);
	kept->v = NULL;
	kept->cap = 0;
}
