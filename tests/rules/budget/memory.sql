-- rule: json-group-memory
-- severity: warn
-- description: json_group_array of 120 values of 16 MB: 2.1 GB unbounded.
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i < 120)
SELECT 'p05-interferometer' AS project, json_array('entity:x') AS facts,
  'n ' || length(json_group_array(printf('%.*c', 16000000, 'x'))) AS message FROM c;
