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
         w.vu_text, CASE WHEN w.id = g.src THEN g.dst ELSE g.src END AS other
  FROM edge g JOIN win w ON w.id IN (g.src, g.dst)
  WHERE g.t > w.vu)
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
dec AS MATERIALIZED (
  SELECT d.id, d.name, d.project,
         CASE WHEN json_type(d.properties, '$.date') = 'text'
              THEN json_extract(d.properties, '$.date')
              ELSE d.created_at END AS day
  FROM entities d
  WHERE d.entity_type = 'decision' AND d.status IN ('active', 'superseded')),
link AS (
  SELECT r.id AS rid, r.relationship_type AS type,
         r.source_entity_id AS a, r.target_entity_id AS b
  FROM relationships r
  WHERE r.relationship_type NOT IN ('supersedes', 'described_by',
          'updated_by_session', 'evidenced_by', 'summarized_in')
    AND (r.source_entity_id IN (SELECT id FROM win)
         OR r.target_entity_id IN (SELECT id FROM win)))
SELECT d.project AS project,
       json_array('entity:' || d.id, 'relationship:' || l.rid,
                  'entity:' || w.id) AS facts,
       'decision ' || d.name || ' (' || coalesce(date(d.day), d.day) || ') names ' || w.name ||
       ' through ' || replace(l.type, '_', ' ') || ', but ' || w.name || ' is valid ' ||
       CASE WHEN julianday(d.day) < w.vf THEN 'from ' || coalesce(date(w.vf_text), w.vf_text)
            ELSE 'until ' || coalesce(date(w.vu_text), w.vu_text) END AS message
FROM link l
JOIN win w ON w.id IN (l.a, l.b)
JOIN dec d ON d.id = CASE WHEN w.id = l.a THEN l.b ELSE l.a END
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
WITH canon(name, id) AS MATERIALIZED (
  SELECT id, id FROM projects
  UNION SELECT j.value, p.id FROM projects p, json_each(p.aliases) j),
ent AS MATERIALIZED (
  SELECT e.id, e.entity_type = 'result' AS isr, e.name, e.project,
         e.created_at, julianday(e.created_at) AS t,
         coalesce(c.id, e.project) AS cp,
         CASE WHEN e.entity_type = 'result'
              THEN e.properties ->> '$.model' END AS model
  FROM entities e LEFT JOIN canon c ON c.name = e.project
  WHERE e.entity_type IN ('result', 'analysis_model')
    AND e.status <> 'invalid'),
pair AS (
  SELECT r.project, r.id AS rid, r.name AS rname, r.created_at AS rc,
         m.id AS mid, m.name AS mname, m.created_at AS mc
  FROM ent r JOIN ent m ON m.name = r.model AND m.cp = r.cp
  WHERE r.isr AND typeof(r.model) = 'text' AND NOT m.isr AND r.t < m.t
  UNION
  SELECT r.project, r.id, r.name, r.created_at, m.id, m.name, m.created_at
  FROM ent r CROSS JOIN entities m ON m.id = r.model
  LEFT JOIN canon c ON c.name = m.project
  WHERE r.isr AND typeof(r.model) = 'text'
    AND m.entity_type = 'analysis_model' AND m.status <> 'invalid'
    AND coalesce(c.id, m.project) = r.cp
    AND r.t < julianday(m.created_at)
  UNION
  SELECT r.project, r.id, r.name, r.created_at, m.id, m.name, m.created_at
  FROM relationships x
  CROSS JOIN entities r ON r.id = x.source_entity_id
  CROSS JOIN entities m ON m.id = x.target_entity_id
  WHERE x.relationship_type IN ('depends_on', 'derived_from', 'analyzed_by')
    AND r.entity_type = 'result' AND r.status <> 'invalid'
    AND m.entity_type = 'analysis_model' AND m.status <> 'invalid'
    AND julianday(r.created_at) < julianday(m.created_at))
SELECT p.project AS project,
       json_array('entity:' || p.rid, 'entity:' || p.mid) AS facts,
       'result ' || p.rname || ' (' || coalesce(date(p.rc), p.rc) ||
       ') is older than its analysis model ' || p.mname || ' (' ||
       coalesce(date(p.mc), p.mc) || ')' AS message
FROM pair p;
