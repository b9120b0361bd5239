/*
 * gitlib.c: libgit2's entry points, looked up when mirror first needs
 * them (see gitlib.h).
 *
 * Each function mirror calls is defined here with libgit2's own
 * prototype (<git2.h> declares it, so the compiler holds the two
 * alike) and calls the library's through the table GITLIB_FNS fills.
 * A function missing from the table is an undefined reference when
 * mirror is linked: nothing links libgit2 itself.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>
#include <git2/sys/odb_backend.h>

#include "gitlib/gitlib.h"

/* The library's SONAME, as the Makefile read it off the -dev package's
 * libgit2.so (the ABI mirror was compiled against). */
#ifndef MIRROR_GIT_SONAME
#define MIRROR_GIT_SONAME "libgit2.so.1.5"
#endif

/* Every entry point but git_libgit2_opts (variadic: below), as
 * FN(return type, name, (parameters), (arguments)), or FN_VOID(name,
 * (parameters), (arguments)) for one that returns nothing. */
#define GITLIB_FNS(FN, FN_VOID) \
	FN_VOID(git_blob_free, (git_blob *blob), (blob)) \
	FN(int, git_blob_lookup, (git_blob **blob, git_repository *repo, \
	    const git_oid *id), (blob, repo, id)) \
	FN(const void *, git_blob_rawcontent, (const git_blob *blob), \
	    (blob)) \
	FN(git_object_size_t, git_blob_rawsize, (const git_blob *blob), \
	    (blob)) \
	FN_VOID(git_buf_dispose, (git_buf *buffer), (buffer)) \
	FN(int, git_commit_create, (git_oid *id, git_repository *repo, \
	    const char *update_ref, const git_signature *author, \
	    const git_signature *committer, const char *message_encoding, \
	    const char *message, const git_tree *tree, size_t parent_count, \
	    const git_commit *parents[]), (id, repo, update_ref, author, \
	    committer, message_encoding, message, tree, parent_count, \
	    parents)) \
	FN(int, git_commit_create_buffer, (git_buf *out, \
	    git_repository *repo, const git_signature *author, \
	    const git_signature *committer, const char *message_encoding, \
	    const char *message, const git_tree *tree, size_t parent_count, \
	    const git_commit *parents[]), (out, repo, author, committer, \
	    message_encoding, message, tree, parent_count, parents)) \
	FN(int, git_commit_create_with_signature, (git_oid *out, \
	    git_repository *repo, const char *commit_content, \
	    const char *signature, const char *signature_field), (out, repo, \
	    commit_content, signature, signature_field)) \
	FN_VOID(git_commit_free, (git_commit *commit), (commit)) \
	FN(int, git_commit_lookup, (git_commit **commit, \
	    git_repository *repo, const git_oid *id), (commit, repo, id)) \
	FN(int, git_commit_tree, (git_tree **tree_out, \
	    const git_commit *commit), (tree_out, commit)) \
	FN_VOID(git_config_entry_free, (git_config_entry *entry), (entry)) \
	FN_VOID(git_config_free, (git_config *cfg), (cfg)) \
	FN(int, git_config_get_entry, (git_config_entry **out, \
	    const git_config *cfg, const char *name), (out, cfg, name)) \
	FN(int, git_config_get_string_buf, (git_buf *out, \
	    const git_config *cfg, const char *name), (out, cfg, name)) \
	FN(int, git_config_open_level, (git_config **out, \
	    const git_config *parent, git_config_level_t level), (out, \
	    parent, level)) \
	FN(int, git_config_set_bool, (git_config *cfg, const char *name, \
	    int value), (cfg, name, value)) \
	FN_VOID(git_diff_free, (git_diff *diff), (diff)) \
	FN(const git_diff_delta *, git_diff_get_delta, \
	    (const git_diff *diff, size_t idx), (diff, idx)) \
	FN(size_t, git_diff_num_deltas, (const git_diff *diff), (diff)) \
	FN(int, git_diff_options_init, (git_diff_options *opts, \
	    unsigned int version), (opts, version)) \
	FN(int, git_diff_tree_to_tree, (git_diff **diff, \
	    git_repository *repo, git_tree *old_tree, git_tree *new_tree, \
	    const git_diff_options *opts), (diff, repo, old_tree, new_tree, \
	    opts)) \
	FN_VOID(git_error_clear, (void), ()) \
	FN(const git_error *, git_error_last, (void), ()) \
	FN(int, git_error_set_str, (int error_class, const char *string), \
	    (error_class, string)) \
	FN(int, git_libgit2_init, (void), ()) \
	FN(int, git_libgit2_shutdown, (void), ()) \
	FN(int, git_libgit2_version, (int *major, int *minor, int *rev), \
	    (major, minor, rev)) \
	FN(int, git_odb_add_backend, (git_odb *odb, \
	    git_odb_backend *backend, int priority), (odb, backend, \
	    priority)) \
	FN(void *, git_odb_backend_data_alloc, (git_odb_backend *backend, \
	    size_t len), (backend, len)) \
	FN(int, git_odb_backend_pack, (git_odb_backend **out, \
	    const char *objects_dir), (out, objects_dir)) \
	FN(int, git_odb_exists_ext, (git_odb *db, const git_oid *id, \
	    unsigned int flags), (db, id, flags)) \
	FN_VOID(git_odb_free, (git_odb *db), (db)) \
	FN(int, git_odb_hash, (git_oid *out, const void *data, size_t len, \
	    git_object_t type), (out, data, len, type)) \
	FN(int, git_odb_init_backend, (git_odb_backend *backend, \
	    unsigned int version), (backend, version)) \
	FN(int, git_odb_new, (git_odb **out), (out)) \
	FN(int, git_odb_write, (git_oid *out, git_odb *odb, \
	    const void *data, size_t len, git_object_t type), (out, odb, \
	    data, len, type)) \
	FN(int, git_oid_cmp, (const git_oid *a, const git_oid *b), (a, b)) \
	FN(int, git_oid_cpy, (git_oid *out, const git_oid *src), (out, src)) \
	FN(int, git_oid_equal, (const git_oid *a, const git_oid *b), (a, b)) \
	FN(int, git_oid_fromraw, (git_oid *out, const unsigned char *raw), \
	    (out, raw)) \
	FN(int, git_oid_fromstr, (git_oid *out, const char *str), (out, \
	    str)) \
	FN(int, git_oid_streq, (const git_oid *id, const char *str), (id, \
	    str)) \
	FN(char *, git_oid_tostr, (char *out, size_t n, const git_oid *id), \
	    (out, n, id)) \
	FN(int, git_reference_create, (git_reference **out, \
	    git_repository *repo, const char *name, const git_oid *id, \
	    int force, const char *log_message), (out, repo, name, id, \
	    force, log_message)) \
	FN(int, git_reference_create_matching, (git_reference **out, \
	    git_repository *repo, const char *name, const git_oid *id, \
	    int force, const git_oid *current_id, const char *log_message), \
	    (out, repo, name, id, force, current_id, log_message)) \
	FN_VOID(git_reference_free, (git_reference *ref), (ref)) \
	FN_VOID(git_reference_iterator_free, (git_reference_iterator *iter), \
	    (iter)) \
	FN(int, git_reference_iterator_glob_new, \
	    (git_reference_iterator **out, git_repository *repo, \
	    const char *glob), (out, repo, glob)) \
	FN(int, git_reference_lookup, (git_reference **out, \
	    git_repository *repo, const char *name), (out, repo, name)) \
	FN(const char *, git_reference_name, (const git_reference *ref), \
	    (ref)) \
	FN(int, git_reference_name_is_valid, (int *valid, \
	    const char *refname), (valid, refname)) \
	FN(int, git_reference_name_to_id, (git_oid *out, \
	    git_repository *repo, const char *name), (out, repo, name)) \
	FN(int, git_reference_next, (git_reference **out, \
	    git_reference_iterator *iter), (out, iter)) \
	FN(const char *, git_reference_symbolic_target, \
	    (const git_reference *ref), (ref)) \
	FN(const git_oid *, git_reference_target, \
	    (const git_reference *ref), (ref)) \
	FN(git_reference_t, git_reference_type, (const git_reference *ref), \
	    (ref)) \
	FN(const char *, git_repository_commondir, \
	    (const git_repository *repo), (repo)) \
	FN(int, git_repository_config, (git_config **out, \
	    git_repository *repo), (out, repo)) \
	FN(int, git_repository_config_snapshot, (git_config **out, \
	    git_repository *repo), (out, repo)) \
	FN_VOID(git_repository_free, (git_repository *repo), (repo)) \
	FN(int, git_repository_is_bare, (const git_repository *repo), \
	    (repo)) \
	FN(int, git_repository_is_worktree, (const git_repository *repo), \
	    (repo)) \
	FN(int, git_repository_odb, (git_odb **out, git_repository *repo), \
	    (out, repo)) \
	FN(int, git_repository_open_ext, (git_repository **out, \
	    const char *path, unsigned int flags, const char *ceiling_dirs), \
	    (out, path, flags, ceiling_dirs)) \
	FN(int, git_repository_open_from_worktree, (git_repository **out, \
	    git_worktree *wt), (out, wt)) \
	FN(int, git_repository_set_ident, (git_repository *repo, \
	    const char *name, const char *email), (repo, name, email)) \
	FN(const char *, git_repository_workdir, \
	    (const git_repository *repo), (repo)) \
	FN_VOID(git_signature_free, (git_signature *sig), (sig)) \
	FN(int, git_signature_new, (git_signature **out, const char *name, \
	    const char *email, git_time_t time, int offset), (out, name, \
	    email, time, offset)) \
	FN_VOID(git_strarray_dispose, (git_strarray *array), (array)) \
	FN(int, git_tree_entry_bypath, (git_tree_entry **out, \
	    const git_tree *root, const char *path), (out, root, path)) \
	FN(int, git_tree_entry_cmp, (const git_tree_entry *e1, \
	    const git_tree_entry *e2), (e1, e2)) \
	FN(git_filemode_t, git_tree_entry_filemode, \
	    (const git_tree_entry *entry), (entry)) \
	FN(git_filemode_t, git_tree_entry_filemode_raw, \
	    (const git_tree_entry *entry), (entry)) \
	FN_VOID(git_tree_entry_free, (git_tree_entry *entry), (entry)) \
	FN(const git_oid *, git_tree_entry_id, \
	    (const git_tree_entry *entry), (entry)) \
	FN(const char *, git_tree_entry_name, (const git_tree_entry *entry), \
	    (entry)) \
	FN(git_object_t, git_tree_entry_type, (const git_tree_entry *entry), \
	    (entry)) \
	FN_VOID(git_tree_free, (git_tree *tree), (tree)) \
	FN(const git_oid *, git_tree_id, (const git_tree *tree), (tree)) \
	FN(int, git_tree_lookup, (git_tree **out, git_repository *repo, \
	    const git_oid *id), (out, repo, id)) \
	FN(git_repository *, git_tree_owner, (const git_tree *tree), (tree)) \
	FN(size_t, git_treebuilder_entrycount, (git_treebuilder *bld), \
	    (bld)) \
	FN(int, git_treebuilder_filter, (git_treebuilder *bld, \
	    git_treebuilder_filter_cb filter, void *payload), (bld, filter, \
	    payload)) \
	FN_VOID(git_treebuilder_free, (git_treebuilder *bld), (bld)) \
	FN(const git_tree_entry *, git_treebuilder_get, \
	    (git_treebuilder *bld, const char *filename), (bld, filename)) \
	FN(int, git_treebuilder_insert, (const git_tree_entry **out, \
	    git_treebuilder *bld, const char *filename, const git_oid *id, \
	    git_filemode_t filemode), (out, bld, filename, id, filemode)) \
	FN(int, git_treebuilder_new, (git_treebuilder **out, \
	    git_repository *repo, const git_tree *source), (out, repo, \
	    source)) \
	FN(int, git_treebuilder_remove, (git_treebuilder *bld, \
	    const char *filename), (bld, filename)) \
	FN_VOID(git_worktree_free, (git_worktree *wt), (wt)) \
	FN(int, git_worktree_list, (git_strarray *out, \
	    git_repository *repo), (out, repo)) \
	FN(int, git_worktree_lookup, (git_worktree **out, \
	    git_repository *repo, const char *name), (out, repo, name)) \
	FN(const char *, git_worktree_path, (const git_worktree *wt), (wt))

