-- rule: quadratic-json-patch
-- severity: warn
-- description: json_patch of two objects of 60,000 keys, one VM step (9 s unbounded).
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i < 60000),
a(o) AS (SELECT json_group_object('a'||i, 1) FROM c),
b(o) AS (SELECT json_group_object('b'||i, 1) FROM c)
SELECT 'p05-interferometer' AS project, json_array('entity:x') AS facts,
  'n ' || length(json_patch(a.o, b.o)) AS message FROM a, b;
-- rule: fine-json-patch
-- severity: warn
-- description: legitimate json_patch; its result stays JSON to json_set.
SELECT 'p05-interferometer' AS project, json_array('entity:x') AS facts,
  json_set('{}', '$.a', json_patch('{"y":2}', '{"x":1,"y":null}')) AS message;
