/*
 * rules_load.c: reading rule files into a rule set (see rules.h and
 * doc/rules.md, "A rule file").
 *
 * A file is read line by line. Comment lines ("--") gather into a
 * block; the header of a rule starts at its "-- rule:" line (comment
 * lines above it in the block are the author's), and every later
 * comment line up to the statement is part of it. The statement starts
 * at the first line that is neither blank nor a comment and ends at the
 * line where SQLite's sqlite3_complete says it is whole (a ';' outside
 * quotes and comments). A block with no rule line that a blank line
 * ends is a free comment.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "rules/rules_int.h"
#include "store/storerow.h"
#include "sys/userfile.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/utf8.h"
#include "util/xalloc.h"

/* The header keys; "param" may repeat. */
static const char *const header_keys[] = { "rule", "severity", "label",
    "description", "param" };
enum { K_RULE, K_SEVERITY, K_LABEL, K_DESCRIPTION, K_PARAM, K_N };

/* One comment line of a header: its number and the text after "--". */
struct hline {
	int lineno;
	const char *s;
	size_t len;
};

/* A header being parsed into r. */
struct header {
	struct rule *r;
	int key_line[K_N];       /* where each key was set, 0 if not */
	int last;                /* the key a continuation extends, or -1 */
	strbuf val[K_N];         /* rule, severity, label, description */
};

void
rules_init(struct rule_set *rs)
{
	memset(rs, 0, sizeof(*rs));
}

/* Free the strings of one rule; r is left zeroed. */
static void
rule_clear(struct rule *r)
{
	free(r->id);
	free(r->origin);
	free(r->label);
	free(r->description);
	free(r->query);
	free(r->error);
	for (size_t i = 0; i < r->nparams; i++) {
		free(r->params[i].name);
		free(r->params[i].value);
	}
	free(r->params);
	memset(r, 0, sizeof(*r));
}

void
rules_free(struct rule_set *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		rule_clear(&rs->v[i]);
	free(rs->v);
	for (size_t i = 0; i < rs->nover; i++) {
		free(rs->over[i].rule);
		free(rs->over[i].name);
		free(rs->over[i].value);
	}
	free(rs->over);
	rules_init(rs);
}

int
rules_id_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > RULE_ID_MAX || s[0] == '-')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return 0;
	return 1;
}

int
rules_param_name_ok(const char *s)
{
	if (strcmp(s, "now") == 0 || strcmp(s, "today") == 0 ||
	    s[0] == '\0' || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

int
rules_param_int(const char *v, long long *out)
{
	const char *d = v[0] == '-' ? v + 1 : v;
	char *end;

	*out = 0;
	if (d[0] == '\0' || d[strspn(d, "0123456789")] != '\0')
		return 0;
	errno = 0;
	*out = strtoll(v, &end, 10);
	return errno == ERANGE ? -1 : 1;
}

/* 1 when cp is a control character a rule's text may not hold at
 * s[i] of s[0..n) (a name: none at all), else 0. */
static int
bad_control(int32_t cp, const unsigned char *s, size_t i, size_t n,
    int name)
{
	if (!utf8_is_control(cp))
		return 0;
	if (name)
		return 1;
	if (cp == '\t' || cp == '\n')
		return 0;
	return !(cp == '\r' && (i + 1 == n || s[i + 1] == '\n'));
}

const char *
rules_text_problem(const char *s, size_t n, int name, size_t *at)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		int32_t cp;
		size_t k = utf8_decode(&cp, u + i, n - i);

		*at = i;
		if (cp < 0)
			return "is not valid UTF-8 text";
		if (cp == 0)
			return "contains a NUL byte";
		if (bad_control(cp, u, i, n, name))
			return "holds a control character";
		i += k;
	}
	*at = 0;
	/* The readers' own check has the last word. */
	return storerow_text_problem(u, n);
}

/* name with every byte that is not printable ASCII as \xNN, into sb:
 * how a name that is not rule text is shown. */
