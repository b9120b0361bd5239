/*
 * test_pool.c: the worker pool runs every item once, loads them in
 * order on the calling thread, reports progress once per item, drops
 * every payload, and returns the first failure, alone (MIRROR_JOBS=1)
 * or with workers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>

#include "sys/pool.h"
#include "util/xalloc.h"

#define N_ITEMS 50

struct counts {
	pthread_mutex_t mu;
	size_t next_load;        /* the item load expects next */
	int loaded[N_ITEMS], ran[N_ITEMS], dropped;
	int ticks;
	int in_order;            /* every load came in item order */
	size_t fail_load, fail_run;  /* N_ITEMS: none fails */
};

static void
counts_init(struct counts *c)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->mu, NULL);
	c->in_order = 1;
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
	if (i == c->fail_load)
		return mirror_fail(err, MIRROR_EINPUT, "load %zu", i);
	return 0;
}

static int
run_item(void *arg, size_t i, void *payload, mirror_error *err)
{
	struct counts *c = arg;

	assert_int_equal(*(size_t *)payload, i);
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alone),
		cmocka_unit_test(test_workers),
		cmocka_unit_test(test_run_fails),
		cmocka_unit_test(test_load_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
