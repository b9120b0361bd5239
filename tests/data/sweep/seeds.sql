-- The worked examples of SPEC section 8, one project each so that every
-- example is its own slot. Expected: conflicts only in ex1, ex2, ex7.
INSERT INTO projects(id, name, aliases) VALUES
 ('p05-interferometer', 'P05 Interferometer', '["p05","interferometer"]'),
 ('ex2', 'Example 2', '[]'), ('ex3', 'Example 3', '[]'),
 ('ex4', 'Example 4', '[]'), ('ex5', 'Example 5', '[]'),
 ('ex6', 'Example 6', '[]'), ('ex7', 'Example 7', '[]'),
 ('ex8', 'Example 8', '[]');
-- 1. trusted state vs a decision entity (through aliases): cross_layer.
INSERT INTO project_state(id, project, category, key, value, source) VALUES
 ('s-lsm', 'p05', 'decision', 'lateral_support_material', 'GF-PTFE',
  'design review 2024-03');
INSERT INTO entities(id, entity_type, name, project, properties) VALUES
 ('e-dec-peek', 'decision', 'Lateral support material', 'interferometer',
  '{"target":"lateral support","field":"material","value":"PEEK"}');
-- 2. two preferences on topic "workflow": memory_slot.
INSERT INTO memories(id, memory_type, content, project) VALUES
 ('m-rebase', 'preference', 'prefers rebase workflow', 'ex2'),
 ('m-merge', 'preference', 'prefers merge-commit workflow', 'ex2');
-- 3. the same preference twice: a duplicate, no conflict.
INSERT INTO memories(id, memory_type, content, project) VALUES
 ('m-diffs-1', 'preference', 'prefers small diffs', 'ex3'),
 ('m-diffs-2', 'preference', 'Prefers small diffs.', 'ex3');
-- 4. active vs candidate: candidates take no part.
INSERT INTO memories(id, memory_type, content, project, status) VALUES
 ('m-uses-x', 'preference', 'uses X', 'ex4', 'active'),
 ('m-uses-y', 'preference', 'uses Y', 'ex4', 'candidate');
-- 5. superseded decision then active decision: history.
INSERT INTO entities(id, entity_type, name, project, properties, status) VALUES
 ('e-dec-x', 'decision', 'Bolt', 'ex5',
  '{"target":"bolt","field":"grade","value":"X"}', 'superseded'),
 ('e-dec-y', 'decision', 'Bolt', 'ex5',
  '{"target":"bolt","field":"grade","value":"Y"}', 'active');
-- 6. mass cap and heat flux cap on one component: different slots.
INSERT INTO entities(id, entity_type, name, project, properties) VALUES
 ('e-req-mass', 'requirement', 'mass cap', 'ex6',
  '{"component":"pad","value":4.8,"unit":"kg"}'),
 ('e-req-heat', 'requirement', 'heat flux cap', 'ex6',
  '{"component":"pad","value":20,"unit":"W"}');
-- 7. parameter 4.8 kg vs 4.82 kg: conflict (no tolerance).
INSERT INTO entities(id, entity_type, name, project, properties) VALUES
 ('e-par-a', 'parameter', 'preload', 'ex7',
  '{"scope":"pad","value":4.8,"unit":"kg"}'),
 ('e-par-b', 'parameter', 'preload', 'ex7',
  '{"scope":"pad","value":"4.82","unit":"kg"}');
-- 8. parameter 4.8 kg vs 4.80 kg: the same value.
INSERT INTO entities(id, entity_type, name, project, properties) VALUES
 ('e-par-c', 'parameter', 'preload', 'ex8',
  '{"scope":"pad","value":4.8,"unit":"kg"}'),
 ('e-par-d', 'parameter', 'preload', 'ex8',
  '{"scope":"pad","value":"4.80","unit":"kg"}');
