-- Worked example 2 of doc/rules.md: several facts, across layers.

-- rule: retired-material
-- severity: warn
-- label: retired material
-- description: An active component still uses a material entity that
--   has been superseded or invalidated: the design moved on and the
--   component did not, or the edge should go.
SELECT c.project AS project,
       json_array('entity:' || c.id, 'relationship:' || r.id,
                  'entity:' || m.id) AS facts,
       c.name || ' uses ' || m.name || ', which is ' || m.status AS message
FROM relationships r
JOIN entities c ON c.id = r.source_entity_id
JOIN entities m ON m.id = r.target_entity_id
WHERE r.relationship_type = 'uses_material'
  AND c.status = 'active' AND m.status IN ('superseded', 'invalid');
