-- rule: stale-state
-- severity: warn
-- label: stale
-- description: An active trusted-state fact left behind: its project
--   updated another fact of the same key family within the last :days
--   days, and this one was last updated at least :days days before that
--   update. A key's family is its first word:
--   the key in lower case up to its first '_' (a blank or '-' counts as
--   '_'), so "spindle max speed" and "spindle power" are one family;
--   facts filed under another name of the project count for the
--   project. Active and superseded facts count as newer facts; invalid
--   ones do not.
-- param: days = 180
WITH canon(name, id) AS MATERIALIZED (
  SELECT id, id FROM projects
  UNION SELECT j.value, p.id FROM projects p, json_each(p.aliases) j),
cut(t) AS MATERIALIZED (
  SELECT datetime(:today, '-' || :days || ' days')),
go0(x) AS MATERIALIZED (
  SELECT 1 WHERE EXISTS (SELECT 1 FROM cut CROSS JOIN project_state s
                         WHERE s.status = 'active' AND s.updated_at < cut.t)),
recent AS MATERIALIZED (
  SELECT coalesce(c.id, s.project) AS cp,
         lower(replace(replace(s.key, ' ', '_'), '-', '_')) AS k,
         s.key, s.updated_at
  FROM go0 CROSS JOIN cut CROSS JOIN project_state s
  LEFT JOIN canon c ON c.name = s.project
  WHERE s.updated_at >= cut.t AND s.status IN ('active', 'superseded')),
fam AS MATERIALIZED (
  SELECT cp, CASE WHEN instr(k, '_') > 1
                  THEN substr(k, 1, instr(k, '_') - 1) ELSE k END AS f,
         max(updated_at) AS updated_at, key
  FROM recent GROUP BY 1, 2),
names(name) AS MATERIALIZED (
  SELECT cp FROM fam
  UNION SELECT c.name FROM canon c WHERE c.id IN (SELECT cp FROM fam)),
go(x) AS MATERIALIZED (
  SELECT 1 WHERE EXISTS (SELECT 1 FROM fam)),
old AS MATERIALIZED (
  SELECT s.id, s.project, s.key, s.updated_at,
         coalesce(c.id, s.project) AS cp,
         lower(replace(replace(s.key, ' ', '_'), '-', '_')) AS k
  FROM go CROSS JOIN cut CROSS JOIN project_state s
  LEFT JOIN canon c ON c.name = s.project
  WHERE s.status = 'active' AND s.updated_at < cut.t
    AND s.project IN (SELECT name FROM names))
SELECT o.project AS project,
       json_array('project_state:' || o.id) AS facts,
       'trusted state ' || o.key || ' was last updated ' || date(o.updated_at) ||
       ', while ' || n.key || ' (same family: ' || n.f ||
       ') was updated ' || date(n.updated_at) AS message
FROM old o CROSS JOIN fam n ON n.cp = o.cp
  AND n.f = CASE WHEN instr(o.k, '_') > 1
                 THEN substr(o.k, 1, instr(o.k, '_') - 1) ELSE o.k END
WHERE julianday(o.updated_at) <= julianday(n.updated_at) - :days;

-- rule: stale-entity
-- severity: warn
-- label: stale
-- description: An active entity left behind: another entity of its
--   subsystem was updated within the last :days days, and this one was
--   last updated at least :days days before that update. An entity's subsystem is the subsystem entity it has a
--   "part of" relationship to, or the subsystem of its project that its
--   "subsystem" property names; the subsystem entity itself counts as a
--   newer fact of its own subsystem but is never flagged. Active and
--   superseded entities count as newer facts.
-- param: days = 365
WITH canon(name, id) AS MATERIALIZED (
  SELECT id, id FROM projects
  UNION SELECT j.value, p.id FROM projects p, json_each(p.aliases) j),
cut(t) AS MATERIALIZED (
  SELECT datetime(:today, '-' || :days || ' days')),
