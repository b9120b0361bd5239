#!/usr/bin/env python3
"""json_schema.py SCHEMA_DIR SITE...: every JSON file under each SITE's
api/ is valid against the JSON Schema (draft 2020-12) of its kind in
SCHEMA_DIR (doc/schema/); a JSON file of no known kind is an error too.

Prints one line per invalid file (path, where in the file, why) and one
count line per site; exits 1 when any file is invalid or unknown. Needs
Debian's python3-jsonschema.
"""
import json
import os
import sys

import jsonschema

# Which schema each api/ file follows, by its path below the site.
KINDS = [
    (lambda p: p == "api/health.json", "health"),
    (lambda p: p == "api/build.json", "build"),
    (lambda p: p == "api/conflicts.json", "conflicts"),
    (lambda p: p.startswith("api/conflicts/projects/"), "conflict"),
    (lambda p: p == "api/checks.json", "checks"),
    (lambda p: p.startswith("api/checks/"), "check"),
    (lambda p: p.startswith("api/projects/"), "project"),
]


def kind_of(rel):
    for test, kind in KINDS:
        if test(rel):
            return kind
    return None


def main():
    schema_dir = sys.argv[1]
    validators = {}
    for _, kind in KINDS:
        with open(os.path.join(schema_dir, kind + ".schema.json"),
                  encoding="utf-8") as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        validators[kind] = jsonschema.Draft202012Validator(schema)
    bad = 0
    for site in sys.argv[2:]:
        n = 0
        for d, _, files in os.walk(os.path.join(site, "api")):
            for name in sorted(files):
                if not name.endswith(".json"):
                    continue
                path = os.path.join(d, name)
                rel = os.path.relpath(path, site)
                kind = kind_of(rel)
                n += 1
                if kind is None:
                    print(f"{rel}: no schema for this file")
                    bad += 1
                    continue
                with open(path, encoding="utf-8") as f:
                    doc = json.load(f)
                errors = list(validators[kind].iter_errors(doc))
                for e in errors[:3]:
                    # A row's value is named by its column (the
                    # schema's title), not only by its index.
                    title = e.schema.get("title") if isinstance(
                        e.schema, dict) else None
                    where = f"{e.json_path} ({title})" if title else e.json_path
                    print(f"{rel}: {where}: {e.message[:300]}")
                bad += 1 if errors else 0
        print(f"json_schema: {site}: {n} files checked")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
