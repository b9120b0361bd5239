/*
 * main.c: the mirror command line.
 *
 * Parses options into struct mirror_opts, reads the config file, runs
 * one command and turns its result into the exit status of SPEC section
 * 2: 0 success, 1 usage, 2 bad input, 3 I/O or git, 4 open conflicts
 * under --check. Every failure prints exactly one line to stderr.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage_text[] =
"usage: mirror [--config FILE] COMMAND [options]\n"
"\n"
"commands:\n"
"  init --store S                 create a new, empty fact store\n"
"  health --store S [--json]      counts per layer and open conflicts\n"
"  sweep --store S [--json] [--check]\n"
"                                 find contradictions, record conflicts\n"
"  build --store S --out DIR [--no-sweep] [--check] [--force]\n"
"        [--repo GITDIR [--branch B] [--author 'Name <email>']]\n"
"        [--templates DIR] [--theme NAME] [--base-url URL] [--title T]\n"
"                                 render the site (and commit it)\n"
"  conflicts list [--status open|resolved|dismissed] [--project P]\n"
"  conflicts show ID\n"
"  conflicts resolve ID --notes TEXT [--winner MEMBER_ID]\n"
"  conflicts dismiss ID --reason TEXT\n"
"                                 the review queue (all take --json)\n"
"\n"
"options: --store, --json, --check, --quiet, --actor NAME, --help,\n"
"         --version. See mirror(1).\n"
"exit status: 0 ok, 1 usage, 2 bad input, 3 I/O or git failure,\n"
"             4 open conflicts with --check\n";

struct command {
	const char *name;
	mirror_command *run;
};

static const struct command commands[] = {
	{ "init", cmd_init },
	{ "health", cmd_health },
	{ "sweep", cmd_sweep },
	{ "build", cmd_build },
	{ "conflicts", cmd_conflicts },
};

struct option_def {
	const char *name;
	size_t offset;    /* field in mirror_opts */
	int is_flag;      /* int field set to 1; else const char * */
};

#define OPT(f) offsetof(struct mirror_opts, f)
static const struct option_def options[] = {
	{ "--config", OPT(config), 0 },
	{ "--store", OPT(store), 0 },
	{ "--out", OPT(out), 0 },
	{ "--repo", OPT(repo), 0 },
	{ "--branch", OPT(branch), 0 },
	{ "--author", OPT(author), 0 },
	{ "--templates", OPT(templates), 0 },
	{ "--theme", OPT(theme), 0 },
	{ "--base-url", OPT(base_url), 0 },
	{ "--title", OPT(title), 0 },
	{ "--status", OPT(status), 0 },
	{ "--project", OPT(project), 0 },
	{ "--notes", OPT(notes), 0 },
	{ "--winner", OPT(winner), 0 },
	{ "--reason", OPT(reason), 0 },
	{ "--actor", OPT(actor), 0 },
	{ "--json", OPT(json), 1 },
	{ "--check", OPT(check), 1 },
	{ "--no-sweep", OPT(no_sweep), 1 },
	{ "--force", OPT(force), 1 },
	{ "--quiet", OPT(quiet), 1 },
};

int
cli_need_store(const struct mirror_opts *o, mirror_error *err)
{
	if (o->store == NULL || o->store[0] == '\0')
		return mirror_fail(err, MIRROR_EUSAGE, "%s: --store PATH is "
		    "required (or 'store' in the config file)", o->command);
	return 0;
}

int
cli_max_args(const struct mirror_opts *o, int max, mirror_error *err)
{
	if (o->nargs > max)
		return mirror_fail(err, MIRROR_EUSAGE, "%s: unexpected "
		    "argument '%s'", o->command, o->args[max]);
	return 0;
}

/*
 * Parse argv into o. Options may come before or after the command;
 * "--name=value" and "--name value" are both accepted. Returns 0, 1 when
 * --help or --version was handled, or < 0.
 */
static int
parse_args(struct mirror_opts *o, int argc, char **argv, mirror_error *err)
{
	o->args = calloc((size_t)argc + 1, sizeof(char *));
	if (o->args == NULL)
		return mirror_fail(err, MIRROR_EIO, "out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *eq;
		size_t n, k;

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage_text, stdout);
			return 1;
		}
		if (strcmp(a, "--version") == 0) {
			printf("mirror %s\n", MIRROR_VERSION);
			return 1;
		}
		if (strcmp(a, "--") == 0) {
			while (++i < argc)
				o->args[o->nargs++] = argv[i];
			break;
		}
		if (a[0] != '-' || a[1] == '\0') {
			if (o->command == NULL)
				o->command = a;
			else
				o->args[o->nargs++] = argv[i];
			continue;
		}
		eq = strchr(a, '=');
		n = eq != NULL ? (size_t)(eq - a) : strlen(a);
		for (k = 0; k < sizeof(options) / sizeof(options[0]); k++)
			if (strlen(options[k].name) == n &&
			    strncmp(options[k].name, a, n) == 0)
				break;
		if (k == sizeof(options) / sizeof(options[0]))
			return mirror_fail(err, MIRROR_EUSAGE,
			    "unknown option '%.*s' (see mirror --help)",
			    (int)n, a);
		if (options[k].is_flag) {
			if (eq != NULL)
				return mirror_fail(err, MIRROR_EUSAGE,
				    "option %s takes no value", options[k].name);
			*(int *)(void *)((char *)o + options[k].offset) = 1;
		} else {
			const char *v;

			if (eq != NULL)
				v = eq + 1;
			else if (i + 1 < argc)
				v = argv[++i];
			else
				return mirror_fail(err, MIRROR_EUSAGE,
				    "option %s needs a value", options[k].name);
			*(const char **)(void *)((char *)o + options[k].offset) =
			    v;
		}
	}
	return 0;
}

static int
run(struct mirror_opts *o, int argc, char **argv, mirror_error *err)
{
	int rc;

	rc = parse_args(o, argc, argv, err);
	if (rc != 0)
		return rc > 0 ? 0 : rc;
	if (o->command == NULL)
		return mirror_fail(err, MIRROR_EUSAGE,
		    "no command given (see mirror --help)");
	if (o->config != NULL) {
		rc = config_load(o, o->config, err);
	} else if (access("mirror.ini", F_OK) == 0) {
		o->config = "mirror.ini";
		rc = config_load(o, o->config, err);
	}
	if (rc < 0)
		return rc;
	if (o->branch == NULL)
		o->branch = "mirror";
	if (o->theme == NULL)
		o->theme = "default";
	for (size_t k = 0; k < sizeof(commands) / sizeof(commands[0]); k++)
		if (strcmp(commands[k].name, o->command) == 0)
			return commands[k].run(o, err);
	return mirror_fail(err, MIRROR_EUSAGE,
	    "unknown command '%s' (see mirror --help)", o->command);
}

int
main(int argc, char **argv)
{
	struct mirror_opts o = { 0 };
	mirror_error err;
	int rc;

	mirror_error_clear(&err);
	rc = run(&o, argc, argv, &err);
	free(o.args);
	config_free();
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "mirror: cannot write to standard output\n");
		return MIRROR_EIO;
	}
	if (rc >= 0)
		return 0;
	if (err.msg[0] != '\0')
		fprintf(stderr, "mirror: %s\n", err.msg);
	return -rc;
}
