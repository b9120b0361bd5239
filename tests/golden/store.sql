-- store.sql: the golden store. tests/golden/run.sh loads it into a store
-- made by 'mirror init', sweeps and reviews it as a user would, applies
-- edits.sql a day later and builds again; the site of that last build is
-- kept under tests/golden/site/ and compared byte for byte by
-- tests/e2e/t_golden.sh. So a change here is a change of every golden
-- page: regenerate with 'make golden' and review the diff.
--
-- Small on purpose (tens of rows), yet it reaches every page family and
-- every feature the pages show: the three layers in every status, the
-- conflicts of each kind and each way of closing (see run.sh), disputed
-- markers, decisions and a decision-log reversal, subsystems by part_of
-- edge and by property, materials by property and by uses_material edge,
-- requirements and constraints, the three kinds of gap, validity
-- windows, memories active, expired, graduated and expiring between the
-- two builds, aliases, a project the projects table does not list, rows
-- of no project, audit rows, ids that need hashed slugs, and hostile
-- text (Markdown and HTML metacharacters, pipes, backticks, template
-- syntax, newlines, long lines, non-ASCII) in the fields pages print.
--
-- Projects: g1-bench (aliases g1, bench), 'G2 Ölpumpe' (aliases g2,
-- ölpumpe; the hostile one), g3-unlisted (rows only), and '' (no project).
-- Rows marked "-- conflict:" are the ones the sweep must flag.

BEGIN;

INSERT INTO projects(id, name, aliases, description, created_at) VALUES
 ('g1-bench', 'G1 Test bench', '["g1","bench"]',
  'A *small* bench for `golden` pages: a mount, a source and a frame.',
  '2026-01-05 09:00:00'),
 ('G2 Ölpumpe', 'G2 | Ölpumpe <script>alert(1)</script> **bold** `tick`', '["g2","ölpumpe"]',
  '# not a heading | a | b | [click](javascript:alert(1)) ![img](x.png) <img src=x onerror=alert(1)> {{site_title}} {{#each projects}}x{{/each}} &lt;b&gt; &amp;amp; \* \_ Übergröße ‮reversed‬ zero​width 🙂 — a long line that goes on and on to see that nothing wraps or truncates it: lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua; ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.',
  '2026-01-06 09:00:00');

-- ===========================================================================
-- Layer 3: trusted project state
-- ===========================================================================

