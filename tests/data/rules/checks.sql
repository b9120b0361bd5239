-- checks.sql: a store for tests/e2e/t_rules_starter.sh with, per starter
-- rule beyond the gaps, rows it must flag (ids with "hit") and near
-- misses it must not ("miss"). Clock of the tests: 2026-11-01 00:00:00.
BEGIN;
INSERT INTO projects(id, name, aliases, created_at) VALUES
 ('pa', 'Project A', '["a"]', '2025-01-01 00:00:00'),
 ('pb', 'Project B', '[]', '2025-01-01 00:00:00');

INSERT INTO entities(id, entity_type, name, project, properties, status, created_at, updated_at) VALUES
 -- windows -------------------------------------------------------------
 ('w-2025', 'parameter', 'valid in 2025', 'pa', '{"valid_from":"2025-01-01 00:00:00","valid_until":"2025-12-31 23:59:59"}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('w-2027', 'parameter', 'valid from 2027', 'pa', '{"valid_from":"2027-01-01"}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('w-2024', 'constraint', 'valid in 2024', 'pa', '{"valid_until":"2024-12-31 23:59:59"}', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('w-invalid', 'parameter', 'invalid, window in 2025', 'pa', '{"valid_until":"2025-06-30"}', 'invalid', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('w-garbage', 'parameter', 'window not a date', 'pa', '{"valid_until":"soon"}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('w-number', 'parameter', 'window a number', 'pa', '{"valid_until":20250101}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('c-plain', 'component', 'plain component', 'pa', '{"material":"steel"}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 -- decisions --------------------------------------------------------------
 ('d-late', 'decision', 'decided 2026-03-01', 'pa', '{"date":"2026-03-01"}', 'active', '2025-02-01 00:00:00', '2025-02-01 00:00:00'),
 ('d-early', 'decision', 'decided before 2027', 'a', '{}', 'active', '2026-05-01 00:00:00', '2026-05-01 00:00:00'),
 ('d-inside', 'decision', 'decided in 2025', 'pa', '{"date":"2025-06-01"}', 'active', '2026-05-01 00:00:00', '2026-05-01 00:00:00'),
 ('d-candidate', 'decision', 'proposed in 2026', 'pa', '{"date":"2026-06-01"}', 'candidate', '2026-06-01 00:00:00', '2026-06-01 00:00:00'),
 ('d-old', 'decision', 'superseded, 2026', 'pa', '{}', 'superseded', '2026-02-01 00:00:00', '2026-02-01 00:00:00'),
 -- results and models -----------------------------------------------------
 ('am-fea', 'analysis_model', 'FEA', 'pa', '{}', 'active', '2025-06-01 00:00:00', '2025-06-01 00:00:00'),
 ('am-b', 'analysis_model', 'FEA', 'pb', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('res-hit-name', 'result', 'by name, early', 'a', '{"model":"FEA"}', 'active', '2025-05-01 00:00:00', '2025-05-01 00:00:00'),
 ('res-hit-id', 'result', 'by id, early', 'pa', '{"model":"am-fea"}', 'active', '2025-05-02 00:00:00', '2025-05-02 00:00:00'),
 ('res-hit-edge', 'result', 'by edge, early', 'pb', '{}', 'active', '2025-05-03 00:00:00', '2025-05-03 00:00:00'),
 ('res-miss-late', 'result', 'by name, later', 'pa', '{"model":"FEA"}', 'active', '2025-07-01 00:00:00', '2025-07-01 00:00:00'),
 ('res-miss-same', 'result', 'same second', 'pa', '{"model":"FEA"}', 'active', '2025-06-01 00:00:00', '2025-06-01 00:00:00'),
 ('res-miss-other', 'result', 'other project model', 'pb', '{"model":"FEA"}', 'active', '2025-02-01 00:00:00', '2025-02-01 00:00:00'),
 ('res-miss-invalid', 'result', 'invalid, early', 'pa', '{"model":"FEA"}', 'invalid', '2025-05-01 00:00:00', '2025-05-01 00:00:00'),
 ('res-miss-type', 'result', 'model property a number', 'pa', '{"model":7}', 'active', '2025-05-01 00:00:00', '2025-05-01 00:00:00'),
 ('res-miss-supports', 'result', 'supports edge only', 'pa', '{}', 'active', '2025-05-01 00:00:00', '2025-05-01 00:00:00'),
 -- subsystems for staleness ---------------------------------------------------
 ('sub-x', 'subsystem', 'Optics', 'pa', '{}', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('sub-y', 'subsystem', 'Frame', 'pa', '{}', 'active', '2024-01-01 00:00:00', '2026-09-01 00:00:00'),
 ('sub-z', 'subsystem', 'Drives', 'pa', '{}', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('x-new', 'component', 'new lens', 'pa', '{"material":"glass"}', 'active', '2026-10-01 00:00:00', '2026-10-01 00:00:00'),
 ('x-stale-edge', 'component', 'old lens', 'pa', '{"material":"glass"}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('x-stale-prop', 'analysis_model', 'old optics model', 'a', '{"subsystem":"Optics"}', 'active', '2025-02-01 00:00:00', '2025-02-01 00:00:00'),
 ('x-fresh', 'component', 'recent mount', 'pa', '{"material":"steel"}', 'active', '2026-01-01 00:00:00', '2026-01-01 00:00:00'),
 ('x-superseded', 'component', 'retired lens', 'pa', '{"material":"glass"}', 'superseded', '2024-06-01 00:00:00', '2024-06-01 00:00:00'),
 ('y-stale', 'component', 'old beam', 'pa', '{"material":"steel"}', 'active', '2025-02-01 00:00:00', '2025-02-01 00:00:00'),
 ('z-old', 'component', 'old motor', 'pa', '{"material":"copper"}', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('z-mid', 'component', 'mid motor', 'pa', '{"material":"copper"}', 'active', '2025-06-01 00:00:00', '2025-06-01 00:00:00'),
 ('x-other-project', 'component', 'lens of B', 'pb', '{"subsystem":"Optics","material":"glass"}', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 -- supersedes --------------------------------------------------------------
 ('s-a', 'decision', 'A', 'pa', '{}', 'superseded', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('s-b', 'decision', 'B', 'pa', '{}', 'superseded', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('s-c', 'decision', 'C', 'pa', '{}', 'superseded', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('s-d', 'decision', 'D', 'pa', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('s-e', 'decision', 'E', 'pa', '{}', 'superseded', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('s-f', 'decision', 'F', 'pa', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('cy-1', 'decision', 'cycle 1', 'pb', '{}', 'superseded', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('cy-2', 'decision', 'cycle 2', 'pb', '{}', 'superseded', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('cy-3', 'decision', 'cycle 3', 'pb', '{}', 'superseded', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('cy-self', 'decision', 'self', 'pb', '{}', 'superseded', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('cy-tail', 'decision', 'tail into the cycle', 'pb', '{}', 'superseded', '2025-01-01 00:00:00', '2025-01-01 00:00:00');

INSERT INTO relationships(id, source_entity_id, target_entity_id, relationship_type, created_at) VALUES
 -- edge-outside-window
 ('hit-late', 'c-plain', 'w-2025', 'constrained_by', '2026-02-01 00:00:00'),
 ('hit-disjoint', 'w-2024', 'w-2027', 'depends_on', '2024-06-01 00:00:00'),
 ('miss-inside', 'c-plain', 'w-2025', 'uses_material', '2025-06-01 00:00:00'),
 ('miss-planned', 'c-plain', 'w-2027', 'constrained_by', '2026-02-01 00:00:00'),
 ('miss-supersedes', 'w-2027', 'w-2025', 'supersedes', '2026-02-01 00:00:00'),
 ('miss-provenance', 'w-2025', 'c-plain', 'described_by', '2026-02-01 00:00:00'),
 ('miss-invalid', 'c-plain', 'w-invalid', 'constrained_by', '2026-02-01 00:00:00'),
 ('miss-garbage', 'c-plain', 'w-garbage', 'constrained_by', '2026-02-01 00:00:00'),
 ('miss-number', 'c-plain', 'w-number', 'constrained_by', '2026-02-01 00:00:00'),
 -- decision-outside-window (edges with a decision: never edge-outside-window)
 ('dhit-late', 'w-2025', 'd-late', 'affected_by_decision', '2026-03-01 00:00:00'),
 ('dhit-early', 'd-early', 'w-2027', 'satisfies', '2026-05-01 00:00:00'),
 ('dhit-old', 'd-old', 'w-2025', 'depends_on', '2026-02-01 00:00:00'),
 ('dmiss-inside', 'w-2025', 'd-inside', 'affected_by_decision', '2026-05-01 00:00:00'),
 ('dmiss-candidate', 'w-2025', 'd-candidate', 'affected_by_decision', '2026-06-01 00:00:00'),
 ('dmiss-supersedes', 'd-late', 'w-2025', 'supersedes', '2026-03-01 00:00:00'),
 ('dmiss-nowindow', 'c-plain', 'd-late', 'affected_by_decision', '2026-03-01 00:00:00'),
 -- result-before-model
 ('rhit-edge', 'res-hit-edge', 'am-fea', 'derived_from', '2025-06-01 00:00:00'),
 ('rmiss-supports', 'res-miss-supports', 'am-fea', 'supports', '2025-06-01 00:00:00'),
 -- stale-entity
 ('po-new', 'x-new', 'sub-x', 'part_of', '2026-10-01 00:00:00'),
 ('po-stale', 'x-stale-edge', 'sub-x', 'part_of', '2025-01-01 00:00:00'),
 ('po-fresh', 'x-fresh', 'sub-x', 'part_of', '2026-01-01 00:00:00'),
 ('po-superseded', 'x-superseded', 'sub-x', 'part_of', '2024-06-01 00:00:00'),
 ('po-y', 'y-stale', 'sub-y', 'part_of', '2025-02-01 00:00:00'),
 ('po-z-old', 'z-old', 'sub-z', 'part_of', '2024-01-01 00:00:00'),
 ('po-z-mid', 'z-mid', 'sub-z', 'part_of', '2025-06-01 00:00:00'),
 -- supersedes: chain A <- B <- C <- D (head D), E <- F (one step),
 -- a cycle 1 -> 2 -> 3 -> 1 with a tail, a self loop, dangling ends.
 ('ss-ba', 's-b', 's-a', 'supersedes', '2025-01-01 00:00:00'),
 ('ss-cb', 's-c', 's-b', 'supersedes', '2025-01-01 00:00:00'),
 ('ss-dc', 's-d', 's-c', 'supersedes', '2025-01-01 00:00:00'),
 ('ss-fe', 's-f', 's-e', 'supersedes', '2025-01-01 00:00:00'),
 ('cy-12', 'cy-1', 'cy-2', 'supersedes', '2025-01-01 00:00:00'),
 ('cy-23', 'cy-2', 'cy-3', 'supersedes', '2025-01-01 00:00:00'),
 ('cy-31', 'cy-3', 'cy-1', 'supersedes', '2025-01-01 00:00:00'),
 ('cy-1t', 'cy-1', 'cy-tail', 'supersedes', '2025-01-01 00:00:00'),
 ('cy-ss', 'cy-self', 'cy-self', 'supersedes', '2025-01-01 00:00:00'),
 ('dang-target', 's-f', 'gone', 'supersedes', '2025-01-01 00:00:00'),
 ('dang-source', 'ghost', 's-e', 'supersedes', '2025-01-01 00:00:00'),
 ('dang-both', 'ghost', 'gone', 'supersedes', '2025-01-01 00:00:00'),
 ('miss-dang-other', 's-f', 'gone', 'derived_from', '2025-01-01 00:00:00');

INSERT INTO project_state(id, project, category, key, value, status, created_at, updated_at) VALUES
 -- family 'spindle' of pa: a recent row, one stale, one close enough.
 ('st-spindle-new', 'pa', 'fact', 'spindle_bearings', 'ceramic', 'active', '2026-09-01 00:00:00', '2026-09-01 00:00:00'),
 ('st-spindle-stale', 'a', 'requirement', 'Spindle max-speed', '300 rpm', 'active', '2025-03-01 00:00:00', '2025-03-01 00:00:00'),
 ('st-spindle-close', 'pa', 'fact', 'spindle_power', '3 kW', 'active', '2026-04-01 00:00:00', '2026-04-01 00:00:00'),
 ('st-spindle-superseded', 'pa', 'fact', 'spindle_torque', '10 Nm', 'superseded', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 -- family 'table' of pa: the newest row is itself old (no recent move).
 ('st-table-old', 'pa', 'fact', 'table_speed', '5 rpm', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('st-table-mid', 'pa', 'fact', 'table_size', '300 mm', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 -- family 'spindle' of pb: another project, old.
 ('st-b-spindle', 'pb', 'fact', 'spindle_max_speed', '250 rpm', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 -- an invalid recent row moves nothing.
 ('st-coolant-old', 'pa', 'fact', 'coolant', 'water', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'),
 ('st-coolant-bad', 'pa', 'fact', 'coolant_type', 'oil', 'invalid', '2026-10-01 00:00:00', '2026-10-01 00:00:00');
COMMIT;
