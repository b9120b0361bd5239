/*
 * cli.c: the command line's grammar: every option, every command and
 * which options it takes, parsing argv, and the checks made before the
 * config file is read (see cli.h). The help texts live in cli_help.c.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_int.h"
#include "cli/optcheck.h"
#include "rules/violation.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/xalloc.h"

_Static_assert(CLI_NOPTIONS <= 32, "mirror_opts.given holds 32 bits");

#define OFF(f) offsetof(struct mirror_opts, f)
const struct cli_option_def cli_options[CLI_NOPTIONS] = {
	[CLI_STORE] = { "--store", "PATH",
	    "the fact store, an SQLite file", OFF(store) },
	[CLI_OUT] = { "--out", "DIR",
	    "the site directory, replaced only by a complete site", OFF(out) },
	[CLI_REPO] = { "--repo", "GITDIR",
	    "also commit the site to this git repository", OFF(repo) },
	[CLI_BRANCH] = { "--branch", "B",
	    "branch to commit to (default: mirror); needs --repo",
	    OFF(branch) },
	[CLI_AUTHOR] = { "--author", "'NAME <EMAIL>'",
	    "the commit's author (default: the repository's user)",
	    OFF(author) },
	[CLI_SIGN_KEY] = { "--sign-key", "FILE",
	    "sign each commit with this SSH key; needs --repo",
	    OFF(sign_key) },
	[CLI_TEMPLATES] = { "--templates", "DIR",
	    "templates that override the bundled ones", OFF(templates) },
	[CLI_RULES] = { "--rules", "DIR",
	    "run the rules of DIR/*.sql too (see doc/rules.md)",
	    OFF(rules) },
	[CLI_THEME] = { "--theme", "NAME",
	    "default, plain, or a theme directory (a path with /)",
	    OFF(theme) },
	[CLI_BASE_URL] = { "--base-url", "URL",
	    "absolute http(s) URL the site is served from", OFF(base_url) },
	[CLI_TITLE] = { "--title", "TEXT",
	    "the site's title (default: Human Mirror)", OFF(title) },
	[CLI_STATUS] = { "--status", "S",
	    "only conflicts that are open, resolved or dismissed",
	    OFF(status) },
	[CLI_PROJECT] = { "--project", "P",
	    "only conflicts of project P (its id or an alias)",
	    OFF(project) },
	[CLI_NOTES] = { "--notes", "TEXT",
	    "how it was resolved, for the record (required)", OFF(notes) },
	[CLI_WINNER] = { "--winner", "MEMBER_ID",
	    "the member that wins: every other one is superseded",
	    OFF(winner) },
	[CLI_REASON] = { "--reason", "TEXT",
	    "why it is not a real conflict (required)", OFF(reason) },
	[CLI_ACTOR] = { "--actor", "NAME",
	    "who acts, for the audit trail (default: $USER)", OFF(actor) },
	[CLI_NO_SWEEP] = { "--no-sweep", NULL,
	    "render the store as it is, without sweeping first",
	    OFF(no_sweep) },
	[CLI_HOSTING] = { "--check-hosting", "HOSTS",
	    "exit 5 unless DIR fits each host named (see man)",
	    OFF(hosting) },
	[CLI_CHECK] = { "--check", NULL,
	    "exit 4 on open conflicts, error checks, failed rules",
	    OFF(check) },
	[CLI_FORCE] = { "--force", NULL,
	    "render even when DIR already holds this build", OFF(force) },
	[CLI_JSON] = { "--json", NULL,
	    "print one JSON document on stdout instead of text", OFF(json) },
	[CLI_QUIET] = { "--quiet", NULL,
	    "print nothing but errors (with --json: only JSON)",
	    OFF(quiet) },
	[CLI_CONFIG] = { "--config", "FILE",
	    "read unset options from FILE (default: ./mirror.ini)",
	    OFF(config) },
	[CLI_HELP] = { "--help", NULL,
	    "print this help (also -h)", OFF(help) },
	[CLI_VERSION] = { "--version", NULL,
	    "print the versions of mirror and its libraries", OFF(version) },
	[CLI_PORT] = { "--port", "N",
	    "port to serve on (default 1313; 0: any free port)",
	    OFF(port) },
	[CLI_BIND] = { "--bind", "ADDR",
	    "address to serve on (default 127.0.0.1: this machine)",
	    OFF(bind) },
};

/* Options every command takes. */
#define ANY (CLI_BIT(CLI_JSON) | CLI_BIT(CLI_QUIET) | CLI_BIT(CLI_CONFIG) | \
    CLI_BIT(CLI_HELP) | CLI_BIT(CLI_VERSION))
