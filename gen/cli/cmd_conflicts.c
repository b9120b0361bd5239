/*
 * cmd_conflicts.c: the review queue.
 *
 *   mirror conflicts list [--status open|resolved|dismissed] [--project P]
 *   mirror conflicts show ID
 *   mirror conflicts resolve ID --notes TEXT [--winner MEMBER_ID]
 *   mirror conflicts dismiss ID --reason TEXT
 *
 * All take --json. Text output is for people: list prints one aligned
 * line per conflict, show prints the members in trust order with their
 * value then and now, and the command lines that act on the conflict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "cli/optcheck.h"
#include "sweep/conflict.h"
#include "sys/clock.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "sys/termtext.h"
#include "util/xalloc.h"

/* A JSON string for store text; bytes that are not UTF-8 become '?'. */
static json_t *
jstr(const char *s)
{
	json_t *v;
	char *copy;

	if (s == NULL)
		return json_null();
	if ((v = json_string(s)) != NULL)
		return v;
	copy = xstrdup(s);
	for (unsigned char *p = (unsigned char *)copy; *p != '\0'; p++)
		if (*p >= 0x80)
			*p = '?';
	v = json_string(copy);
	free(copy);
	return v;
}

static json_t *
show_member_json(const struct conflict_member *m)
{
	json_t *o = json_object();

	json_object_set_new(o, "kind", jstr(layer_kind(m->layer)));
	json_object_set_new(o, "id", jstr(m->id));
	json_object_set_new(o, "trust", json_integer(m->trust));
	json_object_set_new(o, "favoured", json_boolean(m->favoured));
	json_object_set_new(o, "value_then", jstr(m->value_then));
	json_object_set_new(o, "value_now", jstr(m->value_now));
	json_object_set_new(o, "status_now", jstr(m->status_now));
	json_object_set_new(o, "conflicts_with", jstr(m->conflicts_with));
	json_object_set_new(o, "layer_type", jstr(m->layer_type));
	json_object_set_new(o, "label", jstr(m->label));
	json_object_set_new(o, "source", jstr(m->source));
	json_object_set_new(o, "created_at", jstr(m->created_at));
	json_object_set_new(o, "updated_at", jstr(m->updated_at));
	return o;
}

static json_t *
show_conflict_json(const struct conflict *c)
{
	json_t *o = json_object(), *ms = json_array(), *ea = json_array();

	json_object_set_new(o, "id", jstr(c->id));
	json_object_set_new(o, "status", jstr(c->status));
	json_object_set_new(o, "slot_kind", jstr(c->slot_kind));
	json_object_set_new(o, "slot_key", jstr(c->slot_key));
	json_object_set_new(o, "project", jstr(c->project));
	json_object_set_new(o, "description", jstr(c->description));
	json_object_set_new(o, "question", jstr(c->question));
	json_object_set_new(o, "detected_at", jstr(c->detected_at));
	json_object_set_new(o, "resolved_at", jstr(c->resolved_at));
	json_object_set_new(o, "resolution", jstr(c->resolution));
	json_object_set_new(o, "resolved_by", jstr(c->resolved_by));
	for (size_t i = 0; i < c->n_members; i++)
		json_array_append_new(ms, show_member_json(&c->members[i]));
	json_object_set_new(o, "members", ms);
	for (size_t i = 0; i < c->n_earlier; i++)
		json_array_append_new(ea, jstr(c->earlier[i]));
	json_object_set_new(o, "earlier", ea);
	return o;
}

/* Print s, which may be NULL, on the current line (termtext.h: its
 * control characters, newlines too, shown as \xNN). */
static void
put_line(const char *s)
{
	if (s != NULL)
		(void)termtext_printf(stdout, "%s", s);
}

/* s quoted for a POSIX shell: 'it'\''s' (its control characters shown as
 * \xNN, as put_line does: such an id cannot be typed as it is). */
