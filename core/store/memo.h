/*
 * memo.h: the snapshot checksum a store file's print vouched for, kept
 * between runs in the user's cache, so that an untouched store is not
 * read again to learn what it holds.
 *
 * A memo is one small line, "<print> <snapshot> <expired> <any>
 * <after> <until>\n": 16 hex digits each for the print (store_print in
 * store.h) and the snapshot, then the store's clock as facts_clock_read
 * found it in the same read (facts.h; decimal). It is named by a hash of
 * the store's real path:
 *
 *   $MIRROR_CACHE_DIR/stores/<hash>       when MIRROR_CACHE_DIR is set
 *   $XDG_CACHE_HOME/mirror/stores/<hash>  else when XDG_CACHE_HOME is
 *   $HOME/.cache/mirror/stores/<hash>     else
 *
 * It says something true of the store file alone (a file with this
 * print held rows whose checksum is this snapshot, and which expire
 * when the clock says), whatever site was
 * built from it or whether that build finished, so it is written as soon
 * as it is known and read by any later run. Its directories are made
 * 0700, the file is written beside its name and renamed into place (a
 * reader sees the old memo or the new one), and it is never followed
 * through a symbolic link. A memo that is missing, unreadable or of
 * another print is no memo: the caller reads the rows. Nothing here
 * fails a build.
 */
#ifndef MIRROR_MEMO_H
#define MIRROR_MEMO_H

#include "store/facts.h"

/* What a store file vouched for, read in the read that took its print. */
struct store_memo {
	char snapshot[17];              /* 16 hex digits */
	struct facts_clock clock;
};

/*
 * 1 with the memo in *out when the cache holds a memo for the store at
 * path whose print is print; else 0, out->snapshot "".
 */
int memo_get(struct store_memo *out, const char *path, const char *print);

/*
 * Keep m as the memo of the store at path under print, replacing the
 * one there. Best effort: a cache that cannot be written (no HOME, a
 * read-only disk) leaves no memo, and the next run reads the rows.
 */
void memo_put(const char *path, const char *print,
    const struct store_memo *m);

#endif
