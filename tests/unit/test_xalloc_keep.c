/*
 * test_xalloc_keep.c: the pages a process frees, given back to the
 * system or kept for its own use again (core/util/xalloc.h, xalloc_keep
 * and xtrim). With jemalloc (the default build) the test reads how many
 * freed pages the allocator holds ("dirty" pages); with the C library's
 * allocator (the sanitizer build), which xalloc_keep leaves alone, it
 * checks that what is allocated stays whole through keep and trim.
 * Threads are started as the build starts them (core/sys/jobs.h,
 * jobs_thread_start), which names them and begins their allocation.
 * The heap's huge pages (xalloc_huge): the kernel's switch for the
 * process, and jemalloc's advice on every mapping.
 */
#define _GNU_SOURCE     /* pthread_getname_np */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

#include <cmocka.h>
#ifdef MIRROR_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

#include "sys/jobs.h"
#include "util/xalloc.h"

/* Blocks of a megabyte: past jemalloc's small sizes and below the size
 * it gives back at once (8 MiB), so a freed one waits as a dirty page. */
#define BLOCK ((size_t)1 << 20)
#define BLOCKS 32

/* BLOCKS blocks allocated, written and freed. */
static void
churn(void)
{
	void *b[BLOCKS];

	for (int i = 0; i < BLOCKS; i++) {
		b[i] = xmalloc(BLOCK);
		memset(b[i], i + 1, BLOCK);
	}
	for (int i = 0; i < BLOCKS; i++)
		free(b[i]);
}

#ifdef MIRROR_JEMALLOC
/* The bytes of freed pages jemalloc holds now, every arena's. */
static size_t
dirty(void)
{
	uint64_t epoch = 1;
	size_t len = sizeof(epoch), pages = 0;
	char name[64];

	assert_int_equal(mallctl("epoch", &epoch, &len, &epoch, len), 0);
	(void)snprintf(name, sizeof(name), "stats.arenas.%u.pdirty",
	    (unsigned)MALLCTL_ARENAS_ALL);
	len = sizeof(pages);
	assert_int_equal(mallctl(name, &pages, &len, NULL, 0), 0);
	return pages * (size_t)sysconf(_SC_PAGESIZE);
}
#endif

#ifdef MIRROR_JEMALLOC
/* The decay time in ms (-1: never) of arena 0 (later 0), or of the
 * arenas made from now on (later 1). */
static ssize_t
decay_ms(int later)
{
	ssize_t ms = 0;
	size_t len = sizeof(ms);

	assert_int_equal(mallctl(later ? "arenas.dirty_decay_ms" :
	    "arena.0.dirty_decay_ms", &ms, &len, NULL, 0), 0);
	return ms;
}
#endif

/* By default xtrim gives every freed page back. */
static void
test_trim_gives_back(void **state)
{
	(void)state;
	xalloc_keep(0);
	churn();
	xtrim();
#ifdef MIRROR_JEMALLOC
	assert_true(dirty() < BLOCK);
#else
	{
		char *p = xmalloc(BLOCK);

		memset(p, 7, BLOCK);
		xtrim();
		assert_int_equal(p[BLOCK - 1], 7);
		free(p);
	}
#endif
}

/*
 * Kept: what was freed stays through xtrim and does not decay, and the
 * next allocations use those pages; once keep is off, xtrim gives them
 * back again and they decay as at start (half a second).
 */
static void
test_keep_holds_freed_pages(void **state)
{
	(void)state;
	xalloc_keep(1);
	xalloc_keep(1);         /* twice: the same */
	churn();
	xtrim();
#ifdef MIRROR_JEMALLOC
	/* None decays: in this arena or in one a thread makes later. */
	assert_int_equal(decay_ms(0), -1);
	assert_int_equal(decay_ms(1), -1);
	assert_true(dirty() >= (size_t)BLOCKS / 2 * BLOCK);
	/* Used again: the same churn adds no dirty page. */
	{
		size_t before = dirty();

		churn();
		assert_true(dirty() <= before + BLOCK);
	}
#endif
	xalloc_keep(0);
	xtrim();
#ifdef MIRROR_JEMALLOC
	assert_true(dirty() < BLOCK);
	assert_int_equal(decay_ms(0), 500);
	assert_int_equal(decay_ms(1), 500);
#else
	churn();
#endif
}

