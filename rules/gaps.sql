-- rule: component-without-material
-- severity: warn
-- label: no material
-- description: An active component that says nothing about what it is
--   made of: no "uses material" relationship out of it and no "material"
--   property (a non-empty string or a number). Replaces the overview's
--   hand-written gap of the same name: facts of no project are left out,
--   as the overview leaves them out.
SELECT e.project AS project,
       json_array('entity:' || e.id) AS facts,
       'component ' || e.name || ' has no material' AS message
FROM entities e
WHERE e.entity_type = 'component' AND e.status = 'active'
  AND e.project <> ''
  AND e.id NOT IN (SELECT r.source_entity_id FROM relationships r
                   WHERE r.relationship_type = 'uses_material'
                     AND r.source_entity_id IS NOT NULL)
  AND NOT coalesce(CASE json_type(e.properties, '$.material')
                   WHEN 'text' THEN json_extract(e.properties, '$.material') <> ''
                   WHEN 'integer' THEN 1
                   WHEN 'real' THEN 1
                   ELSE 0 END, 0);

-- rule: requirement-unsatisfied
-- severity: warn
-- label: unsatisfied
-- description: An active requirement that nothing satisfies: no
--   satisfies relationship points at it, whatever the status or project
--   of the fact it comes from. Replaces the overview's hand-written gap
--   "requirement nothing satisfies".
SELECT e.project AS project,
       json_array('entity:' || e.id) AS facts,
       'requirement ' || e.name || ' is satisfied by nothing' AS message
FROM entities e
WHERE e.entity_type = 'requirement' AND e.status = 'active'
  AND e.project <> ''
  AND e.id NOT IN (SELECT r.target_entity_id FROM relationships r
                   WHERE r.relationship_type = 'satisfies'
                     AND r.target_entity_id IS NOT NULL);

-- rule: claim-unsupported
-- severity: warn
-- label: unsupported
-- description: An active validation claim that nothing supports: no
--   supports relationship points at it. Replaces the overview's
--   hand-written gap "validation claim nothing supports".
SELECT e.project AS project,
       json_array('entity:' || e.id) AS facts,
       'validation claim ' || e.name || ' is supported by nothing' AS message
FROM entities e
WHERE e.entity_type = 'validation_claim' AND e.status = 'active'
  AND e.project <> ''
  AND e.id NOT IN (SELECT r.target_entity_id FROM relationships r
                   WHERE r.relationship_type = 'supports'
                     AND r.target_entity_id IS NOT NULL);
