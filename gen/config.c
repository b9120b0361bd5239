/*
 * config.c: mirror.ini, so a CI job needs one line.
 *
 *   # comment            ; comment
 *   [mirror]             (sections are allowed and ignored)
 *   store = facts.db
 *   title = Project mirror
 *
 * Unknown keys are errors: a misspelt key silently ignored would build
 * the wrong site.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "strbuf.h"
#include "xalloc.h"

struct config_key {
	const char *name;
	size_t offset;   /* of the const char * field in mirror_opts */
	int is_path;     /* relative to the config file's directory */
};

/* Values read from the file, freed by config_free. */
static char *owned[16];
static size_t n_owned;

#define OPT(f) offsetof(struct mirror_opts, f)
static const struct config_key keys[] = {
	{ "store", OPT(store), 1 },
	{ "out", OPT(out), 1 },
	{ "repo", OPT(repo), 1 },
	{ "branch", OPT(branch), 0 },
	{ "author", OPT(author), 0 },
	{ "templates", OPT(templates), 1 },
	{ "theme", OPT(theme), 0 },
	{ "base_url", OPT(base_url), 0 },
	{ "title", OPT(title), 0 },
};

static char *
trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
	    e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* value, made relative to dir (which ends in '/' or is empty). */
static char *
resolve_path(const char *dir, const char *value)
{
	strbuf sb;

	if (value[0] == '/' || dir[0] == '\0')
		return xstrdup(value);
	strbuf_init(&sb);
	strbuf_puts(&sb, dir);
	strbuf_puts(&sb, value);
	return strbuf_detach(&sb);
}

int
config_load(struct mirror_opts *o, const char *path, mirror_error *err)
{
	char line[4096], *dir, *slash;
	FILE *fp;
	int lineno = 0, rc = 0;

	fp = fopen(path, "r");
	if (fp == NULL)
		return mirror_fail(err, MIRROR_EINPUT, "config %s: %s", path,
		    strerror(errno));
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash != NULL)
		slash[1] = '\0';
	else
		dir[0] = '\0';
	while (fgets(line, sizeof(line), fp) != NULL) {
		char *s, *eq, *key, *val;
		size_t i;

		lineno++;
		if (strchr(line, '\n') == NULL && !feof(fp)) {
			rc = mirror_fail(err, MIRROR_EINPUT, "config %s:%d: "
			    "line too long", path, lineno);
			break;
		}
		s = trim(line);
		if (*s == '\0' || *s == '#' || *s == ';' || *s == '[')
			continue;
		eq = strchr(s, '=');
		if (eq == NULL) {
			rc = mirror_fail(err, MIRROR_EINPUT, "config %s:%d: "
			    "expected 'key = value'", path, lineno);
			break;
		}
		*eq = '\0';
		key = trim(s);
		val = trim(eq + 1);
		/* Values may be quoted to keep surrounding blanks. */
		if (strlen(val) >= 2 && val[0] == '"' &&
		    val[strlen(val) - 1] == '"') {
			val[strlen(val) - 1] = '\0';
			val++;
		}
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (strcmp(keys[i].name, key) == 0)
				break;
		if (i == sizeof(keys) / sizeof(keys[0])) {
			rc = mirror_fail(err, MIRROR_EINPUT, "config %s:%d: "
			    "unknown key '%s'", path, lineno, key);
			break;
		}
		{
			const char **field = (const char **)(void *)
			    ((char *)o + keys[i].offset);

			/* The command line wins over the file. */
			if (*field == NULL && n_owned < 16) {
				owned[n_owned] = keys[i].is_path ?
				    resolve_path(dir, val) : xstrdup(val);
				*field = owned[n_owned++];
			}
		}
	}
	if (rc == 0 && ferror(fp))
		rc = mirror_fail(err, MIRROR_EINPUT, "config %s: read error",
		    path);
	fclose(fp);
	free(dir);
	return rc;
}

void
config_free(void)
{
	while (n_owned > 0)
		free(owned[--n_owned]);
}
