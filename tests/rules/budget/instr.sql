-- rule: quadratic-instr
-- severity: warn
-- description: instr over two long strings, one VM step.
SELECT '' AS project, json_array('entity:x') AS facts, 'm' AS message
WHERE instr(printf('%.*c', 2000000, 'a'), printf('%.*c', 1000000, 'a') || 'b') > 0;
