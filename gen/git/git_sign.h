/*
 * git_sign.h: SSH signatures of mirror commits, as git makes them with
 * gpg.format=ssh, so that 'git verify-commit' (with an allowed-signers
 * file) tells a commit of the publishing job from one made by hand.
 *
 * The signature is made by ssh-keygen(1) from the PATH:
 *   ssh-keygen -Y sign -n git -P '' -f KEY
 * over the commit object's bytes, as git does (the same signature), and
 * stored in the commit's "gpgsig" header. The bytes go to its stdin and
 * the signature comes from its stdout: no file on disk, so a killed
 * mirror leaves none behind. ssh-keygen runs with no shell and no
 * terminal (its own session; -P '': a key that needs a passphrase fails
 * instead of waiting for one), and for at most MIRROR_SIGN_TIMEOUT_MS
 * (default 30 s): past it its process group is killed, whatever it (or
 * an ssh-agent it asks) waits for.
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
 * not a regular file, or refused by ssh-keygen (its complaint quoted on
 * one line, control bytes made spaces), or -MIRROR_EIO when ssh-keygen
 * cannot be run, does not finish in time (the message names the key and
 * the bound), dies of a signal or gives no whole signature (the
 * armour, base64 lines, the END line and nothing after; an SSHSIG blob
 * of version 1 for the namespace git, its fields whole).
 */
int mgit_sign(strbuf *out, const char *key_path, const char *data,
    size_t len, mirror_error *err);

/*
 * Check that key_path can sign, by signing a fixed text: what
 * mirror build runs before it writes anything. Returns as mgit_sign.
 */
int mgit_sign_check(const char *key_path, mirror_error *err);

#endif