static void
name_shown(strbuf *sb, const char *name)
{
	for (const unsigned char *c = (const unsigned char *)name; *c != '\0';
	    c++)
		if (*c < 0x20 || *c >= 0x7f || *c == '\\')
			strbuf_printf(sb, "\\x%02x", *c);
		else
			strbuf_putc(sb, (char)*c);
}

/*
 * Check that name (a file's, in dir; dir NULL: the directory's own) may
 * be in a rule's origin. Returns 0, or -MIRROR_EINPUT "rules DIR: a
 * file name ('NAME') WHAT".
 */
static int
name_check(const char *dir, const char *name, mirror_error *err)
{
	const char *bad;
	size_t at;
	strbuf sb;
	int rc;

	bad = rules_text_problem(name, strlen(name), 1, &at);
	if (bad == NULL)
		return 0;
	strbuf_init(&sb);
	name_shown(&sb, name);
	if (dir == NULL)
		rc = mirror_fail(err, MIRROR_EINPUT, "rules '%s': the "
		    "directory's name %s", sb.data, bad);
	else
		rc = mirror_fail(err, MIRROR_EINPUT, "rules %s: a file name "
		    "('%s') %s", dir, sb.data, bad);
	strbuf_free(&sb);
	return rc;
}

/*
 * Check every line of text[0..len) (file's) with rules_text_problem.
 * Returns 0, or -MIRROR_EINPUT "rules FILE:LINE: column C WHAT (byte
 * 0xNN)".
 */
static int
text_check(const char *text, size_t len, const char *file,
    mirror_error *err)
{
	const char *p = text, *end = text + len;
	int lineno = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl != NULL ? nl : end) - p), at;
		const char *bad = rules_text_problem(p, n, 0, &at);

		lineno++;
		if (bad != NULL)
			return mirror_fail(err, MIRROR_EINPUT, "rules %s:%d: "
			    "column %zu %s (byte 0x%02x); a rule is UTF-8 text, "
			    "its only controls tab and line ends", file,
			    lineno, at + 1, bad, (unsigned char)p[at]);
		p = nl != NULL ? nl + 1 : end;
	}
	return 0;
}

