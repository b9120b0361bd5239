#!/usr/bin/env python3
"""make bench: every phase of mirror beside what a user would use instead.

    python3 tests/bench/bench.py BUILD [S M L P ...]     (make bench)

S, M and L are sizes in facts (10,000, 100,000, 1,000,000; make bench
runs S M P, BENCH=full adds L). For each size it generates a store
(tests/bench/store_gen.sql, cached under BUILD/bench/ by size and
generator checksum) and measures, with the binary BUILD/mirror:

  sweep_s     mirror sweep of the fresh store (records the conflicts,
              runs the starter rules of rules/ and records violations)
  sweep_norules_s  the same sweep with every starter rule turned off
              (--rules of a directory that sets each one's severity
              off), and rules_pct what the rules add to it, in percent
              (the two interleaved, median of 11 runs each); the same
              in CPU seconds, user and system of every thread:
              sweep_cpu_s, sweep_norules_cpu_s, rules_cpu_pct
  render_s    mirror build --no-sweep of the swept store into a new DIR
              (Markdown, HTML, JSON: read, render, write)
  commit_s    history_commit of that site into a fresh bare repository
              (BUILD/bench_history --site: what build --repo adds)
  *_mb_s      SHA-1 throughput on that site's files hashed as git blobs
              (bench_history --hash): sha1dc (git_odb_hash, the object
              ids), nettle (the pack checksums), openssl
  idx_*_ms    the index of that commit's pack (bench_history --index):
              mirror's writer against libgit2's git_indexer
  total_s     mirror build --repo of the fresh store into a new DIR and a
              fresh bare repository: sweep, render, commit, swap
  noop_*      the same build again: time, time as a percentage of
              total_s (noop_pct), files written, commits made
  one_change_* one active state value UPDATEd, build again: time (the
              median of three values given in turn, each built), time
              as a percentage of total_s (one_change_pct), files
              written, lines changed in the commit's .md diff (of the
              first)
  next_change_* another state value UPDATEd after that, build again:
              the nightly case (the build before swept with keys for
              the rules, doc/rules.md); time, and as a percentage of
              total_s
  conflict_commit_files  p11's first memory restating a state value
              given another value (it opens a conflict), build again:
              the files its commit adds, changes or removes;
              conflict_commit_parts counts them by part: .md and .html
              pages, .xml feeds and sitemap, search/ and api/ files
  *_rss_mb    the peak resident set (wait4 rusage ru_maxrss, MiB; the
              largest of a phase's runs) of the sweep, render, commit
              (the bench_history process), no-op and one-change phases;
              peak_rss_mb is that of the full build (total_s). A
              child's figure is at least this interpreter's own
              (about 19 MB): Linux counts the memory a child had
              before its exec, and a spawned child's is the parent's.
              The small phases' figures (S, a no-op) are that floor;
              /usr/bin/time gives theirs (mirror's no-op: 11 MB)
  site_*      the rendered site as a static host counts it: site_files,
              site_folders, site_bytes, site_largest (bytes) and its
              site_largest_path; M and L are held to issue 59's budgets
              (M: at most 20,000 files; L: 100,000 files and folders,
              1 GB, no file over 1 MB: issue 69)
  hugo_s      hugo on the site's own .md files (minimal layout)
  render_ram_s, hugo_ram_s  the same render and the same hugo run with
              their output on a RAM disk (/dev/shm, when it is a tmpfs;
              else not measured): what each costs without a disk's
              inode allocator (on this machine's ext4 about half the
              render's time at M: doc/performance.md), and
              ratio_vs_hugo_ram their ratio; the targets stay on the
              disk's figures
  cmark_s     the cmark-gfm command line over the same .md files
  git_cli_s   git add -A && git commit of the site into a fresh repo

P is the projects rows: for each N in BENCH_PROJECTS (default "10000
100000") a store of N projects with one fact each
(tests/bench/projects_gen.sql, cached likewise), built with mirror
build --repo into a new DIR and a fresh bare repository: total_s and
peak_rss_mb of that build, and its pages (size "PN" in the results).
What grows there is the number of projects alone, so a cost per
project that is not constant shows in it.

C is the cores row: the render (mirror build --no-sweep) of the swept
10,000-fact store at MIRROR_JOBS 1, 2, nproc and 16, each pinned with
taskset to that many cores (16 to at most nproc), median of 3 runs
each (interleaved), with
MIRROR_PROFILE=1: wall time, CPU time, the speed-up over one job and
the serial share of the CPU time (the main thread outside the worker
pools, and every worker waiting for its loader: doc/performance.md,
"Scaling with cores"), the CPU time of the longest thread beside the
pools (a family or a read of its own, which enough cores wait for), and
what Amdahl's law makes of the greatest share from 2 jobs on for 4, 8
and 16 cores, alone and bounded by that thread. Alone: tests/bench/bench.py BUILD C (no
Hugo needed).

B is the browser row: the largest HTML page (in bytes) of the site of
the largest size this run names (S, M or L; none: BENCH_BROWSER, by
default M), loaded in
Debian's chromium (headless, tests/bench/page_load.js through
tests/browser/chromium.js) at 1280 and at 390 px wide, a new tab each:
the seconds from asking for file://PAGE to its load event and its
layout done, held to 3 s at both widths (issue 69: every page of the
1M site loaded in 3 s or less). It reuses the site that size's row
rendered in this run, else builds one (mirror build of a copy of the
cached store). Alone: tests/bench/bench.py BUILD B (BENCH_BROWSER=L for
the 1M site; no Hugo needed). Prints its line, and writes
BUILD/bench/browser.json alone, else the row at the end of
results.json.

and once, whatever the sizes: mirror build --no-sweep of the hostile
corpus (tests/tools/hostile_sql.py) and of three copies of it, whose
times should be about 3 apart, not 9 (tests/e2e/t_site_hostile.sh
counts the pages and bytes; times belong here).

A phase that takes under 2 s is run 3 times and its median kept. A
command that runs longer than BENCH_TIMEOUT seconds (default 900) is
stopped: that size's or projects row's remaining figures are null and
the next one runs. Prints the tables (times, peak RSS per phase, the
projects rows) and writes BUILD/bench/results.json: one object per
size, then one per projects row.
"""
import hashlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

SIZES = {"S": 10_000, "M": 100_000, "L": 1_000_000}
SHORT = 2.0          # a phase under this many seconds gets 3 runs
EPOCH = "1700000000"  # SOURCE_DATE_EPOCH: the same pages every run
AUTHOR = "Bench <bench@example.org>"
TIMEOUT = float(os.environ.get("BENCH_TIMEOUT", "900"))


class Timeout(Exception):
    pass

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def die(msg):
    sys.exit("bench: " + msg)


def run(argv, cwd=None, stdin=None, stdout=subprocess.PIPE):
    """Run argv; return (seconds, stdout text); exit on failure."""
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH, GIT_CONFIG_NOSYSTEM="1",
               LC_ALL="C", **cache_env())
    t = time.perf_counter()
    p = subprocess.Popen(argv, cwd=cwd, stdin=stdin, stdout=stdout,
                         stderr=subprocess.PIPE, env=env)
    try:
        out, err = p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        raise Timeout("%s: over %.0f s" % (os.path.basename(argv[0]),
                                           TIMEOUT))
    secs = time.perf_counter() - t
    if p.returncode != 0:
        die("%s failed (%d): %s" % (" ".join(argv), p.returncode,
                                    (err or b"").decode(errors="replace")
                                    .strip()))
    return secs, (out or b"").decode(errors="replace")


