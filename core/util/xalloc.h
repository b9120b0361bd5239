/*
 * xalloc.h: allocation that cannot fail silently.
 *
 * Out of memory is not a recoverable condition for a command-line
 * generator: these print one line and exit with status 3 (I/O failure)
 * instead of returning NULL, so callers need no NULL checks.
 */
#ifndef MIRROR_XALLOC_H
#define MIRROR_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
/* Grow an array of nmemb elements of size each; checks overflow. */
void *xreallocarray(void *p, size_t nmemb, size_t size);
/* Copy of s (NULL gives NULL). The caller must free the result. */
char *xstrdup(const char *s);
/* Copy of the first n bytes of s, NUL-terminated. Caller frees. */
char *xstrndup(const char *s, size_t n);
/* Print the one line of a failed allocation of n bytes and exit with
 * status 3, as the functions above do (for allocators of their own). */
_Noreturn void xalloc_fail(size_t n);
/*
 * Give the free memory of every heap (each thread's arena too) back to
 * the system, so a phase that allocates on one thread does not pile on
 * what other threads freed and kept. Nothing to return; a no-op where
 * the C library cannot.
 */
void xtrim(void);
/*
 * Map in the pages of the n bytes at p that are not yet, in one system
 * call, before they are first written: pages faulted in one at a time
 * cost a trap each, which on virtual machines made zeroing a large
 * table several times slower. Only for n of 256 KiB
 * or more; best effort (no-op where the kernel cannot, before Linux
 * 5.14). The bytes are left as they are.
 */
void xprefault(void *p, size_t n);
/* The allocator mirror was built with ("jemalloc 5.3.0", "libc
 * malloc": make MALLOC=), as a string into buf of size bytes, cut to
 * fit (mirror --version). */
void xalloc_name(char *buf, size_t size);
/*
 * Set the C library's heap so that a block of a megabyte or more is
 * its own mapping, given back to the system when freed. glibc otherwise
 * raises that threshold to the largest block freed so far, and a
 * build's big one-off buffers (the long JSON lists) then stay in the heap for the rest of the run. Call before such a
 * phase (a build's render), not at start: glibc's own way serves big
 * blocks asked for again and again faster (SQLite's sorter in the
 * sweep's rules: 10% of the sweep). A no-op where the C library has no
 * such setting.
 */
void xalloc_tune(void);
/*
 * on 1: from now on, keep the pages that are freed for this process to
 * use again: none goes back to the system as it ages (jemalloc's
 * decay) or by xtrim, which does nothing. For a process that stays
 * small and ends soon (a build that renders the pages of a few
 * projects): each page given back was a madvise and a TLB flush on
 * every core, then a fault to use it again; madvise was 9% of the CPU
 * samples of a build that changed one fact. on 0: back as at start
 * (freed pages go back after half a second; xtrim gives back every
 * one). Nothing to return; a no-op with another allocator.
 */
void xalloc_keep(int on);

/*
 * Whether the kernel faults the heap's new pages in as transparent huge
 * pages (on) or as pages of 4 KiB (off, as every command starts: main
 * calls xalloc_huge(0) first). jemalloc advises every mapping it makes
 * for huge pages (malloc_conf's thp:always) and the process takes them
 * only while on (prctl's PR_SET_THP_DISABLE, which the kernel checks at
 * each fault and children inherit). A build into a DIR that holds an
 * earlier one turns it on for its digest and keeps it on when the
 * build is small: a one-fact build at 100,000 facts faulted 8,300 pages
 * in, a tenth of its CPU time on this machine, and 3,200 with huge pages;
 * a full build stays off, as its peak would grow by a third. Pages
 * already in stay as they are. Returns 1 when on, 0 when off (also when
 * asked for on where the kernel has no such switch).
 */
int xalloc_huge(int on);

/* 1 while xalloc_huge is on, else 0. */
int xalloc_huge_on(void);
/*
 * Called first on a thread that begins: while xalloc_keep holds pages,
 * the thread allocates from the main thread's arena (jemalloc's arena
 * 0) instead of one of its own, so that its end frees nothing back to
 * the system (jemalloc 5.3 purges an arena whose last thread ends,
 * keep or not). Else nothing. Returns nothing. jobs_thread_start
 * (core/sys/jobs.h) calls it for every thread mirror starts.
 */
void xalloc_thread_begin(void);

#endif
