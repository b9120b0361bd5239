/*
 * cmd_serve.c: mirror serve --store S [--port N] [--bind ADDR]
 *     [--no-sweep] [--rules DIR] [--templates DIR] [--theme NAME]
 *     [--base-url URL] [--title T] [--json] [--quiet]
 *
 * The preview server, wired from the stages:
 *   1. a temporary directory (in $TMPDIR, else /tmp) whose site/ every
 *      build writes, through the build stage (gen/pipeline/build.h, run
 *      by gen/serve/serve_loop.h): the same code path, the same checks, the
 *      same incremental writes;
 *   2. the first build; when it fails, serve exits with its status;
 *   3. gen/serve serves site/ on --bind (127.0.0.1) and --port (1313);
 *   4. every few hundred ms the inputs are looked at (the store, its WAL and
 *      PRAGMA data_version; the templates, the theme and the rules
 *      directories through inotify, serve_watch.h, never walked while
 *      idle); a change, once it has settled, runs a build. When
 *      the build changed the site's files, or its error came, went or
 *      changed, gen/serve's generation goes up and open pages reload; a
 *      failed build leaves the last good site served, its error on stderr and
 *      in a banner on every page;
 *   5. SIGINT or SIGTERM: stop serving, remove the temporary directory,
 *      exit 0. (A second signal kills at once.)
 * A build's own sweep changes the store, so the next poll builds once
 * more: that build finds nothing changed (build_stamp.h) and, the site
 * being the same, reloads nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "output/out_fs.h"
#include "render/datadir.h"
#include "serve/serve.h"
#include "serve/serve_loop.h"
#include "serve/serve_watch.h"
#include "store/store.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "sys/termtext.h"
#include "util/xalloc.h"

#define DEFAULT_PORT 1313
#define DEFAULT_BIND "127.0.0.1"

/* --port into *port: a decimal number 0..65535, 0 for any free port.
 * Returns 0 or -MIRROR_EUSAGE. */
static int
parse_port(unsigned *port, const char *s, mirror_error *err)
{
	unsigned long v = 0;

	*port = DEFAULT_PORT;
	if (s == NULL)
		return 0;
	if (s[0] == '\0' || strlen(s) > 5 || strspn(s, "0123456789") !=
	    strlen(s) || (v = strtoul(s, NULL, 10)) > 65535)
		return mirror_fail(err, MIRROR_EUSAGE, "--port: '%s' is not a "
		    "port number (0 to 65535; 0: any free port)", s);
	*port = (unsigned)v;
	return 0;
}

/* What the site is built from, looked at by serve_loop. */
struct watch {
	const char *store;
	char *wal;              /* the store's -wal file */
	char *templates;        /* the bundled templates */
	const char *user_templates;     /* --templates, or NULL */
	char *theme;            /* the theme's directory, or NULL */
	char *rules;            /* the starter rules, or NULL */
	const char *user_rules; /* --rules, or NULL */
	serve_watch *trees;     /* the directories above, under inotify */
	mirror_store *st;       /* for PRAGMA data_version, or NULL */
	dev_t dev;              /* the store file st has open */
	ino_t ino;
};

/* The paths of w for the options o. */
static void
watch_init(struct watch *w, const struct mirror_opts *o)
{
	mirror_error ignored;
	strbuf sb;

	memset(w, 0, sizeof(*w));
	w->store = o->store;
	strbuf_init(&sb);
	strbuf_printf(&sb, "%s-wal", o->store);
	w->wal = strbuf_detach(&sb);
	(void)datadir_find(&w->templates, "templates", &ignored);
	w->user_templates = o->templates;
	(void)datadir_find(&w->rules, "rules", &ignored);
	w->user_rules = o->rules;
	if (strchr(o->theme, '/') != NULL) {
		w->theme = xstrdup(o->theme);
	} else {
		strbuf_init(&sb);
		strbuf_printf(&sb, "themes/%s", o->theme);
		(void)datadir_find(&w->theme, sb.data, &ignored);
		strbuf_free(&sb);
	}
	w->trees = serve_watch_new();
	serve_watch_add(w->trees, w->templates);
	serve_watch_add(w->trees, w->user_templates);
	serve_watch_add(w->trees, w->theme);
	serve_watch_add(w->trees, w->rules);
	serve_watch_add(w->trees, w->user_rules);
}

static void
watch_free(struct watch *w)
{
	store_close(w->st);
	serve_watch_free(w->trees);
	free(w->wal);
	free(w->templates);
	free(w->theme);
	free(w->rules);
}

/*
 * PRAGMA data_version of the store (it changes with every commit of
 * another connection, also within the same second and size), folded
 * into h, on a connection opened on the store file as it is now: a
 * store replaced by another file gets a new one. Nothing when the store
 * cannot be opened. Returns the new value.
 */
static uint64_t
watch_data_version(struct watch *w, uint64_t h)
{
	mirror_error ignored;
	struct stat st;
	long long v;

	if (stat(w->store, &st) < 0)
		st.st_ino = 0;
	if (w->st != NULL && (st.st_dev != w->dev || st.st_ino != w->ino)) {
		store_close(w->st);
		w->st = NULL;
	}
	if (w->st == NULL && st.st_ino != 0 &&
	    store_open(&w->st, w->store, STORE_READ, &ignored) < 0)
		w->st = NULL;
	w->dev = st.st_dev;
	w->ino = st.st_ino;
	if (w->st == NULL)
		return h;
	if (store_data_version(&v, w->st, &ignored) < 0) {
		store_close(w->st);
		w->st = NULL;
		return h;
	}
	return hash_add(h, &v, sizeof(v));
}

