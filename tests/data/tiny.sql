-- A tiny store: two projects (one with aliases), rows in every layer.
INSERT INTO projects(id, name, aliases, description) VALUES
 ('p05-interferometer', 'P05 Interferometer', '["p05","interferometer"]', 'Optical bench'),
 ('p06-polisher', 'P06 Polisher', '[]', 'Polishing cell');
INSERT INTO project_state(id, project, category, key, value, status) VALUES
 ('s1', 'p05', 'decision', 'lateral_support_material', 'GF-PTFE', 'active'),
 ('s2', 'p05-interferometer', 'fact', 'aperture', '150 mm', 'active'),
 ('s3', 'p06-polisher', 'status', 'phase', 'design', 'superseded');
INSERT INTO entities(id, entity_type, name, project, properties, status) VALUES
 ('e1', 'decision', 'Lateral support material', 'interferometer',
  '{"target":"lateral support","field":"material","value":"PEEK"}', 'active'),
 ('e2', 'component', 'Pad', 'p06-polisher', '{}', 'candidate');
INSERT INTO relationships(id, source_entity_id, target_entity_id, relationship_type)
 VALUES ('r1', 'e2', 'e1', 'affected_by_decision');
INSERT INTO memories(id, memory_type, content, project, status, valid_until) VALUES
 ('m1', 'preference', 'prefers rebase workflow', '', 'active', NULL),
 ('m2', 'preference', 'prefers merge-commit workflow', '', 'active', '2001-01-01 00:00:00'),
 ('m3', 'episodic', 'met the vendor', 'p05', 'invalid', NULL);