/* The table: a pointer for each entry point, and git_libgit2_opts'. */
#define PTR(ret, name, params, args) ret (*name) params;
#define PTR_VOID(name, params, args) void (*name) params;
static struct gitlib_api {
	GITLIB_FNS(PTR, PTR_VOID)
	int (*git_libgit2_opts)(int, ...);
} api;
#undef PTR
#undef PTR_VOID

/* Each entry point's name, and its place in the table. */
#define SYM(ret, name, params, args) { #name, offsetof(struct gitlib_api, \
	name) },
#define SYM_VOID(name, params, args) SYM(void, name, params, args)
static const struct {
	const char *name;
	size_t off;
} syms[] = {
	GITLIB_FNS(SYM, SYM_VOID)
	{ "git_libgit2_opts", offsetof(struct gitlib_api, git_libgit2_opts) },
};
#undef SYM
#undef SYM_VOID

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;              /* 1: the table is filled; -1: failed */
static char load_error[512];    /* why, when -1 */

/* Open the library and fill the table (pthread_once's). */
static void
load(void)
{
	void *lib;
	const char *why;

	dlerror();
	lib = dlopen(MIRROR_GIT_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		why = dlerror();
		(void)snprintf(load_error, sizeof(load_error), "cannot load "
		    "%s (Debian's libgit2-1.5 has it): %s", MIRROR_GIT_SONAME,
		    why != NULL ? why : "unknown reason");
		loaded = -1;
		return;
	}
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		void *f = dlsym(lib, syms[i].name);

		if (f == NULL) {
			(void)snprintf(load_error, sizeof(load_error), "%s "
			    "has no %s: not the libgit2 mirror was built "
			    "for", MIRROR_GIT_SONAME, syms[i].name);
			loaded = -1;
			return;         /* the library stays: it may be in use */
		}
		memcpy((char *)&api + syms[i].off, &f, sizeof(f));
	}
	loaded = 1;
}

