#!/usr/bin/env python3
"""incr_trials.py: random edits to a store, each followed by a build that
may reuse the previous one (A) and a --force build (B); every A must
equal its B.

    incr_trials.py MIRROR TOP STORE WORK [--edits N] [--seed N]
                   [--every N] [--keep DIR] [--unswept]

STORE is the starting store (the example store, not swept yet); TOP the
source tree (its templates/ and themes/default/ are copied into WORK and
edited there). Two copies of STORE receive the same edits:

    WORK/A: store.db, site/, repo.git  built with no --force, so a build
            may skip what it finds unchanged (today: the whole build when
            the store snapshot and every other input match DIR's stamp;
            later: the pages whose input digest is unchanged, DIR updated
            in place, the commit made from the previous commit's tree)
    WORK/B: the same, every build with --force into an empty DIR (its
            site/ is removed first): the reference, which never depends
            on the reuse of DIR's files or of the last commit's tree that
            it is compared with. Only what the last build published that
            a build reads as input stays: DIR's marker, each project's
            api/projects/<slug>.json and api/changes-unaudited.json (a
            fact changed with no audit row is found against them and
            kept in the recent changes: doc/site.md, "Recent changes")

Why two stores and the sweep inside both builds: the sweep is part of
what a build does, and its result (conflicts opened, members added,
conflicts closed by the disagreement vanishing) is input to the pages,
so an incremental build must see what its own sweep changed, not only
what the edit changed. A build's sweep writes to its store, so A and B
each sweep their own copy; the sweep is deterministic (conflict ids and
dates come from the data and the run's clock, never from the order of
runs), so after every step both stores must hold the same rows in every
table but sweep_runs and rule_runs (A skips its sweep when it finds
nothing to do; B always sweeps, which adds a sweep_runs row and a
rule_runs row per rule, and nothing else; so violations are compared
without the ids of the runs that opened and closed them, which the
pages do not show). That is
checked too ("store"), so a site difference is never blamed on the
render when the sweeps disagreed. One step in ten builds both with
--no-sweep instead: the store as it is, stale conflicts and all, which
is another path into the page digests. With --unswept (what
t_incremental.sh runs) the next build with the sweep follows directly;
without it, 'mirror sweep' runs on both stores first, as a separate job
would (see catch_up).

Each step applies one edit, drawn from random.Random(seed) (a failure
prints the seed and the step; INCR_SEED/INCR_EDITS in t_incremental.sh):
  insert      a state row, entity, memory or relationship, in an existing
              project, under an alias, or in a new unlisted one (often a
              clone of an existing row with a changed value: new
              conflicts; sometimes a memory that expires soon)
  update      a value, description, name, status, type, project, alias,
              properties, valid_until... of a random row
  supersede   status 'superseded' plus a new active row (entities: a
              'supersedes' relationship; state and memories: an audit row)
  delete      a random row (an entity's relationships stay, dangling)
  resolve     'mirror conflicts resolve' an open conflict, half of the
              time with --winner (which supersedes the other members)
  dismiss     'mirror conflicts dismiss' an open conflict
  template    in the --templates copy: append a line, change a word,
              delete the override (the bundled one is used), restore it;
              or drop --templates (the bundled set) or give it again
  theme       in the --theme copy: change style.css or a word of
              layout.html, add or remove an asset; or switch --theme to
              a bundled one and back
  project_add a project row (a new one, with or without facts, or one
              that facts already named)
  project_remove  a project row alone (its facts stay: unlisted, and
              rows filed under its aliases split off), or with its facts
  title       --title changes (or goes back to the default)
  base_url    --base-url set or dropped
  clock       SOURCE_DATE_EPOCH moves forward (memories expire)
  noop        nothing, a value written over with itself, a column the
              site does not read, a table mirror does not know, an audit
              row for no fact
Every command runs with the same SOURCE_DATE_EPOCH and --author for A
and B, so commits are comparable. The two builds of a step run at once
(they share nothing). MIRROR_WRAP (make memcheck's valgrind) wraps A's
build of every tenth step, not the others: all of them would take the
better part of an hour.

After every step: both builds exit 0; DIR A and DIR B hold the same
entries (path, kind, permission bits, bytes; also an empty directory;
.mirror-output, the marker, is compared on its own: counted as "marker",
not a stop); the branch tips' trees are equal (git rev-parse), and each
is the tree of its DIR (hashed here as git does); A committed exactly
when the site changed (a no-op build must not commit, B neither);
nothing is left beside either DIR (staging directory, lock file); the
stores agree. Every --every steps and at the end: 'git fsck --strict'
on A's repository (and B's); the branch of each holds one commit per
build that changed the site, with no merge, and A's commits carry B's
trees in the same order.

The first divergence stops the run: the step, its edit (SQL or command),
the differing paths and a short unified diff of the first go to stderr
and into the summary. Prints one JSON object on stdout: edits done,
seed, counts per edit kind, violations per check, the site changes by
page family, timings. Exit 0 when every step agreed, 1 on a divergence,
2 when the setup failed.
"""
import argparse
import calendar
import difflib
import hashlib
import json
import os
import random
import re
import resource
import shlex
import shutil
import sqlite3
import stat
import subprocess
import sys
import time
import urllib.parse

BRANCH = "mirror"
AUTHOR = "Incremental Test <incr@example.org>"
ACTOR = "incr-test"
EPOCH0 = 1793491200          # 2026-11-01 00:00:00 UTC: the example's clock
MARKER = ".mirror-output"
# The pages' record: in DIR, never in the commit (doc/history.md).
RECORD = "api/pages"
PAGE_TEMPLATES = ("index.md", "project.md", "decisions.md", "subsystems.md",
                  "conflicts.md", "conflict.md", "404.md")
KINDS = ("insert", "update", "supersede", "delete", "resolve", "dismiss",
         "template", "theme", "project_add", "project_remove", "title",
         "base_url", "clock", "noop")
WEIGHTS = (29, 19, 8, 8, 5, 3, 6, 3, 3, 2, 2, 1, 4, 7)
CHECKS = ("exit", "files", "tree", "marker", "commit", "store", "leftover",
          "fsck", "history", "dir_tree", "command")
STATE_CATEGORIES = ("status", "decision", "requirement", "contact",
                    "milestone", "fact", "config")
ENTITY_STATUSES = ("active", "active", "candidate", "superseded", "invalid")
FACT_STATUSES = ("active", "active", "superseded", "invalid")
MEMORY_STATUSES = ("active", "active", "candidate", "superseded", "invalid",
                   "graduated")
MEMORY_TYPES = ("identity", "preference", "project", "episodic",
                "knowledge", "adaptation")
REL_TYPES = ("contains", "part_of", "interfaces_with", "satisfies",
             "constrained_by", "affected_by_decision", "supersedes",
             "analyzed_by", "validated_by", "supports", "conflicts_with",
             "depends_on", "described_by", "evidenced_by", "uses_material")
WORDS = ("alpha", "bravo", "copper", "delta", "felt", "granite", "helium",
         "indium", "kapton", "lapping", "mirror", "nickel", "optic",
         "pitch", "quartz", "resin", "silica", "titanium", "vacuum",
         "zerodur", "Grüße", "naïve", "<b>bold</b>", "a & b", "`tick`",
         "*star*", "[link](x)", "| pipe |")
TITLES = (None, "Lab Mirror", "Mirror & <Co>", "Spiegel · Übersicht",
          "Human Mirror", "Mirror `v2` *draft*")
