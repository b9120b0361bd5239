-- Worked example 1 of doc/rules.md: one fact, one parameter.

-- rule: unsure-decision
-- severity: error
-- label: unsure decision
-- description: A decision in trusted project state is the highest-trust
--   claim the store makes; one held with less confidence than the team's
--   bar should be confirmed or demoted before anyone builds on it.
-- param: min_confidence = 0.9
SELECT s.project AS project,
       json_array('project_state:' || s.id) AS facts,
       'decision ' || s.key || ' = ' || s.value || ' is held with confidence '
         || s.confidence || ', below ' || :min_confidence AS message
FROM project_state s
WHERE s.category = 'decision' AND s.status = 'active'
  AND s.confidence < :min_confidence;
