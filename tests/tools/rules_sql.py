#!/usr/bin/env python3
"""rules_sql.py: read rule files as doc/rules.md describes them and run
their queries with the sqlite3 shell, for tests/e2e/t_rules_starter.sh.

  rules_sql.py check DIR
      parse every DIR/*.sql (name order); print "ID SEVERITY FILE:LINE"
      per rule; exit 1 naming the file and line of the first rule whose
      header or statement breaks the format
  rules_sql.py run DIR ID DB NOW [NAME=VALUE...]
      run rule ID on DB with :now = NOW, :today = its day (NOW's first
      10 characters, as mirror binds it) and its parameters (defaults from
      its header, overridden by NAME=VALUE); print its rows sorted, one
      "project<TAB>facts<TAB>message" a line, facts as the sorted JSON
      array; exit 1 when the rule is missing, fails or returns another
      shape
  rules_sql.py gaps DIR DB NOW SITE
      compare the "Gaps" of SITE's api/projects/*.json (a site built
      from DB) with the rows of the three gap rules: the same projects
      (canonical), entities and kinds; print the differences and exit 1,
      or print "N gaps" and exit 0
  rules_sql.py time DIR DB NOW [CACHE_SIZE]
      run every rule on DB with .timer on, ten times each; print per
      rule its rows and the best of its real and CPU times (as the
      sqlite3 shell says), then the totals; with CACHE_SIZE, the
      connection's PRAGMA cache_size is set to it first

The statement is run by the sqlite3 shell (the same library mirror
links), in a read-only connection (-readonly), so a rule that writes
fails here too.
"""
import json
import os
import re
import sqlite3
import subprocess
import sys

from api_facts import facts

KEYS = ("rule", "severity", "label", "description", "param")
REQUIRED = ("rule", "severity", "description")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
PARAM_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$")


class RuleError(Exception):
    pass


def parse_file(path):
    """The rules of one file: a list of dicts (id, severity, label,
    description, params, sql, origin). Raises RuleError naming the
    file and line."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    rules = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "":
            i += 1
            continue
        start = i + 1
        head = {"param": []}
        last = None
        while i < len(lines) and lines[i].startswith("--"):
            text = lines[i][2:]
            if re.match(r"^ {2,}\S", text) and last is not None:
                if last == "param":
                    head["param"][-1] += " " + text.strip()
                else:
                    head[last] += " " + text.strip()
            else:
                m = re.match(r"^ ([a-z]+):\s*(.*)$", text)
                if m is None or m.group(1) not in KEYS:
                    raise RuleError("%s:%d: not a header line: %s" %
                                    (path, i + 1, lines[i]))
                key, val = m.group(1), m.group(2).strip()
                if key == "param":
                    head["param"].append(val)
                elif key in head:
                    raise RuleError("%s:%d: %s given twice" %
                                    (path, i + 1, key))
                else:
                    head[key] = val
                last = key
            i += 1
        for key in REQUIRED:
            if not head.get(key):
                raise RuleError("%s:%d: no %s" % (path, start, key))
        if not ID_RE.match(head["rule"]) or len(head["rule"]) > 64:
            raise RuleError("%s:%d: bad id %r" % (path, start, head["rule"]))
        if head["severity"] not in ("error", "warn", "off"):
            raise RuleError("%s:%d: bad severity" % (path, start))
        params = {}
        for p in head["param"]:
            m = PARAM_RE.match(p)
            if m is None:
                raise RuleError("%s:%d: bad param %r" % (path, start, p))
            params[m.group(1)] = m.group(2).strip()
        body = []
        while i < len(lines):
            body.append(lines[i])
            i += 1
            if sqlite3.complete_statement("\n".join(body)):
                break
        sql = "\n".join(body).strip()
        if not sqlite3.complete_statement(sql):
            raise RuleError("%s:%d: no statement ending in ';'" %
                            (path, start))
        if "--" in sql or ";" in sql[:-1]:
            raise RuleError("%s:%d: a comment or a second statement in "
                            "the query" % (path, start))
        rules.append({"id": head["rule"], "severity": head["severity"],
                      "label": head.get("label", head["rule"]),
                      "description": head["description"],
                      "params": params, "sql": sql,
                      "origin": "%s:%d" % (path, start)})
    return rules


def load(d):
    """Every rule of d's *.sql files, in name order; ids unique."""
    rules = []
    for name in sorted(os.listdir(d)):
        if name.endswith(".sql"):
            rules += parse_file(os.path.join(d, name))
    seen = set()
    for r in rules:
        if r["id"] in seen:
            raise RuleError("%s: id %s taken" % (r["origin"], r["id"]))
        seen.add(r["id"])
    return rules