# The CPU seconds (user + system, every thread) of run_rss's last child.
LAST_CPU = [0.0]


# The stderr text of run_rss's last child.
LAST_ERR = [""]


def run_rss(argv, extra_env=None):
    """Run argv (with extra_env added to the environment); return
    (seconds, stdout text, peak RSS MiB) via wait4."""
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH, GIT_CONFIG_NOSYSTEM="1",
               LC_ALL="C", **cache_env(), **(extra_env or {}))
    r, w = os.pipe()
    errf = tempfile.TemporaryFile()
    # posix_spawn, not os.fork: forking this interpreter costs 13 ms
    # here, a quarter of a small no-op, and would be timed as mirror's
    t = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=[
        (os.POSIX_SPAWN_DUP2, w, 1),
        (os.POSIX_SPAWN_DUP2, errf.fileno(), 2),
        (os.POSIX_SPAWN_CLOSE, r)])
    os.close(w)
    # the child's peak RSS needs wait4, so the timeout is an alarm here
    def expire(signum, frame):
        os.kill(pid, signal.SIGKILL)
        raise Timeout("%s: over %.0f s" % (os.path.basename(argv[0]),
                                           TIMEOUT))
    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, TIMEOUT)
    try:
        with os.fdopen(r) as f:
            out = f.read()
        _, status, ru = os.wait4(pid, 0)
    except Timeout:
        os.waitpid(pid, 0)
        raise
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    secs = time.perf_counter() - t
    with errf:
        errf.seek(0)
        err = errf.read().decode(errors="replace").strip()
    if os.waitstatus_to_exitcode(status) != 0:
        die("%s failed (%d): %s" % (" ".join(argv),
                                    os.waitstatus_to_exitcode(status), err))
    LAST_CPU[0] = ru.ru_utime + ru.ru_stime
    LAST_ERR[0] = err
    return secs, out, ru.ru_maxrss / 1024.0


def timed(fn):
    """Median of 3 runs of fn() -> seconds when the first is short."""
    first = fn()
    if first >= SHORT:
        return first
    return statistics.median([first, fn(), fn()])


def timed_rss(fn):
    """(seconds as timed() takes them, the largest RSS MiB) of the runs
    of fn() -> (seconds, peak RSS MiB)."""
    rss = []

    def once():
        secs, mb = fn()
        rss.append(mb)
        return secs
    secs = timed(once)
    return secs, round(max(rss), 1)


# Where trees the bench is done with wait until its last timing (main
# sets it). This machine's ext4 has no journal, and without one the
# kernel will not reuse an inode freed in the last 5 s (300 s while its
# table block is unwritten): files made right after many were deleted
# wait while it scans for others. Deleted before the build, the 500,000
# files of P100000's last run made its render 49 to 75 s instead of
# 16 s: the bench timed its own clean-up, not the build (and Hugo's and
# git's runs the same way).
TRASH = None


# The user's cache (core/sys/cache.h) every mirror run of the bench
# uses: its own, BUILD/bench/cache (MIRROR_CACHE_DIR), put out of the
# way (fresh_cache) before each build that stands for a first one, so
# that no figure gains from what an earlier run, row or bench kept
# there (the search documents of the same store's projects, the A-Z's
# and the model's kept rows). The builds after a first one (no-op, one
# fact changed) use what it kept, as a user's do. Set by main().
CACHE = None


def fresh_cache():
    """An empty user's cache for the next mirror run."""
    if CACHE is not None:
        rmtree(CACHE)


def cache_env():
    """The environment's entries that name the bench's cache."""
    return {} if CACHE is None else {"MIRROR_CACHE_DIR": CACHE}


def rmtree(path):
    """Put the tree at path out of the way: moved into TRASH, which is
    deleted after the last timing, or deleted when TRASH is not set or
    on another file system."""
    if not os.path.lexists(path):
        return
    if TRASH is not None:
        rmtree.n = getattr(rmtree, "n", 0) + 1
        os.makedirs(TRASH, exist_ok=True)
        try:
            os.rename(path, os.path.join(TRASH, str(rmtree.n)))
            return
        except OSError:
            pass
    shutil.rmtree(path)


def fmt(v):
    """A figure of two decimals, or "-" for one not measured."""
    return "-" if v is None else "%.2f" % v


def is_tmpfs(path):
    """True when path is the mount point of a tmpfs we may write."""
    try:
        with open("/proc/mounts") as f:
            mounts = [line.split()[1:3] for line in f]
    except OSError:
        return False
    return [path, "tmpfs"] in mounts and os.access(path, os.W_OK)


def bare_repo(path):
    rmtree(path)
    run(["git", "init", "-q", "--bare", path])


def keyed(out):
    """{key: float} from lines "key value" (bench_history's output)."""
    return dict((k, float(v)) for k, v in
                (line.split() for line in out.splitlines() if line))


def summary(out):
    """(pages, files written) from mirror build's first line."""
    words = out.split("\n")[0].split()
    # built DIR: N pages, W files written, R reused; ...
    i = words.index("pages,")
    return int(words[i - 1]), int(words[i + 1])


