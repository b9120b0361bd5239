"""api_conflicts.py: a built site's conflicts, for the tools that check
its pages against them.

conflicts(SITE) reads every api/conflicts/projects/<project slug>.json
and gives one dict per conflict, by id: its fields ("conflict") with
"slug" (its page's, the id when the file leaves it out), "open" and
"members" (each with "page" and "anchor"); and, from its page
conflicts/<slug>.md, the words the pages show of it: "question" and
"sides_words" (the JSON holds no page words but slot_words).
"""
import glob
import json
import os
import re


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
        q = re.search(r"^\*\*Question for the reviewer:\*\* (.*)$", md, re.M)
        s = re.search(r"^- Sides now: (.*)$", md, re.M)
        c["question"] = q.group(1) if q else None
        c["sides_words"] = s.group(1) if s else None
    return sorted(out, key=lambda c: c["id"].encode("utf-8"))
