"""api_conflicts.py: a built site's conflicts, for the tools that check
its pages against them.

conflicts(SITE) reads every api/conflicts/projects/<project slug>.json
and gives one dict per conflict, by id: its fields ("conflict") with
"slug" (its page's, the id when the file leaves it out), "open" and
"members" (each with "page" and "anchor"); and, from its page
conflicts/<slug>.md, the words the pages show of it: "question" (the
line "**name**: **X** (...) vs **Y** (...)" as its Markdown), "name_md"
and "sides_md" (the two halves of that line around ": "); and
"sides_words", every side now with where it comes from, as the project
page says them before escaping (doc/site.md, "Conflicts in words"; the
JSON holds no page words but slot_words).
"""
import glob
import json
import os
import re


LAYER = {"project_state": "trusted state", "entity": "engineering record"}


def sides_now(members):
    """Every side's value now (as found once its row is gone) with where
    it comes from, " · " between, each wording once."""
    said = []
    for m in members:
        v = m["value_now"] if m.get("value_now") is not None else m["value_then"]
        layer = LAYER.get(m["kind"], "memory")
        if layer != "memory" and m.get("source"):
            layer += ": " + m["source"]
        w = "%s (%s)" % (v or "(empty)", layer)
        if w not in said:
            said.append(w)
    return " \u00b7 ".join(said)


def conflicts(site):
    out = []
    for path in glob.glob(os.path.join(site, "api", "conflicts", "projects",
                                       "*.json")):
        with open(path, encoding="utf-8") as f:
            for row in json.load(f)["conflicts"]:
                c = dict(row["conflict"])
                c.setdefault("slug", c["id"])
                c["open"] = c["status"] == "open"
                c["members"] = row["members"]
                out.append(c)
    for c in out:
        with open(os.path.join(site, "conflicts", c["slug"] + ".md"),
                  encoding="utf-8") as f:
            md = f.read()
        q = re.search(r"^\*\*(.*?)\*\*: (\*\*.*)$", md, re.M)
        c["question"] = q.group(0) if q else None
        c["name_md"] = q.group(1) if q else None
        c["sides_md"] = q.group(2) if q else None
        c["sides_words"] = sides_now(c["members"])
    return sorted(out, key=lambda c: c["id"].encode("utf-8"))
