/*
 * json_out.c: printing --json results (see json_out.h).
 */
#include "cli/json_out.h"
#include "sweep/sweep.h"

int
json_out_print(json_t *v, mirror_error *err)
{
	int rc = 0;

	if (v == NULL)
		return mirror_fail(err, MIRROR_EIO, "cannot build JSON output");
	if (json_dumpf(v, stdout, MIRROR_JSON_FLAGS) != 0 ||
	    fputc('\n', stdout) == EOF)
		rc = mirror_fail(err, MIRROR_EIO, "cannot write JSON output");
	json_decref(v);
	return rc;
}

json_t *
json_sweep_run(const struct sweep_run *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "id", json_string(r->id));
	json_object_set_new(o, "started_at", json_string(r->started_at));
	json_object_set_new(o, "finished_at", json_string(r->finished_at));
	json_object_set_new(o, "duration_ms", json_integer(r->duration_ms));
	json_object_set_new(o, "rules_version", json_string(r->rules_version));
	json_object_set_new(o, "facts_scanned", json_integer(r->facts_scanned));
	json_object_set_new(o, "conflicts_opened",
	    json_integer(r->conflicts_opened));
	json_object_set_new(o, "members_added", json_integer(r->members_added));
	json_object_set_new(o, "conflicts_closed",
	    json_integer(r->conflicts_closed));
	json_object_set_new(o, "open_after", json_integer(r->open_after));
	json_object_set_new(o, "violations_opened",
	    json_integer(r->violations_opened));
	json_object_set_new(o, "violations_closed",
	    json_integer(r->violations_closed));
	json_object_set_new(o, "violations_open_after",
	    json_integer(r->violations_open_after));
	json_object_set_new(o, "rules_failed", json_integer(r->rules_failed));
	json_object_set_new(o, "rules_kept", json_integer(r->rules_kept));
	json_object_set_new(o, "attempts", json_integer(r->attempts));
	return o;
}
