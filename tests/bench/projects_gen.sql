-- A store of many small projects for 'make bench' (tests/bench/bench.py,
-- the projects rows), in the store contract's shape. Run on a store
-- made by 'mirror init', after
--   CREATE TEMP TABLE bench_projects(n); INSERT INTO bench_projects
--   VALUES(<projects>);
-- Each project is listed (one alias) and has one active state fact and
-- nothing else, so what grows is the number of projects alone. No
-- randomness: the same <projects> gives the same store.
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
BEGIN;
CREATE TEMP TABLE n(i INTEGER PRIMARY KEY);
WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c
    WHERE i < (SELECT n FROM bench_projects) - 1)
INSERT INTO n SELECT i FROM c;

INSERT INTO projects(id, name, aliases, description, created_at)
SELECT printf('p%06d', i), 'Project ' || i, json_array('a' || i),
    'bench project ' || i, '2024-01-01 00:00:00'
FROM n;

INSERT INTO project_state(id, project, category, key, value, source,
    status, created_at, updated_at)
SELECT 's-' || i, printf('p%06d', i), 'fact', 'length', i || '.5 mm',
    'bench generator', 'active',
    printf('2024-%02d-%02d 10:00:00', 1 + i % 12, 1 + i % 28),
    printf('2024-%02d-%02d 10:00:00', 1 + i % 12, 1 + i % 28)
FROM n;
COMMIT;