static void
put_shell_quoted(const char *s)
{
	putchar('\'');
	for (const char *q; (q = strchr(s, '\'')) != NULL; s = q + 1) {
		(void)termtext_printf(stdout, "%.*s", (int)(q - s), s);
		fputs("'\\''", stdout);
	}
	put_line(s);
	putchar('\'');
}

static void
print_list(const struct conflict_list *l)
{
	int wid = 2, wst = 6, wkind = 4, wproj = 7;

	if (l->n == 0) {
		printf("no conflicts\n");
		return;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct conflict *c = &l->items[i];

		if ((int)strlen(c->id) > wid)
			wid = (int)strlen(c->id);
		if ((int)strlen(c->status) > wst)
			wst = (int)strlen(c->status);
		if ((int)strlen(c->slot_kind) > wkind)
			wkind = (int)strlen(c->slot_kind);
		if ((int)strlen(c->project) > wproj)
			wproj = (int)strlen(c->project);
	}
	if (wproj > 40)
		wproj = 40;
	printf("%-*s  %-*s  %-*s  %-*s  %7s  %-19s  %s\n", wid, "ID", wst,
	    "STATUS", wkind, "KIND", wproj, "PROJECT", "MEMBERS", "DETECTED",
	    "SLOT");
	for (size_t i = 0; i < l->n; i++) {
		const struct conflict *c = &l->items[i];

		(void)termtext_printf(stdout, "%-*s  %-*s  %-*s  %-*s  %7zu  "
		    "%-19s  %s\n", wid, c->id, wst, c->status, wkind,
		    c->slot_kind, wproj, c->project[0] != '\0' ? c->project :
		    "-", c->n_members, c->detected_at,
		    c->description != NULL ? c->description : "");
	}
}

/* One member of a conflict, as print_conflict shows it. */
static void
print_member(size_t i, const struct conflict_member *m)
{
	(void)termtext_printf(stdout, "  %zu. %s %s (trust %d%s%s)%s\n", i + 1,
	    layer_kind(m->layer), m->id, m->trust,
	    m->layer_type != NULL ? ", " : "",
	    m->layer_type != NULL ? m->layer_type : "",
	    m->favoured ? "  <- the trust order favours this" : "");
	fputs("     value then: ", stdout);
	put_line(m->value_then);
	fputs("\n     value now:  ", stdout);
	if (m->value_now == NULL)
		fputs("(row gone)", stdout);
	else
		(void)termtext_printf(stdout, "%s [%s]", m->value_now,
		    m->status_now != NULL ? m->status_now : "?");
	putchar('\n');
	if (m->conflicts_with != NULL)
		(void)termtext_printf(stdout, "     conflicts with: %s\n",
		    m->conflicts_with);
	if (m->label != NULL)
		(void)termtext_printf(stdout, "     label: %s\n", m->label);
	if (m->source != NULL && m->source[0] != '\0')
		(void)termtext_printf(stdout, "     source: %s\n", m->source);
	if (m->created_at != NULL)
		(void)termtext_printf(stdout, "     created %s, updated %s\n",
		    m->created_at, m->updated_at != NULL ? m->updated_at : "-");
}

