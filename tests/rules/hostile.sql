-- A rule that writes: refused, told, and the other rules still run.

-- rule: test-writer
-- severity: error
-- description: Deletes every memory (it must never run).
DELETE FROM memories;
