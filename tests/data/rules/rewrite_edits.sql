-- Edits of a bench store (tests/bench/store_gen.sql) for
-- tests/e2e/t_rules_rewrite.sh: old and new updates, dates SQLite cannot
-- read, superseded and invalid rows, windows on entities, so that every
-- rewritten rule finds something to compare.
UPDATE entities SET updated_at = '2023-01-02 00:00:00'
  WHERE rowid % 7 = 0 AND entity_type <> 'subsystem';
UPDATE entities SET updated_at = '2024-05-30 00:00:00' WHERE rowid % 11 = 0;
UPDATE entities SET updated_at = 'not a date' WHERE rowid % 53 = 0;
UPDATE entities SET status = 'superseded' WHERE rowid % 13 = 0;
UPDATE entities SET status = 'invalid' WHERE rowid % 29 = 0;
UPDATE entities SET properties = json_set(properties,
    '$.valid_from', '2024-02-01', '$.valid_until', '2024-03-01')
  WHERE rowid % 5 = 0;
UPDATE entities SET properties = json_set(properties,
    '$.valid_until', '2024-01-15 00:00:00') WHERE rowid % 9 = 0;
UPDATE entities SET properties = json_set(properties, '$.valid_from', 17)
  WHERE rowid % 31 = 0;
UPDATE entities SET created_at = '2023-06-01 00:00:00'
  WHERE rowid % 6 = 0 AND entity_type = 'result';
UPDATE entities SET properties = json_set(properties, '$.date', '2024-04-01')
  WHERE rowid % 4 = 0 AND entity_type = 'decision';
UPDATE relationships SET created_at = '2024-04-10 00:00:00'
  WHERE rowid % 3 = 0;
UPDATE project_state SET updated_at = '2023-03-01 00:00:00'
  WHERE rowid % 5 = 0;
UPDATE project_state SET updated_at = '2024-05-31 00:00:00'
  WHERE rowid % 17 = 0;
