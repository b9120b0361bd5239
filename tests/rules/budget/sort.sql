-- rule: huge-sort
-- severity: warn
-- description: sorts hundreds of values of 15 MB.
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
SELECT '' AS project, json_array('entity:x') AS facts, 'm' AS message
FROM (SELECT i, printf('%.*c', 15000000, 'a') || i AS v FROM n ORDER BY v) LIMIT 1;
