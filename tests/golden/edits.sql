-- edits.sql: what changes in the golden store between the two builds of
-- tests/golden/run.sh (after the reviews of the first day). Each edit
-- exercises one more thing the second build shows.

BEGIN;

-- The decision behind the refclk conflict is retired: the sweep closes
-- that conflict itself (resolved by 'sweep', the disagreement gone).
UPDATE entities SET status = 'superseded', updated_at = '2026-11-01 09:00:00'
 WHERE id = 'e-g1-dec-refclk';

-- A new value on the slot a reviewer decided (10 screws won over 8): a
-- new conflict, which names the resolved one as an earlier conflict.
INSERT INTO entities(id, entity_type, name, project, description, properties, status, confidence, source_refs, created_at, updated_at) VALUES
 ('e-g1-con-screws-12', 'constraint', 'Preload screw count (vendor)', 'g1-bench', 'The vendor''s cell has twelve.', '{"target":"Mirror mount","kind":"screw count","value":"12"}', 'active', 0.8, '["vendor drawing"]', '2026-11-01 09:00:00', '2026-11-01 09:00:00');

-- A member of an open conflict changes its value and still disagrees:
-- the conflict page shows the value then and the value now.
UPDATE entities SET properties = '{"scope":"reference mirror","value":"4.83","unit":"kg"}', updated_at = '2026-11-01 09:00:00'
 WHERE id = 'e-g1-par-mass-weighed';

-- A third opinion joins the open conflict on the workflow.
INSERT INTO memories(id, memory_type, content, project, confidence, status, reference_count, domain_tags, valid_until, graduated_to_entity_id, created_at, updated_at) VALUES
 ('m-g1-pref-squash', 'preference', 'prefers squash workflow', 'g1-bench', 0.7, 'active', 0, '["git","workflow"]', NULL, NULL, '2026-11-01 09:00:00', '2026-11-01 09:00:00');

-- A member of the dismissed conflict leaves the store: its conflict page
-- keeps the member, marked as no longer in the store.
DELETE FROM entities WHERE id = 'e-g1-vc-fail';

-- A plain value change (the history's message names it).
UPDATE project_state SET value = 'alignment', updated_at = '2026-11-01 09:00:00'
 WHERE id = 's-g1-phase';

COMMIT;