/* Set r's error (the first one wins); returns nothing. */
static void
rule_error(struct rule *r, int lineno, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
rule_error(struct rule *r, int lineno, const char *fmt, ...)
{
	strbuf sb;
	va_list ap;
	char msg[512];
	int n;

	if (r->error != NULL)
		return;
	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		msg[0] = '\0';
	strbuf_init(&sb);
	if (lineno > 0)
		strbuf_printf(&sb, "line %d: ", lineno);
	strbuf_puts(&sb, msg);
	r->error = strbuf_detach(&sb);
}

/* 1 when c is a space or a tab, else 0. */
static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* s[0..len) without leading and trailing blanks, as a new string. */
static char *
trimmed(const char *s, size_t len)
{
	while (len > 0 && is_blank(*s)) {
		s++;
		len--;
	}
	while (len > 0 && is_blank(s[len - 1]))
		len--;
	return xstrndup(s, len);
}

/* "NAME = VALUE" of a param line into r; errors go to r. */
static void
header_param(struct rule *r, int lineno, const char *v)
{
	const char *eq = strchr(v, '=');
	char *name, *value;

	if (eq == NULL) {
		rule_error(r, lineno, "param: want 'NAME = VALUE'");
		return;
	}
	name = trimmed(v, (size_t)(eq - v));
	value = trimmed(eq + 1, strlen(eq + 1));
	if (!rules_param_name_ok(name))
		rule_error(r, lineno, "param: bad name '%.64s' (want "
		    "[A-Za-z_][A-Za-z0-9_]*, not 'now' or 'today')", name);
	else if (value[0] == '\0')
		rule_error(r, lineno, "param: %s has an empty value", name);
	else if (rules_param_int(value, &(long long){ 0 }) < 0)
		rule_error(r, lineno, "param: %s = %.64s is an integer outside "
		    "the 64-bit range (%lld to %lld)", name, value, LLONG_MIN,
		    LLONG_MAX);
	for (size_t i = 0; r->error == NULL && i < r->nparams; i++)
		if (strcmp(r->params[i].name, name) == 0)
			rule_error(r, lineno, "param: %s is given twice", name);
	if (r->error != NULL) {
		free(name);
		free(value);
		return;
	}
	r->params = xreallocarray(r->params, r->nparams + 1,
	    sizeof(*r->params));
	r->params[r->nparams].name = name;
	r->params[r->nparams++].value = value;
}

/* Which header key "word" is, or K_N with the error set in r. */
static int
header_key(struct rule *r, int lineno, const char *word)
{
	const char *near;

	for (int k = 0; k < K_N; k++)
		if (strcmp(word, header_keys[k]) == 0)
			return k;
	near = suggest_nearest(word, header_keys, K_N);
	if (near != NULL)
		rule_error(r, lineno, "unknown header key '%.64s' (did you "
		    "mean '%s'?)", word, near);
	else
		rule_error(r, lineno, "unknown header key '%.64s' (known: "
		    "rule, severity, label, description, param)", word);
	return K_N;
}

/* One header line into h; errors go to h->r. */
static void
header_line(struct header *h, const struct hline *l)
{
	const char *s = l->s, *colon;
	size_t len = l->len, klen;
	char *word, *v;
	int k;

	if (len >= 2 && is_blank(s[0]) && is_blank(s[1])) {
		if (h->last != K_LABEL && h->last != K_DESCRIPTION) {
			rule_error(h->r, l->lineno, "a continuation line (two "
			    "blanks after '--') after no label or "
			    "description");
			return;
		}
		v = trimmed(s, len);
		strbuf_putc(&h->val[h->last], ' ');
		strbuf_puts(&h->val[h->last], v);
		free(v);
		return;
	}
	v = trimmed(s, len);
	if (v[0] == '\0') {
		h->last = -1;           /* "--" alone ends a continuation */
		free(v);
		return;
	}
	colon = strchr(v, ':');
	klen = colon != NULL ? (size_t)(colon - v) : 0;
	for (size_t i = 0; i < klen; i++)
		if (v[i] < 'a' || v[i] > 'z')
			klen = 0;
	if (klen == 0) {
		rule_error(h->r, l->lineno, "not a header line (want '-- key: "
		    "value', or '--' and two blanks to continue a value)");
		free(v);
		return;
	}
	word = xstrndup(v, klen);
	k = header_key(h->r, l->lineno, word);
	free(word);
	if (k != K_N && k != K_PARAM && h->key_line[k] != 0)
		rule_error(h->r, l->lineno, "a second '%s' (the first is at "
		    "line %d)", header_keys[k], h->key_line[k]);
	else if (k == K_PARAM)
		header_param(h->r, l->lineno, colon + 1);
	else if (k != K_N) {
		char *t = trimmed(colon + 1, strlen(colon + 1));

		h->key_line[k] = l->lineno;
		strbuf_puts(&h->val[k], t);
		free(t);
	}
	h->last = k;
	free(v);
}

/* The checks of a whole header, then its values into h->r. */
static void
header_finish(struct header *h, int rule_line)
{
	struct rule *r = h->r;
	const char *id = h->val[K_RULE].data, *sev = h->val[K_SEVERITY].data;

	if (rules_id_ok(id))
		r->id = xstrdup(id);
	else
		rule_error(r, rule_line, "rule: bad id '%.80s' (want "
		    "[a-z0-9][a-z0-9-]*, at most %d bytes)", id, RULE_ID_MAX);
	r->severity = RULE_ERROR;
	if (strcmp(sev, "warn") == 0)
		r->severity = RULE_WARN;
	else if (strcmp(sev, "off") == 0)
		r->severity = RULE_OFF;
	else if (h->key_line[K_SEVERITY] == 0)
		rule_error(r, rule_line, "no '-- severity:' line (error, warn "
		    "or off)");
	else if (strcmp(sev, "error") != 0)
		rule_error(r, h->key_line[K_SEVERITY], "severity: '%.32s' is "
		    "not error, warn or off", sev);
	if (h->key_line[K_DESCRIPTION] == 0 ||
	    h->val[K_DESCRIPTION].len == 0)
		rule_error(r, rule_line, "no '-- description:' line (what "
		    "is wrong and why it matters)");
	if (h->key_line[K_LABEL] != 0 && h->val[K_LABEL].len == 0)
		rule_error(r, h->key_line[K_LABEL], "label: empty");
	r->label = xstrdup(h->val[K_LABEL].data);
	r->description = xstrdup(h->val[K_DESCRIPTION].data);
}

/* The rule set's rule by id among the rules not replaced, or NULL. */
static struct rule *
find_rule(struct rule_set *rs, const char *id, size_t before)
{
	for (size_t i = 0; i < before; i++)
		if (!rs->v[i].replaced && rs->v[i].id != NULL &&
		    strcmp(rs->v[i].id, id) == 0)
			return &rs->v[i];
	return NULL;
}

/*
 * The last rule added: a user rule replaces a starter rule of its id;
 * two of one tier are both kept (rules_finish reports the second).
 */
static void
rule_added(struct rule_set *rs)
{
	struct rule *r = &rs->v[rs->n - 1], *old;

	if (r->id == NULL)
		return;
	old = find_rule(rs, r->id, rs->n - 1);
	if (old != NULL && old->tier < r->tier)
		old->replaced = 1;
}

/* A new rule of file at lineno, with the header lines h[0..n). */
static struct rule *
rule_new(struct rule_set *rs, const char *file, int lineno,
    enum rule_tier tier)
{
	struct rule *r = &ARRAY_PUSH(rs->v, rs->n, rs->cap);
	strbuf sb;

	memset(r, 0, sizeof(*r));
	strbuf_init(&sb);
	strbuf_printf(&sb, "%s:%d", file, lineno);
	r->origin = strbuf_detach(&sb);
	r->tier = tier;
	r->severity = RULE_ERROR;
	r->label = xstrdup("");
	r->description = xstrdup("");
	return r;
}

/* One rule's text as the scanner found it: header lines hl[0..nh)
 * (hl[0] its rule line, or nh 0 for none) and statement sql[0..len)
 * starting at sql_line (0: none). */
struct rule_text {
	const struct hline *hl;
	size_t nh;
	const char *sql;
	size_t len;
	int sql_line;
};

/* Make the rule of t, from file at tier, into rs. Returns nothing. */
static void
make_rule(struct rule_set *rs, const char *file, enum rule_tier tier,
    const struct rule_text *t)
{
	const struct hline *hl = t->hl;
	size_t nh = t->nh;
	const char *sql = t->sql;
	size_t len = t->len;
	int sql_line = t->sql_line;
	struct header h;
	struct rule *r;

	r = rule_new(rs, file, nh > 0 ? hl[0].lineno : sql_line, tier);
	r->query = xstrndup(sql != NULL ? sql : "", len);
	r->sql_line = sql_line;
	if (nh == 0) {
		rule_error(r, sql_line, "an SQL statement with no '-- rule:' "
		    "header above it");
		return;
	}
	memset(&h, 0, sizeof(h));
	h.r = r;
	h.last = -1;
	for (int k = 0; k < K_N; k++)
		strbuf_init(&h.val[k]);
	free(r->label);
	free(r->description);
	r->label = r->description = NULL;
	for (size_t i = 0; i < nh; i++)
		header_line(&h, &hl[i]);
	header_finish(&h, hl[0].lineno);
	for (int k = 0; k < K_N; k++)
		strbuf_free(&h.val[k]);
	if (sql_line == 0)
		rule_error(r, hl[0].lineno, "a header with no SQL statement "
		    "after it");
	rule_added(rs);
}

/* The scanner's state over one file. */
struct scan {
	struct rule_set *rs;
	const char *file;
	enum rule_tier tier;
	struct hline *hl;        /* the comment block */
	size_t nh, caph;
	size_t rule_at;          /* index of its rule line, or SIZE_MAX */
	const char *stmt;        /* where the statement starts, or NULL */
	int stmt_line;
};

/* 1 when line[0..len) is "rule:" after "--" and blanks; else 0. */
static int
is_rule_line(const char *s, size_t len)
{
	while (len > 0 && is_blank(*s)) {
		s++;
		len--;
	}
	return len >= 5 && strncmp(s, "rule:", 5) == 0;
}

/* One line outside a statement; returns 1 when it starts one. */
static int
scan_outside(struct scan *sc, const char *line, size_t len, int lineno)
{
	const char *s = line;
	size_t n = len;

	while (n > 0 && is_blank(*s)) {
		s++;
		n--;
	}
	if (n == 0) {
		if (sc->rule_at == SIZE_MAX)
			sc->nh = 0;     /* a free comment ends */
		return 0;
	}
	if (n >= 2 && s[0] == '-' && s[1] == '-') {
		struct hline *h = &ARRAY_PUSH(sc->hl, sc->nh, sc->caph);

		h->lineno = lineno;
		h->s = s + 2;
		h->len = n - 2;
		if (sc->rule_at == SIZE_MAX && is_rule_line(h->s, h->len))
			sc->rule_at = sc->nh - 1;
		return 0;
	}
	sc->stmt = line;
	sc->stmt_line = lineno;
	return 1;
}

/* The statement ends at end: make its rule and start afresh. */
static void
scan_rule(struct scan *sc, const char *end)
{
	size_t at = sc->rule_at;

	make_rule(sc->rs, sc->file, sc->tier, &(struct rule_text){
		.hl = at == SIZE_MAX ? NULL : sc->hl + at,
		.nh = at == SIZE_MAX ? 0 : sc->nh - at,
		.sql = sc->stmt,
		.len = sc->stmt != NULL ? (size_t)(end - sc->stmt) : 0,
		.sql_line = sc->stmt_line,
	});
	sc->nh = 0;
	sc->rule_at = SIZE_MAX;
	sc->stmt = NULL;
	sc->stmt_line = 0;
}

int
rules_load_text(struct rule_set *rs, const char *text, size_t len,
    const char *file, enum rule_tier tier, mirror_error *err)
{
	struct scan sc = { .rs = rs, .file = file, .tier = tier,
	    .rule_at = SIZE_MAX };
	const char *p = text, *end = text + len;
	int lineno = 0, rc;

	/* A byte order mark, as editors may write: not the rule's text. */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	if ((rc = text_check(p, (size_t)(end - p), file, err)) < 0)
		return rc;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl != NULL ? nl : end;
		const char *next = nl != NULL ? nl + 1 : end;
		size_t n = (size_t)(eol - p);

		lineno++;
		if (n > 0 && p[n - 1] == '\r')
			n--;
		if (sc.stmt == NULL && !scan_outside(&sc, p, n, lineno)) {
			p = next;
			continue;
		}
		if (memchr(p, ';', n) != NULL) {
			char *s = xstrndup(sc.stmt, (size_t)(eol - sc.stmt));

			if (sqlite3_complete(s))
				scan_rule(&sc, eol);
			free(s);
		}
		p = next;
	}
	if (sc.stmt != NULL) {
		size_t at = rs->n;
		int from = sc.stmt_line;

		scan_rule(&sc, end);
		rule_error(&rs->v[at], from, "the statement is not ended by "
		    "';' (the file ends at line %d)", lineno);
	} else if (sc.rule_at != SIZE_MAX)
		scan_rule(&sc, end);
	free(sc.hl);
	return 0;
}