/* One fingerprint of everything w (a struct watch) watches: equal
 * means unchanged. */
static uint64_t
watch_sample(void *arg)
{
	struct watch *w = arg;
	uint64_t v[3];

	v[0] = serve_fingerprint(w->store);
	v[1] = serve_fingerprint(w->wal);
	v[2] = serve_watch_sample(w->trees);
	return watch_data_version(w, hash_add(MIRROR_HASH_INIT, v,
	    sizeof(v)));
}

/* Step 1: a new temporary directory into *dir and its site/ into
 * *site (the caller frees both). Returns 0 or -MIRROR_EIO. */
static int
make_tmpdir(char **dir, char **site, mirror_error *err)
{
	const char *tmp = getenv("TMPDIR");
	strbuf sb;

	*dir = *site = NULL;
	strbuf_init(&sb);
	strbuf_printf(&sb, "%s/mirror-serve.XXXXXX",
	    tmp != NULL && tmp[0] == '/' ? tmp : "/tmp");
	if (mkdtemp(sb.data) == NULL) {
		int e = errno;

		mirror_fail(err, MIRROR_EIO, "serve: cannot create a "
		    "temporary directory %s: %s", sb.data, strerror(e));
		strbuf_free(&sb);
		return -MIRROR_EIO;
	}
	*dir = strbuf_detach(&sb);
	strbuf_init(&sb);
	strbuf_printf(&sb, "%s/site", *dir);
	*site = strbuf_detach(&sb);
	return 0;
}

/* Step 3's one line (or JSON document): where the site is served.
 * Returns 0 or < 0 when stdout cannot be written. */
static int
say_serving(const serve *s, const char *site, const struct mirror_opts *o,
    mirror_error *err)
{
	const char *url = serve_url(s);
	int rc;

	if (o->json) {
		rc = json_out_print(json_pack("{s:s, s:i, s:s}", "url", url,
		    "port", atoi(strrchr(url, ':') + 1), "dir", site), err);
	} else {
		if (!o->quiet)
			(void)termtext_printf(stdout, "site: %s (removed on "
			    "exit)\n", site);
		(void)termtext_printf(stdout, "serving %s (Ctrl-C to stop)\n",
		    url);
		rc = 0;
	}
	if (rc == 0 && fflush(stdout) != 0)
		return mirror_fail(err, MIRROR_EIO, "cannot write to standard "
		    "output");
	return rc;
}

/*
 * The options of every build into *bo (*base_url: the caller frees it):
 * the command line's and the config file's, with --out the temporary
 * site, and nothing that prints, fails on conflicts or commits (a
 * config file's repo is not serve's). Returns 0 or -MIRROR_EUSAGE.
 */
static int
build_options(struct build_opts *bo, char **base_url,
    const struct mirror_opts *o, const char *site, mirror_error *err)
{
	struct mirror_opts b = *o;

	b.out = site;
	b.repo = NULL;
	b.author = NULL;
	b.sign_key = NULL;
	b.quiet = 1;
	b.json = 0;
	b.check = 0;
	b.force = 0;
	b.nargs = 0;
	return cli_build_opts(bo, base_url, &b, err);
}

int
cmd_serve(const struct mirror_opts *o, mirror_error *err)
{
	struct serve_opts so = { NULL, NULL, 0 };
	struct build_opts b;
	struct watch w;
	struct serve_inputs in = { watch_sample, &w, 0 };
	serve *s = NULL;
	char *dir = NULL, *site = NULL, *base_url = NULL;
	unsigned long gen = 0;
	int rc;

	if ((rc = cli_need_store(o, err)) < 0 ||
	    (rc = cli_max_args(o, 0, err)) < 0 ||
	    (rc = parse_port(&so.port, o->port, err)) < 0)
		return rc;
	so.bind = o->bind != NULL ? o->bind : DEFAULT_BIND;
	if ((rc = make_tmpdir(&dir, &site, err)) < 0)
		return rc;
	serve_catch_signals();
	watch_init(&w, o);
	in.seen = watch_sample(&w);
	so.root = site;
	if ((rc = build_options(&b, &base_url, o, site, err)) == 0 &&
	    (rc = serve_rebuild(NULL, &gen, &b, o->quiet, err)) == 0 &&
	    !serve_stopping() &&
	    (rc = serve_start(&s, &so, err)) == 0 &&
	    (rc = say_serving(s, site, o, err)) == 0)
		serve_loop(s, &in, &b, o->quiet || o->json);
	serve_stop(s);
	watch_free(&w);
	if (out_remove_tree(AT_FDCWD, dir) < 0 && rc == 0)
		rc = mirror_fail(err, MIRROR_EIO, "serve: cannot remove %s: %s",
		    dir, strerror(errno));
	free(base_url);
	free(dir);
	free(site);
	return rc;
}
