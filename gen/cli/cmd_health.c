/*
 * cmd_health.c: the store's own commands, which write no site:
 *
 *   mirror init --store S [--json] [--quiet]
 *   mirror health --store S [--json] [--quiet]
 *
 * (init lives here so gen/cli stays within house.py's twelve .c files.)
 */
#include <stdio.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "store/store.h"
#include "sweep/health.h"
#include "sys/clock.h"
#include "sys/termtext.h"

int
cmd_init(const struct mirror_opts *o, mirror_error *err)
{
	int rc;

	if ((rc = cli_need_store(o, err)) < 0 || (rc = cli_max_args(o, 0,
	    err)) < 0)
		return rc;
	rc = store_create(o->store, err);
	if (rc == 0 && o->json)
		rc = json_out_print(json_pack("{s:s, s:i}", "store", o->store,
		    "schema_version", MIRROR_SCHEMA_VERSION), err);
	else if (rc == 0 && !o->quiet)
		(void)termtext_printf(stdout, "created store %s (mirror "
		    "schema %d)\n", o->store, MIRROR_SCHEMA_VERSION);
	return rc;
}

/* The counts of h, read from the store at path, as one JSON object. */
static json_t *
health_json(const struct health *h, const char *path)
{
	json_t *root = json_object(), *layers = json_object();

	json_object_set_new(root, "store", json_string(path));
	json_object_set_new(root, "projects", json_integer(h->projects));
	for (int i = 0; i < 3; i++) {
		const struct health_layer *l = &h->layers[i];
		json_t *jl = json_object(), *bs = json_object();

		json_object_set_new(jl, "trust", json_integer(l->trust));
		json_object_set_new(jl, "total", json_integer(l->total));
		for (size_t j = 0; j < l->n_status; j++)
			json_object_set_new(bs, l->by_status[j].status,
			    json_integer(l->by_status[j].n));
		json_object_set_new(jl, "by_status", bs);
		if (l->trust == 1)
			json_object_set_new(jl, "expired",
			    json_integer(h->expired_memories));
		json_object_set_new(layers, l->name, jl);
	}
	json_object_set_new(root, "layers", layers);
	json_object_set_new(root, "relationships",
	    json_integer(h->relationships));
	json_object_set_new(root, "open_conflicts_count",
	    json_integer(h->open_conflicts_count));
	json_object_set_new(root, "resolved_conflicts",
	    json_integer(h->resolved_conflicts));
	json_object_set_new(root, "dismissed_conflicts",
	    json_integer(h->dismissed_conflicts));
	json_object_set_new(root, "sweep_runs", json_integer(h->sweep_runs));
	json_object_set_new(root, "checks", health_checks_json(&h->checks));
	return root;
}

/* The counts of h as text, one line per layer. */
static void
health_print(const struct health *h, const char *path)
{
	(void)termtext_printf(stdout, "store %s\n", path);
	printf("projects: %lld\n", h->projects);
	for (int i = 0; i < 3; i++) {
		const struct health_layer *l = &h->layers[i];

		printf("%-14s (trust %d): %lld", l->name, l->trust, l->total);
		/* Statuses are store text. */
		for (size_t j = 0; j < l->n_status; j++)
			(void)termtext_printf(stdout, "%s %lld %s", j == 0 ?
			    " =" : ",",
			    l->by_status[j].n, l->by_status[j].status);
		if (l->trust == 1 && h->expired_memories > 0)
			printf(" (%lld active expired)", h->expired_memories);
		putchar('\n');
	}
	printf("relationships: %lld\n", h->relationships);
	printf("conflicts: %lld open, %lld resolved, %lld dismissed "
	    "(%lld sweep runs)\n", h->open_conflicts_count,
	    h->resolved_conflicts, h->dismissed_conflicts, h->sweep_runs);
	printf("checks: %lld open (%lld error, %lld warn), %lld closed; "
	    "%lld of %lld rules failed\n", h->checks.open_error +
	    h->checks.open_warn, h->checks.open_error, h->checks.open_warn,
	    h->checks.closed, h->checks.rules_failed, h->checks.rules);
	printf("open_conflicts_count: %lld\n", h->open_conflicts_count);
}

int
cmd_health(const struct mirror_opts *o, mirror_error *err)
{
	mirror_store *st = NULL;
	struct health h = { 0 };
	time_t now;
	int rc;

	if ((rc = cli_need_store(o, err)) < 0 ||
	    (rc = cli_max_args(o, 0, err)) < 0 ||
	    (rc = mirror_clock(&now, err)) < 0)
		return rc;
	rc = store_open(&st, o->store, STORE_READ, err);
	if (rc == 0)
		rc = store_read_begin(st, err);
	if (rc == 0) {
		rc = health_read(&h, st, now, err);
		store_read_end(st);
	}
	if (rc == 0) {
		if (o->json)
			rc = json_out_print(health_json(&h, o->store), err);
		else if (!o->quiet)
			health_print(&h, o->store);
	}
	health_free(&h);
	store_close(st);
	return rc;
}
