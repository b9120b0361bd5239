#!/usr/bin/env python3
"""crash_trials.py: kill 'mirror build --repo' with SIGKILL at moments
spread over its whole run and check what every kill leaves behind.

    crash_trials.py MIRROR BASE WORK [--seed N] [--max-trials N]
                    [--min-trials N] [--budget SECONDS]

BASE holds the starting point of every trial: store.db (version B of the
facts, not swept yet), site/ (the site mirror built from version A) and
repo.git (a bare repository whose branch 'mirror' holds version A's
commit). Every trial copies BASE to WORK/trial and runs

    mirror build --store store.db --out site --repo repo.git

there and kills it. First once or twice at each event a build meets,
the moment it is seen (polled every 0.2 ms): the store's journal appears
(inside the sweep's transaction), the staging directory appears
(render), a pack is being written (history commit), the branch has
moved (site/'s journal is being written, DIR not touched yet), the first
file the new site drops is gone from site/ (applying the journal).
Then after delays spread over [0, 1.1 * T] (T: the slower of two
undisturbed runs) by golden-ratio steps from an offset drawn from
random.Random(seed), until the time budget is spent: any prefix of that
sequence is spread evenly over the run.

After each kill, checked against one undisturbed reference run:
  - site/ is exactly A's tree or exactly B's (file list, modes, bytes),
    or a complete journal is beside it (a kill while it was applied);
  - with a complete journal, on a copy of what the kill left, a
    'build --no-sweep' (no --repo) whose stamp check finds nothing to
    render rolls the journal forward first and so leaves B's tree;
  - the repository passes 'git fsck --strict' and the branch points at
    A's commit or at the reference run's B commit;
  - the store passes PRAGMA integrity_check, and conflicts,
    conflict_members and sweep_runs equal either their state before the
    build or after the reference run (all of the sweep or none of it);
then the build runs again undisturbed (its roll-forward first): it
exits 0, site/ is B's tree, the branch's tree is B's, the conflicts are
the reference's, and no staging directory, journal or lock file is left
beside site/.

Then the killed WRITER (--writer-trials N): a writer in rollback-journal
mode (tests/tools/fact_writer.py --kill-in-transaction) is SIGKILLed inside
BEGIN IMMEDIATE after a number of operations drawn as above from
[1, 1200], on a copy of BASE's store, leaving a hot journal whenever its
pages reached the file. On a fresh copy of what each kill left, every
read-only command (health, conflicts list, build --no-sweep) and then a
build with its sweep run with no manual step: each must exit 0, leave no
journal, and find the old store (byte-identical to BASE's: all of the
killed transaction or none of it, and a transaction that never committed
must be none); the build's store must pass integrity_check. Counted under
"writer": trials, kills, hot journals, outcomes old/new/other, runs that
failed (each would have needed a manual step).

Prints one JSON object on stdout: counts of trials, of kills per phase
and of every kind of violation, with the first few violations spelled
out. The caller (tests/e2e/t_crash.sh) asserts on it. Exit 0 when the
trials ran (whatever they found), 2 when the reference run failed.
"""
import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import time

BRANCH = "refs/heads/mirror"
AUTHOR = "Crash Test <crash@example.org>"


def tree_files(top):
    """Every entry under top, sorted: (path, "d" for a directory, the
    sha256 of a regular file's bytes with its exec bit, or "?" and the
    mode of anything else, so a symlink never passes as a file)."""
    entries = []
    for dirpath, dirnames, filenames in os.walk(top):
        for name in dirnames + filenames:
            entries.append(os.path.relpath(os.path.join(dirpath, name), top))
    out = []
    for rel in sorted(entries):
        st = os.lstat(os.path.join(top, rel))
        if stat.S_ISDIR(st.st_mode):
            out.append((rel, "d"))
        elif stat.S_ISREG(st.st_mode):
            with open(os.path.join(top, rel), "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            out.append((rel, "f %d %s" % (1 if st.st_mode & 0o111 else 0,
                                          digest)))
        else:
            out.append((rel, "? %o" % st.st_mode))
    return out