static void
print_conflict(const struct conflict *c)
{
	const char *favoured = NULL;

	(void)termtext_printf(stdout, "conflict %s (%s, %s)\n", c->id,
	    c->status, c->slot_kind);
	fputs("slot:      ", stdout);
	put_line(c->description);
	fputs("\nquestion:  ", stdout);
	put_line(c->question);
	putchar('\n');
	(void)termtext_printf(stdout, "project:   %s\n", c->project[0] != '\0' ?
	    c->project : "-");
	(void)termtext_printf(stdout, "detected:  %s\n", c->detected_at);
	printf("members (trust order, highest first):\n");
	for (size_t i = 0; i < c->n_members; i++) {
		if (c->members[i].favoured && favoured == NULL)
			favoured = c->members[i].id;
		print_member(i, &c->members[i]);
	}
	if (strcmp(c->status, "open") != 0)
		(void)termtext_printf(stdout, "%s at %s by %s: %s\n", c->status,
		    c->resolved_at != NULL ? c->resolved_at : "-",
		    c->resolved_by[0] != '\0' ? c->resolved_by : "-",
		    c->resolution != NULL ? c->resolution : "");
	if (c->n_earlier > 0) {
		printf("earlier conflicts on this slot:");
		for (size_t i = 0; i < c->n_earlier; i++)
			(void)termtext_printf(stdout, " %s", c->earlier[i]);
		putchar('\n');
	}
	if (strcmp(c->status, "open") == 0) {
		printf("act on it:\n");
		(void)termtext_printf(stdout, "  mirror conflicts resolve %s "
		    "--notes '...'", c->id);
		if (favoured != NULL) {
			fputs(" --winner ", stdout);
			put_shell_quoted(favoured);
		}
		putchar('\n');
		(void)termtext_printf(stdout, "  mirror conflicts dismiss %s "
		    "--reason '...'\n", c->id);
	}
}

/*
 * Refuse a --status that is not open, resolved or dismissed, naming the
 * nearest. Returns 0 or -MIRROR_EINPUT (an unknown status is bad input,
 * like an unknown conflict or project).
 */
static int
check_status(const char *status, mirror_error *err)
{
	static const char *const valid[] = { "open", "resolved", "dismissed" };
	const char *near;

	for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++)
		if (strcmp(status, valid[i]) == 0)
			return 0;
	near = suggest_nearest(status, valid, sizeof(valid) / sizeof(valid[0]));
	return mirror_fail(err, MIRROR_EINPUT, "conflicts list: unknown "
	    "status '%s'%s%s%s (open, resolved or dismissed)", status,
	    near != NULL ? "; did you mean '" : "", near != NULL ? near : "",
	    near != NULL ? "'?" : "");
}

static int
do_list(const struct mirror_opts *o, mirror_error *err)
{
	struct conflict_filter f = { o->status, o->project };
	struct conflict_list l = { 0 };
	mirror_store *st = NULL;
	int rc;

	if ((rc = cli_max_args(o, 1, err)) < 0)
		return rc;
	if (o->status != NULL && (rc = check_status(o->status, err)) < 0)
		return rc;
	if ((rc = store_open(&st, o->store, STORE_READ, err)) < 0)
		return rc;
	if ((rc = store_read_begin(st, err)) == 0) {
		rc = conflict_list(&l, st, &f, err);
		store_read_end(st);
	}
	if (rc == 0) {
		if (o->json) {
			json_t *a = json_array();

			for (size_t i = 0; i < l.n; i++)
				json_array_append_new(a,
				    show_conflict_json(&l.items[i]));
			rc = json_out_print(a, err);
		} else if (!o->quiet)
			print_list(&l);
	}
	conflict_list_free(&l);
	store_close(st);
	return rc;
}

/*
 * Read conflict id from st and print it (text or JSON; with superseded
 * >= 0, the JSON has it as "superseded"). Returns 0 or < 0.
 */
static int
show_one(const struct mirror_opts *o, mirror_store *st, const char *id,
    int superseded, mirror_error *err)
{
	struct conflict c = { 0 };
	int rc;

	if ((rc = store_read_begin(st, err)) == 0) {
		rc = conflict_get(&c, st, id, NULL, err);
		store_read_end(st);
	}
	if (rc == 0) {
		if (o->json) {
			json_t *v = show_conflict_json(&c);

			if (superseded >= 0)
				json_object_set_new(v, "superseded",
				    json_integer(superseded));
			rc = json_out_print(v, err);
		} else if (!o->quiet)
			print_conflict(&c);
	}
	conflict_free(&c);
	return rc;
}

static int
need_id(const struct mirror_opts *o, const char *sub, mirror_error *err)
{
	if (o->nargs < 2 || o->args[1][0] == '\0')
		return mirror_fail(err, MIRROR_EUSAGE, "conflicts %s: a "
		    "conflict ID is required (see mirror conflicts list)", sub);
	return cli_max_args(o, 2, err);
}

