/*
 * git_sign.c: sign a commit object with ssh-keygen -Y sign, as git does
 * for gpg.format=ssh (see git_sign.h).
 */
#define _GNU_SOURCE     /* POSIX_SPAWN_SETSID, pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "git/git_sign.h"
#include "sys/env.h"
#include "util/strbuf.h"

extern char **environ;

/* How long one ssh-keygen run may take by default, in milliseconds. */
#define SIGN_TIMEOUT_MS 30000
/* ssh-keygen's complaint, kept to this many bytes for the message. */
#define SIGN_ERR_MAX 768
/* Its standard output: an SSH signature is under 4 KiB (RSA-16384). */
#define SIGN_OUT_MAX 65536
/* After SIGKILL, how long to wait for the process to go. */
#define SIGN_REAP_MS 2000

/* One ssh-keygen run: what goes in, what comes out, how it ended. */
struct keygen_run {
	const char *data;      /* still to write to its stdin */
	size_t len;
	strbuf *out;           /* its stdout: the signature */
	strbuf *complaint;     /* its stderr, the first SIGN_ERR_MAX bytes */
	int fd[3];             /* our ends: stdin, stdout, stderr; -1 shut */
	pid_t pid;
	int status;            /* waitpid's */
	int timed_out;         /* killed at the deadline */
	int overflow;          /* stdout past SIGN_OUT_MAX: killed */
};

/* The monotonic clock in milliseconds. */
static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Close *fd if open and mark it shut. */
static void
shut(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * Start ssh-keygen -Y sign -n git -P '' -f key, reading the data on its
 * stdin and writing the signature on its stdout (no file on disk), in a
 * session of its own (no controlling terminal; its process group is
 * killed whole at the deadline), with a default SIGPIPE and no blocked
 * signal. -P '': a key with a passphrase fails at once, instead of
 * ssh-keygen reading one from the data on stdin. Returns 0 with r->pid
 * and r->fd[] (non-blocking), or -1 with errno.
 */
static int
spawn_keygen(struct keygen_run *r, const char *key)
{
	/* posix_spawn takes char *const argv[]: writable copies. */
	char a0[] = "ssh-keygen", a1[] = "-Y", a2[] = "sign", a3[] = "-n",
	    a4[] = "git", a5[] = "-P", a6[] = "", a7[] = "-f";
	char *argv[] = { a0, a1, a2, a3, a4, a5, a6, a7,
	    (char *)(uintptr_t)key, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int p[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } }, rc = 0, i;
	sigset_t none, pipe_set;

	for (i = 0; i < 3 && rc == 0; i++)
		if (pipe2(p[i], O_CLOEXEC) < 0)
			rc = errno;
	if (rc == 0) {
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, p[0][0], 0);
		posix_spawn_file_actions_adddup2(&fa, p[1][1], 1);
		posix_spawn_file_actions_adddup2(&fa, p[2][1], 2);
		posix_spawnattr_init(&attr);
		sigemptyset(&none);
		sigemptyset(&pipe_set);
		sigaddset(&pipe_set, SIGPIPE);
		posix_spawnattr_setsigmask(&attr, &none);
		posix_spawnattr_setsigdefault(&attr, &pipe_set);
		posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID |
		    POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
		rc = posix_spawnp(&r->pid, "ssh-keygen", &fa, &attr, argv,
		    environ);
		posix_spawn_file_actions_destroy(&fa);
		posix_spawnattr_destroy(&attr);
	}
	/* Keep our ends (its stdin's write end, the others' read ends). */
	r->fd[0] = p[0][1];
	r->fd[1] = p[1][0];
	r->fd[2] = p[2][0];
	shut(&p[0][0]);
	shut(&p[1][1]);
	shut(&p[2][1]);
	for (i = 0; i < 3; i++) {
		if (rc != 0)
			shut(&r->fd[i]);
		else if (r->fd[i] >= 0)
			fcntl(r->fd[i], F_SETFL, O_NONBLOCK);
	}
	if (rc != 0) {
		errno = rc;
		return -1;
	}
	return 0;
}

