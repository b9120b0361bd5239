/*
 * template_set.c: templates from a directory, user files first, each
 * parsed once.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "render/datadir.h"
#include "render/template.h"
#include "sys/userfile.h"
#include "util/array.h"
#include "util/xalloc.h"


struct cached {
	char *name;
	tmpl *t;
};

struct tmpl_set {
	char *user;             /* NULL: no overrides */
	char *def;
	struct cached *c;
	size_t n, cap;
};

static int
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Returns 0 with *out, or -MIRROR_EINPUT (no such directory). */
int
tmpl_set_open(tmpl_set **out, const char *user_dir, const char *default_dir,
    mirror_error *err)
{
	tmpl_set *set;
	char *def = NULL;
	int rc;

	*out = NULL;
	if (user_dir != NULL && !is_dir(user_dir))
		return mirror_fail(err, MIRROR_EINPUT, "%s: templates "
		    "directory not found", user_dir);
	if (default_dir != NULL) {
		def = xstrdup(default_dir);
	} else if ((rc = datadir_find(&def, "templates", err)) < 0) {
		return rc;
	}
	set = xcalloc(1, sizeof(*set));
	set->user = user_dir != NULL ? xstrdup(user_dir) : NULL;
	set->def = def;
	*out = set;
	return 0;
}

/* A plain file name: no '/', not empty, not hidden. */
static int
good_name(const char *name)
{
	return name[0] != '\0' && name[0] != '.' && strchr(name, '/') == NULL &&
	    strlen(name) <= 255;
}

int
tmpl_set_get(const tmpl **out, tmpl_set *set, const char *name,
    mirror_error *err)
{
	enum tmpl_mode mode;
	struct cached *c;
	strbuf path;
	size_t nl;
	tmpl *t;
	int rc;

	*out = NULL;
	if (!good_name(name))
		return mirror_fail(err, MIRROR_EINPUT, "bad template name '%s'",
		    name);
	for (size_t i = 0; i < set->n; i++) {
		if (strcmp(set->c[i].name, name) == 0) {
			*out = set->c[i].t;
			return 0;
		}
	}
	nl = strlen(name);
	mode = nl > 3 && strcmp(name + nl - 3, ".md") == 0 ? TMPL_MARKDOWN :
	    TMPL_HTML;
	/*
	 * Only a user file that does not exist falls back to the default;
	 * one that is there but is a link, FIFO or directory is refused.
	 */
	strbuf_init(&path);
	rc = 1;
	if (set->user != NULL) {
		strbuf_printf(&path, "%s/%s", set->user, name);
		rc = tmpl_load_user(&t, path.data, "templates", mode,
		    USERFILE_MISSING_OK, err);
	}
	if (rc == 1) {
		strbuf_reset(&path);
		strbuf_printf(&path, "%s/%s", set->def, name);
		rc = tmpl_load_user(&t, path.data, "templates", mode,
		    USERFILE_MISSING_OK, err);
	}
	if (rc == 1)
		rc = mirror_fail(err, MIRROR_EINPUT, "template '%s' not found "
		    "in %s%s%s", name, set->user != NULL ? set->user : "",
		    set->user != NULL ? " or " : "", set->def);
	strbuf_free(&path);
	if (rc < 0)
		return rc;
	c = &ARRAY_PUSH(set->c, set->n, set->cap);
	c->name = xstrdup(name);
	c->t = t;
	*out = t;
	return 0;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Add dir's page template names to *names; 0, or -MIRROR_EIO. */
static int
list_dir(char ***names, size_t *n, size_t *cap, const char *dir,
    mirror_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return mirror_fail(err, MIRROR_EIO, "%s: cannot list the "
		    "templates", dir);
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);

		if (!good_name(e->d_name) || l < 4 ||
		    strcmp(e->d_name + l - 3, ".md") != 0 ||
		    strcmp(e->d_name, "README.md") == 0)
			continue;
		ARRAY_PUSH(*names, *n, *cap) = xstrdup(e->d_name);
	}
	closedir(d);
	return 0;
}

int
tmpl_set_names(char ***names, size_t *n, const tmpl_set *set,
    mirror_error *err)
{
	size_t cap = 0, j = 0;
	int rc = 0;

	*names = NULL;
	*n = 0;
	if (set->user != NULL)
		rc = list_dir(names, n, &cap, set->user, err);
	if (rc == 0)
		rc = list_dir(names, n, &cap, set->def, err);
	if (*n > 0)
		qsort(*names, *n, sizeof(**names), cmp_name);
	for (size_t i = 0; i < *n; i++) {        /* each once */
		if (j > 0 && strcmp((*names)[j - 1], (*names)[i]) == 0)
			free((*names)[i]);
		else
			(*names)[j++] = (*names)[i];
	}
	*n = j;
	return rc;
}

void
tmpl_set_free(tmpl_set *set)
{
	if (set == NULL)
		return;
	for (size_t i = 0; i < set->n; i++) {
		free(set->c[i].name);
		tmpl_free(set->c[i].t);
	}
	free(set->c);
	free(set->user);
	free(set->def);
	free(set);
}