int
mgit_lib_open(mirror_error *err)
{
	(void)pthread_once(&load_once, load);
	if (loaded > 0)
		return 0;
	return mirror_fail(err, MIRROR_EIO, "libgit2: %s", load_error);
}

/* The table, filled: a call before mgit_lib_open succeeded (a caller
 * that skipped it, with the library missing) ends the process with
 * the reason, since libgit2's function cannot fail the way it would. */
static void
need(void)
{
	(void)pthread_once(&load_once, load);
	if (loaded > 0)
		return;
	fprintf(stderr, "mirror: libgit2: %s\n", load_error);
	exit(MIRROR_EIO);
}

/* The entry points: each loads the table, then calls the library's. */
#define DEFINE(ret, name, params, args) \
	ret name params { need(); return api.name args; }
#define DEFINE_VOID(name, params, args) \
	void name params { need(); api.name args; }
GITLIB_FNS(DEFINE, DEFINE_VOID)
#undef DEFINE
#undef DEFINE_VOID

/*
 * git_libgit2_opts, for the options mirror sets (gen/git/git_repo.c),
 * their arguments read as the library reads them; any other is refused
 * as libgit2 refuses an option it does not know.
 */
int
git_libgit2_opts(int option, ...)
{
	va_list ap;
	int rc;

	need();
	va_start(ap, option);
	switch (option) {
	case GIT_OPT_SET_SEARCH_PATH: {
		int level = va_arg(ap, int);
		const char *path = va_arg(ap, const char *);

		rc = api.git_libgit2_opts(option, level, path);
		break;
	}
	case GIT_OPT_ENABLE_STRICT_OBJECT_CREATION:
	case GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION:
		rc = api.git_libgit2_opts(option, va_arg(ap, int));
		break;
	case GIT_OPT_SET_CACHE_OBJECT_LIMIT: {
		int type = va_arg(ap, int);     /* git_object_t, promoted */
		size_t size = va_arg(ap, size_t);

		rc = api.git_libgit2_opts(option, type, size);
		break;
	}
	default:
		api.git_error_set_str(GIT_ERROR_INVALID, "invalid option key");
		rc = -1;
		break;
	}
	va_end(ap);
	return rc;
}