/* What a thread the build started saw of itself. */
struct begun {
	unsigned arena;         /* it allocated from (0 without jemalloc) */
	char name[16];          /* its name, as the kernel holds it */
};

/* A thread as the build starts one (jobs_thread_start, which begins it:
 * it calls nothing of xalloc.h itself): BLOCKS blocks churned, then
 * what it saw into *arg. */
static void *
begun_thread(void *arg)
{
	struct begun *b = arg;

	churn();
	assert_int_equal(pthread_getname_np(pthread_self(), b->name,
	    sizeof(b->name)), 0);
#ifdef MIRROR_JEMALLOC
	{
		size_t len = sizeof(b->arena);

		assert_int_equal(mallctl("thread.arena", &b->arena, &len,
		    NULL, 0), 0);
	}
#else
	b->arena = 0;
#endif
	return NULL;
}

/* What a thread named name saw, once it has ended. */
static struct begun
run_named_thread(const char *name)
{
	struct begun b = { .arena = 1000, .name = "" };
	pthread_t t;

	assert_int_equal(jobs_thread_start(&t, name, begun_thread, &b), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	return b;
}

/* The arena a begun thread allocated from, once it has ended. */
static unsigned
run_begun_thread(void)
{
	return run_named_thread("test-begun").arena;
}

/*
 * Kept: a thread that begins allocates from the main thread's arena, so
 * that its end gives back none of the pages it freed (jemalloc purges
 * an arena whose last thread ends); not kept, it takes an arena of its
 * own, as jemalloc chooses.
 */
static void
test_thread_keeps_pages(void **state)
{
	(void)state;
	xalloc_keep(1);
	churn();
#ifdef MIRROR_JEMALLOC
	assert_int_equal(run_begun_thread(), 0);
	assert_true(dirty() >= (size_t)BLOCKS / 2 * BLOCK);
#else
	(void)run_begun_thread();
#endif
	xalloc_keep(0);
	xtrim();
#ifdef MIRROR_JEMALLOC
	{
		unsigned n = 0;
		size_t len = sizeof(n);

		assert_int_equal(mallctl("arenas.narenas", &n, &len, NULL, 0),
		    0);
		if (n > 1)
			assert_int_not_equal(run_begun_thread(), 0);
	}
	xtrim();
	assert_true(dirty() < BLOCK);
#else
	(void)run_begun_thread();
#endif
}

/* A thread is named as its starter says, cut to the kernel's 15 bytes
 * (a longer name is not refused, nor left unset). */
static void
test_thread_named(void **state)
{
	(void)state;
	assert_string_equal(run_named_thread("git-ahead").name, "git-ahead");
	assert_string_equal(run_named_thread("a-name-of-twenty-one").name,
	    "a-name-of-twent");
}

/*
 * xalloc_huge sets the kernel's switch for the whole process (a
 * thread's fault obeys it too) and says what it set; jemalloc advises
 * every mapping, so the switch is what decides.
 */
static void
test_huge_switch(void **state)
{
	(void)state;
	assert_int_equal(xalloc_huge(1), 1);
	assert_int_equal(xalloc_huge_on(), 1);
	assert_int_equal(prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0), 0);
	assert_int_equal(xalloc_huge(0), 0);
	assert_int_equal(xalloc_huge_on(), 0);
	assert_int_equal(prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0), 1);
	/* on twice, off once: off (a switch, not a count) */
	(void)xalloc_huge(1);
	(void)xalloc_huge(1);
	assert_int_equal(xalloc_huge(0), 0);
	assert_int_equal(prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0), 1);
#ifdef MIRROR_JEMALLOC
	{
		const char *thp = NULL;
		size_t len = sizeof(thp);

		assert_int_equal(mallctl("opt.thp", &thp, &len, NULL, 0), 0);
		assert_string_equal(thp, "always");
	}
#endif
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trim_gives_back),
		cmocka_unit_test(test_keep_holds_freed_pages),
		cmocka_unit_test(test_thread_keeps_pages),
		cmocka_unit_test(test_thread_named),
		cmocka_unit_test(test_huge_switch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