#define STORE (ANY | CLI_BIT(CLI_STORE))

#define EXIT_USAGE "1  usage error: an unknown, misplaced or invalid option\n"
#define EXIT_IO "3  I/O failure\n"
#define EXIT_CHECK "4  open conflicts, open error checks or failed rules, " \
	"with --check\n"

const struct cli_command cli_commands[] = {
	{ "init", NULL, 1, STORE,
	    "create a new, empty fact store",
	    "mirror init --store PATH",
	    "Create a new store with the contract schema. Refuses to touch\n"
	    "an existing file.",
	    "print the store and its schema version as JSON",
	    "0  the store was created\n" EXIT_USAGE
	    "2  PATH already exists\n" EXIT_IO,
	    "mirror init --store facts.db" },
	{ "health", NULL, 1, STORE,
	    "counts per layer, relationships and conflicts",
	    "mirror health --store PATH [--json]",
	    "Print the facts per layer and status, expired memories,\n"
	    "relationships, conflicts by status, sweep runs and\n"
	    "open_conflicts_count. Reads only; never changes the store.",
	    "print the counts as one JSON object",
	    "0  success\n" EXIT_USAGE
	    "2  bad store: missing, not SQLite, not the contract\n" EXIT_IO,
	    "mirror health --store facts.db --json |\n"
	    "    jq .open_conflicts_count" },
	{ "sweep", NULL, 1, STORE | CLI_BIT(CLI_CHECK) | CLI_BIT(CLI_RULES),
	    "find contradictions, record them as conflicts",
	    "mirror sweep --store PATH [--rules DIR] [--check] [--json]",
	    "Run the cross-layer sweep in one transaction: open a conflict\n"
	    "for each slot whose facts disagree, add new members to open\n"
	    "ones, close those that no longer disagree, then run every rule\n"
	    "(the starter set and --rules DIR) and record its violations,\n"
	    "and record the run. A rule that fails is told, never blocking.",
	    "print the sweep run record as JSON",
	    "0  success (open conflicts are flagged, never blocking)\n"
	    EXIT_USAGE "2  bad store or a bad row in it\n" EXIT_IO EXIT_CHECK,
	    "mirror sweep --store facts.db --check" },
	{ "build", NULL, 1, STORE | CLI_BIT(CLI_OUT) |
	    CLI_BIT(CLI_REPO) | CLI_BIT(CLI_BRANCH) | CLI_BIT(CLI_AUTHOR) |
	    CLI_BIT(CLI_SIGN_KEY) | CLI_BIT(CLI_TEMPLATES) | CLI_BIT(CLI_THEME) |
	    CLI_BIT(CLI_BASE_URL) | CLI_BIT(CLI_TITLE) | CLI_BIT(CLI_RULES) |
	    CLI_BIT(CLI_NO_SWEEP) | CLI_BIT(CLI_CHECK) | CLI_BIT(CLI_FORCE) |
	    CLI_BIT(CLI_HOSTING),
	    "sweep, then render the site into DIR (and commit it)",
	    "mirror build --store PATH --out DIR [--no-sweep] [--check] "
	    "[--force]\n"
	    "    [--check-hosting HOSTS]\n"
	    "    [--repo GITDIR [--branch B] [--author 'NAME <EMAIL>']\n"
	    "     [--sign-key FILE]]\n"
	    "    [--templates DIR] [--theme NAME] [--base-url URL] "
	    "[--title TEXT]\n"
	    "    [--rules DIR]",
	    "Sweep (unless --no-sweep), then render the whole site into DIR,\n"
	    "which is replaced only when the new site is complete. With\n"
	    "--repo, the site is also committed to the branch first. When DIR\n"
	    "(and the branch) already hold a build of the same store and\n"
	    "inputs, nothing is swept, rendered or written (--force renders).",
	    "print pages, conflicts, commit, timings as JSON",
	    "0  the site is built (and committed)\n" EXIT_USAGE
	    "2  bad input: store, row, config file, template or theme\n"
	    "3  I/O or git failure; DIR, the store and the branch as they "
	    "were\n" EXIT_CHECK
	    "5  DIR does not fit a host --check-hosting names (it is built)\n",
	    "mirror build --store facts.db --out site --repo site.git" },
	{ "serve", NULL, 1, STORE | CLI_BIT(CLI_TEMPLATES) | CLI_BIT(CLI_RULES) |
	    CLI_BIT(CLI_THEME) | CLI_BIT(CLI_BASE_URL) | CLI_BIT(CLI_TITLE) |
	    CLI_BIT(CLI_NO_SWEEP) | CLI_BIT(CLI_PORT) | CLI_BIT(CLI_BIND),
	    "preview the site, rebuilt as the store changes",
	    "mirror serve --store PATH [--port N] [--bind ADDR] [--no-sweep]\n"
	    "    [--templates DIR] [--theme NAME] [--base-url URL] "
	    "[--title TEXT]\n"
	    "    [--rules DIR]",
	    "Build the site as 'mirror build' does into a temporary directory\n"
	    "and serve it at http://127.0.0.1:N/ until Ctrl-C, which removes\n"
	    "the directory. When the store, the templates, the theme or the\n"
	    "rules change, the site is rebuilt and open pages reload; a\n"
	    "failed build is shown on each page while the last good site\n"
	    "stays served. Only served pages get the reload script, never a\n"
	    "built site.",
	    "print URL, port and directory as JSON once serving",
	    "0  stopped by Ctrl-C or SIGTERM\n" EXIT_USAGE
	    "2  bad store, config file, template or theme at the first build\n"
	    "3  I/O failure, or the address or port cannot be listened on\n",
	    "mirror serve --store facts.db --port 8000" },
	{ "conflicts", NULL, 0, 0,
	    "the review queue: list, show, resolve, dismiss",
	    "mirror conflicts list [--status S] [--project P]\n"
	    "mirror conflicts show ID\n"
	    "mirror conflicts resolve ID --notes TEXT [--winner MEMBER_ID]\n"
	    "mirror conflicts dismiss ID --reason TEXT",
	    "The review queue of the conflicts the sweep recorded. Closing a\n"
	    "conflict changes no fact unless resolve names a --winner.\n"
	    "See 'mirror help conflicts SUBCOMMAND' for each one.",
	    NULL,
	    "0  success\n" EXIT_USAGE "2  bad store, or no such conflict, "
	    "project or status\n" EXIT_IO,
	    "mirror conflicts list --status open" },
	{ "conflicts", "list", 1, STORE | CLI_BIT(CLI_STATUS) |
	    CLI_BIT(CLI_PROJECT),
	    "list conflicts, open first, newest first",
	    "mirror conflicts list [--status open|resolved|dismissed]\n"
	    "    [--project P]",
	    "List the recorded conflicts, one line each: open first, then\n"
	    "resolved and dismissed, newest first within each.",
	    "print the conflicts as one JSON array",
	    "0  success (also when none match)\n" EXIT_USAGE
	    "2  bad store, or no such status or project\n" EXIT_IO,
	    "mirror conflicts list --status open --project p05" },
	{ "conflicts", "show", 1, STORE,
	    "one conflict with its members, trust order first",
	    "mirror conflicts show ID",
	    "Print one conflict: its slot, the question it asks, each member\n"
	    "in trust order with its value then and now, and the commands\n"
	    "that act on it.",
	    "print the conflict and its members as one JSON object",
	    "0  success\n" EXIT_USAGE "2  bad store, or no conflict ID\n"
	    EXIT_IO,
	    "mirror conflicts show c1a2b3c4d5" },
	{ "conflicts", "resolve", 1, STORE | CLI_BIT(CLI_NOTES) |
	    CLI_BIT(CLI_WINNER) | CLI_BIT(CLI_ACTOR),
	    "close a conflict, optionally naming the winner",
	    "mirror conflicts resolve ID --notes TEXT [--winner MEMBER_ID]\n"
	    "    [--actor NAME]",
	    "Close an open conflict as resolved. With --winner, every other\n"
	    "member row is superseded by the winner, with an audit row each.",
	    "print the closed conflict (as show does) as JSON",
	    "0  success\n" EXIT_USAGE
	    "2  bad store, no conflict ID, not open, or not a member\n"
	    EXIT_IO,
	    "mirror conflicts resolve c1a2b3c4d5 --notes 'PEEK was chosen' \\\n"
	    "    --winner p05-dec-lateral-material" },
	{ "conflicts", "dismiss", 1, STORE | CLI_BIT(CLI_REASON) |
	    CLI_BIT(CLI_ACTOR),
	    "close a conflict as not a real one",
	    "mirror conflicts dismiss ID --reason TEXT [--actor NAME]",
	    "Close an open conflict as dismissed: not a real conflict. No\n"
	    "fact changes.",
	    "print the closed conflict (as show does) as JSON",
	    "0  success\n" EXIT_USAGE
	    "2  bad store, no conflict ID, or not open\n" EXIT_IO,
	    "mirror conflicts dismiss c1a2b3c4d5 --reason 'two materials'" },
	{ "help", NULL, 0, CLI_BIT(CLI_CONFIG) | CLI_BIT(CLI_HELP) |
	    CLI_BIT(CLI_VERSION),
	    "print the help of a command",
	    "mirror help [COMMAND [SUBCOMMAND]]",
	    "Print the help of COMMAND (and SUBCOMMAND), or without one the\n"
	    "list of commands. 'mirror COMMAND --help' does the same.",
	    NULL,
	    "0  success\n" EXIT_USAGE,
	    "mirror help conflicts resolve" },
};
const size_t cli_ncommands = sizeof(cli_commands) / sizeof(cli_commands[0]);

