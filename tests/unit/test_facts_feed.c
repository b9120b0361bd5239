/*
 * test_facts_feed.c: the projects' facts handed from the projects
 * family to the search (store/facts_feed.h): nothing is taken without a
 * taker or after it left, one taker only and before the feed closes,
 * every project put comes out once and in the order put, a full queue
 * holds the putter back until the taker takes, and a failed close says
 * so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>

#include "store/facts_feed.h"
#include "util/xalloc.h"

#define N_PUT 100

/* Facts that own an allocation (n_state 0), so a leak or a double free
 * shows under ASan. */
static void
facts_fake(struct project_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->state = xcalloc(1, sizeof(*f->state));
}

/* fd started, attached, with project 1 queued. */
static void
feed_one(struct facts_feed *fd)
{
	struct project_facts f;

	feed_init(fd);
	assert_int_equal(feed_attach(fd), 1);
	facts_fake(&f);
	assert_int_equal(feed_put(fd, 1, &f), 1);
}

static void
test_no_taker(void **state)
{
	struct facts_feed fd;
	struct project_facts f;

	(void)state;
	feed_init(&fd);
	facts_fake(&f);
	assert_int_equal(feed_put(&fd, 3, &f), 0);
	assert_non_null(f.state);       /* still the caller's */
	facts_free(&f);
	feed_close(&fd, 0);
	assert_int_equal(feed_attach(&fd), 0);
	feed_free(&fd);
}

static void
test_one_taker(void **state)
{
	struct facts_feed fd;
	struct project_facts f, got;
	size_t p;

	(void)state;
	feed_init(&fd);
	assert_int_equal(feed_attach(&fd), 1);
	assert_int_equal(feed_attach(&fd), 0);
	facts_fake(&f);
	assert_int_equal(feed_put(&fd, 7, &f), 1);
	assert_null(f.state);           /* moved out */
	facts_fake(&f);
	assert_int_equal(feed_put(&fd, 9, &f), 1);
	feed_close(&fd, 0);
	assert_int_equal(feed_take(&fd, &p, &got), 1);
	assert_int_equal(p, 7);
	assert_non_null(got.state);
	facts_free(&got);
	assert_int_equal(feed_take(&fd, &p, &got), 1);
	assert_int_equal(p, 9);
	facts_free(&got);
	assert_int_equal(feed_take(&fd, &p, &got), 0);
	feed_free(&fd);
}

static void
test_leave(void **state)
{
	struct facts_feed fd;
	struct project_facts f, got;
	size_t p;

	(void)state;
	feed_one(&fd);
	feed_leave(&fd);                /* frees what is queued */
	facts_fake(&f);
	assert_int_equal(feed_put(&fd, 2, &f), 0);
	facts_free(&f);
	assert_int_equal(feed_take(&fd, &p, &got), 0);
	feed_close(&fd, 0);
	feed_free(&fd);
}

static void
test_failed(void **state)
{
	struct facts_feed fd;
	struct project_facts got;
	size_t p;

	(void)state;
	feed_one(&fd);
	feed_close(&fd, 1);
	assert_int_equal(feed_take(&fd, &p, &got), -1);
	feed_leave(&fd);
	feed_free(&fd);
}

/* The putter's thread: N_PUT projects, then the close. */
static void *
putter(void *arg)
{
	struct facts_feed *fd = arg;

	for (size_t i = 0; i < N_PUT; i++) {
		struct project_facts f;

		facts_fake(&f);
		if (!feed_put(fd, i, &f))
			facts_free(&f);
	}
	feed_close(fd, 0);
	return NULL;
}

static void
test_threads(void **state)
{
	struct facts_feed fd;
	struct project_facts got;
	pthread_t t;
	size_t p, next = 0;
	int most = 0;

	(void)state;
	feed_init(&fd);
	assert_int_equal(feed_attach(&fd), 1);
	assert_int_equal(pthread_create(&t, NULL, putter, &fd), 0);
	while (feed_take(&fd, &p, &got) == 1) {
		pthread_mutex_lock(&fd.mu);
		if ((int)fd.len > most)
			most = (int)fd.len;
		pthread_mutex_unlock(&fd.mu);
		assert_int_equal(p, next);
		next++;
		facts_free(&got);
	}
	pthread_join(t, NULL);
	assert_int_equal(next, N_PUT);
	assert_true(most <= FEED_QUEUE);
	feed_free(&fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_taker),
		cmocka_unit_test(test_one_taker),
		cmocka_unit_test(test_leave),
		cmocka_unit_test(test_failed),
		cmocka_unit_test(test_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
