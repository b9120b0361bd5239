-- A store for the site tests: the SPEC 8 cross-layer example (state vs
-- decision entity in p05), a decision history with a reversal, an
-- architecture with a subsystem, a component without material, loose
-- memories, and conflicts recorded as a sweep would (one open, one
-- resolved), so pages can be checked with --no-sweep too.
INSERT INTO projects(id, name, aliases, description) VALUES
 ('p05-interferometer', 'P05 Interferometer', '["p05","interferometer"]', 'Optical bench for mirror testing'),
 ('p06-polisher', 'P06 Polisher', '[]', 'Polishing cell');
INSERT INTO project_state(id, project, category, key, value, source, status, created_at, updated_at) VALUES
 ('s1', 'p05', 'decision', 'lateral_support_material', 'GF-PTFE', 'design review 3', 'active', '2024-03-01 10:00:00', '2024-03-01 10:00:00'),
 ('s2', 'p05-interferometer', 'fact', 'aperture', '150 mm', '', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('s3', 'p05', 'decision', 'coating', 'silver', '', 'superseded', '2023-01-01 00:00:00', '2023-01-01 00:00:00'),
 ('s4', 'p05', 'decision', 'coating', 'aluminium', '', 'superseded', '2023-06-01 00:00:00', '2023-06-01 00:00:00'),
 ('s5', 'p05', 'decision', 'coating', 'Silver', '', 'active', '2024-02-01 00:00:00', '2024-02-01 00:00:00'),
 ('s6', 'p06-polisher', 'status', 'phase', 'design', '', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('s7', 'p06-polisher', 'milestone', 'pdr', 'passed', '', 'active', '2024-01-02 00:00:00', '2024-01-02 00:00:00');
INSERT INTO entities(id, entity_type, name, project, description, properties, status, created_at, updated_at) VALUES
 ('e1', 'decision', 'Lateral support material', 'interferometer', '',
  '{"target":"lateral support","field":"material","value":"PEEK"}', 'active', '2024-03-02 00:00:00', '2024-03-02 00:00:00'),
 ('e2', 'subsystem', 'Lateral support', 'p05', 'Holds the mirror edge', '{}', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('e3', 'component', 'Support pad', 'p05', '', '{}', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('e4', 'material', 'PEEK', 'p05', 'polyether ether ketone', '{}', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('e5', 'component', 'Edge clamp', 'p05', '', '{"subsystem":"Lateral support"}', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('e6', 'requirement', 'Mass cap', 'p05', '', '{"key":"mass_cap","value":"4.8","unit":"kg"}', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('e7', 'validation_claim', 'Pad stiffness ok', 'p05', '', '{"verdict":"pass"}', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('e8', 'vendor', 'Acme Optics', 'p05', 'polishing vendor', '{}', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('e9', 'parameter', 'Pad preload', 'p05', '', '{"scope":"pad","value":"12","unit":"N"}', 'candidate', '2024-01-01 00:00:00', '2024-01-01 00:00:00');
INSERT INTO relationships(id, source_entity_id, target_entity_id, relationship_type) VALUES
 ('r1', 'e3', 'e2', 'part_of'),
 ('r2', 'e3', 'e4', 'uses_material'),
 ('r3', 'e2', 'e1', 'affected_by_decision'),
 ('r4', 'e2', 'e6', 'constrained_by');
INSERT INTO memories(id, memory_type, content, project, confidence, status, reference_count, valid_until, created_at, updated_at) VALUES
 ('m1', 'preference', 'prefers rebase workflow', '', 0.9, 'active', 3, NULL, '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('m2', 'preference', 'prefers merge-commit workflow', '', 0.8, 'active', 1, NULL, '2024-01-02 00:00:00', '2024-01-02 00:00:00'),
 ('m3', 'project', 'the polisher runs at 60 rpm', 'p06-polisher', 0.7, 'active', 0, '2001-01-01 00:00:00', '2000-01-01 00:00:00', '2000-01-01 00:00:00'),
 ('m4', 'knowledge', 'PEEK creeps under load', 'p05', 0.6, 'active', 2, NULL, '2024-01-01 00:00:00', '2024-01-01 00:00:00');
INSERT INTO conflicts(id, detected_at, slot_kind, slot_key, project, status, resolved_at, resolution, resolved_by) VALUES
 ('c-5e1a', '2024-03-02 12:00:00', 'cross_layer', '["p05-interferometer","lateral_support_material"]', 'p05-interferometer', 'open', NULL, '', ''),
 ('c-77b0', '2024-01-03 12:00:00', 'memory_slot', '["","preference","workflow"]', '', 'resolved', '2024-01-04 09:00:00', 'both are fine', 'alice');
INSERT INTO conflict_members(conflict_id, member_kind, member_id, member_layer_trust, value_snapshot, conflicts_with) VALUES
 ('c-5e1a', 'project_state', 's1', 3, 'GF-PTFE', NULL),
 ('c-5e1a', 'entity', 'e1', 2, 'PEEK', 's1'),
 ('c-77b0', 'memory', 'm1', 1, 'rebase workflow', NULL),
 ('c-77b0', 'memory', 'm2', 1, 'merge-commit workflow', NULL);
