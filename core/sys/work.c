/*
 * work.c: the store's work counters (work.h).
 */
#include <pthread.h>
#include <stddef.h>

#include "sys/work.h"

struct work_count work_rows, work_rule_rows, work_scope_scans;
struct work_count work_tables_kept;
struct work_count work_vm_steps, work_rule_vm_steps;

/* The counter this thread's rows go into (NULL: work_rows). */
static _Thread_local struct work_count *rows_into;

/*
 * The rows this thread stepped since it last added them to rows_into.
 * One atomic add a row, on a counter both digest connections' threads
 * add to, bounced its cache line between the cores: 6% of a one-fact
 * build's CPU at 100,000 facts, 6 ms of its check. A thread adds its
 * rows as each statement ends (work_vm_step), when it counts them
 * elsewhere, when a reader asks (work_rows_flush) and when it ends.
 */
static _Thread_local unsigned long long rows_pending;

/* The key whose destructor adds a thread's pending rows as it ends. */
static pthread_key_t rows_key;
static pthread_once_t rows_once = PTHREAD_ONCE_INIT;
static _Thread_local int rows_keyed;

/* rows_key's destructor: the ending thread's rows, added. */
static void
rows_at_exit(void *unused)
{
	(void)unused;
	work_rows_flush();
}

static void
rows_key_make(void)
{
	(void)pthread_key_create(&rows_key, rows_at_exit);
}

struct work_count *
work_rows_into(struct work_count *c)
{
	struct work_count *was = rows_into != NULL ? rows_into : &work_rows;

	work_rows_flush();
	rows_into = c;
	return was;
}

void
work_row(void)
{
	if (!rows_keyed) {
		(void)pthread_once(&rows_once, rows_key_make);
		/* Any value but NULL: the destructor runs for those alone. */
		(void)pthread_setspecific(rows_key, &rows_keyed);
		rows_keyed = 1;
	}
	rows_pending++;
}

void
work_rows_flush(void)
{
	if (rows_pending == 0)
		return;
	work_add(rows_into != NULL ? rows_into : &work_rows, rows_pending);
	rows_pending = 0;
}

void
work_vm_step(unsigned long long n)
{
	work_rows_flush();
	work_add(rows_into == &work_rule_rows ? &work_rule_vm_steps :
	    &work_vm_steps, n);
}