int
cli_given(const struct mirror_opts *o, enum cli_option opt)
{
	return (o->given & CLI_BIT(opt)) != 0;
}

int
cli_check_rules(const struct violation_counts *c, const char *what,
    const char *store, mirror_error *err)
{
	if (c->open_error > 0)
		return mirror_fail(err, MIRROR_ECONFLICTS, "%s: %lld open "
		    "violation%s of error rules in %s (see its Checks page)",
		    what, c->open_error, c->open_error == 1 ? "" : "s", store);
	if (c->rules_failed > 0)
		return mirror_fail(err, MIRROR_ECONFLICTS, "%s: %lld rule%s "
		    "failed in the latest sweep of %s", what, c->rules_failed,
		    c->rules_failed == 1 ? "" : "s", store);
	return 0;
}

/* The title of a site that names none. */
#define DEFAULT_TITLE "Human Mirror"

/*
 * The base URL the site's absolute links use, into *out (NULL: relative
 * links, also for ""): an absolute http(s) URL, its trailing slashes
 * dropped, so "https://h/p" and "https://h/p/" build the same site. The
 * caller frees *out. Returns 0, or -MIRROR_EUSAGE from
 * optcheck_base_url (a config file's value was checked as it was read).
 */
static int
build_base_url(char **out, const struct mirror_opts *o, mirror_error *err)
{
	const char *u = o->base_url;
	size_t n;
	int rc;

	*out = NULL;
	if (u == NULL || u[0] == '\0')
		return 0;
	/* The config file's value was checked when it was read. */
	if ((rc = optcheck_base_url(u, err)) < 0)
		return rc;
	n = strlen(u);
	while (n > 0 && u[n - 1] == '/')
		n--;
	*out = xstrndup(u, n);
	return 0;
}

