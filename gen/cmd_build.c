/*
 * cmd_build.c: mirror build (being built; see the open issue).
 */
#include "cli.h"

int
cmd_build(const struct mirror_opts *o, mirror_error *err)
{
	return mirror_fail(err, MIRROR_EUSAGE, "%s: not implemented yet",
	    o->command);
}
