/*
 * cli_int.h: the option and command tables of gen/cli/cli.c, shared with
 * the help texts of gen/cli/cli_help.c, and the help printers main.c
 * calls when cli_prepare asks for them. Not for commands: they see
 * struct mirror_opts (cli.h) only.
 */
#ifndef MIRROR_CLI_INT_H
#define MIRROR_CLI_INT_H

#include <stddef.h>
#include <stdio.h>

#include "cli/cli.h"

#define CLI_BIT(opt) (1UL << (opt))

struct cli_option_def {
	const char *name;       /* "--store" */
	const char *metavar;    /* "PATH", or NULL for a flag */
	const char *help;       /* one line, for every command's help */
	size_t offset;          /* field in mirror_opts: const char * for a
	                           value, int for a flag */
};

/* Indexed by enum cli_option. */
extern const struct cli_option_def cli_options[CLI_NOPTIONS];

struct cli_command {
	const char *name;       /* "build", "conflicts" */
	const char *sub;        /* "list" for conflicts list; NULL */
	int runs;               /* 0 for help and the conflicts group */
	unsigned long takes;    /* CLI_BIT of each option it takes */
	const char *summary;    /* one line for the command list */
	const char *usage;      /* synopsis lines, "mirror ..." */
	const char *about;      /* what it does, wrapped */
	const char *json;       /* what --json prints, one line */
	const char *exits;      /* "0  ...\n1  ...\n" */
	const char *example;    /* command lines */
};

/* Every command and subcommand, in the order help lists them. */
extern const struct cli_command cli_commands[];
extern const size_t cli_ncommands;

/*
 * Print the help of cmd to fp (NULL: the global usage). Returns 0, or
 * -MIRROR_EIO when fp cannot be written.
 */
int cli_help_print(FILE *fp, const struct cli_command *cmd,
    mirror_error *err);

/*
 * Print mirror's version and the versions of cmark-gfm, SQLite and
 * libgit2 it runs with (as JSON with json set). Returns 0 or < 0.
 */
int cli_version_print(int json, mirror_error *err);

#endif
