-- Test rules for tests/e2e/t_rules.sh (not the starter set: rules/).

-- rule: test-no-material
-- severity: warn
-- label: no material
-- description: An active component with no material: no uses_material
--   edge and no "material" property.
SELECT e.project AS project,
       json_array('entity:' || e.id) AS facts,
       'component ' || e.name || ' has no material' AS message
FROM entities e
WHERE e.entity_type = 'component' AND e.status = 'active'
  AND json_extract(e.properties, '$.material') IS NULL
  AND NOT EXISTS (SELECT 1 FROM relationships r
                  WHERE r.source_entity_id = e.id
                    AND r.relationship_type = 'uses_material');
