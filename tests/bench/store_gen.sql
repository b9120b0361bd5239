-- A deterministic store for 'make bench' (tests/bench/bench.py), in the
-- store contract's shape. Run on a store made by 'mirror init', after
--   CREATE TEMP TABLE bench_n(n); INSERT INTO bench_n VALUES(<facts>);
-- No randomness: every row is a function of its index, so the same
-- <facts> gives the same store, byte for byte in content.
--
-- Proportions per 200 facts (one project per 200 facts, at least 10):
-- 25% trusted state (all seven categories, a tenth of it superseded
-- history, half of it filed under the project's alias), 40% entities
-- (all sixteen types, round robin; decisions have superseded history),
-- 35% memories (all six types, some superseded, some expired), plus
-- relationships (part_of, uses_material, satisfies, supersedes,
-- constrained_by). About 2% of the slots disagree: decisions against
-- state (cross_layer), parameter pairs (entity_slot), preference pairs
-- (memory_slot) and knowledge memories against state (cross_layer).
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
BEGIN;
CREATE TEMP TABLE cfg AS SELECT n, max(n / 200, 10) AS p FROM bench_n;
CREATE TEMP TABLE n(i INTEGER PRIMARY KEY);
WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c
    WHERE i < (SELECT n FROM cfg) - 1)
INSERT INTO n SELECT i FROM c;

INSERT INTO projects(id, name, aliases, description, created_at)
SELECT 'p' || i, 'Project ' || i, '["a' || i || '","proj-' || i || '"]',
    'bench project ' || i, '2024-01-01 00:00:00'
FROM n WHERE i < (SELECT p FROM cfg);

-- Trusted state: row i is key (i / P) of project (i % P). Every tenth
-- key index is instead a superseded older value of the key before it.
CREATE TEMP TABLE st AS
SELECT i, i % (SELECT p FROM cfg) AS pr, i / (SELECT p FROM cfg) AS k
FROM n WHERE i < (SELECT n FROM cfg) / 4;
INSERT INTO project_state(id, project, category, key, value, source,
    status, created_at, updated_at)
SELECT 's-' || i, (CASE WHEN i % 2 THEN 'a' ELSE 'p' END) || pr,
    CASE k % 7 WHEN 0 THEN 'decision' WHEN 1 THEN 'requirement'
        WHEN 2 THEN 'status' WHEN 3 THEN 'contact' WHEN 4 THEN 'milestone'
        WHEN 5 THEN 'fact' ELSE 'config' END,
    'key_' || (CASE WHEN k % 10 = 9 THEN k - 1 ELSE k END),
    CASE WHEN k % 10 = 9 THEN (k - 1) || '.25 mm' ELSE k || '.5 mm' END,
    'bench generator',
    CASE WHEN k % 10 = 9 THEN 'superseded' ELSE 'active' END,
    printf('2024-%02d-%02d 10:00:00', 1 + k % 12, 1 + pr % 28),
    printf('2024-%02d-%02d 10:00:00', 1 + k % 12, 1 + pr % 28)
FROM st;

-- Entities: entity j has type (j % 16) and ordinal o = j / 16 within its
-- type; o belongs to project (o % P) as that project's item l = o / P.
CREATE TEMP TABLE en AS
SELECT i AS j, i % 16 AS t, (i / 16) % (SELECT p FROM cfg) AS pr,
    (i / 16) / (SELECT p FROM cfg) AS l, i / 16 AS o
FROM n WHERE i < (SELECT n FROM cfg) * 2 / 5;
INSERT INTO entities(id, entity_type, name, project, description,
    properties, status, source_refs, created_at, updated_at)