static int
do_show(const struct mirror_opts *o, mirror_error *err)
{
	mirror_store *st = NULL;
	int rc;

	if ((rc = need_id(o, "show", err)) < 0)
		return rc;
	if ((rc = store_open(&st, o->store, STORE_READ, err)) < 0)
		return rc;
	rc = show_one(o, st, o->args[1], -1, err);
	store_close(st);
	return rc;
}

/*
 * Who acts, into *actor: --actor, else $USER, else "mirror". Returns 0,
 * or -MIRROR_EUSAGE when the one taken holds a control character.
 */
static int
actor_of(const char **actor, const struct mirror_opts *o, mirror_error *err)
{
	const char *u;

	if (o->actor != NULL && o->actor[0] != '\0') {
		*actor = o->actor;
		return optcheck_text("--actor", o->actor, err);
	}
	u = getenv("USER");
	*actor = u != NULL && u[0] != '\0' ? u : "mirror";
	return optcheck_text("environment variable USER (the default "
	    "--actor)", *actor, err);
}

static int
do_close(const struct mirror_opts *o, int dismiss, mirror_error *err)
{
	const char *sub = dismiss ? "dismiss" : "resolve";
	const char *text = dismiss ? o->reason : o->notes, *actor;
	char ts[MIRROR_TS_LEN];
	struct conflict_resolution res = { .notes = text,
	    .winner = o->winner, .now = ts };
	mirror_store *st = NULL;
	int rc, superseded = 0;
	time_t now;

	if ((rc = need_id(o, sub, err)) < 0)
		return rc;
	if (text == NULL || text[0] == '\0')
		return mirror_fail(err, MIRROR_EUSAGE, "conflicts %s: %s TEXT "
		    "is required", sub, dismiss ? "--reason" : "--notes");
	if ((rc = optcheck_text(dismiss ? "--reason" : "--notes", text,
	    err)) < 0 || (rc = actor_of(&actor, o, err)) < 0)
		return rc;
	if ((rc = mirror_clock(&now, err)) < 0)
		return rc;
	mirror_format_ts(ts, now);
	if ((rc = store_open(&st, o->store, STORE_WRITE, err)) < 0)
		return rc;
	res.id = o->args[1];
	res.actor = actor;
	if (dismiss)
		rc = conflict_dismiss(st, &res, err);
	else
		rc = conflict_resolve(st, &res, &superseded, err);
	if (rc == 0) {
		if (o->json)
			rc = show_one(o, st, o->args[1], dismiss ? -1 :
			    superseded, err);
		else if (!o->quiet)
			(void)termtext_printf(stdout, "%s %s%s", dismiss ?
			    "dismissed" : "resolved", o->args[1],
			    dismiss ? "\n" : "");
		if (!dismiss && !o->json && !o->quiet)
			printf(": %d row%s superseded\n", superseded,
			    superseded == 1 ? "" : "s");
	}
	store_close(st);
	return rc;
}

int
cmd_conflicts(const struct mirror_opts *o, mirror_error *err)
{
	const char *sub = o->nargs > 0 ? o->args[0] : NULL;
	int rc;

	if (sub == NULL)        /* cli_prepare refuses it first */
		return mirror_fail(err, MIRROR_EUSAGE, "conflicts: give a "
		    "subcommand (see mirror help conflicts)");
	if ((rc = cli_need_store(o, err)) < 0)
		return rc;
	if (strcmp(sub, "list") == 0)
		return do_list(o, err);
	if (strcmp(sub, "show") == 0)
		return do_show(o, err);
	if (strcmp(sub, "resolve") == 0)
		return do_close(o, 0, err);
	if (strcmp(sub, "dismiss") == 0)
		return do_close(o, 1, err);
	return mirror_fail(err, MIRROR_EUSAGE, "conflicts: unknown "
	    "subcommand '%s' (see mirror help conflicts)", sub);
}
