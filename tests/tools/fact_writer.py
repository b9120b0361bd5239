#!/usr/bin/env python3
"""fact_writer.py: another process writing facts into a store at a steady
rate, as agents do while mirror sweeps and builds (WAL mode).

    fact_writer.py STORE STOPFILE [--interval SECONDS] [--max-ops N]
                   [--journal wal|delete]

One operation per transaction, one every --interval seconds, until
STOPFILE exists or --max-ops operations are done. The operations cycle
through what changes the conflicts (project 'race'):
  0  a new disagreeing pair of preferences (a new memory_slot conflict)
  1  a third value on an earlier pair's topic (a member added)
  2  a state row and a knowledge memory contradicting it (cross_layer)
  3  an earlier pair's second row superseded (a conflict may close)
  4  an earlier state row changed to agree (a cross_layer conflict closes)
Every operation is a function of its number: a rerun writes the same.
--journal sets the store's journal mode first (default wal; delete is
SQLite's default, a rollback journal). At the end the writer reads back
every row its committed operations inserted and prints
"ops N failures M missing K"; a failure (the store stayed locked past
the busy timeout, or any error) is also printed as "failed: ...", a
committed row that is gone as "missing: TABLE ID". Exit 0 when nothing
failed and nothing is missing, 1 otherwise.

    fact_writer.py STORE STOPFILE --kill-in-transaction [--ops N]

A writer that crashes: rollback-journal mode (journal_mode DELETE) and a
page cache of a few pages, so the file is written before the commit;
BEGIN IMMEDIATE, N operations (default 400; operation k also pads its
rows so pages spill), then SIGKILL to itself inside the transaction. It
leaves a hot journal behind, as a writer killed by the OOM killer or a
power cut does. Never returns.
"""
import argparse
import os
import signal
import sqlite3
import sys
import time


def op_sql(k):
    """(statements, parameters) of operation k."""
    kind, j = k % 5, k // 5
    if kind == 0:
        return (["INSERT INTO memories(id, memory_type, content, project) "
                 "VALUES (:id || '-a', 'preference', 'prefers tool-a' || :n "
                 "|| ' for task' || :n, 'race'), (:id || '-b', 'preference',"
                 " 'prefers tool-b' || :n || ' for task' || :n, 'race')"],
                {"id": "w%d" % j, "n": str(j)})
    if kind == 1:
        return (["INSERT INTO memories(id, memory_type, content, project) "
                 "VALUES (:id, 'preference', 'prefers tool-c' || :c "
                 "|| ' for task' || :n, 'race')"],
                {"id": "w%d-c%d" % (j // 2, j), "c": str(j),
                 "n": str(j // 2)})
    if kind == 2:
        return (["INSERT INTO project_state(id, project, category, key, "
                 "value) VALUES (:id, 'race', 'fact', 'key' || :n, "
                 ":n || '.5 mm')",
                 "INSERT INTO memories(id, memory_type, content, project) "
                 "VALUES (:id || '-m', 'knowledge', 'key' || :n || ' is ' "
                 "|| :n || '.75 mm', 'race')"],
                {"id": "s%d" % j, "n": str(j)})
    if kind == 3:
        return (["UPDATE memories SET status = 'superseded' WHERE id = :id"],
                {"id": "w%d-b" % (j // 3)})
    return (["UPDATE project_state SET value = :n || '.75 mm' "
             "WHERE id = :id"], {"id": "s%d" % (j // 3), "n": str(j // 3)})


def inserted(k):
    """[(table, id)] of the rows operation k inserts."""
    kind, j = k % 5, k // 5
    if kind == 0:
        return [("memories", "w%d-a" % j), ("memories", "w%d-b" % j)]
    if kind == 1:
        return [("memories", "w%d-c%d" % (j // 2, j))]
    if kind == 2:
        return [("project_state", "s%d" % j), ("memories", "s%d-m" % j)]
    return []


def missing_rows(con, committed):
    """Print and count the rows of the committed operations not there."""
    missing = 0
    for k in committed:
        for table, rid in inserted(k):
            if con.execute("SELECT count(*) FROM %s WHERE id = ?" % table,
                           (rid,)).fetchone()[0] != 1:
                print("missing: %s %s" % (table, rid))
                missing += 1
    return missing


def die_in_transaction(store, ops):
    """Write ops operations in one rollback-journal transaction, then
    SIGKILL this process before COMMIT."""
    con = sqlite3.connect(store, timeout=20, isolation_level=None)
    con.execute("PRAGMA journal_mode = DELETE")
    con.execute("PRAGMA cache_size = 4")
    con.execute("BEGIN IMMEDIATE")
    for k in range(ops):
        stmts, params = op_sql(k)
        for stmt in stmts:
            try:
                con.execute(stmt, params)
            except sqlite3.IntegrityError:
                pass        # an id the store already has: skip it
        con.execute("INSERT OR IGNORE INTO memories(id, memory_type, content, "
                    "project) VALUES (?, 'episodic', ?, 'crash')",
                    ("pad%d" % k, "x" * 400))
    os.kill(os.getpid(), signal.SIGKILL)
    return 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("store")
    ap.add_argument("stopfile")
    ap.add_argument("--interval", type=float, default=0.02)
    ap.add_argument("--max-ops", type=int, default=100000)
    ap.add_argument("--kill-in-transaction", action="store_true")
    ap.add_argument("--ops", type=int, default=400)
    ap.add_argument("--journal", choices=("wal", "delete"), default="wal")
    a = ap.parse_args()
    if a.kill_in_transaction:
        return die_in_transaction(a.store, a.ops)

    con = sqlite3.connect(a.store, timeout=20, isolation_level=None)
    mode = con.execute("PRAGMA journal_mode = %s" % a.journal).fetchone()[0]
    if mode != a.journal:
        print("failed: the store is in %s mode, not %s" % (mode, a.journal))
        return 1
    failures = 0
    committed = []
    k = 0
    next_at = time.monotonic()
    while k < a.max_ops and not os.path.exists(a.stopfile):
        stmts, params = op_sql(k)
        try:
            con.execute("BEGIN IMMEDIATE")
            for stmt in stmts:
                con.execute(stmt, params)
            con.execute("COMMIT")
            committed.append(k)
        except sqlite3.Error as e:
            failures += 1
            print("failed: op %d: %s" % (k, e))
            try:
                con.execute("ROLLBACK")
            except sqlite3.Error:
                pass
        k += 1
        # A steady rate: the next write is due one interval after the
        # last was due, however long the last one waited for the lock.
        next_at += a.interval
        time.sleep(max(0.0, next_at - time.monotonic()))
    missing = missing_rows(con, committed)
    con.close()
    print("ops %d failures %d missing %d" % (k, failures, missing))
    return 0 if failures == 0 and missing == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
