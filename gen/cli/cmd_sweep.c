/*
 * cmd_sweep.c: mirror sweep --store S [--rules DIR] [--json] [--check]
 *     [--quiet]
 *
 * Runs the cross-layer sweep and every rule (core/sweep/sweep.h,
 * core/rules/rules.h) and prints its sweep_runs record. With --check,
 * open conflicts left after the sweep, an open violation of an error
 * rule or a rule that failed make the command fail with exit status 4,
 * for CI. Also the one loader of the rules a command runs
 * (cli_rules_load, build_rules_load of gen/pipeline), for sweep.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "rules/rules.h"
#include "rules/violation.h"
#include "sweep/sweep.h"
#include "sys/clock.h"
#include "sys/termtext.h"

int
cli_rules_load(struct rule_set *rs, const struct mirror_opts *o,
    mirror_error *err)
{
	return build_rules_load(rs, o->rules, o->params, o->nparams, err);
}

int
cmd_sweep(const struct mirror_opts *o, mirror_error *err)
{
	mirror_store *st = NULL;
	struct rule_set rules;
	const struct sweep_plan plan = { .set = &rules };
	struct sweep_run run;
	struct violation_counts vc;
	time_t now;
	int rc;

	if ((rc = cli_need_store(o, err)) < 0 ||
	    (rc = cli_max_args(o, 0, err)) < 0 ||
	    (rc = mirror_clock(&now, err)) < 0 ||
	    (rc = cli_rules_load(&rules, o, err)) < 0)
		return rc;
	if ((rc = store_open(&st, o->store, STORE_WRITE, err)) == 0)
		rc = sweep_run_rules(&run, st, now, &plan, err);
	if (rc == 0 && o->check)
		rc = violation_counts(&vc, st, err);
	if (rc == 0)
		store_versions_add(st);
	store_close(st);
	if (rc == 0 && !o->json && !o->quiet) {
		(void)termtext_printf(stdout, "sweep %s: %lld facts scanned; "
		    "%lld conflicts opened, %lld members added, %lld closed; "
		    "%lld open", run.id,
		    run.facts_scanned, run.conflicts_opened, run.members_added,
		    run.conflicts_closed, run.open_after);
		/* Checks are told when there are rules or violations. */
		if (rules.n > 0 || run.violations_closed > 0 ||
		    run.violations_open_after > 0 || run.rules_failed > 0)
			printf("; checks: %lld opened, %lld closed, %lld open, "
			    "%lld rules failed", run.violations_opened,
			    run.violations_closed, run.violations_open_after,
			    run.rules_failed);
		putchar('\n');
	}
	rules_free(&rules);
	if (rc < 0)
		return rc;
	if (o->json)
		rc = json_out_print(json_sweep_run(&run), err);
	if (rc == 0 && o->check && run.open_after > 0)
		rc = mirror_fail(err, MIRROR_ECONFLICTS, "sweep --check: %lld "
		    "open conflict%s in %s (see mirror conflicts list)",
		    run.open_after, run.open_after == 1 ? "" : "s", o->store);
	if (rc == 0 && o->check)
		rc = cli_check_rules(&vc, "sweep --check", o->store, err);
	return rc;
}