/* qsort: names in strcmp order. */
static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 1 when name is a rule file's: "*.sql", not hidden. */
static int
is_rule_file(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 4 && strcmp(name + n - 4, ".sql") == 0;
}

/* The sorted names of dir's rule files into *out (caller frees). */
static int
list_dir(char ***out, size_t *n, DIR *d)
{
	struct dirent *e;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	while ((e = readdir(d)) != NULL)
		if (is_rule_file(e->d_name))
			ARRAY_PUSH(*out, *n, cap) = xstrdup(e->d_name);
	if (*n > 1)
		qsort(*out, *n, sizeof(**out), cmp_name);
	return 0;
}

int
rules_load_dir(struct rule_set *rs, const char *dir, const char *shown,
    enum rule_tier tier, mirror_error *err)
{
	char **names;
	size_t n;
	int rc = 0;
	DIR *d;

	if ((rc = name_check(NULL, shown, err)) < 0)
		return rc;
	d = opendir(dir);
	if (d == NULL && errno == ENOENT && tier == RULE_STARTER)
		return 1;
	if (d == NULL)
		return mirror_fail(err, MIRROR_EINPUT, "rules %s: cannot read "
		    "the directory: %s", dir, strerror(errno));
	list_dir(&names, &n, d);
	for (size_t i = 0; i < n; i++) {
		mirror_error e;
		strbuf file, text;

		strbuf_init(&file);
		strbuf_init(&text);
		strbuf_printf(&file, "%s/%s", shown, names[i]);
		/* A rule that cannot be read is the sweep's to tell; the
		 * store among the rules stops the run (userfile.h). */
		if (rc < 0 || (rc = name_check(shown, names[i], err)) < 0 ||
		    (rc = userfile_not_store(&(struct userfile_at){
		    .dirfd = dirfd(d), .name = names[i], .what = "rules",
		    .shown = file.data }, err)) < 0)
			;
		else if (userfile_readat(&text, &(struct userfile_at){
		    .dirfd = dirfd(d), .name = names[i], .what = "rules",
		    .shown = file.data }, RULE_MAX_FILE, 0, &e) < 0)
			rule_error(rule_new(rs, file.data, 1, tier), 0, "%s",
			    e.msg);
		else
			rc = rules_load_text(rs, text.data, text.len,
			    file.data, tier, err);
		strbuf_free(&file);
		strbuf_free(&text);
		free(names[i]);
	}
	free(names);
	closedir(d);
	return rc < 0 ? rc : 0;
}

