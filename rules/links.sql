-- rule: supersede-cycle
-- severity: error
-- label: supersede cycle
-- description: supersedes relationships that run in a circle (A
--   supersedes B, B supersedes A; or an entity that supersedes itself),
--   so no entity of the circle is the current one. Reported once per
--   circle, naming its relationships, from its smallest entity id;
--   circles longer than 64 steps are not followed.
WITH RECURSIVE sup AS MATERIALIZED (
  SELECT r.id, r.source_entity_id AS a, r.target_entity_id AS b
  FROM relationships r WHERE r.relationship_type = 'supersedes'),
mid AS MATERIALIZED (
  SELECT a AS id FROM sup INTERSECT SELECT b FROM sup),
walk(start, cur, lo, depth, path, rels) AS (
  SELECT s.a, s.b, min(s.a, s.b), 1,
         char(31) || s.a || char(31) || s.b || char(31),
         json_array('relationship:' || s.id)
  FROM sup s WHERE s.a IN (SELECT id FROM mid) AND s.b IN (SELECT id FROM mid)
  UNION ALL
  SELECT w.start, s.b, min(w.lo, s.b), w.depth + 1, w.path || s.b || char(31),
         json_insert(w.rels, '$[#]', 'relationship:' || s.id)
  FROM walk w JOIN sup s ON s.a = w.cur
  WHERE w.cur <> w.start AND w.depth < 64
    AND (s.b = w.start OR instr(w.path, char(31) || s.b || char(31)) = 0))
SELECT coalesce((SELECT e.project FROM entities e WHERE e.id = w.start), '')
         AS project,
       w.rels AS facts,
       'supersede cycle of ' || w.depth || ' step' ||
       CASE WHEN w.depth = 1 THEN '' ELSE 's' END || ': ' ||
       replace(trim(w.path, char(31)), char(31), ' supersedes ') AS message
FROM walk w
WHERE w.cur = w.start AND w.lo = w.start;

-- rule: supersedes-missing
-- severity: error
-- label: dangling supersedes
-- description: A supersedes relationship whose source or target is no
--   entity of the store: the replaced or the replacing entity is gone (or
--   its id is mistyped), so the history it records cannot be followed.
SELECT coalesce(s.project, t.project, '') AS project,
       json_array('relationship:' || r.id) AS facts,
       CASE WHEN t.id IS NULL AND s.id IS NULL
            THEN r.source_entity_id || ' supersedes ' || r.target_entity_id ||
                 ', and neither is an entity'
            WHEN t.id IS NULL
            THEN s.name || ' supersedes ' || r.target_entity_id ||
                 ', which is no entity'
            ELSE r.source_entity_id || ', which is no entity, supersedes ' ||
                 t.name END AS message
FROM relationships r
LEFT JOIN entities s ON s.id = r.source_entity_id
LEFT JOIN entities t ON t.id = r.target_entity_id
WHERE r.relationship_type = 'supersedes' AND (s.id IS NULL OR t.id IS NULL);

-- rule: supersede-chain
-- severity: warn
-- label: superseded twice
-- description: An entity superseded by one that was itself superseded
--   (C supersedes B, B supersedes A): A's replacement is not the current
--   one, and links to A should lead to the current one, the entity
--   nothing supersedes, which the message names. Replacements are
--   followed up to 64 steps; a circle has no current one and is left to
--   the rule "supersede cycle".
WITH RECURSIVE sup AS MATERIALIZED (
  SELECT r.source_entity_id AS a, r.target_entity_id AS b
  FROM relationships r
  WHERE r.relationship_type = 'supersedes'
    AND r.source_entity_id <> r.target_entity_id),
up(old, next, cur, depth, path) AS (
  SELECT s.b, s.a, s.a, 0, char(31) || s.b || char(31) || s.a || char(31)
  FROM sup s WHERE s.a IN (SELECT b FROM sup)
  UNION
  SELECT u.old, u.next, s.a, u.depth + 1, u.path || s.a || char(31)
  FROM up u JOIN sup s ON s.b = u.cur
  WHERE u.depth < 64 AND instr(u.path, char(31) || s.a || char(31)) = 0),
head AS (
  SELECT u.old, min(u.next) AS next, group_concat(DISTINCT u.cur) AS heads,
         min(u.cur) AS head
  FROM up u WHERE u.cur NOT IN (SELECT b FROM sup)
  GROUP BY u.old)
SELECT e.project AS project,
       json_array('entity:' || e.id) AS facts,
       e.name || ' was superseded by ' ||
       coalesce((SELECT n.name FROM entities n WHERE n.id = h.next), h.next) ||
       ', itself superseded: the current one is ' ||
       CASE WHEN h.heads = h.head
            THEN coalesce((SELECT x.name FROM entities x WHERE x.id = h.head),
                          h.head)
            ELSE replace(h.heads, ',', ', ') END AS message
FROM head h JOIN entities e ON e.id = h.old;
