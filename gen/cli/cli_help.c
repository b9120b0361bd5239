/*
 * cli_help.c: 'mirror help', 'mirror COMMAND --help' and --version.
 *
 * Every help text is made from the tables of cli.c, so an option's line
 * reads the same in each command that takes it, and a command lists
 * exactly the options it accepts.
 */
#include <stdio.h>
#include <string.h>

#include <cmark-gfm.h>
#include <git2.h>
#include <jansson.h>
#include <sqlite3.h>

#include "cli/cli_int.h"
#include "cli/json_out.h"
#include "gitlib/gitlib.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Width of the option column, "--author 'NAME <EMAIL>'" and a blank. */
#define OPT_COLUMN 23

/* Each line of text, after prefix (first line) or indent (the rest). */
static void
put_lines(strbuf *sb, const char *first, const char *rest,
    const char *text)
{
	for (const char *p = text; *p != '\0';) {
		const char *nl = strchr(p, '\n');
		size_t len = nl != NULL ? (size_t)(nl - p) : strlen(p);

		strbuf_puts(sb, p == text ? first : rest);
		strbuf_add(sb, p, len);
		strbuf_putc(sb, '\n');
		p += len + (nl != NULL);
	}
}

/* "  LEFT RIGHT", LEFT padded to width. */
static void
put_row(strbuf *sb, size_t width, const char *left, const char *right)
{
	size_t len = strlen(left);

	strbuf_printf(sb, "  %s%*s %s\n", left,
	    (int)(len < width ? width - len : 0), "", right);
}

/* One line per option in mask, in the table's order. */
static void
put_options(strbuf *sb, unsigned long mask, const char *json)
{
	for (size_t k = 0; k < CLI_NOPTIONS; k++) {
		const struct cli_option_def *d = &cli_options[k];
		strbuf left;

		if (!(mask & CLI_BIT(k)))
			continue;
		strbuf_init(&left);
		strbuf_puts(&left, d->name);
		if (d->metavar != NULL)
			strbuf_printf(&left, " %s", d->metavar);
		put_row(sb, OPT_COLUMN, left.data,
		    k == CLI_JSON && json != NULL ? json : d->help);
		strbuf_free(&left);
	}
}

/* The options every command (group NULL) or subcommand of group takes. */
static unsigned long
common_takes(const char *group)
{
	unsigned long mask = ~0UL;

	for (size_t i = 0; i < cli_ncommands; i++)
		if (cli_commands[i].runs && (group == NULL ||
		    strcmp(cli_commands[i].name, group) == 0))
			mask &= cli_commands[i].takes;
	return mask;
}

/* The global usage: every command, the options they all take. */
static void
global_help(strbuf *sb)
{
	strbuf_puts(sb, "usage: mirror [--config FILE] COMMAND [options]\n"
	    "       mirror help [COMMAND [SUBCOMMAND]]\n"
	    "       mirror --version\n\n"
	    "Render a fact store as the Human Mirror: a static site in which\n"
	    "every disputed fact is marked and linked to its conflict.\n\n"
	    "commands:\n");
	for (size_t i = 0; i < cli_ncommands; i++) {
		const struct cli_command *c = &cli_commands[i];
		strbuf left;

		if (!c->runs && strcmp(c->name, "help") != 0)
			continue;       /* a group: its subcommands follow */
		strbuf_init(&left);
		strbuf_puts(&left, c->name);
		if (c->sub != NULL)
			strbuf_printf(&left, " %s", c->sub);
		put_row(sb, 19, left.data, c->summary);
		strbuf_free(&left);
	}
	strbuf_puts(sb, "\noptions of every command:\n");
	put_options(sb, common_takes(NULL), NULL);
	strbuf_puts(sb, "\nexit status: 0 success, 1 usage error, 2 bad input "
	    "(store, config file,\ntemplate, unknown project, conflict or "
	    "status), 3 I/O or git failure,\n4 open conflicts remain with "
	    "--check.\n\n"
	    "See 'mirror help COMMAND' for a command's options, and "
	    "mirror(1).\n");
}

/* The help of one command, subcommand or group. */
static void
command_help(strbuf *sb, const struct cli_command *c)
{
	int group = !c->runs && c->sub == NULL &&
	    strcmp(c->name, "help") != 0;

	put_lines(sb, "usage: ", "       ", c->usage);
	strbuf_putc(sb, '\n');
	put_lines(sb, "", "", c->about);
	if (group) {
		strbuf_puts(sb, "\nsubcommands:\n");
		for (size_t i = 0; i < cli_ncommands; i++)
			if (cli_commands[i].sub != NULL &&
			    strcmp(cli_commands[i].name, c->name) == 0)
				strbuf_printf(sb, "  %-9s %s\n",
				    cli_commands[i].sub,
				    cli_commands[i].summary);
	}
	strbuf_puts(sb, group ? "\noptions of every subcommand:\n" :
	    "\noptions:\n");
	put_options(sb, group ? common_takes(c->name) : c->takes, c->json);
	if (c->exits != NULL) {
		strbuf_puts(sb, "\nexit status:\n");
		put_lines(sb, "  ", "  ", c->exits);
	}
	strbuf_puts(sb, "\nexample:\n");
	put_lines(sb, "  ", "  ", c->example);
}

int
cli_help_print(FILE *fp, const struct cli_command *cmd, mirror_error *err)
{
	strbuf sb;
	int rc = 0;

	strbuf_init(&sb);
	if (cmd == NULL)
		global_help(&sb);
	else
		command_help(&sb, cmd);
	if (fwrite(sb.data, 1, sb.len, fp) != sb.len)
		rc = mirror_fail(err, MIRROR_EIO, "cannot write the help");
	strbuf_free(&sb);
	return rc;
}

int
cli_version_print(int json, mirror_error *err)
{
	char git[64], alloc[64];
	int major = 0, minor = 0, rev = 0, n;

	xalloc_name(alloc, sizeof(alloc));
	if (mgit_lib_open(err) < 0)
		return -MIRROR_EIO;
	git_libgit2_version(&major, &minor, &rev);
	n = snprintf(git, sizeof(git), "%d.%d.%d", major, minor, rev);
	if (n < 0 || (size_t)n >= sizeof(git))
		return mirror_fail(err, MIRROR_EIO, "libgit2 version too long");
	if (json)
		return json_out_print(json_pack("{s:s, s:s, s:s, s:s, s:s}",
		    "mirror", MIRROR_VERSION, "cmark-gfm",
		    cmark_version_string(), "sqlite", sqlite3_libversion(),
		    "libgit2", git, "malloc", alloc), err);
	if (printf("mirror %s\ncmark-gfm %s\nSQLite %s\nlibgit2 %s\n%s\n",
	    MIRROR_VERSION, cmark_version_string(), sqlite3_libversion(),
	    git, alloc) < 0)
		return mirror_fail(err, MIRROR_EIO, "cannot write the version");
	return 0;
}
