-- gaps_edges.sql: a store of the corner cases of the overview's gaps,
-- for tests/e2e/t_rules_starter.sh: the three gap rules must list
-- exactly the gaps the project pages list. Rows commented "gap" are
-- gaps, "none" are not.
BEGIN;
INSERT INTO projects(id, name, aliases, created_at) VALUES
 ('px', 'Project X', '["x","xx"]', '2025-01-01 00:00:00'),
 ('py', 'Project Y', '[]', '2025-01-01 00:00:00');

INSERT INTO entities(id, entity_type, name, project, properties, status, created_at, updated_at) VALUES
 ('c-bare', 'component', 'bare', 'px', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),            -- gap
 ('c-alias', 'component', 'alias', 'x', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),           -- gap, under px
 ('c-edge-missing', 'component', 'edge to nothing', 'px', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- none
 ('c-edge-old', 'component', 'edge to superseded', 'px', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- none
 ('c-edge-other', 'component', 'edge to py', 'xx', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),        -- none
 ('c-edge-in', 'component', 'edge into it', 'px', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),         -- gap
 ('c-edge-self', 'component', 'edge to itself', 'px', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),     -- none
 ('c-edge-type', 'component', 'made_of edge', 'px', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),       -- gap
 ('c-prop-text', 'component', 'material text', 'px', '{"material":"Invar"}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'), -- none
 ('c-prop-blank', 'component', 'material blank', 'px', '{"material":" "}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- none
 ('c-prop-empty', 'component', 'material empty', 'px', '{"material":""}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),   -- gap
 ('c-prop-int', 'component', 'material int', 'px', '{"material":7}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),        -- none
 ('c-prop-real', 'component', 'material real', 'px', '{"material":2.5}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),    -- none
 ('c-prop-true', 'component', 'material true', 'px', '{"material":true}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),   -- gap
 ('c-prop-null', 'component', 'material null', 'px', '{"material":null}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),   -- gap
 ('c-prop-obj', 'component', 'material object', 'px', '{"material":{"name":"Invar"}}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'), -- gap
 ('c-prop-list', 'component', 'material list', 'px', '{"material":["Invar"]}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),       -- gap
 ('c-prop-case', 'component', 'Material key', 'px', '{"Material":"Invar"}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- gap
 ('c-candidate', 'component', 'candidate', 'px', '{}', 'candidate', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- none
 ('c-superseded', 'component', 'superseded', 'px', '{}', 'superseded', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- none
 ('c-noproject', 'component', 'of no project', '', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- none: no overview
 ('c-unlisted', 'component', 'of an unlisted project', 'pz', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- gap, under pz
 ('c-type-case', 'Component', 'type in capitals', 'px', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- none
 ('s-sub', 'subsystem', 'subsystem', 'px', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- none: not a component
 ('m-old', 'material', 'old material', 'px', '{}', 'superseded', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('m-py', 'material', 'py material', 'py', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('m-in', 'material', 'points back', 'px', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),
 ('r-bare', 'requirement', 'bare', 'px', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- gap
 ('r-by-old', 'requirement', 'by superseded', 'x', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- none
 ('r-by-missing', 'requirement', 'by nothing there', 'px', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- none
 ('r-by-other', 'requirement', 'by py', 'px', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- none
 ('r-out', 'requirement', 'satisfies another', 'px', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- gap
 ('r-prop', 'requirement', 'property only', 'px', '{"satisfied_by":"c-bare"}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- gap
 ('r-validated', 'requirement', 'validated only', 'px', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- gap
 ('r-invalid', 'requirement', 'invalid', 'px', '{}', 'invalid', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- none
 ('k-constraint', 'constraint', 'constraint', 'px', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- none
 ('v-bare', 'validation_claim', 'bare', 'py', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- gap
 ('v-by-other', 'validation_claim', 'by px', 'py', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- none
 ('v-by-old', 'validation_claim', 'by superseded', 'py', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- none
 ('v-validated', 'validation_claim', 'validated_by only', 'py', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- gap
 ('v-out', 'validation_claim', 'supports another', 'py', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- gap
 ('v-candidate', 'validation_claim', 'candidate', 'py', '{}', 'candidate', '2025-01-01 00:00:00', '2025-01-01 00:00:00'),  -- none
 ('a-art', 'artifact', 'test report', 'px', '{}', 'active', '2025-01-01 00:00:00', '2025-01-01 00:00:00');

INSERT INTO relationships(id, source_entity_id, target_entity_id, relationship_type, created_at) VALUES
 ('e1', 'c-edge-missing', 'nowhere', 'uses_material', '2025-01-01 00:00:00'),
 ('e2', 'c-edge-old', 'm-old', 'uses_material', '2025-01-01 00:00:00'),
 ('e3', 'c-edge-other', 'm-py', 'uses_material', '2025-01-01 00:00:00'),
 ('e4', 'm-in', 'c-edge-in', 'uses_material', '2025-01-01 00:00:00'),
 ('e5', 'c-edge-self', 'c-edge-self', 'uses_material', '2025-01-01 00:00:00'),
 ('e6', 'c-edge-type', 'm-in', 'made_of', '2025-01-01 00:00:00'),
 ('e7', 'c-superseded', 'r-by-old', 'satisfies', '2025-01-01 00:00:00'),
 ('e8', 'gone', 'r-by-missing', 'satisfies', '2025-01-01 00:00:00'),
 ('e9', 'm-py', 'r-by-other', 'satisfies', '2025-01-01 00:00:00'),
 ('e10', 'r-out', 'r-bare-not-here', 'satisfies', '2025-01-01 00:00:00'),
 ('e11', 'r-validated', 'v-validated', 'validated_by', '2025-01-01 00:00:00'),
 ('e12', 'a-art', 'v-by-other', 'supports', '2025-01-01 00:00:00'),
 ('e13', 'm-old', 'v-by-old', 'supports', '2025-01-01 00:00:00'),
 ('e14', 'v-out', 'v-bare-not-here', 'supports', '2025-01-01 00:00:00'),
 ('e15', 'c-bare', 'm-in', 'Uses_Material', '2025-01-01 00:00:00');
COMMIT;
