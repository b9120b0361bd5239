#include "json_out.h"

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