/*
 * What the command line asks of a build must make sense before anything
 * runs: --store, --out, no positionals, --branch and --author only with
 * a repository to commit to, a valid base URL (into *base_url, see
 * build_base_url). Returns 0 or < 0.
 */
static int
build_usage(char **base_url, const struct mirror_opts *o, mirror_error *err)
{
	int rc;

	*base_url = NULL;
	if ((rc = cli_need_store(o, err)) < 0 ||
	    (rc = cli_max_args(o, 0, err)) < 0)
		return rc;
	if (o->out == NULL || o->out[0] == '\0')
		return mirror_fail(err, MIRROR_EUSAGE, "build: --out DIR is "
		    "required (or 'out' in the config file)");
	/* From a shared config file they are harmless; typed, a mistake. */
	if (o->repo == NULL && cli_given(o, CLI_BRANCH))
		return mirror_fail(err, MIRROR_EUSAGE, "build: --branch has "
		    "no effect without --repo");
	if (o->repo == NULL && cli_given(o, CLI_AUTHOR))
		return mirror_fail(err, MIRROR_EUSAGE, "build: --author has "
		    "no effect without --repo");
	if (o->repo == NULL && cli_given(o, CLI_SIGN_KEY))
		return mirror_fail(err, MIRROR_EUSAGE, "build: --sign-key has "
		    "no effect without --repo");
	return build_base_url(base_url, o, err);
}