def literal(v):
    """A parameter's value as the sqlite3 shell's .parameter set takes
    it: an integer as is, anything else as quoted text."""
    if re.match(r"^-?[0-9]+$", v):
        return v
    return "'" + v.replace("'", "''") + "'"


# TEMP project_alias as mirror's store_open builds it (core/store/store.c,
# load_aliases) for a store it accepts: each project's id, then its
# aliases in the order of the ids, an alias that is the id left out.
ALIASES = """CREATE TEMP TABLE project_alias (name TEXT PRIMARY KEY,
  canonical TEXT NOT NULL) WITHOUT ROWID;
INSERT OR IGNORE INTO temp.project_alias
  SELECT id, id FROM main.projects WHERE id IS NOT NULL;
INSERT OR IGNORE INTO temp.project_alias
  SELECT j.value, p.id
  FROM (SELECT id, aliases FROM main.projects WHERE id IS NOT NULL
        ORDER BY id) p, json_each(p.aliases) j
  WHERE j.value <> p.id;"""


def script(rule, now, over, head="", times=1):
    params = dict(rule["params"])
    params.update(over)
    out = [".bail on", ".parameter init",
           ".parameter set :now %s" % literal(now),
           # The shell reads a bare 2026-11-01 as a subtraction: the
           # quotes inside the double quotes keep it text.
           ".parameter set :today \"%s\"" % literal(now[:10])]
    for k, v in sorted(params.items()):
        out.append(".parameter set :%s %s" % (k, literal(v)))
    out.append(ALIASES)
    out.append(head)
    # The rule's columns by name, whatever else it returns.
    out += ["SELECT json_object('project', project, 'facts', facts, "
            "'message', message) FROM (%s);" % rule["sql"][:-1]] * times
    return "\n".join(out) + "\n"


def shell(db, text):
    p = subprocess.run(["sqlite3", "-readonly", "-batch", db],
                       input=text, capture_output=True, text=True)
    if p.returncode != 0 or p.stderr.strip():
        raise RuleError("sqlite3: %s" % (p.stderr.strip() or p.returncode))
    return p.stdout


def rows(rule, db, now, over):
    out = []
    for line in shell(db, script(rule, now, over)).splitlines():
        if not line.startswith("{"):
            continue
        row = json.loads(line)
        facts = json.loads(row["facts"])
        if (not isinstance(facts, list) or not facts or
                not all(isinstance(x, str) and re.match(
                    r"^(project_state|entity|memory|relationship):.",
                    x) for x in facts)):
            raise RuleError("%s: facts %r" % (rule["id"], row["facts"]))
        if not isinstance(row["project"], str) or \
                not isinstance(row["message"], str):
            raise RuleError("%s: bad shape %r" % (rule["id"], row))
        out.append("%s\t%s\t%s" % (row["project"],
                                   json.dumps(sorted(set(facts))),
                                   row["message"]))
    return sorted(out)


GAP_RULES = {"component-without-material": "component with no material",
             "requirement-unsatisfied": "requirement nothing satisfies",
             "claim-unsupported": "validation claim nothing supports"}


