/*
 * theme.c: a theme's layout template and the assets it ships.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "datadir.h"
#include "output.h"
#include "template.h"
#include "theme.h"
#include "xalloc.h"

struct theme {
	char *name;
	char *dir;
	tmpl *layout;
	char **assets;          /* file names in assets/, sorted */
	size_t n_assets;
};

/* 1 when s is a built-in theme's name: [a-z0-9_-]{1,64}; else 0. */
static int
good_theme_name(const char *s)
{
	if (s == NULL || s[0] == '\0' || strlen(s) > 64)
		return 0;
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		    *s == '-' || *s == '_'))
			return 0;
	return 1;
}

/* 1 when theme_open would take name as a name or a path; else 0. */
int
theme_name_ok(const char *name)
{
	return name != NULL && (strchr(name, '/') != NULL ||
	    good_theme_name(name));
}

static int
good_asset_name(const char *s)
{
	if (s[0] == '.' || s[0] == '\0' || strlen(s) > 255)
		return 0;
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' ||
		    *s == '.'))
			return 0;
	return 1;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* List dir/assets (missing is fine: no assets). */
static int
list_assets(theme *th, mirror_error *err)
{
	struct dirent *de;
	strbuf path;
	size_t cap = 0;
	DIR *d;
	int rc = 0;

	strbuf_init(&path);
	strbuf_printf(&path, "%s/assets", th->dir);
	d = opendir(path.data);
	if (d == NULL) {
		rc = errno == ENOENT ? 0 : mirror_fail(err, MIRROR_EINPUT,
		    "%s: %s", path.data, strerror(errno));
		strbuf_free(&path);
		return rc;
	}
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		strbuf f;

		if (de->d_name[0] == '.' && (de->d_name[1] == '\0' ||
		    (de->d_name[1] == '.' && de->d_name[2] == '\0')))
			continue;
		strbuf_init(&f);
		strbuf_printf(&f, "%s/%s", path.data, de->d_name);
		if (!good_asset_name(de->d_name) || stat(f.data, &st) < 0 ||
		    !S_ISREG(st.st_mode)) {
			rc = mirror_fail(err, MIRROR_EINPUT, "%s: not a usable "
			    "theme asset (plain files named [A-Za-z0-9._-]+)",
			    f.data);
			strbuf_free(&f);
			break;
		}
		strbuf_free(&f);
		if (th->n_assets == cap) {
			cap = cap ? cap * 2 : 8;
			th->assets = xreallocarray(th->assets, cap,
			    sizeof(*th->assets));
		}
		th->assets[th->n_assets++] = xstrdup(de->d_name);
	}
	closedir(d);
	strbuf_free(&path);
	if (th->n_assets > 1)
		qsort(th->assets, th->n_assets, sizeof(*th->assets), cmp_str);
	return rc;
}

int
theme_open(theme **out, const char *name, mirror_error *err)
{
	struct stat st;
	strbuf path;
	theme *th;
	int rc;

	*out = NULL;
	th = xcalloc(1, sizeof(*th));
	th->name = xstrdup(name != NULL ? name : "");
	if (name != NULL && strchr(name, '/') != NULL) {
		if (stat(name, &st) < 0 || !S_ISDIR(st.st_mode)) {
			rc = mirror_fail(err, MIRROR_EINPUT, "theme directory "
			    "'%s' not found", name);
			goto fail;
		}
		th->dir = xstrdup(name);
	} else {
		strbuf sub;

		if (!good_theme_name(name)) {
			rc = mirror_fail(err, MIRROR_EINPUT, "bad theme name "
			    "'%s' (use [a-z0-9_-]+ or a directory path)",
			    th->name);
			goto fail;
		}
		strbuf_init(&sub);
		strbuf_printf(&sub, "themes/%s", name);
		rc = datadir_find(&th->dir, sub.data, err);
		strbuf_free(&sub);
		if (rc < 0) {
			rc = mirror_fail(err, MIRROR_EINPUT, "unknown theme "
			    "'%s' (no themes/%s beside the executable or in "
			    "the data directory)", name, name);
			goto fail;
		}
	}
	strbuf_init(&path);
	strbuf_printf(&path, "%s/layout.html", th->dir);
	rc = tmpl_load(&th->layout, path.data, TMPL_HTML, err);
	if (rc == 0 && !tmpl_has_raw(th->layout))
		rc = mirror_fail(err, MIRROR_EINPUT, "%s: the layout has no "
		    "{{{content}}} slot for the page", path.data);
	strbuf_free(&path);
	if (rc < 0)
		goto fail;
	if ((rc = list_assets(th, err)) < 0)
		goto fail;
	*out = th;
	return 0;
fail:
	theme_free(th);
	return rc;
}

int
theme_render(strbuf *sb, const theme *th, const json_t *page,
    const char *body_html, mirror_error *err)
{
	return tmpl_render(sb, th->layout, page, body_html != NULL ?
	    body_html : "", err);
}

/* Read a whole file into sb; 0 or -MIRROR_EIO. */
static int
slurp(strbuf *sb, const char *path, mirror_error *err)
{
	char buf[8192];
	size_t got;
	FILE *f;
	int bad;

	f = fopen(path, "rb");
	if (f == NULL)
		return mirror_fail(err, MIRROR_EIO, "%s: %s", path,
		    strerror(errno));
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(sb, buf, got);
	bad = ferror(f);
	fclose(f);
	if (bad)
		return mirror_fail(err, MIRROR_EIO, "%s: read error", path);
	return 0;
}

int
theme_write_assets(const theme *th, struct output *out, mirror_error *err)
{
	strbuf data, src, dst;
	int rc = 0;

	strbuf_init(&data);
	strbuf_init(&src);
	strbuf_init(&dst);
	for (size_t i = 0; rc == 0 && i < th->n_assets; i++) {
		strbuf_reset(&data);
		strbuf_reset(&src);
		strbuf_reset(&dst);
		strbuf_printf(&src, "%s/assets/%s", th->dir, th->assets[i]);
		strbuf_printf(&dst, "assets/%s", th->assets[i]);
		rc = slurp(&data, src.data, err);
		if (rc == 0)
			rc = output_write(out, dst.data, data.data, data.len,
			    err);
	}
	strbuf_free(&data);
	strbuf_free(&src);
	strbuf_free(&dst);
	return rc;
}

const char *
theme_name(const theme *th)
{
	return th->name;
}

const char *
theme_dir(const theme *th)
{
	return th->dir;
}

void
theme_free(theme *th)
{
	if (th == NULL)
		return;
	for (size_t i = 0; i < th->n_assets; i++)
		free(th->assets[i]);
	free(th->assets);
	tmpl_free(th->layout);
	free(th->dir);
	free(th->name);
	free(th);
}
