/*
 * serve_watch.h: noticing that files changed (the preview server
 * rebuilds when the store, the templates or the theme change, and tells
 * open pages when the site did): by their metadata for a file, with
 * inotify for a tree.
 */
#ifndef MIRROR_SERVE_WATCH_H
#define MIRROR_SERVE_WATCH_H

#include <stdint.h>

/*
 * A fingerprint of what is at path now: for a file its device, inode,
 * size, mode and modification time (to the nanosecond); for a directory
 * also the name and fingerprint of every entry below it, up to 32
 * levels deep, never following a symbolic link below path (path itself
 * is followed: a linked --templates directory is the user's choice).
 * Equal fingerprints mean nothing seen changed; a missing path has one
 * of its own, so it appearing or going away shows too. Never fails: an
 * entry that cannot be read counts as missing.
 */
uint64_t serve_fingerprint(const char *path);

/*
 * Trees watched without walking them again: each directory below a path
 * given (up to 32 levels, no symbolic link followed below it) has an
 * inotify watch, a directory made or moved in gets its own, and a
 * sample only reads the events that came and stats each path.
 *
 *   serve_watch *w = serve_watch_new();
 *   serve_watch_add(w, "templates");     (up to 8 paths; NULL: none)
 *   seen = serve_watch_sample(w);
 *   ... later: serve_watch_sample(w) != seen: something changed
 *   serve_watch_free(w);
 *
 * A path that is not a directory (a file, missing) is fingerprinted at
 * each sample; a path replaced by another directory is watched afresh.
 * When inotify cannot be had or runs out of watches
 * (fs.inotify.max_user_watches), that tree is fingerprinted instead,
 * every 2 seconds at most. An event inotify lost (its queue overflowed)
 * counts as a change and every tree is watched afresh. A directory
 * moved out of a tree keeps its watches: a change there builds once
 * more, for nothing. Never fails.
 */
typedef struct serve_watch serve_watch;

/* A watcher of no path yet (never NULL). */
serve_watch *serve_watch_new(void);

/* Watch path too (NULL, or past the 8th: nothing); its watches are
 * taken at the next sample. */
void serve_watch_add(serve_watch *w, const char *path);

/* A value equal to the last one while nothing seen changed. */
uint64_t serve_watch_sample(serve_watch *w);

/* Stop watching and free w (NULL: nothing). */
void serve_watch_free(serve_watch *w);

#endif