UNITS = ("mm", "kg", "MHz", "W", "MPa", "nm")
THEME_TURNS = ("add", "remove", "css", "switch", "layout")


def q(v):
    """v as an SQL literal."""
    if v is None:
        return "NULL"
    if isinstance(v, (int, float)):
        return repr(v)
    return "'" + str(v).replace("'", "''") + "'"


def ts(epoch):
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(epoch))


def insert_sql(table, row):
    cols = list(row)
    return "INSERT INTO %s(%s) VALUES(%s);" % (
        table, ", ".join(cols), ", ".join(q(row[c]) for c in cols))


# --- comparing sites ---------------------------------------------------


def site_entries(top):
    """{relative path: (kind, permission bits, git blob id or '')} for
    every entry under top: a directory left empty, a file another build
    would write with other permissions or a symlink shows too."""
    out = {}

    def walk(d, prefix):
        with os.scandir(d) as it:
            for ent in it:
                rel = prefix + ent.name
                st = ent.stat(follow_symlinks=False)
                perm = "%o" % stat.S_IMODE(st.st_mode)
                if stat.S_ISDIR(st.st_mode):
                    out[rel] = ("d", perm, "")
                    walk(ent.path, rel + "/")
                elif stat.S_ISREG(st.st_mode):
                    with open(ent.path, "rb") as f:
                        data = f.read()
                    out[rel] = ("f", perm, hashlib.sha1(
                        b"blob %d\0" % len(data) + data).hexdigest())
                else:
                    out[rel] = ("?%o" % st.st_mode, perm, "")
    walk(top, "")
    return out


EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def git_tree_id(entries):
    """The id git gives the tree of a directory whose site_entries are
    entries (regular files, and the directories holding any; the marker
    and the pages' record left out, as the build leaves them out of its
    commit): what a commit of it must hold. None when it holds anything
    else (a symlink)."""
    kids = {}
    for rel, ent in entries.items():
        if rel != MARKER and rel != RECORD and \
                not rel.startswith(RECORD + "/"):
            parent, _, name = rel.rpartition("/")
            kids.setdefault(parent, []).append((name, ent))

    def tree(d):
        rows = []
        for name, (kind, perm, oid) in kids.get(d, ()):
            if kind == "d":
                sub = tree(d + "/" + name if d else name)
                if sub is None:
                    return None
                if sub != EMPTY_TREE:
                    rows.append((os.fsencode(name) + b"/", b"40000", name,
                                 sub))
            elif kind == "f":
                rows.append((os.fsencode(name), b"100755"
                             if int(perm, 8) & 0o100 else b"100644", name,
                             oid))
            else:
                return None
        # git orders a tree's entries by name, a directory's as name/.
        body = b"".join(mode + b" " + os.fsencode(name) + b"\0" +
                        bytes.fromhex(oid) for _, mode, name, oid in
                        sorted(rows, key=lambda x: x[0]))
        return hashlib.sha1(b"tree %d\0" % len(body) + body).hexdigest()
    return tree("")


def family(path):
    """The page family a site path belongs to."""
    parts = path.split("/")
    if parts[0] == "projects" and len(parts) >= 3:
        if parts[2].startswith("subsystems"):
            return "subsystem"
        if parts[2].startswith("decisions"):
            return "decisions"
        return "project"
    if parts[0] == "api" and len(parts) >= 2:
        if parts[1] == "projects":
            return "project"
        if parts[1] == "conflicts":
            return "conflict"
        if parts[1] == "conflicts.json":
            return "conflicts"
        return "api"
    if parts[0] == "conflicts" and len(parts) >= 2:
        return "conflicts" if parts[1].startswith("index.") else "conflict"
    if parts[0] == "assets":
        return "assets"
    if parts[0].startswith("index."):
        return "index"
    if parts[0] in ("feed.xml", "sitemap.xml") or (
            parts[0].startswith("sitemap-") and parts[0].endswith(".xml")):
        return "feeds"
    return "other"


def describe(entries, path):
    """One entry of site_entries, for a person."""
    if path not in entries:
        return "missing"
    kind, perm, oid = entries[path]
    return "%s %s %s" % ({"f": "file", "d": "dir"}.get(kind, kind), perm,
                         oid[:12])


def diff_first(path):
    """Which differing path to show a diff of: a Markdown page first (the
    most readable), the stamp api/build.json last (it differs whenever
    anything does)."""
    return (0 if path.endswith(".md") else 2 if path == "api/build.json"
            else 1, path)


def short_diff(a_dir, b_dir, rel, limit=30):
    """A unified diff of rel in A and B (at most limit lines)."""
    def lines(top):
        p = os.path.join(top, rel)
        if not os.path.lexists(p):
            return ["(missing)\n"]
        if os.path.isdir(p) and not os.path.islink(p):
            return ["(a directory)\n"]
        with open(p, "rb") as f:
            return f.read().decode("utf-8", "replace").splitlines(True)
    d = list(difflib.unified_diff(lines(b_dir), lines(a_dir),
                                  "B/" + rel + " (--force)",
                                  "A/" + rel + " (incremental)", n=2))
    more = len(d) - limit
    d = [x.rstrip("\n") for x in d[:limit]]
    if more > 0:
        d.append("... %d more diff lines" % more)
    return d


# --- the store ---------------------------------------------------------


def store_digest(db):
    """{table: hash of its rows} for every table but sweep_runs and
    rule_runs, and of mirror_meta but the rules' keys, in an order that
    does not depend on how the rows were written."""
    con = sqlite3.connect("file:%s?mode=ro" % urllib.parse.quote(db),
                          uri=True, timeout=30)
    out = {}
    try:
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND "
            "name NOT LIKE 'sqlite_%' ORDER BY name")]
        for t in tables:
            # rule_runs, like sweep_runs, records each run; a
            # violation's run ids count runs, which A skips. The
            # tables' versions are random (core/store/store.h):
            # each store draws its own.
            if t in ("sweep_runs", "rule_runs", "mirror_table_versions"):
                continue
            cols, where = "*", ""
            # A's keys of its rules' inputs (doc/rules.md): a --force
            # build's sweep has no digest and writes none.
            if t == "mirror_meta":
                where = " WHERE key NOT LIKE 'rule\\_input:%' ESCAPE '\\'"
            if t == "rule_violations":
                cols = ("id, rule_id, severity, project, facts, message, "
                        "status, detected_at, closed_at")
            rows = sorted(repr(r) for r in con.execute(
                'SELECT %s FROM "%s"%s' % (cols, t, where)))
            out[t] = hashlib.sha256("\n".join(rows).encode()).hexdigest()
    finally:
        con.close()
    return out


class Store:
    """Read access to A's store for drawing edits (closed after each
    step, so no connection is open while mirror writes)."""

    def __init__(self, db):
        self.con = sqlite3.connect("file:%s?mode=ro" %
                                   urllib.parse.quote(db), uri=True,
                                   timeout=30)
        self.con.row_factory = sqlite3.Row

    def close(self):
        self.con.close()

    def rows(self, sql, *args):
        return [dict(r) for r in self.con.execute(sql, args)]

    def col(self, sql, *args):
        return [r[0] for r in self.con.execute(sql, args)]


# --- drawing edits -----------------------------------------------------


