/*
 * main.c: the mirror command line.
 *
 * Parses options into struct mirror_opts (gen/cli/cli.c), reads the config
 * file, runs one command and turns its result into the exit status of
 * SPEC section 2: 0 success, 1 usage, 2 bad input, 3 I/O or git, 4 open
 * conflicts under --check. Every failure prints exactly one line to stderr.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_int.h"
#include "store/place.h"
#include "sys/env.h"
#include "sys/termtext.h"
#include "util/xalloc.h"

/* The function that runs each command cli_prepare names. */
static const struct {
	const char *name;
	mirror_command *run;
} runners[] = {
	{ "init", cmd_init },
	{ "health", cmd_health },
	{ "sweep", cmd_sweep },
	{ "build", cmd_build },
	{ "conflicts", cmd_conflicts },
	{ "serve", cmd_serve },
};

/*
 * Parse the command line, handle help and --version, check the
 * environment's tunables, read the config file (its strings kept in
 * kept, the caller's to free) and run the command.
 * Returns 0 or a negative mirror_status.
 */
static int
run_command(struct mirror_opts *o, struct config_kept *kept, int argc,
    char **argv, mirror_error *err)
{
	mirror_command *cmd = NULL;
	struct cli_plan plan;
	int rc;

	if ((rc = cli_parse(o, argc, argv, err)) < 0 ||
	    (rc = cli_prepare(&plan, o, err)) < 0)
		return rc;
	if (plan.version)
		return cli_version_print(o->json, err);
	if (plan.help)
		return cli_help_print(stdout, plan.help_on, err);
	for (size_t i = 0; i < sizeof(runners) / sizeof(runners[0]); i++)
		if (strcmp(runners[i].name, plan.command) == 0)
			cmd = runners[i].run;
	if (cmd == NULL)
		return mirror_fail(err, MIRROR_EIO, "internal: no runner for "
		    "'%s'", plan.command);
	/* A mistyped tunable is refused before anything runs. */
	if ((rc = env_check(err)) < 0)
		return rc;
	/* Before any user file is read, the config first: none may be the
	 * store (core/store/place.h); again once the config has named it. */
	store_place_guard(o->store);
	if (o->config != NULL) {
		rc = config_load(kept, o, o->config, err);
	} else if (access("mirror.ini", F_OK) == 0) {
		o->config = "mirror.ini";
		rc = config_load(kept, o, o->config, err);
	}
	if (rc < 0)
		return rc;
	store_place_guard(o->store);
	if (o->branch == NULL)
		o->branch = "mirror";
	if (o->theme == NULL)
		o->theme = "default";
	return cmd(o, err);
}

int
main(int argc, char **argv)
{
	struct mirror_opts o = { 0 };
	struct config_kept kept = { 0 };
	mirror_error err;
	int rc;

	mirror_error_clear(&err);
	/* A write past the file size limit (ulimit -f) fails with EFBIG,
	 * told and cleaned up as a full disk is, instead of the signal
	 * killing mirror with its lock and staging directory left. */
	(void)signal(SIGXFSZ, SIG_IGN);
	/* Small pages until a build knows it is small (util/xalloc.h). */
	(void)xalloc_huge(0);
	rc = run_command(&o, &kept, argc, argv, &err);
	free(o.args);
	config_free(&kept);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "mirror: cannot write to standard output\n");
		return MIRROR_EIO;
	}
	if (rc >= 0)
		return 0;
	if (err.msg[0] != '\0')
		(void)termtext_printf(stderr, "mirror: %s\n", err.msg);
	return -rc;
}