/* Write what r->fd[0] takes of the data; at the end (or when ssh-keygen
 * stopped reading: EPIPE, SIGPIPE being blocked) close its stdin. */
static void
feed(struct keygen_run *r)
{
	while (r->len > 0) {
		ssize_t w = write(r->fd[0], r->data, r->len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return;
		if (w <= 0)
			break;
		r->data += w;
		r->len -= (size_t)w;
	}
	shut(&r->fd[0]);
}

/* Read what *fd has into sb (kept up to max bytes, the rest dropped);
 * close it at its end. Returns 1 when sb went past max, else 0. */
static int
drain(int *fd, strbuf *sb, size_t max)
{
	char buf[4096];
	ssize_t n;
	int over = 0;

	for (;;) {
		n = read(*fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return over;
		if (n <= 0)
			break;
		if (sb->len + (size_t)n > max) {
			n = (ssize_t)(max - sb->len);
			over = 1;
		}
		strbuf_add(sb, buf, (size_t)n);
	}
	shut(fd);
	return over;
}

/*
 * Move the data through ssh-keygen's three pipes until it has closed
 * them all, or the deadline passes, or its stdout overflows. Returns 0
 * when all are closed, else 1 (r->timed_out or r->overflow set).
 */
static int
pump(struct keygen_run *r, long long deadline)
{
	struct pollfd pf[3];

	while (r->fd[0] >= 0 || r->fd[1] >= 0 || r->fd[2] >= 0) {
		long long left = deadline - now_ms();
		int i, n;

		if (left <= 0) {
			r->timed_out = 1;
			return 1;
		}
		for (i = 0; i < 3; i++) {
			pf[i].fd = r->fd[i];
			pf[i].events = i == 0 ? POLLOUT : POLLIN;
			pf[i].revents = 0;
		}
		n = poll(pf, 3, left > 1000 ? 1000 : (int)left);
		if (n < 0 && errno != EINTR)
			return r->timed_out = 1;
		if (n <= 0)
			continue;
		if (pf[0].revents != 0)
			feed(r);
		if (pf[1].revents != 0 &&
		    drain(&r->fd[1], r->out, SIGN_OUT_MAX)) {
			r->overflow = 1;
			return 1;
		}
		if (pf[2].revents != 0)
			(void)drain(&r->fd[2], r->complaint, SIGN_ERR_MAX);
	}
	return 0;
}

/* Wait for pid until deadline (ms of now_ms), looking after 0.1 ms,
 * then twice as long each time up to 50 ms (it has usually closed its
 * pipes as it exits). Returns 1 when it has gone (*status set; left as
 * it was if someone else reaped it), else 0. */
static int
wait_until(pid_t pid, int *status, long long deadline)
{
	struct timespec tick = { 0, 100000 };

	for (;;) {
		pid_t got = waitpid(pid, status, WNOHANG);

		if (got == pid || (got < 0 && errno != EINTR))
			return 1;
		if (now_ms() >= deadline)
			return 0;
		nanosleep(&tick, NULL);
		if (tick.tv_nsec < 25 * 1000000)
			tick.tv_nsec *= 2;
	}
}

/*
 * Run ssh-keygen over r->data for at most timeout_ms: past it (or when
 * its output overflows) its process group is killed, r->timed_out (or
 * r->overflow) set. SIGPIPE is blocked meanwhile, and one our write
 * raised taken, so that an ssh-keygen that exits without reading its
 * stdin does not kill mirror. Returns 0 with r->status, or -1 with
 * errno when it could not be started.
 */
static int
run_keygen(struct keygen_run *r, const char *key, long timeout_ms)
{
	long long deadline = now_ms() + timeout_ms;
	struct timespec zero = { 0, 0 };
	sigset_t pipe_set, old, pending;
	int had_pipe, i, e;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigpending(&pending);
	had_pipe = sigismember(&pending, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	if (spawn_keygen(r, key) < 0) {
		e = errno;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		errno = e;
		return -1;
	}
	if (pump(r, deadline) != 0 ||
	    !wait_until(r->pid, &r->status, deadline)) {
		if (!r->overflow)
			r->timed_out = 1;
		kill(-r->pid, SIGKILL);
		if (!wait_until(r->pid, &r->status, now_ms() + SIGN_REAP_MS))
			r->status = SIGKILL;   /* as waitpid would say it */
	}
	for (i = 0; i < 3; i++)
		shut(&r->fd[i]);
	sigpending(&pending);
	if (!had_pipe && sigismember(&pending, SIGPIPE))
		(void)sigtimedwait(&pipe_set, NULL, &zero);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return 0;
}

/* 1 when c is a byte a line of ssh-keygen's is trimmed of: blanks and
 * control bytes (the carriage return it ends lines with), the '@' frame
 * of its warnings. */
static int
trim_byte(char c)
{
	return (unsigned char)c <= ' ' || c == 0x7f || c == '@';
}

/*
 * ssh-keygen's complaint as one line into out: each of its lines that
 * says something (not "Signing ...", not the frame of "@"), trimmed,
 * joined by a space, each control byte made a space; " ..." when the
 * complaint was cut; "no reason given" when it said nothing.
 */
static void
reason(strbuf *out, const strbuf *c)
{
	const char *line = c->len > 0 ? c->data : "", *end = line + c->len;

	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *s = line, *e = nl != NULL ? nl : end;

		line = e + 1;
		while (s < e && trim_byte(*s))
			s++;
		while (e > s && trim_byte(e[-1]))
			e--;
		if (s == e || (e - s >= 8 && strncmp(s, "Signing ", 8) == 0))
			continue;
		if (out->len > 0)
			strbuf_putc(out, ' ');
		for (; s < e; s++)
			strbuf_putc(out, (unsigned char)*s < 0x20 ||
			    *s == 0x7f ? ' ' : *s);
	}
	if (out->len == 0)
		strbuf_puts(out, "no reason given");
	else if (c->len >= SIGN_ERR_MAX)
		strbuf_puts(out, " ...");
}

/* The armour ssh-keygen -Y sign frames its signature with. */
static const char sig_head[] = "-----BEGIN SSH SIGNATURE-----\n";
static const char sig_tail[] = "-----END SSH SIGNATURE-----\n";
/* What the blob inside starts with: the magic, then version 1. */
static const unsigned char sig_magic[] = { 'S', 'S', 'H', 'S', 'I', 'G',
    0, 0, 0, 1 };

/* The value of base64 digit c (RFC 4648, no URL alphabet), or -1. */
static int
b64_digit(char c)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c != '\0' ? strchr(set, c) : NULL;

	return p != NULL ? (int)(p - set) : -1;
}

/*
 * Decode the base64 body [s, e) of an armoured signature, lines ending in
 * '\n', into blob. Returns NULL, or what is wrong with it: an empty
 * line, a byte that is not a base64 digit, '=' anywhere but at the end,
 * a length that is not a whole number of quanta.
 */
static const char *
b64_body(strbuf *blob, const char *s, const char *e)
{
	const char *start = s;
	unsigned long acc = 0;
	size_t n = 0, pad = 0;
	int d;

	for (; s < e; s++) {
		if (*s == '\n') {
			if (s == start || s[-1] == '\n')
				return "an empty line in its body";
			continue;
		}
		if (*s == '=') {
			if (n % 4 < 2 || pad == 2)
				return "'=' inside its base64 body";
			pad++, n++;
			continue;
		}
		if ((d = b64_digit(*s)) < 0)
			return "a byte that is not base64 in its body";
		if (pad > 0)
			return "'=' inside its base64 body";
		acc = acc << 6 | (unsigned long)d;
		if (++n % 4 == 0) {
			strbuf_putc(blob, (char)(acc >> 16 & 0xff));
			strbuf_putc(blob, (char)(acc >> 8 & 0xff));
			strbuf_putc(blob, (char)(acc & 0xff));
		}
	}
	if (n % 4 != 0)
		return "its base64 body is cut short";
	if (pad > 0) {      /* the last quantum: 3 - pad bytes */
		acc <<= 6 * pad;
		strbuf_putc(blob, (char)(acc >> 16 & 0xff));
		if (pad == 1)
			strbuf_putc(blob, (char)(acc >> 8 & 0xff));
	}
	return NULL;
}

/* The SSH string (a 32-bit big-endian length, then the bytes) at *p of
 * [*p, e): its length, *str at its bytes and *p past them; or -1 when
 * it passes e. */
static long
ssh_string(const unsigned char **str, const unsigned char **p,
    const unsigned char *e)
{
	uint32_t len;

	if (e - *p < 4)
		return -1;
	len = (uint32_t)(*p)[0] << 24 | (uint32_t)(*p)[1] << 16 |
	    (uint32_t)(*p)[2] << 8 | (uint32_t)(*p)[3];
	if ((uint64_t)(e - *p - 4) < len)
		return -1;
	*str = *p + 4;
	*p += 4 + (size_t)len;
	return (long)len;
}

/*
 * Check the fields of an SSHSIG blob past its magic and version (the
 * PROTOCOL.sshsig of OpenSSH): the public key, the namespace, which
 * must be "git", the reserved field, the hash algorithm and the
 * signature, and nothing after. Returns NULL, or what is wrong.
 */
static const char *
sshsig_fields(const strbuf *blob)
{
	const unsigned char *p = (const unsigned char *)blob->data +
	    sizeof(sig_magic), *e = (const unsigned char *)blob->data +
	    blob->len, *str;
	long len;

	for (int i = 0; i < 5; i++) {
		if ((len = ssh_string(&str, &p, e)) < 0)
			return "its SSHSIG blob is cut short";
		if (i == 1 && (len != 3 || memcmp(str, "git", 3) != 0))
			return "it is not made for the namespace 'git'";
		if (len == 0 && i != 2)
			return "its SSHSIG blob has an empty field";
	}
	if (p != e)
		return "more after the signature in its SSHSIG blob";
	return NULL;
}

/*
 * Check that sig is one whole SSH signature as ssh-keygen -Y sign
 * prints it: the BEGIN line, base64 lines, the END line and nothing
 * after it, the decoded blob starting with "SSHSIG" and version 1, its
 * fields whole (sshsig_fields). Returns NULL, or what is wrong, for the
 * error line.
 */
static const char *
sig_whole(const strbuf *sig)
{
	const size_t hl = sizeof(sig_head) - 1, tl = sizeof(sig_tail) - 1;
	const char *s = sig->data, *why, *tail;
	strbuf blob;

	if (sig->len < hl || memcmp(s, sig_head, hl) != 0)
		return "no '-----BEGIN SSH SIGNATURE-----' line first";
	tail = memmem(s + hl, sig->len - hl, sig_tail, tl);
	if (tail == NULL || (tail > s + hl && tail[-1] != '\n'))
		return "no '-----END SSH SIGNATURE-----' line";
	if (tail + tl != s + sig->len)
		return "more after its '-----END SSH SIGNATURE-----' line";
	if (tail == s + hl)
		return "an empty body";
	strbuf_init(&blob);
	why = b64_body(&blob, s + hl, tail);
	if (why == NULL && (blob.len < sizeof(sig_magic) ||
	    memcmp(blob.data, sig_magic, sizeof(sig_magic)) != 0))
		why = "its body is not an SSHSIG blob of version 1";
	if (why == NULL)
		why = sshsig_fields(&blob);
	strbuf_free(&blob);
	return why;
}

/*
 * What a finished run r of ssh-keygen over key_path gave: its signature
 * appended to out and 0, or the error: -MIRROR_EIO when it was killed
 * at the bound of timeout_ms, wrote too much, died of a signal or gave
 * no signature; -MIRROR_EINPUT when it refused the key (its reason
 * quoted).
 */
static int
judge(strbuf *out, const struct keygen_run *r, const char *key_path,
    long timeout_ms, mirror_error *err)
{
	const char *bad;
	strbuf why;
	int rc;

	if (r->timed_out)
		return mirror_fail(err, MIRROR_EIO, "--sign-key %s: ssh-keygen "
		    "did not finish within %ld ms (MIRROR_SIGN_TIMEOUT_MS), "
		    "killed it (an ssh-agent that does not answer?)", key_path,
		    timeout_ms);
	if (r->overflow)
		return mirror_fail(err, MIRROR_EIO, "--sign-key %s: ssh-keygen "
		    "wrote more than %d bytes, not a signature", key_path,
		    SIGN_OUT_MAX);
	if (WIFSIGNALED(r->status))
		return mirror_fail(err, MIRROR_EIO, "--sign-key %s: ssh-keygen "
		    "died of signal %d", key_path, WTERMSIG(r->status));
	if (WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0) {
		if (r->out->len == 0)
			return mirror_fail(err, MIRROR_EIO, "--sign-key %s: "
			    "ssh-keygen exited 0 without a signature",
			    key_path);
		if ((bad = sig_whole(r->out)) != NULL)
			return mirror_fail(err, MIRROR_EIO, "--sign-key %s: "
			    "ssh-keygen exited 0 without a whole SSH "
			    "signature: %s", key_path, bad);
		strbuf_add(out, r->out->data, r->out->len);
		return 0;
	}
	strbuf_init(&why);
	reason(&why, r->complaint);
	if (strstr(why.data, "passphrase") != NULL)
		rc = mirror_fail(err, MIRROR_EINPUT, "--sign-key %s: the key "
		    "needs a passphrase, which a build cannot type (sign with "
		    "a key that has none)", key_path);
	else
		rc = mirror_fail(err, MIRROR_EINPUT, "--sign-key %s: "
		    "ssh-keygen cannot sign with it: %s", key_path, why.data);
	strbuf_free(&why);
	return rc;
}

int
mgit_sign(strbuf *out, const char *key_path, const char *data, size_t len,
    mirror_error *err)
{
	long timeout = env_long("MIRROR_SIGN_TIMEOUT_MS", SIGN_TIMEOUT_MS);
	strbuf sig, complaint;
	struct keygen_run r;
	struct stat st;
	int rc;

	if (key_path == NULL || key_path[0] == '\0')
		return mirror_fail(err, MIRROR_EUSAGE, "--sign-key: no key "
		    "given");
	if (stat(key_path, &st) < 0)
		return mirror_fail(err, MIRROR_EINPUT, "--sign-key %s: %s",
		    key_path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return mirror_fail(err, MIRROR_EINPUT, "--sign-key %s: not a "
		    "regular file", key_path);
	strbuf_init(&sig);
	strbuf_init(&complaint);
	memset(&r, 0, sizeof(r));
	r.data = data;
	r.len = len;
	r.out = &sig;
	r.complaint = &complaint;
	r.status = 255 << 8;    /* exit 255, until waitpid says otherwise */
	if (run_keygen(&r, key_path, timeout) < 0)
		rc = mirror_fail(err, MIRROR_EIO, "--sign-key: cannot run "
		    "ssh-keygen: %s (it comes with openssh-client)",
		    strerror(errno));
	else
		rc = judge(out, &r, key_path, timeout, err);
	strbuf_free(&sig);
	strbuf_free(&complaint);
	return rc;
}

int
mgit_sign_check(const char *key_path, mirror_error *err)
{
	static const char probe[] = "mirror: can this key sign?\n";
	strbuf sig;
	int rc;

	strbuf_init(&sig);
	rc = mgit_sign(&sig, key_path, probe, sizeof(probe) - 1, err);
	strbuf_free(&sig);
	return rc;
}
