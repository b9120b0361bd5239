/*
 * site_file.h: one file of a site to commit, as history_request lists
 * them (history.h) and the tree builder reads them (git_tree.h).
 */
#ifndef MIRROR_SITE_FILE_H
#define MIRROR_SITE_FILE_H

/* One file of the new site. The strings stay the caller's. */
struct history_file {
	const char *path;   /* '/'-separated path inside the site: no
	                       leading, trailing or doubled '/' */
	const char *disk;   /* where its bytes are now (a file path, opened
	                       as it is: relative to the working directory) */
	int changed;        /* 0: byte-identical to path in base_tree;
	                       1: new or changed (or unknown) */
};

#endif
