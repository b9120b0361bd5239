/*
 * work.h: work counters, exact counts of the work a process does (rows
 * stepped, pages rendered, bytes written...), never timed: the same
 * store and DIR give the same counts on any machine of the same cores.
 *
 * A counter only grows, from any thread (one relaxed atomic add); a
 * reader takes its value before and after a piece of work and the
 * difference is that work's (gen/pipeline: --json's "work"). Each stage
 * owns its counters: core/ those of the store (here), gen/ its own.
 */
#ifndef MIRROR_WORK_H
#define MIRROR_WORK_H

#include <stdatomic.h>

/* One counter: zero-initialised static storage, work_add and work_get. */
struct work_count {
	atomic_ullong n;
};

/* Add n to c. Returns nothing. */
static inline void
work_add(struct work_count *c, unsigned long long n)
{
	atomic_fetch_add_explicit(&c->n, n, memory_order_relaxed);
}

/* c's value now. */
static inline unsigned long long
work_get(struct work_count *c)
{
	return atomic_load_explicit(&c->n, memory_order_relaxed);
}

/*
 * The rows the store's statements stepped (SQLITE_ROW results, on every
 * connection core/store opens, its own opening's read excepted):
 * work_rule_rows those the rules are evaluated with (core/rules: on
 * whichever connection and thread evaluates them, beside the digest and
 * the sweep, so no phase of a build's can be told), work_rows all the
 * others.
 */
extern struct work_count work_rows, work_rule_rows;

/*
 * The steps of SQLite's virtual machine the same statements took
 * (SQLITE_STMTSTATUS_VM_STEP, added as each statement finishes: its
 * PROFILE trace), counted like their rows: work_rule_vm_steps those
 * taken while this thread counts its rows into work_rule_rows, work_vm_steps
 * all the others. A pass over the whole store that returns no row or
 * one (an INSERT ... SELECT, a count(*)) steps every row it walks here.
 */
extern struct work_count work_vm_steps, work_rule_vm_steps;

/*
 * The steps of full table scans (SQLite's SQLITE_STMTSTATUS_FULLSCAN_STEP)
 * of the reads limited to some projects (store/facts.h, a plan's ids: a
 * scoped check or reader), added as each reader closes: a read of the
 * scope's rows found by their row ids steps those rows (the scope's list
 * of them), one that filters each table by its project column every row
 * of the store.
 */
extern struct work_count work_scope_scans;

/*
 * The fact tables a digest took from the folds an earlier run kept
 * (core/store/facts.c, doc/performance.md "Kept folds") instead of
 * reading them: 0 to 4 a digest.
 */
extern struct work_count work_tables_kept;

/*
 * Count the rows this thread steps from now into c (&work_rows again
 * to end). Returns the counter it counted them into until now.
 */
struct work_count *work_rows_into(struct work_count *c);

/* Add one row to the counter this thread counts rows into (the
 * store's trace of each row): held by the thread until its statement
 * ends, it counts rows elsewhere, it ends or work_rows_flush. */
void work_row(void);

/* Add the rows this thread holds (work_row) to its counter now: a
 * reader of the counters calls it first, for its own thread's rows. */
void work_rows_flush(void);

/* Add n steps of a statement that finished to the counter of this
 * thread's (work_vm_steps or work_rule_vm_steps, as its rows go).
 * Returns nothing. */
void work_vm_step(unsigned long long n);

#endif