int
cli_build_opts(struct build_opts *b, char **base_url,
    const struct mirror_opts *o, mirror_error *err)
{
	int rc;

	memset(b, 0, sizeof(*b));
	if ((rc = build_usage(base_url, o, err)) < 0)
		return rc;
	b->store = o->store;
	b->out = o->out;
	b->repo = o->repo;
	b->branch = o->branch;
	b->author = o->author;
	b->sign_key = o->sign_key;
	b->templates = o->templates;
	b->theme = o->theme;
	b->rules = o->rules;
	b->params = o->params;
	b->nparams = o->nparams;
	b->title = o->title != NULL && o->title[0] != '\0' ? o->title :
	    DEFAULT_TITLE;
	b->base_url = *base_url;
	b->no_sweep = o->no_sweep;
	b->force = o->force;
	return 0;
}

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

/* The entry of command name (with sub, or the group when sub is NULL). */
static const struct cli_command *
find_command(const char *name, const char *sub)
{
	for (size_t i = 0; i < cli_ncommands; i++) {
		const struct cli_command *c = &cli_commands[i];

		if (strcmp(c->name, name) != 0)
			continue;
		if (sub == NULL ? c->sub == NULL :
		    c->sub != NULL && strcmp(c->sub, sub) == 0)
			return c;
	}
	return NULL;
}

/* 1 when command name has subcommands. */
static int
has_subs(const char *name)
{
	for (size_t i = 0; i < cli_ncommands; i++)
		if (cli_commands[i].sub != NULL &&
		    strcmp(cli_commands[i].name, name) == 0)
			return 1;
	return 0;
}

/*
 * "; did you mean 'X'?" into sb when one of the commands (group NULL)
 * or of group's subcommands is near word; nothing otherwise.
 */
static void
did_you_mean_command(strbuf *sb, const char *group, const char *word)
{
	const char **names = xcalloc(cli_ncommands, sizeof(*names));
	const char *best;
	size_t n = 0;

	for (size_t i = 0; i < cli_ncommands; i++) {
		const struct cli_command *c = &cli_commands[i];

		if (group == NULL && c->sub == NULL)
			names[n++] = c->name;
		else if (group != NULL && c->sub != NULL &&
		    strcmp(c->name, group) == 0)
			names[n++] = c->sub;
	}
	best = suggest_nearest(word, names, n);
	if (best != NULL)
		strbuf_printf(sb, "; did you mean '%s'?", best);
	free(names);
}