def tree_hash(top):
    """A hash of every entry under top: path, kind, exec bit, bytes.

    Returns (hash, number of regular files)."""
    h = hashlib.sha256()
    files = 0
    for rel, kind in tree_files(top):
        files += kind.startswith("f ")
        h.update(b"%s %s\0" % (kind.encode(), rel.encode()))
    return h.hexdigest(), files


def store_state(db):
    """(integrity_check result, hash of conflicts and conflict_members,
    hash of sweep_runs, number of sweep runs).

    sweep_runs' duration_ms is the only column that depends on the
    machine's speed; it is left out."""
    con = sqlite3.connect(db, timeout=30)
    try:
        integrity = con.execute("PRAGMA integrity_check").fetchone()[0]
        hashes = []
        for qs in (("SELECT * FROM conflicts ORDER BY id",
                    "SELECT * FROM conflict_members ORDER BY 1, 2, 3"),
                   ("SELECT id, started_at, finished_at, rules_version, "
                    "facts_scanned, conflicts_opened, members_added, "
                    "conflicts_closed, open_after FROM sweep_runs "
                    "ORDER BY id",)):
            h = hashlib.sha256()
            for q in qs:
                for row in con.execute(q):
                    h.update(repr(row).encode())
                h.update(b"|")
            hashes.append(h.hexdigest())
        runs = con.execute("SELECT count(*) FROM sweep_runs").fetchone()[0]
    finally:
        con.close()
    return integrity, hashes[0], hashes[1], runs


