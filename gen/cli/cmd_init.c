/*
 * cmd_init.c: mirror init --store S [--json] [--quiet]
 */
#include <stdio.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "store/store.h"

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
		printf("created store %s (mirror schema %d)\n", o->store,
		    MIRROR_SCHEMA_VERSION);
	return rc;
}