class Edit:
    """One step's change: kind and variant (for the counts), a text to
    print, and what to do: sql (applied to both stores), cmd (a mirror
    command run on both stores), files (applied once to the shared
    template and theme copies), opts (build options) or clock."""

    def __init__(self, kind, variant, text, sql=None, cmd=None, files=None,
                 opts=None, clock=None):
        self.kind, self.variant, self.text = kind, variant, text
        self.sql, self.cmd, self.files = sql, cmd, files
        self.opts, self.clock = opts, clock


class Drawer:
    def __init__(self, rng, work, top):
        self.rng = rng
        self.work = work
        self.top = top
        self.templates = os.path.join(work, "templates")
        self.theme = os.path.join(work, "theme")
        self.opts = {"title": None, "base_url": None, "theme": self.theme,
                     "templates": self.templates}
        self.clock = EPOCH0
        self.n = 0
        self.extra_assets = []
        self.deck = []
        self.theme_turn = self.project_turn = self.remove_turn = 0

    # small pieces

    def word(self):
        return self.rng.choice(WORDS)

    def new_id(self, what):
        # Now and then an id no file system likes raw (slugged by mirror).
        tail = self.rng.choice(["", "", "", "", " Ä/x", ".."])
        return "t%d-%s%s" % (self.n, what, tail)

    def when(self):
        return ts(self.clock - self.rng.randrange(0, 40 * 86400))

    def mutate(self, s):
        """A changed version of text s: a number moved, a word added or
        replaced."""
        r = self.rng
        nums = list(re.finditer(r"\d+(\.\d+)?", s))
        c = r.random()
        if nums and c < 0.5:
            m = r.choice(nums)
            new = str(int(float(m.group(0))) + r.randint(1, 9))
            return s[:m.start()] + new + s[m.end():]
        if c < 0.75 or not s:
            return (s + " " + self.word()).strip()
        words = s.split(" ")
        words[r.randrange(len(words))] = self.word()
        return " ".join(words)

    def mutate_props(self, text):
        try:
            p = json.loads(text)
        except ValueError:
            p = {}
        if not isinstance(p, dict):
            p = {}
        keys = sorted(p)
        r = self.rng
        if "value" in p and r.random() < 0.7:
            v = p["value"]
            if isinstance(v, bool) or v is None:
                p["value"] = self.word()
            elif isinstance(v, (int, float)):
                p["value"] = round(v + r.choice((0.02, 1, 5, -1)), 3)
            else:
                p["value"] = self.mutate(str(v))
        elif keys and r.random() < 0.6:
            k = r.choice(keys)
            v = p[k]
            p[k] = self.mutate(v) if isinstance(v, str) else self.word()
        else:
            p["note_%d" % self.n] = self.word()
        return json.dumps(p, ensure_ascii=False, sort_keys=True)

    def projects(self, st):
        """Every name a fact may file under: listed ids, their aliases,
        and the unlisted projects facts already name."""
        names = []
        for p in st.rows("SELECT id, aliases FROM projects ORDER BY id"):
            names.append(p["id"])
            try:
                names += [a for a in json.loads(p["aliases"])
                          if isinstance(a, str)]
            except ValueError:
                pass
        names += st.col(
            "SELECT DISTINCT project FROM project_state UNION SELECT "
            "project FROM entities UNION SELECT project FROM memories "
            "ORDER BY 1")
        return sorted(set(x for x in names if x))

    def project(self, st):
        r = self.rng.random()
        if r < 0.1:
            return "t%d-unlisted" % self.n
        return self.rng.choice(self.projects(st))

    def pick(self, st, table, where="1"):
        ids = st.col("SELECT id FROM %s WHERE %s ORDER BY id" %
                     (table, where))
        return self.rng.choice(ids) if ids else None

    # the kinds

    def draw(self, st, n):
        """Step n's edit. The kinds come from a shuffled deck holding
        each as often as WEIGHTS says, so every run through a deck (100
        steps) has them all."""
        self.n = n
        if not self.deck:
            self.deck = [k for k, w in zip(KINDS, WEIGHTS)
                         for _ in range(w)]
            self.rng.shuffle(self.deck)
        kind = self.deck.pop()
        e = getattr(self, "d_" + kind)(st)
        return e if e is not None else self.d_insert(st)

    def d_insert(self, st):
        what = self.rng.choice(("state", "state", "entity", "entity",
                                "entity", "memory", "memory",
                                "relationship"))
        return getattr(self, "ins_" + what)(st)

    def ins_state(self, st):
        r = self.rng
        rows = st.rows("SELECT * FROM project_state ORDER BY id")
        now = self.when()
        if rows and r.random() < 0.6:
            row = dict(r.choice(rows))
            variant = "state clone"
            if r.random() < 0.7:
                row["value"] = self.mutate(row["value"])
            else:
                variant = "state duplicate"
        else:
            variant = "state new key"
            row = {"project": self.project(st),
                   "category": r.choice(STATE_CATEGORIES),
                   "key": "key_t%d" % self.n,
                   "value": "%d %s" % (r.randint(1, 400), r.choice(UNITS)),
                   "source": "incremental test", "confidence": 1.0}
        row.update(id=self.new_id("st"), status="active", created_at=now,
                   updated_at=now)
        sql = insert_sql("project_state", row)
        return Edit("insert", variant, sql, sql=sql)

    def ins_entity(self, st):
        r = self.rng
        rows = st.rows("SELECT * FROM entities ORDER BY id")
        now = self.when()
        if rows and r.random() < 0.7:
            row = dict(r.choice(rows))
            variant = "entity clone " + row["entity_type"]
            c = r.random()
            if c < 0.6:
                row["properties"] = self.mutate_props(row["properties"])
            elif c < 0.8:
                row["name"] = self.mutate(row["name"])
            else:
                row["description"] = self.mutate(row["description"])
        else:
            t = r.choice(("subsystem", "subsystem", "component", "decision",
                          "parameter", "material", "requirement"))
            variant = "entity new " + t
            name = "%s %s %d" % (t, self.word(), self.n)
            props = {"subsystem": {"part_of": "system %s" % self.word()},
                     "component": {"part_of": "sub %s" % self.word()},
                     "decision": {"target": "lateral support",
                                  "field": r.choice(("material", "finish")),
                                  "value": self.word()},
                     "parameter": {"scope": "unit %d" % r.randint(0, 3),
                                   "value": r.choice((4.8, 4.82, 5)),
                                   "unit": "kg"},
                     "material": {"component": "comp %d" % r.randint(0, 3)},
                     "requirement": {"key": "req_%d" % r.randint(0, 5),
                                     "value": r.randint(1, 20),
                                     "unit": "kg"}}[t]
            row = {"entity_type": t, "name": name,
                   "project": self.project(st),
                   "description": "the %s %s" % (t, self.word()),
                   "properties": json.dumps(props, ensure_ascii=False),
                   "source_refs": json.dumps(["incr:%d" % self.n])}
        row.update(id=self.new_id("en"), status="active", created_at=now,
                   updated_at=now)
        sql = insert_sql("entities", row)
        return Edit("insert", variant, sql, sql=sql)

    def ins_memory(self, st):
        r = self.rng
        rows = st.rows("SELECT * FROM memories ORDER BY id")
        now = self.when()
        if rows and r.random() < 0.5:
            row = dict(r.choice(rows))
            row["content"] = self.mutate(row["content"])
            variant = "memory clone"
        else:
            # A statement on a key the project has in state (cross-layer
            # when it differs), a preference, or an episode.
            keys = st.rows("SELECT project, key, value FROM project_state "
                           "WHERE status = 'active' ORDER BY id")
            c = r.random()
            if keys and c < 0.5:
                k = r.choice(keys)
                val = k["value"] if r.random() < 0.4 else \
                    self.mutate(k["value"])
                row = {"memory_type": "knowledge", "project": k["project"],
                       "content": "%s is %s" % (k["key"].replace("_", " "),
                                                val)}
                variant = "memory on a state key"
            elif c < 0.8:
                row = {"memory_type": "preference",
                       "project": self.project(st),
                       "content": "prefers %s for %s" % (
                           self.word(), r.choice(("polishing", "linting",
                                                  "cleaning")))}
                variant = "memory preference"
            else:
                row = {"memory_type": "episodic", "project": r.choice(
                    ("", self.project(st))),
                    "content": "met %s about batch %d" % (self.word(),
                                                         self.n)}
                variant = "memory episodic"
            row.update(confidence=0.5 + r.randint(0, 5) / 10.0,
                       reference_count=r.randint(0, 9),
                       domain_tags=json.dumps([self.word()],
                                              ensure_ascii=False))
        c = r.random()
        if c < 0.25:
            # Expires while the trials run (the clock moves forward).
            row["valid_until"] = ts(self.clock +
                                    r.randrange(3600, 60 * 86400))
            variant += ", expiring"
        elif c < 0.3:
            row["valid_until"] = ts(self.clock - 86400)
            variant += ", expired"
        row.update(id=self.new_id("me"), status="active", created_at=now,
                   updated_at=now)
        row.pop("graduated_to_entity_id", None)
        sql = insert_sql("memories", row)
        return Edit("insert", variant, sql, sql=sql)

    def ins_relationship(self, st):
        r = self.rng
        ents = st.col("SELECT id FROM entities ORDER BY id")
        if len(ents) < 2:
            return self.ins_state(st)
        src = r.choice(ents)
        dst = r.choice(ents) if r.random() < 0.95 else "t%d-nowhere" % self.n
        row = {"id": self.new_id("rel"), "source_entity_id": src,
               "target_entity_id": dst,
               "relationship_type": r.choice(REL_TYPES),
               "confidence": r.choice((1.0, 0.8)),
               "created_at": self.when()}
        sql = insert_sql("relationships", row)
        return Edit("insert", "relationship " + row["relationship_type"],
                    sql, sql=sql)

    def d_update(self, st):
        r = self.rng
        table = r.choice(("project_state", "project_state", "entities",
                          "entities", "entities", "memories", "memories",
                          "projects", "relationships"))
        rid = self.pick(st, table)
        if rid is None:
            return None
        row = st.rows("SELECT * FROM %s WHERE id = ?" % table, rid)[0]
        sets = {}
        if table == "project_state":
            col = r.choice(("value", "value", "value", "status", "source",
                            "confidence", "category", "project", "key"))
            sets[col] = {
                "value": lambda: self.mutate(row["value"]),
                "status": lambda: r.choice(FACT_STATUSES),
                "source": lambda: self.mutate(row["source"]),
                "confidence": lambda: r.choice((0.5, 0.9, 1.0)),
                "category": lambda: r.choice(STATE_CATEGORIES),
                "project": lambda: self.project(st),
                "key": lambda: row["key"] + "_b"}[col]()
        elif table == "entities":
            col = r.choice(("properties", "properties", "description",
                            "name", "status", "project", "entity_type",
                            "source_refs", "confidence"))
            sets[col] = {
                "properties": lambda: self.mutate_props(row["properties"]),
                "description": lambda: self.mutate(row["description"]),
                "name": lambda: self.mutate(row["name"]),
                "status": lambda: r.choice(ENTITY_STATUSES),
                "project": lambda: self.project(st),
                "entity_type": lambda: r.choice(("subsystem", "component",
                                                 "artifact", "decision")),
                "source_refs": lambda: json.dumps(["incr:%d" % self.n]),
                "confidence": lambda: r.choice((0.5, 0.9, 1.0))}[col]()
        elif table == "memories":
            col = r.choice(("content", "content", "status", "memory_type",
                            "valid_until", "project", "confidence",
                            "domain_tags", "reference_count"))
            sets[col] = {
                "content": lambda: self.mutate(row["content"]),
                "status": lambda: r.choice(MEMORY_STATUSES),
                "memory_type": lambda: r.choice(MEMORY_TYPES),
                "valid_until": lambda: r.choice((
                    None, ts(self.clock + r.randrange(3600, 30 * 86400)),
                    ts(self.clock - 3600))),
                "project": lambda: r.choice(("", self.project(st))),
                "confidence": lambda: r.choice((0.5, 0.9, 1.0)),
                "domain_tags": lambda: json.dumps([self.word()],
                                                  ensure_ascii=False),
                "reference_count": lambda: r.randint(0, 20)}[col]()
        elif table == "projects":
            col = r.choice(("name", "description", "aliases"))
            if col == "aliases":
                try:
                    al = json.loads(row["aliases"])
                except ValueError:
                    al = []
                if al and r.random() < 0.5:
                    al.pop(r.randrange(len(al)))
                else:
                    al.append("t%d-alias" % self.n)
                sets[col] = json.dumps(al)
            else:
                sets[col] = self.mutate(row[col])
        else:
            col = r.choice(("relationship_type", "target_entity_id",
                            "confidence"))
            if col == "target_entity_id":
                sets[col] = self.pick(st, "entities")
            elif col == "confidence":
                sets[col] = r.choice((0.5, 1.0))
            else:
                sets[col] = r.choice(REL_TYPES)
        if table in ("project_state", "entities", "memories"):
            sets["updated_at"] = ts(self.clock)
        sql = "UPDATE %s SET %s WHERE id = %s;" % (
            table, ", ".join("%s = %s" % (c, q(v)) for c, v in sets.items()),
            q(rid))
        return Edit("update", "%s.%s" % (table, col), sql, sql=sql)

    def d_supersede(self, st):
        r = self.rng
        table = r.choice(("project_state", "entities", "entities",
                          "memories"))
        rid = self.pick(st, table, "status = 'active'")
        if rid is None:
            return None
        old = st.rows("SELECT * FROM %s WHERE id = ?" % table, rid)[0]
        new = dict(old)
        now = ts(self.clock)
        new.update(id=self.new_id("sup"), status="active", created_at=now,
                   updated_at=now)
        stmts = ["BEGIN;", "UPDATE %s SET status = 'superseded', "
                 "updated_at = %s WHERE id = %s;" % (table, q(now), q(rid))]
        if table == "project_state":
            new["value"] = self.mutate(old["value"])
        elif table == "entities":
            new["properties"] = self.mutate_props(old["properties"])
        else:
            new["content"] = self.mutate(old["content"])
            new.pop("graduated_to_entity_id", None)
        stmts.append(insert_sql(table, new))
        if table == "entities":
            stmts.append(insert_sql("relationships", {
                "id": "t%d-supersedes" % self.n,
                "source_entity_id": new["id"], "target_entity_id": rid,
                "relationship_type": "supersedes", "created_at": now}))
        else:
            stmts.append(insert_sql("memory_audit", {
                "id": "t%d-audit" % self.n, "memory_id": rid,
                "entity_kind": "project_state" if table == "project_state"
                else "memory", "action": "superseded", "actor": ACTOR,
                "note": "replaced by %s" % new["id"], "timestamp": now}))
        stmts.append("COMMIT;")
        sql = "\n".join(stmts)
        return Edit("supersede", table, sql, sql=sql)

    def d_delete(self, st):
        r = self.rng
        table = r.choice(("project_state", "entities", "entities",
                          "memories", "relationships", "memory_audit"))
        rid = self.pick(st, table)
        if rid is None:
            return None
        sql = "DELETE FROM %s WHERE id = %s;" % (table, q(rid))
        return Edit("delete", table, sql, sql=sql)

    def open_conflict(self, st):
        return self.pick(st, "conflicts", "status = 'open'")

    def d_resolve(self, st):
        cid = self.open_conflict(st)
        if cid is None:
            return None
        cmd = ["conflicts", "resolve", cid, "--notes",
               "step %d: %s" % (self.n, self.word()), "--actor", ACTOR]
        variant = "no winner"
        if self.rng.random() < 0.5:
            mem = st.rows("SELECT member_kind, member_id FROM "
                          "conflict_members WHERE conflict_id = ? ORDER BY "
                          "member_kind, member_id", cid)
            if mem:
                m = self.rng.choice(mem)
                ids = [x["member_id"] for x in mem]
                w = m["member_id"] if ids.count(m["member_id"]) == 1 else \
                    "%s:%s" % (m["member_kind"], m["member_id"])
                cmd += ["--winner", w]
                variant = "winner " + m["member_kind"]
        return Edit("resolve", variant, "mirror " + shlex.join(cmd), cmd=cmd)

    def d_dismiss(self, st):
        cid = self.open_conflict(st)
        if cid is None:
            return None
        cmd = ["conflicts", "dismiss", cid, "--reason",
               "step %d: not a real one" % self.n, "--actor", ACTOR]
        return Edit("dismiss", "", "mirror " + shlex.join(cmd), cmd=cmd)

    def literal_words(self, text):
        """(start, end) of words in text outside {{...}} with a blank on
        both sides: changing one changes no template syntax, link or
        code."""
        spans = []
        pos = 0
        for m in re.finditer(r"\{\{.*?\}\}", text, re.S):
            spans.append((pos, m.start()))
            pos = m.end()
        spans.append((pos, len(text)))
        out = []
        for a, b in spans:
            for m in re.finditer(r"(?<= )[A-Za-z]{3,}(?= )", text[a:b]):
                out.append((a + m.start(), a + m.end()))
        return out

    def d_template(self, st):
        r = self.rng
        # --templates itself comes and goes (the bundled set is used
        # without it; an edit of the copy meanwhile changes nothing).
        on = self.opts["templates"] is not None
        if r.random() < (0.2 if on else 0.4):
            return Edit("template", "drop --templates" if on else
                        "--templates again", "--templates %s" %
                        ("(none)" if on else "TEMPLATES_COPY"),
                        opts={"templates": None if on else self.templates})
        name = r.choice(PAGE_TEMPLATES)
        path = os.path.join(self.templates, name)
        pristine = os.path.join(self.top, "templates", name)
        if not os.path.exists(path):
            return Edit("template", "restore a deleted override",
                        "restore templates/%s" % name,
                        files=[(path, read(pristine))])
        text = read(path)
        c = r.random()
        if c < 0.4:
            line = "\nTemplate note %d: %s.\n" % (self.n, self.word())
            return Edit("template", "append a line", "append %r to "
                        "templates/%s" % (line, name),
                        files=[(path, text + line)])
        if c < 0.75:
            spans = self.literal_words(text)
            if spans:
                a, b = r.choice(spans)
                # Often a word of the same length: a size-and-time check
                # alone cannot see it.
                old = text[a:b]
                new = old[::-1] if r.random() < 0.5 else self.word()
                if new == old:
                    new = old.upper()
                return Edit("template", "change a word",
                            "templates/%s: %r -> %r at %d" % (name, old, new,
                                                               a),
                            files=[(path, text[:a] + new + text[b:])])
        if c < 0.9:
            return Edit("template", "delete the override",
                        "rm templates/%s (the bundled one is used)" % name,
                        files=[(path, None)])
        return Edit("template", "restore", "restore templates/%s" % name,
                    files=[(path, read(pristine))])

    def d_theme(self, st):
        # The changes come in turn (THEME_TURNS), so a short run has them
        # all; back to the copy first when a bundled theme is in use.
        r = self.rng
        css = os.path.join(self.theme, "assets", "style.css")
        layout = os.path.join(self.theme, "layout.html")
        if self.opts["theme"] != self.theme:
            return Edit("theme", "switch back", "--theme THEME_COPY",
                        opts={"theme": self.theme})
        turn = THEME_TURNS[self.theme_turn % len(THEME_TURNS)]
        self.theme_turn += 1
        if turn == "switch":
            to = r.choice(("plain", "default"))
            return Edit("theme", "switch", "--theme %s" % to,
                        opts={"theme": to})
        if turn == "css":
            line = "/* step %d */\n" % self.n
            return Edit("theme", "style.css", "append %r to style.css" %
                        line, files=[(css, read(css) + line)])
        if turn == "layout":
            text = read(layout)
            a, b = r.choice(self.literal_words(text))
            new = self.word().replace("<", "").replace(">", "")
            return Edit("theme", "layout word", "layout.html: %r -> %r"
                        % (text[a:b], new),
                        files=[(layout, text[:a] + new + text[b:])])
        if turn == "add" or not self.extra_assets:
            p = os.path.join(self.theme, "assets", "extra-%d.css" % self.n)
            self.extra_assets.append(p)
            return Edit("theme", "add asset", "add assets/%s" %
                        os.path.basename(p),
                        files=[(p, "/* extra %d */\n" % self.n)])
        p = self.extra_assets.pop(r.randrange(len(self.extra_assets)))
        return Edit("theme", "remove asset", "rm assets/%s" %
                    os.path.basename(p), files=[(p, None)])

    def d_project_add(self, st):
        r = self.rng
        listed = set(st.col("SELECT id FROM projects"))
        named = [p for p in self.projects(st) if p not in listed]
        aliases = set()
        for a in st.col("SELECT aliases FROM projects"):
            try:
                aliases.update(json.loads(a))
            except ValueError:
                pass
        named = [p for p in named if p not in aliases]
        now = ts(self.clock)
        turn = self.project_turn
        self.project_turn += 1
        if named and turn % 3 == 2:
            pid = r.choice(named)
            sql = insert_sql("projects", {
                "id": pid, "name": "Listed %s" % pid, "aliases": "[]",
                "description": "listed at step %d" % self.n,
                "created_at": now})
            return Edit("project_add", "list a named project", sql, sql=sql)
        pid = "t%d-proj" % self.n
        stmts = [insert_sql("projects", {
            "id": pid, "name": "Project %d %s" % (self.n, self.word()),
            "aliases": json.dumps(["t%d-p" % self.n]),
            "description": "added at step %d" % self.n, "created_at": now})]
        variant = "bare"
        if turn % 3 == 0:
            variant = "with facts"
            stmts = ["BEGIN;"] + stmts + [
                insert_sql("project_state", {
                    "id": "t%d-pst" % self.n, "project": "t%d-p" % self.n,
                    "category": "decision", "key": "finish",
                    "value": self.word(), "created_at": now,
                    "updated_at": now}),
                insert_sql("entities", {
                    "id": "t%d-psub" % self.n, "entity_type": "subsystem",
                    "name": "sub %s" % self.word(), "project": pid,
                    "description": "a subsystem",
                    "properties": '{"part_of": "system 0"}',
                    "created_at": now, "updated_at": now}),
                insert_sql("entities", {
                    "id": "t%d-pdec" % self.n, "entity_type": "decision",
                    "name": "finish", "project": pid,
                    "properties": json.dumps({"target": "finish",
                                              "field": "kind",
                                              "value": self.word()}),
                    "created_at": now, "updated_at": now}),
                insert_sql("memories", {
                    "id": "t%d-pmem" % self.n, "memory_type": "knowledge",
                    "content": "finish is %s" % self.word(),
                    "project": pid, "created_at": now, "updated_at": now}),
                "COMMIT;"]
        sql = "\n".join(stmts)
        return Edit("project_add", variant, sql, sql=sql)

    def d_project_remove(self, st):
        pid = self.pick(st, "projects")
        if pid is None:
            return None
        self.remove_turn += 1
        if self.remove_turn % 2 == 0:
            sql = "DELETE FROM projects WHERE id = %s;" % q(pid)
            return Edit("project_remove", "row only", sql, sql=sql)
        names = [pid]
        try:
            names += json.loads(st.col("SELECT aliases FROM projects WHERE "
                                       "id = ?", pid)[0])
        except ValueError:
            pass
        inn = "(%s)" % ", ".join(q(x) for x in names)
        sql = "\n".join(["BEGIN;"] + [
            "DELETE FROM %s WHERE project IN %s;" % (t, inn)
            for t in ("project_state", "entities", "memories")] + [
            "DELETE FROM projects WHERE id = %s;" % q(pid), "COMMIT;"])
        return Edit("project_remove", "with its facts", sql, sql=sql)

    def d_title(self, st):
        t = self.rng.choice([x for x in TITLES if x != self.opts["title"]])
        return Edit("title", "", "--title %r" % (t,), opts={"title": t})

    def d_base_url(self, st):
        u = None if self.opts["base_url"] else \
            self.rng.choice(("https://mirror.example.org/",
                             "https://example.org/lab/mirror"))
        return Edit("base_url", "", "--base-url %r" % (u,),
                    opts={"base_url": u})

    def d_clock(self, st):
        # Half of the time just past the next memory's expiry: the
        # store is the same, the pages are not.
        nxt = st.col("SELECT min(valid_until) FROM memories WHERE "
                     "valid_until > ? AND valid_until <> ''",
                     ts(self.clock))[0]
        if nxt is not None and self.rng.random() < 0.5:
            c = calendar.timegm(time.strptime(nxt, "%Y-%m-%d %H:%M:%S")) + \
                self.rng.randrange(1, 3600)
            variant = "past an expiry"
        else:
            step = self.rng.choice((3600, 86400, 3 * 86400, 9 * 86400,
                                    30 * 86400))
            c = self.clock + self.rng.randrange(step // 2, step + 1)
            variant = "forward"
        return Edit("clock", variant, "SOURCE_DATE_EPOCH=%d (%s)" %
                    (c, ts(c)), clock=c)

    def d_noop(self, st):
        r = self.rng
        c = r.randrange(5)
        if c == 0:
            return Edit("noop", "nothing", "(no change)")
        if c == 1:
            rid = self.pick(st, "project_state")
            if rid is None:
                return Edit("noop", "nothing", "(no change)")
            sql = "UPDATE project_state SET value = value WHERE id = %s;" % \
                q(rid)
            return Edit("noop", "same value", sql, sql=sql)
        if c == 2:
            rid = self.pick(st, "relationships")
            table, col = ("relationships", "created_at") if rid else \
                ("projects", "created_at")
            if rid is None:
                rid = self.pick(st, "projects")
            if rid is None:
                return Edit("noop", "nothing", "(no change)")
            sql = "UPDATE %s SET %s = %s WHERE id = %s;" % (
                table, col, q(ts(self.clock)), q(rid))
            return Edit("noop", "unread column", sql, sql=sql)
        if c == 3:
            sql = ("CREATE TABLE IF NOT EXISTS local_notes(step, note); "
                   "INSERT INTO local_notes VALUES(%d, %s);" %
                   (self.n, q(self.word())))
            return Edit("noop", "unknown table", sql, sql=sql)
        sql = insert_sql("memory_audit", {
            "id": "t%d-orphan" % self.n, "memory_id": "t%d-no-such-fact"
            % self.n, "entity_kind": "memory", "action": "updated",
            "actor": ACTOR, "note": "about no fact",
            "timestamp": ts(self.clock)})
        return Edit("noop", "audit row for no fact", sql, sql=sql)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


# --- the trials --------------------------------------------------------


class Trials:
    def __init__(self, a):
        self.mirror = a.mirror
        self.wrap = shlex.split(os.environ.get("MIRROR_WRAP", ""))
        self.work = os.path.abspath(a.work)
        self.top = os.path.abspath(a.top)
        self.every = a.every
        self.keep = a.keep
        self.seed = a.seed
        self.edits = a.edits
        self.rng = random.Random(a.seed)
        self.d = Drawer(self.rng, self.work, self.top)
        self.bad = dict.fromkeys(CHECKS, 0)
        self.kinds = dict.fromkeys(KINDS, 0)
        self.variants = {}
        self.families = {}
        self.details = []
        self.divergence = None
        self.changes = 0          # builds whose site differed from the last
        self.trees = []           # B's tree after each change, in order
        self.noop_builds = 0
        self.no_sweep_builds = 0
        self.a_unchanged = 0      # A builds that rendered nothing
        self.a_written = self.b_written = 0
        self.t_builds = 0.0       # wall seconds of the build pairs
        self.fsck_runs = 0
        self.catch_ups = 0
        self.unswept_ok = a.unswept
        self.prev = None          # B's entries after the last step
        self.prev_tree = None

    def path(self, side, *rest):
        return os.path.join(self.work, side, *rest)

    def run(self, argv, env=None):
        return subprocess.run([self.mirror] + argv,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env)

    def env(self):
        e = dict(os.environ)
        e["SOURCE_DATE_EPOCH"] = str(self.d.clock)
        return e

    def build_argv(self, side, no_sweep):
        o = self.d.opts
        argv = ["build", "--store", self.path(side, "store.db"),
                "--out", self.path(side, "site"),
                "--repo", self.path(side, "repo.git"),
                "--author", AUTHOR, "--theme", o["theme"], "--json",
                "--quiet"]
        if o["templates"] is not None:
            argv += ["--templates", o["templates"]]
        if o["title"] is not None:
            argv += ["--title", o["title"]]
        if o["base_url"] is not None:
            argv += ["--base-url", o["base_url"]]
        if no_sweep:
            argv.append("--no-sweep")
        if side == "B":
            argv.append("--force")
        return argv

    @staticmethod
    def empty_but_published(site):
        """Empty DIR site but for what a build reads of the last one's
        publication: api/projects/ and api/changes-unaudited.json, with
        the first line of its marker (which lets a build write there;
        not its tree, which would make the commit from the last one's)."""
        keep = [os.path.join("api", "projects"),
                os.path.join("api", "changes-unaudited.json")]
        saved = site + ".published"
        shutil.rmtree(saved, ignore_errors=True)
        marker = os.path.join(site, ".mirror-output")
        if os.path.isfile(marker):
            os.makedirs(saved)
            with open(marker, encoding="utf-8") as f:
                first = f.readline()
            with open(os.path.join(saved, ".mirror-output"), "w",
                      encoding="utf-8") as f:
                f.write(first)
        for rel in keep:
            src = os.path.join(site, rel)
            if os.path.isdir(src):
                shutil.copytree(src, os.path.join(saved, rel))
            elif os.path.isfile(src):
                os.makedirs(os.path.dirname(os.path.join(saved, rel)),
                            exist_ok=True)
                shutil.copy2(src, os.path.join(saved, rel))
        shutil.rmtree(site, ignore_errors=True)
        if os.path.isdir(saved):
            os.rename(saved, site)

    def builds(self, no_sweep, wrap):
        """Build A and B at once (they share nothing: two stores, two
        DIRs, two repositories; the machine has two cores). Returns, per
        side, (exit status, the --json object or None, stderr, seconds,
        argv)."""
        # B's DIR goes first: B is a whole render into an empty DIR, so it
        # never depends on the reuse of DIR's files it is compared with;
        # but for the last build's publication that a build reads.
        self.empty_but_published(self.path("B", "site"))
        t0 = time.monotonic()
        procs = []
        for side in ("A", "B"):
            argv = self.build_argv(side, no_sweep)
            procs.append((argv, subprocess.Popen(
                (wrap if side == "A" else []) + [self.mirror] + argv,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, env=self.env())))
        out = []
        for argv, p in procs:
            stdout, stderr = p.communicate()
            js = None
            if p.returncode == 0:
                try:
                    js = json.loads(stdout)
                except ValueError:
                    js = None
            out.append((p.returncode, js, stderr.strip(),
                        time.monotonic() - t0, argv))
        return out

    def git(self, side, *args):
        p = subprocess.run(["git", "--git-dir", self.path(side, "repo.git")]
                           + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        return p.returncode, p.stdout.strip(), p.stderr.strip()

    def tip_tree(self, side):
        rc, out, _ = self.git(side, "rev-parse", "--verify", "-q",
                              BRANCH + "^{tree}")
        return out if rc == 0 else None

    def fail(self, check, n, edit, lines, stop=True):
        self.bad[check] += 1
        text = "step %d (%s%s): %s: %s" % (
            n, edit.kind if edit else "setup",
            " " + edit.variant if edit and edit.variant else "", check,
            lines[0] if lines else "")
        if len(self.details) < 12:
            self.details.append(text)
        if stop and self.divergence is None:
            self.divergence = {"step": n, "check": check,
                               "kind": edit.kind if edit else "setup",
                               "variant": edit.variant if edit else "",
                               "edit": edit.text if edit else "",
                               "lines": lines[:60]}
        return stop

    # applying an edit

    def apply(self, n, e):
        if e.sql is not None:
            for side in ("A", "B"):
                con = sqlite3.connect(self.path(side, "store.db"),
                                      timeout=30)
                try:
                    con.executescript(e.sql)
                    con.commit()
                finally:
                    con.close()
        if e.cmd is not None:
            outs = []
            for side in ("A", "B"):
                p = self.run(e.cmd + ["--store", self.path(side, "store.db"),
                                      "--quiet"], self.env())
                outs.append((p.returncode, p.stderr.strip()))
            if outs[0][0] != 0 or outs[0] != outs[1]:
                return self.fail("command", n, e, [
                    "A: exit %d %s" % outs[0], "B: exit %d %s" % outs[1]])
        for path, content in e.files or ():
            if content is None:
                os.unlink(path)
            else:
                # In place (same inode), as an editor that rewrites a
                # file does.
                with open(path, "w", encoding="utf-8") as f:
                    f.write(content)
        if e.opts:
            self.d.opts.update(e.opts)
        if e.clock is not None:
            self.d.clock = e.clock
        return False

    def catch_up(self, n, e):
        """'mirror sweep' on both stores, before the first build with the
        sweep that follows a --no-sweep build. Without it (--unswept)
        that build finds the store's snapshot and every input as the
        --no-sweep build left them; mirror once skipped its sweep there
        (its stamp did not say whether the build that wrote it swept),
        and its site lacked the conflicts that B's sweep opens."""
        self.catch_ups += 1
        outs = []
        for side in ("A", "B"):
            p = self.run(["sweep", "--store", self.path(side, "store.db"),
                          "--quiet"], self.env())
            outs.append((p.returncode, p.stderr.strip()))
        if outs[0][0] != 0 or outs[0] != outs[1]:
            return self.fail("command", n, e, [
                "mirror sweep after a --no-sweep build: A: exit %d %s" %
                outs[0], "B: exit %d %s" % outs[1]])
        return False

    # the checks after a step

    def compare(self, n, e, ra, rb):
        (rca, ja, erra, _, argva), (rcb, jb, errb, _, argvb) = ra, rb
        if rca != 0 or rcb != 0 or ja is None or jb is None:
            return self.fail("exit", n, e, [
                "A (incremental): exit %d: %s" % (rca, erra[:300]),
                "B (--force): exit %d: %s" % (rcb, errb[:300]),
                "A ran: mirror " + shlex.join(argva)])
        site_a, site_b = self.path("A", "site"), self.path("B", "site")
        ea, eb = site_entries(site_a), site_entries(site_b)
        ma, mb = ea.pop(MARKER, None), eb.pop(MARKER, None)
        lines = []
        if ea != eb:
            paths = sorted(p for p in set(ea) | set(eb)
                           if ea.get(p) != eb.get(p))
            lines = ["%d paths differ (A incremental vs B --force):" %
                     len(paths)]
            for p in paths[:15]:
                lines.append("  %s: A %s, B %s" % (p, describe(ea, p),
                                                   describe(eb, p)))
            if len(paths) > 15:
                lines.append("  ... and %d more" % (len(paths) - 15))
            lines += short_diff(site_a, site_b, min(paths, key=diff_first))
        # The stores first: when the sweeps disagreed, the sites differ
        # because of it.
        da, db = store_digest(self.path("A", "store.db")), \
            store_digest(self.path("B", "store.db"))
        if da != db:
            return self.fail("store", n, e, [
                "the stores differ in: %s (A's build %s)" % (" ".join(
                    sorted(t for t in set(da) | set(db)
                           if da.get(t) != db.get(t))),
                    "swept" if ja.get("sweep") else "did not sweep")] +
                lines)
        if lines:
            return self.fail("files", n, e, lines)
        if ma != mb:
            self.fail("marker", n, e, [
                "%s differs: %s" % (MARKER, " ".join(short_diff(
                    site_a, site_b, MARKER, 12)))], stop=False)
        ta, tb = self.tip_tree("A"), self.tip_tree("B")
        if ta != tb or ta is None:
            return self.fail("tree", n, e, [
                "branch tips' trees differ: A %s, B %s" % (ta, tb)])
        for side, tip, ents in (("A", ta, ea), ("B", tb, eb)):
            mine = git_tree_id(ents)
            if mine != tip:
                return self.fail("dir_tree", n, e, [
                    "%s/site (git tree %s) is not its branch tip's tree %s"
                    % (side, mine, tip)])
        changed = tb != self.prev_tree
        if ja.get("commit") is not None and not changed:
            return self.fail("commit", n, e, [
                "A committed %s but the site did not change (tree %s)" %
                (ja["commit"], tb)])
        if ja.get("commit") is None and changed:
            return self.fail("commit", n, e, [
                "the site changed (tree %s -> %s) and A made no commit" %
                (self.prev_tree, tb)])
        if (jb.get("commit") is None) == changed:
            return self.fail("commit", n, e, [
                "B (--force) %s" % ("made no commit for a changed site"
                                    if changed else "committed %s with no "
                                    "change" % jb["commit"])])
        for side in ("A", "B"):
            left = sorted(x for x in os.listdir(self.path(side))
                          if not x.startswith("store.db") and
                          x not in ("site", "repo.git"))
            if left:
                return self.fail("leftover", n, e, [
                    "beside %s/site: %s" % (side, " ".join(left))])
        # What the step changed, by page family (from B, the reference).
        if self.prev is not None:
            for p in set(eb) | set(self.prev):
                if eb.get(p, ("",))[0] == "d" or \
                        self.prev.get(p, ("",))[0] == "d":
                    continue
                how = "added" if p not in self.prev else "removed" \
                    if p not in eb else "changed" \
                    if eb[p] != self.prev[p] else None
                if how:
                    f = self.families.setdefault(family(p), {
                        "added": 0, "changed": 0, "removed": 0})
                    f[how] += 1
        if changed:
            self.changes += 1
            self.trees.append(tb)
        elif n > 0:
            self.noop_builds += 1
        if not ja.get("rendered", True):
            self.a_unchanged += 1
        self.a_written += ja.get("files", {}).get("written", 0)
        self.b_written += jb.get("files", {}).get("written", 0)
        self.prev, self.prev_tree = eb, tb
        return False

    def checkpoint(self, n, e):
        for side in ("A", "B"):
            self.fsck_runs += 1
            rc, out, err = self.git(side, "fsck", "--strict",
                                    "--no-dangling")
            if rc != 0:
                return self.fail("fsck", n, e, [
                    "git fsck --strict on %s's repository: %s %s" %
                    (side, out[:300], err[:300])])
            rc, out, err = self.git(side, "log", "--format=%T",
                                    "--first-parent", BRANCH)
            trees = out.split("\n")[::-1] if out else []
            _, merges, _ = self.git(side, "rev-list", "--merges", BRANCH)
            if rc != 0 or trees != self.trees or merges:
                return self.fail("history", n, e, [
                    "%s's branch holds %d commits, %d builds changed the "
                    "site%s" % (side, len(trees), len(self.trees),
                                "" if trees == self.trees else
                                "; the trees differ from B's site changes, "
                                "first at commit %d" % next(
                                    (i for i, (x, y) in enumerate(
                                        zip(trees, self.trees)) if x != y),
                                    min(len(trees), len(self.trees))))])
        return False

    def setup(self, store):
        if os.path.exists(self.work):
            shutil.rmtree(self.work)
        os.makedirs(self.work)
        shutil.copytree(os.path.join(self.top, "templates"),
                        self.d.templates,
                        ignore=shutil.ignore_patterns("README*"))
        shutil.copytree(os.path.join(self.top, "themes", "default"),
                        self.d.theme)
        for side in ("A", "B"):
            os.makedirs(self.path(side))
            shutil.copy2(store, self.path(side, "store.db"))
            subprocess.run(["git", "init", "-q", "--bare",
                            self.path(side, "repo.git")], check=True)

    def main(self, store):
        self.setup(store)
        started = time.monotonic()
        # Step 0: the first build of both (every edit kind starts from a
        # committed site).
        n, e, unswept = 0, None, False
        for n in range(0, self.edits + 1):
            if n > 0:
                st = Store(self.path("A", "store.db"))
                try:
                    e = self.d.draw(st, n)
                finally:
                    st.close()
                self.kinds[e.kind] += 1
                v = e.kind + (": " + e.variant if e.variant else "")
                self.variants[v] = self.variants.get(v, 0) + 1
                if self.apply(n, e):
                    break
            no_sweep = n > 0 and self.rng.random() < 0.1
            self.no_sweep_builds += no_sweep
            if unswept and not no_sweep and not self.unswept_ok and \
                    self.catch_up(n, e):
                break
            unswept = no_sweep
            # Under MIRROR_WRAP (valgrind) only every tenth of A's builds:
            # all of them would take the better part of an hour.
            ra, rb = self.builds(no_sweep, self.wrap if n % 10 == 0 else [])
            self.t_builds += rb[3]
            if self.compare(n, e, ra, rb):
                break
            if (n % self.every == 0 or n == self.edits) and \
                    self.checkpoint(n, e):
                break
        done = n if self.divergence is None else n - 1
        if self.divergence is not None and self.keep:
            if os.path.exists(self.keep):
                shutil.rmtree(self.keep)
            shutil.copytree(self.work, self.keep, symlinks=True)
        builds = max(n + 1, 1)
        return {"seed": self.seed, "edits": done, "asked": self.edits,
                "kinds": self.kinds, "variants": self.variants,
                "bad": self.bad, "details": self.details,
                "divergence": self.divergence,
                "changes": self.changes, "noop_builds": self.noop_builds,
                "no_sweep_builds": self.no_sweep_builds,
                "catch_up_sweeps": self.catch_ups,
                "commits": len(self.trees), "fsck_runs": self.fsck_runs,
                "families": self.families,
                "a_unchanged": self.a_unchanged,
                "files_written": {"A": self.a_written, "B": self.b_written},
                "seconds": round(time.monotonic() - started, 1),
                "cpu_seconds": cpu(),
                "pair_ms": round(1000 * self.t_builds / builds)}


def cpu():
    """CPU seconds (user + system) of this process and of its children
    (mirror, git)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"tool": round(me.ru_utime + me.ru_stime, 1),
            "children": round(ch.ru_utime + ch.ru_stime, 1)}


def report(s):
    """The divergence, for a person, on stderr."""
    d = s["divergence"]
    if d is None:
        return
    w = sys.stderr.write
    w("incr_trials: seed %d: step %d of %d diverged (%s)\n" %
      (s["seed"], d["step"], s["asked"], d["check"]))
    w("  edit (%s%s):\n" % (d["kind"], " " + d["variant"] if d["variant"]
                             else ""))
    for line in d["edit"].split("\n"):
        w("    %s\n" % line)
    for line in d["lines"]:
        w("  %s\n" % line)
    w("  again: INCR_SEED=%d INCR_EDITS=%d MIRROR_TEST_ONLY=tests/e2e/"
      "t_incremental.sh make check (INCR_KEEP=DIR keeps the work tree)\n"
      % (s["seed"], d["step"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mirror")
    ap.add_argument("top")
    ap.add_argument("store")
    ap.add_argument("work")
    ap.add_argument("--edits", type=int, default=200)
    ap.add_argument("--seed", type=int, default=20261101)
    ap.add_argument("--every", type=int, default=25)
    ap.add_argument("--keep", help="copy WORK here on a divergence")
    ap.add_argument("--unswept", action="store_true",
                    help="no 'mirror sweep' between a --no-sweep build "
                    "and the next build with the sweep")
    a = ap.parse_args()
    t = Trials(a)
    try:
        s = t.main(os.path.abspath(a.store))
    except (OSError, subprocess.CalledProcessError, sqlite3.Error) as x:
        print(json.dumps({"error": "setup or edit failed: %s" % x,
                          "seed": a.seed}))
        return 2
    print(json.dumps(s, sort_keys=True, ensure_ascii=False))
    report(s)
    return 0 if s["divergence"] is None else 1


if __name__ == "__main__":
    sys.exit(main())
