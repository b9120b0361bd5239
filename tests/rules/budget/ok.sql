-- rule: fine-instr
-- severity: warn
-- description: legitimate instr, replace, like, trim.
SELECT e.project AS project, json_array('entity:' || e.id) AS facts, 'x' AS message
FROM entities e WHERE instr(e.name, 'a') > 0 AND replace(e.name, 'a', 'b') LIKE '%b%' AND trim(e.name, 'x') GLOB '*' AND e.name LIKE '%a%' ESCAPE '\';
