-- A deterministic store of about 1,000,000 facts for the sweep benchmark
-- (tests/bench/sweep.sh). Scale with the temp table bench_scale:
-- 1 = 1,000,000 facts. Mostly agreeing rows; about 1 in 100 slots
-- disagrees, within a layer and across layers, so the sweep has real
-- work to record. 1000 projects, each with an alias.
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
BEGIN;
CREATE TEMP TABLE n(i INTEGER PRIMARY KEY);
WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c
    WHERE i < 250000 * (SELECT s FROM bench_scale) - 1)
INSERT INTO n SELECT i FROM c;

INSERT INTO projects(id, name, aliases)
SELECT 'p' || i, 'Project ' || i, '["a' || i || '"]' FROM n WHERE i < 1000;

-- 250k trusted state rows, half under an alias: (project, param_K).
INSERT INTO project_state(id, project, category, key, value, source)
SELECT 's' || i, (CASE WHEN i % 2 THEN 'a' ELSE 'p' END) || (i % 1000),
    'config', 'param_' || (i / 1000), (i / 1000) || '.50 mm', 'bench'
FROM n;

-- 150k decisions on the same keys: agree, except 1 in 97 (cross_layer).
INSERT INTO entities(id, entity_type, name, project, properties)
SELECT 'ed' || i, 'decision', 'Param ' || (i / 1000), 'p' || (i % 1000),
    json_object('target', 'param', 'field', '' || (i / 1000), 'value',
    CASE WHEN i % 97 = 0 THEN (i / 1000) || '.6 mm'
    ELSE (i / 1000) || '.5 mm' END)
FROM n WHERE i < 150000;

-- 100k parameters, two per slot: agree, except 1 in 101 (entity_slot).
INSERT INTO entities(id, entity_type, name, project, properties)
SELECT 'ep' || i, 'parameter', 'length', 'p' || ((i / 2) % 1000),
    json_object('scope', 'unit' || (i / 2000), 'value',
    CASE WHEN i % 101 = 1 THEN 4.82 ELSE 4.8 END, 'unit', 'kg')
FROM n WHERE i < 100000;

-- 100k requirements on their own keys, 50k subsystems with a parent.
INSERT INTO entities(id, entity_type, name, project, description)
SELECT 'er' || i, 'requirement', 'req ' || i, 'p' || (i % 1000),
    'the unit shall meet requirement ' || i
FROM n WHERE i < 100000;
INSERT INTO entities(id, entity_type, name, project, properties)
SELECT 'es' || i, 'subsystem', 'sub ' || i, 'p' || (i % 1000),
    json_object('part_of', 'system ' || (i % 1000))
FROM n WHERE i < 50000;

-- 150k preferences, two per (project, topic): agree except 1 in 199.
INSERT INTO memories(id, memory_type, content, project)
SELECT 'mp' || i, 'preference',
    CASE WHEN i % 199 = 1 THEN 'prefers slow tool' || (i / 2000)
    ELSE 'prefers fast tool' || (i / 2000) END, 'p' || ((i / 2) % 1000)
FROM n WHERE i < 150000;

-- 100k knowledge memories naming state keys: agree except 1 in 89.
INSERT INTO memories(id, memory_type, content, project)
SELECT 'mk' || i, 'knowledge', 'param_' || (i / 1000) || ' is ' ||
    CASE WHEN i % 89 = 0 THEN '9 mm' ELSE (i / 1000) || '.5 mm' END,
    'p' || (i % 1000)
FROM n WHERE i < 100000;

-- 100k episodic memories: read, never a slot.
INSERT INTO memories(id, memory_type, content, project)
SELECT 'me' || i, 'episodic', 'met the vendor about batch ' || i,
    'p' || (i % 1000)
FROM n WHERE i < 100000;
COMMIT;