go(x) AS MATERIALIZED (
  SELECT 1 FROM (
    SELECT max(CASE WHEN e.updated_at >= cut.t
                     AND e.status IN ('active', 'superseded')
                    THEN julianday(e.updated_at) END) AS top
    FROM cut CROSS JOIN entities e) t
  WHERE t.top IS NOT NULL
    AND EXISTS (SELECT 1 FROM entities e
                WHERE e.status = 'active' AND e.entity_type <> 'subsystem'
                  AND julianday(e.updated_at) <= t.top - :days)),
recent AS MATERIALIZED (
  SELECT e.id, e.entity_type AS type, e.name, e.updated_at,
         coalesce(c.id, e.project) AS cp,
         CASE WHEN instr(e.properties, '"subsystem"') > 0
                   AND json_type(e.properties, '$.subsystem') = 'text'
              THEN json_extract(e.properties, '$.subsystem') END AS subname
  FROM go CROSS JOIN cut CROSS JOIN entities e
  LEFT JOIN canon c ON c.name = e.project
  WHERE e.updated_at >= cut.t AND e.status IN ('active', 'superseded')),
sub AS MATERIALIZED (
  SELECT e.id, e.name, coalesce(c.id, e.project) AS cp
  FROM go CROSS JOIN entities e LEFT JOIN canon c ON c.name = e.project
  WHERE e.entity_type = 'subsystem' AND e.status IN ('active', 'superseded')),
po AS MATERIALIZED (
  SELECT r.source_entity_id AS id, r.target_entity_id AS sub
  FROM go CROSS JOIN relationships r
  WHERE r.relationship_type = 'part_of'
    AND r.target_entity_id IN (SELECT id FROM sub)),
moved AS MATERIALIZED (
  SELECT sub, max(updated_at) AS updated_at, name FROM (
    SELECT s.id AS sub, r.updated_at, r.name
    FROM recent r JOIN sub s ON s.id = r.id
    UNION ALL
    SELECT p.sub, r.updated_at, r.name FROM recent r JOIN po p ON p.id = r.id
    UNION ALL
    SELECT s.id, r.updated_at, r.name FROM recent r
    JOIN sub s ON s.name = r.subname AND s.cp = r.cp
    WHERE r.type <> 'subsystem')
  GROUP BY sub),
names(name) AS MATERIALIZED (
  SELECT s.cp FROM sub s WHERE s.id IN (SELECT sub FROM moved)
  UNION SELECT c.name FROM canon c JOIN sub s ON s.cp = c.id
  WHERE s.id IN (SELECT sub FROM moved)),
go2(x) AS MATERIALIZED (
  SELECT 1 WHERE EXISTS (SELECT 1 FROM moved)),
member(id, sub) AS (
  SELECT p.id, p.sub FROM po p
  UNION
  SELECT e.id, s.id FROM go2 CROSS JOIN cut CROSS JOIN entities e
  LEFT JOIN canon c ON c.name = e.project
  JOIN sub s ON s.name = json_extract(e.properties, '$.subsystem')
    AND s.cp = coalesce(c.id, e.project)
  WHERE e.project IN (SELECT name FROM names)
    AND e.status = 'active' AND e.updated_at <= cut.t
    AND instr(e.properties, '"subsystem"') > 0
    AND json_type(e.properties, '$.subsystem') = 'text'
    AND s.id IN (SELECT sub FROM moved))
SELECT e.project AS project,
       json_array('entity:' || e.id) AS facts,
       e.name || ' was last updated ' || date(e.updated_at) || ', while ' ||
       n.name || ' (same subsystem: ' || s.name || ') was updated ' ||
       date(n.updated_at) AS message
FROM member m CROSS JOIN entities e ON e.id = m.id
CROSS JOIN moved n ON n.sub = m.sub CROSS JOIN sub s ON s.id = m.sub
WHERE e.status = 'active' AND e.entity_type <> 'subsystem'
  AND julianday(e.updated_at) <= julianday(n.updated_at) - :days
GROUP BY e.id;