def git(repo, *args):
    p = subprocess.run(["git", "-C", repo] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    return p.returncode, p.stdout.strip(), p.stderr.strip()


def tip(repo):
    rc, out, _ = git(repo, "rev-parse", "--verify", "-q", BRANCH)
    return out if rc == 0 else None


def tip_tree(repo):
    rc, out, _ = git(repo, "rev-parse", "--verify", "-q", BRANCH + "^{tree}")
    return out if rc == 0 else None


def stage_dirs(parent):
    """Staging directories mirror left beside site/."""
    return sorted(n for n in os.listdir(parent)
                  if n.startswith(".site.mirror-stage-"))


JOURNAL = ".site.mirror-journal"


def journal_state(parent):
    """None when site/ has no journal beside it, else "whole" when it
    ends with its end line, "part" when it does not."""
    try:
        with open(os.path.join(parent, JOURNAL), "rb") as f:
            text = f.read()
    except FileNotFoundError:
        return None
    return "whole" if text.endswith(b"\nend\n") else "part"


def leftovers(parent):
    """Anything mirror keeps beside site/ while building: staging
    directories, the journal, the lock file."""
    return sorted(n for n in os.listdir(parent)
                  if n.startswith(".site.mirror-"))


def ref_locks(repo):
    """Lock files libgit2 or git leave when killed holding them."""
    found = []
    for dirpath, _, filenames in os.walk(repo):
        found += [os.path.relpath(os.path.join(dirpath, n), repo)
                  for n in filenames if n.endswith(".lock")]
    return sorted(found)


def build_cmd(mirror):
    return [mirror, "build", "--store", "store.db", "--out", "site",
            "--repo", "repo.git", "--author", AUTHOR, "--quiet"]


def fresh_copy(base, work):
    if os.path.exists(work):
        shutil.rmtree(work)
    # cp -a keeps the hard links between files of site/ as they are.
    subprocess.run(["cp", "-a", base, work], check=True)


def run_clean(mirror, cwd):
    t0 = time.monotonic()
    p = subprocess.run(build_cmd(mirror), cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, time.monotonic() - t0, p.stderr.strip()


def classify(st, ref):
    """The phase a kill landed in, from what it left behind."""
    if st["exited"]:
        return "finished"
    if st["runs"] == ref["runs_before"]:
        return "sweep"
    if st["journal"] is not None:
        # In place: DIR untouched yet, or being updated.
        return "journal" if st["site"] == ref["site_a"] else "apply"
    if st["site"] == ref["site_b"]:
        return "cleanup" if st["stages"] else "done"
    if st["tip"] == ref["commit_b"]:
        return "journal"        # the branch moved, the journal not yet
    if not st["stages"]:
        return "read"
    # The stage holds the changed files at their paths below its site/:
    # all of them staged means the render is over and the history
    # commit runs.
    stage = os.path.join(st["dir"], st["stages"][0], "site")
    n = sum(len(files) for _, _, files in os.walk(stage))
    return "commit" if n >= ref["changed"] else "render"


CHECKS = ("site", "rollforward", "fsck", "branch", "integrity", "store",
          "stale_lock", "rebuild_exit", "rebuild_site", "rebuild_tree",
          "rebuild_store", "stale_stage", "fsck_after")


def make_triggers(ref):
    """Events a kill can wait for, each a predicate on the trial dir and
    the inode its site/ had at the start, in the order a build meets
    them."""
    def sweep(d, _ino):
        # The store is in rollback-journal mode: the journal appears
        # when the sweep's transaction first writes a page.
        return os.path.exists(os.path.join(d, "store.db-journal"))

    def render(d, _ino):
        return bool(stage_dirs(d))

    def commit(d, _ino):
        # From 100 new objects on, history writes one pack, named
        # tmp_pack_* while it is being written.
        pack = os.path.join(d, "repo.git", "objects", "pack")
        return any(n.startswith("tmp_pack") for n in os.listdir(pack))

    def journal(d, _ino):
        # The commit is made: the journal is being written (or is in
        # place, DIR not touched yet).
        if os.path.exists(os.path.join(d, JOURNAL)):
            return True
        try:
            with open(os.path.join(d, "repo.git", BRANCH)) as f:
                return f.read().strip() != ref["commit_a"]
        except OSError:
            return False

    def apply(d, _ino):
        # Removals come first: the first path B lacks goes first.
        return not os.path.exists(os.path.join(d, "site",
                                               ref["first_gone"]))

    return {"sweep": sweep, "render": render, "commit": commit,
            "journal": journal, "apply": apply}


def wait_for(p, pred, d, ino, limit):
    """Poll pred(d, ino) until it holds, p exits or limit seconds pass."""
    end = time.monotonic() + limit
    while p.poll() is None and time.monotonic() < end:
        if pred(d, ino):
            return
        time.sleep(0.0002)


def one_trial(mirror, trial, ref, T, kind, what, triggers):
    """Run one build in trial, kill it (after what seconds, or when the
    event what is seen), check what it left, rebuild and check again.
    Returns (phase, [(check, text)...], [lock files the kill left],
    the journal the kill left: None, "whole" or "part")."""
    problems = []
    repo = os.path.join(trial, "repo.git")
    ino = os.stat(os.path.join(trial, "site")).st_ino
    p = subprocess.Popen(build_cmd(mirror), cwd=trial,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if kind == "timed":
        time.sleep(what)
    else:
        wait_for(p, triggers[what], trial, ino, 5 + 4 * T)
    exited = p.poll() is not None
    if not exited:
        os.kill(p.pid, signal.SIGKILL)
    p.wait()

    st = {"dir": trial, "exited": exited}
    st["site"], _ = tree_hash(os.path.join(trial, "site"))
    st["stages"] = stage_dirs(trial)
    st["journal"] = journal_state(trial)
    st["tip"] = tip(repo)
    integrity, c, r, st["runs"] = store_state(os.path.join(trial,
                                                            "store.db"))
    st["store"] = (c, r)
    phase = classify(st, ref)
    if (st["site"] not in (ref["site_a"], ref["site_b"]) and
            st["journal"] != "whole"):
        problems.append(("site", "site/ is neither A's tree nor B's, and "
                         "no complete journal is beside it (journal: %s)"
                         % st["journal"]))
    if st["journal"] == "whole":
        problems += roll_forward(mirror, trial, ref)
    rc, out, err = git(repo, "fsck", "--strict", "--no-dangling")
    if rc != 0:
        problems.append(("fsck", "git fsck: %s %s" % (out, err)))
    if st["tip"] not in (ref["commit_a"], ref["commit_b"]):
        problems.append(("branch", "branch at %s" % st["tip"]))
    if integrity != "ok":
        problems.append(("integrity", integrity))
    if st["store"] not in (ref["store_before"], ref["store_after"]):
        problems.append(("store", "conflict tables are neither before "
                         "nor after the sweep (%d sweep runs)" % st["runs"]))
    locks = ref_locks(repo)
    if locks:
        # A kill inside libgit2's ref update leaves its .lock file, and
        # git's rule is mirror's: a lock file is never removed behind the
        # user's back. The next build must refuse, naming it; then the
        # user removes it.
        rc, _, err = run_clean(mirror, trial)
        if rc != 3 or "\n" in err or not all(lk in err for lk in locks):
            problems.append(("stale_lock", "%s: the next build said: "
                             "exit %d: %s" % (" ".join(locks), rc, err)))
        for lk in locks:
            os.unlink(os.path.join(repo, lk))

    rc, _, err = run_clean(mirror, trial)
    if rc != 0:
        problems.append(("rebuild_exit", "exit %d: %s" % (rc, err)))
        return phase, problems, locks, st["journal"]
    if tree_hash(os.path.join(trial, "site"))[0] != ref["site_b"]:
        problems.append(("rebuild_site", "site/ is not B's tree"))
    if tip_tree(repo) != ref["tree_b"]:
        problems.append(("rebuild_tree", "the branch's tree is not B's"))
    left = leftovers(trial)
    if left:
        problems.append(("stale_stage", " ".join(left)))
    # A second sweep of the same facts adds a sweep_runs row and nothing
    # else: compare the conflicts, not the runs.
    integrity, c, _, runs = store_state(os.path.join(trial, "store.db"))
    if integrity != "ok" or c != ref["store_after"][0]:
        problems.append(("rebuild_store", "integrity %s; the conflicts "
                         "differ from the reference run's (%d sweep runs)"
                         % (integrity, runs)))
    rc, out, err = git(repo, "fsck", "--strict", "--no-dangling")
    if rc != 0:
        problems.append(("fsck_after", "git fsck: %s %s" % (out, err)))
    return phase, problems, locks, st["journal"]


def roll_forward(mirror, trial, ref):
    """On a copy of trial, a build that renders nothing (no repository;
    once the journal is rolled forward DIR holds B's stamp, which says
    the store was swept, so the build neither sweeps nor renders) must
    leave B's tree. (A --no-sweep build renders there: its stamp says
    "swept": false, as a --force --no-sweep build's would.) Returns the
    problems found."""
    copy = trial + "-rollforward"
    fresh_copy(trial, copy)
    p = subprocess.run([mirror, "build", "--store", "store.db", "--out",
                        "site", "--json"], cwd=copy,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    try:
        rendered = json.loads(p.stdout).get("rendered")
    except ValueError:
        rendered = None
    site, _ = tree_hash(os.path.join(copy, "site"))
    shutil.rmtree(copy)
    if p.returncode != 0 or rendered is not False or site != ref["site_b"]:
        return [("rollforward", "the journal's roll-forward: exit %d, "
                 "rendered %s, site/ %s B's tree: %s" % (
                     p.returncode, rendered,
                     "is" if site == ref["site_b"] else "is not",
                     p.stderr.strip()))]
    return []


def changes(a, b):
    """(files of B that A lacks or holds other bytes of, the first path
    of a file of A that B lacks) for the trees a and b."""
    fa = dict(e for e in tree_files(a) if e[1].startswith("f "))
    fb = dict(e for e in tree_files(b) if e[1].startswith("f "))
    changed = sum(1 for p, k in fb.items() if fa.get(p) != k and
                  p != ".mirror-output")
    gone = sorted(p for p in fa if p not in fb)
    return changed, gone[0] if gone else None


def snapshot(ref, d, site, store):
    """Record in ref what a build left in d: site_<site>, files_<site>,
    commit_<site>, tree_<site>; store_<store> (the conflict and run
    hashes) and runs_<store>."""
    ref["site_" + site], ref["files_" + site] = \
        tree_hash(os.path.join(d, "site"))
    ref["commit_" + site] = tip(os.path.join(d, "repo.git"))
    ref["tree_" + site] = tip_tree(os.path.join(d, "repo.git"))
    _, c, r, ref["runs_" + store] = store_state(os.path.join(d, "store.db"))
    ref["store_" + store] = (c, r)


WRITER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "fact_writer.py")
READ_ONLY = (["health"], ["conflicts", "list"],
             ["build", "--no-sweep", "--out", "ro-site"])


def file_sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def writer_outcome(db, old_sha):
    """'old' when db is byte-identical to the store before the writer,
    'new' when it holds the killed writer's rows, else 'other'."""
    if file_sha(db) == old_sha:
        return "old"
    con = sqlite3.connect(db, timeout=30)
    try:
        n = con.execute("SELECT count(*) FROM memories WHERE "
                        "project = 'crash'").fetchone()[0]
    finally:
        con.close()
    return "new" if n > 0 else "other"


def restore(killed, d):
    """d/store.db (and its journal) as the kill left them."""
    for suffix in ("", "-journal"):
        dst = os.path.join(d, "store.db" + suffix)
        if os.path.exists(dst):
            os.unlink(dst)
        src = os.path.join(killed, "store.db" + suffix)
        if os.path.exists(src):
            shutil.copy2(src, dst)


def writer_trials(mirror, base, work, n, seed):
    """Kill n writers mid-transaction; run every read-only command and a
    build on what each left. Returns the "writer" summary."""
    d = os.path.join(work, "writer")
    killed = os.path.join(work, "killed")
    old_sha = file_sha(os.path.join(base, "store.db"))
    out = {"trials": 0, "kills": 0, "hot_journals": 0, "runs": 0,
           "outcomes": {"old": 0, "new": 0, "other": 0},
           "failed_runs": 0, "journal_left": 0, "build_integrity": 0,
           "details": []}
    offset = random.Random(seed).random()
    for i in range(n):
        ops = 1 + int(1199 * ((offset + i * 0.6180339887) % 1.0))
        fresh_copy(base, d)
        p = subprocess.run([sys.executable, WRITER, "store.db",
                            os.path.join(d, "no-stop"),
                            "--kill-in-transaction", "--ops", str(ops)],
                           cwd=d, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        out["trials"] += 1
        if p.returncode == -signal.SIGKILL:
            out["kills"] += 1
        elif len(out["details"]) < 12:
            out["details"].append("trial %d: writer exit %d: %s"
                                  % (i, p.returncode, p.stderr[-200:]))
        journal = os.path.join(d, "store.db-journal")
        if os.path.exists(journal) and os.path.getsize(journal) > 0:
            out["hot_journals"] += 1
        if os.path.exists(killed):
            shutil.rmtree(killed)
        os.makedirs(killed)
        restore(d, killed)
        for cmd in READ_ONLY + (None,):
            restore(killed, d)
            argv = ([mirror] + cmd + ["--store", "store.db"]
                    if cmd is not None else build_cmd(mirror))
            r = subprocess.run(argv, cwd=d, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
            out["runs"] += 1
            what = " ".join(cmd) if cmd is not None else "build"
            if r.returncode != 0:
                out["failed_runs"] += 1
                if len(out["details"]) < 12:
                    out["details"].append("trial %d (%d ops): %s: exit %d:"
                                          " %s" % (i, ops, what,
                                                   r.returncode,
                                                   r.stderr.strip()))
            if os.path.exists(journal):
                out["journal_left"] += 1
            if cmd is not None:
                out["outcomes"][writer_outcome(
                    os.path.join(d, "store.db"), old_sha)] += 1
            else:
                integrity = store_state(os.path.join(d, "store.db"))[0]
                if integrity != "ok":
                    out["build_integrity"] += 1
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mirror")
    ap.add_argument("base")
    ap.add_argument("work")
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--max-trials", type=int, default=40)
    ap.add_argument("--min-trials", type=int, default=10)
    ap.add_argument("--budget", type=float, default=40.0)
    ap.add_argument("--writer-trials", type=int, default=0)
    a = ap.parse_args()

    base = os.path.abspath(a.base)
    os.makedirs(a.work, exist_ok=True)
    trial = os.path.join(os.path.abspath(a.work), "trial")

    ref = {}
    snapshot(ref, base, "a", "before")

    # The reference: two undisturbed runs, the slower one's time is T.
    durations = []
    for _ in range(2):
        fresh_copy(base, trial)
        rc, dt, err = run_clean(a.mirror, trial)
        if rc != 0:
            print(json.dumps({"error": "reference run failed: exit %d: %s"
                              % (rc, err)}))
            return 2
        durations.append(dt)
    T = max(durations)
    snapshot(ref, trial, "b", "after")
    ref["changed"], ref["first_gone"] = changes(
        os.path.join(base, "site"), os.path.join(trial, "site"))
    if ref["first_gone"] is None:
        print(json.dumps({"error": "version B removes no file of A"}))
        return 2

    triggers = make_triggers(ref)
    # First every event (a kill the moment it is seen; twice when a run
    # is short), then timed kills until the budget is spent.
    repeat = 2 if T < 0.8 else 1
    plan = [("event", name) for name in triggers for _ in range(repeat)]
    offset = random.Random(a.seed).random()
    phases, events, details, stale, journals = {}, {}, [], [], {}
    bad = dict.fromkeys(CHECKS, 0)
    started = time.monotonic()
    i = 0
    while i < a.max_trials:
        if i < len(plan):
            kind, what = plan[i]
            label = what
        elif i >= a.min_trials and time.monotonic() - started > a.budget:
            break
        else:
            # Golden-ratio steps: every prefix of the sequence is spread
            # evenly over [0, 1.1 T], wherever the budget stops it.
            kind = "timed"
            what = 1.1 * T * ((offset + (i - len(plan)) * 0.6180339887)
                              % 1.0)
            label = "%.3f s" % what
        fresh_copy(base, trial)
        phase, problems, locks, journal = one_trial(a.mirror, trial, ref,
                                                    T, kind, what, triggers)
        phases[phase] = phases.get(phase, 0) + 1
        if journal is not None:
            journals[journal] = journals.get(journal, 0) + 1
        stale += locks
        if kind == "event":
            events.setdefault(what, []).append(phase)
        for check, text in problems:
            bad[check] += 1
            if len(details) < 12:
                details.append("trial %d (%s %s, landed in %s): %s: %s"
                               % (i, kind, label, phase, check, text))
        i += 1

    writer = writer_trials(a.mirror, base, os.path.abspath(a.work),
                           a.writer_trials, a.seed)
    print(json.dumps({"trials": i, "T": round(T, 3), "seed": a.seed,
                      "writer": writer,
                      "phases": phases, "events": events, "bad": bad,
                      "journals": journals,
                      "stale_ref_locks": stale,
                      "details": details, "files_a": ref["files_a"],
                      "files_b": ref["files_b"],
                      "commit_a": ref["commit_a"],
                      "commit_b": ref["commit_b"]}, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
