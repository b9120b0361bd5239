-- stale_two.sql: a store for tests/e2e/t_rules_starter.sh where one
-- stale entity belongs to two subsystems that moved, one by a part_of
-- edge and one by its "subsystem" property filed under an alias, and two
-- recent members of one subsystem tie on their update: stale-entity
-- names it once, with one message, the same on every run. Clock of the
-- tests: 2026-11-01 00:00:00.
BEGIN;
INSERT INTO projects(id, name, aliases, created_at) VALUES
 ('pq', 'Project Q', '["q"]', '2024-01-01 00:00:00');

INSERT INTO entities(id, entity_type, name, project, properties, status, created_at, updated_at) VALUES
 ('s1', 'subsystem', 'Optics', 'pq', '{}', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('s2', 'subsystem', 'Frame', 'q', '{}', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('n1', 'component', 'new lens', 'pq', '{}', 'active', '2026-10-01 00:00:00', '2026-10-01 00:00:00'),
 ('n1b', 'component', 'new mirror', 'pq', '{}', 'active', '2026-10-01 00:00:00', '2026-10-01 00:00:00'),
 ('n2', 'component', 'new beam', 'pq', '{"subsystem":"Frame"}', 'active', '2026-09-01 00:00:00', '2026-09-01 00:00:00'),
 ('x-two', 'component', 'old part', 'q', '{"subsystem":"Frame"}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('y-recent', 'component', 'not old enough', 'pq', '{"subsystem":"Frame"}', 'active', '2026-01-01 00:00:00', '2026-01-01 00:00:00');

INSERT INTO relationships(id, source_entity_id, target_entity_id, relationship_type, created_at) VALUES
 ('po-n1', 'n1', 's1', 'part_of', '2026-10-01 00:00:00'),
 ('po-n1b', 'n1b', 's1', 'part_of', '2026-10-01 00:00:00'),
 ('po-x', 'x-two', 's1', 'part_of', '2025-01-01 00:00:00'),
 ('po-y', 'y-recent', 's1', 'part_of', '2026-01-01 00:00:00');
COMMIT;
