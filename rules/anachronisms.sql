-- rule: edge-outside-window
-- severity: warn
-- label: anachronism
-- description: A relationship that needs an entity at a time the entity
--   was not valid: recorded (the day it was created) after the end of
--   the entity's window (its "valid until" property), or joining two
--   entities whose windows (valid from to valid until) never overlap. Recording a
--   relationship before an entity's window opens is planning, not an
--   anachronism, and is not flagged. Supersedes and the provenance
--   relationships (described by, updated by session, evidenced by,
--   summarized in) are about history and are left out, and so are
--   relationships with a decision at one end (the rule "decision
--   outside window" judges those by the decision's date). Invalid entities take no part.
WITH win AS MATERIALIZED (
  SELECT e.id, e.name, e.project, e.entity_type,
         julianday(json_extract(e.properties, '$.valid_from')) AS vf,
         julianday(json_extract(e.properties, '$.valid_until')) AS vu,
         json_extract(e.properties, '$.valid_from') AS vf_text,
         json_extract(e.properties, '$.valid_until') AS vu_text
  FROM entities e
  WHERE instr(e.properties, '"valid_') > 0 AND e.status <> 'invalid'
    AND (json_type(e.properties, '$.valid_from') = 'text'
         OR json_type(e.properties, '$.valid_until') = 'text')),
go(x) AS MATERIALIZED (
  SELECT 1 WHERE EXISTS (SELECT 1 FROM win)),
edge AS MATERIALIZED (
  SELECT r.id, r.relationship_type AS type, r.source_entity_id AS src,
         r.target_entity_id AS dst, r.created_at,
         julianday(r.created_at) AS t
  FROM go CROSS JOIN relationships r
  WHERE r.relationship_type NOT IN ('supersedes', 'described_by',
          'updated_by_session', 'evidenced_by', 'summarized_in')
    AND (r.source_entity_id IN (SELECT id FROM win)
         OR r.target_entity_id IN (SELECT id FROM win))),
late AS (
  SELECT g.id AS rid, g.type, g.created_at, w.id AS eid, w.name, w.project,
         w.vu_text, g.dst AS other
  FROM edge g JOIN win w ON w.id = g.src
  WHERE g.t > w.vu
  UNION ALL
  SELECT g.id, g.type, g.created_at, w.id, w.name, w.project, w.vu_text,
         g.src
  FROM edge g JOIN win w ON w.id = g.dst
  WHERE g.t > w.vu AND w.id <> g.src)
SELECT l.project AS project,
       json_array('relationship:' || l.rid, 'entity:' || l.eid) AS facts,
       'relationship ' || replace(l.type, '_', ' ') || ' was recorded ' ||
       coalesce(date(l.created_at), l.created_at) || ', after ' || l.name ||
       ' was valid (until ' || coalesce(date(l.vu_text), l.vu_text) || ')'
       AS message
FROM late l
WHERE NOT EXISTS (SELECT 1 FROM entities d
                  WHERE d.id = l.other AND d.entity_type = 'decision')
UNION ALL
SELECT a.project,
       json_array('relationship:' || g.id, 'entity:' || a.id, 'entity:' || b.id),
       'relationship ' || replace(g.type, '_', ' ') || ' joins ' || a.name || ' (valid ' ||
       coalesce(date(a.vf_text), a.vf_text, '…') || ' to ' ||
       coalesce(date(a.vu_text), a.vu_text, '…') || ') and ' || b.name ||
       ' (valid ' || coalesce(date(b.vf_text), b.vf_text, '…') || ' to ' ||
       coalesce(date(b.vu_text), b.vu_text, '…') || '), which never coexisted'
FROM edge g JOIN win a ON a.id = g.src JOIN win b ON b.id = g.dst
WHERE a.id <> b.id AND (a.vu < b.vf OR b.vu < a.vf);

-- rule: decision-outside-window
-- severity: warn
-- label: anachronism
-- description: A decision that names an entity outside the entity's
--   window: the decision's date (its "date" property, else the day it
--   was created) lies before the entity's "valid from" or after its
--   "valid until". A decision names every entity it shares a
--   relationship with, in either direction (affected by decision,
--   satisfies, ...),
--   except supersedes and the provenance relationships. Active and
--   superseded decisions take part; invalid entities do not.
WITH win AS MATERIALIZED (
  SELECT e.id, e.name,
         julianday(json_extract(e.properties, '$.valid_from')) AS vf,
         julianday(json_extract(e.properties, '$.valid_until')) AS vu,
         json_extract(e.properties, '$.valid_from') AS vf_text,
         json_extract(e.properties, '$.valid_until') AS vu_text
  FROM entities e
  WHERE instr(e.properties, '"valid_') > 0 AND e.status <> 'invalid'
    AND (json_type(e.properties, '$.valid_from') = 'text'
         OR json_type(e.properties, '$.valid_until') = 'text')),