def site_gaps(site):
    """(project, entity id, why) of every gap the overviews list."""
    out = set()
    rule = {}

    # Each check's rule, from the checks' files (the index and each
    # project's), wherever they hold them.
    def walk(v):
        if isinstance(v, dict):
            if isinstance(v.get("id"), str) and isinstance(v.get("rule"), str):
                rule[v["id"]] = v["rule"]
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    checks = os.path.join(site, "api", "checks")
    for path in [os.path.join(site, "api", "checks.json")] + [
            os.path.join(checks, n) for n in sorted(os.listdir(checks))]:
        with open(path, encoding="utf-8") as f:
            walk(json.load(f))
    api = os.path.join(site, "api", "projects")
    for name in sorted(os.listdir(api)):
        with open(os.path.join(api, name), encoding="utf-8") as f:
            data = json.load(f)
        # Each entity row names its open checks; the hand-written gaps
        # are the three gap rules'.
        for fact in facts(data):
            if fact["layer"] != "entity":
                continue
            for c in fact["checks"] or []:
                if rule.get(c) in GAP_RULES:
                    out.add((data["project"]["id"], fact["id"],
                             GAP_RULES[rule[c]]))
    return out


def rule_gaps(d, db, now):
    """(canonical project, entity id, why) of every gap rule's row."""
    canon = {}
    for line in shell(db, "SELECT id, id FROM projects UNION SELECT "
                      "j.value, p.id FROM projects p, "
                      "json_each(p.aliases) j;").splitlines():
        name, pid = line.split("|", 1)
        canon[name] = pid
    out = set()
    for r in load(d):
        if r["id"] not in GAP_RULES:
            continue
        for line in rows(r, db, now, {}):
            project, facts, _ = line.split("\t", 2)
            for f in json.loads(facts):
                out.add((canon.get(project, project),
                         f.split(":", 1)[1], GAP_RULES[r["id"]]))
    return out


def main(argv):
    if len(argv) >= 2 and argv[0] == "check":
        for r in load(argv[1]):
            print(r["id"], r["severity"], r["origin"])
        return 0
    if len(argv) >= 5 and argv[0] == "run":
        rule = [r for r in load(argv[1]) if r["id"] == argv[2]]
        if not rule:
            raise RuleError("no rule %s" % argv[2])
        over = dict(a.split("=", 1) for a in argv[5:])
        for line in rows(rule[0], argv[3], argv[4], over):
            print(line)
        return 0
    if len(argv) == 5 and argv[0] == "gaps":
        want, got = site_gaps(argv[4]), rule_gaps(argv[1], argv[2], argv[3])
        for g in sorted(want - got):
            print("only on the pages: %s %s (%s)" % g)
        for g in sorted(got - want):
            print("only in the rules: %s %s (%s)" % g)
        if want != got:
            return 1
        print("%d gaps" % len(want))
        return 0
    if len(argv) in (4, 5) and argv[0] == "time":
        # Each rule ten times in one shell, after one query that reads
        # every table (as the sweep has before the rules run): the best
        # of the ten, real time and CPU time (user + sys).
        warm = ("SELECT count(*) FROM projects, (SELECT count(*) FROM "
                "project_state), (SELECT count(*) FROM entities), (SELECT "
                "count(*) FROM relationships), (SELECT count(*) FROM "
                "memories);")
        if len(argv) == 5:
            warm = "PRAGMA cache_size = %d;\n" % int(argv[4]) + warm
        real = cpu = 0.0
        for r in load(argv[1]):
            out = shell(argv[2], warm + "\n" +
                        script(r, argv[3], {}, ".timer on", 10))
            t = re.findall(r"^Run Time: real ([0-9.]+) user ([0-9.]+) "
                           r"sys ([0-9.]+)", out, re.M)
            best = min(float(x[0]) for x in t)
            bcpu = min(float(x[1]) + float(x[2]) for x in t)
            n = sum(1 for x in out.splitlines() if x.startswith("{")) // 10
            print("%s %d rows, %.1f ms, %.1f ms CPU" %
                  (r["id"], n, best * 1000, bcpu * 1000))
            real += best
            cpu += bcpu
        print("total %.1f ms, %.1f ms CPU" % (real * 1000, cpu * 1000))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except RuleError as e:
        sys.stderr.write("rules_sql.py: %s\n" % e)
        sys.exit(1)
