/*
 * git_sig.h: who and when a mirror commit is by.
 *
 * The identity comes from --author "Name <email>", else from the
 * repository's OWN config (user.name, user.email); the user's global
 * and system git config are never read (see git_repo.h). The time is
 * the caller's (SOURCE_DATE_EPOCH when set), always in UTC, so that a
 * rebuild of the same store gives the same commit id.
 */
#ifndef MIRROR_GIT_SIG_H
#define MIRROR_GIT_SIG_H

#include <time.h>

#include <git2.h>

#include "util/error.h"

struct mgit_branch;             /* git/git_ref.h */

/*
 * Split author, "Name <email>", into *name and *email (trimmed; the
 * caller frees both). Returns 0, or -MIRROR_EUSAGE naming what is wrong:
 * no "<...>", an empty name or email, text after '>', a stray '<' or
 * '>', or a control character; *name and *email are then NULL.
 */
int mgit_parse_author(char **name, char **email, const char *author,
    mirror_error *err);

/*
 * Make the signature of a commit on br for time when (UTC): from author
 * when it is not NULL, else from the config of br's repository. Also
 * sets the repository's identity for the entry of br's reflog. Returns
 * 0 and *out (free with git_signature_free), or -MIRROR_EUSAGE (bad or
 * missing identity) or -MIRROR_EIO.
 */
int mgit_signature(git_signature **out, const struct mgit_branch *br,
    const char *author, time_t when, mirror_error *err);

/*
 * The author of a commit that holds one reviewer's decisions alone:
 * name (a --actor of `mirror conflicts`, as the store keeps it) at
 * committer's time, with an address that says it is no mailbox,
 * "<name as a slug>@reviewer.invalid" (RFC 2606's reserved .invalid),
 * so `git log --author=NAME` finds the decision while the committer
 * stays the identity that built it. Returns 0 and *out (free with
 * git_signature_free), or 1 with *out NULL when name cannot be a git
 * name (empty, or with '<', '>' or a control character): the
 * committer is then the author too.
 */
int mgit_reviewer(git_signature **out, const char *name,
    const git_signature *committer);

#endif
