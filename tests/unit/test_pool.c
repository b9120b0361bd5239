/*
 * test_pool.c: the worker pool runs every item once, loads them in
 * order on the calling thread, reports progress once per item, drops
 * every payload, and returns the first failure, alone (MIRROR_JOBS=1)
 * or with workers; with slow workers the loader runs ahead by a full
 * queue and never further.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>
#include <time.h>

#include "sys/jobs.h"
#include "sys/pool.h"
#include "util/xalloc.h"

#define N_ITEMS 50

struct counts {
	pthread_mutex_t mu;
	size_t next_load;        /* the item load expects next */
	int loaded[N_ITEMS], ran[N_ITEMS], dropped;
	int ticks;
	int alive, most_alive;   /* payloads loaded and not dropped */
	int full_seen;           /* alive went past POOL_QUEUE */
	int least_after_full;    /* alive at a load after that, least */
	long slow_ns;            /* each run sleeps this long */
	int in_order;            /* every load came in item order */
	size_t fail_load, fail_run;  /* N_ITEMS: none fails */
};

static void
counts_init(struct counts *c)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->mu, NULL);
	c->in_order = 1;
	c->least_after_full = N_ITEMS;
	c->fail_load = c->fail_run = N_ITEMS;
}

static int
load_item(void *arg, size_t i, void **payload, mirror_error *err)
{
	struct counts *c = arg;
	size_t *p = xcalloc(1, sizeof(*p));

	*p = i;
	*payload = p;
	if (i != c->next_load)
		c->in_order = 0;
	c->next_load = i + 1;
	c->loaded[i]++;
	pthread_mutex_lock(&c->mu);
	if (++c->alive > c->most_alive)
		c->most_alive = c->alive;
	if (c->full_seen && c->alive < c->least_after_full)
		c->least_after_full = c->alive;
	if (c->alive > POOL_QUEUE)
		c->full_seen = 1;
	pthread_mutex_unlock(&c->mu);
	if (i == c->fail_load)
		return mirror_fail(err, MIRROR_EINPUT, "load %zu", i);
	return 0;
}

static int
run_item(void *arg, size_t i, void *payload, mirror_error *err)
{
	struct counts *c = arg;

	assert_int_equal(*(size_t *)payload, i);
	if (c->slow_ns > 0) {
		struct timespec ts = { 0, c->slow_ns };

		nanosleep(&ts, NULL);
	}
	pthread_mutex_lock(&c->mu);
	c->ran[i]++;
	pthread_mutex_unlock(&c->mu);
	if (i == c->fail_run)
		return mirror_fail(err, MIRROR_EIO, "run %zu", i);
	return 0;
}

static struct counts *drop_counts;

static void
drop_item(void *payload)
{
	pthread_mutex_lock(&drop_counts->mu);
	drop_counts->dropped++;
	drop_counts->alive--;
	pthread_mutex_unlock(&drop_counts->mu);
	free(payload);
}

static void
tick(void *arg)
{
	((struct counts *)arg)->ticks++;
}

/* Run the pool over N_ITEMS with jobs workers. Returns pool_run's. */
static int
run_with(struct counts *c, const char *jobs, mirror_error *err)
{
	const struct pool_work w = { N_ITEMS, load_item, run_item, drop_item,
	    c, tick, c };

	setenv("MIRROR_JOBS", jobs, 1);
	drop_counts = c;
	return pool_run(&w, err);
}

static void
every_item_once(const char *jobs)
{
	struct counts c;
	mirror_error err;

	counts_init(&c);
	assert_int_equal(run_with(&c, jobs, &err), 0);
	for (size_t i = 0; i < N_ITEMS; i++) {
		assert_int_equal(c.loaded[i], 1);
		assert_int_equal(c.ran[i], 1);
	}
	assert_true(c.in_order);
	assert_int_equal(c.ticks, N_ITEMS);
	assert_int_equal(c.dropped, N_ITEMS);
	pthread_mutex_destroy(&c.mu);
}

static void
test_alone(void **state)
{
	(void)state;
	every_item_once("1");
}

static void
test_workers(void **state)
{
	(void)state;
	every_item_once("4");
}

/* Workers slower than the loader: it fills the queue (POOL_QUEUE
 * payloads waiting, besides the two the workers run and the one the
 * loader holds until there is room) and never holds more, however many
 * items there are; once it waited, it loads again only when half the
 * queue was taken: a load then finds at most POOL_QUEUE / 2 + 1 queued
 * and two running (a wake an item: POOL_QUEUE and two). */
static void
test_ahead(void **state)
{
	struct counts c;
	mirror_error err;

	(void)state;
	counts_init(&c);
	c.slow_ns = 300000;
	assert_int_equal(run_with(&c, "2", &err), 0);
	for (size_t i = 0; i < N_ITEMS; i++)
		assert_int_equal(c.ran[i], 1);
	assert_int_equal(c.alive, 0);
	assert_in_range(c.most_alive, POOL_QUEUE, POOL_QUEUE + 2 + 1);
	assert_true(c.full_seen);
	assert_in_range(c.least_after_full, 1, POOL_QUEUE / 2 + 1 + 2 + 1);
	pthread_mutex_destroy(&c.mu);
}

/* A failing run stops the loading and is what pool_run returns; every
 * payload loaded is still dropped. */
static void
run_fails(const char *jobs)
{
	struct counts c;
	mirror_error err;
	int loaded = 0;

	counts_init(&c);
	c.fail_run = 7;
	assert_int_equal(run_with(&c, jobs, &err), -MIRROR_EIO);
	assert_string_equal(err.msg, "run 7");
	for (size_t i = 0; i < N_ITEMS; i++)
		loaded += c.loaded[i];
	assert_true(loaded < N_ITEMS);
	assert_int_equal(c.dropped, loaded);
	pthread_mutex_destroy(&c.mu);
}

static void
test_run_fails(void **state)
{
	(void)state;
	run_fails("1");
	run_fails("4");
}

/* A failing load is returned and its payload dropped; no later item
 * is loaded. */
static void
load_fails(const char *jobs)
{
	struct counts c;
	mirror_error err;

	counts_init(&c);
	c.fail_load = 3;
	assert_int_equal(run_with(&c, jobs, &err), -MIRROR_EINPUT);
	assert_string_equal(err.msg, "load 3");
	assert_int_equal(c.next_load, 4);
	assert_int_equal(c.ran[3], 0);
	assert_int_equal(c.dropped, 4);
	pthread_mutex_destroy(&c.mu);
}

static void
test_load_fails(void **state)
{
	(void)state;
	load_fails("1");
	load_fails("4");
}

/* The default jobs: the online cores, from 1 to 16 (a 16-core runner
 * renders on all of them); MIRROR_JOBS sets any other. */
static void
test_jobs_default(void **state)
{
	(void)state;
	assert_int_equal(jobs_default(-1), 1);
	assert_int_equal(jobs_default(0), 1);
	assert_int_equal(jobs_default(2), 2);
	assert_int_equal(jobs_default(8), 8);
	assert_int_equal(jobs_default(16), 16);
	assert_int_equal(jobs_default(64), 16);
	assert_int_equal(setenv("MIRROR_JOBS", "24", 1), 0);
	assert_int_equal(mirror_jobs(), 24);
	assert_int_equal(unsetenv("MIRROR_JOBS"), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jobs_default),
		cmocka_unit_test(test_alone),
		cmocka_unit_test(test_workers),
		cmocka_unit_test(test_ahead),
		cmocka_unit_test(test_run_fails),
		cmocka_unit_test(test_load_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
