/*
 * out_dircache.h: new files created below a directory through a few
 * directory descriptors kept open and shared by the threads that write
 * them (gen/output's own; output.h is the face).
 *
 * A build writes its pages a project at a time, on several threads: the
 * files of one directory come together. Each directory is made once
 * (mkdirat in its parent's descriptor) and opened once (O_NOFOLLOW, in
 * its parent's descriptor, so no link is ever followed on the way); its
 * files are then created relative to it (out_ring.h batches them). The
 * OUT_DIR_SLOTS directories used last stay open; one in use is never
 * closed under its user.
 */
#ifndef MIRROR_OUT_DIRCACHE_H
#define MIRROR_OUT_DIRCACHE_H

#include <pthread.h>
#include <stddef.h>

/* Directories kept open: a few per writing thread, and their parents
 * (16 threads in as many directories evicted each other's at 16), held
 * while a batch of files in them is in the kernel's hands (out_ring.h). */
#define OUT_DIR_SLOTS 128

struct out_dir_slot {
	char *path;             /* below the top; NULL: a free slot */
	size_t len;
	int fd;
	int refs;               /* threads using fd now */
	unsigned long used;     /* when last handed out */
};

struct out_dircache {
	int top;                /* the tree's top (not owned) */
	pthread_mutex_t mu;
	pthread_mutex_t make_mu; /* one thread makes a missing directory */
	unsigned long clock;
	struct out_dir_slot s[OUT_DIR_SLOTS];
};

void out_dircache_init(struct out_dircache *c, int top);

/* Close every directory c holds (no thread may be using c). */
void out_dircache_free(struct out_dircache *c);

/*
 * Create the new file relpath (a path out_path_ok accepts) below c's
 * top, making its missing directories, and write data[0..len) to it;
 * no link is followed. Returns 0 or -errno (-EEXIST when something is
 * there already, -ENOTDIR or -ELOOP when a file or a link stands where
 * a directory goes). Safe from several threads at once.
 */
int out_dircache_create(struct out_dircache *c, const char *relpath,
    const void *data, size_t len);

/*
 * The descriptor of relpath's directory below c's top, made when
 * missing as out_dircache_create makes it, and held (never closed) until
 * out_dircache_release(c, fd, *slot); *name gets relpath's last
 * component. Returns it or -errno.
 */
int out_dircache_hold(struct out_dircache *c, const char *relpath,
    const char **name, int *slot);

/* Done with fd, as out_dircache_hold handed it out with slot. */
void out_dircache_release(struct out_dircache *c, int fd, int slot);

#endif
