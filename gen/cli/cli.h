/*
 * cli.h: the parsed command line, shared by every command.
 *
 * gen/cli/cli.c parses all options once into struct mirror_opts (command
 * line over config file over defaults) and refuses, before any command
 * runs, an option the command does not take; each command reads the
 * fields it uses and rejects positionals it does not expect. Strings
 * point into argv or into the config, which live until exit: commands
 * never free them.
 */
#ifndef MIRROR_CLI_H
#define MIRROR_CLI_H

#include "pipeline/build.h"
#include "util/error.h"

/* Every option, numbered for mirror_opts.given (gen/cli/cli.c's table). */
enum cli_option {
	CLI_STORE, CLI_OUT, CLI_REPO, CLI_BRANCH, CLI_AUTHOR, CLI_TEMPLATES,
	CLI_THEME, CLI_BASE_URL, CLI_TITLE, CLI_PORT, CLI_BIND, CLI_STATUS,
	CLI_PROJECT, CLI_NOTES, CLI_WINNER, CLI_REASON, CLI_ACTOR, CLI_NO_SWEEP,
	CLI_CHECK, CLI_FORCE, CLI_JSON, CLI_QUIET, CLI_CONFIG, CLI_HELP,
	CLI_VERSION, CLI_SIGN_KEY, CLI_RULES, CLI_HOSTING, CLI_NOPTIONS
};


struct mirror_opts {
	const char *command;     /* "init", "sweep", ... */
	const char *config;      /* --config FILE, or ./mirror.ini if present */
	const char *store;       /* --store PATH / config store */
	const char *out;         /* --out DIR / config out */
	const char *repo;        /* --repo GITDIR / config repo */
	const char *branch;      /* --branch B / config branch; "mirror" */
	const char *author;      /* --author "Name <email>" / config author */
	const char *sign_key;    /* --sign-key FILE / config sign_key: SSH
	                            key that signs each commit */
	const char *templates;   /* --templates DIR / config templates */
	const char *rules;       /* --rules DIR / config rules */
	const struct build_param *params;  /* config param.RULE.NAME */
	size_t nparams;
	const char *theme;       /* --theme NAME / config theme; "default" */
	const char *base_url;    /* --base-url URL / config base_url */
	const char *title;       /* --title TEXT / config title */
	const char *status;      /* --status open|resolved|dismissed */
	const char *project;     /* --project P */
	const char *notes;       /* --notes TEXT */
	const char *winner;      /* --winner MEMBER_ID */
	const char *reason;      /* --reason TEXT */
	const char *actor;       /* --actor NAME: who acts; default $USER */
	const char *port;        /* --port N: serve's port; "1313" */
	const char *bind;        /* --bind ADDR: serve's address; 127.0.0.1 */
	const char *hosting;     /* --check-hosting HOSTS: comma-separated
	                            host ids (gen/output/hosting.h) */
	int json;                /* --json */
	int check;               /* --check: open conflicts exit 4 */
	int no_sweep;            /* --no-sweep */
	int force;               /* --force: render even when unchanged */
	int quiet;               /* --quiet */
	char **args;             /* positionals after the command */
	int nargs;
	int help;                /* --help, -h */
	int version;             /* --version */
	unsigned long given;     /* 1UL << CLI_x for each option given on
	                            the command line (not the config) */
};

/*
 * A command: returns 0, or a negative mirror_status with err set
 * (-MIRROR_ECONFLICTS for --check with open conflicts).
 */
typedef int mirror_command(const struct mirror_opts *o, mirror_error *err);

mirror_command cmd_init, cmd_health, cmd_sweep, cmd_build, cmd_conflicts,
    cmd_serve;

/* 1 when option opt was given on the command line, else 0. */
int cli_given(const struct mirror_opts *o, enum cli_option opt);

struct rule_set;

/*
 * The rules a sweep runs, into rs (the caller frees it with
 * rules_free): the starter set (rules/ of the data directory, none when
 * it is missing), then every *.sql of --rules DIR, with the config's
 * parameters. Returns 0, or -MIRROR_EINPUT when --rules DIR cannot be
 * read (rs then holds nothing).
 */
int cli_rules_load(struct rule_set *rs, const struct mirror_opts *o,
    mirror_error *err);

/*
 * The options of a build (build and serve) from o into *b, checked as
 * they must be before anything runs: --store, --out, no positionals,
 * --branch, --author and --sign-key only with --repo, a valid base URL
 * (into *base_url, its trailing slashes dropped, NULL for none: the
 * caller frees it and keeps it until the build is freed). b gets no
 * progress and reads no counts. Returns 0 or -MIRROR_EUSAGE.
 */
int cli_build_opts(struct build_opts *b, char **base_url,
    const struct mirror_opts *o, mirror_error *err);

/* Fail with MIRROR_EUSAGE unless --store (or config store) was given. */
int cli_need_store(const struct mirror_opts *o, mirror_error *err);

struct violation_counts;

/*
 * --check's verdict on the rules: -MIRROR_ECONFLICTS naming what (the
 * command's words) and the store when c has an open violation of an
 * error rule or a rule that failed in the latest sweep run, else 0.
 */
int cli_check_rules(const struct violation_counts *c, const char *what,
    const char *store, mirror_error *err);

/* Fail with MIRROR_EUSAGE if more than max positionals were given. */
int cli_max_args(const struct mirror_opts *o, int max, mirror_error *err);

/*
 * Parse argv into o: options before or after the command, as
 * "--name value" or "--name=value"; "--" ends the options. Returns 0,
 * or -MIRROR_EUSAGE naming an unknown option (and the nearest one).
 */
int cli_parse(struct mirror_opts *o, int argc, char **argv,
    mirror_error *err);

struct cli_command;

/* What the command line asks for (cli_prepare): one of them. */
struct cli_plan {
	const char *command;    /* the command to run ("build", ...), or NULL */
	int version;            /* print the versions (--version) */
	int help;               /* print help ... */
	const struct cli_command *help_on;  /* ... of this command; NULL: the
	                                       global usage */
};

/*
 * Everything before the config file is read: what the command line asks
 * for, into *plan: --version, --help or 'mirror help [COMMAND
 * [SUBCOMMAND]]' (main.c prints them with cli_help.c), or the name of the
 * command to run, once its subcommand is known and every option given on
 * the command line is one it takes (main.c maps it to its function).
 * Returns 0, or -MIRROR_EUSAGE naming an unknown or missing command or
 * subcommand (and the nearest one) or an option the command does not
 * take.
 */
int cli_prepare(struct cli_plan *plan, const struct mirror_opts *o,
    mirror_error *err);

/* The strings config_load put in a mirror_opts, the caller's to hold
 * as long as it uses those options: zeroed before the first load. */
struct config_kept {
	char **v;
	size_t n, cap;
};

/*
 * Read the config file at path into o, for every option not already set,
 * the strings it sets kept in kept (config_free). Relative paths in it
 * are taken relative to the file's directory. Returns 0, or
 * -MIRROR_EINPUT naming file and line.
 */
int config_load(struct config_kept *kept, struct mirror_opts *o,
    const char *path, mirror_error *err);

/* Free what config_load kept in kept; the options pointing into it die
 * too. Returns nothing. */
void config_free(struct config_kept *kept);

#endif