int
rules_override(struct rule_set *rs, const char *rule, const char *name,
    const char *value, mirror_error *err)
{
	struct rule_override *o;

	if (!rules_id_ok(rule))
		return mirror_fail(err, MIRROR_EINPUT, "param.%s.%s: '%s' is "
		    "not a rule id", rule, name, rule);
	if (!rules_param_name_ok(name))
		return mirror_fail(err, MIRROR_EINPUT, "param.%s.%s: '%s' is "
		    "not a parameter name", rule, name, name);
	if (rules_param_int(value, &(long long){ 0 }) < 0)
		return mirror_fail(err, MIRROR_EINPUT, "param.%s.%s: %.64s is "
		    "an integer outside the 64-bit range (%lld to %lld)", rule,
		    name, value, LLONG_MIN, LLONG_MAX);
	o = &ARRAY_PUSH(rs->over, rs->nover, rs->capover);
	o->rule = xstrdup(rule);
	o->name = xstrdup(name);
	o->value = xstrdup(value);
	return 0;
}

const char *
rules_param_value(const struct rule_set *rs, const struct rule *r,
    const char *name)
{
	for (size_t i = rs->nover; i-- > 0;)
		if (r->id != NULL && strcmp(rs->over[i].rule, r->id) == 0 &&
		    strcmp(rs->over[i].name, name) == 0)
			return rs->over[i].value;
	for (size_t i = 0; i < r->nparams; i++)
		if (strcmp(r->params[i].name, name) == 0)
			return r->params[i].value;
	return NULL;
}