class Bench:
    def __init__(self, build):
        self.build = build
        self.mirror = os.path.join(TOP, build, "mirror")
        self.hist = os.path.join(TOP, build, "bench_history")
        self.dir = os.path.join(TOP, build, "bench")
        os.makedirs(self.dir, exist_ok=True)

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def init_schema(self):
        """The schema 'mirror init' makes (its tables, indexes and
        triggers), as text: a store generated by an older mirror
        lacks what this one adds (the tables' versions: its first
        build would add them, and the build after it read the store
        whole again), so the cached stores are keyed by it too."""
        if getattr(self, "_init_schema", None) is None:
            tmp = self.path("init-schema.db")
            if os.path.exists(tmp):
                os.unlink(tmp)
            run([self.mirror, "init", "--store", tmp, "--quiet"])
            self._init_schema = run(["sqlite3", tmp, "SELECT sql FROM "
                                     "sqlite_schema ORDER BY name"])[1]
            os.unlink(tmp)
        return self._init_schema

    def generate(self, gen, table, n, name):
        """The store the generator gen (a file under tests/bench/) makes
        from n, given in TEMP table table, in a store 'mirror init'
        made: cached as BUILD/bench/name-n-checksum.db, the checksum of
        the generator and of init's schema. Returns (path, facts)."""
        with open(os.path.join(TOP, "tests", "bench", gen), "rb") as f:
            text = f.read()
        key = text + self.init_schema().encode()
        db = self.path("%s-%d-%s.db" % (
            name, n, hashlib.sha1(key).hexdigest()[:12]))
        if not os.path.exists(db):
            print("bench: generating %s %d into %s" % (gen, n, db),
                  flush=True)
            tmp = db + ".tmp"
            if os.path.exists(tmp):
                os.unlink(tmp)
            run([self.mirror, "init", "--store", tmp, "--quiet"])
            sql = ("CREATE TEMP TABLE %s(n); INSERT INTO %s VALUES(%d);\n"
                   % (table, table, n)).encode() + text
            p = subprocess.run(["sqlite3", "-bail", tmp], input=sql,
                               stdout=subprocess.DEVNULL)
            if p.returncode != 0:
                die("generator failed on %s" % tmp)
            os.rename(tmp, db)
        _, facts = run(["sqlite3", db, "SELECT (SELECT count(*) FROM "
                        "project_state) + (SELECT count(*) FROM entities) + "
                        "(SELECT count(*) FROM memories)"])
        return db, int(facts)

    def store(self, facts):
        """The generated store of facts rows (cached), and its fact count."""
        return self.generate("store_gen.sql", "bench_n", facts, "store")

    def fresh_copy(self, base, name):
        dst = self.path(name)
        shutil.copyfile(base, dst)
        return dst

    def rules_off(self):
        """A rules directory turning off every starter rule (the ids
        of rules/*.sql): the sweep without rules. Returns its path."""
        d = self.path("rules-off")
        rmtree(d)
        os.makedirs(d)
        ids = []
        starter = os.path.join(TOP, "rules")
        for name in sorted(os.listdir(starter)) if os.path.isdir(
                starter) else []:
            if not name.endswith(".sql"):
                continue
            with open(os.path.join(starter, name), encoding="utf-8") as f:
                for line in f:
                    w = line.split()
                    if len(w) >= 3 and w[0] == "--" and w[1] == "rule:":
                        ids.append(w[2])
        with open(os.path.join(d, "off.sql"), "w") as f:
            for i in ids:
                f.write("-- rule: %s\n-- severity: off\n-- description: "
                        "off for the bench\nSELECT 1;\n\n" % i)
        return d

    def size(self, label, facts):
        """One row of results: every key present, None where stopped."""
        base, nfacts = self.store(facts)
        r = dict.fromkeys(KEYS + ["one_change_md_files", "hugo_pages",
                                  "md_files",
                                  "conflict_commit_files",
                                  "conflict_commit_parts",
                                  "site_largest_path",
                                  "hash_files", "hash_bytes",
                                  "pack_objects"])
        r.update(size=label, facts=nfacts)
        try:
            self.phases(r, base)
        except Timeout as e:
            print("bench: %s stopped: %s" % (label, e), flush=True)
        rounded(r)
        return r

    def phases(self, r, base):
        m = self.mirror

        # 1. sweep, on a fresh copy each run: with the starter rules and
        # with every one of them off, interleaved, 11 runs each (the two
        # are compared, so they share the machine's drift)
        off = self.rules_off()
        runs = {"with": [], "without": []}

        def sweep(kind):
            db = self.fresh_copy(base, "sweep-%s.db" % kind)
            argv = [m, "sweep", "--store", db]
            if kind == "without":
                argv += ["--rules", off]
            secs, _, mb = run_rss(argv)
            runs[kind].append((secs, LAST_CPU[0], mb))
        for _ in range(11):
            sweep("with")
            sweep("without")
        med = statistics.median
        w, wo = runs["with"], runs["without"]
        r["sweep_s"] = med(x[0] for x in w)
        r["sweep_rss_mb"] = round(max(x[2] for x in w), 1)
        r["sweep_norules_s"] = med(x[0] for x in wo)
        r["rules_pct"] = 100.0 * (r["sweep_s"] - r["sweep_norules_s"]) / \
            r["sweep_norules_s"]
        r["sweep_cpu_s"] = med(x[1] for x in w)
        r["sweep_norules_cpu_s"] = med(x[1] for x in wo)
        r["rules_cpu_pct"] = 100.0 * (r["sweep_cpu_s"] -
                                      r["sweep_norules_cpu_s"]) / \
            r["sweep_norules_cpu_s"]
        os.replace(self.path("sweep-with.db"), self.path("sweep.db"))
        swept = self.path("sweep.db")

        # 2. render and write, no sweep, into a new DIR each run
        site = self.path("site")

        def render():
            rmtree(site)
            fresh_cache()
            return run_rss([m, "build", "--no-sweep", "--store", swept,
                            "--out", site, "--quiet"])[::2]
        r["render_s"], r["render_rss_mb"] = timed_rss(render)
        site_size(r, site)
        self.rendered = (r["size"], site)

        # 3. commit of that very site into a fresh bare repository
        repo = self.path("commit.git")

        def commit():
            bare_repo(repo)
            _, out, rss = run_rss([self.hist, "--site", site, repo])
            return float(out), rss
        r["commit_s"], r["commit_rss_mb"] = timed_rss(commit)

        # 3b. parts of the commit: SHA-1 on the site's files, and the
        # index of the commit's pack written two ways
        h = keyed(run([self.hist, "--hash", site])[1])
        for k in HASHES:
            r[k + "_mb_s"] = h[k]
        r["hash_files"], r["hash_bytes"] = int(h["files"]), int(h["bytes"])
        ix = keyed(run([self.hist, "--index", repo])[1])
        r["idx_mirror_ms"] = round(1000 * ix["mirror"], 2)
        r["idx_indexer_ms"] = round(1000 * ix["indexer"], 2)
        r["pack_objects"] = int(ix["objects"])

        # 4. the whole build a user runs: sweep, render, commit
        out = self.path("out")
        hist = self.path("history.git")
        build = [m, "build", "--store", self.path("total.db"), "--out", out,
                 "--repo", hist, "--author", AUTHOR]
        texts = []

        def rebuild():
            secs, text, rss = run_rss(build)
            texts.append(text)
            return secs, rss

        def total():
            self.fresh_copy(base, "total.db")
            rmtree(out)
            fresh_cache()
            bare_repo(hist)
            return rebuild()
        r["total_s"], r["peak_rss_mb"] = timed_rss(total)
        r["pages"] = summary(texts[-1])[0]

        # 5. no-op rebuild: same store, DIR and repository
        def commits():
            return int(run(["git", "--git-dir", hist, "rev-list", "--count",
                            "mirror"])[1])
        before = commits()
        del texts[:]
        r["noop_s"], r["noop_rss_mb"] = timed_rss(rebuild)
        r["noop_files_written"] = max(summary(t)[1] for t in texts)
        r["noop_commits"] = commits() - before
        r["noop_pct"] = 100 * r["noop_s"] / r["total_s"]

        # 6. one fact changes: an active state value no conflict touches
        # (key_2 of the fifth project: no decision, memory or duplicate
        # names that key), then the same build again
        fid = run(["sqlite3", self.path("total.db"),
                   "SELECT id FROM project_state WHERE key = 'key_2' AND "
                   "status = 'active' ORDER BY rowid LIMIT 1 OFFSET 4"])[1]
        fid = fid.strip()
        values = iter(["2.75 mm", "2.80 mm", "2.85 mm"])
        first = {}

        def one_change():
            run(["sqlite3", self.path("total.db"),
                 "UPDATE project_state SET value = '%s', updated_at = "
                 "'2025-01-01 00:00:00' WHERE id = '%s'" % (next(values),
                                                             fid)])
            secs_rss = rebuild()
            if not first:
                # what the first change writes and commits: the figures
                # earlier runs printed (the later ones change the same
                # fact again, whose date and line on the index and the
                # lists are written already)
                first["files"] = summary(texts[-1])[1]
                first["diff"] = run(["git", "--git-dir", hist, "diff",
                                     "--numstat", "mirror~1", "mirror",
                                     "--", "*.md"])[1]
            return secs_rss
        # the median of three values given in turn (timed): one build
        # of a quarter second moved by 0.1 s from one run to the next
        # (stops 98 and 99), which a share of 5% cannot tell from a
        # regression
        r["one_change_s"], r["one_change_rss_mb"] = timed_rss(one_change)
        r["one_change_pct"] = 100 * r["one_change_s"] / r["total_s"]
        r["one_change_files_written"] = first["files"]
        diff = first["diff"]
        r["one_change_md_lines"] = sum(
            int(a) + int(d) for a, d, _ in
            (line.split("\t", 2) for line in diff.splitlines()))
        r["one_change_md_files"] = len(diff.splitlines())

        # 6b. another fact, the build again: the nightly case, where the
        # build before swept with the digest of its check, so the rules
        # whose tables did not change are kept (doc/rules.md); the
        # build above followed one into an empty DIR, which has none
        fid = run(["sqlite3", self.path("total.db"),
                   "SELECT id FROM project_state WHERE key = 'key_2' AND "
                   "status = 'active' ORDER BY rowid LIMIT 1 OFFSET 5"])[1]
        run(["sqlite3", self.path("total.db"),
             "UPDATE project_state SET value = '3.25 mm', updated_at = "
             "'2025-01-02 00:00:00' WHERE id = '%s'" % fid.strip()])
        r["next_change_s"], _ = rebuild()
        r["next_change_pct"] = 100 * r["next_change_s"] / r["total_s"]

        # 6c. a fact that opens a conflict (t_work_counters' change b):
        # p11's first 'project' memory restating a state value ("key_N
        # is V") says another value; the files of its commit, which a
        # reviewer's --stat lists
        mid = run(["sqlite3", self.path("total.db"),
                   "SELECT id FROM memories WHERE project = 'p11' AND "
                   "memory_type = 'project' AND status = 'active' AND "
                   "content LIKE 'key_% is %' ORDER BY rowid LIMIT 1"])[1]
        run(["sqlite3", self.path("total.db"),
             "UPDATE memories SET content = replace(content, ' is ', "
             "' is 9') WHERE id = '%s'" % mid.strip()])
        rebuild()
        names = run(["git", "--git-dir", hist, "diff-tree", "-r",
                     "--no-commit-id", "--name-only", "mirror"])[1]
        r["conflict_commit_files"] = len(names.splitlines())
        r["conflict_commit_parts"] = commit_parts(names.splitlines())

        # 7. the peers, on the pages of step 2
        md = self.md_files(site)
        r["md_files"] = len(md)
        r["hugo_s"], r["hugo_pages"] = self.hugo(site, md)
        self.on_ram(r, swept, site, md)
        r["cmark_s"] = self.cmark(md)
        r["git_cli_s"] = self.git_cli(site)
        r["ratio_vs_hugo"] = round(r["render_s"] / r["hugo_s"], 3)
        r["ratio_vs_git_cli"] = round(r["commit_s"] / r["git_cli_s"], 3)

    def on_ram(self, r, swept, site, md):
        """render_ram_s, hugo_ram_s and ratio_vs_hugo_ram into r: the
        render of step 2 and Hugo's run with their output on /dev/shm
        (None each when it is no tmpfs)."""
        r["render_ram_s"] = r["hugo_ram_s"] = r["ratio_vs_hugo_ram"] = None
        if not is_tmpfs("/dev/shm"):
            return
        ram = tempfile.mkdtemp(prefix="mirror-bench-", dir="/dev/shm")
        out = os.path.join(ram, "site")
        try:
            def render():
                if os.path.lexists(out):
                    shutil.rmtree(out)
                fresh_cache()
                return run_rss([self.mirror, "build", "--no-sweep",
                                "--store", swept, "--out", out,
                                "--quiet"])[::2]
            r["render_ram_s"], _ = timed_rss(render)
            r["hugo_ram_s"], _ = self.hugo(site, md,
                                           os.path.join(ram, "pub"))
        finally:
            shutil.rmtree(ram)
        r["ratio_vs_hugo_ram"] = round(r["render_ram_s"] /
                                       r["hugo_ram_s"], 3)

    def cores(self):
        """The cores row: the render of the swept S store at 1, 2 and
        nproc jobs, pinned; see the docstring at the top."""
        base, facts = self.store(SIZES["S"])
        swept = self.fresh_copy(base, "cores.db")
        run([self.mirror, "sweep", "--store", swept, "--quiet"])
        site = self.path("cores-site")
        ncpu = len(os.sched_getaffinity(0))
        # 16: the runner; on fewer cores it shows what 16
        # threads cost where they share them
        jobs = sorted(set([1, min(2, ncpu), ncpu, 16]))
        runs = dict((j, []) for j in jobs)
        for _ in range(3):
            for j in jobs:
                rmtree(site)
                fresh_cache()
                argv = ["taskset", "-c", "0-%d" % (min(j, ncpu) - 1),
                        self.mirror,
                        "build", "--no-sweep", "--store", swept, "--out",
                        site, "--quiet"]
                argv[0] = shutil.which("taskset")
                secs, _, _ = run_rss(argv, {"MIRROR_JOBS": str(j),
                                            "MIRROR_PROFILE": "1"})
                runs[j].append((secs, LAST_CPU[0], profile(LAST_ERR[0])))
        med = statistics.median
        r = {"size": "C", "facts": facts, "pages": None}
        for j in jobs:
            r["j%d_s" % j] = round(med(x[0] for x in runs[j]), 3)
            r["j%d_cpu_s" % j] = round(med(x[1] for x in runs[j]), 3)
            r["j%d_serial_pct" % j] = round(med(x[2][0] for x in runs[j]),
                                            1)
            r["j%d_longest_pct" % j] = round(med(x[2][1] for x in runs[j]),
                                             1)
            r["j%d_speedup" % j] = round(r["j1_s"] / r["j%d_s" % j], 2)
        # The greatest share from 2 jobs on: at one job the families
        # that run beside the others run on the main thread.
        s = max(r["j%d_serial_pct" % j] for j in jobs if j > 1) / 100
        # and the longest thread beside the pools: with enough cores
        # the render waits for it (doc/performance.md)
        lt = max(r["j%d_longest_pct" % j] for j in jobs if j > 1) / 100
        for n in (4, 8, 16):
            r["amdahl_%d" % n] = round(1 / (s + (1 - s) / n), 2)
            r["bound_%d" % n] = round(1 / (s + max((1 - s) / n, lt)), 2)
        r["longest_pct"] = round(100 * lt, 1)
        r["jobs"] = jobs
        r["ncpu"] = ncpu
        return r

    def projects(self, n):
        """A projects row: a store of n projects of one fact each
        (tests/bench/projects_gen.sql, cached), built as a user would,
        mirror build --repo into a new DIR and a fresh bare repository:
        its time and peak RSS; None where stopped."""
        base, facts = self.generate("projects_gen.sql", "bench_projects",
                                    n, "projects")
        r = dict.fromkeys(PROJECT_KEYS)
        r.update(size="P%d" % n, projects=n, facts=facts)
        out = self.path("projects-out")
        hist = self.path("projects.git")
        db = self.path("projects.db")

        def once():
            self.fresh_copy(base, "projects.db")
            rmtree(out)
            fresh_cache()
            bare_repo(hist)
            secs, text, rss = run_rss([
                self.mirror, "build", "--store", db, "--out", out,
                "--repo", hist, "--author", AUTHOR])
            once.text = text
            return secs, rss
        try:
            r["total_s"], r["peak_rss_mb"] = timed_rss(once)
            r["pages"] = summary(once.text)[0]
        except Timeout as e:
            print("bench: P%d stopped: %s" % (n, e), flush=True)
        finally:
            # five files a project: not left behind for the next row
            rmtree(out)
            rmtree(hist)
        rounded(r)
        return r

    def browser(self, label):
        """The browser row for size label: the largest HTML page of its
        site (the one this run rendered, else built now) loaded in
        chromium at 1280 and 390 px; None where it did not load."""
        r = dict.fromkeys(BROWSER_KEYS)
        r.update(size=label)
        site = None
        if getattr(self, "rendered", (None,))[0] == label:
            site = self.rendered[1]
        else:
            base, _ = self.store(SIZES[label])
            db = self.fresh_copy(base, "browser.db")
            site = self.path("browser-site")
            rmtree(site)
            run([self.mirror, "build", "--store", db, "--out", site,
                 "--quiet"])
        pages = []
        for d, _, names in os.walk(site):
            pages += [(os.path.getsize(os.path.join(d, n)),
                       os.path.relpath(os.path.join(d, n), site))
                      for n in names if n.endswith(".html")]
        r["page_bytes"], r["page"] = max(pages, key=lambda x: (x[0], x[1]))
        _, out = run(["node", os.path.join(TOP, "tests", "bench",
                                           "page_load.js"),
                      os.path.join(site, r["page"]), "%.0f" % TIMEOUT])
        t = json.loads(out)
        r["load_1280_s"], r["load_390_s"] = t.get("1280"), t.get("390")
        rounded(r)
        return r

    def hostile(self):
        """Render seconds of the hostile corpus once and three times."""
        corpus = os.path.join(TOP, "tests", "data", "hostile")
        tool = os.path.join(TOP, "tests", "tools", "hostile_sql.py")
        secs = []
        for copies in (1, 3):
            db = self.path("hostile-%d.db" % copies)
            sql = self.path("hostile-%d.sql" % copies)
            site = self.path("hostile-%d" % copies)
            if os.path.exists(db):
                os.unlink(db)
            run([sys.executable, tool, corpus, sql, str(copies)])
            run([self.mirror, "init", "--store", db, "--quiet"])
            with open(sql) as f:
                run(["sqlite3", "-bail", db], stdin=f)

            def once():
                rmtree(site)
                fresh_cache()
                return run([self.mirror, "build", "--no-sweep", "--store",
                            db, "--out", site, "--quiet"])[0]
            secs.append(timed(once))
        return secs

    def md_files(self, site):
        """The site's .md files, sorted: what Hugo and cmark-gfm render."""
        files = []
        for d, _, names in os.walk(site):
            files += [os.path.join(d, n) for n in names if n.endswith(".md")]
        return sorted(files)

    def hugo(self, site, md, pub=None):
        """Hugo over the site's .md files md (md_files) into pub (None:
        the bench's own folder); (seconds, pages rendered)."""
        h = self.path("hugo")
        rmtree(h)
        content = os.path.join(h, "content")
        for src in md:
            rel = os.path.relpath(src, site)
            # index.md would make a leaf bundle that swallows its
            # siblings as resources; _index.md is a page of its own
            if os.path.basename(rel) == "index.md":
                rel = os.path.join(os.path.dirname(rel), "_index.md")
            dst = os.path.join(content, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            # An empty front matter: Hugo takes a file that begins with
            # "<" (the pages' breadcrumbs) for an HTML document and
            # refuses it; the Markdown after it is the same.
            with open(src, "rb") as f, open(dst, "wb") as g:
                g.write(b"---\n---\n")
                shutil.copyfileobj(f, g)
        page = ("<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
                "<title>{{ .Title }}</title></head><body>{{ .Content }}"
                "</body></html>\n")
        for name in ("_default/single.html", "_default/list.html",
                     "index.html"):
            p = os.path.join(h, "layouts", name)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as f:
                f.write(page)
        with open(os.path.join(h, "config.toml"), "w") as f:
            f.write('baseURL = "http://example.org/"\n'
                    'disableKinds = ["taxonomy", "term", "RSS", "sitemap",'
                    ' "robotsTXT", "404"]\n'
                    '[markup.goldmark.renderer]\nunsafe = true\n')
        pub = pub or os.path.join(h, "public")

        def once():
            rmtree(pub)
            rmtree(os.path.join(h, "resources"))
            return run(["hugo", "--quiet", "--source", h,
                        "--destination", pub])[0]
        secs = timed(once)
        pages = sum(1 for d, _, ns in os.walk(pub) for n in ns
                    if n.endswith(".html"))
        return secs, pages

    def cmark(self, md):
        """cmark-gfm over the same .md files md (xargs batches them)."""
        listing = self.path("md-files.txt")
        with open(listing, "w") as f:
            f.write("\0".join(md))

        def once():
            with open(listing) as f:
                return run(["xargs", "-0", "cmark-gfm", "-e", "table",
                            "-e", "strikethrough", "-e", "autolink",
                            "-e", "tagfilter", "--to", "html"], stdin=f,
                           stdout=subprocess.DEVNULL)[0]
        return timed(once)

    def git_cli(self, site):
        """git add -A && git commit of a copy of the site, fresh repo."""
        wt = self.path("gitcli")

        def once():
            rmtree(wt)
            shutil.copytree(site, wt)
            run(["git", "init", "-q", wt])
            # gc.auto=0: a commit of 6,700 loose objects or more starts
            # 'git gc --auto' in the background, which then competed
            # with the next run and the next size's timings
            t = time.perf_counter()
            run(["git", "-C", wt, "-c", "gc.auto=0", "add", "-A"])
            run(["git", "-C", wt, "-c", "gc.auto=0", "-c",
                 "user.name=Bench", "-c", "user.email=bench@example.org",
                 "commit", "-q", "-m", "bench"])
            return time.perf_counter() - t
        return timed(once)


COLS = [("size", "size", "%s"), ("facts", "facts", "%d"),
        ("pages", "pages", "%d"), ("sweep_s", "sweep", "%.2f"),
        ("sweep_norules_s", "no rules", "%.2f"),
        ("rules_pct", "rules %", "%.1f"),
        ("render_s", "render", "%.2f"), ("commit_s", "commit", "%.2f"),
        ("total_s", "total", "%.2f"),
        ("noop_s", "no-op", "%.2f"), ("noop_pct", "noop %", "%.1f"),
        ("noop_files_written", "noop W", "%d"),
        ("noop_commits", "noop C", "%d"),
        ("one_change_s", "1-chg", "%.2f"),
        ("one_change_pct", "1-chg %", "%.1f"),
        ("one_change_files_written", "1-chg W", "%d"),
        ("one_change_md_lines", "1-chg md", "%d"),
        ("next_change_s", "next", "%.2f"),
        ("next_change_pct", "next %", "%.1f"),
        ("hugo_s", "hugo", "%.2f"), ("ratio_vs_hugo", "/hugo", "%.2f"),
        ("cmark_s", "cmark", "%.2f"), ("git_cli_s", "git cli", "%.2f"),
        ("ratio_vs_git_cli", "/git", "%.2f")]
# Peak RSS of each phase, MiB (wait4's ru_maxrss; the largest of a
# phase's runs).
RSS_COLS = [("size", "size", "%s"), ("sweep_rss_mb", "sweep", "%.0f"),
            ("render_rss_mb", "render", "%.0f"),
            ("commit_rss_mb", "commit", "%.0f"),
            ("peak_rss_mb", "total", "%.0f"),
            ("noop_rss_mb", "no-op", "%.0f"),
            ("one_change_rss_mb", "1-chg", "%.0f")]
PROJECT_COLS = [("size", "size", "%s"), ("projects", "projects", "%d"),
                ("facts", "facts", "%d"), ("pages", "pages", "%d"),
                ("total_s", "build --repo", "%.2f"),
                ("peak_rss_mb", "RSS MB", "%.0f")]
KEYS = ["size", "facts", "pages", "sweep_s", "sweep_norules_s",
        "rules_pct", "sweep_cpu_s", "sweep_norules_cpu_s", "rules_cpu_pct",
        "render_s", "commit_s",
        "total_s", "noop_s", "noop_pct", "noop_files_written",
        "noop_commits", "one_change_s", "one_change_pct",
        "one_change_files_written", "one_change_md_lines",
        "next_change_s", "next_change_pct", "hugo_s", "cmark_s", "git_cli_s", "ratio_vs_hugo",
        "ratio_vs_git_cli"]
KEYS += [k for k, _, _ in RSS_COLS[1:]]
HASHES = ["sha1dc", "nettle", "openssl"]
KEYS += [k + "_mb_s" for k in HASHES] + ["idx_mirror_ms", "idx_indexer_ms"]
KEYS += ["site_files", "site_folders", "site_bytes", "site_largest"]
PROJECT_KEYS = [k for k, _, _ in PROJECT_COLS]
BROWSER_KEYS = ["size", "page", "page_bytes", "load_1280_s", "load_390_s"]
BROWSER_TARGET_S = 3.0
# The projects rows' sizes (BENCH_PROJECTS="N ..." sets them).
PROJECTS = [int(n) for n in
            os.environ.get("BENCH_PROJECTS", "10000 100000").split()]


def profile(err):
    """The serial share and the longest thread beside the pools, both
    percent of the CPU time, from mirror's MIRROR_PROFILE line."""
    for line in err.splitlines():
        if line.startswith("mirror profile: "):
            cpu = float(line.split("cpu ")[1].split(" s")[0])
            longest = float(line.split("beside them ")[1].split(" s")[0])
            return (float(line.split("serial share ")[1].split("%")[0]),
                    100 * longest / cpu if cpu > 0 else 0.0)
    die("no MIRROR_PROFILE line in: %s" % err)


def cores_lines(r):
    """The cores row's lines: a table of the jobs, and Amdahl's law."""
    ncpu = r.get("ncpu", r["jobs"][-1])
    rows = [{"jobs": j, "cores": min(j, ncpu), "s": r["j%d_s" % j],
             "cpu": r["j%d_cpu_s" % j], "up": r["j%d_speedup" % j],
             "ser": r["j%d_serial_pct" % j],
             "lt": r.get("j%d_longest_pct" % j)} for j in r["jobs"]]
    cols = [("jobs", "jobs", "%d"), ("cores", "pinned to cores", "%d"),
            ("s", "render s", "%.2f"), ("cpu", "CPU s", "%.2f"),
            ("up", "speed-up", "%.2f"), ("ser", "serial %", "%.1f"),
            ("lt", "longest thread %", "%.1f")]
    many = [j for j in r["jobs"] if j > 1]
    worst = max(r["j%d_serial_pct" % j] for j in many)
    return [table(rows, cols),
            "%s C serial share of the render: %s (target <= 5%% from 2 "
            "jobs on; %.1f%% at 1 job, where every family runs on the "
            "main thread); Amdahl from %.1f%%: %.2f at 4 cores, %.2f at "
            "8, %.2f at 16; with the longest thread beside the pools "
            "(%s%%): %s, %s, %s" % (
                "met   " if worst <= 5 else "MISSED",
                ", ".join("%.1f%% at %d jobs" % (r["j%d_serial_pct" % j], j)
                          for j in many),
                r["j1_serial_pct"], worst, r["amdahl_4"], r["amdahl_8"],
                r["amdahl_16"], r.get("longest_pct", "-"),
                r.get("bound_4", "-"), r.get("bound_8", "-"),
                r.get("bound_16", "-"))]


def rounded(r):
    """Round r's figures in place: seconds to ms, percentages and MiB to
    a tenth."""
    for k, v in r.items():
        if isinstance(v, float) and k.endswith("_s"):
            r[k] = round(v, 3)
        elif isinstance(v, float) and k.endswith(("_pct", "_rss_mb")):
            r[k] = round(v, 1)


def table(rows, cols):
    head = [c[1] for c in cols]
    cells = [["-" if r[k] is None else fmt % r[k] for k, _, fmt in cols]
             for r in rows]
    width = [max(len(x) for x in col) for col in zip(head, *cells)]
    lines = ["| " + " | ".join(h.rjust(w) for h, w in zip(head, width)) +
             " |", "|" + "|".join("-" * (w + 1) + ":" for w in width) + "|"]
    for c in cells:
        lines.append("| " + " | ".join(x.rjust(w) for x, w in
                                       zip(c, width)) + " |")
    return "\n".join(lines)


# Issue 68's targets for the one-fact change (issue 19's were 10% and
# 2 s) and the peak RSS, by size: (the words after the figures, the test
# of r); a size not named has none.
ONE_CHANGE_TARGET = {
    "M": (" (target <= 5%)", lambda r: r["one_change_pct"] <= 5),
    "L": (" (target <= 1.5 s)", lambda r: r["one_change_s"] <= 1.5),
}
# Issue 68's target for the files of a conflict opened, at every size.
CONFLICT_COMMIT_FILES = 20
RSS_TARGET_MB = {"M": 64, "L": 256}


def site_size(r, site):
    """The rendered site as a host counts it: files, folders, bytes and
    the largest file (issue 59's budgets)."""
    files = folders = total = 0
    largest = (0, "")
    for root, dirs, names in os.walk(site):
        folders += len(dirs)
        for f in names:
            p = os.path.join(root, f)
            n = os.path.getsize(p)
            files += 1
            total += n
            largest = max(largest, (n, os.path.relpath(p, site)))
    r.update(site_files=files, site_folders=folders, site_bytes=total,
             site_largest=largest[0], site_largest_path=largest[1])


# Issue 59's budgets: (files, files and folders, bytes, largest file)
# where a size has one; None where it has no limit. The largest file:
# issue 59 allowed 25 MiB, issue 69 no file of the 1M site over 1 MB.
HOSTING_TARGET = {"M": (20000, None, None, None),
                  "L": (None, 100000, 1000 * 1000 * 1000, 1000 * 1000)}


def hosting_line(r):
    """The site's size, and whether it is within the size's budget."""
    t = HOSTING_TARGET.get(r["size"])
    figures = (r["site_files"], r["site_files"] + r["site_folders"],
               r["site_bytes"], r["site_largest"])
    mark = "      " if t is None else "met   " if all(
        lim is None or got <= lim for got, lim in zip(figures, t)) \
        else "MISSED"
    want = "" if t is None else " (target %s)" % ", ".join(
        "%s <= %s" % (what, "{:,}".format(lim)) for what, lim in zip(
            ("files", "files and folders", "bytes", "largest"), t)
        if lim is not None)
    return "%s %s site: %s bytes in %s files and %s folders, largest %s " \
        "(%s)%s" % (mark, r["size"], "{:,}".format(r["site_bytes"]),
                    "{:,}".format(r["site_files"]),
                    "{:,}".format(r["site_folders"]),
                    "{:,}".format(r["site_largest"]),
                    r["site_largest_path"], want)


def commit_parts(paths):
    """The paths of a commit by what a reviewer sees them as: pages
    (.md and .html twins), feeds and the sitemap (.xml), the search
    index (search/*.js) and the JSON API (api/); {part: count}."""
    parts = {"md": 0, "html": 0, "xml": 0, "search": 0, "api": 0,
             "other": 0}
    for p in paths:
        if p.startswith("api/"):
            parts["api"] += 1
        elif p.startswith("search/") and p.endswith(".js"):
            parts["search"] += 1
        else:
            ext = p.rsplit(".", 1)[-1]
            parts[ext if ext in parts else "other"] += 1
    return parts


def one_change_mark(r):
    """met, MISSED, or blank where the size has no target."""
    t = ONE_CHANGE_TARGET.get(r["size"])
    if t is None:
        return "      "
    return "met   " if t[1](r) else "MISSED"


def targets(r):
    """The issue's targets, one line each: met or missed, and the figure."""
    if any(r[k] is None for k in KEYS):
        return ["MISSED %s stopped after %.0f s; measured: %s" % (
            r["size"], TIMEOUT, ", ".join(
                "%s %s" % (k, r[k]) for k in KEYS[3:] if r[k] is not None))]
    def mark(ok):
        return "met   " if ok else "MISSED"
    # each tool's seconds a page it made
    mirror_pp = r["render_s"] / r["pages"]
    hugo_pp = r["hugo_s"] / max(r["hugo_pages"], 1)
    out = [
        "%s %s the rules add %.1f%% to the sweep: %.2f s vs %.2f s with "
        "every starter rule off (target <= 10%% at M); CPU %.2f s vs "
        "%.2f s (%+.1f%%: they run beside the sweep on a second core)" % (
            mark(r["rules_pct"] <= 10) if r["size"] == "M" else "      ",
            r["size"], r["rules_pct"], r["sweep_s"],
            r["sweep_norules_s"], r["sweep_cpu_s"],
            r["sweep_norules_cpu_s"], r["rules_cpu_pct"]),
        "%s %s ratio_vs_hugo %.2f (target <= 0.33)" % (
            mark(r["ratio_vs_hugo"] <= 0.33), r["size"], r["ratio_vs_hugo"]),
        "%s %s commit %.2f s vs git CLI %.2f s: %.2f (target <= 0.33)" % (
            mark(r["ratio_vs_git_cli"] <= 0.33), r["size"], r["commit_s"],
            r["git_cli_s"], r["ratio_vs_git_cli"]),
        "%s %s no-op %.2f s = %.1f%% of the full build, %d files, "
        "%d commits (target < 5%%, 0, 0)" % (
            mark(r["noop_s"] < 0.05 * r["total_s"] and
                 r["noop_files_written"] == 0 and r["noop_commits"] == 0),
            r["size"], r["noop_s"], r["noop_pct"],
            r["noop_files_written"], r["noop_commits"]),
        "%s %s one-fact change: %.2f s = %.1f%% of the full build, %d "
        "files written, %d .md files and %d .md lines in the commit%s" % (
            one_change_mark(r), r["size"], r["one_change_s"],
            r["one_change_pct"], r["one_change_files_written"],
            r["one_change_md_files"], r["one_change_md_lines"],
            ONE_CHANGE_TARGET.get(r["size"], ("", None))[0]),
        "       %s the next one-fact change: %.2f s = %.1f%% of the full "
        "build (its rules kept where their tables did not change)" % (
            r["size"], r["next_change_s"], r["next_change_pct"]),
        # each tool's time over the pages it made: Hugo and cmark-gfm
        # render the .md files alone, mirror every page (the HTML-only
        # ones too) with all the rest it writes
        "       %s per page: mirror %.2f ms (%d pages, render+write of "
        "every file), hugo %.2f ms (%d .md pages): %.2f; cmark-gfm "
        "%.2f ms" % (
            r["size"], 1000 * mirror_pp, r["pages"], 1000 * hugo_pp,
            r["hugo_pages"], mirror_pp / hugo_pp,
            1000 * r["cmark_s"] / max(r["md_files"], 1)),
        "       %s on a RAM disk: render %s s vs hugo %s s: %s (no disk's "
        "inode allocator; the target holds the disk's figures)" % (
            r["size"], fmt(r["render_ram_s"]), fmt(r["hugo_ram_s"]),
            fmt(r["ratio_vs_hugo_ram"])),
        "       %s SHA-1 of the site's %d files (%.1f MB) as blobs: %s MB/s" %
        (r["size"], r["hash_files"], r["hash_bytes"] / 1e6, ", ".join(
            "%s %.0f" % (k, r[k + "_mb_s"]) for k in HASHES)),
        "       %s index of the commit's pack (%d objects): mirror %.1f ms, "
        "git_indexer %.1f ms" % (r["size"], r["pack_objects"],
                                 r["idx_mirror_ms"], r["idx_indexer_ms"]),
    ]
    out.append(hosting_line(r))
    if r["conflict_commit_files"] is not None:
        parts = r.get("conflict_commit_parts") or {}
        out.append("%s %s a conflict opened by one fact: %d files in its "
                   "commit (%s; target <= %d)" % (
                       mark(r["conflict_commit_files"] <=
                            CONFLICT_COMMIT_FILES), r["size"],
                       r["conflict_commit_files"], ", ".join(
                           "%d %s" % (n, k) for k, n in parts.items() if n),
                       CONFLICT_COMMIT_FILES))
    if r["size"] in RSS_TARGET_MB:
        peak = max(r["peak_rss_mb"], r["noop_rss_mb"], r["one_change_rss_mb"])
        out.append("%s %s peak RSS of the builds a user runs: %.0f MB "
                   "(full %.0f, no-op %.0f, one-fact change %.0f; "
                   "target <= %d)" % (
                       mark(peak <= RSS_TARGET_MB[r["size"]]), r["size"],
                       peak, r["peak_rss_mb"], r["noop_rss_mb"],
                       r["one_change_rss_mb"], RSS_TARGET_MB[r["size"]]))
    if r["size"] == "L":
        out.append("%s L full build %.2f s (target < 30)" % (
            mark(r["total_s"] < 30), r["total_s"]))
        out.append("%s L sweep %.2f s (< 5), build %.2f s (< 60), "
                   "peak RSS %.0f MB (< 256)" % (
                       mark(r["sweep_s"] < 5 and r["total_s"] < 60 and
                            r["peak_rss_mb"] < 256),
                       r["sweep_s"], r["total_s"], r["peak_rss_mb"]))
    return out


def project_target(r):
    """The line of a projects row: its build, against 30 s at 100,000."""
    if r["total_s"] is None:
        return "MISSED %s stopped after %.0f s" % (r["size"], TIMEOUT)
    line = "%s build --repo of %d one-fact projects: %.2f s, peak RSS " \
        "%.0f MB" % (r["size"], r["projects"], r["total_s"],
                     r["peak_rss_mb"])
    if r["projects"] != 100000:
        return "       " + line
    return "%s %s (target < 30 s)" % (
        "met   " if r["total_s"] < 30 else "MISSED", line)


def browser_target(r):
    """The browser row's line: the largest page's load, against 3 s."""
    loads = (r["load_1280_s"], r["load_390_s"])
    ok = all(x is not None and x <= BROWSER_TARGET_S for x in loads)
    return "%s %s largest page %s (%s bytes) loaded in chromium in %s at " \
        "1280 px, %s at 390 px (target <= %.0f s)" % (
            "met   " if ok else "MISSED", r["size"], r["page"],
            "{:,}".format(r["page_bytes"]), *(
                "over %.0f s" % TIMEOUT if x is None else "%.2f s" % x
                for x in loads), BROWSER_TARGET_S)


def main():
    if len(sys.argv) < 2:
        die("usage: tests/bench/bench.py BUILD [S M L P ...]")
    global TRASH, CACHE
    b = Bench(sys.argv[1])
    labels = sys.argv[2:] or ["S", "M", "P", "C", "B"]
    # What a killed run left goes first.
    shutil.rmtree(b.path("trash"), ignore_errors=True)
    TRASH = b.path("trash")
    CACHE = b.path("cache")
    fresh_cache()
    try:
        bench(b, labels)
    finally:
        TRASH = None
        shutil.rmtree(b.path("trash"), ignore_errors=True)


def bench(b, labels):
    """Run the rows labels names on b and print and save the results."""
    alone = set(labels) <= {"B", "C"}
    tools = ("taskset", "sqlite3") if alone else (
        "hugo", "cmark-gfm", "git", "sqlite3", "xargs", "taskset")
    for tool in tools:
        if shutil.which(tool) is None:
            die("%s is not installed (make bench installs hugo and "
                "cmark-gfm through scripts/install-deps.sh)" % tool)
    if "B" in labels:
        # chromium, node and playwright-core, as the browser tests have
        run(["sh", os.path.join(TOP, "tests", "browser", "ensure.sh")])
    rows, prows, crow, brow = [], [], None, None
    for label in labels:
        if label == "B":
            continue
        if label == "C":
            print("bench: cores row (%d facts)" % SIZES["S"], flush=True)
            crow = b.cores()
            continue
        if label == "P":
            for n in PROJECTS:
                print("bench: projects row (%d projects)" % n, flush=True)
                prows.append(b.projects(n))
            continue
        if label not in SIZES:
            die("unknown size %s (S, M, L, P or C)" % label)
        t = time.perf_counter()
        print("bench: size %s (%d facts)" % (label, SIZES[label]),
              flush=True)
        r = b.size(label, SIZES[label])
        r["bench_wall_s"] = round(time.perf_counter() - t, 1)
        rows.append(r)
        if r["hugo_pages"] is not None and r["hugo_pages"] < r["md_files"]:
            print("bench: warning: hugo rendered %d pages of %d .md "
                  "files" % (r["hugo_pages"], r["md_files"]))
    if "B" in labels:
        # the largest size the run names: its site is the largest
        big = max((x for x in labels if x in SIZES), key=SIZES.get,
                  default=os.environ.get("BENCH_BROWSER", "M"))
        if big not in SIZES:
            die("BENCH_BROWSER=%s: not a size (S, M or L)" % big)
        print("bench: browser row (the largest page of %s)" % big,
              flush=True)
        try:
            brow = b.browser(big)
        except Timeout as e:
            print("bench: browser row stopped: %s" % e, flush=True)
            brow = dict.fromkeys(BROWSER_KEYS, None)
            brow.update(size=big, page="-", page_bytes=0)
    if alone:
        if crow is not None:
            print("\nthe render of the S store by jobs:")
            print("\n".join(cores_lines(crow)))
            with open(b.path("cores.json"), "w") as f:
                json.dump(crow, f, indent=2)
                f.write("\n")
        if brow is not None:
            print(browser_target(brow))
            with open(b.path("browser.json"), "w") as f:
                json.dump(brow, f, indent=2)
                f.write("\n")
        return
    try:
        one, three = b.hostile()
        ratio = three / one
        hostile = "%s hostile corpus x3 %.2f s vs x1 %.2f s: %.1f times " \
            "(target <= 5: linear is 3, quadratic 9)" % (
                "met   " if ratio <= 5 else "MISSED", three, one, ratio)
    except Timeout as e:
        hostile = "MISSED hostile corpus stopped: %s" % e
    load = os.getloadavg()
    res = [dict((k, r[k]) for k in KEYS) for r in rows]
    res += [dict((k, r[k]) for k in PROJECT_KEYS) for r in prows]
    res += [crow] if crow is not None else []
    res += [brow] if brow is not None else []
    path = b.path("results.json")
    with open(path + ".tmp", "w") as f:
        json.dump(res, f, indent=2)
        f.write("\n")
    os.replace(path + ".tmp", path)
    if rows:
        print()
        print(table(rows, COLS))
        print("\npeak RSS per phase, MB:")
        print(table(rows, RSS_COLS))
    if prows:
        print("\none-fact projects:")
        print(table(prows, PROJECT_COLS))
    if crow is not None:
        print("\nthe render of the S store by jobs:")
        print("\n".join(cores_lines(crow)))
    print()
    for r in rows:
        print("\n".join(targets(r)))
    for r in prows:
        print(project_target(r))
    if brow is not None:
        print(browser_target(brow))
    print(hostile)
    print("\nseconds are wall time; 'W' files written, 'C' commits made; "
          "load average after the run %.2f %.2f %.2f on %d cores" % (
              load[0], load[1], load[2], os.cpu_count() or 0))
    print("results: %s" % os.path.relpath(path, TOP))


if __name__ == "__main__":
    main()
