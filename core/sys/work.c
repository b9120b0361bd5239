/*
 * work.c: the store's work counters (work.h).
 */
#include <stddef.h>

#include "sys/work.h"

struct work_count work_rows, work_rule_rows, work_scope_scans;
struct work_count work_vm_steps, work_rule_vm_steps;

/* The counter this thread's rows go into (NULL: work_rows). */
static _Thread_local struct work_count *rows_into;

struct work_count *
work_rows_into(struct work_count *c)
{
	struct work_count *was = rows_into != NULL ? rows_into : &work_rows;

	rows_into = c;
	return was;
}

void
work_row(void)
{
	work_add(rows_into != NULL ? rows_into : &work_rows, 1);
}

void
work_vm_step(unsigned long long n)
{
	work_add(rows_into == &work_rule_rows ? &work_rule_vm_steps :
	    &work_vm_steps, n);
}
