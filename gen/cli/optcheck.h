/*
 * optcheck.h: checks of option values that the command line and the
 * config file share, so both refuse the same values with the same words.
 *
 * Each returns 0, or -MIRROR_EUSAGE with err "--option: what is wrong"
 * (config.c turns that into "config FILE:LINE: key: what is wrong").
 * Other checks of this kind live beside the code that uses the value:
 * mgit_parse_author (git_sig.h), mgit_branch_refname (git_ref.h) and
 * theme_name_ok (theme.h).
 */
#ifndef MIRROR_OPTCHECK_H
#define MIRROR_OPTCHECK_H

#include "util/error.h"

/*
 * --base-url: an absolute http:// or https:// URL (scheme in any case)
 * with a host name (letters, digits, '.', '-', a port, an IPv6 literal)
 * and a path of URL characters: no blank, control or non-ASCII byte, no
 * quote, '<', '>', '\\', query or fragment (page paths are appended).
 */
int optcheck_base_url(const char *url, mirror_error *err);

/*
 * Free text mirror records (--actor, --notes, --reason: the store's
 * resolved_by, resolution and audit rows): no control character (C0
 * with newline and tab, DEL, C1) and nothing that is not UTF-8, which a
 * terminal or a one-line record would act on. opt names the option in
 * the error ("--actor", or "environment variable USER").
 */
int optcheck_text(const char *opt, const char *value, mirror_error *err);

#endif
