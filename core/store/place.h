/*
 * place.h: where the store is, so that no other file mirror reads is it.
 *
 * Closing any descriptor of a file drops every POSIX lock the process
 * holds on it (SQLite's "How To Corrupt", 2.2). A store kept inside the
 * templates, the theme, the rules or the cache, or given as the config
 * file, was read with mirror's own open and close (hashing a directory,
 * reading a file) while a connection held a read lock on it: another
 * process's writer got in, and the store was corrupt. store_place_guard
 * registers the store's identity with core/sys/userfile, the one opener
 * of those files, which then refuses the store and its companions by
 * device and inode, and by name in the store's directory, before it
 * opens anything (doc/store.md, "Where the store may live").
 */
#ifndef MIRROR_PLACE_H
#define MIRROR_PLACE_H

/*
 * Register the store at path (as the user wrote it; NULL: none) as the
 * one no user file may be: its real directory and base name, and the
 * device and inode of each of the store, path-journal, path-wal and
 * path-shm that exists, all by stat(2) and realpath(3), never opening
 * any of them. A store that does not exist yet is known by its name.
 * Safe from any thread; returns nothing (a path that cannot be looked
 * at is known by what could be).
 */
void store_place_guard(const char *path);

#endif
