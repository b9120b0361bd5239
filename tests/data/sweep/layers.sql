-- Three layers on one key, a same-layer disagreement joining the
-- cross-layer conflict, aliases, unlisted projects, expiry and windows.
INSERT INTO projects(id, name, aliases) VALUES
 ('p05-interferometer', 'P05 Interferometer', '["p05","interferometer"]'),
 ('p06-polisher', 'P06 Polisher', '["p06"]');
-- (p06, pad_material): state, two decisions and a project memory.
INSERT INTO project_state(id, project, category, key, value) VALUES
 ('s-pad', 'p06', 'decision', 'pad_material', 'pitch');
INSERT INTO entities(id, entity_type, name, project, properties) VALUES
 ('e-pad-1', 'decision', 'Pad material', 'p06-polisher',
  '{"target":"pad","field":"material","value":"polyurethane"}'),
 ('e-pad-2', 'decision', 'Pad material', 'p06',
  '{"target":"Pad","field":"Material","value":"felt"}');
INSERT INTO memories(id, memory_type, content, project) VALUES
 ('m-pad', 'project', 'The pad material is cerium felt.', 'p06');
-- A memory agreeing with state is a duplicate of it, not a member.
INSERT INTO memories(id, memory_type, content, project) VALUES
 ('m-pad-ok', 'knowledge', 'pad material: Pitch', 'p06-polisher');
-- An unlisted project keeps its name.
INSERT INTO memories(id, memory_type, content, project) VALUES
 ('m-p99-a', 'preference', 'prefers metric units', 'p99-unlisted'),
 ('m-p99-b', 'preference', 'prefers imperial units', 'p99-unlisted');
-- Expiry: m-exp-b expired in 2001, so no conflict.
INSERT INTO memories(id, memory_type, content, project, valid_until) VALUES
 ('m-exp-a', 'preference', 'uses vim for editing', '', NULL),
 ('m-exp-b', 'preference', 'uses emacs for editing', '', '2001-01-01 00:00:00');
-- Windows: a valve decision changed in 2022 (history); a seal decision
-- with overlapping windows (conflict).
INSERT INTO entities(id, entity_type, name, project, properties) VALUES
 ('e-valve-old', 'decision', 'Valve', 'p05',
  '{"target":"valve","field":"type","value":"ball",
    "valid_from":"2020-01-01","valid_until":"2022-01-01"}'),
 ('e-valve-new', 'decision', 'Valve', 'p05',
  '{"target":"valve","field":"type","value":"gate",
    "valid_from":"2022-01-01 00:00:00"}'),
 ('e-seal-a', 'decision', 'Seal', 'p05',
  '{"target":"seal","field":"type","value":"o-ring",
    "valid_from":"2020-01-01","valid_until":"2023-01-01"}'),
 ('e-seal-b', 'decision', 'Seal', 'p05',
  '{"target":"seal","field":"type","value":"gasket",
    "valid_from":"2022-06-01"}');
-- Structure: a subsystem with two parents, a component using two
-- materials through uses_material edges.
INSERT INTO entities(id, entity_type, name, project, properties) VALUES
 ('e-optics-1', 'subsystem', 'Optics', 'p05', '{"part_of":"Bench"}'),
 ('e-optics-2', 'subsystem', 'optics', 'p05', '{"part_of":"Frame"}'),
 ('e-cell', 'component', 'Mirror cell', 'p05', '{}'),
 ('e-invar', 'material', 'Invar', 'p05', '{}'),
 ('e-steel', 'material', 'Steel', 'p05', '{}');
INSERT INTO relationships(id, source_entity_id, target_entity_id, relationship_type) VALUES
 ('r-1', 'e-cell', 'e-invar', 'uses_material'),
 ('r-2', 'e-cell', 'e-steel', 'uses_material');
