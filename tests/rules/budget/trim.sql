-- rule: quadratic-trim
-- severity: warn
-- description: rtrim over a long set, one VM step.
SELECT '' AS project, json_array('entity:x') AS facts, 'm' AS message
WHERE length(rtrim(printf('%.*c', 200000, 'a'), printf('%.*c', 200000, 'b') || 'a')) > 0;