/* "mirror help", with the command (and subcommand) of o when known. */
static void
help_hint(strbuf *sb, const struct mirror_opts *o)
{
	strbuf_puts(sb, "mirror help");
	if (o->command == NULL || find_command(o->command, NULL) == NULL ||
	    strcmp(o->command, "help") == 0)
		return;
	strbuf_printf(sb, " %s", o->command);
	if (o->nargs > 0 && find_command(o->command, o->args[0]) != NULL)
		strbuf_printf(sb, " %s", o->args[0]);
}

/* The unknown option a (its first n bytes), with the nearest one. */
static int
unknown_option(const struct mirror_opts *o, const char *a, size_t n,
    mirror_error *err)
{
	const char *names[CLI_NOPTIONS], *best;
	char *word = xstrndup(a, n);
	strbuf sb;
	int rc;

	for (size_t k = 0; k < CLI_NOPTIONS; k++)
		names[k] = cli_options[k].name;
	best = suggest_nearest(word, names, CLI_NOPTIONS);
	strbuf_init(&sb);
	strbuf_printf(&sb, "unknown option '%s'", word);
	if (best != NULL)
		strbuf_printf(&sb, "; did you mean '%s'?", best);
	strbuf_puts(&sb, " (see ");
	help_hint(&sb, o);
	strbuf_puts(&sb, ")");
	rc = mirror_fail(err, MIRROR_EUSAGE, "%s", sb.data);
	strbuf_free(&sb);
	free(word);
	return rc;
}