go(x) AS MATERIALIZED (
  SELECT 1 WHERE EXISTS (SELECT 1 FROM win)),
dec AS MATERIALIZED (
  SELECT d.id, d.name, d.project,
         CASE WHEN json_type(d.properties, '$.date') = 'text'
              THEN json_extract(d.properties, '$.date')
              ELSE d.created_at END AS day
  FROM go CROSS JOIN entities d
  WHERE +d.entity_type = 'decision' AND d.status IN ('active', 'superseded')),
link AS (
  SELECT r.id AS rid, r.relationship_type AS type,
         r.source_entity_id AS a, r.target_entity_id AS b
  FROM go CROSS JOIN relationships r
  WHERE r.relationship_type NOT IN ('supersedes', 'described_by',
          'updated_by_session', 'evidenced_by', 'summarized_in')
    AND (r.source_entity_id IN (SELECT id FROM win)
         OR r.target_entity_id IN (SELECT id FROM win))),
named AS (
  SELECT l.rid, l.type, l.b AS other, w.*
  FROM link l JOIN win w ON w.id = l.a
  UNION ALL
  SELECT l.rid, l.type, l.a, w.*
  FROM link l JOIN win w ON w.id = l.b
  WHERE w.id <> l.a)
SELECT d.project AS project,
       json_array('entity:' || d.id, 'relationship:' || w.rid,
                  'entity:' || w.id) AS facts,
       'decision ' || d.name || ' (' || coalesce(date(d.day), d.day) || ') names ' || w.name ||
       ' through ' || replace(w.type, '_', ' ') || ', but ' || w.name || ' is valid ' ||
       CASE WHEN julianday(d.day) < w.vf THEN 'from ' || coalesce(date(w.vf_text), w.vf_text)
            ELSE 'until ' || coalesce(date(w.vu_text), w.vu_text) END AS message
FROM named w
JOIN dec d ON d.id = w.other
WHERE julianday(d.day) < w.vf OR julianday(d.day) > w.vu;

-- rule: result-before-model
-- severity: warn
-- label: older than its model
-- description: A result recorded before the analysis model it comes
--   from: it was created before the model was. A result comes from the
--   analysis models it has a "depends on", "derived from" or "analyzed
--   by" relationship to, and from the analysis model of its project
--   whose name or id its "model" property gives. Invalid facts take no
--   part.
WITH ent AS MATERIALIZED (
  SELECT e.id, e.entity_type = 'result' AS isr,
         CASE WHEN e.entity_type = 'result'
              THEN e.properties ->> '$.model' ELSE e.name END AS k,
         julianday(e.created_at) AS t,
         coalesce(a.canonical, e.project) AS cp
  FROM entities e LEFT JOIN temp.project_alias a ON a.name = e.project
  WHERE e.entity_type IN ('result', 'analysis_model')
    AND e.status <> 'invalid'),
pair(rid, mid) AS (
  SELECT r.id, m.id
  FROM ent r JOIN ent m ON m.k = r.k AND m.cp = r.cp
  WHERE r.isr AND typeof(r.k) = 'text' AND NOT m.isr AND r.t < m.t
  UNION
  SELECT r.id, m.id
  FROM ent r CROSS JOIN entities m ON m.id = r.k
  LEFT JOIN temp.project_alias c ON c.name = m.project
  WHERE r.isr AND typeof(r.k) = 'text'
    AND m.entity_type = 'analysis_model' AND m.status <> 'invalid'
    AND coalesce(c.canonical, m.project) = r.cp
    AND r.t < julianday(m.created_at)
  UNION
  SELECT r.id, m.id
  FROM relationships x
  CROSS JOIN entities r ON r.id = x.source_entity_id
  CROSS JOIN entities m ON m.id = x.target_entity_id
  WHERE x.relationship_type IN ('depends_on', 'derived_from', 'analyzed_by')
    AND r.entity_type = 'result' AND r.status <> 'invalid'
    AND m.entity_type = 'analysis_model' AND m.status <> 'invalid'
    AND julianday(r.created_at) < julianday(m.created_at))
SELECT r.project AS project,
       json_array('entity:' || r.id, 'entity:' || m.id) AS facts,
       'result ' || r.name || ' (' || coalesce(date(r.created_at), r.created_at) ||
       ') is older than its analysis model ' || m.name || ' (' ||
       coalesce(date(m.created_at), m.created_at) || ')' AS message
FROM pair p CROSS JOIN entities r ON r.id = p.rid
CROSS JOIN entities m ON m.id = p.mid;
