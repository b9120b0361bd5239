/*
 * git_sign.h: SSH signatures of mirror commits, as git makes them with
 * gpg.format=ssh, so that 'git verify-commit' (with an allowed-signers
 * file) tells a commit of the publishing job from one made by hand.
 *
 * The signature is made by ssh-keygen(1) from the PATH:
 *   ssh-keygen -Y sign -n git -f KEY FILE
 * over the commit object's bytes, exactly as git does, and stored in the
 * commit's "gpgsig" header. ssh-keygen runs with no shell, no terminal
 * (its own session, stdin from /dev/null: a key that needs a passphrase
 * fails instead of waiting for one) and a scratch directory of its own.
 * Ed25519 and RSA signatures are deterministic: the same commit signed
 * with the same key gives the same signature, so a rebuild still gives
 * the same commit id.
 */
#ifndef MIRROR_GIT_SIGN_H
#define MIRROR_GIT_SIGN_H

#include <stddef.h>

#include "util/error.h"
#include "util/strbuf.h"

/*
 * Sign len bytes of data with the private key at key_path and append
 * the armoured signature ("-----BEGIN SSH SIGNATURE-----" ...) to out.
 * Returns 0, or -MIRROR_EINPUT naming key_path when the key is missing,
 * not a regular file, or refused by ssh-keygen (its first line of
 * complaint is quoted), or -MIRROR_EIO when ssh-keygen cannot be run or
 * a scratch file cannot be written.
 */
int mgit_sign(strbuf *out, const char *key_path, const char *data,
    size_t len, mirror_error *err);

/*
 * Check that key_path can sign, by signing a fixed text: what
 * mirror build runs before it writes anything. Returns as mgit_sign.
 */
int mgit_sign_check(const char *key_path, mirror_error *err);

#endif