/* 1 when c may be part of a parameter's name, else 0. */
static int
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

void
rules_fill_params(strbuf *out, const struct rule_set *rs,
    const struct rule *r, const char *text)
{
	const char *p = text, *v;
	size_t n, at;
	char name[RULE_ID_MAX + 1];

	while (*p != '\0') {
		if (*p != ':' || (p > text && (name_char(p[-1]) ||
		    p[-1] == ':'))) {
			strbuf_putc(out, *p++);
			continue;
		}
		for (n = 0; name_char(p[1 + n]); n++)
			;
		v = NULL;
		if (n > 0 && n <= RULE_ID_MAX) {
			memcpy(name, p + 1, n);
			name[n] = '\0';
			if (rules_param_name_ok(name))
				v = rules_param_value(rs, r, name);
		}
		if (v != NULL && rules_text_problem(v, strlen(v), 1,
		    &at) == NULL) {
			strbuf_puts(out, v);
			p += 1 + n;
		} else
			strbuf_putc(out, *p++);
	}
}

int
rules_row_check(mirror_store *st, sqlite3_stmt *s, mirror_error *err)
{
	static const char *const cols[] = { "id", "severity", "label",
	    "description", "query" };
	struct store_row r = { .st = st, .stmt = s, .table = "mirror_rules",
	    .err = err };
	char *v[5] = { NULL };
	int rc = 0;

	for (int i = 0; rc == 0 && i < 5; i++) {
		const char *bad;
		size_t at;

		rc = storerow_text(&v[i], &r, i, cols[i], 1);
		if (i == 0)
			r.id = v[0];
		if (rc == 0 && v[i] != NULL && (bad = rules_text_problem(v[i],
		    strlen(v[i]), 0, &at)) != NULL)
			rc = storerow_fail(&r, cols[i], bad);
	}
	for (int i = 0; i < 5; i++)
		free(v[i]);
	return rc;
}

