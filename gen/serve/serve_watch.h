/*
 * serve_watch.h: noticing that files changed, by polling their metadata
 * (the preview server rebuilds when the store, the templates or the
 * theme change, and tells open pages when the site did).
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

#endif
