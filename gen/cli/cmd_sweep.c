/*
 * cmd_sweep.c: mirror sweep --store S [--json] [--check] [--quiet]
 *
 * Runs the cross-layer sweep (core/sweep/sweep.h) and prints its sweep_runs
 * record. With --check, open conflicts left after the sweep, an open
 * violation of an error rule or a rule that failed make the command fail
 * with exit status 4, for CI.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "rules/violation.h"
#include "sweep/sweep.h"
#include "sys/clock.h"

int
cmd_sweep(const struct mirror_opts *o, mirror_error *err)
{
	mirror_store *st = NULL;
	struct sweep_run run;
	struct violation_counts vc;
	time_t now;
	int rc;

	if ((rc = cli_need_store(o, err)) < 0 ||
	    (rc = cli_max_args(o, 0, err)) < 0 ||
	    (rc = mirror_clock(&now, err)) < 0)
		return rc;
	if ((rc = store_open(&st, o->store, STORE_WRITE, err)) < 0)
		return rc;
	rc = sweep_run(&run, st, now, err);
	if (rc == 0 && o->check)
		rc = violation_counts(&vc, st, err);
	store_close(st);
	if (rc < 0)
		return rc;
	if (o->json)
		rc = json_out_print(json_sweep_run(&run), err);
	else if (!o->quiet)
		printf("sweep %s: %lld facts scanned; %lld conflicts opened, "
		    "%lld members added, %lld closed; %lld open\n", run.id,
		    run.facts_scanned, run.conflicts_opened, run.members_added,
		    run.conflicts_closed, run.open_after);
	if (rc == 0 && o->check && run.open_after > 0)
		rc = mirror_fail(err, MIRROR_ECONFLICTS, "sweep --check: %lld "
		    "open conflict%s in %s (see mirror conflicts list)",
		    run.open_after, run.open_after == 1 ? "" : "s", o->store);
	if (rc == 0 && o->check)
		rc = cli_check_rules(&vc, "sweep --check", o->store, err);
	return rc;
}
