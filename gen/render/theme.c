/*
 * theme.c: a theme's layout template and the assets it ships.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/output.h"
#include "render/datadir.h"
#include "render/template.h"
#include "render/theme.h"
#include "sys/userfile.h"
#include "util/array.h"
#include "util/xalloc.h"

struct theme {
	char *name;
	char *dir;
	tmpl *layout;
	char **assets;          /* file names in assets/, sorted */
	size_t n_assets;
	int assets_fd;          /* dir/assets, opened once; -1: none */
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

/*
 * Open dir/assets (never through a symbolic link: a link to ~/.ssh would
 * publish its files) and list it: every entry must be a regular file
 * with a safe name, none followed. A missing assets/ means no assets.
 * Returns 0, or -MIRROR_EINPUT naming the entry.
 */
static int
list_assets(theme *th, mirror_error *err)
{
	struct dirent *de;
	struct stat st;
	strbuf path;
	size_t cap = 0;
	DIR *d;
	int rc = 0, fd;

	strbuf_init(&path);
	strbuf_printf(&path, "%s/assets", th->dir);
	th->assets_fd = open(path.data, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_NONBLOCK | O_CLOEXEC);
	if (th->assets_fd < 0) {
		if (errno == ENOENT)
			rc = 0;
		else if (lstat(path.data, &st) == 0 && !S_ISDIR(st.st_mode))
			rc = mirror_fail(err, MIRROR_EINPUT, "theme %s: %s, "
			    "not a directory", path.data,
			    userfile_kind(st.st_mode));
		else
			rc = mirror_fail(err, MIRROR_EINPUT, "theme %s: %s",
			    path.data, strerror(errno));
		strbuf_free(&path);
		return rc;
	}
	if ((fd = dup(th->assets_fd)) < 0 || (d = fdopendir(fd)) == NULL) {
		rc = mirror_fail(err, MIRROR_EIO, "theme %s: %s", path.data,
		    strerror(errno));
		if (fd >= 0)
			close(fd);
		strbuf_free(&path);
		return rc;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' && (de->d_name[1] == '\0' ||
		    (de->d_name[1] == '.' && de->d_name[2] == '\0')))
			continue;
		if (!good_asset_name(de->d_name)) {
			rc = mirror_fail(err, MIRROR_EINPUT, "%s/%s: not a "
			    "usable theme asset (plain files named "
			    "[A-Za-z0-9._-]+)", path.data, de->d_name);
			break;
		}
		if (fstatat(th->assets_fd, de->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) < 0) {
			rc = mirror_fail(err, MIRROR_EINPUT, "theme %s/%s: %s",
			    path.data, de->d_name, strerror(errno));
			break;
		}
		if (!S_ISREG(st.st_mode)) {
			rc = mirror_fail(err, MIRROR_EINPUT, "theme %s/%s: %s, "
			    "not a regular file (theme assets are plain files "
			    "in assets/)", path.data, de->d_name,
			    userfile_kind(st.st_mode));
			break;
		}
		ARRAY_PUSH(th->assets, th->n_assets, cap) =
		    xstrdup(de->d_name);
	}
	closedir(d);
	strbuf_free(&path);
	if (th->n_assets > 1)
		qsort(th->assets, th->n_assets, sizeof(*th->assets), cmp_str);
	return rc;
}

/*
 * Open the theme name (a built-in name or a directory path). Returns 0
 * with *out, or -MIRROR_EINPUT (unknown, a bad layout, a refused file).
 */
int
theme_open(theme **out, const char *name, mirror_error *err)
{
	struct stat st;
	strbuf path;
	theme *th;
	int rc;

	*out = NULL;
	th = xcalloc(1, sizeof(*th));
	th->assets_fd = -1;
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
	rc = tmpl_load_user(&th->layout, path.data, "theme", TMPL_HTML, 0,
	    err);
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

int
theme_has_style(const theme *th)
{
	for (size_t i = 0; i < th->n_assets; i++)
		if (strcmp(th->assets[i], "style.css") == 0)
			return 1;
	return 0;
}

/*
 * Copy every asset listed by theme_open into out's assets/, each read
 * through the directory opened then, never through a link, and
 * style_extra after style.css's own. Returns 0 or < 0 (a refused or
 * unreadable asset: -MIRROR_EINPUT).
 */
int
theme_write_assets(const theme *th, struct output *out,
    const char *style_extra, mirror_error *err)
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
		rc = userfile_readat(&data, &(struct userfile_at){
		    .dirfd = th->assets_fd, .name = th->assets[i],
		    .what = "theme", .shown = src.data }, 0, 0, err);
		if (rc == 0 && style_extra != NULL &&
		    strcmp(th->assets[i], "style.css") == 0)
			strbuf_puts(&data, style_extra);
		if (rc == 0)
			rc = output_write(out, dst.data, data.data, data.len,
			    err);
	}
	strbuf_free(&data);
	strbuf_free(&src);
	strbuf_free(&dst);
	return rc;
}

int
theme_inline_css(strbuf *sb, const theme *th, const char *style_extra,
    mirror_error *err)
{
	static const char name[] = "style.css";
	strbuf data, src;
	int rc;

	if (!theme_has_style(th))
		return 0;
	strbuf_init(&data);
	strbuf_init(&src);
	strbuf_printf(&src, "%s/assets/%s", th->dir, name);
	rc = userfile_readat(&data, &(struct userfile_at){
	    .dirfd = th->assets_fd, .name = name, .what = "theme",
	    .shown = src.data }, 0, 0, err);
	if (rc == 0 && style_extra != NULL)
		strbuf_puts(&data, style_extra);
	/* A NUL byte would hide the rest from strstr: none either. */
	if (rc == 0 && data.len > 0 && strlen(data.data) == data.len &&
	    strstr(data.data, "</") == NULL)
		strbuf_add(sb, data.data, data.len);
	strbuf_free(&data);
	strbuf_free(&src);
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
	if (th->assets_fd >= 0)
		close(th->assets_fd);
	tmpl_free(th->layout);
	free(th->dir);
	free(th->name);
	free(th);
}
