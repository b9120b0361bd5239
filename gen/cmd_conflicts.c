/*
 * cmd_conflicts.c: mirror conflicts (being built; see the open issue).
 */
#include "cli.h"

int
cmd_conflicts(const struct mirror_opts *o, mirror_error *err)
{
	return mirror_fail(err, MIRROR_EUSAGE, "%s: not implemented yet",
	    o->command);
}