SELECT 'e-' || tn || '-' || o, tn,
    CASE tn WHEN 'system' THEN 'system ' || l
        WHEN 'subsystem' THEN 'sub ' || l
        WHEN 'component' THEN 'comp ' || l
        WHEN 'material' THEN CASE l % 3 WHEN 0 THEN 'GF-PTFE'
            WHEN 1 THEN 'Invar 36' ELSE 'aluminium 6061' END
        WHEN 'parameter' THEN 'length'
        ELSE tn || ' ' || l END,
    'p' || pr,
    CASE tn WHEN 'project' THEN 'bench project ' || pr
        ELSE 'the ' || tn || ' number ' || l || ' of project ' || pr END,
    CASE tn
    WHEN 'project' THEN '{}'
    WHEN 'system' THEN '{}'
    WHEN 'subsystem' THEN json_object('part_of', 'system 0')
    WHEN 'component' THEN json_object('subsystem', 'sub ' || (l % 5),
        'part_of', 'sub ' || (l % 5))
    WHEN 'interface' THEN json_object('between', 'comp ' || l)
    WHEN 'requirement' THEN json_object('key', 'req_' || l,
        'value', 10 + l, 'unit', 'kg')
    WHEN 'constraint' THEN json_object('target', 'comp ' || l,
        'kind', 'mass', 'value', 2 + l, 'unit', 'kg')
    -- decision l % 5 = 4 is the superseded older value of decision l - 1.
    WHEN 'decision' THEN json_object('target', 'key',
        'field', '' || (7 * (CASE WHEN l % 5 = 4 THEN l - 1 ELSE l END)),
        'value', CASE WHEN l % 5 = 4 THEN '0 mm'
            WHEN o % 11 = 3 THEN (7 * l) || '.75 mm'
            ELSE (7 * l) || '.5 mm' END)
    WHEN 'material' THEN json_object('component', 'comp ' || l)
    -- two parameters per scope; 1 pair in 4 disagrees
    WHEN 'parameter' THEN json_object('scope', 'unit ' || (l / 2),
        'value', CASE WHEN l % 2 = 1 AND (l / 2 + pr) % 4 = 1 THEN 4.82
            ELSE 4.8 END, 'unit', 'kg')
    -- method and solver both: with method alone, core/sweep/slot.c
    -- (V_METHOD_SOLVER) frees the value it returns (reported, not ours)
    WHEN 'analysis_model' THEN json_object('subsystem', 'sub ' || (l % 5),
        'method', 'FEA', 'solver', 'CalculiX')
    WHEN 'result' THEN json_object('model', 'analysis_model ' || l,
        'key', 'stress', 'value', 100 + l, 'unit', 'MPa')
    WHEN 'validation_claim' THEN json_object('key', 'claim_' || l,
        'verdict', 'pass')
    WHEN 'vendor' THEN json_object('country', 'CH')
    WHEN 'process' THEN json_object('step', l)
    ELSE json_object('path', 'docs/' || o || '.pdf') END,
    CASE WHEN tn = 'decision' AND l % 5 = 4 THEN 'superseded'
        WHEN o % 53 = 5 THEN 'candidate' ELSE 'active' END,
    json_array('bench:' || o),
    printf('2024-%02d-%02d 11:00:00', 1 + l % 12, 1 + o % 28),
    printf('2024-%02d-%02d 11:00:00', 1 + l % 12, 1 + o % 28)
FROM (SELECT en.*, CASE t WHEN 0 THEN 'project' WHEN 1 THEN 'system'
    WHEN 2 THEN 'subsystem' WHEN 3 THEN 'component' WHEN 4 THEN 'interface'
    WHEN 5 THEN 'requirement' WHEN 6 THEN 'constraint'
    WHEN 7 THEN 'decision' WHEN 8 THEN 'material' WHEN 9 THEN 'parameter'
    WHEN 10 THEN 'analysis_model' WHEN 11 THEN 'result'
    WHEN 12 THEN 'validation_claim' WHEN 13 THEN 'vendor'
    WHEN 14 THEN 'process' ELSE 'artifact' END AS tn FROM en);

-- Relationships between entities of one project (same ordinal
-- arithmetic, so both ends exist: the JOINs drop any that would not).
INSERT INTO relationships(id, source_entity_id, target_entity_id,
    relationship_type, created_at)
SELECT 'r-po-' || c.o, 'e-component-' || c.o, s.id, 'part_of',
    '2024-02-01 00:00:00'
FROM en c JOIN entities s
    ON s.id = 'e-subsystem-' || ((c.l % 5) * (SELECT p FROM cfg) + c.pr)
WHERE c.t = 3;
INSERT INTO relationships(id, source_entity_id, target_entity_id,
    relationship_type, created_at)
SELECT 'r-um-' || c.o, 'e-component-' || c.o, m.id, 'uses_material',
    '2024-02-01 00:00:00'
