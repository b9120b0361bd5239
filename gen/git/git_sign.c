/*
 * git_sign.c: sign a commit object with ssh-keygen -Y sign, as git does
 * for gpg.format=ssh (see git_sign.h).
 */
#define _GNU_SOURCE     /* POSIX_SPAWN_SETSID */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "git/git_sign.h"
#include "util/strbuf.h"

extern char **environ;

/* ssh-keygen's complaint, kept to this many bytes for the message. */
#define SIGN_ERR_MAX 512

/* Write len bytes of data to a new file path (mode 0600). 0 or -1. */
static int
write_new(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600);

	if (fd < 0)
		return -1;
	while (len > 0) {
		ssize_t w = write(fd, data, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return -1;
		}
		data += w;
		len -= (size_t)w;
	}
	return close(fd);
}

/* Append the whole file at path to out. 0, or -1 with errno set. */
static int
read_all(strbuf *out, const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return -1;
		}
		strbuf_add(out, buf, (size_t)n);
	}
	return close(fd);
}

/*
 * Run ssh-keygen -Y sign -n git -f key file, in a session of its own
 * with stdin and stdout on /dev/null and stderr kept (its first line
 * into complaint). Returns its exit status (0 signed), or -1 with errno
 * when it could not be started.
 */
static int
run_keygen(const char *key, const char *file, strbuf *complaint)
{
	/* posix_spawn takes char *const argv[]: writable copies. */
	char a0[] = "ssh-keygen", a1[] = "-Y", a2[] = "sign", a3[] = "-n",
	    a4[] = "git", a5[] = "-f";
	char *argv[] = { a0, a1, a2, a3, a4, a5, (char *)(uintptr_t)key,
	    (char *)(uintptr_t)file, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int pipefd[2], status, rc;
	char buf[256];
	pid_t pid;
	ssize_t n;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	posix_spawnattr_init(&attr);
	/* No controlling terminal: a passphrase prompt fails at once. */
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID);
	rc = posix_spawnp(&pid, "ssh-keygen", &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close(pipefd[1]);
	if (rc != 0) {
		close(pipefd[0]);
		errno = rc;
		return -1;
	}
	while ((n = read(pipefd[0], buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (complaint->len < SIGN_ERR_MAX)
			strbuf_add(complaint, buf, (size_t)n);
	}
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* The last line of ssh-keygen's stderr that says something, trimmed to
 * printable bytes (it may say "Signing file ..." first). */
static void
last_line(strbuf *out, const strbuf *complaint)
{
	const char *s = complaint->data, *best = NULL, *best_end = NULL;
	const char *line = s, *end = s + complaint->len;

	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *e = nl != NULL ? nl : end;

		if (e > line && strncmp(line, "Signing file", 12) != 0) {
			best = line;
			best_end = e;
		}
		line = e + 1;
	}
	if (best == NULL) {
		strbuf_puts(out, "no reason given");
		return;
	}
	for (; best < best_end; best++)
		strbuf_putc(out, (unsigned char)*best < 0x20 ? ' ' : *best);
}

int
mgit_sign(strbuf *out, const char *key_path, const char *data, size_t len,
    mirror_error *err)
{
	const char *tmp = getenv("TMPDIR");
	strbuf dirb, file, sig, complaint, why;
	char *dir;
	struct stat st;
	int rc, status;

	if (key_path == NULL || key_path[0] == '\0')
		return mirror_fail(err, MIRROR_EUSAGE, "--sign-key: no key "
		    "given");
	if (stat(key_path, &st) < 0)
		return mirror_fail(err, MIRROR_EINPUT, "--sign-key %s: %s",
		    key_path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return mirror_fail(err, MIRROR_EINPUT, "--sign-key %s: not a "
		    "regular file", key_path);
	strbuf_init(&dirb);
	strbuf_printf(&dirb, "%s/mirror-sign.XXXXXX", tmp != NULL &&
	    tmp[0] == '/' ? tmp : "/tmp");
	dir = dirb.data;
	if (mkdtemp(dir) == NULL) {
		rc = mirror_fail(err, MIRROR_EIO, "cannot make a scratch "
		    "directory for signing in %s: %s", dir, strerror(errno));
		strbuf_free(&dirb);
		return rc;
	}
	strbuf_init(&file);
	strbuf_init(&sig);
	strbuf_init(&complaint);
	strbuf_init(&why);
	strbuf_printf(&file, "%s/commit", dir);
	strbuf_printf(&sig, "%s/commit.sig", dir);
	if (write_new(file.data, data, len) < 0) {
		rc = mirror_fail(err, MIRROR_EIO, "cannot write %s: %s",
		    file.data, strerror(errno));
		goto out;
	}
	status = run_keygen(key_path, file.data, &complaint);
	if (status < 0) {
		rc = mirror_fail(err, MIRROR_EIO, "--sign-key: cannot run "
		    "ssh-keygen: %s (it comes with openssh-client)",
		    strerror(errno));
		goto out;
	}
	if (status != 0) {
		last_line(&why, &complaint);
		if (strstr(why.data, "passphrase") != NULL)
			rc = mirror_fail(err, MIRROR_EINPUT, "--sign-key %s: "
			    "the key needs a passphrase, which a build cannot "
			    "type (sign with a key that has none)", key_path);
		else
			rc = mirror_fail(err, MIRROR_EINPUT, "--sign-key %s: "
			    "ssh-keygen cannot sign with it: %s", key_path,
			    why.data);
		goto out;
	}
	if (read_all(out, sig.data) < 0) {
		rc = mirror_fail(err, MIRROR_EIO, "cannot read the signature "
		    "%s: %s", sig.data, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	unlink(sig.data);
	unlink(file.data);
	rmdir(dir);
	strbuf_free(&dirb);
	strbuf_free(&file);
	strbuf_free(&sig);
	strbuf_free(&complaint);
	strbuf_free(&why);
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
