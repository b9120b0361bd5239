-- Numbers glued to units that do not start with an ASCII letter
-- (doc/sweep.md: 4.80 kg = 4.8kg). Expected: u1 none (20°C = 20 °C,
-- 5µm = 5 µm), u2 one conflict (20°C against 21 °C).
INSERT INTO projects(id, name, aliases) VALUES ('u1', 'Units', '[]'), ('u2', 'Units two', '[]');
INSERT INTO project_state(id, project, category, key, value) VALUES
 ('s-bath', 'u1', 'parameter', 'bath_temp', '20°C'),
 ('s-gap', 'u1', 'fact', 'gap', '5µm'),
 ('s-bath2', 'u2', 'parameter', 'bath_temp', '20°C');
INSERT INTO entities(id, entity_type, name, project, properties) VALUES
 ('e-bath', 'parameter', 'bath temp', 'u1', '{"value":20,"unit":"°C"}'),
 ('e-bath2', 'parameter', 'bath temp', 'u2', '{"value":21,"unit":"°C"}');
INSERT INTO memories(id, memory_type, content, project) VALUES
 ('m-gap', 'knowledge', 'gap: 5 µm', 'u1');