/* Fold s (NULL: empty) into h. */
static uint64_t
fold(uint64_t h, const char *s)
{
	return hash_add_str(h, s);
}

uint64_t
rule_fold(uint64_t h, const struct rule *r)
{
	char sev[2] = { 0, 0 };

	sev[0] = (char)('0' + (int)r->severity);
	h = fold(fold(fold(fold(h, r->id), r->origin), sev),
	    r->replaced ? "replaced" : "");
	h = fold(fold(fold(fold(h, r->label), r->description), r->query),
	    r->error);
	for (size_t k = 0; k < r->nparams; k++)
		h = fold(fold(h, r->params[k].name), r->params[k].value);
	return h;
}

uint64_t
rules_overrides_fold(uint64_t h, const struct rule_set *rs)
{
	for (size_t i = 0; i < rs->nover; i++)
		h = fold(fold(fold(h, rs->over[i].rule), rs->over[i].name),
		    rs->over[i].value);
	return h;
}

void
rules_digest(const struct rule_set *rs, long long day, char out[17])
{
	uint64_t h = MIRROR_HASH_INIT;
	int now = 0;

	for (size_t i = 0; i < rs->n; i++) {
		const struct rule *r = &rs->v[i];

		h = rule_fold(h, r);
		if (r->query != NULL && (strstr(r->query, ":now") != NULL ||
		    strstr(r->query, ":today") != NULL))
			now = 1;
	}
	h = rules_overrides_fold(h, rs);
	if (now) {
		char d[32];

		int w = snprintf(d, sizeof(d), "day %lld", day);

		h = fold(h, w > 0 && (size_t)w < sizeof(d) ? d : "day ?");
	}
	hash_hex(out, h);
}
