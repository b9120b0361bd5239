/*
 * cmd_sweep.c: mirror sweep (being built; see the open issue).
 */
#include "cli.h"

int
cmd_sweep(const struct mirror_opts *o, mirror_error *err)
{
	return mirror_fail(err, MIRROR_EUSAGE, "%s: not implemented yet",
	    o->command);
}
