-- checks.sql: violations of two made-up rules, written straight into the
-- rule tables (schema version 2) of any store, so that the Checks pages,
-- the violation pages and the markers have something to show before a
-- rule has run: the first three active components get an open warning,
-- the first requirement a closed one, and one rule failed.
INSERT INTO rule_runs(sweep_run, rule_id, origin, severity, label,
    description, query, status, error, hits, duration_ms) VALUES
  ('test-run', 'test-component', 'tests/data/checks.sql:12', 'warn',
   'test check', 'A component a test flags: <b>markup</b> is *text*.',
   'SELECT e.project AS project,
       json_array(''entity:'' || e.id) AS facts,
       ''component '' || e.name AS message
FROM entities e WHERE e.entity_type = ''component'';', 'ok', '', 3, 1),
  ('test-run', 'test-failing', 'tests/data/checks.sql:20', 'error',
   'never runs', 'A rule that cannot run.', 'SELECT nope FROM nowhere;',
   'failed', 'no such table: nowhere', 0, 0);
INSERT INTO rule_violations(id, rule_id, severity, project, facts, message,
    status, detected_at, opened_run, closed_at, closed_run)
SELECT printf('chk-%012x', n), 'test-component', 'warn', project,
    json_array('entity:' || id), 'component ' || name || ' is flagged',
    'open', '2026-10-01 00:00:00', 'test-run', NULL, NULL
FROM (SELECT row_number() OVER (ORDER BY e.id) AS n, e.id, e.name,
    coalesce((SELECT p.id FROM projects p WHERE p.id = e.project OR
    EXISTS (SELECT 1 FROM json_each(p.aliases) WHERE value = e.project)),
    e.project) AS project
  FROM entities e WHERE e.entity_type = 'component' AND e.status = 'active'
  ORDER BY e.id LIMIT 3);
INSERT INTO rule_violations(id, rule_id, severity, project, facts, message,
    status, detected_at, opened_run, closed_at, closed_run)
SELECT 'chk-00000000ffff', 'test-component', 'warn', '',
    json_array('entity:' || id), 'requirement ' || name || ' was flagged',
    'closed', '2026-09-01 00:00:00', 'test-run', '2026-09-15 00:00:00',
    'test-run'
FROM entities WHERE entity_type = 'requirement' ORDER BY id LIMIT 1;
INSERT INTO violation_facts(violation_id, layer, fact_id)
SELECT v.id, 'entity', json_extract(v.facts, '$[0]') FROM rule_violations v
WHERE v.rule_id = 'test-component';
UPDATE violation_facts SET fact_id = substr(fact_id, 8)
WHERE fact_id LIKE 'entity:%';