FROM en c JOIN entities m ON m.id = 'e-material-' || c.o WHERE c.t = 3;
INSERT INTO relationships(id, source_entity_id, target_entity_id,
    relationship_type, created_at)
SELECT 'r-sa-' || c.o, 'e-component-' || c.o, q.id, 'satisfies',
    '2024-02-01 00:00:00'
FROM en c JOIN entities q ON q.id = 'e-requirement-' || c.o
WHERE c.t = 3 AND c.l % 3 <> 2;
INSERT INTO relationships(id, source_entity_id, target_entity_id,
    relationship_type, created_at)
SELECT 'r-cb-' || c.o, 'e-component-' || c.o, q.id, 'constrained_by',
    '2024-02-01 00:00:00'
FROM en c JOIN entities q ON q.id = 'e-constraint-' || c.o WHERE c.t = 3;
INSERT INTO relationships(id, source_entity_id, target_entity_id,
    relationship_type, created_at)
SELECT 'r-ss-' || d.o, 'e-decision-' || d.o, old.id, 'supersedes',
    '2024-02-01 00:00:00'
FROM en d JOIN entities old
    ON old.id = 'e-decision-' || (d.o + (SELECT p FROM cfg))
WHERE d.t = 7 AND d.l % 5 = 3;
INSERT INTO relationships(id, source_entity_id, target_entity_id,
    relationship_type, created_at)
SELECT 'r-sup-' || v.o, v.id, 'e-result-' || v.o, 'supports',
    '2024-02-01 00:00:00'
FROM (SELECT en.o, e.id FROM en JOIN entities e
    ON e.id = 'e-validation_claim-' || en.o WHERE en.t = 12) v
JOIN entities r ON r.id = 'e-result-' || v.o;

-- Memories: memory m has kind (m % 7) and ordinal o = m / 7.
CREATE TEMP TABLE me AS
SELECT i AS m, i % 7 AS t, (i / 7) % (SELECT p FROM cfg) AS pr,
    (i / 7) / (SELECT p FROM cfg) AS l, i / 7 AS o
FROM n WHERE i < (SELECT n FROM cfg) * 7 / 20;
INSERT INTO memories(id, memory_type, content, project, confidence,
    status, reference_count, domain_tags, valid_until, created_at,
    updated_at)
SELECT 'm-' || m,
    CASE t WHEN 0 THEN 'identity' WHEN 1 THEN 'preference'
        WHEN 2 THEN 'preference' WHEN 3 THEN 'project'
        WHEN 4 THEN 'episodic' WHEN 5 THEN 'knowledge' ELSE 'adaptation' END,
    CASE t
    WHEN 0 THEN 'works as an optical engineer'
    -- two preferences per topic (kinds 1 and 2 of one ordinal); 1 in 15
    -- pairs disagrees
    WHEN 1 THEN 'prefers fast tool' || l || ' for area' || l
    WHEN 2 THEN CASE WHEN (l + pr) % 15 = 3 THEN 'prefers slow tool' || l
        ELSE 'prefers fast tool' || l END || ' for area' || l
    -- project and knowledge memories restate a state value; 1 in 15 of
    -- the knowledge ones contradicts it (keys 5l and 5l+1 exist in
    -- state for every project: 50 keys each, none of them 9 mod 10)
    WHEN 3 THEN 'key_' || (5 * l) || ' is ' || (5 * l) || '.5 mm'
    WHEN 5 THEN 'key_' || (5 * l + 1) || ' is ' ||
        CASE WHEN (l + pr) % 15 = 7 THEN '9 mm' ELSE (5 * l + 1) || '.5 mm' END
    WHEN 4 THEN 'met the vendor about batch ' || o
    ELSE 'switched the cleaning process after batch ' || o END,
    'p' || pr, 0.5 + (o % 5) / 10.0,
    CASE WHEN o % 29 = 4 AND t NOT IN (1, 2, 5) THEN 'superseded'
        ELSE 'active' END,
    o % 9, json_array('bench', 'kind' || t),
    CASE WHEN t = 4 AND o % 17 = 0 THEN '2024-06-01 00:00:00' END,
    printf('2024-%02d-%02d 12:00:00', 1 + l % 12, 1 + o % 28),
    printf('2024-%02d-%02d 12:00:00', 1 + l % 12, 1 + o % 28)
FROM me;
COMMIT;
