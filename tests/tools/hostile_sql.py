#!/usr/bin/env python3
"""hostile_sql.py CORPUS OUT: SQL that puts every string of the hostile
corpus (CORPUS/*.txt, but 31-invalid-utf8, which is bad input) into every
text field: one project hNN per file with a state row, a decision entity,
a subsystem, an entity of an unknown type, a memory, an open cross-layer
conflict between the state row and the entity, and a dismissed conflict.
Row ids stay plain (hNN-s, hNN-e, ...) so tests know their anchors.
hostile_sql.py CORPUS OUT COPIES: the same COPIES times (projects hNN,
hNN-2, hNN-3, ...), for timing the build against the store's size."""
import glob, json, os, sys
corpus, out = sys.argv[1], sys.argv[2]
copies = int(sys.argv[3]) if len(sys.argv) > 3 else 1
def q(s): return "'" + s.replace("'", "''") + "'"
rows = []
for path, copy in [(p, c) for c in range(1, copies + 1)
                   for p in sorted(glob.glob(os.path.join(corpus, "*.txt")))]:
    name = os.path.basename(path)[:2]
    if name == "31":            # invalid UTF-8: its own case below
        continue
    t = open(path, encoding="utf-8").read()
    p = "h" + name + ("" if copy == 1 else f"-{copy}")
    props = json.dumps({"target": t, "field": t, "value": t, "unit": t,
                        "subsystem": t, "material": t})
    rows += [
      f"INSERT INTO projects VALUES({q(p)}, {q(t)}, {q(json.dumps([t + p[3:]]))}, {q(t)}, '2024-01-01');",
      f"INSERT INTO project_state(id, project, category, key, value, source, created_at, updated_at) VALUES({q(p+'-s')}, {q(p)}, 'decision', {q(t)}, {q(t)}, {q(t)}, {q(t)}, {q(t)});",
      f"INSERT INTO project_state(id, project, category, key, value, source) VALUES({q(p+'-s2')}, {q(p)}, {q(t)}, {q(t)}, {q(t)}, {q(t)});",
      f"INSERT INTO entities(id, entity_type, name, project, description, properties, source_refs) VALUES({q(p+'-e')}, 'decision', {q(t)}, {q(p)}, {q(t)}, {q(props)}, {q(json.dumps([t]))});",
      f"INSERT INTO entities(id, entity_type, name, project, description, properties) VALUES({q(p+'-sub')}, 'subsystem', {q(t)}, {q(p)}, {q(t)}, {q(props)});",
      f"INSERT INTO entities(id, entity_type, name, project, description, properties) VALUES({q(p+'-x')}, {q(t)}, {q(t)}, {q(p)}, {q(t)}, {q(props)});",
      f"INSERT INTO memories(id, memory_type, content, project, domain_tags) VALUES({q(p+'-m')}, 'knowledge', {q(t)}, {q(p)}, {q(json.dumps([t]))});",
      f"INSERT INTO conflicts(id, slot_kind, slot_key, project, status) VALUES({q(p+'-c')}, 'cross_layer', {q(json.dumps([p, t]))}, {q(p)}, 'open');",
      f"INSERT INTO conflict_members VALUES({q(p+'-c')}, 'project_state', {q(p+'-s')}, 3, {q(t)}, NULL);",
      f"INSERT INTO conflict_members VALUES({q(p+'-c')}, 'entity', {q(p+'-e')}, 2, {q(t)}, {q(p+'-s')});",
      f"INSERT INTO conflicts(id, slot_kind, slot_key, project, status, resolved_at, resolution, resolved_by) VALUES({q(p+'-d')}, 'memory_slot', {q(json.dumps([t]))}, {q(p)}, 'dismissed', '2024-01-02 00:00:00', {q(t)}, {q(t)});",
    ]
open(out, "w", encoding="utf-8").write("\n".join(rows) + "\n")