int
cli_parse(struct mirror_opts *o, int argc, char **argv, mirror_error *err)
{
	o->args = xcalloc((size_t)argc + 1, sizeof(char *));
	for (int i = 1; i < argc; i++) {
		const struct cli_option_def *d;
		const char *a = argv[i], *eq;
		size_t n, k;

		if (strcmp(a, "--") == 0) {
			if (o->command == NULL && i + 1 < argc)
				o->command = argv[++i];
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
		if (strcmp(a, "-h") == 0)
			a = "--help";
		eq = strchr(a, '=');
		n = eq != NULL ? (size_t)(eq - a) : strlen(a);
		for (k = 0; k < CLI_NOPTIONS; k++)
			if (strlen(cli_options[k].name) == n &&
			    strncmp(cli_options[k].name, a, n) == 0)
				break;
		if (k == CLI_NOPTIONS)
			return unknown_option(o, a, n, err);
		d = &cli_options[k];
		o->given |= CLI_BIT(k);
		if (d->metavar == NULL) {
			if (eq != NULL)
				return mirror_fail(err, MIRROR_EUSAGE,
				    "option %s takes no value", d->name);
			*(int *)(void *)((char *)o + d->offset) = 1;
		} else {
			const char *v;

			if (eq != NULL)
				v = eq + 1;
			else if (i + 1 < argc)
				v = argv[++i];
			else
				return mirror_fail(err, MIRROR_EUSAGE,
				    "option %s needs a value", d->name);
			*(const char **)(void *)((char *)o + d->offset) = v;
		}
	}
	return 0;
}

/*
 * The entry of command name and, when it has subcommands, of the one
 * *sub names (NULL: none given; then the group). Returns 0 with *out,
 * or -MIRROR_EUSAGE naming what is unknown and the nearest valid word.
 */
static int
resolve(const struct cli_command **out, const char *name, const char *sub,
    mirror_error *err)
{
	strbuf sb;
	int rc;

	*out = find_command(name, NULL);
	if (*out != NULL && (sub == NULL || !has_subs(name)))
		return 0;
	if (*out != NULL && (*out = find_command(name, sub)) != NULL)
		return 0;
	strbuf_init(&sb);
	if (find_command(name, NULL) == NULL) {
		strbuf_printf(&sb, "unknown command '%s'", name);
		did_you_mean_command(&sb, NULL, name);
		strbuf_puts(&sb, " (see mirror help)");
	} else {
		strbuf_printf(&sb, "%s: unknown subcommand '%s'", name, sub);
		did_you_mean_command(&sb, name, sub);
		strbuf_printf(&sb, " (see mirror help %s)", name);
	}
	rc = mirror_fail(err, MIRROR_EUSAGE, "%s", sb.data);
	strbuf_free(&sb);
	return rc;
}

/* Ask for the help of c (NULL: the global usage). Returns 0. */
static int
want_help(struct cli_plan *plan, const struct cli_command *c)
{
	plan->help = 1;
	plan->help_on = c;
	return 0;
}

/* 'mirror help [COMMAND [SUBCOMMAND]]'. Returns 0 or < 0. */
static int
help_command(struct cli_plan *plan, const struct mirror_opts *o,
    mirror_error *err)
{
	const struct cli_command *c = NULL;
	int rc;

	if (o->nargs > 2)
		return mirror_fail(err, MIRROR_EUSAGE, "help: unexpected "
		    "argument '%s'", o->args[2]);
	if (o->nargs == 0 || strcmp(o->args[0], "help") == 0)
		return want_help(plan, NULL);
	if ((rc = resolve(&c, o->args[0], o->nargs > 1 ? o->args[1] : NULL,
	    err)) < 0)
		return rc;
	if (o->nargs > 1 && c->sub == NULL)
		return mirror_fail(err, MIRROR_EUSAGE, "help: %s has no "
		    "subcommand '%s'", c->name, o->args[1]);
	return want_help(plan, c);
}

/* The subcommand of group is missing: name them all. */
static int
missing_sub(const char *group, mirror_error *err)
{
	strbuf sb;
	int rc;

	strbuf_init(&sb);
	for (size_t i = 0; i < cli_ncommands; i++)
		if (cli_commands[i].sub != NULL &&
		    strcmp(cli_commands[i].name, group) == 0)
			strbuf_printf(&sb, "%s%s", sb.len > 0 ? ", " : "",
			    cli_commands[i].sub);
	rc = mirror_fail(err, MIRROR_EUSAGE, "%s: give one of %s (see mirror "
	    "help %s)", group, sb.data, group);
	strbuf_free(&sb);
	return rc;
}

/* Refuse an option given on the command line that c does not take. */
static int
check_takes(const struct cli_command *c, const struct mirror_opts *o,
    mirror_error *err)
{
	for (size_t k = 0; k < CLI_NOPTIONS; k++)
		if ((o->given & CLI_BIT(k)) && !(c->takes & CLI_BIT(k)))
			return mirror_fail(err, MIRROR_EUSAGE, "%s%s%s does "
			    "not take %s (see mirror help %s%s%s)", c->name,
			    c->sub != NULL ? " " : "",
			    c->sub != NULL ? c->sub : "", cli_options[k].name,
			    c->name, c->sub != NULL ? " " : "",
			    c->sub != NULL ? c->sub : "");
	return 0;
}

int
cli_prepare(struct cli_plan *plan, const struct mirror_opts *o,
    mirror_error *err)
{
	const struct cli_command *c;
	int rc;

	memset(plan, 0, sizeof(*plan));
	if (o->help && (o->command == NULL ||
	    strcmp(o->command, "help") == 0) && o->nargs == 0)
		return want_help(plan, NULL);
	if (o->version && !o->help) {
		plan->version = 1;
		return 0;
	}
	if (o->command == NULL)
		return mirror_fail(err, MIRROR_EUSAGE, "no command given (see "
		    "mirror help)");
	if (strcmp(o->command, "help") == 0)
		return (rc = check_takes(find_command("help", NULL), o,
		    err)) < 0 ? rc : help_command(plan, o, err);
	if ((rc = resolve(&c, o->command, o->nargs > 0 ? o->args[0] : NULL,
	    err)) < 0)
		return rc;
	if (o->help)
		return want_help(plan, c);
	if (!c->runs)
		return missing_sub(c->name, err);
	if ((rc = check_takes(c, o, err)) < 0)
		return rc;
	plan->command = c->name;
	return 0;
}