INSERT INTO project_state(id, project, category, key, value, source, confidence, status, created_at, updated_at) VALUES
 -- conflict: three layers on lateral_support_material (written with the alias g1).
 ('s-g1-lateral', 'g1', 'decision', 'lateral_support_material', 'GF-PTFE', 'design review 2026-02-02', 1.0, 'active', '2026-02-02 14:00:00', '2026-02-02 14:00:00'),
 -- conflict: against e-g1-dec-refclk, closed by the sweep once edits.sql supersedes it.
 ('s-g1-refclk', 'g1-bench', 'decision', 'serdes_refclk_frequency', '125 MHz', 'design review 2026-02-02', 1.0, 'active', '2026-02-02 14:00:00', '2026-02-02 14:00:00'),
 -- the decision log's reversal: SFP, then SFP+, then SFP again.
 ('s-g1-form-1', 'g1-bench', 'decision', 'transceiver_form_factor', 'SFP', 'concept review', 1.0, 'superseded', '2026-01-12 10:00:00', '2026-03-02 10:00:00'),
 ('s-g1-form-2', 'g1-bench', 'decision', 'transceiver_form_factor', 'SFP+', 'design review', 1.0, 'superseded', '2026-03-02 10:00:00', '2026-04-06 10:00:00'),
 ('s-g1-form-3', 'g1-bench', 'decision', 'transceiver_form_factor', 'SFP', 'design review (reverted)', 1.0, 'active', '2026-04-06 10:00:00', '2026-04-06 10:00:00'),
 -- no conflict: agrees with e-g1-req-aperture; m-g1-aperture-old has expired.
 ('s-g1-aperture', 'bench', 'fact', 'aperture', '150 mm', 'acceptance spec', 1.0, 'active', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 ('s-g1-phase-old', 'g1-bench', 'status', 'phase', 'design', 'weekly status', 1.0, 'superseded', '2026-01-12 10:00:00', '2026-05-04 10:00:00'),
 ('s-g1-phase', 'g1-bench', 'status', 'phase', 'build', 'weekly status', 0.9, 'active', '2026-05-04 10:00:00', '2026-05-04 10:00:00'),
 ('s-g1-flatness', 'g1-bench', 'requirement', 'flatness', 'λ/20 PV', 'acceptance spec', 1.0, 'active', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 ('s-g1-acceptance', 'g1-bench', 'milestone', 'acceptance', '2026-12-15', 'plan v2', 0.8, 'active', '2026-05-04 10:00:00', '2026-05-04 10:00:00'),
 ('s-g1-data-dir', 'g1-bench', 'config', 'data_dir', '/srv/g1/*raw*_data_|x|', 'lab IT', 1.0, 'active', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 ('s-g1-lead', 'g1-bench', 'contact', 'optics_lead', 'Dr. Ada Ø. Lovelace <ada@example.org>', 'charter', 1.0, 'active', '2026-01-05 09:00:00', '2026-01-05 09:00:00'),
 -- a category of its own: listed after the seven known ones.
 ('s-g1-custom', 'g1-bench', 'zz-custom', 'note', 'free-form category', '', 0.5, 'active', '2026-01-05 09:00:00', '2026-01-05 09:00:00'),
 ('s-g1-vendor-rumour', 'g1-bench', 'fact', 'sfp_vendor', 'Finisar', 'hallway', 0.3, 'invalid', '2026-01-20 10:00:00', '2026-01-21 10:00:00'),
 -- conflict: hostile values on both sides (pipes, backticks, HTML, a link).
 ('s-g2-coating', 'g2', 'fact', 'coating', 'MgF₂ | AR `λ/4` <b>coat</b>', 'coating spec | rev `A`', 1.0, 'active', '2026-02-09 10:00:00', '2026-02-09 10:00:00'),
 ('s-g2-size', 'G2 Ölpumpe', 'fact', 'größe / size', '10 µm ± 2 — ＜fullwidth＞', 'drawing', 1.0, 'active', '2026-02-09 10:00:00', '2026-02-09 10:00:00'),
 ('s-g2-template', 'G2 Ölpumpe', 'config', 'template_like', '{{title}} {{{content}}} {{#each x}}{{/each}} {{! c }}', '{{site_title}}', 1.0, 'active', '2026-02-09 10:00:00', '2026-02-09 10:00:00'),
 ('s-g2-lines', 'G2 Ölpumpe', 'config', 'multi_line', 'line one' || char(10) || '- not a list' || char(13) || char(10) || '# not a heading' || char(10) || '    not code', 'notes', 1.0, 'active', '2026-02-09 10:00:00', '2026-02-09 10:00:00'),
 ('s-g2-long', 'G2 Ölpumpe', 'config', 'long_token', 'https://example.org/' || replace(hex(zeroblob(150)), '00', 'ab') || '?q=a|b&c=<d>', 'notes', 1.0, 'active', '2026-02-09 10:00:00', '2026-02-09 10:00:00'),
 ('s-g2-forgery', 'G2 Ölpumpe', 'status', 'phase', '<a id="state-s-g1-lateral"></a> forged [⚠ disputed](../../conflicts/c-fake.md)', '\\\\* \\_ \\[x\\](y) \', 1.0, 'active', '2026-02-09 10:00:00', '2026-02-09 10:00:00'),
 ('s-g3-owner', 'g3-unlisted', 'contact', 'owner', 'workshop', 'charter', 1.0, 'active', '2026-03-02 10:00:00', '2026-03-02 10:00:00'),
 ('s-none-editor', '', 'config', 'editor', 'vim', 'dotfiles', 1.0, 'active', '2026-01-05 09:00:00', '2026-01-05 09:00:00');

-- ===========================================================================
-- Layer 2: entities
-- ===========================================================================

INSERT INTO entities(id, entity_type, name, project, description, properties, status, confidence, source_refs, created_at, updated_at) VALUES
 ('e-g1-prj', 'project', 'G1 Test bench', 'g1-bench', 'The bench as a whole.', '{}', 'active', 1.0, '["charter"]', '2026-01-05 09:00:00', '2026-01-05 09:00:00'),
 ('e-g1-sys', 'system', 'Bench', 'g1-bench', 'Source, mount and frame on one plate.', '{}', 'active', 1.0, '["layout rev A"]', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 -- subsystems by part_of edge
 ('e-g1-sub-mount', 'subsystem', 'Mirror mount', 'g1-bench', 'Holds the test mirror.', '{}', 'active', 1.0, '["layout rev A"]', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 ('e-g1-sub-source', 'subsystem', 'Source', 'g1-bench', 'Laser and spatial filter.', '{}', 'active', 1.0, '["layout rev A"]', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 -- components: by subsystem property (lateral: no material, a gap), by edge
 ('e-g1-cmp-lateral', 'component', 'Lateral support', 'g1-bench', 'Two 45° pads under the mirror edge.', '{"subsystem":"Mirror mount"}', 'active', 1.0, '["mount rev C"]', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 ('e-g1-cmp-cell', 'component', 'Mirror cell', 'g1-bench', 'Ring cell, kinematic to the plate.', '{"material":"Aluminium 6061-T6"}', 'active', 1.0, '["mount rev C"]', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 ('e-g1-cmp-laser', 'component', 'HeNe laser', 'g1-bench', 'Stabilised, 632.8 nm.', '{}', 'active', 1.0, '["datasheet"]', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 ('e-g1-ifc-kinematic', 'interface', 'Kinematic interface', 'g1-bench', 'Three balls in three grooves.', '{"standard":"Maxwell"}', 'active', 1.0, '["mount rev C"]', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 -- materials: by component property (one superseded), by uses_material edge
 ('e-g1-mat-cell-steel', 'material', 'Stainless steel 316L', 'g1-bench', 'Too heavy.', '{"component":"Mirror cell"}', 'superseded', 1.0, '["mount rev A"]', '2026-01-12 10:00:00', '2026-02-16 10:00:00'),
 ('e-g1-mat-cell-alu', 'material', 'Aluminium 6061-T6', 'g1-bench', 'Stress-relieved.', '{"component":"Mirror cell"}', 'active', 1.0, '["mount rev C"]', '2026-02-16 10:00:00', '2026-02-16 10:00:00'),
 ('e-g1-mat-tube', 'material', 'Borosilicate glass', 'g1-bench', 'Plasma tube.', '{}', 'active', 1.0, '["datasheet"]', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 -- decisions
 -- conflict: against s-g1-lateral (and m-g1-lateral-felt).
 ('e-g1-dec-lateral-peek', 'decision', 'Lateral support material: PEEK', 'g1-bench', 'Lower creep than GF-PTFE.', '{"target":"lateral support","field":"material","value":"PEEK"}', 'active', 0.8, '["meeting 2026-03-09","FEA note | `v2`"]', '2026-03-09 16:00:00', '2026-03-09 16:00:00'),
 -- conflict: against s-g1-refclk; edits.sql supersedes it.
 ('e-g1-dec-refclk', 'decision', 'SerDes reference clock 156.25 MHz', 'g1-bench', 'Keep a 10G option.', '{"target":"serdes refclk","field":"frequency","value":"156.25 MHz"}', 'active', 0.8, '["meeting 2026-03-09"]', '2026-03-09 16:00:00', '2026-03-09 16:00:00'),
 ('e-g1-dec-mount', 'decision', 'Mirror mount: kinematic', 'g1-bench', 'Removable without realignment.', '{"target":"mirror mount","field":"type","value":"kinematic"}', 'active', 1.0, '["concept review"]', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 ('e-g1-dec-cooling', 'decision', 'Enclosure cooling: passive', 'g1-bench', 'Proposed only.', '{"target":"enclosure","field":"cooling","value":"passive"}', 'candidate', 0.5, '[]', '2026-04-06 10:00:00', '2026-04-06 10:00:00'),
 -- requirements (flatness: nothing satisfies it, a gap) and constraints
 ('e-g1-req-aperture', 'requirement', 'Aperture', 'g1-bench', 'Clear aperture.', '{"key":"aperture","value":"150","unit":"mm"}', 'active', 1.0, '["acceptance spec"]', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 ('e-g1-req-flatness', 'requirement', 'Flatness', 'g1-bench', 'Of the reference.', '{"key":"flatness","value":"λ/20 PV"}', 'active', 1.0, '["acceptance spec"]', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 -- conflict: screw count 8 vs 10, resolved with a winner; edits.sql adds 12.
 ('e-g1-con-screws-8', 'constraint', 'Preload screw count (quote)', 'g1-bench', 'Cheapest quote.', '{"target":"Mirror mount","kind":"screw count","value":"8"}', 'active', 0.9, '["quote Q-1"]', '2026-02-16 10:00:00', '2026-02-16 10:00:00'),
 ('e-g1-con-screws-10', 'constraint', 'Preload screw count (FEA review)', 'g1-bench', 'Two more for an even preload.', '{"target":"Mirror mount","kind":"screw count","value":"10"}', 'active', 0.9, '["FEA review"]', '2026-03-02 10:00:00', '2026-03-02 10:00:00'),
 -- parameters: conflict 4.8 kg vs 4.82 kg; windows that do not overlap
 ('e-g1-par-mass-cad', 'parameter', 'mass', 'g1-bench', 'From CAD.', '{"scope":"reference mirror","value":"4.8","unit":"kg"}', 'active', 0.9, '["CAD rev C"]', '2026-02-16 10:00:00', '2026-02-16 10:00:00'),
 ('e-g1-par-mass-weighed', 'parameter', 'mass', 'g1-bench', 'Weighed on delivery.', '{"scope":"reference mirror","value":"4.82","unit":"kg"}', 'active', 1.0, '["goods-in"]', '2026-03-02 10:00:00', '2026-03-02 10:00:00'),
 ('e-g1-par-fsw-1', 'parameter', 'switching frequency', 'g1-bench', 'Rev A.', '{"scope":"driver","value":"1.2","unit":"MHz","valid_from":"2026-01-01 00:00:00","valid_until":"2026-03-31 23:59:59"}', 'active', 1.0, '["rev A"]', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 ('e-g1-par-fsw-2', 'parameter', 'switching frequency', 'g1-bench', 'Rev B.', '{"scope":"driver","value":"2.2","unit":"MHz","valid_from":"2026-04-01 00:00:00"}', 'active', 1.0, '["rev B"]', '2026-04-01 10:00:00', '2026-04-01 10:00:00'),
 ('e-g1-par-stale', 'parameter', 'attenuation', 'g1-bench', 'Wrong datasheet.', '{"scope":"fibre","value":"0.2","unit":"dB/km"}', 'invalid', 0.3, '[]', '2026-01-20 10:00:00', '2026-01-21 10:00:00'),
 -- analysis: conflict 142 Hz vs 138 Hz, resolved without a winner
 ('e-g1-am-modal', 'analysis_model', 'Bench modal FEA', 'g1-bench', 'Free-free modes.', '{"subsystem":"Mirror mount","method":"modal analysis","solver":"CalculiX"}', 'active', 1.0, '["FEA notes"]', '2026-02-16 10:00:00', '2026-02-16 10:00:00'),
 ('e-g1-res-mode-a', 'result', 'First mode (run 1)', 'g1-bench', 'Run 1.', '{"model":"Bench modal FEA","key":"first mode","value":"142","unit":"Hz"}', 'active', 1.0, '["FEA notes"]', '2026-02-16 10:00:00', '2026-02-16 10:00:00'),
 ('e-g1-res-mode-b', 'result', 'First mode (run 2)', 'g1-bench', 'Run 2, struts modelled.', '{"model":"Bench modal FEA","key":"first mode","value":"138","unit":"Hz"}', 'active', 1.0, '["FEA notes"]', '2026-03-02 10:00:00', '2026-03-02 10:00:00'),
 -- validation claims: conflict pass vs fail, dismissed; emc is a gap
 ('e-g1-vc-pass', 'validation_claim', 'Repeatability, enclosure closed', 'g1-bench', '1.6 nm rms.', '{"key":"repeatability test","verdict":"pass"}', 'active', 1.0, '["report 2026-04"]', '2026-04-06 10:00:00', '2026-04-06 10:00:00'),
 ('e-g1-vc-fail', 'validation_claim', 'Repeatability, enclosure open', 'g1-bench', '3.1 nm rms.', '{"key":"repeatability test","verdict":"fail"}', 'active', 1.0, '["report 2026-03"]', '2026-03-16 10:00:00', '2026-03-16 10:00:00'),
 ('e-g1-vc-emc', 'validation_claim', 'EMC pre-scan', 'g1-bench', 'Nothing supports it yet: a gap.', '{"key":"emc pre-scan","verdict":"pending"}', 'active', 1.0, '["test plan"]', '2026-04-06 10:00:00', '2026-04-06 10:00:00'),
 ('e-g1-ven-zygo', 'vendor', 'Zygo', 'g1-bench', 'Transmission flats.', '{"url":"https://www.zygo.com"}', 'active', 1.0, '[]', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 ('e-g1-proc-bond', 'process', 'Pad bonding', 'g1-bench', 'Araldite after plasma cleaning.', '{}', 'active', 1.0, '["assembly notes"]', '2026-04-06 10:00:00', '2026-04-06 10:00:00'),
 ('e-g1-art-layout', 'artifact', 'Layout rev A', 'g1-bench', 'The bench drawing.', '{"path":"cad/g1-layout-revA.pdf"}', 'active', 1.0, '[]', '2026-01-12 10:00:00', '2026-01-12 10:00:00'),
 -- G2: ids that need hashed slugs, hostile names
 ('../../etc/passwd', 'subsystem', 'Pump <b>head</b> | `x` *y*', 'G2 Ölpumpe', '[click](javascript:alert(1))', '{}', 'active', 1.0, '["<script>x</script>"]', '2026-02-09 10:00:00', '2026-02-09 10:00:00'),
 ('CON.txt', 'component', 'Impeller', 'g2', 'Closed impeller.', '{}', 'active', 1.0, '[]', '2026-02-09 10:00:00', '2026-02-09 10:00:00'),
 ('Übergröße', 'material', 'Bronze — CuSn12 ❤', 'ölpumpe', 'Cast.', '{"component":"Impeller"}', 'active', 1.0, '[]', '2026-02-09 10:00:00', '2026-02-09 10:00:00'),
 ('e-g2-dec-speed', 'decision', 'Pump speed', 'g2', 'Nominal.', '{"target":"Pump <b>head</b> | `x` *y*","field":"speed","value":"1 450 rpm | ``x``"}', 'active', 1.0, '[]', '2026-02-09 10:00:00', '2026-02-09 10:00:00'),
 -- no project
 ('e-none-vendor', 'vendor', 'Thorlabs', '', 'Optomechanics.', '{}', 'active', 1.0, '[]', '2026-01-05 09:00:00', '2026-01-05 09:00:00');

-- ===========================================================================
-- Relationships
-- ===========================================================================

INSERT INTO relationships(id, source_entity_id, target_entity_id, relationship_type, confidence, created_at) VALUES
 ('e-g1-sys:part_of:e-g1-prj', 'e-g1-sys', 'e-g1-prj', 'part_of', 1.0, '2026-01-12 10:00:00'),
 ('e-g1-sub-mount:part_of:e-g1-sys', 'e-g1-sub-mount', 'e-g1-sys', 'part_of', 1.0, '2026-01-12 10:00:00'),
 ('e-g1-sub-source:part_of:e-g1-sys', 'e-g1-sub-source', 'e-g1-sys', 'part_of', 1.0, '2026-01-12 10:00:00'),
 ('e-g1-cmp-cell:part_of:e-g1-sub-mount', 'e-g1-cmp-cell', 'e-g1-sub-mount', 'part_of', 1.0, '2026-01-12 10:00:00'),
 ('e-g1-sub-source:contains:e-g1-cmp-laser', 'e-g1-sub-source', 'e-g1-cmp-laser', 'contains', 1.0, '2026-01-12 10:00:00'),
 ('e-g1-cmp-laser:uses_material:e-g1-mat-tube', 'e-g1-cmp-laser', 'e-g1-mat-tube', 'uses_material', 1.0, '2026-01-12 10:00:00'),
 ('e-g1-cmp-cell:interfaces_with:e-g1-ifc-kinematic', 'e-g1-cmp-cell', 'e-g1-ifc-kinematic', 'interfaces_with', 1.0, '2026-01-12 10:00:00'),
 ('e-g1-cmp-lateral:affected_by_decision:e-g1-dec-lateral-peek', 'e-g1-cmp-lateral', 'e-g1-dec-lateral-peek', 'affected_by_decision', 1.0, '2026-03-09 16:00:00'),
 ('e-g1-cmp-cell:satisfies:e-g1-req-aperture', 'e-g1-cmp-cell', 'e-g1-req-aperture', 'satisfies', 0.9, '2026-01-12 10:00:00'),
 ('e-g1-cmp-cell:constrained_by:e-g1-con-screws-10', 'e-g1-cmp-cell', 'e-g1-con-screws-10', 'constrained_by', 1.0, '2026-03-02 10:00:00'),
 ('e-g1-res-mode-a:supports:e-g1-vc-pass', 'e-g1-res-mode-a', 'e-g1-vc-pass', 'supports', 0.7, '2026-04-06 10:00:00'),
 ('e-g1-am-modal:analyzed_by:e-g1-sys', 'e-g1-sys', 'e-g1-am-modal', 'analyzed_by', 1.0, '2026-02-16 10:00:00'),
 ('CON.txt:part_of:../../etc/passwd', 'CON.txt', '../../etc/passwd', 'part_of', 1.0, '2026-02-09 10:00:00');

-- ===========================================================================
-- Layer 1: memories
-- ===========================================================================

INSERT INTO memories(id, memory_type, content, project, confidence, status, reference_count, domain_tags, valid_until, graduated_to_entity_id, created_at, updated_at) VALUES
 -- conflict: joins the three-layer conflict on lateral_support_material.
 ('m-g1-lateral-felt', 'knowledge', 'The lateral support material is felt', 'bench', 0.6, 'active', 2, '["g1","materials"]', NULL, NULL, '2026-03-16 09:00:00', '2026-03-16 09:00:00'),
 -- no conflict: expired long before the builds.
 ('m-g1-aperture-old', 'knowledge', 'Aperture is 100 mm', 'g1-bench', 0.7, 'active', 3, '["g1"]', '2026-03-31 23:59:59', NULL, '2026-01-05 09:00:00', '2026-01-05 09:00:00'),
 -- conflict: workflow preferences; edits.sql adds a third member.
 ('m-g1-pref-rebase', 'preference', 'prefers rebase workflow', 'g1-bench', 0.8, 'active', 4, '["git","workflow"]', NULL, NULL, '2026-01-19 09:00:00', '2026-01-19 09:00:00'),
 ('m-g1-pref-merge', 'preference', 'prefers merge-commit workflow', 'g1', 0.8, 'active', 2, '["git","workflow"]', NULL, NULL, '2026-02-23 09:00:00', '2026-02-23 09:00:00'),
 -- conflict: the role; m-g1-role-junior expires between the two builds,
 -- so the second sweep closes it.
 ('m-g1-role-lead', 'identity', 'works as the optics lead of the bench', 'g1-bench', 0.9, 'active', 7, '["identity"]', NULL, NULL, '2026-01-05 09:00:00', '2026-01-05 09:00:00'),
 ('m-g1-role-junior', 'identity', 'works as a junior technician', 'g1-bench', 0.6, 'active', 1, '["identity"]', '2026-11-01 12:00:00', NULL, '2025-06-02 09:00:00', '2025-06-02 09:00:00'),
 ('m-g1-graduated', 'project', 'Pads get bonded with Araldite after plasma cleaning', 'g1-bench', 0.9, 'graduated', 5, '["g1","assembly"]', NULL, 'e-g1-proc-bond', '2026-03-30 09:00:00', '2026-04-06 10:00:00'),
 ('m-g1-candidate', 'preference', 'uses Code V for tolerancing', 'g1-bench', 0.5, 'candidate', 0, '[]', NULL, NULL, '2026-04-06 09:00:00', '2026-04-06 09:00:00'),
 ('m-g1-superseded', 'project', 'Assembly planned in hall 2', 'g1-bench', 0.7, 'superseded', 1, '["g1"]', NULL, NULL, '2026-01-19 09:00:00', '2026-02-02 09:00:00'),
 ('m-g1-invalid', 'episodic', 'Granite base arrived cracked', 'g1-bench', 0.4, 'invalid', 0, '[]', NULL, NULL, '2026-02-02 09:00:00', '2026-02-03 09:00:00'),
 ('m-g1-episode', 'episodic', 'Saw first fringes with the temporary mount', 'g1-bench', 1.0, 'active', 4, '["g1","milestone"]', NULL, NULL, '2026-05-11 18:00:00', '2026-05-11 18:00:00'),
 ('m-g1-adapt', 'adaptation', 'Quote wavefront numbers in nm rms, not in waves', 'g1-bench', 0.9, 'active', 6, '["units"]', '2030-12-31 00:00:00', NULL, '2026-02-02 09:00:00', '2026-02-02 09:00:00'),
 -- conflict: hostile values against s-g2-coating (cross_layer).
 ('m-g2-coating', 'knowledge', 'The coating is ZnS *hard* [x](javascript:alert(1)) | `y`', 'g2', 0.6, 'active', 1, '["<b>tag</b>","a|b"]', NULL, NULL, '2026-02-16 09:00:00', '2026-02-16 09:00:00'),
 ('m-g2-unicode', 'episodic', 'Übergröße ‮reversed‬ zero​width ⚠ disputed 🙂 <title>x</title><textarea>y</textarea>', 'G2 Ölpumpe', 1.0, 'active', 0, '[]', NULL, NULL, '2026-02-16 09:00:00', '2026-02-16 09:00:00'),
 ('m-g3-jig', 'project', 'Jig drawings handed to the workshop', 'g3-unlisted', 0.8, 'active', 1, '["g3"]', NULL, NULL, '2026-03-02 09:00:00', '2026-03-02 09:00:00'),
 -- conflict: linting preferences of no project.
 ('m-none-ruff', 'preference', 'uses ruff for linting', '', 0.85, 'active', 7, '["python"]', NULL, NULL, '2026-01-05 09:00:00', '2026-01-05 09:00:00'),
 ('m-none-flake8', 'preference', 'uses flake8 for linting', '', 0.7, 'active', 2, '["python"]', NULL, NULL, '2025-11-03 09:00:00', '2025-11-03 09:00:00'),
 ('m-none-expired', 'adaptation', 'Reply in French', '', 0.6, 'active', 1, '[]', '2026-06-30 00:00:00', NULL, '2026-01-05 09:00:00', '2026-01-05 09:00:00');

-- ===========================================================================
-- Audit trail: who changed some of the rows above
-- ===========================================================================

INSERT INTO memory_audit(id, memory_id, entity_kind, action, actor, before_json, after_json, note, timestamp) VALUES
 ('audit-g-1', 'm-g1-superseded', 'memory', 'superseded', 'curator', '{"status":"active"}', '{"status":"superseded"}', 'moved to hall 1', '2026-02-02 09:00:00'),
 ('audit-g-2', 'e-g1-mat-cell-steel', 'entity', 'superseded', 'curator <c@example.org>', '{"status":"active"}', '{"status":"superseded"}', 'replaced by `6061` | alu', '2026-02-16 10:00:00'),
 ('audit-g-3', 's-g1-phase-old', 'project_state', 'superseded', '', '{"status":"active"}', '{"status":"superseded"}', '', '2026-05-04 10:00:00');

COMMIT;
